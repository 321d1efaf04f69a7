// Package database opens Verdict's store, an embedded SQLite file or a
// PostgreSQL server, and keeps its schema current with versioned migrations.
package database

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/verdict/verdict/ent"
	// The schema has hooks (audit events are append-only), so ent puts the
	// defaults, validators and hooks in a package of their own; every client
	// is made here, and this makes them part of it.
	_ "github.com/verdict/verdict/ent/runtime"
)

// DefaultURL is the embedded database in the working directory, so the service
// runs on a fresh machine with nothing else installed.
const DefaultURL = "sqlite://verdict.db"

// DB is an open store: the ent client over a connection pool.
type DB struct {
	client  *ent.Client
	sql     *sql.DB
	dialect string
	// postgresDSN is the URL the pool connects with, for connections of
	// their own (see NewListener); empty for SQLite.
	postgresDSN string
	// migratedAt is the version the database was last seen at with every
	// migration applied, 0 until it is.
	migratedAt atomic.Int64
	// file is the SQLite file the database was opened on; nil for
	// PostgreSQL and in memory.
	file *openedFile
}

// Client is the ent client every query goes through.
func (db *DB) Client() *ent.Client { return db.client }

// SQL is the pool under the client, for migrations and health checks.
func (db *DB) SQL() *sql.DB { return db.sql }

// Dialect is ent's name for the database: dialect.SQLite or dialect.Postgres.
func (db *DB) Dialect() string { return db.dialect }

// Close closes the client and its pool.
func (db *DB) Close() error {
	return db.client.Close()
}

// Option changes how Open sets up the pool.
type Option func(*options)

type options struct {
	maxOpenConns int
	ioTimeout    *time.Duration
	mustExist    bool
}

func (o options) ioTimeoutOr(def time.Duration) time.Duration {
	if o.ioTimeout != nil {
		return *o.ioTimeout
	}
	return def
}

func (o options) maxOpenConnsOr(def int) int {
	if o.maxOpenConns > 0 {
		return o.maxOpenConns
	}
	return def
}

// WithMaxOpenConns caps the pool's open connections. It has no effect on an
// in-memory SQLite database, which lives on exactly one connection.
func WithMaxOpenConns(n int) Option {
	return func(o *options) { o.maxOpenConns = n }
}

// WithIOTimeout bounds every read and every write on a PostgreSQL
// connection, and so how long one statement may run; 0 lifts the bound.
// The default is DefaultIOTimeout. SQLite has no connection to bound.
func WithIOTimeout(d time.Duration) Option {
	return func(o *options) { o.ioTimeout = &d }
}

// MustExist makes Open refuse a SQLite file that does not exist, with a
// *NoFileError, instead of creating an empty database there: for callers
// that only work on a database made before, to which a new empty file is
// of no use. Nothing is created, not even later, should the file go away
// while the database is open. It has no effect on PostgreSQL or on an
// in-memory database.
func MustExist() Option {
	return func(o *options) { o.mustExist = true }
}

// Open connects to the database named by url, sqlite://PATH (sqlite://:memory:
// for a private in-memory database) or postgres://... (postgresql://...), and
// checks that it answers. It does not migrate: see Migrate.
func Open(ctx context.Context, url string, opts ...Option) (*DB, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	var (
		db  *DB
		err error
	)
	switch {
	case strings.HasPrefix(url, "sqlite://"):
		db, err = openSQLite(strings.TrimPrefix(url, "sqlite://"), o)
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		db, err = openPostgres(url, o)
	default:
		return nil, &URLError{Reason: "URL must start with sqlite:// or postgres://"}
	}
	if err != nil {
		return nil, err
	}
	if err := db.sql.PingContext(ctx); err != nil {
		db.sql.Close()
		return nil, fmt.Errorf("database: connecting to %s: %w", db.dialect, err)
	}
	if db.file != nil {
		// The connection just made opened the file, or created it.
		if db.file.info, err = os.Stat(db.file.path); err != nil {
			db.sql.Close()
			return nil, fmt.Errorf("database: the SQLite file: %w", err)
		}
	}
	return db, nil
}

// URLError is Open's error for a URL that does not name a database it
// can open, such as one of another scheme: nothing was tried to reach.
type URLError struct {
	Reason string
}

func (e *URLError) Error() string { return "database: " + e.Reason }

func newDB(pool *sql.DB, dialect string) *DB {
	drv := entsql.OpenDB(dialect, pool)
	return &DB{client: ent.NewClient(ent.Driver(drv)), sql: pool, dialect: dialect}
}
