package flow

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/verdict/verdict/engine"
)

// The policies the flow tests use.
const (
	ruleAge    = "A **applicant** is an adult if the __age__ of the **applicant** is at least 18."
	ruleIncome = "A **applicant** has enough income if the __income__ of the **applicant** is greater than 30000."
	ruleBroken = "An applicant is fine."
)

// fakeResolver serves compiled policies from memory: records by record id,
// bases pointing at their latest record. Runs may share it concurrently.
type fakeResolver struct {
	records map[string]*ResolvedPolicy
	bases   map[string]string
	err     error // when set, every call fails with it
	mu      sync.Mutex
	calls   []PolicyRef
}

func newFakeResolver(t testing.TB) *fakeResolver {
	t.Helper()
	f := &fakeResolver{
		records: map[string]*ResolvedPolicy{},
		bases:   map[string]string{"B-INCOME": "P-INCOME"},
	}
	for id, src := range map[string]string{"P-AGE": ruleAge, "P-INCOME": ruleIncome, "P-BROKEN": ruleBroken} {
		var e engine.Engine
		rp := CompilePolicy(&e, src)
		if rp.Program == nil && id != "P-BROKEN" {
			t.Fatalf("compile %s: %v", id, rp.ParseErrors)
		}
		f.records[id] = rp
	}
	return f
}

func (f *fakeResolver) ResolvePolicy(_ context.Context, ref PolicyRef) (*ResolvedPolicy, error) {
	f.mu.Lock()
	f.calls = append(f.calls, ref)
	f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	id := ref.ID
	switch {
	case ref.BaseID != "":
		id = f.bases[ref.BaseID]
	case ref.Ref != "":
		id = ref.Ref
		if _, ok := f.records[id]; !ok {
			id = f.bases[ref.Ref]
		}
	}
	if p, ok := f.records[id]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("resolve %s: %w", ref, ErrPolicyNotFound)
}
