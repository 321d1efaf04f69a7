package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/verdict/verdict/internal/jsonltest"
)

// pickCase is a rule and data of the corpora; the rest of a line is not
// read here.
type pickCase struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Rule string          `json:"rule"`
	Data json.RawMessage `json:"data"`
}

// answerOf is the whole answer of a run as a stored run writes it: the
// result, explained, with the data echoed.
func answerOf(t testing.TB, res *Result, raw []byte) []byte {
	t.Helper()
	res.Data = DataText(raw)
	res.Explain()
	b, err := res.AppendJSONMembers(nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// comparePicked runs prog on raw both ways and fails when the answers
// differ; it reports whether the values were picked rather than decoded.
func comparePicked(t testing.TB, prog *Program, raw []byte) bool {
	t.Helper()
	return comparePickedAfter(t, prog, NewDataDecoder(Limits{}), raw)
}

// comparePickedAfter is comparePicked with a decoder that may have read
// other items before.
func comparePickedAfter(t testing.TB, prog *Program, dec *DataDecoder, raw []byte) bool {
	t.Helper()
	if CheckData(raw, Limits{}) != nil {
		return false
	}
	data, err := DecodeData(raw, Limits{})
	if err != nil {
		t.Fatalf("CheckData accepts %s but DecodeData refuses it: %v", raw, err)
	}
	whole := new(Result)
	prog.EvaluateInto(whole, data)
	want := answerOf(t, whole, raw)

	// Twice, so that the second reads into what the first left behind.
	for range 2 {
		picked := new(Result)
		if err := dec.EvaluateInto(picked, prog, raw); err != nil {
			t.Fatal(err)
		}
		if got := answerOf(t, picked, raw); !bytes.Equal(got, want) {
			t.Fatalf("data %s\npicked answer %s\ndecoded answer %s", raw, got, want)
		}
	}
	var p picker
	return prog.plan != nil && p.pick(prog.plan, raw, prog.limits.MaxDataDepth)
}

func TestPickedValuesAnswerAsDecodedData(t *testing.T) {
	var cases []pickCase
	for _, file := range []string{"conformance.jsonl", "reference_cases.jsonl", "bench_cases.jsonl"} {
		cases = append(cases, jsonltest.Read[pickCase](t, "testdata/"+file)...)
	}
	var eng Engine
	ran, picked := 0, 0
	for _, c := range cases {
		prog, err := eng.Compile(c.Rule)
		if err != nil || len(c.Data) == 0 {
			continue
		}
		ran++
		if comparePicked(t, prog, c.Data) {
			picked++
		}
	}
	// Most cases read their data by paths alone; the rest are decoded.
	if ran < 400 || picked < ran/2 || picked == ran {
		t.Fatalf("%d of %d cases picked their values", picked, ran)
	}
}

// TestPickedKeysAreTheKeysLookupTakes holds data whose keys test how a name
// finds its key: spelled as the name before any other, else the first of
// its canonical form in byte order, the last value of a key given twice;
// and data that must be decoded whole.
func TestPickedKeysAreTheKeysLookupTakes(t *testing.T) {
	const conditions = `the __monthly income__ of the **Person** is at least 3000 and the __contact.home address__ of the **Person** is not empty and the __age__ of the **Person** is greater than __min age__ of the **Rules**`
	wide := `"Person": {`
	for i := range 40 {
		wide += `"k` + strings.Repeat("x", i) + `": 1, `
	}
	cases := []struct {
		data   string
		picked bool
	}{
		{`{"Person": {"monthlyIncome": 3500, "contact": {"homeAddress": "x"}, "age": 30}, "Rules": {"minAge": 18}}`, true},
		{`{"person": {"monthlyIncome": 3500, "contact": {"homeAddress": "x"}, "age": 30}, "Rules": {"minAge": 18}}`, true},
		{`{"PERSON": {"monthlyIncome": 3500, "contact": {"homeAddress": "x"}, "age": 30}, "Rules": {"minAge": 18}}`, true},
		{`{"person": {"monthlyIncome": 3500, "Contact": {"homeAddress": "x"}, "age": 30}, "rules": {"minAge": 18}}`, true},
		{`{"Person": {"monthly_income": 100, "monthlyIncome": 3500, "contact": {"homeAddress": "x"}, "age": 30}, "Rules": {"minAge": 18}}`, true},
		{`{"Person": {"monthlyIncome": 3500, "monthly income": 100, "MonthlyIncome": 5000, "contact": {"homeAddress": "x"}, "age": 30}, "Rules": {"minAge": 18}}`, true},
		{`{"Person": {"monthlyIncome": 3500, "monthlyIncome": 100, "contact": {"homeAddress": ""}, "age": 30}, "Rules": {"minAge": 18}}`, true},
		{`{"Person": {"monthly income": 3500, "monthly income": 4000, "contact": {"home_address": [1], "homeAddress": []}, "age": 30, "age": 10}, "Rules": {"min age": 18, "minAge": 99}}`, true},
		{`{"Person": {"mon\u0074hly income": 3500, "contact": {"home\u0041ddress": {"a": 1}}, "age": "30"}, "Rules": {"minAge": "18"}, "Other": {"a": [1, {"b": null}]}}`, true},
		{`{"Person": {"monthlyIncome": 3500, "contact": {"homeAddress": [1, {"x": 2}]}, "age": 30}, "Rules": {"minAge": null}}`, true},
		{`{"Person": {"monthlyIncome": 3500, "contact": {"homeAddress": "x"}, "contact": {"homeAddress": ""}, "age": 30}, "Rules": {"minAge": 18}}`, true},
		{`{"Person": {"monthlyIncome": 3500, "contact": 5, "contact": {"homeAddress": "x"}, "age": 30}, "Rules": {"minAge": 18}}`, true},
		{`{"Person": {"monthlyIncome": 3500, "Contact": {"homeAddress": ""}, "contact": {"homeAddress": "x"}, "CONTACT": {}, "age": 30}, "Rules": {"minAge": 18}}`, true},
		{`{"Rules": {"minAge": 18}, "Person": {"age": 30, "contact": {"other": 1, "homeAddress": "x"}, "monthlyIncome": 3500}, "Person": {"age": 31, "contact": {"homeAddress": "y"}, "monthlyIncome": 1}}`, true},
		{`{"Person": {"monthlyIncome": 3500, "contact": {"homeAddress": "x"}, "contact": 5, "age": 30}, "Rules": {"minAge": 18}}`, false},
		{`{"Person": {"monthlyIncome": 3500, "contact": {"homeAddress": "x"}, "contact": {"home": 1}, "age": 30}, "Rules": {"minAge": 18}}`, false},
		{`{"Person": {"monthlyIncome": 3500, "contact": {"homeAddress": "x"}, "age": 30}, "Rules": {}}`, false},
		{`{"Person": {"monthlyIncome": 3500, "contact": "x", "age": 30}, "Rules": {"minAge": 18}}`, false},
		{`{"Person": {"monthlyIncome": 3500, "age": 30}, "Rules": {"minAge": 18}}`, false},
		{`{"Person": {"contact": {"homeAddress": "x"}, "age": 30, "monthly-income": 1}, "Rules": {"minAge": 18}}`, false},
		{`{"Person": 1, "Rules": {"minAge": 18}}`, false},
		{`{}`, false},

		{`{` + wide + `"monthlyIncome": 3500, "MONTHLY_INCOME": 1, "contact": {"homeAddress": "x"}, "age": 30}, "Rules": {"minAge": 18}}`, true},
	}
	// The second rule has two names that take the same keys.
	for _, rule := range []string{
		"A **Person** gets approved if " + conditions + ".",
		"A **Person** gets approved if " + conditions + " and the __monthlyIncome__ of the **Person** is no more than 1000000.",
	} {
		comparePickedKeys(t, rule, cases)
	}
}

func comparePickedKeys(t *testing.T, rule string, cases []struct {
	data   string
	picked bool
}) {
	var eng Engine
	prog, err := eng.Compile(rule)
	if err != nil {
		t.Fatal(err)
	}
	if prog.plan == nil {
		t.Fatal("the rule has no plan")
	}
	for _, tc := range cases {
		if got := comparePicked(t, prog, []byte(tc.data)); got != tc.picked {
			t.Errorf("data %s: picked %v, want %v", tc.data, got, tc.picked)
		}
	}
	// One decoder through all of them, each after another shape, and
	// through every pair.
	dec := NewDataDecoder(Limits{})
	for i := range 3 * len(cases) {
		comparePickedAfter(t, prog, dec, []byte(cases[(i*7)%len(cases)].data))
	}
	for _, a := range cases {
		for _, b := range cases {
			dec := NewDataDecoder(Limits{})
			comparePickedAfter(t, prog, dec, []byte(a.data))
			comparePickedAfter(t, prog, dec, []byte(b.data))
		}
	}
}

// Text the decoder refuses is never evaluated, though the values a program
// reads are all there.
func TestPickRefusesWhatDecodingRefuses(t *testing.T) {
	var eng Engine
	prog, err := eng.Compile(`A **Person** gets approved if the __age__ of the **Person** is at least 18.`)
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{
		`{"Person": {"age": 30}} {`,
		`{"Person": {"age": 30}, "x": [1,]}`,
		`{"Person": {"age": 30, "x": tru}}`,
		`{"Person": {"age": 30}, "x": "\u00"}`,
		`{"Person": {"age": 30}`,
	} {
		if CheckData([]byte(raw), Limits{}) == nil {
			t.Fatalf("CheckData accepts %s", raw)
		}
		var p picker
		if p.pick(prog.plan, []byte(raw), prog.limits.MaxDataDepth) {
			t.Errorf("%s is picked", raw)
		}
	}
}

// A rule that reads an object's keys to decide a phrase, or a path that
// ends where another goes on, reads its data whole.
func TestPlanlessPrograms(t *testing.T) {
	var eng Engine
	for _, rule := range []string{
		`A **Person** gets approved if the **Person** passes the credit check.`,
		`A **Person** gets approved if the __contact__ of the **Person** is not empty and the __contact.email__ of the **Person** is not empty.`,
	} {
		prog, err := eng.Compile(rule)
		if err != nil {
			t.Fatal(err)
		}
		if prog.plan != nil {
			t.Errorf("%q has a plan", rule)
		}
		comparePicked(t, prog, []byte(`{"Person": {"creditCheck": true, "contact": {"email": "a@b"}}}`))
	}
	// More names of one object than a plan takes.
	var conds []string
	for i := range maxPickedNames + 1 {
		conds = append(conds, fmt.Sprintf("the __p%d__ of the **Person** is at least 1", i))
	}
	prog, err := eng.Compile("A **Person** gets approved if " + strings.Join(conds, " and ") + ".")
	if err != nil {
		t.Fatal(err)
	}
	if prog.plan != nil {
		t.Errorf("a rule of %d names of one object has a plan", maxPickedNames+1)
	}
	if prog, err = eng.Compile("A **Person** gets approved if " + strings.Join(conds[:maxPickedNames], " and ") + "."); err != nil {
		t.Fatal(err)
	}
	if prog.plan == nil {
		t.Errorf("a rule of %d names of one object has no plan", maxPickedNames)
	}
}

// FuzzPickedValues checks that a program reading an item's values by its
// paths answers as one evaluating the item's decoded data: with a decoder
// that keeps every item's values, as a batch that keeps its results does,
// and with one recycled after each item, as a batch that writes each
// result out (or a pooled single run) recycles it.
func FuzzPickedValues(f *testing.F) {
	cases := jsonltest.Read[pickCase](f, "testdata/conformance.jsonl")
	for i, c := range cases {
		f.Add(c.Rule, string(c.Data), string(cases[(i+1)%len(cases)].Data))
	}
	var eng Engine
	f.Fuzz(func(t *testing.T, rule, data, next string) {
		prog, err := eng.Compile(rule)
		if err != nil {
			return
		}
		kept, recycled := NewDataDecoder(Limits{}), NewDataDecoder(Limits{})
		for _, raw := range []string{data, next, data} {
			comparePickedAfter(t, prog, kept, []byte(raw))
			comparePickedAfter(t, prog, recycled, []byte(raw))
			recycled.Recycle()
		}
	})
}

// TestPickedValuesStayAsMoreItemsArePicked keeps the result of every item
// of a long batch, as a collected batch does, and compares each with its
// decoded answer only after the last item is picked: the numbers and texts
// of hundreds of items fill many chunks of the picker's boxes, and no
// item's values may change with those picked after it.
func TestPickedValuesStayAsMoreItemsArePicked(t *testing.T) {
	var eng Engine
	prog, err := eng.Compile(`A **Person** gets approved if the __age__ of the **Person** is at least 18 and the __country__ of the **Person** is not in ["KP"] and the __flags__ of the **Person** is empty and the __note__ of the **Person** is not empty.`)
	if err != nil {
		t.Fatal(err)
	}
	dec := NewDataDecoder(Limits{})
	const items = 3 * boxesPerChunk
	raws := make([][]byte, items)
	held := make([]*Result, items)
	for i := range items {
		note := strings.Repeat("n", i%(maxBoxedText+40)) // short ones boxed in chunks, long ones copied
		raws[i] = fmt.Appendf(nil, `{"Person": {"age": %d, "country": "C%d", "flags": [], "note": "%s\u00e9"}}`, i, i, note)
		held[i] = new(Result)
		if err := dec.EvaluateInto(held[i], prog, raws[i]); err != nil {
			t.Fatal(err)
		}
	}
	if len(dec.picker.boxes.numbers) == items {
		t.Fatal("the items' numbers fit one chunk; the test must fill several")
	}
	for i, raw := range raws {
		data, err := DecodeData(raw, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		whole := new(Result)
		prog.EvaluateInto(whole, data)
		if got, want := answerOf(t, held[i], raw), answerOf(t, whole, raw); !bytes.Equal(got, want) {
			t.Fatalf("item %d\npicked answer %s\ndecoded answer %s", i, got, want)
		}
	}
}

// TestADecoderKeepsLittleOfLargeData reads, with one decoder as a service
// keeps one from run to run, an object of many keys, a list of many
// objects and a long text: what the decoder keeps afterwards is bounded,
// not the size of the largest data, and the answers are still those of
// decoded data.
func TestADecoderKeepsLittleOfLargeData(t *testing.T) {
	var eng Engine
	byPaths, err := eng.Compile(`A **Person** gets approved if the __age__ of the **Person** is at least 18 and the __note__ of the **Person** is not empty.`)
	if err != nil {
		t.Fatal(err)
	}
	// A path that ends where another goes on: such data is decoded whole.
	whole, err := eng.Compile(`A **Person** gets addressed if the __address__ of the **Person** is not empty and the __address.city__ of the **Person** is not empty.`)
	if err != nil {
		t.Fatal(err)
	}
	if byPaths.plan == nil || whole.plan != nil {
		t.Fatal("the programs do not read their data as this test needs")
	}
	dec := NewDataDecoder(Limits{})

	var wide strings.Builder
	wide.WriteString(`{"Person": {`)
	for i := range 3 * maxMemoKeys {
		fmt.Fprintf(&wide, `"k%d": %d, `, i, i)
	}
	wide.WriteString(`"age": 30, "note": "` + strings.Repeat("n", 4*maxBoxedText) + `"}}`)
	for range 2 { // the second reading follows the memo as far as it goes
		if !comparePickedAfter(t, byPaths, dec, []byte(wide.String())) {
			t.Fatal("the wide object was not picked")
		}
	}
	for _, r := range dec.picker.nodes {
		if len(r.memo.entries) > maxMemoKeys || r.memo.n > maxMemoKeys {
			t.Errorf("a memo holds %d entries (n %d), more than %d", len(r.memo.entries), r.memo.n, maxMemoKeys)
		}
	}
	if len(dec.picker.boxes.texts) != 0 {
		t.Errorf("the long text was boxed in a chunk: %d texts there", len(dec.picker.boxes.texts))
	}

	var many strings.Builder
	many.WriteString(`{"Person": {"address": {"city": "Oslo"}, "pads": [`)
	for i := range 4 * maxSpareMaps {
		if i > 0 {
			many.WriteString(", ")
		}
		many.WriteString(`{"a": 1}`)
	}
	many.WriteString(`]}}`)
	if comparePickedAfter(t, whole, dec, []byte(many.String())) {
		t.Fatal("data the program cannot pick was picked")
	}
	dec.Recycle()
	if n := len(dec.maps.spare); n > maxSpareMaps {
		t.Errorf("the decoder keeps %d emptied maps, more than %d", n, maxSpareMaps)
	}
}

// TestARecycledDecoderFillsItsBoxesAgain picks item after item with one
// decoder recycled between them, as a batch written out item by item and
// a pooled decoder are: each item's values go into the chunks the first
// item took, from their start, and each answer is still that of its
// decoded data.
func TestARecycledDecoderFillsItsBoxesAgain(t *testing.T) {
	var eng Engine
	prog, err := eng.Compile(`A **Person** gets approved if the __age__ of the **Person** is at least 18 and the __country__ of the **Person** is not in ["KP"].`)
	if err != nil {
		t.Fatal(err)
	}
	dec := NewDataDecoder(Limits{})
	var firstNumber *float64
	var firstText *string
	for i := range 4 * boxesPerChunk {
		raw := fmt.Appendf(nil, `{"Person": {"age": %d, "country": "C%d"}}`, i, i)
		if !comparePickedAfter(t, prog, dec, raw) {
			t.Fatal("the item was not picked")
		}
		b := &dec.picker.boxes
		if i == 0 {
			firstNumber, firstText = &b.numbers[0], &b.texts[0]
		}
		// comparePickedAfter picks each item twice.
		if len(b.numbers) != 2 || &b.numbers[0] != firstNumber || len(b.texts) != 2 || &b.texts[0] != firstText {
			t.Fatalf("item %d: %d numbers and %d texts boxed, not in the first item's chunks", i, len(b.numbers), len(b.texts))
		}
		dec.Recycle()
	}
}
