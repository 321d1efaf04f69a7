package rest

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"testing"
)

// BenchmarkDecodeRunBody measures decoding the body of a stored-policy
// run, the commonest body, on the engine's five-rule bench case.
func BenchmarkDecodeRunBody(b *testing.B) {
	c := loadBenchCase(b, "five_rule_policy_refs_labels")
	body, err := json.Marshal(map[string]json.RawMessage{"data": c.Data})
	if err != nil {
		b.Fatal(err)
	}
	s := &server{}
	b.ReportAllocs()
	for b.Loop() {
		r := httptest.NewRequest("POST", "/run/policy/x", bytes.NewReader(body))
		var req policyRunRequest
		if err := s.decodeBody(r, &req); err != nil || req.Data == nil {
			b.Fatal(err)
		}
	}
}
