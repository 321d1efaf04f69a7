package service

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestCheckJSONTextFindsEscapedNULsOnly(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		nul       bool
	}{
		{"an escaped NUL", `{"a": "x\u0000"}`, true},
		{"an escaped NUL after an escaped backslash", `{"a": "\\\u0000"}`, true},
		{"an escaped NUL in a member name", `{"\u0000": 1}`, true},
		{"an escaped backslash before u0000", `{"a": "\\u0000"}`, false},
		{"another escape", `{"a": "\u0001\n\"u0000"}`, false},
		{"no escape", `{"a": "u0000"}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkJSONText("data", []byte(tc.doc))
			if (err != nil) != tc.nul {
				t.Errorf("checkJSONText(%s) = %v, want a NUL found: %v", tc.doc, err, tc.nul)
			}
		})
	}
}

// FuzzWithValidUnicode holds withValidUnicode to what decoding reads: the
// same values, and no escape PostgreSQL's jsonb refuses.
func FuzzWithValidUnicode(f *testing.F) {
	for _, doc := range []string{
		`{"a": "\ud800"}`, `{"a": "\udc00\ud800"}`, `{"a": "\ud83d\ude00"}`, `{"\ud83d": "\\ud800"}`,
		`["\ud800\u0041", "\uDBFF\uDFFF", "\uDBFF\\uDFFF"]`, `"\ud800\ud800\udc00"`, `1`,
	} {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		var before any
		if json.Unmarshal(doc, &before) != nil {
			return
		}
		fixed := withValidUnicode(doc)
		var after any
		if err := json.Unmarshal(fixed, &after); err != nil {
			t.Fatalf("%s became %s, which does not decode: %v", doc, fixed, err)
		}
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("%s decodes to %q, but %s to %q", doc, before, fixed, after)
		}
		if loneSurrogateEscape(fixed) {
			t.Fatalf("%s became %s, which still escapes a lone surrogate", doc, fixed)
		}
	})
}

// loneSurrogateEscape tells, the slow way, whether doc escapes a surrogate
// that is not half of a pair.
func loneSurrogateEscape(doc []byte) bool {
	for i := 0; i < len(doc); i++ {
		if doc[i] != '\\' {
			continue
		}
		r, ok := escapedRune(doc, i)
		switch {
		case !ok:
			i++ // an escape of one character
		case r >= 0xd800 && r < 0xdc00:
			low, ok := escapedRune(doc, i+6)
			if !ok || low < 0xdc00 || low > 0xdfff {
				return true
			}
			i += 11
		case r >= 0xdc00 && r <= 0xdfff:
			return true
		default:
			i += 5
		}
	}
	return false
}
