package database_test

import (
	"context"
	"sync"
	"testing"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/internal/dbtest"
)

// Read-then-write transactions are what publishing does (read the latest
// version, write the next). On SQLite two of them used to fail at once with
// "database is locked" when both had read before either wrote; on PostgreSQL
// they would lose updates without a row lock.
func TestConcurrentWriteTransactions(t *testing.T) {
	t.Run("concurrent read-then-write transactions all commit and lose nothing", func(t *testing.T) {
		dbtest.Each(t, func(t *testing.T, db *database.DB) {
			ctx := context.Background()
			f := newFixture(ctx, t, db)
			const writers, rounds = 8, 10

			var wg sync.WaitGroup
			errs := make(chan error, writers*rounds)
			for range writers {
				wg.Go(func() {
					for range rounds {
						errs <- bumpLatestVersion(ctx, db, f.base.ID)
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatalf("a write transaction failed: %v", err)
				}
			}
			got := db.Client().Base.GetX(ctx, f.base.ID).LatestVersion
			if got != writers*rounds {
				t.Fatalf("latest_version = %d after %d increments", got, writers*rounds)
			}
		})
	})
}

func bumpLatestVersion(ctx context.Context, db *database.DB, id uuid.UUID) (err error) {
	tx, err := db.Client().Tx(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	q := tx.Base.Query().Where(base.ID(id))
	// SQLite has no FOR UPDATE: its transactions take the write lock when
	// they begin (database.Open sets _txlock=immediate), which serializes them.
	if db.Dialect() == dialect.Postgres {
		q = q.ForUpdate()
	}
	b, err := q.Only(ctx)
	if err != nil {
		return err
	}
	if err := tx.Base.UpdateOne(b).SetLatestVersion(b.LatestVersion + 1).Exec(ctx); err != nil {
		return err
	}
	return tx.Commit()
}
