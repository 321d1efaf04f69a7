package main

import (
	"context"
	"testing"

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
// closed when t ends.
func openTestDatabase(t *testing.T, dbURL string) *database.DB {
	t.Helper()
	db, err := database.Open(context.Background(), dbURL, database.WithMaxOpenConns(2))
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
