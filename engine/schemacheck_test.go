package engine_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/verdict/verdict/engine"
)

// notListed is each not-in-schema warning of a check: the text its range
// covers, then its suggestions.
func notListed(src, schema string) []string {
	var out []string
	for _, d := range engine.CheckWithSchema(src, []byte(schema)).Diagnostics {
		if d.Code == engine.CodeNotInSchema {
			out = append(out, textOf(src, d.Range)+" -> "+strings.Join(d.Suggestions, ", "))
		}
	}
	return out
}

func TestTheSchemaCheckFollowsNamesAsARunLooksThemUp(t *testing.T) {
	const applicant = `{"type": "object", "properties": {
		"Applicant": {"type": "object", "properties": {
			"monthlyIncome": {"type": "number"},
			"Debt_Ratio": {"type": "number"},
			"address": {"type": "object", "properties": {"country": {"type": "string"}}},
			"flags": {"type": "array"},
			"notes": true}},
		"Property": {"type": "object", "properties": {"value": {"type": "number"}}}}}`
	tests := []struct {
		name, rule string
		want       []string
	}{
		{"names spelt as listed, or alike ignoring case, spaces and underscores",
			"A **Applicant** gets credit if the __monthly income__ of the **applicant** is at least 3000 and the __debt ratio__ of the **Applicant** is no more than 0.4.", nil},
		{"a misspelt property", "A **Applicant** gets credit if the __montly income__ of the **Applicant** is at least 3000.",
			[]string{"montly income -> monthlyIncome"}},
		{"a misspelt member", "A **Applicant** gets credit if the __monthly income__ of the **Aplicant** is at least 3000.",
			[]string{"Aplicant -> Applicant"}},
		{"a lone property is read in the header's selector", "A **Applicant** gets credit if __montly income__ is at least 3000.",
			[]string{"montly income -> monthlyIncome"}},
		{"the header's selector is warned about once", "A **Aplicant** gets credit if __monthlyIncome__ is at least 3000 and __debtRatio__ is at least 0.",
			[]string{"Aplicant -> Applicant"}},
		{"nested properties", "A **Applicant** is local if the __countyr__ of the __address__ of the **Applicant** is equal to \"NL\".",
			[]string{"countyr -> country"}},
		{"a dotted selector", "A **Applicant** is local if the __country__ of the **Applicant.adress** is equal to \"NL\".",
			[]string{"adress -> address"}},
		{"a right-hand path", "A **Applicant** is covered if the __value__ of the **Property** is greater than the __loan__ of the **Applicant**.",
			[]string{"loan -> "}},
		{"a count", "A **Applicant** is clean if the number of __flgs__ of the **Applicant** is equal to 0.",
			[]string{"flgs -> flags"}},
		{"the selector of a reference no rule answers", "A **Applicant** gets credit if the **Applicnt** passes the review.",
			[]string{"Applicnt -> Applicant"}},
		{"not of one a rule answers, which reads no data", "A **Applicant** passes the review if the __monthly income__ of the **Applicant** is at least 1.\n" +
			"A **Applicant** gets credit if the **Applicnt** passes the review.", nil},
		{"past a property whose schema is not an object schema", "A **Applicant** gets credit if the __anything__ of the __notes__ of the **Applicant** is empty.", nil},
		{"not past an empty name between two dots", "A **Applicant** is ok if the __address..country__ of the **Applicant** is empty.", nil},
		{"past a value of no object", "A **Applicant** gets credit if the __x__ of the __flags__ of the **Applicant** is empty.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := notListed(tt.rule, applicant); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("warnings %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTheSchemaCheckStopsWhereTheSchemaDoesNotPlainlyListNames(t *testing.T) {
	const rule = "A **Person** is ok if the __agee__ of the **Person** is at least 1."
	person := func(extra string) string {
		return fmt.Sprintf(`{"properties": {"Person": {"properties": {"age": {}}%s}}}`, extra)
	}
	for schema, warned := range map[string]bool{
		person(""): true,
		person(`, "additionalProperties": false`):        true,
		person(`, "unevaluatedProperties": false`):       true,
		person(`, "additionalProperties": true`):         false,
		person(`, "additionalProperties": {}`):           false,
		person(`, "unevaluatedProperties": {}`):          false,
		person(`, "patternProperties": {"^a": {}}`):      false,
		person(`, "allOf": [{}]`):                        false,
		person(`, "anyOf": [{}]`):                        false,
		person(`, "oneOf": [{}]`):                        false,
		person(`, "$ref": "#/$defs/x"`):                  false,
		person(`, "if": {}, "then": {}`):                 false,
		person(`, "dependentSchemas": {}`):               false,
		`{"properties": {"Person": {"type": "object"}}}`: false,
		`{"properties": {"Person": true}}`:               false,
		`{"$ref": "#/$defs/x"}`:                          false,
		`true`:                                           false,
		`null`:                                           false,
		`[1]`:                                            false,
		`{"properties": `:                                false,
		``:                                               false,
	} {
		if got := len(notListed(rule, schema)) > 0; got != warned {
			t.Errorf("%s: warned %v, want %v", schema, got, warned)
		}
	}
}

func TestTheSchemaCheckSuggestsInAStableOrder(t *testing.T) {
	schema := `{"properties": {"P": {"properties": {"aeg": {}, "agf": {}, "ageX": {}, "name": {}}}}}`
	rule := "A **P** is ok if the __agex__ of the **P** is at least 1 and the __ag__ of the **P** is at least 1."
	want := []string(nil)
	for range 20 { // the schema's names come in a new order each time
		got := notListed(rule, schema)
		if want == nil {
			want = got
		}
		if !reflect.DeepEqual(got, want) || len(got) != 1 || got[0] != "ag -> aeg, agf, ageX" {
			t.Fatalf("warnings %q", got)
		}
	}
}

func TestTheSchemaCheckNeedsAParsedText(t *testing.T) {
	schema := `{"properties": {"P": {"properties": {"age": {}}}}}`
	got := engine.CheckWithSchema("A **P** is ok if the __agee__ of the **P** is at lest 1.", []byte(schema))
	if len(got.Diagnostics) != 1 || got.Diagnostics[0].Code != engine.CodeUnknownOperator {
		t.Errorf("diagnostics %+v", got.Diagnostics)
	}
}

// manyNamesSchema lists 60,000 names in one object, about a megabyte, and
// missingNamesRule reads 4,000 names it does not list, about 250 KiB:
// compared with every listed name, each would cost a check seconds.
func manyNamesSchema() []byte {
	var b strings.Builder
	b.WriteString(`{"properties": {"P": {"properties": {`)
	for i := range 60000 {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"name%07d": {}`, i)
	}
	b.WriteString(`}}}}`)
	return []byte(b.String())
}

func missingNamesRule() string {
	var b strings.Builder
	b.WriteString("A **P** is ok if the __nme0000001__ of the **P** is at least 1")
	for i := 1; i < 4000; i++ {
		fmt.Fprintf(&b, " and the __nmx%07d__ of the **P** is at least 1", i)
	}
	b.WriteString(".")
	return b.String()
}

func TestTheSchemaChecksSuggestionsStopWhenTheirWorkIsSpent(t *testing.T) {
	res := engine.CheckWithSchema(missingNamesRule(), manyNamesSchema())
	var warned []engine.Diagnostic
	for _, d := range res.Diagnostics {
		if d.Code == engine.CodeNotInSchema {
			warned = append(warned, d)
		}
	}
	if len(warned) != 4000 {
		t.Fatalf("%d names warned about, not 4,000", len(warned))
	}
	if first := warned[0].Suggestions; !reflect.DeepEqual(first, []string{"name0000001", "name0000000", "name0000002"}) {
		t.Errorf("the first name is suggested %q", first)
	}
	if last := warned[len(warned)-1].Suggestions; len(last) != 0 {
		t.Errorf("the last name is suggested %q after the suggestions' work is spent", last)
	}
}

func BenchmarkCheckWithSchemaHostile(b *testing.B) {
	rule, schema := missingNamesRule(), manyNamesSchema()
	b.ReportAllocs()
	for b.Loop() {
		engine.CheckWithSchema(rule, schema)
	}
}

func TestTheSchemaCheckWarnsOfValuesAConditionCannotUse(t *testing.T) {
	const schema = `{"properties": {"P": {"properties": {
		"age": {"type": "string"},
		"score": {"type": ["integer", "null"]},
		"born": {"type": "string", "format": "date"},
		"tags": {"type": "array"},
		"name": {"type": "string"},
		"count": {"type": "number"},
		"size": {"type": "object"},
		"level": {"type": "string", "enum": ["1", "2"]},
		"mixed": {"anyOf": [{"type": "number"}, {"type": "string"}], "type": "string"},
		"loose": {},
		"odd": {"type": "duration"}}}}}`
	tests := []struct {
		name, rule string
		want       []string // the text each warning covers, then its message
	}{
		{"a number comparison of a text", "A **P** is ok if the __age__ of the **P** is at least 18.",
			[]string{"age: The schema of the data says $.P.age is a text, but this comparison needs a number: with data that follows the schema, the condition is never true."}},
		{"of either side", "A **P** is ok if the __score__ of the **P** is greater than the __name__ of the **P**.",
			[]string{"name: The schema of the data says $.P.name is a text, but this comparison needs a number: with data that follows the schema, the condition is never true."}},
		{"a number comparison of a number or null", "A **P** is ok if the __score__ of the **P** is less than 3.", nil},
		{"a comparison that is not of numbers", "A **P** is ok if the __age__ of the **P** is equal to \"18\".", nil},
		{"the number of a text", "A **P** is ok if the number of __name__ of the **P** is at least 1.",
			[]string{"name: The schema of the data says $.P.name is a text, but the number of a value needs a list: with data that follows the schema, the run stops with an error."}},
		{"the number of a list", "A **P** is ok if the number of __tags__ of the **P** is at least 1.", nil},
		{"the length of a number", "A **P** is ok if the length of __count__ of the **P** is at least 1.",
			[]string{"count: The schema of the data says $.P.count is a number, but the length of a value needs a text, a list or an object: with data that follows the schema, the run stops with an error."}},
		{"the length of a text, a list, an object", "A **P** is ok if the length of __name__ of the **P** is at least 1 and the length of __tags__ of the **P** is at least 1 and the length of __size__ of the **P** is at least 1.", nil},
		{"named values are not judged by their type", "A **P** is ok if the __level__ of the **P** is at least 1.", nil},
		{"nor composed schemas", "A **P** is ok if the __mixed__ of the **P** is at least 1.", nil},
		{"nor a schema without a type", "A **P** is ok if the __loose__ of the **P** is at least 1.", nil},
		{"a type JSON Schema does not have is named as written", "A **P** is ok if the __odd__ of the **P** is at least 1.",
			[]string{`odd: The schema of the data says $.P.odd is "duration", but this comparison needs a number: with data that follows the schema, the condition is never true.`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range engine.CheckWithSchema(tt.rule, []byte(schema)).Diagnostics {
				if d.Code == engine.CodeSchemaTypeMismatch {
					got = append(got, textOf(tt.rule, d.Range)+": "+d.Message)
				} else {
					t.Errorf("unexpected diagnostic %+v", d)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("warnings %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTheSchemaCheckFollowsReferencesWithinTheSchema(t *testing.T) {
	const schema = `{
		"$defs": {
			"money": {"type": "number"},
			"applicant": {"type": "object", "properties": {"monthlyIncome": {"$ref": "#/$defs/money"}, "name": {"type": "string"}}},
			"a/b": {"properties": {"x": {}}},
			"loop": {"$ref": "#/$defs/loop"}},
		"definitions": {"legacy": {"properties": {"age": {"type": "string"}}}},
		"properties": {
			"Applicant": {"$ref": "#/$defs/applicant", "description": "who applies"},
			"Escaped": {"$ref": "#/%24defs/applicant"},
			"Old": {"$ref": "#/definitions/legacy"},
			"Odd": {"$ref": "#/$defs/a~1b"},
			"Circle": {"$ref": "#/$defs/loop"},
			"Remote": {"$ref": "other.json#/$defs/applicant"},
			"Mixed": {"$ref": "#/$defs/applicant", "properties": {"extra": {}}},
			"Nowhere": {"$ref": "#/$defs/missing"}}}`
	tests := []struct {
		name, rule string
		want       []string // code: the text each warning covers -> suggestions
	}{
		{"through a reference and its description", "A **P** is ok if the __montly income__ of the **Applicant** is at least 1.",
			[]string{"not-in-schema: montly income -> monthlyIncome"}},
		{"to a reference's type", "A **P** is ok if the __monthly income__ of the **Applicant** is at least 1 and the __name__ of the **Applicant** is at least 1.",
			[]string{"schema-type-mismatch: name -> "}},
		{"written percent-encoded", "A **P** is ok if the __montly income__ of the **Escaped** is at least 1.",
			[]string{"not-in-schema: montly income -> monthlyIncome"}},
		{"to definitions", "A **P** is ok if the __agee__ of the **Old** is empty.", []string{"not-in-schema: agee -> age"}},
		{"to an escaped name", "A **P** is ok if the __y__ of the **Odd** is empty.", []string{"not-in-schema: y -> x"}},
		{"not in a circle", "A **P** is ok if the __y__ of the **Circle** is empty.", nil},
		{"not to another document", "A **P** is ok if the __y__ of the **Remote** is empty.", nil},
		{"not beside properties that apply with it", "A **P** is ok if the __y__ of the **Mixed** is empty.", nil},
		{"not to nowhere", "A **P** is ok if the __y__ of the **Nowhere** is empty.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range engine.CheckWithSchema(tt.rule, []byte(schema)).Diagnostics {
				got = append(got, d.Code+": "+textOf(tt.rule, d.Range)+" -> "+strings.Join(d.Suggestions, ", "))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("diagnostics %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTheSchemaCheckFollowsAChainOfReferencesToItsEnd(t *testing.T) {
	var defs strings.Builder
	for i := range 40 {
		fmt.Fprintf(&defs, `"d%d": {"$ref": "#/$defs/d%d"}, `, i, i+1)
	}
	schema := `{"$defs": {` + defs.String() + `"d40": {"properties": {"age": {}}}}, "properties": {"P": {"$ref": "#/$defs/d0"}}}`
	got := engine.CheckWithSchema("A **P** is ok if the __agee__ of the **P** is at least 1.", []byte(schema)).Diagnostics
	if len(got) != 1 || got[0].Code != engine.CodeNotInSchema || !reflect.DeepEqual(got[0].Suggestions, []string{"age"}) {
		t.Errorf("diagnostics %+v, want agee not in the schema, with age suggested", got)
	}
}

// referencedTwiceSchema has 1,000 properties that refer to "a", which
// refers to a name of 1,000 characters; that name refers back to "a" when
// circle is set, else to an object. referencesRule reads every property.
func referencedTwiceSchema(circle bool) any {
	long := strings.Repeat("k", 1000)
	props := map[string]any{}
	for i := range 1000 {
		props[fmt.Sprintf("p%d", i)] = map[string]any{"$ref": "#/$defs/a"}
	}
	end := map[string]any{"properties": map[string]any{"x": map[string]any{}}}
	if circle {
		end = map[string]any{"$ref": "#/$defs/a"}
	}
	return map[string]any{
		"properties": map[string]any{"P": map[string]any{"properties": props}},
		"$defs":      map[string]any{"a": map[string]any{"$ref": "#/$defs/" + long}, long: end},
	}
}

func referencesRule() string {
	conds := make([]string, 1000)
	for i := range conds {
		conds[i] = fmt.Sprintf("the __x__ of the __p%d__ of the **P** is at least 1", i)
	}
	return "A **P** is ok if " + strings.Join(conds, " and ") + "."
}

// A reference is followed once per check: paths that meet a circle of
// references cost no more than paths that meet a chain's end. Following
// the circle from each path again, up to a bound of hops, made a
// hundred-kilobyte text and schema cost seconds.
func TestTheSchemaCheckFollowsEachReferenceOnce(t *testing.T) {
	rule := referencesRule()
	allocs := map[bool]float64{}
	for _, circle := range []bool{false, true} {
		schema := referencedTwiceSchema(circle)
		allocs[circle] = testing.AllocsPerRun(3, func() { engine.CheckWithDecodedSchema(rule, schema) })
	}
	if allocs[true] > 1.1*allocs[false] {
		t.Errorf("a check through a circle of references made %.0f allocations, one through a chain %.0f", allocs[true], allocs[false])
	}
}

func BenchmarkCheckWithSchemaReferenceCircle(b *testing.B) {
	rule, schema := referencesRule(), referencedTwiceSchema(true)
	b.ReportAllocs()
	for b.Loop() {
		engine.CheckWithDecodedSchema(rule, schema)
	}
}
