// Package dbtest runs a test body against both databases Verdict supports,
// each time on a fresh database of its own. Import it from _test.go files only.
//
// PostgreSQL is reached through the admin URL in VERDICT_TEST_POSTGRES_URL
// (source .ci/postgres to start the local cluster and set it). Without it the
// PostgreSQL half is skipped, or fails when CI is set.
package dbtest

import (
	"context"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/verdict/verdict/database"
)

// EnvPostgresURL names the environment variable holding the PostgreSQL admin URL.
const EnvPostgresURL = "VERDICT_TEST_POSTGRES_URL"

// setupTimeout bounds creating, migrating and dropping one test database.
const setupTimeout = time.Minute

// testIOTimeout bounds one read or write of a test's PostgreSQL connection.
const testIOTimeout = 30 * time.Second

// Each runs fn once per database, as subtests named "sqlite" and "postgres",
// each on a fresh, fully migrated database that is removed when fn returns.
func Each(t *testing.T, fn func(t *testing.T, db *database.DB)) {
	t.Helper()
	each(t, true, fn)
}

// EachEmpty is Each on databases that have not been migrated: no tables at all.
func EachEmpty(t *testing.T, fn func(t *testing.T, db *database.DB)) {
	t.Helper()
	each(t, false, fn)
}

// Empty returns a fresh database of the given dialect with no tables, removed
// when t ends. It skips or fails t like Each when PostgreSQL is not configured.
func Empty(t testing.TB, dialectName string) *database.DB {
	t.Helper()
	return open(t, dialectName, false)
}

// dialects are the databases Each runs on, in order.
var dialects = []struct{ name, dialect string }{
	{"sqlite", dialect.SQLite},
	{"postgres", dialect.Postgres},
}

// EachB is Each for benchmarks: one sub-benchmark per database.
func EachB(b *testing.B, fn func(b *testing.B, db *database.DB)) {
	b.Helper()
	for _, d := range dialects {
		b.Run(d.name, func(b *testing.B) {
			fn(b, open(b, d.dialect, true))
		})
	}
}

func each(t *testing.T, migrated bool, fn func(t *testing.T, db *database.DB)) {
	t.Helper()
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			fn(t, open(t, d.dialect, migrated))
		})
	}
}

// EachURL is Each for code that takes a database URL rather than an open
// database (the commands): fn gets the URL of a fresh database, migrated
// or empty as asked.
func EachURL(t *testing.T, migrated bool, fn func(t *testing.T, url string)) {
	t.Helper()
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			fn(t, URL(t, d.dialect, migrated))
		})
	}
}

// URL creates a fresh database of the dialect, migrated or empty, removed
// when t ends, and returns its URL. It skips or fails t like Each when
// PostgreSQL is not configured.
func URL(t testing.TB, dialectName string, migrated bool) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	if dialectName == dialect.Postgres {
		return postgresURL(ctx, t, migrated)
	}
	url := "sqlite://" + t.TempDir() + "/verdict.db"
	if migrated {
		db := openURL(ctx, t, url)
		if _, err := database.Migrate(ctx, db); err != nil {
			t.Fatalf("migrating sqlite: %v", err)
		}
		db.Close()
	}
	return url
}

func open(t testing.TB, dialectName string, migrated bool) *database.DB {
	t.Helper()
	url := URL(t, dialectName, migrated)
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	// A loaded test machine can stall a connection for seconds; tests of
	// the production deadline open their databases themselves.
	db := openURL(ctx, t, url, database.WithMaxOpenConns(testConns), database.WithIOTimeout(testIOTimeout))
	t.Cleanup(func() { db.Close() })
	return db
}

func openURL(ctx context.Context, t testing.TB, url string, opts ...database.Option) *database.DB {
	t.Helper()
	db, err := database.Open(ctx, url, opts...)
	if err != nil {
		t.Fatalf("opening %s: %v", url, err)
	}
	return db
}
