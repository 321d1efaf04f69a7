package database_test

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
)

func TestOpenRefuses(t *testing.T) {
	missingDir := filepath.Join(t.TempDir(), "no-such-dir")
	tests := []struct {
		name, url, want string
	}{
		{"a URL of another database is refused", "mysql://localhost/verdict", "must start with"},
		{"a bare path is refused", "verdict.db", "must start with"},
		{"sqlite without a path is refused", "sqlite://", "needs a path"},
		{"sqlite with parameters is refused", "sqlite://" + filepath.Join(t.TempDir(), "v.db") + "?_pragma=x",
			"sqlite:// takes a file path and no parameters"},
		{"sqlite in a directory that does not exist is refused", "sqlite://" + filepath.Join(missingDir, "v.db"),
			"there is no directory " + missingDir + " for the SQLite file; create it first"},
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
		{"a file whose name holds what a URI escapes opens under that name", filepath.Join(t.TempDir(), "v#mode=ro%41.db"), true},
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

// TestOpenPostgresURLsWithoutAHost opens the forms of URL libpq documents
// for a server named in the query rather than the authority, the socket
// directory of a local server among them, and checks that the settings
// Open adds reach the session.
func TestOpenPostgresURLsWithoutAHost(t *testing.T) {
	admin, err := url.Parse(dbtest.URL(t, dialect.Postgres, true))
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(admin.Path, "/")
	params := func(more ...string) string {
		q := admin.Query()
		q.Set("user", admin.User.Username())
		for i := 0; i < len(more); i += 2 {
			q.Set(more[i], more[i+1])
		}
		return q.Encode()
	}
	host, port := admin.Hostname(), admin.Port()
	socketDir := unixSocketTo(t, admin.Host, port)
	for _, tt := range []struct{ name, url string }{
		{"the server and the database in the query", "postgres://?" + params("host", host, "port", port, "dbname", name)},
		{"postgresql:// with the server and the database in the query", "postgresql://?" + params("host", host, "port", port, "dbname", name)},
		{"the server in the query, the database as the path", "postgres:///" + name + "?" + params("host", host, "port", port)},
		{"a socket directory in the query, the database as the path", "postgres:///" + name + "?" + params("host", socketDir, "port", port)},
		{"a socket directory and the database in the query", "postgres://?" + params("host", socketDir, "port", port, "dbname", name)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db, err := database.Open(ctx, tt.url)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer db.Close()
			wantPending(t, db, false)
			var zone, dbName string
			if err := db.SQL().QueryRowContext(ctx, "SELECT current_setting('TimeZone'), current_database()").Scan(&zone, &dbName); err != nil {
				t.Fatal(err)
			}
			if zone != "UTC" || dbName != name {
				t.Errorf("the session is in time zone %q on database %q, want UTC on %q", zone, dbName, name)
			}
			l, err := db.NewListener("verdict-test", time.Second, time.Second, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			if err := l.Listen("verdict_test"); err != nil {
				t.Errorf("the listener's connection: %v", err)
			}
		})
	}
}

// unixSocketTo makes a directory holding the Unix socket a PostgreSQL
// server on port would listen on, and relays its connections to addr over
// TCP; it returns the directory.
func unixSocketTo(t *testing.T, addr, port string) string {
	t.Helper()
	// Unix socket paths are short: t.TempDir's may be too long.
	dir, err := os.MkdirTemp("", "pg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	ln, err := net.Listen("unix", filepath.Join(dir, ".s.PGSQL."+port))
	if err != nil {
		t.Fatal(err)
	}
	var relays sync.WaitGroup
	t.Cleanup(func() {
		ln.Close()
		relays.Wait()
	})
	relays.Go(func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", addr)
			if err != nil {
				client.Close()
				continue
			}
			relay := func(dst, src net.Conn) {
				io.Copy(dst, src)
				dst.Close()
				src.Close()
			}
			relays.Go(func() { relay(client, server) })
			relays.Go(func() { relay(server, client) })
		}
	})
	return dir
}

// A PostgreSQL URL that does not parse is refused without any piece of
// it: a password holding an unescaped ?, / or # is cut by the parser,
// and the start of it was quoted as a port.
func TestAnUnparsablePostgresURLIsNotQuoted(t *testing.T) {
	for _, raw := range []string{
		"postgres://verdict:S3cr3tPart?rest@db.internal/verdict",
		"postgres://verdict:S3cr3tPart/rest@db.internal/verdict",
		"postgres://verdict:S3cr3tPart#rest@db.internal/verdict",
	} {
		_, err := database.Open(context.Background(), raw)
		var urlErr *database.URLError
		if !errors.As(err, &urlErr) || strings.Contains(err.Error(), "S3cr3t") {
			t.Errorf("%s: %v; want a URLError that quotes none of it", raw, err)
		}
	}
}

// A PostgreSQL URL that lib/pq cannot read, though it parses as a URL, is
// refused as such, before any connection.
func TestAPostgresURLWithAValueOutOfPlaceIsAURLError(t *testing.T) {
	for raw, want := range map[string]string{
		"postgres://verdict:pw@127.0.0.1:99999/verdict":   `database: the postgres URL: pq: wrong value for "port"`,
		"postgres://127.0.0.1/verdict?sslmode=sometimes":  `database: the postgres URL: pq: wrong value for "sslmode"`,
		"postgres://127.0.0.1/verdict?connect_timeout=ok": `database: the postgres URL: pq: wrong value for "connect_timeout"`,
	} {
		_, err := database.Open(context.Background(), raw)
		var urlErr *database.URLError
		if !errors.As(err, &urlErr) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v; want a URLError, %s", raw, err, want)
		}
	}
}

// A statement that waits for a lock gives up when the read waiting for
// its answer does: the server does not keep it waiting, holding a
// connection, after the request it served has failed.
func TestAPostgresStatementWaitsForALockNoLongerThanAReadMay(t *testing.T) {
	raw := dbtest.URL(t, dialect.Postgres, true)
	ctx := t.Context()
	open := func(timeout time.Duration, query ...string) *database.DB {
		t.Helper()
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		for i := 0; i < len(query); i += 2 {
			q.Set(query[i], query[i+1])
		}
		u.RawQuery = q.Encode()
		db, err := database.Open(ctx, u.String(), database.WithIOTimeout(timeout))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	show := func(db *database.DB) string {
		t.Helper()
		var v string
		if err := db.SQL().QueryRowContext(ctx, "SHOW lock_timeout").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	db := open(300*time.Millisecond, "application_name", "lock-timeout-test")
	if v := show(db); v != "300ms" {
		t.Errorf("lock_timeout = %s, want 300ms", v)
	}
	if v := show(open(300*time.Millisecond, "lock_timeout", "7s")); v != "7s" {
		t.Errorf("with lock_timeout in the URL, lock_timeout = %s, want 7s", v)
	}
	holder := open(0)
	if v := show(holder); v != "0" {
		t.Errorf("with no bound on reads, lock_timeout = %s, want 0", v)
	}

	tx, err := holder.SQL().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "LOCK TABLE organizations IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().ExecContext(ctx, "SELECT count(*) FROM organizations"); err == nil {
		t.Fatal("a read of a locked table succeeded")
	}
	// Without the bound, the statement waits for as long as the lock is
	// held, here until the test ends.
	for waited := time.Duration(0); ; waited += 50 * time.Millisecond {
		var waiting int
		if err := holder.SQL().QueryRowContext(ctx, "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'lock-timeout-test' AND wait_event_type = 'Lock'").
			Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting == 0 {
			break
		}
		if waited > 30*time.Second {
			t.Fatalf("%d statements still wait for the lock", waiting)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
