package service

import "sync"

// changeGate orders the fills of a cache against the drops of the changes
// it hears. A read notes the generation it begins under and stores what it
// read only if no change was heard since; a drop counts and removes in one
// step. Both hold the lock, so no request that arrives after a drop has
// returned can find what the drop took, not even for an instant: a fill
// either came first, and the drop removed it, or comes after, and sees the
// count moved.
type changeGate struct {
	mu         sync.Mutex
	generation uint64
}

// current is the generation a read begins under.
func (g *changeGate) current() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.generation
}

// fill stores what a read that began under generation found, unless a
// change was heard since.
func (g *changeGate) fill(generation uint64, store func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.generation == generation {
		store()
	}
}

// drop counts a change and removes what it made stale.
func (g *changeGate) drop(remove func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.generation++
	remove()
}
