package dbtest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/verdict/verdict/database"
)

// Test databases are named with these prefixes, so a leftover from a crashed
// run is easy to recognise and drop.
const (
	testPrefix     = "verdict_test_"
	templatePrefix = "verdict_template_"
)

// templateLock serializes template creation between test processes (go test
// runs packages in parallel), as a PostgreSQL advisory lock key.
const templateLock = 0x76657264 // "verd"

// testConns caps each test database's pool, so packages testing in parallel
// stay well below the server's connection limit.
const testConns = 4

// server is the PostgreSQL cluster of this test process: an admin pool and
// the template that migrated test databases are copied from.
type server struct {
	admin    *url.URL
	pool     *sql.DB
	template string
}

var (
	serverOnce sync.Once
	theServer  *server
	serverErr  error
)

// postgresURL creates a fresh PostgreSQL database, migrated or empty,
// dropped when t ends, and returns its URL.
func postgresURL(ctx context.Context, t testing.TB, migrated bool) string {
	t.Helper()
	raw := os.Getenv(EnvPostgresURL)
	if raw == "" {
		msg := EnvPostgresURL + " is not set; source .ci/postgres to run the PostgreSQL tests"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	serverOnce.Do(func() { theServer, serverErr = connect(ctx, raw) })
	if serverErr != nil {
		t.Fatalf("preparing postgres: %v", serverErr)
	}
	s := theServer

	name := testPrefix + strings.ReplaceAll(uuid.NewString(), "-", "")
	create := "CREATE DATABASE " + name
	if migrated {
		create += " TEMPLATE " + s.template
	}
	if _, err := s.pool.ExecContext(ctx, create); err != nil {
		t.Fatalf("creating postgres test database: %v", err)
	}
	t.Cleanup(func() {
		if _, err := s.pool.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("dropping postgres test database %s: %v", name, err)
		}
	})
	return s.databaseURL(name)
}

// PostgresCtype opens a fresh, migrated PostgreSQL database whose
// LC_CTYPE and LC_COLLATE are locale, such as "C", which folds the case
// of ASCII letters alone; it is dropped when t ends.
func PostgresCtype(t testing.TB, locale string) *database.DB {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	empty := postgresURL(ctx, t, false)
	u, err := url.Parse(empty)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(u.Path, "/") + "_" + strings.ToLower(strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, locale))
	s := theServer
	if _, err := s.pool.ExecContext(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE template0 ENCODING 'UTF8' LC_CTYPE %s LC_COLLATE %s",
		name, pq.QuoteLiteral(locale), pq.QuoteLiteral(locale))); err != nil {
		t.Fatalf("creating a postgres database of LC_CTYPE %s: %v", locale, err)
	}
	t.Cleanup(func() {
		if _, err := s.pool.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("dropping postgres test database %s: %v", name, err)
		}
	})
	dbURL := s.databaseURL(name)
	if err := migrate(ctx, dbURL); err != nil {
		t.Fatalf("migrating %s: %v", name, err)
	}
	db := openURL(ctx, t, dbURL, database.WithMaxOpenConns(testConns), database.WithIOTimeout(testIOTimeout))
	t.Cleanup(func() { db.Close() })
	return db
}

func (s *server) databaseURL(name string) string {
	u := *s.admin
	u.Path = "/" + name
	return u.String()
}

func connect(ctx context.Context, raw string) (*server, error) {
	admin, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", EnvPostgresURL, err)
	}
	pool, err := sql.Open("postgres", raw)
	if err != nil {
		return nil, err
	}
	pool.SetMaxOpenConns(testConns)
	s := &server{admin: admin, pool: pool}
	if err := s.ensureTemplate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// ensureTemplate makes sure a migrated template database for the current
// migrations exists. Its name is the hash of the migration files, so it is
// built once and shared by every test process until the migrations change.
// Templates of other migrations are dropped then, all but the newest few:
// two checkouts whose migrations differ may be tested at the same time.
func (s *server) ensureTemplate(ctx context.Context) error {
	sum, err := migrationsHash()
	if err != nil {
		return err
	}
	s.template = templatePrefix + sum

	conn, err := s.pool.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", templateLock); err != nil {
		return err
	}
	defer conn.ExecContext(context.Background(), "SELECT pg_advisory_unlock($1)", templateLock)

	var exists bool
	err = conn.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", s.template).Scan(&exists)
	if err != nil || exists {
		return err
	}
	if err := s.dropStaleTemplates(ctx, conn); err != nil {
		return err
	}
	// Built under another name and renamed when complete, so a run killed
	// halfway never leaves a template that looks ready.
	building := s.template + "_building"
	if _, err := conn.ExecContext(ctx, "DROP DATABASE IF EXISTS "+building+" WITH (FORCE)"); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+building); err != nil {
		return err
	}
	if err := migrate(ctx, s.databaseURL(building)); err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, "ALTER DATABASE "+building+" RENAME TO "+s.template)
	return err
}

// keptTemplates is how many templates of other migrations outlive a new
// one. A database's oid grows with its creation, so the newest are kept.
const keptTemplates = 3

func (s *server) dropStaleTemplates(ctx context.Context, conn *sql.Conn) error {
	rows, err := conn.QueryContext(ctx, "SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY oid DESC OFFSET $2",
		templatePrefix, keptTemplates)
	if err != nil {
		return err
	}
	var stale []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return err
		}
		stale = append(stale, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, name := range stale {
		if _, err := conn.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			return err
		}
	}
	return nil
}

func migrate(ctx context.Context, dbURL string) error {
	db, err := database.Open(ctx, dbURL, database.WithMaxOpenConns(1), database.WithIOTimeout(testIOTimeout))
	if err != nil {
		return err
	}
	// Closed before the template is used: PostgreSQL copies only databases
	// nobody is connected to.
	defer db.Close()
	_, err = database.Migrate(ctx, db)
	return err
}

// migrationsHash identifies the PostgreSQL migrations by content.
func migrationsHash() (string, error) {
	files := database.Migrations(dialect.Postgres)
	h := sha256.New()
	err := fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(files, path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", path, len(b))
		h.Write(b)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:16], err
}
