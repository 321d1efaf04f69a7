package main

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/verdict/verdict/database"
)

// envDatabaseURL names the database when --database-url is not given.
const envDatabaseURL = "DATABASE_URL"

func addDatabaseURLFlag(f *pflag.FlagSet, dbURL *string) {
	f.StringVar(dbURL, "database-url", "",
		"the database, sqlite://PATH or postgres://...; default $"+envDatabaseURL+", else "+database.DefaultURL)
}

// resolveDatabaseURL is the one place every command names its database:
// the --database-url flag, else $DATABASE_URL, else database.DefaultURL.
func resolveDatabaseURL(flag string) string {
	if flag != "" {
		return flag
	}
	if env := os.Getenv(envDatabaseURL); env != "" {
		return env
	}
	return database.DefaultURL
}

// displayURL is a database URL as it may be printed: without a password.
func displayURL(raw string) string {
	if strings.HasPrefix(raw, "sqlite://") {
		return raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		// url.Parse quotes the whole input in its error; say nothing of it.
		return "(unparsable URL)"
	}
	return u.Redacted()
}

// openDatabase opens the database named by dbURL; the error is the
// command's exit status.
func openDatabase(ctx context.Context, dbURL string, opts ...database.Option) (*database.DB, error) {
	db, err := database.Open(ctx, dbURL, opts...)
	var nf *database.NoFileError
	if errors.As(err, &nf) {
		path, absErr := filepath.Abs(nf.Path)
		if absErr != nil {
			path = nf.Path
		}
		return nil, failuref("%s: no database file at %s; check the path (`verdict migrate` creates a new database)", displayURL(dbURL), path)
	}
	if err != nil {
		return nil, failuref("%s: %v", displayURL(dbURL), err)
	}
	return db, nil
}

// openExistingDatabase is openDatabase for the commands that work on a
// database made before: a SQLite file that does not exist is refused
// rather than created empty, as its path is most likely mistyped.
func openExistingDatabase(ctx context.Context, dbURL string, opts ...database.Option) (*database.DB, error) {
	return openDatabase(ctx, dbURL, append(opts, database.MustExist())...)
}

// requireMigrated refuses a database that is behind its migrations: the
// commands that only read and write rows leave the schema to `verdict
// migrate`, so that a schema change is always a deliberate step.
func requireMigrated(ctx context.Context, db *database.DB, dbURL string) error {
	pending, err := database.Pending(ctx, db)
	if err != nil {
		return failure(err)
	}
	if pending {
		return failuref("%s has pending migrations: run `verdict migrate` first", displayURL(dbURL))
	}
	return nil
}
