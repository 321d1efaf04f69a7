package rest

import (
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/bodies"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

func TestDecodeObjectFillsEachMemberFromItsOwnText(t *testing.T) {
	body := []byte(` { "status" : "draft", "n\u0061me": "Senior",` + "\n" +
		`"schema": {"a": [1, "}", {"b": null}]}, "tests" : null, "rule": "A \"rule\"" } `)
	var req policyUpdate
	if err := decodeObject(body, reflect.ValueOf(&req).Elem()); err != nil {
		t.Fatal(err)
	}
	if *req.Status != "draft" || *req.Name != "Senior" || *req.Rule != `A "rule"` || req.Description != nil {
		t.Errorf("status %q, name %q, rule %q, description %v", *req.Status, *req.Name, *req.Rule, req.Description)
	}
	if string(req.Schema) != `{"a": [1, "}", {"b": null}]}` {
		t.Errorf("schema %s, want the member's text as sent", req.Schema)
	}
	if string(req.Tests) != "null" {
		t.Errorf("tests %q, want null kept as a value", req.Tests)
	}
}

func TestDecodeObjectRefusesWhatEncodingJSONWouldLetThrough(t *testing.T) {
	for _, tc := range []struct {
		name, body, message string
	}{
		{"an empty body", "  ", "the request body is empty; send a JSON object"},
		{"an array", `[{"status": "draft"}]`, "the request body must be a JSON object, not an array"},
		{"null", `null`, "the request body must be a JSON object, not null"},
		{"a number", `-5`, "the request body must be a JSON object, not a number"},
		{"malformed JSON", `{"status": "dr`, "the request body is not valid JSON: it ends too early"},
		{"a syntax error", `{"status" "draft"}`, "the request body is not valid JSON: invalid character '\"' after object key (at byte 11)"},
		{"a second object", `{"status": "draft"} {}`, "the request body has more after its JSON object"},
		{"nesting past what JSON decoding follows", `{"tests":` + strings.Repeat("[", 10000), "the request body is not valid JSON: it nests deeper than 10000 levels (at byte 10009)"},
		{"an array with more after it", `[] x`, "the request body must be a JSON object, not an array"},
		{"an unknown member", `{"status": "draft", "bogus": 1}`,
			`unknown field "bogus"; the fields are status, revision, name, rule, description, schema, tests`},
		{"a member of an embedded struct in another case", `{"Name": "x"}`,
			`unknown field "Name" (did you mean "name"?); the fields are status, revision, name, rule, description, schema, tests`},
		{"a misspelt member", `{"staus": "draft"}`,
			`unknown field "staus" (did you mean "status"?); the fields are status, revision, name, rule, description, schema, tests`},
		{"a member given twice", `{"name": "a", "status": "draft", "name": "b"}`, `field "name" appears more than once`},
		{"a member given twice, once escaped", `{"name": "a", "n\u0061me": "b"}`, `field "name" appears more than once`},
		{"a member of the wrong type", `{"name": ["a"]}`, "name must be a string, not an array"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var req policyUpdate
			err := decodeObject([]byte(tc.body), reflect.ValueOf(&req).Elem())
			var e *service.Error
			if !errors.As(err, &e) || e.Code != service.CodeInvalidArgument || e.Message != tc.message {
				t.Errorf("error %v, want invalid_argument %q", err, tc.message)
			}
		})
	}
}

func TestDecodeObjectNamesANestedMemberOfTheWrongType(t *testing.T) {
	var req struct {
		Limits struct {
			Depth int `json:"depth"`
		} `json:"limits"`
	}
	err := decodeObject([]byte(`{"limits": {"depth": "deep"}}`), reflect.ValueOf(&req).Elem())
	if err == nil || !strings.Contains(err.Error(), "limits.depth must be an integer, not a string") {
		t.Errorf("error %v, want the nested member named", err)
	}
}

func TestDecodeObjectNamesANumberThatDoesNotFit(t *testing.T) {
	var req struct {
		Rate  float64 `json:"rate"`
		Count uint    `json:"count"`
	}
	for body, want := range map[string]string{
		`{"rate": 1e400}`: "rate is the number 1e400, larger than any number it may be (about 1.8e308)",
		`{"count": -1}`:   "count must be an integer, not -1",
		`{"count": 1.5}`:  "count must be an integer, not 1.5",
	} {
		err := decodeObject([]byte(body), reflect.ValueOf(&req).Elem())
		var e *service.Error
		if !errors.As(err, &e) || e.Code != service.CodeInvalidArgument || e.Message != want {
			t.Errorf("%s: error %v, want invalid_argument %q", body, err, want)
		}
	}
}

