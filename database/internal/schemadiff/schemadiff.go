// Package schemadiff computes the migration that takes a database to the
// current ent schema. The migration generator writes what it finds; a test
// asserts that a migrated database needs nothing, so a schema change without
// its migration fails CI.
package schemadiff

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"ariga.io/atlas/sql/postgres"
	atlas "ariga.io/atlas/sql/schema"
	"ariga.io/atlas/sql/sqltool"
	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/schema"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/migrate"
)

// Migration is one goose migration file.
type Migration struct {
	Name string // file name, version first
	SQL  string
}

// Next inspects db and returns the migration from its schema to ent's, or nil
// when the two already agree. Dropped columns and indexes count as changes:
// the database must match the schema, not merely contain it.
//
// dev is an empty database of the same dialect, left empty again afterwards.
// On PostgreSQL the ent schema is created there and read back before
// comparing, because the server reports some definitions differently from how
// they were written:
// PostgreSQL returns the partial index predicate status = 'draft' as
// ((status)::text = 'draft'::text), which would otherwise read as a change.
func Next(ctx context.Context, db, dev *database.DB, name string) (*Migration, error) {
	if db.Dialect() != dev.Dialect() {
		return nil, fmt.Errorf("dev database is %s, not %s", dev.Dialect(), db.Dialect())
	}
	hooks, err := diffHooks(ctx, dev)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "verdict-schemadiff-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	dir, err := sqltool.NewGooseDir(tmp)
	if err != nil {
		return nil, err
	}
	m, err := schema.NewMigrate(entsql.OpenDB(db.Dialect(), db.SQL()),
		schema.WithDir(dir),
		schema.WithMigrationMode(schema.ModeInspect),
		schema.WithDropColumn(true),
		schema.WithDropIndex(true),
		schema.WithDiffHook(hooks...),
	)
	if err != nil {
		return nil, err
	}
	if err := m.NamedDiff(ctx, name, migrate.Tables...); err != nil {
		return nil, fmt.Errorf("diffing the ent schema against the database: %w", err)
	}
	files, err := filepath.Glob(filepath.Join(tmp, "*.sql"))
	if err != nil || len(files) == 0 {
		return nil, err
	}
	if len(files) > 1 {
		return nil, fmt.Errorf("expected one migration file, got %d", len(files))
	}
	text, err := os.ReadFile(files[0])
	if err != nil {
		return nil, err
	}
	return &Migration{Name: filepath.Base(files[0]), SQL: gooseReady(db.Dialect(), string(text))}, nil
}

// diffHooks normalizes on dev where Atlas can: SQLite keeps definitions as
// they were written, and Atlas has no normalizer for it.
func diffHooks(ctx context.Context, dev *database.DB) ([]schema.DiffHook, error) {
	if dev.Dialect() != dialect.Postgres {
		return nil, nil
	}
	drv, err := postgres.Open(dev.SQL())
	if err != nil {
		return nil, err
	}
	normalizer, ok := drv.(atlas.Normalizer)
	if !ok {
		return nil, errors.New("atlas cannot normalize postgres schemas")
	}
	return []schema.DiffHook{normalizing(ctx, normalizer)}, nil
}

// normalizing replaces the desired schema, as ent describes it, with what the
// dev database makes of it.
func normalizing(ctx context.Context, dev atlas.Normalizer) schema.DiffHook {
	return func(next schema.Differ) schema.Differ {
		return schema.DiffFunc(func(current, desired *atlas.Schema) ([]atlas.Change, error) {
			normal, err := dev.NormalizeSchema(ctx, desired)
			if err != nil {
				return nil, fmt.Errorf("normalizing the ent schema on the dev database: %w", err)
			}
			return next.Diff(current, normal)
		})
	}
}

// gooseReady leaves out of SQLite table rebuilds the PRAGMAs that switch
// foreign keys off and on around them: every migration runs in a
// transaction, where SQLite ignores those PRAGMAs, on a connection that has
// foreign keys off already (see database.Migrate).
func gooseReady(dialectName, text string) string {
	if dialectName != dialect.SQLite {
		return text
	}
	return foreignKeysSwitch.Replace(text)
}

var foreignKeysSwitch = strings.NewReplacer(
	"-- disable the enforcement of foreign-keys constraints\nPRAGMA foreign_keys = off;\n", "",
	"-- enable back the enforcement of foreign-keys constraints\nPRAGMA foreign_keys = on;\n", "",
)
