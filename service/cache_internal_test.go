package service

import (
	"strings"
	"testing"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/flow"
)

// newTestWeighed is a weighed cache of at most 10 entries and limit
// bytes, whose values weigh what they say.
func newTestWeighed(t *testing.T, limit int64) *weighed[string, int64] {
	t.Helper()
	var err error
	w := newWeighed(limit, func(v int64) int64 { return v }, func(evicted func(string, int64)) lruCache[string, int64] {
		var l *lru.Cache[string, int64]
		l, err = lru.NewWithEvict(10, evicted)
		return l
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestAWeighedCacheKeepsTheMostRecentlyUsedWithinItsBytes(t *testing.T) {
	w := newTestWeighed(t, 100)
	w.Add("a", 40)
	w.Add("b", 40)
	w.Get("a") // b is now the least recently used
	w.Add("c", 30)
	if _, ok := w.Peek("b"); ok || w.bytes() != 70 {
		t.Errorf("after 110 bytes: b kept %v, %d bytes held; want b evicted and 70", ok, w.bytes())
	}
	// Replacing a value counts the new one only.
	w.Add("a", 10)
	w.Add("a", 20)
	if w.bytes() != 50 {
		t.Errorf("%d bytes held after replacing a, want 50", w.bytes())
	}
	// An entry larger than the whole bound is not kept: the cache evicts
	// everything older, then it.
	w.Add("huge", 101)
	if _, ok := w.Peek("huge"); ok || w.Len() != 0 || w.bytes() != 0 {
		t.Errorf("after a 101-byte entry: %d entries, %d bytes", w.Len(), w.bytes())
	}
	w.Add("d", 60)
	w.Add("e", 30)
	w.Remove("d")
	if w.bytes() != 30 {
		t.Errorf("%d bytes after removing d, want 30", w.bytes())
	}
	w.Purge()
	if w.bytes() != 0 {
		t.Errorf("%d bytes after a purge, want 0", w.bytes())
	}
	// The count bounds it too: eleven entries of 1 keep ten.
	for _, k := range []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"} {
		w.Add(k, 1)
	}
	if w.Len() != 10 || w.bytes() != 10 {
		t.Errorf("%d entries, %d bytes; want 10 and 10", w.Len(), w.bytes())
	}
}

func TestTheProgramCacheKeepsLargeRulesWithinItsShareOfTheBytes(t *testing.T) {
	// 4 MiB in all: 2 MiB for programs, each of these about 1.2 MB.
	c, err := newRunCache(10, 4<<20, time.Minute, nil)
	if err != nil {
		t.Fatal(err)
	}
	var eng engine.Engine
	big := "A **Person** gets big if the __age__ of the **Person** is at least 1" +
		strings.Repeat(" and the __age__ of the **Person** is at least 1", 2000) + "."
	weight := int64(programBytesPerRuleByte*len(big) + cachedEntryOverheadBytes)
	c.programs.Add(programKey{revision: 1}, flow.CompilePolicy(&eng, big))
	c.programs.Add(programKey{revision: 2}, flow.CompilePolicy(&eng, big))
	if _, ok := c.programs.Peek(programKey{revision: 1}); ok || c.programs.Len() != 1 || c.programs.bytes() != weight {
		t.Errorf("%d programs of %d bytes kept; want the second alone, %d", c.programs.Len(), c.programs.bytes(), weight)
	}
	small := "A **Person** is an adult if the __age__ of the **Person** is at least 18."
	c.programs.Add(programKey{revision: 3}, flow.CompilePolicy(&eng, small))
	if c.programs.Len() != 2 {
		t.Errorf("%d programs kept, want the large and the small one", c.programs.Len())
	}
}
