package graph

import "github.com/vektah/gqlparser/v2/ast"

// selectionFold folds an operation's selection sets into one value, each
// fragment once however often it is spread, so that a document cannot make
// the walk exponential. The limits that look at an operation before it
// runs (documentBounds, listArguments) are folds.
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

// fieldWalk visits the fields of selection sets as validation reads them:
// each fragment expanded where it is spread. Unlike a fold it expands a
// fragment at every spread, so its caller bounds the expanded size first
// (documentBounds counts it with a fold).
type fieldWalk struct {
	fragments ast.FragmentDefinitionList
	// open holds the fragments being expanded, across the nested walks of
	// one operation, to stop at a cycle, which validation refuses only
	// after the walk.
	open map[string]bool
}

func newFieldWalk(fragments ast.FragmentDefinitionList) fieldWalk {
	return fieldWalk{fragments: fragments, open: map[string]bool{}}
}

// each calls field for each field of set, with the type condition of the
// innermost fragment it stands in (typeCondition when none), until field
// returns false; it reports whether the walk ran to the end.
func (w fieldWalk) each(set ast.SelectionSet, typeCondition string, field func(f *ast.Field, typeCondition string) bool) bool {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if !field(s, typeCondition) {
				return false
			}
		case *ast.InlineFragment:
			if !w.each(s.SelectionSet, s.TypeCondition, field) {
				return false
			}
		case *ast.FragmentSpread:
			def := w.fragments.ForName(s.Name)
			if def == nil || w.open[s.Name] {
				continue
			}
			w.open[s.Name] = true
			ended := w.each(def.SelectionSet, def.TypeCondition, field)
			delete(w.open, s.Name)
			if !ended {
				return false
			}
		}
	}
	return true
}