func TestFieldsOfSeesEmbeddedStructsAsEncodingJSONDoes(t *testing.T) {
	type inner struct {
		B string `json:"b"`
	}
	type tagged struct {
		C string `json:"c"`
	}
	var v struct {
		A string `json:"a"`
		inner
		T      tagged `json:"t"`
		Hidden string `json:"-"`
	}
	got := strings.Join(fieldsOf(reflect.TypeOf(v)).names, ", ")
	if got != "a, b, t" {
		t.Errorf("fields %q, want a, b, t", got)
	}
	if err := decodeObject([]byte(`{"b": "x", "t": {"c": "y"}}`), reflect.ValueOf(&v).Elem()); err != nil || v.B != "x" || v.T.C != "y" {
		t.Errorf("decoded %+v, %v", v, err)
	}
}

func TestDecodeTestsHoldsEachCaseToTheRulesOfABody(t *testing.T) {
	for _, tc := range []struct {
		name, tests, message string
	}{
		{"an object", `{"name": "t"}`, "tests must be an array of objects {name, data, expect}; found an object"},
		{"a case that is not an object", `[{"name": "t", "data": {}, "expect": true}, 5]`, "tests[1] must be an object {name, data, expect}, not a number"},
		{"a null case", `[null]`, "tests[0] must be an object {name, data, expect}, not null"},
		{"an unknown member", `[{"name": "t", "data": {}, "expect": true, "expected": true}]`,
			`tests[0]: unknown field "expected" (did you mean "expect"?); the fields are name, data, expect`},
		{"a member in another case", `[{"Name": "t", "data": {}, "expect": true}]`,
			`tests[0]: unknown field "Name" (did you mean "name"?); the fields are name, data, expect`},
		{"a member given twice", `[{"name": "t", "data": {}, "name": "u", "expect": true}]`, `tests[0]: field "name" appears more than once`},
		{"a name of the wrong type", `[{"name": 5, "data": {}, "expect": true}]`, "tests[0]: name must be a string, not a number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeTests([]byte(tc.tests))
			var e *service.Error
			if !errors.As(err, &e) || e.Code != service.CodeInvalidArgument || e.Message != tc.message {
				t.Errorf("error %v, want invalid_argument %q", err, tc.message)
			}
		})
	}
	cases, err := decodeTests([]byte(`[{"name": "t", "data": {"a": 1}, "expect": true}]`))
	if err != nil || len(cases) != 1 || cases[0].Name != "t" || string(cases[0].Data) != `{"a": 1}` || string(cases[0].Expect) != "true" {
		t.Errorf("decoded %+v, %v", cases, err)
	}
}

// A JSON body is read as UTF-8: a charset that says otherwise is refused
// rather than misread, and utf-8 is taken in any case.
func TestContentTypeTakesJSONInUTF8Only(t *testing.T) {
	for ct, want := range map[string]string{
		"":                                       "",
		"application/json":                       "",
		"application/json; charset=utf-8":        "",
		"application/json; charset=UTF-8":        "",
		"Application/JSON;charset=\"Utf-8\"":     "",
		"application/merge-patch+json":           "",
		"application/json; charset=latin1":       `invalid_argument: Content-Type must be JSON in UTF-8, not in charset "latin1"`,
		"application/vnd.x+json; charset=utf-16": `invalid_argument: Content-Type must be JSON in UTF-8, not in charset "utf-16"`,
		"text/plain; charset=utf-8":              `invalid_argument: Content-Type must be application/json, not "text/plain; charset=utf-8"`,
	} {
		got := ""
		if err := checkContentType(ct); err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("Content-Type %q: %q, want %q", ct, got, want)
		}
	}
}

// A body that begins with a byte order mark is told so, not that it
// holds an invalid character 'ï'.
func TestABodyWithAByteOrderMarkIsToldSo(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		w := f.do(http.MethodPost, "/check", strings.NewReader("\xEF\xBB\xBF"+`{"rule": "A **P** is ok if the __a__ of the **P** is at least 1."}`),
			append(key(adminKey), "Content-Type", "application/json")...)
		wantMessage(t, w, http.StatusBadRequest, service.CodeInvalidArgument, bodies.TextProblem([]byte("\xEF\xBB\xBF")))
	})
}
