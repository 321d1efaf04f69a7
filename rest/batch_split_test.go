package rest

import (
	"encoding/json"
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
