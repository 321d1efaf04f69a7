package main

import (
	"context"
	"database/sql"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
)

// eachDatabaseURL runs fn once per database, as subtests named "sqlite" and
// "postgres", each with the URL of a fresh database that has no tables. The
// commands under test take a URL, which internal/dbtest does not hand out,
// so the PostgreSQL databases are made here, through the same admin URL and
// with the same name prefix as dbtest's.
func eachDatabaseURL(t *testing.T, fn func(t *testing.T, dbURL string)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, "sqlite://"+t.TempDir()+"/verdict.db") })
	t.Run("postgres", func(t *testing.T) { fn(t, postgresURL(t)) })
}

var (
	pgAdminOnce sync.Once
	pgAdmin     *sql.DB
	pgAdminURL  *url.URL
	pgAdminErr  error
)

// postgresURL creates an empty PostgreSQL database, dropped when t ends,
// and returns its URL.
func postgresURL(t *testing.T) string {
	t.Helper()
	raw := os.Getenv(dbtest.EnvPostgresURL)
	if raw == "" {
		msg := dbtest.EnvPostgresURL + " is not set; source .ci/postgres to run the PostgreSQL tests"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	pgAdminOnce.Do(func() {
		if pgAdminURL, pgAdminErr = url.Parse(raw); pgAdminErr != nil {
			return
		}
		// The lib/pq driver is registered by package database.
		pgAdmin, pgAdminErr = sql.Open("postgres", raw)
	})
	if pgAdminErr != nil {
		t.Fatalf("%s: %v", dbtest.EnvPostgresURL, pgAdminErr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	name := "verdict_test_" + strings.ReplaceAll(uuid.NewString(), "-", "")
	if _, err := pgAdmin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("creating postgres test database: %v", err)
	}
	t.Cleanup(func() {
		if _, err := pgAdmin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("dropping postgres test database %s: %v", name, err)
		}
	})
	u := *pgAdminURL
	u.Path = "/" + name
	return u.String()
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
