package main

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"slices"
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

// hiddenPassword stands for a database password wherever a URL is printed.
const hiddenPassword = "***"

// displayURL is a URL, a database's or the OPA server's, as it may be
// printed: see hidePassword.
func displayURL(raw string) string {
	shown, _ := hidePassword(raw)
	return shown
}

// displayOPAURL is displayURL for the URL of --opa-url, with the value of
// each parameter of its query hidden too: a proxy in front of OPA may take
// a token there, under any name.
func displayOPAURL(raw string) string {
	shown := displayURL(raw)
	rest, query, hasQuery := strings.Cut(shown, "?")
	if !hasQuery {
		return shown
	}
	params := strings.Split(query, "&")
	for i, p := range params {
		if name, _, hasValue := strings.Cut(p, "="); hasValue {
			params[i] = name + "=" + hiddenPassword
		}
	}
	return rest + "?" + strings.Join(params, "&")
}

// hidePassword is a PostgreSQL URL as written, but with hiddenPassword for
// each password it holds, in its user part or as the password parameter
// of its query; hidden says whether it hid any. The URL is edited as text,
// not rebuilt, because url.URL.String would escape the stars.
func hidePassword(raw string) (shown string, hidden bool) {
	if strings.HasPrefix(raw, "sqlite://") {
		return raw, false
	}
	if _, err := url.Parse(raw); err != nil {
		// url.Parse quotes the whole input in its error; say nothing of it.
		return "(unparsable URL)", false
	}
	if !strings.Contains(raw, "://") {
		// No scheme, so no telling which part might be a password.
		return "(not a URL)", false
	}
	// Cut as url.Parse does: the query, then the authority up to the path,
	// whose user part ends at its last @.
	rest, query, hasQuery := strings.Cut(raw, "?")
	scheme, rest, _ := strings.Cut(rest, "://")
	authority, path := rest, ""
	if i := strings.Index(rest, "/"); i >= 0 {
		authority, path = rest[:i], rest[i:]
	}
	params := strings.Split(query, "&")
	// A PostgreSQL URL has no fragment, and no @ in its path or in the name
	// of a parameter: there, they most likely come from a password with a
	// #, / or ? left unescaped, which url.Parse cut somewhere inside, its
	// beginning read as a port.
	if strings.Contains(raw, "#") || strings.Contains(path, "@") || slices.ContainsFunc(params, func(param string) bool {
		key, _, _ := strings.Cut(param, "=")
		return strings.Contains(key, "@")
	}) {
		return "(URL not shown: a password in it must escape #, / and ? as %23, %2F and %3F)", true
	}
	if at := strings.LastIndex(authority, "@"); at >= 0 {
		if user, _, hasPassword := strings.Cut(authority[:at], ":"); hasPassword {
			authority = user + ":" + hiddenPassword + authority[at:]
			hidden = true
		}
	}
	for i, param := range params {
		key, _, _ := strings.Cut(param, "=")
		if name, err := url.QueryUnescape(key); err == nil && name == "password" {
			params[i] = key + "=" + hiddenPassword
			hidden = true
		}
	}
	shown = scheme + "://" + authority + path
	if hasQuery {
		shown += "?" + strings.Join(params, "&")
	}
	return shown, hidden
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
	// A URL that names no database Verdict can open cannot work, as a bad
	// flag value cannot.
	var bad *database.URLError
	if errors.As(err, &bad) {
		return nil, usageError("%s: %v", displayURL(dbURL), err)
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
		return migrationFailure(dbURL, err)
	}
	if pending {
		return failuref("%s has pending migrations: run `verdict migrate` first", displayURL(dbURL))
	}
	return nil
}

// migrationFailure is the exit status of a failed Migrate or Pending. A
// database a newer release migrated cannot work with this binary, as a bad
// flag value cannot: nothing but running that release helps.
func migrationFailure(dbURL string, err error) error {
	var newer *database.UnknownMigrationsError
	if errors.As(err, &newer) {
		return usageError("%s: %v", displayURL(dbURL), err)
	}
	return failuref("%s: %v", displayURL(dbURL), err)
}
