package database_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"entgo.io/ent/dialect"

	"github.com/verdict/verdict/database"
)

func TestOpenRefuses(t *testing.T) {
	tests := []struct {
		name, url, want string
	}{
		{"a URL of another database is refused", "mysql://localhost/verdict", "must start with"},
		{"a bare path is refused", "verdict.db", "must start with"},
		{"sqlite without a path is refused", "sqlite://", "needs a path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, err := database.Open(context.Background(), tt.url)
			if err == nil {
				db.Close()
				t.Fatal("Open succeeded")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Open error %q does not say %q", err, tt.want)
			}
		})
	}
}

func TestOpenSQLite(t *testing.T) {
	tests := []struct {
		name string
		path string // after sqlite://
		file bool   // whether path names a file that must exist afterwards
	}{
		{"a file database opens, migrates and enforces foreign keys", filepath.Join(t.TempDir(), "v.db"), true},
		{"a file whose name looks like a URI query opens under that name", filepath.Join(t.TempDir(), "v?mode=ro#%41.db"), true},
		{"an in-memory database opens, migrates and enforces foreign keys", ":memory:", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db, err := database.Open(ctx, "sqlite://"+tt.path)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer db.Close()
			if db.Dialect() != dialect.SQLite {
				t.Fatalf("Dialect = %q, want %q", db.Dialect(), dialect.SQLite)
			}
			if _, err := database.Migrate(ctx, db); err != nil {
				t.Fatalf("Migrate: %v", err)
			}
			wantPending(t, db, false)
			err = db.Client().Group.Create().SetOrganizationID(unknownID).SetName("Orphan").Exec(ctx)
			if err == nil {
				t.Fatal("a group of a missing organization was stored: foreign keys are off")
			}
			if _, err := os.Stat(tt.path); tt.file && err != nil {
				t.Fatalf("the database file is not where the URL says: %v", err)
			}
		})
	}
}

func TestOpenSQLiteMustExist(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.db")
	db, err := database.Open(ctx, "sqlite://"+missing, database.MustExist())
	var nf *database.NoFileError
	if !errors.As(err, &nf) || nf.Path != missing ||
		err.Error() != "database: no SQLite database at "+missing+": the file does not exist" {
		if err == nil {
			db.Close()
		}
		t.Fatalf("Open of a missing file = %v, want a NoFileError naming %s", err, missing)
	}
	wantNoFiles(t, dir)

	path := filepath.Join(dir, "v.db")
	made, err := database.Open(ctx, "sqlite://"+path)
	if err != nil {
		t.Fatal(err)
	}
	made.Close()
	db, err = database.Open(ctx, "sqlite://"+path, database.MustExist())
	if err != nil {
		t.Fatalf("Open of an existing file: %v", err)
	}
	defer db.Close()
	wantPending(t, db, true)

	// The pool opens its next connection after the file is gone: that
	// connection fails rather than make an empty database.
	held, err := db.SQL().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	for _, name := range []string{"v.db", "v.db-wal", "v.db-shm"} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
	}
	if c, err := db.SQL().Conn(ctx); err == nil {
		c.Close()
		t.Error("a new connection opened a removed file")
	}
	wantNoFiles(t, dir)
}

func wantNoFiles(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("%s was created", e.Name())
	}
}
