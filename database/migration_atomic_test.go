package database_test

import (
	"context"
	"testing"

	"entgo.io/ent/dialect"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
)

// decisionRecordsMigration is, per dialect, the migration that adds the
// decision record settings to bases (on SQLite by rebuilding the table)
// and creates decision_records.
var decisionRecordsMigration = map[string]int64{dialect.SQLite: 20261127080716, dialect.Postgres: 20261127080718}

func TestAMigrationThatFailsLeavesTheDatabaseAsItWas(t *testing.T) {
	dbtest.EachEmpty(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		version := decisionRecordsMigration[db.Dialect()]
		migrateUpTo(ctx, t, db, version-1)
		before := dbVersion(ctx, t, db)
		// A base with a record, which references it: the rebuild of bases
		// must keep both.
		for _, q := range []string{
			`INSERT INTO organizations (id, created_at, name) VALUES ('0193a000-0000-7000-8000-000000000001', '2026-11-20 10:00:00', 'Acme')`,
			`INSERT INTO bases (id, created_at, updated_at, kind, name, owner_kind, owner_id, created_by, organization_id) VALUES
			 ('0193a000-0000-7000-8000-000000000002', '2026-11-20 10:00:00', '2026-11-20 10:00:00', 'policy', 'Senior discount', 'user',
			  '0193a000-0000-7000-8000-000000000003', '0193a000-0000-7000-8000-000000000003', '0193a000-0000-7000-8000-000000000001')`,
			`INSERT INTO records (id, created_at, updated_at, kind, status, name, created_by, base_id, organization_id) VALUES
			 ('0193a000-0000-7000-8000-000000000004', '2026-11-20 10:00:00', '2026-11-20 10:00:00', 'policy', 'draft', 'Senior discount',
			  '0193a000-0000-7000-8000-000000000003', '0193a000-0000-7000-8000-000000000002', '0193a000-0000-7000-8000-000000000001')`,
			// What the migration creates after it has changed bases: it fails there.
			`CREATE TABLE decision_records (id integer)`,
		} {
			if _, err := db.SQL().ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}

		if _, err := database.Migrate(ctx, db); err == nil {
			t.Fatal("migrating over a table in the way succeeded")
		}
		if got := dbVersion(ctx, t, db); got != before {
			t.Errorf("version %d after the failed migration, want %d", got, before)
		}
		if _, err := db.SQL().ExecContext(ctx, `SELECT decisions_enabled FROM bases`); err == nil {
			t.Error("bases has the failed migration's column")
		}
		if db.Dialect() == dialect.SQLite {
			var copies int
			if err := db.SQL().QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE name = 'new_bases'`).Scan(&copies); err != nil || copies != 0 {
				t.Errorf("the failed migration's copy of bases is left (%d, %v)", copies, err)
			}
		}

		if _, err := db.SQL().ExecContext(ctx, `DROP TABLE decision_records`); err != nil {
			t.Fatal(err)
		}
		if _, err := database.Migrate(ctx, db); err != nil {
			t.Fatalf("migrating once the table is out of the way: %v", err)
		}
		var enabled bool
		if err := db.SQL().QueryRowContext(ctx, `SELECT decisions_enabled FROM bases WHERE id = '0193a000-0000-7000-8000-000000000002'`).Scan(&enabled); err != nil || enabled {
			t.Errorf("the base after migrating: decisions_enabled %v, %v", enabled, err)
		}
		var records int
		if err := db.SQL().QueryRowContext(ctx, `SELECT count(*) FROM records WHERE base_id = '0193a000-0000-7000-8000-000000000002'`).Scan(&records); err != nil || records != 1 {
			t.Errorf("the base's records after migrating: %d, %v", records, err)
		}
	})
}

func dbVersion(ctx context.Context, t *testing.T, db *database.DB) int64 {
	t.Helper()
	var v int64
	if err := db.SQL().QueryRowContext(ctx, `SELECT max(version_id) FROM goose_db_version WHERE is_applied`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}
