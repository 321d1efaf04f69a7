package database_test

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"testing"

	"entgo.io/ent/dialect"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/database/internal/schemadiff"
	"github.com/verdict/verdict/internal/dbtest"
)

func TestMigrate(t *testing.T) {
	t.Run("an empty database has pending migrations, and is left empty", func(t *testing.T) {
		dbtest.EachEmpty(t, func(t *testing.T, db *database.DB) {
			wantPending(t, db, true)
			if tables := tablesOf(t, db); len(tables) != 0 {
				t.Errorf("checking made the tables %v", tables)
			}
		})
	})
	t.Run("a migrated database has none", func(t *testing.T) {
		dbtest.EachEmpty(t, func(t *testing.T, db *database.DB) {
			if _, err := database.Migrate(context.Background(), db); err != nil {
				t.Fatalf("Migrate: %v", err)
			}
			wantPending(t, db, false)
		})
	})
	t.Run("a database made empty again, or set back, under a server has pending migrations", func(t *testing.T) {
		dbtest.EachEmpty(t, func(t *testing.T, db *database.DB) {
			ctx := context.Background()
			if _, err := database.Migrate(ctx, db); err != nil {
				t.Fatalf("Migrate: %v", err)
			}
			wantPending(t, db, false)
			// As a restore of a backup taken before the newest migration.
			var newest int64
			if err := db.SQL().QueryRowContext(ctx, "DELETE FROM goose_db_version WHERE version_id = (SELECT MAX(version_id) FROM goose_db_version) RETURNING version_id").Scan(&newest); err != nil {
				t.Fatal(err)
			}
			wantPending(t, db, true)
			if _, err := db.SQL().ExecContext(ctx, "INSERT INTO goose_db_version (version_id, is_applied) VALUES ($1, TRUE)", newest); err != nil {
				t.Fatal(err)
			}
			wantPending(t, db, false)
			// As a database dropped and made again, empty: no table of the
			// migrations applied.
			if _, err := db.SQL().ExecContext(ctx, "DROP TABLE goose_db_version"); err != nil {
				t.Fatal(err)
			}
			wantPending(t, db, true)
		})
	})
	t.Run("migrating again changes nothing and keeps the data", func(t *testing.T) {
		dbtest.Each(t, func(t *testing.T, db *database.DB) {
			ctx := context.Background()
			f := newFixture(ctx, t, db)
			if _, err := database.Migrate(ctx, db); err != nil {
				t.Fatalf("second Migrate: %v", err)
			}
			wantPending(t, db, false)
			if _, err := db.Client().Base.Get(ctx, f.base.ID); err != nil {
				t.Fatalf("the base is gone after migrating again: %v", err)
			}
		})
	})
	t.Run("migrating tells what it applied and the version it reached", func(t *testing.T) {
		dbtest.EachEmpty(t, func(t *testing.T, db *database.DB) {
			ctx := context.Background()
			files, err := fs.Glob(database.Migrations(db.Dialect()), "*.sql")
			if err != nil || len(files) == 0 {
				t.Fatalf("migration files %v, %v", files, err)
			}
			last, err := strconv.ParseInt(strings.SplitN(files[len(files)-1], "_", 2)[0], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			m, err := database.Migrate(ctx, db)
			if err != nil {
				t.Fatalf("Migrate: %v", err)
			}
			if !slices.Equal(m.Applied, files) || m.Version != last {
				t.Errorf("applied %v up to version %d, want %v up to %d", m.Applied, m.Version, files, last)
			}
			if m, err = database.Migrate(ctx, db); err != nil || len(m.Applied) != 0 || m.Version != last {
				t.Errorf("migrating again: %+v, %v; want nothing applied at version %d", m, err, last)
			}
		})
	})
	t.Run("a database a newer release migrated is refused", func(t *testing.T) {
		dbtest.EachURL(t, true, func(t *testing.T, url string) {
			ctx := context.Background()
			db, err := database.Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			known, err := database.Migrate(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			const newer = 29991231235959
			if _, err := db.SQL().ExecContext(ctx, "INSERT INTO goose_db_version (version_id, is_applied) VALUES ($1, TRUE)", newer); err != nil {
				t.Fatal(err)
			}
			// A database seen migrated is not asked again: open it afresh.
			again, err := database.Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer again.Close()
			want := database.UnknownMigrationsError{Version: newer, Known: known.Version}
			var got *database.UnknownMigrationsError
			if _, err := database.Pending(ctx, again); !errors.As(err, &got) || *got != want {
				t.Errorf("Pending: %v, want %v", err, &want)
			}
			got = nil
			if m, err := database.Migrate(ctx, again); !errors.As(err, &got) || *got != want {
				t.Errorf("Migrate: %+v, %v; want %v", m, err, &want)
			}
		})
	})
	// Fails when ent/schema changed without a new migration: run
	// `go run ./database/internal/migrationgen -name what_changed`.
	t.Run("the migrations produce exactly the ent schema", func(t *testing.T) {
		dbtest.Each(t, func(t *testing.T, db *database.DB) {
			dev := dbtest.Empty(t, db.Dialect())
			m, err := schemadiff.Next(context.Background(), db, dev, "drift")
			if err != nil {
				t.Fatalf("diffing: %v", err)
			}
			if m != nil {
				t.Fatalf("the ent schema differs from the migrated database; a new migration would be:\n%s", m.SQL)
			}
		})
	})
}

func wantPending(t *testing.T, db *database.DB, want bool) {
	t.Helper()
	got, err := database.Pending(context.Background(), db)
	if err != nil {
		t.Fatalf("Pending: %v", err)
	}
	if got != want {
		t.Fatalf("Pending = %v, want %v", got, want)
	}
}

// tablesOf lists the tables of the database, on PostgreSQL those of its
// current schema, where the migrations make theirs.
func tablesOf(t *testing.T, db *database.DB) []string {
	t.Helper()
	q := `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`
	if db.Dialect() == dialect.Postgres {
		q = `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`
	}
	rows, err := db.SQL().QueryContext(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return tables
}
