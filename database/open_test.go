package database_test

import (
	"context"
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
