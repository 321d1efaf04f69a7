package service

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// splitter is a service with what SplitItems and checkData read: the
// engine's limits, at their defaults, and the batch limit.
func splitter() *Service {
	return &Service{maxBatchItems: DefaultMaxBatchItems}
}

func TestSplitItemsChecksEachItemAsABatchDoes(t *testing.T) {
	s := splitter()
	for text, want := range map[string][]string{
		`[{}]`: {`{}`},
		" [ {\"a\": [1, {\"b\": \"}]\\\"{\"}]} ,{\"c\":null}\r\n] ": {`{"a": [1, {"b": "}]\"{"}]}`, `{"c":null}`},
		`[{"a": "\\u0000"}]`: {`{"a": "\\u0000"}`},
		// Where the array ends is the caller's to check.
		`[{}] {`: {`{}`},
	} {
		items, end, ok := s.SplitItems([]byte(text))
		if !ok || !items.checked || text[end-1] != ']' {
			t.Errorf("%s: split %v, checked %v, up to %d", text, ok, items.checked, end)
			continue
		}
		got := make([]string, len(items.List))
		for i, item := range items.List {
			got[i] = string(item)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: split into %q, want %q", text, got, want)
		}
	}
	deep := strings.Repeat(`{"a":`, 101) + "1" + strings.Repeat("}", 101)
	for _, text := range []string{
		``, `{}`, `[]`, `[{}`, `[{},]`, `[{} {}]`, `[{}, 5]`, `[5, {}]`, `[null]`, `[[]]`, `[{"a": 1,}]`,
		`[{"a": tru}]`, `[{"a": "\u0000"}]`, `[{}, {"a": "x\u0000"}]`, `[{"a": 1e999}]`, `[` + deep + `]`,
	} {
		if items, end, ok := s.SplitItems([]byte(text)); ok {
			t.Errorf("%s: split into %q up to %d", text, items.List, end)
		}
	}
}

// An array is split exactly when each of its items is an object that a
// batch's checks accept, into those items as sent.
func FuzzSplitItems(f *testing.F) {
	for _, text := range []string{
		`[{"a": [1, "}"]}, {}]`, ` [{"b": "\\u0000"}] `, `[{"a": 1,}]`, `[{}, 5]`, `[{"a": "\u0000"}]`,
	} {
		f.Add([]byte(text))
	}
	s := splitter()
	f.Fuzz(func(t *testing.T, text []byte) {
		items, end, ok := s.SplitItems(text)
		var list []json.RawMessage
		listed := json.Unmarshal(text, &list) == nil && len(list) > 0
		accepted := listed
		for _, item := range list {
			accepted = accepted && item[0] == '{' && s.checkData(item) == nil
		}
		if accepted && (!ok || end != len(bytes.TrimRight(text, " \t\r\n"))) {
			t.Fatalf("%q: every item is accepted, but split %v up to %d", text, ok, end)
		}
		if !ok {
			return
		}
		if err := json.Unmarshal(text[:end], &list); err != nil {
			t.Fatalf("%q: split up to %d, which is not an array: %v", text, end, err)
		}
		if !slices.EqualFunc(items.List, list, func(a, b json.RawMessage) bool { return bytes.Equal(a, b) }) {
			t.Fatalf("%q: split into %q, an array of %q", text, items.List, list)
		}
		for _, item := range items.List {
			if err := s.checkData(item); err != nil {
				t.Fatalf("%q: split off %q, which a batch refuses: %v", text, item, err)
			}
		}
	})
}
