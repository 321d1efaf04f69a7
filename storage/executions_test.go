package storage_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/storage"
)

func execution(tenant uuid.UUID, at time.Time, kind string) storage.Execution {
	return storage.Execution{ID: audittest.IDAt(at), Tenant: tenant, At: at, Kind: kind, BaseID: uuid.New(),
		RecordID: uuid.New(), ActorKind: "key", ActorID: uuid.New(), Result: true, Extra: map[string]any{"n": 1.0}}
}

func executionIDs(evs []storage.Execution) []uuid.UUID {
	ids := make([]uuid.UUID, len(evs))
	for i, ev := range evs {
		ids[i] = ev.ID
	}
	return ids
}

func TestExecutionsAreStoredOnceReadByTenantAndExpired(t *testing.T) {
	eachStore(t, func(t *testing.T, s storage.Store) {
		ctx := context.Background()
		acme, beta := uuid.New(), uuid.New()
		old := execution(acme, at.Add(-72*time.Hour), "policy")
		flow := execution(acme, at.Add(-time.Hour), "flow")
		policy := execution(acme, at, "policy")
		other := execution(beta, at, "policy")
		batch := []storage.Execution{old, flow, policy, other}
		for range 2 { // a retried batch stores each event once
			if err := s.InsertExecutions(ctx, batch); err != nil {
				t.Fatal(err)
			}
		}

		got, err := s.Execution(ctx, acme, policy.ID)
		if err != nil || got.ID != policy.ID || got.Kind != "policy" || got.Extra["n"] != 1.0 {
			t.Errorf("Execution = %+v, %v", got, err)
		}
		if _, err := s.Execution(ctx, beta, policy.ID); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("another tenant's event: %v, want ErrNotFound", err)
		}

		all, err := s.Executions(ctx, storage.ExecutionFilter{Tenant: acme}, 10)
		if want := []uuid.UUID{policy.ID, flow.ID, old.ID}; err != nil || !slices.Equal(executionIDs(all), want) {
			t.Errorf("Executions = %v, %v; want %v", executionIDs(all), err, want)
		}
		after, err := s.Executions(ctx, storage.ExecutionFilter{Tenant: acme, Before: &storage.Position{At: policy.At, ID: policy.ID}}, 1)
		if want := []uuid.UUID{flow.ID}; err != nil || !slices.Equal(executionIDs(after), want) {
			t.Errorf("the page after the newest = %v, %v; want %v", executionIDs(after), err, want)
		}
		since := at.Add(-2 * time.Hour)
		for f, want := range map[*storage.ExecutionFilter]int{
			{Tenant: acme}:                 3,
			{Tenant: acme, Kind: "policy"}: 2,
			{Tenant: acme, Since: &since}:  2,
			{Tenant: acme, Until: &since}:  1,
			{Tenant: acme, BaseID: &flow.BaseID, Before: &storage.Position{At: old.At, ID: old.ID}}: 1,
			{Tenant: beta, Actor: &other.ActorID}:                                                   1,
			{Tenant: beta, Actor: &policy.ActorID}:                                                  0,
		} {
			if n, err := s.CountExecutions(ctx, *f); err != nil || n != want {
				t.Errorf("CountExecutions(%+v) = %d, %v; want %d", *f, n, err, want)
			}
		}

		if err := s.PrepareExecutions(ctx, at); err != nil {
			t.Fatal(err)
		}
		expired, err := s.ExpireExecutions(ctx, at.Add(-2*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		left, err := s.Executions(ctx, storage.ExecutionFilter{Tenant: acme}, 10)
		if want := []uuid.UUID{policy.ID, flow.ID}; err != nil || !slices.Equal(executionIDs(left), want) {
			t.Errorf("left %v, %v; want %v", executionIDs(left), err, want)
		}
		if strings.HasSuffix(t.Name(), "/postgres") {
			// Whole days' partitions are dropped, uncounted.
			if expired != (storage.Expired{Partitions: 1}) {
				t.Errorf("expired %+v, want one partition", expired)
			}
		} else if expired != (storage.Expired{Events: 1}) {
			// Exactly the expired events are deleted, and counted.
			t.Errorf("expired %+v, want one event", expired)
		}
		if err := s.Ready(ctx); err != nil {
			t.Errorf("Ready = %v", err)
		}
	})
}

func TestAnUnmigratedDatabaseIsNotReady(t *testing.T) {
	dbtest.EachEmpty(t, func(t *testing.T, db *database.DB) {
		if err := storage.New(db).Ready(context.Background()); !errors.Is(err, storage.ErrMigrationsPending) {
			t.Errorf("Ready = %v, want ErrMigrationsPending", err)
		}
	})
}
