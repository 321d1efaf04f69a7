package database

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"

	"entgo.io/ent/dialect"
	"github.com/gofrs/flock"
	"github.com/pressly/goose/v3"
)

// The migration files are generated from the ent schema by
// `go run ./database/internal/migrationgen`, one directory per dialect.
//
//go:embed migrations/sqlite/*.sql migrations/postgres/*.sql
var migrations embed.FS

// MigrationsDir is where the migration files of a dialect live, relative to
// this package and within the embedded files.
func MigrationsDir(dialectName string) string {
	if dialectName == dialect.Postgres {
		return "migrations/postgres"
	}
	return "migrations/sqlite"
}

// Migrated is what ApplyMigrations did: the files it applied, oldest first, as
// paths within Migrations, and the version the database is at now.
type Migrated struct {
	Applied []string
	Version int64
}

// Migrate applies every migration the database has not seen yet; on an
// up-to-date database it changes nothing. It holds a lock meanwhile (an
// advisory lock on PostgreSQL, a file lock beside a SQLite file), so
// instances starting together migrate one at a time, each waiting for the
// one before however long it takes.
func Migrate(ctx context.Context, db *DB, opts ...MigrateOption) (*Migrated, error) {
	pool := db.sql
	if db.file != nil {
		pool = sqliteOpen(db.file.migratingName)
		defer pool.Close()
	}
	p, err := provider(db, pool, append(opts, func(o *migrateOptions) { o.interrupt = ctx })...)
	if err != nil {
		return nil, err
	}
	if _, err := versionsKnown(ctx, db, p); err != nil {
		return nil, err
	}
	// Each migration is one transaction, its version recorded in it: one
	// that fails or is cut off leaves the database as it was before it.
	// Once begun, it runs to its end whatever ends ctx, rather than have a
	// long copy undone; ctx still ends the wait for another instance's
	// migration (see the locks).
	results, err := p.Up(context.WithoutCancel(ctx))
	if err != nil {
		return nil, fmt.Errorf("database: migrating: %w", err)
	}
	m := &Migrated{}
	for _, r := range results {
		m.Applied = append(m.Applied, r.Source.Path)
	}
	// Read rather than taken from the last file applied: another replica
	// may have applied them all, or a newer release more.
	if m.Version, err = p.GetDBVersion(ctx); err != nil {
		return nil, fmt.Errorf("database: reading the schema version: %w", err)
	}
	db.migratedAt.Store(m.Version)
	return m, nil
}

// Pending reports whether some migration has not been applied yet: a database
// in that state is not ready to serve. Once it has none, a health check may
// call this every time: one query then tells that the database is still at
// the version it was seen at. A PostgreSQL database can be dropped and made
// again empty, or restored from an older backup, under a running server.
func Pending(ctx context.Context, db *DB) (bool, error) {
	if v := db.migratedAt.Load(); v != 0 {
		if at, err := newestApplied(ctx, db); err == nil && at == v {
			return false, nil
		}
		db.migratedAt.Store(0)
	}
	p, err := provider(db, db.sql)
	if err != nil {
		return false, err
	}
	// Goose makes its version table before it looks: a database that is
	// refused for being empty would be left with it.
	exists, err := versionsKnown(ctx, db, p)
	if err != nil {
		return false, err
	}
	if !exists {
		return true, nil
	}
	pending, err := p.HasPending(ctx)
	if err != nil {
		return false, fmt.Errorf("database: checking migrations: %w", err)
	}
	if !pending {
		v, err := newestApplied(ctx, db)
		if err != nil {
			return false, err
		}
		db.migratedAt.Store(v)
	}
	return pending, nil
}

// newestApplied is the newest version in goose's table of the migrations
// applied; an error when there is no such table.
func newestApplied(ctx context.Context, db *DB) (int64, error) {
	var v sql.NullInt64
	if err := db.sql.QueryRowContext(ctx, "SELECT MAX(version_id) FROM "+goose.DefaultTablename).Scan(&v); err != nil {
		return 0, fmt.Errorf("database: reading the schema version: %w", err)
	}
	return v.Int64, nil
}

