package service_test

import (
	"context"
	"database/sql"
	"testing"

	"entgo.io/ent/dialect"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/apikey"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// TestAKeysUseIsRecordedWithoutHoldingItsRequest: the first use of a key
// writes its last use, and a write the database makes wait (SQLite's
// write lock held by another connection, the key's row locked on
// PostgreSQL) does not hold up its authentication. The lock is let go
// only once the authentication has returned, so one that waited for it
// would wait out its timeout and record nothing.
func TestAKeysUseIsRecordedWithoutHoldingItsRequest(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		key, err := f.svc.Operator().CreateKey(ctx, service.KeyInput{Organization: f.acme.Organization.ID, Name: "ci", Scope: authz.ScopeView})
		if err != nil {
			t.Fatal(err)
		}
		conn, err := db.SQL().Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		var tx *sql.Tx
		if db.Dialect() == dialect.SQLite {
			// database/sql cannot begin an immediate transaction: take
			// the write lock by writing.
			tx, err = conn.BeginTx(ctx, nil)
			if err == nil {
				_, err = tx.ExecContext(ctx, "UPDATE api_keys SET name = name WHERE id = ?", key.ID)
			}
		} else {
			tx, err = conn.BeginTx(ctx, nil)
			if err == nil {
				_, err = tx.ExecContext(ctx, "SELECT id FROM api_keys WHERE id = $1 FOR UPDATE", key.ID)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Authenticate(ctx, key.Secret, ""); err != nil {
			t.Fatal(err)
		}
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		f.svc.Close() // waits for the write
		stored := db.Client().APIKey.Query().Where(apikey.ID(key.ID)).OnlyX(ctx)
		if stored.LastUsedAt == nil || !stored.LastUsedAt.Equal(*f.clock) {
			t.Errorf("last used at %v, want %v", stored.LastUsedAt, *f.clock)
		}
	})
}
