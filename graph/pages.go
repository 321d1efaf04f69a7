package graph

import (
	"context"
	"math"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/verdict/verdict/graph/model"
	"github.com/verdict/verdict/service"
)

// Page sizes of connections: the service's list limits (api.md, `limit`
// 1–200, default 50). Every field with a `first` argument is a connection.
const (
	defaultPageSize = 50
	maxPageSize     = 200
)

// listOptions are a connection field's arguments as the service takes
// them. The service counts the whole list only when the operation selects
// the connection's totalCount, since the count is one more query.
func listOptions(ctx context.Context, first *int, after, query *string) service.ListOptions {
	o := model.ListOptions(first, after, query)
	for _, f := range graphql.CollectFieldsCtx(ctx, nil) {
		if f.Name == "totalCount" {
			o.WithTotal = true
		}
	}
	return o
}

// pageLimit refuses an operation that asks any connection for a page size
// outside 1–maxPageSize, before anything is resolved: the service would
// refuse it too, but only once the fields before it had run, and the
// complexity of the operation is counted from page sizes it can trust.
type pageLimit struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = pageLimit{}

func (pageLimit) ExtensionName() string { return "PageLimit" }

func (pageLimit) Validate(graphql.ExecutableSchema) error { return nil }

func (pageLimit) MutateOperationContext(_ context.Context, op *graphql.OperationContext) *gqlerror.Error {
	c := pageChecker{fragments: op.Doc.Fragments, vars: op.Variables, checked: map[string]bool{}}
	return c.check(op.Operation.SelectionSet)
}

// pageChecker checks selection sets, each fragment once however often it
// is spread.
type pageChecker struct {
	fragments ast.FragmentDefinitionList
	vars      map[string]any
	checked   map[string]bool
}

func (c *pageChecker) check(set ast.SelectionSet) *gqlerror.Error {
	for _, sel := range set {
		var err *gqlerror.Error
		switch s := sel.(type) {
		case *ast.Field:
			if err = c.checkField(s); err == nil {
				err = c.check(s.SelectionSet)
			}
		case *ast.InlineFragment:
			err = c.check(s.SelectionSet)
		case *ast.FragmentSpread:
			if def := c.fragments.ForName(s.Name); def != nil && !c.checked[s.Name] {
				c.checked[s.Name] = true
				err = c.check(def.SelectionSet)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (c *pageChecker) checkField(f *ast.Field) *gqlerror.Error {
	if f.Definition == nil || f.Definition.Arguments.ForName("first") == nil {
		return nil
	}
	v := f.ArgumentMap(c.vars)["first"]
	if v == nil {
		return nil
	}
	n, err := graphql.UnmarshalInt(v)
	if err == nil && n >= 1 && n <= maxPageSize {
		return nil
	}
	e := gqlerror.ErrorPosf(f.Position, "first of %s must be between 1 and %d, not %v", f.Alias, maxPageSize, v)
	e.Extensions = map[string]any{"code": string(service.CodeInvalidArgument)}
	return e
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
	size := defaultPageSize
	if v := args["first"]; v != nil {
		// pageLimit has refused sizes outside 1–maxPageSize already; the
		// clamp only keeps the arithmetic below safe.
		if n, err := graphql.UnmarshalInt(v); err == nil {
			size = min(max(n, 1), maxPageSize)
		}
	}
	if childComplexity > (math.MaxInt-1)/size {
		return math.MaxInt, true
	}
	return 1 + size*childComplexity, true
}
