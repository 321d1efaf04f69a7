package dayparts_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"github.com/lib/pq"

	"github.com/verdict/verdict/dayparts"
	"github.com/verdict/verdict/internal/dbtest"
)

// Day partitions exist only on PostgreSQL, so this test has no SQLite run:
// its table is the smallest one partitioned by day, with the function that
// makes its partitions.
func TestExpireDropsTheEndedDaysOnceAndCountsTheirRows(t *testing.T) {
	db := dbtest.Empty(t, dialect.Postgres)
	ctx := context.Background()
	if _, err := db.SQL().ExecContext(ctx, `CREATE TABLE "t" ("at" timestamptz NOT NULL) PARTITION BY RANGE ("at");
		CREATE FUNCTION "t_partition"(day date) RETURNS void LANGUAGE plpgsql AS $$
		BEGIN
			EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF "t" FOR VALUES FROM (%L) TO (%L)', 't_' || to_char(day, 'YYYYMMDD'),
				day::timestamp AT TIME ZONE 'UTC', (day + 1)::timestamp AT TIME ZONE 'UTC');
		END;
		$$;`); err != nil {
		t.Fatal(err)
	}
	days := dayparts.New(db.SQL(), "t", dayparts.CountingRows())
	// Rows on three days; the first insert meets no partition and makes them.
	at := []time.Time{
		time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2030, 1, 1, 23, 59, 59, 999999000, time.UTC),
		time.Date(2030, 1, 2, 12, 0, 0, 0, time.UTC),
		time.Date(2030, 1, 3, 0, 0, 0, 0, time.UTC),
	}
	inserts := 0
	err := days.Insert(ctx, at, func() error {
		inserts++
		_, err := db.SQL().ExecContext(ctx, `INSERT INTO "t" SELECT unnest($1::timestamptz[])`, pq.Array(at))
		return err
	})
	if err != nil || inserts != 2 {
		t.Fatalf("Insert: %v after %d tries, want 2", err, inserts)
	}
	if err := days.Prepare(ctx, at[3]); err != nil {
		t.Fatal(err)
	}
	got, err := days.Days(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var want []time.Time
	for i := range 3 + dayparts.DaysAhead {
		want = append(want, time.Date(2030, 1, 1+i, 0, 0, 0, 0, time.UTC))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("days %v, want %v", got, want)
	}

	// Two replicas expire at once with the cutoff in the third day: the
	// first two days go, each dropped and counted by one of them.
	cutoff := time.Date(2030, 1, 3, 6, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	results := make([]dayparts.Expired, 2)
	errs := make([]error, 2)
	for i := range 2 {
		wg.Go(func() { results[i], errs[i] = days.Expire(ctx, cutoff) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("Expire: %v", err)
		}
	}
	total := dayparts.Expired{Partitions: results[0].Partitions + results[1].Partitions, Rows: results[0].Rows + results[1].Rows}
	if total != (dayparts.Expired{Partitions: 2, Rows: 3}) {
		t.Errorf("expired %+v and %+v, want 2 partitions and 3 rows in all", results[0], results[1])
	}
	got, err = days.Days(ctx)
	if err != nil || !slices.Equal(got, want[2:]) {
		t.Errorf("days %v (%v) after expiring, want %v", got, err, want[2:])
	}
	var left int
	if err := db.SQL().QueryRowContext(ctx, `SELECT count(*) FROM "t"`).Scan(&left); err != nil || left != 1 {
		t.Errorf("%d rows left (%v), want the one of the third day", left, err)
	}
}

// A row no partition takes is known whatever language the server writes
// its messages in; a check constraint's refusal, of the same SQLSTATE, is
// not it.
func TestMissingKnowsTheRefusalOfARowNoPartitionTakes(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&pq.Error{Code: "23514", Routine: "ExecFindPartition", Message: `no partition of relation "t" found for row`}, true},
		{fmt.Errorf("inserting: %w", &pq.Error{Code: "23514", Routine: "ExecFindPartition", Message: `aucune partition de la relation « t » trouvée pour la ligne`}), true},
		{&pq.Error{Code: "23514", Routine: "ExecConstraints", Message: `new row for relation "t" violates check constraint "c"`}, false},
		{&pq.Error{Code: "23505", Routine: "_bt_check_unique", Message: "duplicate key value violates unique constraint"}, false},
		{nil, false},
	} {
		if got := dayparts.Missing(c.err); got != c.want {
			t.Errorf("Missing(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
