package database_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/decisionrecord"
	"github.com/verdict/verdict/internal/dbtest"
)

// beforePartitionedDecisions is the version just before the migration that
// partitions decision_records by day on PostgreSQL (20261127112000).
const beforePartitionedDecisions = 20261127112000 - 1

func TestMigratingKeepsTheDecisionRecordsInPartitionsOfTheirDays(t *testing.T) {
	dbtest.EachEmpty(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		migrateUpTo(ctx, t, db, beforePartitionedDecisions)
		f := newFixture(ctx, t, db)
		// A published version run by a user and a draft run by a key, on
		// two days; times in UTC, as the writer stores them.
		at := []time.Time{
			time.Date(2026, 11, 20, 23, 59, 59, 999999000, time.UTC),
			time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC),
		}
		version := 3
		var want []*ent.DecisionRecord
		for i, a := range at {
			c := f.client.DecisionRecord.Create().SetID(uuid.New()).SetOrganizationID(f.org.ID).
				SetKind(decisionrecord.KindPolicy).SetBaseID(f.base.ID).SetRecordID(uuid.New()).SetRevision(i + 1).
				SetAt(a).SetResult(i == 0).SetExplanation("explained").SetDurationNs(int64(1000 + i)).
				SetActorKind(decisionrecord.ActorKindUser).SetActorID(f.user.ID).SetInput(`{"Person":{"age":70}}`)
			if i == 0 {
				c.SetVersion(version)
			} else {
				c.SetActorKind(decisionrecord.ActorKindKey)
			}
			want = append(want, c.SaveX(ctx))
		}

		if _, err := database.Migrate(ctx, db); err != nil {
			t.Fatalf("migrating: %v", err)
		}
		got, err := f.client.DecisionRecord.Query().Order(decisionrecord.ByAt()).All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%d records after migrating, want %d", len(got), len(want))
		}
		for i := range want {
			g, w := *got[i], *want[i]
			g.At, w.At = g.At.UTC(), w.At.UTC()
			if g.String() != w.String() {
				t.Errorf("record %d after migrating:\n%v\nwant\n%v", i, g.String(), w.String())
			}
			if r, err := f.client.DecisionRecord.Get(ctx, w.ID); err != nil || r.Input != w.Input {
				t.Errorf("the record %s is not found by its id: %v", w.ID, err)
			}
		}
		if db.Dialect() != "postgres" {
			return
		}
		if parts := partitionsOf(ctx, t, db, "decision_records"); !slices.Equal(parts, []string{"decision_records_20261120", "decision_records_20261121"}) {
			t.Errorf("partitions %v, want one for each day", parts)
		}
		// A record of a day without a partition is refused by the table,
		// which the writer answers by creating the partition: the function
		// is there.
		if _, err := db.SQL().ExecContext(ctx, "SELECT decision_records_partition('2026-11-22')"); err != nil {
			t.Fatal(err)
		}
		if parts := partitionsOf(ctx, t, db, "decision_records"); len(parts) != 3 {
			t.Errorf("partitions %v after creating a third", parts)
		}
	})
}

func partitionsOf(ctx context.Context, t *testing.T, db *database.DB, table string) []string {
	t.Helper()
	rows, err := db.SQL().QueryContext(ctx, `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		WHERE i.inhparent = $1::regclass ORDER BY c.relname`, table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return names
}

// The ent schema leaves decision_records out of the generated migrations
// (a partitioned table's keys are more than ent describes): its columns
// are checked here instead.
func TestTheDecisionTableHasTheColumnsOfTheEntSchema(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		rows, err := db.SQL().QueryContext(context.Background(), "SELECT * FROM decision_records WHERE 1 = 0")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(cols)
		want := slices.Sorted(slices.Values(decisionrecord.Columns))
		if !slices.Equal(cols, want) {
			t.Errorf("decision_records has the columns %v, the ent schema %v", cols, want)
		}
		if db.Dialect() != "postgres" {
			return
		}
		var kind string
		var key []string
		if err := db.SQL().QueryRow(`SELECT c.relkind::text FROM pg_class c WHERE c.oid = 'decision_records'::regclass`).Scan(&kind); err != nil || kind != "p" {
			t.Errorf("decision_records is of kind %q (%v), want a partitioned table", kind, err)
		}
		keyRows, err := db.SQL().Query(`SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
			WHERE i.indrelid = 'decision_records'::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)`)
		if err != nil {
			t.Fatal(err)
		}
		defer keyRows.Close()
		for keyRows.Next() {
			var c string
			if err := keyRows.Scan(&c); err != nil {
				t.Fatal(err)
			}
			key = append(key, c)
		}
		if !slices.Equal(key, []string{"id", "at"}) {
			t.Errorf("the primary key is %v, want (id, at)", key)
		}
	})
}
