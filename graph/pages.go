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
// them. listArguments has refused a first the service would refuse before any
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

// listArguments refuses an operation that gives any list (every field
// with a `first` argument is one) a page size, a cursor or a text filter
// the service refuses, before anything is resolved: the service would
// refuse them too, but only once the fields before had run, and a
// mutation whose result selects a list (a new group's policies) would
// have written what it was asked to and answered null, its list having
// failed. The complexity of the operation is counted from page sizes it
// can trust.
type listArguments struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = listArguments{}

func (listArguments) ExtensionName() string { return "ListArguments" }

func (listArguments) Validate(graphql.ExecutableSchema) error { return nil }

func (listArguments) MutateOperationContext(_ context.Context, op *graphql.OperationContext) *gqlerror.Error {
	mutation := op.Operation.Operation == ast.Mutation
	check := func(f *ast.Field, inner func() *gqlerror.Error) *gqlerror.Error {
		if err := checkListArguments(f, op.Variables); err != nil {
			return err
		}
		// The lists a mutation's result holds are a group's, new or just
		// changed: no page of theirs came before, and a cursor of another
		// list or group would fail only after the write.
		if mutation && f.Definition != nil && f.Definition.Arguments.ForName("after") != nil {
			if after, _ := f.ArgumentMap(op.Variables)["after"].(string); after != "" {
				return refusal(f.Position, "after of %s: the lists of a mutation's result start at their first page; page on with the group query", f.Alias)
			}
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

// cursorKinds are the lists whose cursors are not of ids, by "Type.field".
var cursorKinds = map[string]service.CursorKind{
	"Query.auditEvents":    service.CursorOfTimes,
	"Query.decisions":      service.CursorOfTimes,
	"Query.policyVersions": service.CursorOfVersions,
	"Query.flowVersions":   service.CursorOfVersions,
}

// checkListArguments refuses the field's first, after or query when the
// service would, naming them as the schema does.
func checkListArguments(f *ast.Field, vars map[string]any) *gqlerror.Error {
	if f.Definition == nil || f.Definition.Arguments.ForName("first") == nil {
		return nil
	}
	var se *service.Error
	if errors.As(listArgumentsError(f, f.ArgumentMap(vars)), &se) {
		return refusal(f.Position, "%s", se.Message)
	}
	return nil
}

func listArgumentsError(f *ast.Field, args map[string]any) error {
	if v := args["first"]; v != nil {
		n, err := model.UnmarshalInt(v)
		if err == nil {
			err = service.CheckPageSize("first of "+f.Alias, n)
		}
		if err != nil {
			return err
		}
	}
	if after, _ := args["after"].(string); service.CheckCursor(cursorKinds[f.ObjectDefinition.Name+"."+f.Name], after) != nil {
		return service.Invalid("after of %s is not a cursor this list gave out", f.Alias)
	}
	if query, ok := args["query"].(string); ok {
		return service.CheckQuery("query of "+f.Alias, query)
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
		// listArguments has refused sizes the service would already; the
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
