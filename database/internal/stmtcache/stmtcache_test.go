package stmtcache_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"modernc.org/sqlite"

	"github.com/verdict/verdict/database/internal/stmtcache"
)

// counts is what a countingDriver saw reach SQLite.
type counts struct {
	prepared []string // texts prepared, in order
	closed   []string // prepared texts closed, in order
	uncached []string // texts run without a prepared statement
}

// countingDriver is SQLite's driver, counting what the cache asks of it.
type countingDriver struct {
	sqlite.Driver
	counts *counts
}

func (d *countingDriver) Open(name string) (driver.Conn, error) {
	c, err := d.Driver.Open(name)
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c.(stmtcache.Conn), counts: d.counts}, nil
}

type countingConn struct {
	stmtcache.Conn
	counts *counts
}

func (c *countingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	st, err := c.Conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.counts.prepared = append(c.counts.prepared, query)
	return &countingStmt{Statement: st.(stmtcache.Statement), query: query, counts: c.counts}, nil
}

func (c *countingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	c.counts.uncached = append(c.counts.uncached, query)
	return c.Conn.QueryContext(ctx, query, args)
}

func (c *countingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	c.counts.uncached = append(c.counts.uncached, query)
	return c.Conn.ExecContext(ctx, query, args)
}

type countingStmt struct {
	stmtcache.Statement
	query  string
	counts *counts
}

func (s *countingStmt) Close() error {
	s.counts.closed = append(s.counts.closed, s.query)
	return s.Statement.Close()
}

// open is a SQLite database with a table t of x = 1, 2, 3, on one
// connection whose statements are cached, size at a time, and the name it
// opens. The table is made through a connection of its own, so the cache
// starts empty.
func open(t *testing.T, size int) (*sql.DB, *counts, string) {
	t.Helper()
	name := "file:" + filepath.Join(t.TempDir(), "t.db")
	setup, err := sql.Open("sqlite", name)
	if err != nil {
		t.Fatal(err)
	}
	defer setup.Close()
	if _, err := setup.Exec("CREATE TABLE t (x INTEGER NOT NULL); INSERT INTO t (x) VALUES (1), (2), (3)"); err != nil {
		t.Fatal(err)
	}
	c := &counts{}
	db := sql.OpenDB(stmtcache.NewConnector(&countingDriver{counts: c}, name, size))
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db, c, name
}

type querier interface {
	Query(query string, args ...any) (*sql.Rows, error)
}

