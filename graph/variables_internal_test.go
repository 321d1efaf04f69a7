package graph

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// The API's schema has no list of enums or of input objects in an
// argument; the check reads them all the same.
func TestVariablesAreCheckedInsideListsAndInputObjects(t *testing.T) {
	schema := gqlparser.MustLoadSchema(&ast.Source{Input: `
		enum Color { RED GREEN }
		input Paint { colors: [Color!]! layers: [[Color]] }
		input Wall { paints: [Paint!] }
		type Query { wall(w: Wall, c: [Color]): Int }`})
	op := func(query string) *ast.OperationDefinition {
		doc, err := gqlparser.LoadQueryWithRules(schema, query, nil)
		if err != nil {
			t.Fatal(err)
		}
		return doc.Operations[0]
	}
	wall, colors := op(`query($w: Wall) { wall(w: $w) }`), op(`query($c: [Color]) { wall(c: $c) }`)
	for _, tc := range []struct {
		op   *ast.OperationDefinition
		vars string
		want string
	}{
		{wall, `{"w": {"paints": [{"colors": ["RED", "green"]}]}}`,
			`variable $w.paints[0].colors[1] must be one of the Color values RED, GREEN, not the string "green" (enum values are written exactly as the schema has them: GREEN)`},
		{wall, `{"w": {"paints": [{"colors": [], "layers": [["RED"], [null, "Red"]]}]}}`,
			`variable $w.paints[0].layers[1][1] must be one of the Color values RED, GREEN, not the string "Red" (enum values are written exactly as the schema has them: RED)`},
		{wall, `{"w": {"paints": [{"colors": [null]}]}}`, `variable $w.paints[0].colors[0] must not be null: its type is Color!`},
		// A single value stands for a list of one.
		{wall, `{"w": {"paints": {"colors": "red"}}}`,
			`variable $w.paints.colors must be one of the Color values RED, GREEN, not the string "red" (enum values are written exactly as the schema has them: RED)`},
		{wall, `{"w": {"paints": [{"colors": "RED", "layers": [["GREEN"]]}, {"colors": ["GREEN"]}]}}`, ""},
		{wall, `{"w": null}`, ""},
		{wall, `{}`, ""},
		{colors, `{"c": [null, "RED", false]}`, `variable $c[2] must be one of the Color values RED, GREEN, not the boolean false`},
	} {
		var vars map[string]any
		dec := json.NewDecoder(strings.NewReader(tc.vars))
		dec.UseNumber()
		if err := dec.Decode(&vars); err != nil {
			t.Fatal(err)
		}
		got := ""
		if err := checkVariables(schema, tc.op, vars); err != nil {
			got = err.Message
		}
		if got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.vars, got, tc.want)
		}
	}
}
