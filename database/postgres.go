package database

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
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

func openPostgres(rawURL string, o options) (*DB, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		// Only the cause: url.Error repeats the URL, password included.
		return nil, fmt.Errorf("database: parsing the postgres URL: %w", errors.Unwrap(err))
	}
	// Sessions in UTC, unless the URL says otherwise: timestamps then read
	// back with a zero offset, and SQL date functions agree with Go's now().
	q := u.Query()
	if !q.Has("timezone") {
		q.Set("timezone", "UTC")
	}
	if !q.Has("connect_timeout") {
		q.Set("connect_timeout", connectTimeout)
	}
	u.RawQuery = q.Encode()
	connector, err := pq.NewConnector(u.String())
	if err != nil {
		return nil, fmt.Errorf("database: opening postgres: %w", err)
	}
	connector.Dialer(newBoundedDialer(o.ioTimeoutOr(DefaultIOTimeout)))
	pool := sql.OpenDB(connector)
	maxOpen := o.maxOpenConnsOr(postgresMaxOpenConns)
	pool.SetMaxOpenConns(maxOpen)
	pool.SetMaxIdleConns(min(postgresMaxIdleConns, maxOpen))
	pool.SetConnMaxLifetime(postgresConnLifetime)
	return newDB(pool, dialect.Postgres), nil
}
