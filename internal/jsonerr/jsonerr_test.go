package jsonerr_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/verdict/verdict/internal/jsonerr"
)

func TestDescribeSaysWhereTheTextBreaks(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`{"a": 1,}`, "invalid character '}' looking for beginning of object key string (at byte 9)"},
		{`{"a" 1}`, "invalid character '1' after object key (at byte 6)"},
		{`{"a": `, "it ends too early"},
		{`{"a": "b`, "it ends too early"},
		{``, "it ends too early"},
	} {
		var v any
		if got := jsonerr.Describe(json.Unmarshal([]byte(c.text), &v)); got != c.want {
			t.Errorf("Unmarshal(%q): %q, want %q", c.text, got, c.want)
		}
		if got := jsonerr.Describe(json.NewDecoder(bytes.NewReader([]byte(c.text))).Decode(&v)); got != c.want {
			t.Errorf("Decode(%q): %q, want %q", c.text, got, c.want)
		}
	}
	// Anything else keeps its own message.
	var n int
	err := json.Unmarshal([]byte(`"x"`), &n)
	if got := jsonerr.Describe(err); got != err.Error() {
		t.Errorf("a type error: %q, want %q", got, err.Error())
	}
}
