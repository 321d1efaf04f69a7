package graph

import (
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/verdict/verdict/graph/generated"
)

func TestAFoldVisitsAFragmentOnceHoweverOftenItIsSpread(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	doc, errs := gqlparser.LoadQueryWithRules(schema, `{
		a: viewer { ...V } b: viewer { ...V } c: viewer { ... on Viewer { ...V } }
	}
	fragment V on Viewer { user { ...U } organization { id } }
	fragment U on User { id email }`, nil)
	if errs != nil {
		t.Fatal(errs)
	}
	visits := map[string]int{}
	count := func(f *ast.Field, inner func() int) int {
		visits[f.Name]++
		return 1 + inner()
	}
	sum := func(sofar, next int) int { return sofar + next }
	got := newSelectionFold(doc.Fragments, count, sum).set(doc.Operations[0].SelectionSet)
	// Each viewer counts itself and V's five fields, folded once.
	if got != 3*(1+5) {
		t.Errorf("folded to %d, want 18", got)
	}
	if visits["viewer"] != 3 || visits["user"] != 1 || visits["email"] != 1 {
		t.Errorf("visits %v, want each field of a fragment visited once", visits)
	}
}
