package database

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"entgo.io/ent/dialect"
	"modernc.org/sqlite"

	"github.com/verdict/verdict/database/internal/stmtcache"
)

// sqliteParams apply to every connection. Foreign keys are off by default in
// SQLite and ent relies on them (see sqliteForeignKeys); WAL lets readers run beside the writer; the
// busy timeout makes a writer wait for the lock instead of failing; _txlock
// makes every transaction take the write lock when it begins, because a
// transaction that reads first and writes later cannot wait for the lock
// (SQLite reports SQLITE_BUSY at once to avoid a deadlock). Times are written
// in UTC so their text form sorts in time order.
const sqliteParams = "_pragma=busy_timeout(5000)&_txlock=immediate&_timezone=UTC"

// sqliteForeignKeys turns foreign keys on for the service's connections.
// Migrations of a file run on a connection of their own with them off:
// each migration is one transaction, so that an interrupted one leaves the
// database as it was, and a table rebuild (copy, drop, rename) done with
// foreign keys on would have the drop refused for, or delete, the rows that
// reference the old table; SQLite ignores the PRAGMA that turns them off
// inside a transaction.
const (
	sqliteForeignKeys          = "&_pragma=foreign_keys(1)"
	sqliteForeignKeysMigrating = "&_pragma=foreign_keys(0)"
)

// sqliteReadConns is how many connections a file database gets by default:
// writes serialize on SQLite's lock anyway, and a few connections let reads
// proceed beside a write.
const sqliteReadConns = 4

// sqliteStatements is how many prepared statements each connection keeps
// (see stmtcache): more than the distinct queries of the service's usual
// requests, each about 15 KB of SQLite's memory for a read of one record.
const sqliteStatements = 128

// SQLiteLower is a function of every SQLite connection: its text
// argument in lower case as Go's strings.ToLower has it. SQLite's own
// LOWER, and LIKE, fold ASCII letters alone, so a search for "Überprüfung"
// through them does not find the name it is.
const SQLiteLower = "verdict_lower"

// sqliteDriver opens the connections of every pool, each with
// SQLiteLower.
var sqliteDriver = sync.OnceValue(func() *sqlite.Driver {
	d := &sqlite.Driver{}
	d.MustRegisterDeterministicScalarFunction(SQLiteLower, 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		switch v := args[0].(type) {
		case string:
			return strings.ToLower(v), nil
		case []byte:
			return strings.ToLower(string(v)), nil
		default:
			return v, nil
		}
	})
	return d
})

// sqliteOpen is a pool of connections to the SQLite database name, each
// keeping its statements.
func sqliteOpen(name string) *sql.DB {
	return sql.OpenDB(stmtcache.NewConnector(sqliteDriver(), name, sqliteStatements))
}

// uriPath escapes what would end the path part of a SQLite URI filename
// (a ? is refused before), so any other file name opens the file of that
// name.
var uriPath = strings.NewReplacer("%", "%25", "#", "%23")

func openSQLite(path string, o options) (*DB, error) {
	if path == "" {
		return nil, &URLError{Reason: "sqlite:// needs a path, as in sqlite://verdict.db"}
	}
	if path == ":memory:" {
		return openSQLiteMemory(), nil
	}
	// Other tools read parameters after a ?; here they would name a file
	// of their own, made and migrated as a new, empty database.
	if strings.Contains(path, "?") {
		return nil, &URLError{Reason: fmt.Sprintf("sqlite:// takes a file path and no parameters, and %q holds a ?", path)}
	}
	if dir := filepath.Dir(path); !o.mustExist {
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("database: there is no directory %s for the SQLite file; create it first", dir)
		}
	}
	name := "file:" + uriPath.Replace(path) + "?" + sqliteParams + "&_pragma=journal_mode(WAL)"
	if o.mustExist {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, &NoFileError{Path: path}
		}
		// Without SQLite's create flag no connection of the pool, not even
		// one opened after the file was removed, makes an empty database.
		name += "&mode=rw"
	}
	pool := sqliteOpen(name + sqliteForeignKeys)
	pool.SetMaxOpenConns(o.maxOpenConnsOr(sqliteReadConns))
	db := newDB(pool, dialect.SQLite)
	db.file = &openedFile{path: path, migratingName: name + sqliteForeignKeysMigrating}
	return db, nil
}

// openedFile is a SQLite database's file as it was when the database was
// opened.
type openedFile struct {
	path string
	info os.FileInfo
	// migratingName opens the connection migrations run on.
	migratingName string
}

// CheckFile fails when the file at the path of a SQLite database is no
// longer the one it opened: the file, or its directory, was removed or
// replaced while the database was open. The connections open then keep
// reading and writing the old file, which nobody can open again: what is
// written to it is lost when they close. It costs a stat of the path, and
// nothing on PostgreSQL or in memory.
func (db *DB) CheckFile() error {
	if db.file == nil {
		return nil
	}
	now, err := os.Stat(db.file.path)
	if err != nil {
		return fmt.Errorf("database: the SQLite file opened at %s is no longer there: %w", db.file.path, err)
	}
	if !os.SameFile(db.file.info, now) {
		return fmt.Errorf("database: the SQLite file opened at %s was replaced by another", db.file.path)
	}
	return nil
}

// NoFileError is Open's error, under MustExist, for a SQLite file that does
// not exist.
type NoFileError struct {
	// Path is the file's path as the URL gives it.
	Path string
}

func (e *NoFileError) Error() string {
	return "database: no SQLite database at " + e.Path + ": the file does not exist"
}

// openSQLiteMemory gives a private in-memory database. Each SQLite connection
// to ":memory:" is a database of its own, so the pool holds exactly one
// connection and never closes it. A caller that holds a transaction and
// queries outside it in the meantime therefore waits forever: use it for
// tests and one-shot tools only.
func openSQLiteMemory() *DB {
	// Migrations run on this one connection, foreign keys on: a database
	// in memory is migrated when it is made, while its tables are empty.
	pool := sqliteOpen(":memory:?" + sqliteParams + sqliteForeignKeys)
	pool.SetMaxOpenConns(1)
	pool.SetMaxIdleConns(1)
	pool.SetConnMaxLifetime(0)
	pool.SetConnMaxIdleTime(0)
	return newDB(pool, dialect.SQLite)
}
