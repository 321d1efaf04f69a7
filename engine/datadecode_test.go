package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// decodeObject must give exactly what encoding/json gives, or give up so
// that encoding/json decides.
func TestDecodeObjectAgreesWithEncodingJSON(t *testing.T) {
	for _, doc := range decodedDocs {
		got, ok := decodeObject([]byte(doc), 100)
		if !ok {
			t.Errorf("%q: gave up", doc)
			continue
		}
		var want map[string]any
		if err := json.Unmarshal([]byte(doc), &want); err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		if !sameJSONValues(got, want) {
			t.Errorf("%q:\n got %#v\nwant %#v", doc, got, want)
		}
	}
}

// decodedDocs are data that decodeObject decodes within a depth of 100.
var decodedDocs = []string{
	`{}`, ` { } `, `{"a":1}`, `{"a":-0,"b":0.5,"c":1e3,"d":-1.25E-7,"e":12345678901234567890}`,
	`{"a":"","b":"plain","c":"é 😀","d":"\"\\\/\b\f\n\r\t","e":"\u00e9\u20ac\ud83d\ude00"}`,
	`{"lone":"\ud83d","low":"\ude00x","pair then lone":"\ud83d\ude00\ud83d","bad pair":"\ud83d\u0041"}`,
	"{\"invalid utf-8\":\"\xff\xfe a \xc3\"}", "{\"\xff\":1}",
	`{"a":[],"b":[1,"x",true,false,null,{"c":[[]]}],"c":{"d":{"e":{}}}}`,
	`{"dup":1,"dup":2}`, "{\n\t\"a\" :\r 1 ,\"b\":[ 1 , 2 ] }",
	`{"Applicant": {"passportNumber": "X1234567", "dateOfBirth": "1985-04-12", "monthlyIncome": 5200, "debtRatio": 0.25, "flags": []}}`,
	// Numbers on either side of the exact short form.
	`{"a":0.05,"b":-0.0,"c":-0,"d":0.000,"e":123456789012345,"f":1234567890123456,"g":9007199254740993}`,
	`{"a":0.1,"b":0.3,"c":1.7976931348623157,"d":0.0000000000000000000001,"e":0.00000000000000000000001}`,
	`{"a":1.000000000000001,"b":100000000000000000000000,"c":123456.7890123456,"d":-999999999999999.9}`,
	`{"a":0e0,"b":-0e5,"c":2.5e-1,"d":-0.5E+1}`,
}

func TestDecodeObjectGivesUpWhereEncodingJSONFailsOrTheDepthIsExceeded(t *testing.T) {
	for _, doc := range refusedDocs {
		if got, ok := decodeObject([]byte(doc), 2); ok {
			t.Errorf("%q: decoded %#v", doc, got)
		}
	}
}

// refusedDocs are texts that decodeObject gives up on within a depth of 2.
var refusedDocs = []string{
	``, ` `, `[]`, `"a"`, `1`, `null`, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1}x`, `{"a":1}{}`, `{a:1}`,
	`{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":1e}`, `{"a":-}`, `{"a":+1}`, `{"a":1e400}`, `{"a":tru}`, `{"a":nul}`,
	"{\"a\":\"\x01\"}", `{"a":"\x"}`, `{"a":"\u12"}`, `{"a":"\ud83d\u12"}`, `{"a":"unterminated}`, `{"a":[1 2]}`,
	`{"a":{"b":{"c":1}}}`,
}

func TestValidObjectAcceptsExactlyWhatDecodeObjectDecodes(t *testing.T) {
	for _, doc := range decodedDocs {
		if !validObject([]byte(doc), 100) {
			t.Errorf("%q: refused", doc)
		}
	}
	for _, doc := range refusedDocs {
		if validObject([]byte(doc), 2) {
			t.Errorf("%q: accepted", doc)
		}
	}
}

func TestCheckDataReturnsTheErrorOfDecodeData(t *testing.T) {
	for _, doc := range []string{`{"a":[1,{"b":"c"}]}`, `[]`, ` `, `{"a":{"b":{}}}`, `{"a":1,}`, `{"a":1e400}`, `{"a":01}`} {
		limits := Limits{MaxDataDepth: 2}
		_, want := DecodeData([]byte(doc), limits)
		if got := CheckData([]byte(doc), limits); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q: CheckData gave %v, DecodeData %v", doc, got, want)
		}
	}
}

