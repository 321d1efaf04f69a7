package rest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"testing"
)

func TestSplitItemsGivesEachItemOfTheUsualBodyAsSent(t *testing.T) {
	for body, want := range map[string][]string{
		`{"items":[{}]}`: {`{}`},
		" {\n \"items\" :\t[ {\"a\": [1, {\"b\": \"}]\\\"{\"}]} ,{\"c\":null}\r\n] } ": {`{"a": [1, {"b": "}]\"{"}]}`, `{"c":null}`},
		// The split only follows nesting: the service's decoding refuses
		// what is not valid JSON.
		`{"items": [{"a": 1,}, {"b": ]]}`: {`{"a": 1,}`, `{"b": ]`},
	} {
		items, ok := splitItems([]byte(body))
		if !ok {
			t.Errorf("%s: not split", body)
			continue
		}
		got := make([]string, len(items))
		for i, item := range items {
			got[i] = string(item)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: split into %q, want %q", body, got, want)
		}
	}
}

func TestSplitItemsLeavesEveryOtherShapeToTheFullDecoding(t *testing.T) {
	for _, body := range []string{
		``, `[]`, `{}`, `{"items": null}`, `{"items": []}`, `{"items": {}}`, `{"items": "[{}]"}`,
		`{"items": [{}, 5]}`, `{"items": [5, {}]}`, `{"items": [null]}`, `{"items": [[]]}`,
		`{"Items": [{}]}`, `{"\u0069tems": [{}]}`, `{"items": [{}], "items": [{}]}`, `{"items": [{}], "data": {}}`,
		`{"data": {}, "items": [{}]}`, `{"items": [{}]} {}`, `{"items": [{}]`, `{"items": [{}`, `{"items": [{"a": "}]}`,
		`{"items": [{"a": "\"}]}`, `{"items": [{},]}`, `{"items": [{} {}]}`, `{"items" [{}]}`, `{"items": [{}]]}`,
	} {
		if items, ok := splitItems([]byte(body)); ok {
			raw, _ := json.Marshal(items)
			t.Errorf("%s: split into %s", body, raw)
		}
	}
}

func TestSplitRunDataGivesTheDataOfTheUsualBodyAsSent(t *testing.T) {
	for body, want := range map[string]string{
		`{"data":{}}`: `{}`,
		" {\n \"data\" :\t{\"a\": [1, {\"b\": \"}]\\\"{\"}]} \r\n} ": `{"a": [1, {"b": "}]\"{"}]}`,
		// The split only follows nesting: the service's decoding refuses
		// what is not valid JSON.
		`{"data": {"a": 1,}}`: `{"a": 1,}`,
		`{"data": {"b": ]}`:   `{"b": ]`,
	} {
		data, ok := splitRunData([]byte(body))
		if !ok || string(data) != want {
			t.Errorf("%s: split into %q (%v), want %q", body, data, ok, want)
		}
	}
}

func TestSplitRunDataLeavesEveryOtherShapeToTheFullDecoding(t *testing.T) {
	for _, body := range []string{
		``, `[]`, `{}`, `{"data": null}`, `{"data": []}`, `{"data": "{}"}`, `{"data": 5}`, `{"Data": {}}`,
		`{"d\u0061ta": {}}`, `{"data": {}, "data": {}}`, `{"data": {}, "rule": "x"}`, `{"rule": "x", "data": {}}`,
		`{"data": {}} {}`, `{"data": {}`, `{"data": {"a": "}}`, `{"data": {"a": "\"}}`, `{"data" {}}`, `{"data": {}}}`,
		`{"data": {}]`, `{"data"`, `{"data":`,
	} {
		if data, ok := splitRunData([]byte(body)); ok {
			t.Errorf("%s: split into %s", body, data)
		}
	}
}

// The one-pass splits accept only bodies that the full decoding reads the
// same way, once the service has checked what they split off: a split body
// is valid JSON exactly when its parts are, and then decodeObject finds the
// same parts.
func FuzzSplitsAgreeWithTheFullDecoding(f *testing.F) {
	for _, body := range []string{
		`{"data": {"a": [1, "}"]}}`, ` {"data":{}} `, `{"data": {}, "data": {}}`, `{"data": {"a": 1,}}`,
		`{"items": [{"a": 1}, {"b": "]"}]}`, `{"items": [{}] }`, `{"items": [{"a": }]}`, `{"d\u0061ta": {}}`,
	} {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if data, ok := splitRunData(body); ok {
			if json.Valid(data) != json.Valid(body) {
				t.Fatalf("%q: split off %q, valid %v, from a body valid %v", body, data, json.Valid(data), json.Valid(body))
			}
			var req policyRunRequest
			if json.Valid(body) {
				if err := decodeObject(body, reflect.ValueOf(&req).Elem()); err != nil || string(req.Data) != string(data) {
					t.Fatalf("%q: split off %q, decoded %q, %v", body, data, req.Data, err)
				}
			}
		}
		if items, ok := splitItems(body); ok {
			valid := true
			for _, item := range items {
				valid = valid && json.Valid(item)
			}
			if valid != json.Valid(body) {
				t.Fatalf("%q: split into items valid %v, from a body valid %v", body, valid, json.Valid(body))
			}
			var req batchRequest
			if valid {
				if err := decodeObject(body, reflect.ValueOf(&req).Elem()); err != nil || !slices.EqualFunc(req.Items, items, func(a, b json.RawMessage) bool { return bytes.Equal(a, b) }) {
					t.Fatalf("%q: split into %q, decoded %q, %v", body, items, req.Items, err)
				}
			}
		}
	})
}
