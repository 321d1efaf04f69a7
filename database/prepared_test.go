package database_test

import (
	"context"
	"testing"

	"entgo.io/ent/dialect"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
)

func TestAStatementIsPreparedOnceAndRunsOnEveryConnection(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		query := "SELECT ? + 1"
		if db.Dialect() == dialect.Postgres {
			query = "SELECT $1::int + 1"
		}
		first, err := db.Prepared(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		again, err := db.Prepared(ctx, query)
		if err != nil || again != first {
			t.Fatalf("preparing the same text again: %p, %v; want the first statement %p", again, err, first)
		}
		// Inside a transaction, whichever connection it has.
		tx, err := db.SQL().BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		var n int
		if err := tx.StmtContext(ctx, first).QueryRowContext(ctx, 41).Scan(&n); err != nil || n != 42 {
			t.Fatalf("the prepared statement answered %d, %v; want 42", n, err)
		}
	})
}
