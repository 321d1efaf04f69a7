package service

import "testing"

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
