package auditstore

import (
	"testing"
	"time"

	"github.com/google/uuid"
)

func TestAnIDHoldsTheMillisecondOfItsEvent(t *testing.T) {
	for _, at := range []time.Time{time.Now(), time.Date(2024, 2, 29, 23, 59, 59, 999999000, time.UTC), time.UnixMilli(0)} {
		id := NewID(at)
		if got := idTime(id); !got.Equal(at.Truncate(time.Millisecond)) {
			t.Errorf("NewID(%v) holds %v", at, got)
		}
		if id.Version() != 7 || id.Variant() != uuid.RFC4122 {
			t.Errorf("NewID(%v) = %s: version %d, variant %v", at, id, id.Version(), id.Variant())
		}
	}
	if a, b := NewID(time.Now()), NewID(time.Now()); a == b {
		t.Errorf("two ids made at once are one: %s", a)
	}
}
