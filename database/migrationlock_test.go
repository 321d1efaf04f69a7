package database_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"github.com/gofrs/flock"
	"github.com/pressly/goose/v3/lock"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
)

// An instance that finds another migrating the same database waits for
// it, says so once, and migrates when the other lets go, however long
// that takes: longer than one statement may run here.
func TestMigrateWaitsForAnotherInstancesMigration(t *testing.T) {
	dbtest.EachURL(t, false, func(t *testing.T, url string) {
		ctx := context.Background()
		other, err := database.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		var release func()
		if other.Dialect() == dialect.Postgres {
			conn, err := other.SQL().Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", lock.DefaultLockID); err != nil {
				t.Fatal(err)
			}
			release = func() {
				if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", lock.DefaultLockID); err != nil {
					t.Error(err)
				}
			}
		} else {
			file := flock.New(strings.TrimPrefix(url, "sqlite://") + ".migrate-lock")
			if err := file.Lock(); err != nil {
				t.Fatal(err)
			}
			release = func() {
				if err := file.Unlock(); err != nil {
					t.Error(err)
				}
			}
		}

		db, err := database.Open(ctx, url, database.WithIOTimeout(200*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		waiting := make(chan struct{})
		told := 0
		type outcome struct {
			m   *database.Migrated
			err error
		}
		done := make(chan outcome, 1)
		go func() {
			m, err := database.Migrate(ctx, db, database.WhileWaiting(func() {
				told++
				if told == 1 {
					close(waiting)
				}
			}))
			done <- outcome{m, err}
		}()
		select {
		case <-waiting:
		case o := <-done:
			t.Fatalf("migrated while another instance held the lock: %+v, %v", o.m, o.err)
		case <-time.After(time.Minute):
			t.Fatal("not told of the wait within a minute")
		}
		// Longer than the connection's I/O bound, which no single
		// statement waiting for the lock could outlast.
		time.Sleep(time.Second)
		select {
		case o := <-done:
			t.Fatalf("migrated while another instance held the lock: %+v, %v", o.m, o.err)
		default:
		}
		release()
		var o outcome
		select {
		case o = <-done:
		case <-time.After(time.Minute):
			t.Fatal("still waiting a minute after the lock was let go")
		}
		if o.err != nil {
			t.Fatalf("migrating after the wait: %v", o.err)
		}
		if len(o.m.Applied) == 0 || told != 1 {
			t.Errorf("applied %d migrations, told of the wait %d times; want all of them, once", len(o.m.Applied), told)
		}
	})
}
