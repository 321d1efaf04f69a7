package main

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect"
	"github.com/pressly/goose/v3"
	"github.com/spf13/cobra"

	"github.com/verdict/verdict/database"
)

func newMigrateCommand() *cobra.Command {
	var dbURL string
	cmd := &cobra.Command{
		Use:   "migrate [--database-url URL]",
		Short: "Apply the database migrations that are pending",
		Long: `Apply the database migrations that are pending and print which ones were
applied. On an up-to-date database it changes nothing. PostgreSQL replicas
may run it at the same time: they migrate one after the other.

The database is --database-url, else $DATABASE_URL, else ` + database.DefaultURL + `.

Exit status: 0 when the database is up to date, 1 when it cannot be reached
or a migration fails, 3 on bad usage.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			dbURL := resolveDatabaseURL(dbURL)
			db, err := openDatabase(ctx, dbURL)
			if err != nil {
				return err
			}
			defer db.Close()
			m, err := migrate(ctx, db)
			if err != nil {
				return failuref("%s: %v", displayURL(dbURL), err)
			}
			out := cmd.OutOrStdout()
			for _, name := range m.applied {
				fmt.Fprintf(out, "applied %s\n", name)
			}
			if len(m.applied) == 0 {
				fmt.Fprintf(out, "%s is up to date at version %d; nothing to apply\n", displayURL(dbURL), m.version)
			} else {
				fmt.Fprintf(out, "%s is up to date at version %d\n", displayURL(dbURL), m.version)
			}
			return nil
		},
	}
	addDatabaseURLFlag(cmd.Flags(), &dbURL)
	return cmd
}

// migration is what migrate did: the files it applied, oldest first, and
// the version the database is at now.
type migration struct {
	applied []string
	version int64
}

// migrate applies the pending migrations with database.Migrate and tells
// which ones they were.
func migrate(ctx context.Context, db *database.DB) (migration, error) {
	before, err := migrationStatus(ctx, db)
	if err != nil {
		return migration{}, err
	}
	if err := database.Migrate(ctx, db); err != nil {
		return migration{}, err
	}
	after, err := migrationStatus(ctx, db)
	if err != nil {
		return migration{}, err
	}
	var m migration
	for i, st := range after {
		if st.State != goose.StateApplied {
			continue
		}
		m.version = max(m.version, st.Source.Version)
		if before[i].State == goose.StatePending {
			m.applied = append(m.applied, st.Source.Path)
		}
	}
	return m, nil
}

// migrationStatus lists the migrations database.Migrate applies, in order,
// each applied or pending.
func migrationStatus(ctx context.Context, db *database.DB) ([]*goose.MigrationStatus, error) {
	gooseDialect := goose.DialectSQLite3
	if db.Dialect() == dialect.Postgres {
		gooseDialect = goose.DialectPostgres
	}
	p, err := goose.NewProvider(gooseDialect, db.SQL(), database.Migrations(db.Dialect()))
	if err != nil {
		return nil, fmt.Errorf("loading migrations: %w", err)
	}
	st, err := p.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading migration status: %w", err)
	}
	return st, nil
}
