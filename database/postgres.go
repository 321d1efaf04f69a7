package database

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	"github.com/lib/pq"
)

// Pool defaults for PostgreSQL: every replica holds at most this many server
// connections, and recycles them so a failover or a restarted server is
// picked up without a restart of Verdict.
const (
	postgresMaxOpenConns = 16
	postgresMaxIdleConns = 4
	postgresConnLifetime = 30 * time.Minute
)

// urlProblem is what url.Parse found wrong, without the part of the URL it
// quotes: url.Error repeats the whole URL, and its cause a piece of it,
// which for a password holding an unescaped #, / or ? is a piece of the
// password ("invalid port \":S3cr3t\" after host").
func urlProblem(err error) string {
	problem := errors.Unwrap(err).Error()
	if i := strings.IndexByte(problem, '"'); i >= 0 {
		problem = strings.TrimSpace(problem[:i])
	}
	return problem + " (a password in it must escape #, / and ? as %23, %2F and %3F)"
}

func openPostgres(rawURL string, o options) (*DB, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, &URLError{Reason: "parsing the postgres URL: " + urlProblem(err)}
	}
	// Sessions in UTC, unless the URL says otherwise: timestamps then read
	// back with a zero offset, and SQL date functions agree with Go's now().
	q := u.Query()
	if !q.Has("timezone") {
		q.Set("timezone", "UTC")
	}
	ioTimeout := o.ioTimeoutOr(DefaultIOTimeout)
	if !q.Has("connect_timeout") {
		q.Set("connect_timeout", connectTimeoutFor(ioTimeout))
	}
	// A read that times out closes the connection, but the server goes on
	// with the statement: one waiting for a lock (a table a migration
	// rewrites, an operator's LOCK) would wait for as long as the lock is
	// held, while the pool opens another connection for the next request,
	// until the cluster runs out of connections. The statement gives up
	// waiting for a lock when the read does.
	if ioTimeout > 0 && !q.Has("lock_timeout") {
		q.Set("lock_timeout", strconv.FormatInt(max(ioTimeout.Milliseconds(), 1), 10))
	}
	dsn := withQuery(rawURL, q)
	// lib/pq refuses here, before any connection, what it cannot read in
	// the URL: a port out of range, an unknown sslmode.
	connector, err := pq.NewConnector(dsn)
	if err != nil {
		return nil, &URLError{Reason: "the postgres URL: " + err.Error()}
	}
	connector.Dialer(newBoundedDialer(ioTimeout))
	pool := sql.OpenDB(connector)
	maxOpen := o.maxOpenConnsOr(postgresMaxOpenConns)
	pool.SetMaxOpenConns(maxOpen)
	pool.SetMaxIdleConns(min(postgresMaxIdleConns, maxOpen))
	pool.SetConnMaxLifetime(postgresConnLifetime)
	db := newDB(pool, dialect.Postgres)
	db.postgresDSN = dsn
	return db, nil
}

// withQuery is rawURL with its query replaced by q. The URL is not
// rebuilt by url.URL.String, which drops the "//" of a URL with neither
// host nor path (postgres://?host=/var/run/postgresql): lib/pq would then
// take it for a list of key=value settings.
func withQuery(rawURL string, q url.Values) string {
	// Cut where url.Parse cuts: a fragment first, then the query.
	rest, _, _ := strings.Cut(rawURL, "#")
	rest, _, _ = strings.Cut(rest, "?")
	return rest + "?" + q.Encode()
}

// NewListener opens a connection of its own for LISTEN/NOTIFY, to the server
// and database of the pool, named applicationName in pg_stat_activity. It
// waits for notifications indefinitely, so it has no per-read deadline;
// TCP keepalives find a server that vanished instead. pq.Listener
// reconnects after a loss, waiting minReconnect, then twice as long after
// each failure up to maxReconnect, and tells cb of every connection event.
// SQLite has no other process to listen to: it is an error there.
func (db *DB) NewListener(applicationName string, minReconnect, maxReconnect time.Duration, cb pq.EventCallbackType) (*pq.Listener, error) {
	if db.dialect != dialect.Postgres {
		return nil, errors.New("database: LISTEN needs PostgreSQL")
	}
	u, err := url.Parse(db.postgresDSN)
	if err != nil {
		return nil, fmt.Errorf("database: parsing the postgres URL: %s", urlProblem(err))
	}
	q := u.Query()
	q.Set("application_name", applicationName)
	return pq.NewDialListener(newBoundedDialer(0), withQuery(db.postgresDSN, q), minReconnect, maxReconnect, cb), nil
}
