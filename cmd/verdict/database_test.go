package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
)

// eachDatabaseURL runs fn once per database, as subtests named "sqlite" and
// "postgres", each with the URL of a fresh database that has no tables: the
// commands under test take a URL.
func eachDatabaseURL(t *testing.T, fn func(t *testing.T, dbURL string)) {
	t.Helper()
	dbtest.EachURL(t, false, fn)
}

// openTestDatabase opens the database at dbURL for the test to inspect,
// closed when t ends, with the tests' minute per PostgreSQL read or write.
func openTestDatabase(t *testing.T, dbURL string) *database.DB {
	t.Helper()
	db, err := database.Open(context.Background(), dbURL, database.WithMaxOpenConns(2), database.WithIOTimeout(time.Minute))
	if err != nil {
		t.Fatalf("opening %s: %v", dbURL, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// eachMigratedDatabaseURL is eachDatabaseURL on databases migrated by
// `verdict migrate`.
func eachMigratedDatabaseURL(t *testing.T, fn func(t *testing.T, dbURL string)) {
	t.Helper()
	eachDatabaseURL(t, func(t *testing.T, dbURL string) {
		t.Helper()
		if code, _, stderr := runVerdict(t, "", "migrate", "--database-url", dbURL); code != 0 {
			t.Fatalf("verdict migrate: exit %d, %s", code, stderr)
		}
		fn(t, dbURL)
	})
}

// The commands that work on a database made before refuse a SQLite file
// that does not exist, a mistyped path most likely, and create nothing:
// an empty file would only have them ask for migrations.
func TestCommandsRefuseAMissingSQLiteFile(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	for _, args := range [][]string{
		{"admin", "org", "list"},
		{"admin", "org", "create", "--name", "Acme"},
		{"admin", "user", "create", "--email", "a@acme.test"},
		{"admin", "member", "add", "--org", "Acme", "--email", "a@acme.test", "--role", "viewer"},
		{"admin", "member", "list", "--org", "Acme"},
		{"admin", "member", "role", "--org", "Acme", "--email", "a@acme.test", "--role", "viewer"},
		{"admin", "member", "remove", "--org", "Acme", "--email", "a@acme.test"},
		{"admin", "key", "create", "--org", "Acme", "--scope", "view"},
		{"admin", "key", "list", "--org", "Acme"},
		{"admin", "key", "revoke", "--id", uuid.NewString()},
		{"admin", "seed", "--org", "Acme", "--policies", "1"},
		{"serve", "--addr", "127.0.0.1:0", "--no-migrate"},
	} {
		t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "tpyo.db")
			code, stdout, stderr := runVerdict(t, "", append(args, "--database-url", "sqlite://"+path)...)
			want := "verdict: sqlite://" + path + ": no database file at " + path + "; check the path (`verdict migrate` creates a new database)\n"
			if code != exitFailure || stdout != "" || stderr != want {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", args, code, stdout, stderr, exitFailure, want)
			}
			wantEmptyDir(t, dir)
		})
	}
	t.Run("the default database is named by its full path", func(t *testing.T) {
		dir := t.TempDir()
		t.Chdir(dir)
		t.Setenv(envDatabaseURL, "")
		code, _, stderr := runVerdict(t, "", "admin", "org", "list")
		want := "verdict: sqlite://verdict.db: no database file at " + filepath.Join(dir, "verdict.db") + "; check the path (`verdict migrate` creates a new database)\n"
		if code != exitFailure || stderr != want {
			t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, exitFailure, want)
		}
		wantEmptyDir(t, dir)
	})
}

func wantEmptyDir(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("%s was created", e.Name())
	}
}

// A URL that names no database Verdict can open is bad usage, whichever
// command is given it.
func TestCommandsRefuseAURLThatNamesNoDatabaseAsBadUsage(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	for _, tt := range []struct{ url, shown, why string }{
		{"mysql://x", "mysql://x", "database: URL must start with sqlite:// or postgres://"},
		{"sqlite://", "sqlite://", "database: sqlite:// needs a path, as in sqlite://verdict.db"},
		// Not shown, as a password in it could not be hidden.
		{"postgres://db.internal:port/verdict", "(unparsable URL)", `database: parsing the postgres URL: invalid port (a password in it must escape #, / and ? as %23, %2F and %3F)`},
	} {
		for _, args := range [][]string{
			{"migrate"},
			{"admin", "org", "list"},
			{"admin", "bootstrap", "--org", "Acme", "--email", "a@acme.test"},
			{"serve", "--addr", "127.0.0.1:0"},
			{"serve", "--addr", "127.0.0.1:0", "--no-migrate"},
		} {
			t.Run(strings.Join(args, " ")+" "+tt.url, func(t *testing.T) {
				t.Chdir(t.TempDir())
				code, stdout, stderr := runVerdict(t, "", append(args, "--database-url", tt.url)...)
				want := "verdict: " + tt.shown + ": " + tt.why + "\n"
				if code != exitUsage || stdout != "" || stderr != want {
					t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, stdout, stderr, exitUsage, want)
				}
			})
		}
	}
}

// The commands that refuse a database that is not migrated check it
// without making goose's table of the migrations applied.
func TestCommandsThatRefuseAnEmptyDatabaseLeaveItEmpty(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	eachDatabaseURL(t, func(t *testing.T, dbURL string) {
		// Opened, the SQLite file exists: an empty database.
		db := openTestDatabase(t, dbURL)
		for _, args := range [][]string{
			{"admin", "org", "list"},
			{"serve", "--addr", "127.0.0.1:0", "--no-migrate"},
		} {
			code, _, stderr := runVerdict(t, "", append(args, "--database-url", dbURL)...)
			if code != exitFailure || !strings.Contains(stderr, "pending migrations: run `verdict migrate` first") {
				t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
			}
		}
		q := `SELECT count(*) FROM sqlite_master`
		if db.Dialect() == dialect.Postgres {
			q = `SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()`
		}
		var tables int
		if err := db.SQL().QueryRowContext(context.Background(), q).Scan(&tables); err != nil {
			t.Fatal(err)
		}
		if tables != 0 {
			t.Errorf("the refused commands made %d tables", tables)
		}
	})
}
