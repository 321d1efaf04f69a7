package weighed_test

import (
	"testing"
	"time"

	"github.com/verdict/verdict/internal/weighed"
)

// weighValue weighs a value as what it says.
func weighValue(_ string, v int64) int64 { return v }

// TestACacheKeepsTheMostRecentlyUsedWithinItsBytes runs on both kinds of
// cache, of at most 10 entries and 100 bytes; the expiring one's entries
// outlive the test.
func TestACacheKeepsTheMostRecentlyUsedWithinItsBytes(t *testing.T) {
	lru, err := weighed.NewLRU(10, 100, weighValue)
	if err != nil {
		t.Fatal(err)
	}
	for name, w := range map[string]*weighed.Cache[string, int64]{
		"lru": lru, "expirable": weighed.NewExpirable(10, 100, time.Hour, weighValue),
	} {
		t.Run(name, func(t *testing.T) { keepsTheMostRecentlyUsed(t, w) })
	}
}

func keepsTheMostRecentlyUsed(t *testing.T, w *weighed.Cache[string, int64]) {
	w.Add("a", 40)
	w.Add("b", 40)
	w.Get("a") // b is now the least recently used
	w.Add("c", 30)
	if _, ok := w.Peek("b"); ok || w.Bytes() != 70 {
		t.Errorf("after 110 bytes: b kept %v, %d bytes held; want b evicted and 70", ok, w.Bytes())
	}
	// Replacing a value counts the new one only.
	w.Add("a", 10)
	w.Add("a", 20)
	if w.Bytes() != 50 {
		t.Errorf("%d bytes held after replacing a, want 50", w.Bytes())
	}
	// An entry larger than the whole bound is not kept: the cache evicts
	// everything older, then it.
	w.Add("huge", 101)
	if _, ok := w.Peek("huge"); ok || w.Len() != 0 || w.Bytes() != 0 {
		t.Errorf("after a 101-byte entry: %d entries, %d bytes", w.Len(), w.Bytes())
	}
	w.Add("d", 60)
	w.Add("e", 30)
	w.Remove("d")
	if w.Bytes() != 30 {
		t.Errorf("%d bytes after removing d, want 30", w.Bytes())
	}
	w.Purge()
	if w.Bytes() != 0 {
		t.Errorf("%d bytes after a purge, want 0", w.Bytes())
	}
	// The count bounds it too: eleven entries of 1 keep ten.
	for _, k := range []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"} {
		w.Add(k, 1)
	}
	if w.Len() != 10 || w.Bytes() != 10 {
		t.Errorf("%d entries, %d bytes; want 10 and 10", w.Len(), w.Bytes())
	}
}

// TestAnExpiryOfAnyPositiveLengthIsKept: the expiring LRU drops expired
// entries every hundredth of the expiry, which for an expiry below 100ns
// is no interval at all. Each such cache expires after MinExpiry instead.
func TestAnExpiryOfAnyPositiveLengthIsKept(t *testing.T) {
	for _, expiry := range []time.Duration{time.Nanosecond, 99 * time.Nanosecond, time.Microsecond} {
		w := weighed.NewExpirable(10, 100, expiry, weighValue)
		w.Add("a", 1)
		time.Sleep(2 * weighed.MinExpiry)
		if _, ok := w.Get("a"); ok {
			t.Errorf("an expiry of %s: the entry is still there after %s", expiry, 2*weighed.MinExpiry)
		}
	}
}