func xs(t *testing.T, q querier, query string, args ...any) []int {
	t.Helper()
	rows, err := q.Query(query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []int
	for rows.Next() {
		var x int
		if err := rows.Scan(&x); err != nil {
			t.Fatal(err)
		}
		got = append(got, x)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return got
}

const above = "SELECT x FROM t WHERE x > ? ORDER BY x"

func TestAQueryIsPreparedOnceAndAnswersWithItsOwnArguments(t *testing.T) {
	db, c, _ := open(t, 8)
	for _, tc := range []struct {
		over int
		want []int
	}{{0, []int{1, 2, 3}}, {1, []int{2, 3}}, {3, nil}, {2, []int{3}}} {
		if got := xs(t, db, above, tc.over); !slices.Equal(got, tc.want) {
			t.Errorf("x > %d: %v, want %v", tc.over, got, tc.want)
		}
	}
	if _, err := db.Exec("UPDATE t SET x = x + ? WHERE x = ?", 10, 3); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("UPDATE t SET x = x + ? WHERE x = ?", 10, 2); err != nil {
		t.Fatal(err)
	}
	if got, want := xs(t, db, above, 0), []int{1, 12, 13}; !slices.Equal(got, want) {
		t.Errorf("after the updates: %v, want %v", got, want)
	}
	if want := []string{above, "UPDATE t SET x = x + ? WHERE x = ?"}; !slices.Equal(c.prepared, want) {
		t.Errorf("prepared %q, want each text once: %q", c.prepared, want)
	}
	if len(c.uncached) != 0 || len(c.closed) != 0 {
		t.Errorf("ran %q uncached and closed %q; want neither", c.uncached, c.closed)
	}
}

// A transaction may read the same query again while its first rows are
// still open; the statement under those rows must not be reset.
func TestAStatementWithOpenRowsIsNotReusedUntilTheyClose(t *testing.T) {
	db, c, _ := open(t, 8)
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	outer, err := tx.Query(above, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got [][]int
	for outer.Next() {
		var x int
		if err := outer.Scan(&x); err != nil {
			t.Fatal(err)
		}
		got = append(got, append([]int{x}, xs(t, tx, above, x)...))
	}
	if err := outer.Err(); err != nil {
		t.Fatal(err)
	}
	outer.Close()
	if want := [][]int{{1, 2, 3}, {2, 3}, {3}}; !reflect.DeepEqual(got, want) {
		t.Errorf("each x with those above it: %v, want %v", got, want)
	}
	if want := []string{above, above, above}; !slices.Equal(c.uncached, want) {
		t.Errorf("ran %q uncached, want the three inner queries", c.uncached)
	}
	if xs(t, tx, above, 2); len(c.prepared) != 1 || len(c.uncached) != 3 {
		t.Errorf("after the rows closed: prepared %q, uncached %q; want the cached statement again", c.prepared, c.uncached)
	}
}

func TestTheLeastRecentlyUsedStatementIsClosedAndABusyOneWhenItsRowsAre(t *testing.T) {
	db, c, _ := open(t, 2)
	first, second, third := "SELECT x FROM t WHERE x = 1", "SELECT x FROM t WHERE x = 2", "SELECT x FROM t WHERE x = 3"
	xs(t, db, first)
	xs(t, db, second)
	xs(t, db, first) // now second is the least recently used
	xs(t, db, third)
	if want := []string{second}; !slices.Equal(c.closed, want) {
		t.Fatalf("closed %q, want %q", c.closed, want)
	}

	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	held, err := tx.Query(first)
	if err != nil {
		t.Fatal(err)
	}
	xs(t, tx, second) // pushes out third
	xs(t, tx, third)  // pushes out first, whose rows are open
	if want := []string{second, third}; !slices.Equal(c.closed, want) {
		t.Fatalf("with first's rows open: closed %q, want %q", c.closed, want)
	}
	if !held.Next() {
		t.Fatalf("first's rows ended early: %v", held.Err())
	}
	var x int
	if err := held.Scan(&x); err != nil || x != 1 {
		t.Fatalf("first's rows gave %d, %v; want 1", x, err)
	}
	held.Close()
	if want := []string{second, third, first}; !slices.Equal(c.closed, want) {
		t.Errorf("after first's rows closed: closed %q, want %q", c.closed, want)
	}
}

func TestClosingTheConnectionClosesItsStatements(t *testing.T) {
	db, c, _ := open(t, 8)
	xs(t, db, above, 1)
	if _, err := db.Exec("DELETE FROM t WHERE x = ?", 5); err != nil {
		t.Fatal(err)
	}
	db.Close()
	slices.Sort(c.closed)
	if want := []string{"DELETE FROM t WHERE x = ?", above}; !slices.Equal(c.closed, want) {
		t.Errorf("closed %q, want %q", c.closed, want)
	}
}

func TestAQueryThatDoesNotPrepareIsNotKept(t *testing.T) {
	db, c, _ := open(t, 8)
	for range 2 {
		if _, err := db.Query("SELECT y FROM t"); err == nil {
			t.Fatal("a query of a column that does not exist succeeded")
		}
	}
	if len(c.prepared) != 0 {
		t.Errorf("prepared %q, want nothing", c.prepared)
	}
}

// SQLite prepares a statement again by itself when the schema it was
// prepared against has changed.
func TestAKeptStatementSeesTheSchemaAsItIsNow(t *testing.T) {
	db, _, _ := open(t, 8)
	columns := func() []string {
		rows, err := db.Query("SELECT * FROM t")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		names, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		return names
	}
	if got := columns(); !slices.Equal(got, []string{"x"}) {
		t.Fatalf("columns %q, want [x]", got)
	}
	if _, err := db.Exec("ALTER TABLE t ADD COLUMN y TEXT"); err != nil {
		t.Fatal(err)
	}
	if got := columns(); !slices.Equal(got, []string{"x", "y"}) {
		t.Errorf("after adding y: columns %q, want [x y]", got)
	}
}

func TestKeptRowsTellTheirColumnTypesAsTheDriversDo(t *testing.T) {
	db, _, name := open(t, 8)
	plain, err := sql.Open("sqlite", name)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	type column struct {
		name, databaseType string
		nullable, known    bool
		scanType           reflect.Type
	}
	columnsOf := func(db *sql.DB) []column {
		rows, err := db.Query("SELECT x, 'a' AS s FROM t")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		types, err := rows.ColumnTypes()
		if err != nil {
			t.Fatal(err)
		}
		var cols []column
		for _, ct := range types {
			nullable, known := ct.Nullable()
			cols = append(cols, column{ct.Name(), ct.DatabaseTypeName(), nullable, known, ct.ScanType()})
		}
		return cols
	}
	want := columnsOf(plain)
	if got := columnsOf(db); !reflect.DeepEqual(got, want) {
		t.Errorf("through the cache: %+v\nstraight from the driver: %+v", got, want)
	}
	if want[0].databaseType != "INTEGER" {
		t.Errorf("the driver calls x %q; the comparison is void unless it tells a type", want[0].databaseType)
	}
}

// BenchmarkQuery reads one row by key, as ent reads a record, through a
// pool that prepares the text on every query and through one that keeps it.
func BenchmarkQuery(b *testing.B) {
	const schema = `CREATE TABLE policies (id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL,
		base_id TEXT NOT NULL, name TEXT NOT NULL, status TEXT NOT NULL, version INTEGER,
		rule TEXT NOT NULL, created_at DATETIME NOT NULL, deleted_at DATETIME);
		INSERT INTO policies VALUES ('p1', 't1', 'b1', 'n', 'published', 1, 'r', '2026-01-01', NULL)`
	const query = "SELECT `policies`.`id`, `policies`.`tenant_id`, `policies`.`base_id`, " +
		"`policies`.`name`, `policies`.`status`, `policies`.`version`, `policies`.`rule`, " +
		"`policies`.`created_at` FROM `policies` WHERE (`policies`.`tenant_id` = ? AND " +
		"`policies`.`base_id` = ?) AND `policies`.`deleted_at` IS NULL ORDER BY `policies`.`version` DESC LIMIT 1"
	for _, pool := range []struct {
		name string
		open func() *sql.DB
	}{
		{"prepared-each-time", func() *sql.DB {
			db, err := sql.Open("sqlite", ":memory:")
			if err != nil {
				b.Fatal(err)
			}
			return db
		}},
		{"kept", func() *sql.DB {
			return sql.OpenDB(stmtcache.NewConnector(&sqlite.Driver{}, ":memory:", 8))
		}},
	} {
		b.Run(pool.name, func(b *testing.B) {
			db := pool.open()
			defer db.Close()
			db.SetMaxOpenConns(1)
			if _, err := db.Exec(schema); err != nil {
				b.Fatal(err)
			}
			var id, tenant, base, name, status, rule, created string
			var version int
			b.ReportAllocs()
			for b.Loop() {
				if err := db.QueryRow(query, "t1", "b1").Scan(&id, &tenant, &base, &name, &status, &version, &rule, &created); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
