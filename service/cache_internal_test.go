package service

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/database/changefeed"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/flow"
	"github.com/verdict/verdict/internal/heaptest"
	"github.com/verdict/verdict/internal/weighed"
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
	weight := int64(engine.MemoryBytesPerRuleByte*len(big) + cachedEntryOverheadBytes)
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

// The definition cache bounds its memory by each entry's memoryWeight,
// which must not fall short of what a definition holds decoded and
// planned, even one of many short nodes.
func TestAFlowDefinitionWeighsAtLeastWhatItHolds(t *testing.T) {
	const policy = `"policy":{"id":"00000000-0000-0000-0000-000000000001"}`
	chain := []string{`{"id":"s","type":"start",` + policy + `,"onTrue":"c0","onFalse":"r"}`}
	for i := range 1000 {
		chain = append(chain, fmt.Sprintf(`{"id":"c%d","type":"policy",%s,"onTrue":"c%d","onFalse":"r"}`, i, policy, i+1))
	}
	chain = append(chain, `{"id":"c1000","type":"return","returnValue":false}`, `{"id":"r","type":"return","returnValue":true}`)
	var fan, targets []string
	for i := range 1000 {
		targets = append(targets, fmt.Sprintf(`"r%d"`, i))
		fan = append(fan, fmt.Sprintf(`{"id":"r%d","type":"return","returnValue":true}`, i))
	}
	fan = append(fan, `{"id":"s","type":"start",`+policy+`,"onTrue":[`+strings.Join(targets, ",")+`],"onFalse":"r0"}`)
	for _, c := range []struct {
		name  string
		nodes []string
	}{{"a chain of policy nodes", chain}, {"a start node branching to many return nodes", fan}} {
		text := []byte(`{"formatVersion":1,"nodes":[` + strings.Join(c.nodes, ",") + `]}`)
		parse := func() *parsedFlow {
			f := parseStored(text)
			if _, err := f.runPlan(); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			return f
		}
		heaptest.CheckWeight(t, c.name, 10, parse, (*parsedFlow).memoryWeight)
	}
}

// The record cache bounds its memory by contentBytes, which must not fall
// short of what a record holds, even one of many small tests.
func TestARecordWeighsAtLeastWhatItHolds(t *testing.T) {
	for _, test := range []string{`{"name":"t%d","data":{},"expect":true}`, `{"name":"adult %d","data":{"Person":{"age":70}},"expect":true}`} {
		tests := make([]string, 1000)
		for i := range tests {
			tests[i] = fmt.Sprintf(test, i)
		}
		text := []byte("[" + strings.Join(tests, ",") + "]")
		load := func() *ent.Record {
			// As ent loads the tests column.
			r := &ent.Record{Name: "Adults", Rule: "A **Person** is an adult if the __age__ of the **Person** is at least 18."}
			if err := json.Unmarshal(text, &r.Tests); err != nil {
				t.Fatal(err)
			}
			return r
		}
		heaptest.CheckWeight(t, "tests like "+test, 10, load, contentBytes)
	}
}

// The base cache bounds its memory by memoryWeight, which must not fall
// short of what a base holds, even one of the longest description and
// mask.
func TestABaseWeighsAtLeastWhatItHolds(t *testing.T) {
	long := func(n int, seed string) string { return strings.Repeat(seed, n/len(seed)+1)[:n] }
	mask := make([]string, MaxMaskPaths)
	for i := range mask {
		mask[i] = "$." + long(MaxMaskPathLength-5, "segment_.") + fmt.Sprintf("%03d", i)
	}
	for _, c := range []struct {
		name        string
		description int
		mask        []string
	}{{"a base of a name alone", 0, nil}, {"a base of the longest description and mask", MaxDescriptionLength, mask}} {
		load := func() *cachedBase {
			// As ent loads a base: every text its own.
			b := &ent.Base{Name: strings.Clone(c.name), Description: long(c.description, "policy "),
				DecisionsEnabled: c.mask != nil, DecisionsSampleRate: 1}
			for _, p := range c.mask {
				b.DecisionsMask = append(b.DecisionsMask, strings.Clone(p))
			}
			return newCachedBase(b)
		}
		heaptest.CheckWeight(t, c.name, 100, load, (*cachedBase).memoryWeight)
		if c.mask != nil && load().recording == nil {
			t.Errorf("%s: its mask does not parse", c.name)
		}
	}
}

// addCounting is a record cache that counts what is stored in it and may
// hear a change just as a read stores what it read.
type addCounting struct {
	*weighed.Cache[uuid.UUID, *ent.Record]
	adds     *int
	whileAdd func()
}

func (c addCounting) Add(id uuid.UUID, r *ent.Record) bool {
	*c.adds++
	if c.whileAdd != nil {
		c.whileAdd()
	}
	return c.Cache.Add(id, r)
}

func newCachedService(t *testing.T) *Service {
	t.Helper()
	s := &Service{}
	var err error
	if s.cache, err = newRunCache(10, 1<<20, time.Hour, nil); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestARecordReadBeforeAChangeIsNeverStored(t *testing.T) {
	s := newCachedService(t)
	id := uuid.New()
	before := &ent.Record{ID: id, Rule: "before the change"}
	adds := 0
	records := addCounting{Cache: s.cache.records, adds: &adds}
	// The change is heard while the read runs: storing what it read, even
	// for the instant before removing it, would show a request that comes
	// after the change the record as it was.
	read := func(context.Context, uuid.UUID) (*ent.Record, error) {
		s.cache.drop(changefeed.Change{Kind: changefeed.KindBase, ID: uuid.New(), Record: id})
		return before, nil
	}
	got, err := cached(context.Background(), s, &timings{}, records, "record", id, read)
	if err != nil || got != before {
		t.Fatalf("the read answered %v, %v; want what it read", got, err)
	}
	if adds != 0 {
		t.Errorf("the read stored what it read %d times, after the change was heard", adds)
	}
}

func TestARecordReadBeforeAChangeIsNotKeptWhenTheChangeIsHeardAsItIsStored(t *testing.T) {
	s := newCachedService(t)
	id := uuid.New()
	before := &ent.Record{ID: id, Rule: "before the change"}
	adds := 0
	var heard sync.WaitGroup
	records := addCounting{Cache: s.cache.records, adds: &adds, whileAdd: func() {
		heard.Go(func() {
			s.cache.drop(changefeed.Change{Kind: changefeed.KindBase, ID: uuid.New(), Record: id})
		})
	}}
	read := func(context.Context, uuid.UUID) (*ent.Record, error) { return before, nil }
	got, err := cached(context.Background(), s, &timings{}, records, "record", id, read)
	if err != nil || got != before {
		t.Fatalf("the read answered %v, %v; want what it read", got, err)
	}
	heard.Wait()
	if r, ok := s.cache.records.Peek(id); ok {
		t.Errorf("the cache kept %q, read before the change it heard", r.Rule)
	}
}
