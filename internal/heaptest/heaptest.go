// Package heaptest measures what values keep on the heap, for tests of the
// estimates that bound a cache's memory.
package heaptest

import (
	"runtime"
	"slices"
	"testing"
)

// CheckWeight fails t when weigh, the estimate a cache bounds its memory
// by, falls short of what a value of build holds on the heap (over n of
// them), or exceeds three times it: the cache would hold more than its
// bound, or a fraction of what it could.
func CheckWeight[V any](t testing.TB, what string, n int, build func() V, weigh func(V) int) {
	t.Helper()
	held := held(n, func() any { return build() })
	if weight := weigh(build()); weight < held || weight > 3*held {
		t.Errorf("%s: weighs %d bytes, holds %d", what, weight, held)
	}
}

// held is what one of the values build returns keeps on the heap, on
// average over n of them kept at once. What else the process comes to hold
// or let go meanwhile (another test's server filling its caches, or
// dropping them) would move a measurement, so the median of three is
// taken.
func held(n int, build func() any) int {
	held := []int{measure(n, build), measure(n, build), measure(n, build)}
	slices.Sort(held)
	return held[1]
}

func measure(n int, build func() any) int {
	kept := make([]any, n)
	before := live()
	for i := range kept {
		kept[i] = build()
	}
	after := live()
	runtime.KeepAlive(kept)
	return int(int64(after)-int64(before)) / n
}

// live is the heap that a full collection leaves.
func live() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
