package graph

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/verdict/verdict/graph/generated"
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

// The API's schema has no list of Times; the check reads them all the
// same, in lists and input objects as in the document's literals.
func TestTimesAreCheckedInsideListsAndInputObjects(t *testing.T) {
	schema := gqlparser.MustLoadSchema(&ast.Source{Input: `
		scalar Time
		scalar JSON
		input Window { at: [Time!] data: JSON }
		type Query { windows(w: [Window], t: [[Time]]): Int }`})
	op := func(query string) *ast.OperationDefinition {
		doc, err := gqlparser.LoadQueryWithRules(schema, query, nil)
		if err != nil {
			t.Fatal(err)
		}
		return doc.Operations[0]
	}
	windows, times := op(`query($w: [Window]) { windows(w: $w) }`), op(`query($t: [[Time]]) { windows(t: $t) }`)
	const expected = "a Time, an RFC 3339 string such as 2027-01-31T00:00:00Z"
	for _, tc := range []struct {
		op   *ast.OperationDefinition
		vars string
		want string
	}{
		{windows, `{"w": [{"at": ["2026-01-02T15:04:05Z"]}, {"at": ["2026-01-02T15:04:05Z", "2026-01-02"]}]}`,
			`variable $w[1].at[1] must be ` + expected + `, not the string "2026-01-02"`},
		{windows, `{"w": {"at": false}}`, `variable $w.at must be ` + expected + `, not the boolean false`},
		{windows, `{"w": [{"at": "2026-01-02T15:04:05.123456789+02:00", "data": {"at": "yesterday", "n": 1e400}}]}`, ""},
		{times, `{"t": [[null, "2026-01-02T15:04:05Z"], [{"at": 1}]]}`, `variable $t[1][0] must be ` + expected + `, not an object`},
		{times, `{"t": [[null], []]}`, ""},
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
	for query, want := range map[string]string{
		`{ windows(t: [["2026-01-02T15:04:05Z", "then"]]) }`:            `the argument t of windows, at [0][1]: the value must be ` + expected + `, not the string "then"`,
		`{ windows(w: [{at: "2026-01-02T15:04:05Z"}, {at: [5]}]) }`:     `the argument w of windows, at [1].at[0]: the value must be ` + expected + `, not the number 5`,
		`{ windows(w: {at: "2026-01-02T15:04:05Z", data: {at: "x"}}) }`: ``,
	} {
		var messages []string
		_, errs := gqlparser.LoadQueryWithRules(schema, query, cappedRules(10)())
		for _, e := range errs {
			messages = append(messages, e.Message)
		}
		if got := strings.Join(messages, "\n"); got != want {
			t.Errorf("%s:\n got %q\nwant %q", query, got, want)
		}
	}
}

// Every scalar the API's schema declares is judged before anything runs.
func TestEveryScalarOfTheSchemaIsChecked(t *testing.T) {
	if missing := uncheckedScalars(generated.NewExecutableSchema(generated.Config{}).Schema()); len(missing) > 0 {
		t.Errorf("scalars %v are not in customScalars", missing)
	}
	schema := gqlparser.MustLoadSchema(&ast.Source{Input: `scalar Time scalar Money type Query { a(m: Money, t: Time): Int }`})
	if missing := uncheckedScalars(schema); !slices.Equal(missing, []string{"Money"}) {
		t.Errorf("unchecked %v, want Money", missing)
	}
}
