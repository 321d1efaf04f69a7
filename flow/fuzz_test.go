package flow

import "testing"

// FuzzParse checks that Parse never panics, and that whatever it accepts
// is stored and read back unchanged, with the same problems.
func FuzzParse(f *testing.F) {
	for _, s := range roundTripSamples() {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		`{"formatVersion": 1, "nodes": [{"id": "s", "type": "start", "policy": {"id": "P"}, "onTrue": "s"}]}`,
		`{"nodes": [{"id": "c", "type": "custom"}], "edges": [{"source": "c", "target": "c", "sourceHandle": true}]}`,
		`{"start": [{"id": "a", "type": "custom", "onTrue": {"id": "a", "type": "custom"}}]}`,
		`"formatVersion: 1\nnodes: [{id: 0x1F, type: return, returnValue: 1e3}]"`,
		`"a: &x [*x]"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		d, err := Parse(raw)
		if err != nil {
			if _, ok := err.(*DefinitionError); !ok {
				t.Fatalf("Parse returned %T: %v", err, err)
			}
			return
		}
		checkRoundTrip(t, d)
	})
}
