package authz

import (
	"context"
	"testing"
)

// A typical request: an editor's user key editing the editor's own draft,
// with identifiers shaped like the service's UUIDs.
var (
	benchPrincipal = Principal{
		UserID:   "0192f3a4-5b6c-7d8e-9f01-23456789abcd",
		KeyID:    "0192f3a4-5b6c-7d8e-9f01-23456789abce",
		KeyOwner: OwnerUser,
		Role:     RoleEditor,
		Scope:    ScopeEdit,
		TenantID: "0192f3a4-5b6c-7d8e-9f01-23456789abcf",
	}
	benchResource = Resource{
		Kind:      KindPolicy,
		TenantID:  "0192f3a4-5b6c-7d8e-9f01-23456789abcf",
		OwnerKind: OwnerUser,
		OwnerID:   "0192f3a4-5b6c-7d8e-9f01-23456789abcd",
		State:     StateDraftOnly,
	}
)

func BenchmarkEmbeddedDecisionUncached(b *testing.B) {
	e, err := newEmbedded(policySource, defaultTimeout, nil)
	if err != nil {
		b.Fatal(err)
	}
	benchmarkDecide(b, e)
}

func BenchmarkEmbeddedDecisionCached(b *testing.B) {
	benchmarkDecide(b, newTestEmbedded(b))
}

func benchmarkDecide(b *testing.B, e *Embedded) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		d, err := e.Decide(ctx, benchPrincipal, ActionEdit, benchResource)
		if err != nil || !d.Allow {
			b.Fatalf("got %+v, %v", d, err)
		}
	}
}

// The cached path under contention, as many request goroutines would use it.
func BenchmarkEmbeddedDecisionCachedParallel(b *testing.B) {
	e := newTestEmbedded(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if d, err := e.Decide(ctx, benchPrincipal, ActionEdit, benchResource); err != nil || !d.Allow {
				b.Errorf("got %+v, %v", d, err)
				return
			}
		}
	})
}
