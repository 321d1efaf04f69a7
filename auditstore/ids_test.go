package auditstore

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/uuid"
)

// checkID checks that id is a UUIDv7 of the millisecond at, or at most
// maxIDLead after it.
func checkID(t *testing.T, id uuid.UUID, at time.Time) {
	t.Helper()
	if id.Version() != 7 || id.Variant() != uuid.RFC4122 {
		t.Fatalf("%s is version %d, variant %v; want a UUIDv7", id, id.Version(), id.Variant())
	}
	if lead := idTime(id).Sub(at.Truncate(time.Millisecond)); lead < 0 || lead > maxIDLead {
		t.Fatalf("%s holds %v, %v from its event's time %v", id, idTime(id), lead, at)
	}
}

func TestAnIDHoldsTheTimeOfItsEvent(t *testing.T) {
	var g IDs
	at := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	var last uuid.UUID
	for i, step := range []time.Duration{0, time.Microsecond, 300 * time.Microsecond, 2 * time.Millisecond, time.Hour} {
		at = at.Add(step)
		id := g.At(at)
		checkID(t, id, at)
		if !idTime(id).Equal(at.Truncate(time.Millisecond)) {
			t.Errorf("id %d holds %v, want the millisecond of %v", i, idTime(id), at)
		}
		if i > 0 && bytes.Compare(id[:], last[:]) <= 0 {
			t.Errorf("id %d, %s, does not sort after %s, whose event is older", i, id, last)
		}
		last = id
	}
}

// Events of one time (a clock standing still, or many events in one
// tick) get ids in the order they were made, a little ahead of their time
// when there are more than the fraction of a millisecond can tell apart.
func TestIDsOfOneTimeSortInTheOrderTheyWereMade(t *testing.T) {
	var g IDs
	at := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	last := g.At(at)
	for range 10_000 {
		id := g.At(at)
		checkID(t, id, at)
		if bytes.Compare(id[:], last[:]) <= 0 {
			t.Fatalf("%s does not sort after %s, made before it", id, last)
		}
		last = id
	}
}

// After the clock steps back, an id holds the time of its own event, where
// a UUIDv7 taken from the clock runs ahead by the whole step: Get, which
// looks near an id's time, would not find the event. A small step back
// keeps the order the ids were made in.
func TestAClockSteppedBackGivesIDsOfTheEventsTime(t *testing.T) {
	var g IDs
	at := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	first := g.At(at)
	small := at.Add(-100 * time.Millisecond)
	id := g.At(small)
	checkID(t, id, small)
	if bytes.Compare(id[:], first[:]) <= 0 {
		t.Errorf("after a step back of 100 ms, %s does not sort after %s", id, first)
	}
	back := at.Add(-time.Hour)
	id = g.At(back)
	checkID(t, id, back)
	if !idTime(id).Equal(back) {
		t.Errorf("after a step back of an hour, the id holds %v, want %v", idTime(id), back)
	}
}
