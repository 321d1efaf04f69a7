package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/internal/heaptest"
)

// A cache bounds its memory by the programs' MemoryWeight, so the weight
// must not fall short of what a program holds, even for rules whose lists
// hold far more than the bytes they are written in; nor should it be so
// far above that a cache keeps a fraction of what it could.
func TestMemoryWeightCoversWhatAProgramHolds(t *testing.T) {
	list := func(item func(i int) string) string {
		items := make([]string, 1000) // the most a list may hold
		for i := range items {
			items[i] = item(i)
		}
		return "A **Person** is listed if the __code__ of the **Person** is in [" + strings.Join(items, ",") + "]."
	}
	conditions := make([]string, 300)
	for i := range conditions {
		conditions[i] = fmt.Sprintf("the __field %d__ of the **Person** is at least %d", i, i)
	}
	for _, c := range []struct{ name, rule string }{
		{"conditions", "A **Person** is complete if " + strings.Join(conditions, " and ") + "."},
		{"a list of digits", list(func(i int) string { return fmt.Sprint(i % 10) })},
		{"a list of numbers", list(func(i int) string { return fmt.Sprint(i) })},
		{"a list of letters", list(func(i int) string { return fmt.Sprintf("%q", string(rune('a'+i%26))) })},
		{"a list of distinct strings", list(func(i int) string { return fmt.Sprintf("%q", fmt.Sprint(i)) })},
	} {
		var eng engine.Engine
		compile := func() *engine.Program {
			prog, err := eng.Compile(c.rule)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			return prog
		}
		heaptest.CheckWeight(t, c.name, 20, compile, func(p *engine.Program) int { return p.MemoryWeight(len(c.rule)) })
	}
}
