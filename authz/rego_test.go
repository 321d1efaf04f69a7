package authz

import (
	"context"
	"testing"

	"github.com/open-policy-agent/opa/v1/tester"
)

func TestRegoUnitTestsOfThePolicyAllPass(t *testing.T) {
	results, err := tester.Run(context.Background(), "authz.rego", "authz_test.rego")
	if err != nil {
		t.Fatalf("load and run Rego tests: %v", err)
	}
	if len(results) == 0 {
		t.Fatal("no Rego test ran")
	}
	for _, r := range results {
		switch {
		case r.Error != nil:
			t.Errorf("%s.%s: error: %v", r.Package, r.Name, r.Error)
		case r.Fail || r.Skip:
			t.Errorf("%s.%s: %s", r.Package, r.Name, r)
		default:
			t.Logf("%s.%s: PASS", r.Package, r.Name)
		}
	}
}
