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
	deepest := func(sofar, next int) int { return max(sofar, next) }
	depth := newSelectionFold(op.Doc.Fragments, fieldDepth, deepest).set(op.Operation.SelectionSet)
	if depth > l.max {
		err := gqlerror.ErrorPosf(op.Operation.Position,
			"the operation nests fields %d deep, more than the limit of %d", depth, l.max)
		err.Extensions = map[string]any{"code": string(service.CodeInvalidArgument)}
		return err
	}
	return nil
}

// fieldDepth is a field's level and those nested in it.
func fieldDepth(f *ast.Field, inner func() int) int {
	if strings.HasPrefix(f.Name, "__") {
		return 1
	}
	return 1 + inner()
}