func TestADataDecoderDecodesEachDataIntoTheMapsOfTheOneBefore(t *testing.T) {
	d := NewDataDecoder(Limits{})
	// Each data decodes as DecodeData decodes it, whatever the data before
	// it left in the maps it reuses.
	docs := append([]string{`{"a":{"b":1,"c":[{"d":true}]},"e":"x"}`, `{"a":{}}`, `{"a":{"c":[{}]}}`}, decodedDocs...)
	for _, doc := range docs {
		got, err := d.Decode([]byte(doc))
		if err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		want, err := DecodeData([]byte(doc), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if !sameJSONValues(got, want) {
			t.Errorf("%q:\n got %#v\nwant %#v", doc, got, want)
		}
		d.Recycle()
	}

	first, _ := d.Decode([]byte(`{"a":{"b":1}}`))
	lent := map[unsafe.Pointer]bool{mapPointer(first): true, mapPointer(first["a"]): true}
	d.Recycle()
	again, _ := d.Decode([]byte(`{"x":{"y":2}}`))
	if !lent[mapPointer(again)] || !lent[mapPointer(again["x"])] {
		t.Error("the recycled maps were not reused")
	}
	d.Recycle()

	// A large map is left to the collector: an emptied map keeps its
	// capacity, which ranging over it costs.
	var wide strings.Builder
	wide.WriteString(`{"0":0`)
	for i := 1; i <= maxRecycledEntries; i++ {
		fmt.Fprintf(&wide, `,"%d":%d`, i, i)
	}
	wide.WriteString("}")
	large, _ := d.Decode([]byte(wide.String()))
	d.Recycle()
	for range 3 {
		if m, _ := d.Decode([]byte(`{}`)); mapPointer(m) == mapPointer(large) {
			t.Error("a map of more than maxRecycledEntries entries was reused")
		}
		d.Recycle()
	}
}

func mapPointer(m any) unsafe.Pointer {
	return reflect.ValueOf(m).UnsafePointer()
}

// sameJSONValues compares decoded values exactly: reflect.DeepEqual holds
// -0 and 0 equal, %#v tells them apart (and prints maps in key order).
func sameJSONValues(a, b map[string]any) bool {
	return reflect.DeepEqual(a, b) && fmt.Sprintf("%#v", a) == fmt.Sprintf("%#v", b)
}

func FuzzDecodeObject(f *testing.F) {
	f.Add([]byte(`{"a":[1,"x\u00e9",{"b":null}],"c":-1.5e-3}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, ok := decodeObject(raw, 20)
		if valid := validObject(raw, 20); valid != ok {
			t.Fatalf("%q: decoded %v, valid %v", raw, ok, valid)
		}
		// Split off a text holding it and more, it is checked alike.
		object := bytes.Trim(raw, " \t\r\n")
		text := append(append([]byte("[ "), object...), ", {}]"...)
		objects, end, checked := CheckedObjects(text, Limits{MaxDataDepth: 20})
		for _, o := range objects {
			if !validObject(o, 20) {
				t.Fatalf("%q: checked as %q up to %d, which is not valid", raw, objects, end)
			}
		}
		if ok && (!checked || len(objects) != 2 || len(objects[0]) != len(object) || end != len(text)) {
			t.Fatalf("%q: valid, but checked %v as %q", raw, checked, objects)
		}
		if !ok {
			return
		}
		var want map[string]any
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatalf("%q decoded, but encoding/json refuses it: %v", raw, err)
		}
		if !sameJSONValues(got, want) {
			t.Fatalf("%q:\n got %#v\nwant %#v", raw, got, want)
		}
		// Decoded into the maps of other data, it is the same.
		d := NewDataDecoder(Limits{MaxDataDepth: 20})
		if _, err := d.Decode([]byte(`{"a":{"b":{"c":1},"d":2},"e":{}}`)); err != nil {
			t.Fatal(err)
		}
		d.Recycle()
		if again, err := d.Decode(raw); err != nil || !sameJSONValues(again, want) {
			t.Fatalf("%q decoded into recycled maps:\n got %#v, %v\nwant %#v", raw, again, err, want)
		}
	})
}

// Valid JSON is compacted as json.Compact compacts it.
func FuzzAppendCompactValid(f *testing.F) {
	f.Add([]byte(" {\"a b\" : [ 1 , \"x \\\" y\\\\\" ] ,\n\t\"c\":{ } } "))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		var want bytes.Buffer
		if err := json.Compact(&want, raw); err != nil {
			t.Fatal(err)
		}
		if got := appendCompactValid(nil, raw); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%q:\n got %q\nwant %q", raw, got, want.Bytes())
		}
	})
}

func BenchmarkDecodeData(b *testing.B) {
	raw := []byte(`{"Applicant": {"passportNumber": "X1234567", "dateOfBirth": "1985-04-12", "monthlyIncome": 5200, "debtRatio": 0.25, "creditScore": 720, "country": "NL", "flags": [], "loanAmount": 250000}, "Property": {"value": 310000}}`)
	b.Run("one pass", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := decodeObject(raw, 32); !ok {
				b.Fatal("gave up")
			}
		}
	})
	b.Run("into recycled maps", func(b *testing.B) {
		d := NewDataDecoder(Limits{MaxDataDepth: 32})
		b.ReportAllocs()
		for b.Loop() {
			if _, err := d.Decode(raw); err != nil {
				b.Fatal(err)
			}
			d.Recycle()
		}
	})
	b.Run("checked", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !validObject(raw, 32) {
				b.Fatal("refused")
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := checkDepth(raw, 32); err != nil {
				b.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestDecodeDataSaysWhereDataBreaksInPlainWords(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{`{"a": 1,}`, "data is not valid JSON: invalid character '}' looking for beginning of object key string (at byte 9)"},
		{`{"a": `, "data is not valid JSON: it ends too early"},
		{`{"Person": {"age": 1e400}}`, "data holds the number 1e400 (at byte 20), larger than any number a rule can compare (about 1.8e308)"},
		{`{"a": [-2E999]}`, "data holds the number -2E999 (at byte 8), smaller than any number a rule can compare (about -1.8e308)"},
		{"{\"a\": 1e999 \n}", "data holds the number 1e999 (at byte 7), larger than any number a rule can compare (about 1.8e308)"},
		// A long number is quoted by its first MaxQuoted characters.
		{`{"n": ` + strings.Repeat("9", 1_000_000) + `}`, "data holds the number " + strings.Repeat("9", MaxQuoted) +
			"… (at byte 7), larger than any number a rule can compare (about 1.8e308)"},
	} {
		_, err := DecodeData([]byte(c.doc), Limits{})
		if err == nil || err.Error() != c.want {
			t.Errorf("%.80s: %.300v, want %s", c.doc, err, c.want)
		}
	}
}

func TestJSONProblemSaysWhereTheTextBreaks(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`{"a": 1,}`, "invalid character '}' looking for beginning of object key string (at byte 9)"},
		{`{"a" 1}`, "invalid character '1' after object key (at byte 6)"},
		{`{"a": `, "it ends too early"},
		{`{"a": "b`, "it ends too early"},
		{``, "it ends too early"},
		{strings.Repeat("[", 10001), "it nests deeper than 10000 levels (at byte 10001)"},
	} {
		var v any
		if got := JSONProblem(json.Unmarshal([]byte(c.text), &v)); got != c.want {
			t.Errorf("Unmarshal(%q): %q, want %q", c.text, got, c.want)
		}
		if got := JSONProblem(json.NewDecoder(bytes.NewReader([]byte(c.text))).Decode(&v)); got != c.want {
			t.Errorf("Decode(%q): %q, want %q", c.text, got, c.want)
		}
	}
	// Anything else keeps its own message.
	var n int
	err := json.Unmarshal([]byte(`"x"`), &n)
	if got := JSONProblem(err); got != err.Error() {
		t.Errorf("a type error: %q, want %q", got, err.Error())
	}
}
