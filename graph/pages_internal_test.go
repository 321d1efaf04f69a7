package graph

import (
	"context"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/verdict/verdict/graph/generated"
)

// fieldContext is the context a resolver of the field at path runs in,
// for the operation query.
func fieldContext(t *testing.T, query string, vars map[string]any, path string) context.Context {
	t.Helper()
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	doc, errs := gqlparser.LoadQueryWithRules(schema, query, nil)
	if errs != nil {
		t.Fatal(errs)
	}
	op := doc.Operations[0]
	var field *ast.Field
	set := op.SelectionSet
	for _, name := range strings.Split(path, ".") {
		field = nil
		for _, sel := range set {
			if f, ok := sel.(*ast.Field); ok && f.Alias == name {
				field = f
			}
		}
		if field == nil {
			t.Fatalf("no field %s in %s", name, query)
		}
		set = field.SelectionSet
	}
	ctx := graphql.WithOperationContext(context.Background(), &graphql.OperationContext{Doc: doc, Operation: op, Variables: vars})
	return graphql.WithFieldContext(ctx, &graphql.FieldContext{Field: graphql.CollectedField{Field: field, Selections: field.SelectionSet}})
}

func TestAListIsCountedOnlyWhenItsTotalCountIsSelected(t *testing.T) {
	for _, tc := range []struct {
		name, query, path string
		vars              map[string]any
		want              bool
	}{
		{"selected", `{ policies { totalCount } }`, "policies", nil, true},
		{"not selected", `{ policies { edges { cursor } pageInfo { hasNextPage } } }`, "policies", nil, false},
		{"under an alias", `{ policies { n: totalCount } }`, "policies", nil, true},
		{"in a fragment", `{ keys { ...K } } fragment K on APIKeyConnection { totalCount }`, "keys", nil, true},
		{"in an inline fragment", `{ members { ... on MemberConnection { totalCount } } }`, "members", nil, true},
		{"skipped", `query Q($skip: Boolean!) { groups { totalCount @skip(if: $skip) edges { cursor } } }`, "groups",
			map[string]any{"skip": true}, false},
		{"included", `query Q($skip: Boolean!) { groups { totalCount @skip(if: $skip) edges { cursor } } }`, "groups",
			map[string]any{"skip": false}, true},
		{"on the outer list only", `{ groups { totalCount edges { node { policies { edges { cursor } } } } } }`,
			"groups.edges.node.policies", nil, false},
		{"on the inner list only", `{ groups { edges { node { flows { totalCount } } } } }`,
			"groups.edges.node.flows", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first, after, query := 5, "cursor", "name"
			o := listOptions(fieldContext(t, tc.query, tc.vars, tc.path), &first, &after, &query)
			if o.WithTotal != tc.want {
				t.Errorf("WithTotal = %v, want %v", o.WithTotal, tc.want)
			}
			if o.Limit != first || o.Cursor != after || o.Query != query {
				t.Errorf("options %+v, want the arguments", o)
			}
		})
	}
}

// Every list whose cursors are not of ids is a field of the schema with
// an after argument: a field renamed would otherwise have its cursors
// checked as cursors of ids.
func TestTheListsOfOtherCursorsAreFieldsWithAfter(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	for name := range cursorKinds {
		typ, field, _ := strings.Cut(name, ".")
		def := schema.Types[typ]
		if def == nil || def.Fields.ForName(field) == nil || def.Fields.ForName(field).Arguments.ForName("after") == nil {
			t.Errorf("%s is no field with an after argument", name)
		}
	}
}
