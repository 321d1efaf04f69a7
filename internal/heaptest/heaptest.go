// Package heaptest measures what values keep on the heap, for tests of the
// estimates that bound a cache's memory.
package heaptest

import (
	"runtime"
	"slices"
)

// Held is what one of the values build returns keeps on the heap, on
// average over n of them kept at once. What else the process comes to hold
// or let go meanwhile (another test's server filling its caches, or
// dropping them) would move a measurement, so the median of three is
// taken.
func Held(n int, build func() any) int {
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
