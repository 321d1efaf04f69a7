package service

import (
	"strings"
	"testing"
	"time"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/flow"
)

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
	if _, ok := c.programs.Peek(programKey{revision: 1}); ok || c.programs.Len() != 1 || c.programs.Bytes() != weight {
		t.Errorf("%d programs of %d bytes kept; want the second alone, %d", c.programs.Len(), c.programs.Bytes(), weight)
	}
	small := "A **Person** is an adult if the __age__ of the **Person** is at least 18."
	c.programs.Add(programKey{revision: 3}, flow.CompilePolicy(&eng, small))
	if c.programs.Len() != 2 {
		t.Errorf("%d programs kept, want the large and the small one", c.programs.Len())
	}
}
