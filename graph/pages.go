package graph

import (
	"context"
	"errors"
	"math"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/verdict/verdict/graph/model"
	"github.com/verdict/verdict/service"
)

// listOptions are a connection field's arguments as the service takes
// them. pageLimit has refused a first the service would refuse before any
// resolver runs, so a present first is a valid limit (an absent one is the
// service's default). The service counts the whole list only when the
// operation selects the connection's totalCount, since the count is one
// more query.
func listOptions(ctx context.Context, first *int, after, query *string) service.ListOptions {
	var o service.ListOptions
	if first != nil {
		o.Limit = *first
	}
	if after != nil {
		o.Cursor = *after
	}
	if query != nil {
		o.Query = *query
	}
	for _, f := range graphql.CollectFieldsCtx(ctx, nil) {
		if f.Name == "totalCount" {
			o.WithTotal = true
		}
	}
	return o
}

// pageLimit refuses an operation that asks any connection (every field
// with a `first` argument is one) for a page size the service refuses,
// before anything is resolved: the service would refuse it too, but only
// once the fields before it had run, and the complexity of the operation
// is counted from page sizes it can trust.
type pageLimit struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = pageLimit{}

func (pageLimit) ExtensionName() string { return "PageLimit" }

func (pageLimit) Validate(graphql.ExecutableSchema) error { return nil }

func (pageLimit) MutateOperationContext(_ context.Context, op *graphql.OperationContext) *gqlerror.Error {
	check := func(f *ast.Field, inner func() *gqlerror.Error) *gqlerror.Error {
		if err := checkPageSize(f, op.Variables); err != nil {
			return err
		}
		return inner()
	}
	return newSelectionFold(op.Doc.Fragments, check, firstError).set(op.Operation.SelectionSet)
}

func firstError(sofar, next *gqlerror.Error) *gqlerror.Error {
	if sofar != nil {
		return sofar
	}
	return next
}

// checkPageSize refuses the field's first when the service would.
func checkPageSize(f *ast.Field, vars map[string]any) *gqlerror.Error {
	if f.Definition == nil || f.Definition.Arguments.ForName("first") == nil {
		return nil
	}
	v := f.ArgumentMap(vars)["first"]
	if v == nil {
		return nil
	}
	n, err := model.UnmarshalInt(v)
	if err == nil {
		err = service.CheckPageSize("first of "+f.Alias, n)
	}
	var se *service.Error
	if errors.As(err, &se) {
		return refusal(f.Position, "%s", se.Message)
	}
	return nil
}

// pagedComplexity makes a connection cost its page size times what is
// selected in it, plus one: a page of 200 items costs 200 times one item,
// so a wide nested query (groups, each with its policies) costs what it
// will fetch. gqlgen's default would count what is selected once,
// whatever the page size.
type pagedComplexity struct {
	graphql.ExecutableSchema
	connections map[string]bool // "Type.field" of every field with a first argument
}

func newPagedComplexity(es graphql.ExecutableSchema) pagedComplexity {
	c := pagedComplexity{ExecutableSchema: es, connections: map[string]bool{}}
	for _, def := range es.Schema().Types {
		for _, f := range def.Fields {
			if f.Arguments.ForName("first") != nil {
				c.connections[def.Name+"."+f.Name] = true
			}
		}
	}
	return c
}

func (c pagedComplexity) Complexity(ctx context.Context, typeName, field string, childComplexity int, args map[string]any) (int, bool) {
	if !c.connections[typeName+"."+field] {
		return c.ExecutableSchema.Complexity(ctx, typeName, field, childComplexity, args)
	}
	size := service.DefaultPageSize
	if v := args["first"]; v != nil {
		// pageLimit has refused sizes the service would already; the
		// clamp only keeps the arithmetic below safe.
		if n, err := model.UnmarshalInt(v); err == nil {
			size = min(max(n, 1), service.MaxPageSize)
		}
	}
	if childComplexity > (math.MaxInt-1)/size {
		return math.MaxInt, true
	}
	return 1 + size*childComplexity, true
}
