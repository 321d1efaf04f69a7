package graph

import (
	"context"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/verdict/verdict/service"
)

// depthLimit rejects an operation whose fields nest deeper than max, before
// anything is resolved. gqlgen has a complexity limit but no depth limit.
//
// A field counts one level; fragments count none of their own. The
// introspection fields __schema and __type count one level: below them the
// validator's own introspection depth rule applies.
type depthLimit struct {
	max int
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = depthLimit{}

func (depthLimit) ExtensionName() string { return "DepthLimit" }

func (depthLimit) Validate(graphql.ExecutableSchema) error { return nil }

func (l depthLimit) MutateOperationContext(_ context.Context, op *graphql.OperationContext) *gqlerror.Error {
	m := depthMeter{fragments: op.Doc.Fragments, known: map[string]int{}, open: map[string]bool{}}
	if depth := m.depth(op.Operation.SelectionSet); depth > l.max {
		err := gqlerror.ErrorPosf(op.Operation.Position,
			"the operation nests fields %d deep, more than the limit of %d", depth, l.max)
		err.Extensions = map[string]any{"code": string(service.CodeInvalidArgument)}
		return err
	}
	return nil
}

// depthMeter measures selection sets, measuring each fragment once however
// often it is spread, so that a document cannot make it work exponentially.
type depthMeter struct {
	fragments ast.FragmentDefinitionList
	known     map[string]int  // depth of each fragment measured so far
	open      map[string]bool // fragments being measured, to stop at a cycle
}

func (m *depthMeter) depth(set ast.SelectionSet) int {
	deepest := 0
	for _, sel := range set {
		d := 0
		switch s := sel.(type) {
		case *ast.Field:
			d = 1
			if !strings.HasPrefix(s.Name, "__") {
				d += m.depth(s.SelectionSet)
			}
		case *ast.InlineFragment:
			d = m.depth(s.SelectionSet)
		case *ast.FragmentSpread:
			d = m.fragmentDepth(s.Name)
		}
		deepest = max(deepest, d)
	}
	return deepest
}

func (m *depthMeter) fragmentDepth(name string) int {
	if d, ok := m.known[name]; ok {
		return d
	}
	def := m.fragments.ForName(name)
	// Validation has refused unknown fragments and cycles already; this
	// only keeps the meter finite should it ever see one.
	if def == nil || m.open[name] {
		return 0
	}
	m.open[name] = true
	d := m.depth(def.SelectionSet)
	delete(m.open, name)
	m.known[name] = d
	return d
}
