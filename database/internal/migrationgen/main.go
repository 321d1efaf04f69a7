// Command migrationgen writes the goose migration that takes the database
// schema from the committed migrations to the current ent schema, for SQLite
// and PostgreSQL. Run it from the module root after changing ent/schema and
// regenerating ent:
//
//	go run ./database/internal/migrationgen -name add_something
//
// Each dialect is diffed on throwaway databases: SQLite in memory, PostgreSQL
// databases created and dropped on the server named by
// VERDICT_TEST_POSTGRES_URL (see .ci/postgres). The committed migrations are
// applied first, so the new file holds only what changed.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"log"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/google/uuid"
	_ "github.com/lib/pq"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/database/internal/schemadiff"
)

func main() {
	name := flag.String("name", "changes", "what the migration does, in snake_case; ends up in the file name")
	dir := flag.String("dir", "database", "the database package directory, which holds migrations/")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	admin := os.Getenv("VERDICT_TEST_POSTGRES_URL")
	if admin == "" {
		log.Fatal("VERDICT_TEST_POSTGRES_URL is not set: source .ci/postgres first")
	}
	if err := generate(ctx, "sqlite://:memory:", "sqlite://:memory:", *dir, *name); err != nil {
		log.Fatalf("sqlite: %v", err)
	}
	if err := generatePostgres(ctx, admin, *dir, *name); err != nil {
		log.Fatalf("postgres: %v", err)
	}
}

// generatePostgres diffs on two databases of its own, created for the run:
// one migrated, one left empty for schemadiff to normalize on.
func generatePostgres(ctx context.Context, admin, dir, name string) (err error) {
	pool, err := sql.Open("postgres", admin)
	if err != nil {
		return err
	}
	defer pool.Close()
	var urls []string
	for range 2 {
		dbName := "verdict_migrationgen_" + uuid.NewString()[:8]
		if _, err := pool.ExecContext(ctx, "CREATE DATABASE "+dbName); err != nil {
			return err
		}
		defer func() {
			if _, dropErr := pool.ExecContext(ctx, "DROP DATABASE "+dbName+" WITH (FORCE)"); err == nil {
				err = dropErr
			}
		}()
		u, err := url.Parse(admin)
		if err != nil {
			return err
		}
		u.Path = "/" + dbName
		urls = append(urls, u.String())
	}
	return generate(ctx, urls[0], urls[1], dir, name)
}

func generate(ctx context.Context, targetURL, devURL, dir, name string) error {
	target, err := database.Open(ctx, targetURL)
	if err != nil {
		return err
	}
	defer target.Close()
	dev, err := database.Open(ctx, devURL)
	if err != nil {
		return err
	}
	defer dev.Close()
	if _, err := database.Migrate(ctx, target); err != nil {
		return err
	}
	m, err := schemadiff.Next(ctx, target, dev, name)
	if err != nil {
		return err
	}
	if m == nil {
		fmt.Printf("%s: no changes\n", target.Dialect())
		return nil
	}
	path := filepath.Join(dir, database.MigrationsDir(target.Dialect()), m.Name)
	if err := os.WriteFile(path, []byte(m.SQL), 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: wrote %s\n", target.Dialect(), path)
	return nil
}