// versionTableExists reports whether the database has goose's table of
// the migrations applied, where goose would make it: on PostgreSQL in the
// current schema.
func versionTableExists(ctx context.Context, db *DB) (bool, error) {
	q := `SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?)`
	if db.dialect == dialect.Postgres {
		q = `SELECT EXISTS (SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = $1)`
	}
	var exists bool
	if err := db.sql.QueryRowContext(ctx, q, goose.DefaultTablename).Scan(&exists); err != nil {
		return false, fmt.Errorf("database: checking migrations: %w", err)
	}
	return exists, nil
}

// UnknownMigrationsError is what Migrate and Pending return for a database
// that holds migrations this binary does not know: a newer release
// migrated it, and this one would misread its schema. Goose alone would
// find nothing pending and let it serve.
type UnknownMigrationsError struct {
	// Version is the newest migration the database holds; Known is the
	// newest this binary knows.
	Version, Known int64
}

func (e *UnknownMigrationsError) Error() string {
	return fmt.Sprintf("database: the database is at version %d and holds migrations this binary does not know (its newest is %d): "+
		"a newer release of Verdict migrated it; run that release", e.Version, e.Known)
}

// versionsKnown reports whether the database has a version table, and
// refuses one that holds a migration p does not know (requireKnown).
func versionsKnown(ctx context.Context, db *DB, p *goose.Provider) (bool, error) {
	exists, err := versionTableExists(ctx, db)
	if err != nil || !exists {
		return false, err
	}
	return true, requireKnown(ctx, db, p)
}

// requireKnown refuses, with an *UnknownMigrationsError, a database whose
// version table holds a migration p does not know.
func requireKnown(ctx context.Context, db *DB, p *goose.Provider) error {
	// 0 is the row goose starts its table with.
	known := map[int64]bool{0: true}
	var newest int64
	for _, src := range p.ListSources() {
		known[src.Version] = true
		newest = max(newest, src.Version)
	}
	rows, err := db.sql.QueryContext(ctx, "SELECT version_id FROM "+goose.DefaultTablename)
	if err != nil {
		return fmt.Errorf("database: checking migrations: %w", err)
	}
	defer rows.Close()
	var version int64
	unknown := false
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			return fmt.Errorf("database: checking migrations: %w", err)
		}
		version = max(version, v)
		unknown = unknown || !known[v]
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("database: checking migrations: %w", err)
	}
	if unknown {
		return &UnknownMigrationsError{Version: version, Known: newest}
	}
	return nil
}

// Migrations are the migration files of a dialect, as Migrate applies them.
func Migrations(dialectName string) fs.FS {
	files, err := fs.Sub(migrations, MigrationsDir(dialectName))
	if err != nil {
		// fs.Sub fails only on an invalid path, and MigrationsDir returns constants.
		panic(err)
	}
	return files
}

// MigrateOption changes how Migrate goes about it.
type MigrateOption func(*migrateOptions)

type migrateOptions struct {
	waiting func()
	// interrupt ends the wait for another instance's migration; the
	// migrations themselves are not interrupted.
	interrupt context.Context
}

// WhileWaiting has Migrate call told once when it has to wait for another
// instance (or, on SQLite, another process) that is migrating the same
// database, before it waits.
func WhileWaiting(told func()) MigrateOption {
	return func(o *migrateOptions) { o.waiting = told }
}

// provider is goose's, migrating db through pool.
func provider(db *DB, pool *sql.DB, opts ...MigrateOption) (*goose.Provider, error) {
	o := migrateOptions{waiting: func() {}, interrupt: context.Background()}
	for _, opt := range opts {
		opt(&o)
	}
	files := Migrations(db.dialect)
	gooseDialect := goose.DialectSQLite3
	var gooseOpts []goose.ProviderOption
	switch {
	case db.dialect == dialect.Postgres:
		gooseDialect = goose.DialectPostgres
		gooseOpts = append(gooseOpts, goose.WithSessionLocker(postgresMigrationLock(o)))
	case db.file != nil:
		gooseOpts = append(gooseOpts, goose.WithLocker(sqliteMigrationLock{
			file: flock.New(db.file.path + ".migrate-lock"), waiting: o.waiting, interrupt: o.interrupt}))
	}
	p, err := goose.NewProvider(gooseDialect, pool, files, gooseOpts...)
	if err != nil {
		return nil, fmt.Errorf("database: loading migrations: %w", err)
	}
	return p, nil
}
