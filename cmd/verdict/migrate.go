package main

import (
	"fmt"

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
or a migration fails, 3 on bad usage and on a database a newer release of
Verdict migrated.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// An interrupt ends a wait for another instance's migration;
			// a migration under way runs to its end (see database.Migrate).
			ctx, stop := untilStopped(cmd.Context())
			defer stop()
			dbURL := resolveDatabaseURL(dbURL)
			// A migration may rebuild a large table: no statement time limit.
			db, err := openDatabase(ctx, dbURL, database.WithIOTimeout(0))
			if err != nil {
				return err
			}
			defer db.Close()
			m, err := database.Migrate(ctx, db, database.WhileWaiting(func() {
				fmt.Fprintf(cmd.ErrOrStderr(), "waiting for another instance to finish migrating %s...\n", displayURL(dbURL))
			}))
			if err != nil {
				return migrationFailure(dbURL, err)
			}
			out := cmd.OutOrStdout()
			for _, name := range m.Applied {
				fmt.Fprintf(out, "applied %s\n", name)
			}
			if len(m.Applied) == 0 {
				fmt.Fprintf(out, "%s is up to date at version %d; nothing to apply\n", displayURL(dbURL), m.Version)
			} else {
				fmt.Fprintf(out, "%s is up to date at version %d\n", displayURL(dbURL), m.Version)
			}
			return nil
		},
	}
	addDatabaseURLFlag(cmd.Flags(), &dbURL)
	return cmd
}
