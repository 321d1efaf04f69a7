package auditstore

import (
	"encoding/binary"
	"sync"
	"time"

	"github.com/google/uuid"
)

// IDs makes the ids of events from their times: UUIDv7s whose millisecond
// is the event's own, or at most maxIDLead after it, so that Get, which
// looks for an id near the time it holds, finds every event however the
// clock moved between two events (for times from 1970 on, which a UUIDv7
// can hold). A UUIDv7 taken from the clock itself is kept ahead of every
// earlier one (google/uuid's NewV7): after the clock steps back, its time
// runs ahead of the events' own for as long as the step.
//
// The 12 bits after the millisecond hold the fraction of it, so ids sort
// as their times do. An id that would not sort after the last one, as for
// events of one time, follows it instead, as long as that puts it less
// than maxIDLead ahead of its own time: events of one time, or of a clock
// standing still, get ids in the order they were made. After a step back
// that leaves the last id further ahead, an id starts again from its own
// time, and the ids of events of one time then sort by their random bits.
// The zero value is ready for use, and safe for concurrent use.
type IDs struct {
	mu sync.Mutex
	// last is the time part of the last id: millisecond << 12 | fraction.
	last int64
}

// maxIDLead bounds how far an id's time may run ahead of its event's, well
// within the window Get looks in; maxStampLead is the same in stamps.
const (
	maxIDLead    = idWindow / 2
	maxStampLead = int64(maxIDLead/time.Millisecond) << 12
)

// At is a new id for an event at t.
func (g *IDs) At(t time.Time) uuid.UUID {
	stamp := idStamp(t)
	g.mu.Lock()
	if stamp <= g.last && g.last-stamp < maxStampLead {
		stamp = g.last + 1
	}
	g.last = stamp
	g.mu.Unlock()
	id := uuid.New() // the random bits and the variant
	var ms [8]byte
	binary.BigEndian.PutUint64(ms[:], uint64(stamp>>12))
	copy(id[:6], ms[2:])
	fraction := stamp & 0xfff
	id[6] = 0x70 | byte(fraction>>8) // the version, 7
	id[7] = byte(fraction)
	return id
}

// idStamp is t's millisecond since the epoch, with its fraction in 12 bits.
func idStamp(t time.Time) int64 {
	fraction := int64(t.Nanosecond() % int(time.Millisecond))
	return t.UnixMilli()<<12 | fraction<<12/int64(time.Millisecond)
}

// idTime is the millisecond a UUIDv7 was made in.
func idTime(id uuid.UUID) time.Time {
	var stamp [8]byte
	copy(stamp[2:], id[:6])
	return time.UnixMilli(int64(binary.BigEndian.Uint64(stamp[:])))
}
