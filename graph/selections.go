package graph

import "github.com/vektah/gqlparser/v2/ast"

// selectionFold folds an operation's selection sets into one value, each
// fragment once however often it is spread, so that a document cannot make
// the walk exponential. The limits that look at an operation before it
// runs (documentBounds, pageLimit) are folds.
type selectionFold[T any] struct {
	fragments ast.FragmentDefinitionList
	// field is the value of a field; inner folds the field's own
	// selection set, for field to call when it needs it.
	field func(f *ast.Field, inner func() T) T
	// join adds the value of one selection to those of the selections
	// before it in the set, starting from T's zero value.
	join func(sofar, next T) T
	// fragment, when set, is the value of an inline fragment or a fragment
	// spread whose selections are worth inner; without it, inner.
	fragment func(inner T) T

	known map[string]T    // value of each fragment folded so far
	open  map[string]bool // fragments being folded, to stop at a cycle
}

func newSelectionFold[T any](fragments ast.FragmentDefinitionList,
	field func(f *ast.Field, inner func() T) T, join func(sofar, next T) T) *selectionFold[T] {
	return &selectionFold[T]{fragments: fragments, field: field, join: join,
		known: map[string]T{}, open: map[string]bool{}}
}

func (w *selectionFold[T]) set(set ast.SelectionSet) T {
	var v T
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			v = w.join(v, w.field(s, func() T { return w.set(s.SelectionSet) }))
		case *ast.InlineFragment:
			v = w.join(v, w.wrap(w.set(s.SelectionSet)))
		case *ast.FragmentSpread:
			v = w.join(v, w.wrap(w.spread(s.Name)))
		}
	}
	return v
}

func (w *selectionFold[T]) wrap(inner T) T {
	if w.fragment == nil {
		return inner
	}
	return w.fragment(inner)
}

// spread is the value of the fragment name.
func (w *selectionFold[T]) spread(name string) T {
	if v, ok := w.known[name]; ok {
		return v
	}
	def := w.fragments.ForName(name)
	// Validation has refused unknown fragments and cycles already; this
	// only keeps the fold finite should it ever see one.
	if def == nil || w.open[name] {
		var zero T
		return zero
	}
	w.open[name] = true
	v := w.set(def.SelectionSet)
	delete(w.open, name)
	w.known[name] = v
	return v
}
