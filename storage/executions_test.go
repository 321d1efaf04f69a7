package storage_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"entgo.io/ent/dialect"
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

		all, _, err := s.Executions(ctx, storage.ExecutionFilter{Tenant: acme}, 10)
		if want := []uuid.UUID{policy.ID, flow.ID, old.ID}; err != nil || !slices.Equal(executionIDs(all), want) {
			t.Errorf("Executions = %v, %v; want %v", executionIDs(all), err, want)
		}
		after, _, err := s.Executions(ctx, storage.ExecutionFilter{Tenant: acme, Before: &storage.Position{At: policy.At, ID: policy.ID}}, 1)
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
		left, _, err := s.Executions(ctx, storage.ExecutionFilter{Tenant: acme}, 10)
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

// A SQLite file removed or replaced while the store has it open would take
// writes nobody could read again: the store is not ready and refuses
// them, and says why. PostgreSQL has no file.
func TestAStoreWhoseSQLiteFileIsGoneIsNotReadyAndRefusesWrites(t *testing.T) {
	for _, tt := range []struct {
		name string
		lose func(t *testing.T, path string)
		why  string
	}{
		{"the file removed", func(t *testing.T, path string) {
			for _, suffix := range []string{"", "-wal", "-shm"} {
				if err := os.Remove(path + suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
					t.Fatal(err)
				}
			}
		}, "is no longer there"},
		{"its directory removed", func(t *testing.T, path string) {
			if err := os.RemoveAll(filepath.Dir(path)); err != nil {
				t.Fatal(err)
			}
		}, "is no longer there"},
		{"another file put in its place", func(t *testing.T, path string) {
			other := path + ".restored"
			if err := os.WriteFile(other, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(other, path); err != nil {
				t.Fatal(err)
			}
		}, "was replaced by another"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			url := dbtest.URL(t, dialect.SQLite, true)
			db, err := database.Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			s := storage.New(db)
			if err := s.Ready(ctx); err != nil {
				t.Fatalf("Ready before: %v", err)
			}
			path := strings.TrimPrefix(url, "sqlite://")
			tt.lose(t, path)

			want := "database: the SQLite file opened at " + path + " " + tt.why
			if err := s.Ready(ctx); err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Ready: %v, want %q", err, want)
			}
			if err := s.InTx(ctx, func(tx storage.Tx) error {
				_, err := tx.CreateOrganization(ctx, "Acme")
				return err
			}); err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("a write in a transaction: %v, want %q", err, want)
			}
			if err := s.InsertExecutions(ctx, []storage.Execution{execution(uuid.New(), at, "policy")}); err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("storing an executed event: %v, want %q", err, want)
			}
		})
	}
}
