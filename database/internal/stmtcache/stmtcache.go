// Package stmtcache keeps each database connection's prepared statements by
// their text, so that a query run again on a connection is not parsed and
// planned again.
//
// database/sql prepares a statement only when asked to (DB.Prepare); every
// other query goes to the driver as text, which an embedded database parses
// and plans in this process every time. ent builds every query as text, so
// without this each uncached read paid for its parse.
package stmtcache

import (
	"context"
	"database/sql/driver"
	"fmt"
	"reflect"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// Conn is what a wrapped driver's connections must offer: everything
// database/sql asks of a connection that prepares, runs text queries, and
// reports whether it is still usable.
type Conn interface {
	driver.Conn
	driver.ConnPrepareContext
	driver.ConnBeginTx
	driver.QueryerContext
	driver.ExecerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// Statement is what a wrapped driver's prepared statements must offer.
type Statement interface {
	driver.Stmt
	driver.StmtQueryContext
	driver.StmtExecContext
}

// NewConnector opens connections to name with d, each keeping its last
// size statements (at least one).
func NewConnector(d driver.Driver, name string, size int) driver.Connector {
	return &connector{driver: d, name: name, size: max(size, 1)}
}

type connector struct {
	driver driver.Driver
	name   string
	size   int
}

func (c *connector) Driver() driver.Driver { return c.driver }

func (c *connector) Connect(ctx context.Context) (driver.Conn, error) {
	dc, err := c.driver.Open(c.name)
	if err != nil {
		return nil, err
	}
	under, ok := dc.(Conn)
	if !ok {
		dc.Close()
		return nil, fmt.Errorf("stmtcache: %T lacks what a cached connection needs", dc)
	}
	cn := &conn{Conn: under}
	// The size is at least one, the only error NewLRU has.
	cn.stmts, _ = simplelru.NewLRU(c.size, func(_ string, e *entry) { e.evict() })
	return cn, nil
}

// conn is used by one goroutine at a time, as database/sql guarantees of
// every driver connection (rows are closed under the same lock), so its
// cache needs no lock of its own.
type conn struct {
	Conn
	stmts *simplelru.LRU[string, *entry]
}

// entry is one cached statement. A statement steps through one set of rows
// at a time: while rows from it are open (busy), the same text runs
// uncached, and a busy statement pushed out of the cache is closed when its
// rows are.
type entry struct {
	stmt    Statement
	busy    bool
	evicted bool
}

func (e *entry) evict() {
	e.evicted = true
	if !e.busy {
		e.stmt.Close()
	}
}

func (e *entry) release() {
	e.busy = false
	if e.evicted {
		e.stmt.Close()
	}
}

// statement is the cached statement for query, prepared now if it is not
// cached; nil when it is busy.
func (c *conn) statement(ctx context.Context, query string) (*entry, error) {
	if e, ok := c.stmts.Get(query); ok {
		if e.busy {
			return nil, nil
		}
		return e, nil
	}
	st, err := c.Conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	s, ok := st.(Statement)
	if !ok {
		st.Close()
		return nil, fmt.Errorf("stmtcache: %T lacks what a cached statement needs", st)
	}
	e := &entry{stmt: s}
	c.stmts.Add(query, e)
	return e, nil
}

func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	e, err := c.statement(ctx, query)
	if err != nil {
		return nil, err
	}
	if e == nil {
		return c.Conn.QueryContext(ctx, query, args)
	}
	r, err := e.stmt.QueryContext(ctx, args)
	if err != nil {
		return nil, err
	}
	e.busy = true
	return &rows{Rows: r, entry: e}, nil
}

func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	e, err := c.statement(ctx, query)
	if err != nil {
		return nil, err
	}
	if e == nil {
		return c.Conn.ExecContext(ctx, query, args)
	}
	return e.stmt.ExecContext(ctx, args)
}

// Close closes the cached statements, then the connection.
func (c *conn) Close() error {
	c.stmts.Purge()
	return c.Conn.Close()
}

// rows frees its statement for the next query when closed. It passes on
// what the driver's rows tell of their columns, which database/sql would
// otherwise not see through the wrapper.
type rows struct {
	driver.Rows
	entry *entry
}

func (r *rows) Close() error {
	err := r.Rows.Close()
	r.entry.release()
	return err
}

func (r *rows) ColumnTypeDatabaseTypeName(index int) string {
	if t, ok := r.Rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return t.ColumnTypeDatabaseTypeName(index)
	}
	return ""
}

func (r *rows) ColumnTypeLength(index int) (int64, bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypeLength); ok {
		return t.ColumnTypeLength(index)
	}
	return 0, false
}

func (r *rows) ColumnTypeNullable(index int) (nullable, ok bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypeNullable); ok {
		return t.ColumnTypeNullable(index)
	}
	return false, false
}

func (r *rows) ColumnTypePrecisionScale(index int) (precision, scale int64, ok bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypePrecisionScale); ok {
		return t.ColumnTypePrecisionScale(index)
	}
	return 0, 0, false
}

// ColumnTypeScanType answers as database/sql does for rows that do not say.
func (r *rows) ColumnTypeScanType(index int) reflect.Type {
	if t, ok := r.Rows.(driver.RowsColumnTypeScanType); ok {
		return t.ColumnTypeScanType(index)
	}
	return reflect.TypeFor[any]()
}
