package engine

import (
	"bytes"
	"encoding/json"
	"testing"
)

// Strings are quoted as encoding/json quotes them, with and without its
// HTML escaping.
func FuzzAppendString(f *testing.F) {
	f.Add("plain §identity <b>&amp;</b> \"quoted\" \\ \t\n\x01 \u2028 \xff")
	f.Fuzz(func(t *testing.T, s string) {
		for _, html := range []bool{true, false} {
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(html)
			if err := enc.Encode(s); err != nil {
				t.Fatal(err)
			}
			if got := appendString(nil, s, html); !bytes.Equal(append(got, '\n'), want.Bytes()) {
				t.Fatalf("%q, html %v:\n got %s\nwant %s", s, html, got, want.Bytes())
			}
		}
	})
}
