package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
)

func TestMigrate(t *testing.T) {
	eachDatabaseURL(t, func(t *testing.T, dbURL string) {
		code, stdout, stderr := runVerdict(t, "", "migrate", "--database-url", dbURL)
		if code != 0 || stderr != "" {
			t.Fatalf("first migrate: exit %d, stderr %q", code, stderr)
		}
		applied := regexp.MustCompile(`(?m)^applied \d+_\w+\.sql$`).FindAllString(stdout, -1)
		if len(applied) == 0 {
			t.Errorf("first migrate names no applied migration:\n%s", stdout)
		}
		if !strings.Contains(stdout, "is up to date at version ") {
			t.Errorf("first migrate does not report the version:\n%s", stdout)
		}
		db := openTestDatabase(t, dbURL)
		if pending, err := database.Pending(context.Background(), db); err != nil || pending {
			t.Fatalf("after migrate: pending %v, %v", pending, err)
		}

		code, stdout, stderr = runVerdict(t, "", "migrate", "--database-url", dbURL)
		if code != 0 || stderr != "" {
			t.Fatalf("second migrate: exit %d, stderr %q", code, stderr)
		}
		if strings.Contains(stdout, "applied") || !strings.Contains(stdout, "nothing to apply") {
			t.Errorf("second migrate should apply nothing:\n%s", stdout)
		}
	})
}

// A binary older than the database's schema refuses it rather than serve
// a schema it does not know.
func TestCommandsRefuseADatabaseANewerReleaseMigrated(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	eachMigratedDatabaseURL(t, func(t *testing.T, dbURL string) {
		db := openTestDatabase(t, dbURL)
		ctx := context.Background()
		known, err := database.Migrate(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		const newer = 29991231235959
		if _, err := db.SQL().ExecContext(ctx, "INSERT INTO goose_db_version (version_id, is_applied) VALUES ($1, TRUE)", newer); err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("verdict: %s: database: the database is at version %d and holds migrations this binary does not know (its newest is %d): "+
			"a newer release of Verdict migrated it; run that release\n", dbURL, newer, known.Version)
		for _, args := range [][]string{
			{"migrate"},
			{"serve", "--addr", "127.0.0.1:0"},
			{"serve", "--addr", "127.0.0.1:0", "--no-migrate"},
			{"admin", "org", "list"},
			{"admin", "bootstrap", "--org", "Acme", "--email", "a@acme.test"},
		} {
			code, stdout, stderr := runVerdict(t, "", append(args, "--database-url", dbURL)...)
			if code != exitUsage || stdout != "" || stderr != want {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", args, code, stdout, stderr, exitUsage, want)
			}
		}
	})
}

func TestMigrateNeverPrintsThePassword(t *testing.T) {
	for _, dbURL := range []string{
		"postgres://verdict:s3cret@127.0.0.1:1/verdict?sslmode=disable&connect_timeout=2",
		"postgres://verdict@127.0.0.1:1/verdict?sslmode=disable&password=s3cret&connect_timeout=2",
	} {
		code, stdout, stderr := runVerdict(t, "", "migrate", "--database-url", dbURL)
		if code != exitFailure {
			t.Fatalf("exit %d, want %d", code, exitFailure)
		}
		if strings.Contains(stdout+stderr, "s3cret") {
			t.Errorf("the password is printed: %q", stderr)
		}
		if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "verdict: "+displayURL(dbURL)+": ") || !strings.Contains(stderr, "127.0.0.1:1") {
			t.Errorf("want one line naming the database, got %q", stderr)
		}
	}
}

func TestDisplayURLHidesPasswords(t *testing.T) {
	tests := []struct{ url, want string }{
		{"sqlite://verdict.db", "sqlite://verdict.db"},
		{"postgres://verdict@db:5432/verdict?sslmode=disable", "postgres://verdict@db:5432/verdict?sslmode=disable"},
		{"postgres://verdict:s3cret@db:5432/verdict?sslmode=disable", "postgres://verdict:***@db:5432/verdict?sslmode=disable"},
		{"postgres://ann%40corp:p%40ss@db/verdict", "postgres://ann%40corp:***@db/verdict"},
		{"postgres://verdict:@db/verdict", "postgres://verdict:***@db/verdict"},
		{"postgres://db/verdict?user=verdict&password=s3cret&sslmode=disable", "postgres://db/verdict?user=verdict&password=***&sslmode=disable"},
		{"postgres://db/verdict?pass%77ord=s3cret", "postgres://db/verdict?pass%77ord=***"},
		{"postgres:///verdict?host=/run/postgresql&password=s3cret", "postgres:///verdict?host=/run/postgresql&password=***"},
		// An unescaped #, / or ? in a password makes url.Parse read its
		// beginning as a port.
		{"postgres://verdict:12#34@db/verdict", "(URL not shown: a password in it must escape #, / and ? as %23, %2F and %3F)"},
		{"postgres://verdict:12/34@db/verdict", "(URL not shown: a password in it must escape #, / and ? as %23, %2F and %3F)"},
		{"postgres://verdict:12?34@db/verdict", "(URL not shown: a password in it must escape #, / and ? as %23, %2F and %3F)"},
		{"postgres://db/verdict?user=ann@corp.test", "postgres://db/verdict?user=ann@corp.test"},
		{"postgres://verdict:s3cret@db:port/verdict", "(unparsable URL)"},
		// No scheme: not shown with one made up, nor as typed.
		{"/tmp/v.db", "(not a URL)"},
		{"s3cret", "(not a URL)"},
	}
	for _, tt := range tests {
		if got := displayURL(tt.url); got != tt.want {
			t.Errorf("displayURL(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}

func TestDisplayOPAURLHidesEveryQueryValue(t *testing.T) {
	tests := []struct{ url, want string }{
		{"http://opa:8181", "http://opa:8181"},
		{"https://ann:s3cret@opa/prefix/?token=T0K3N&region=eu&flag", "https://ann:***@opa/prefix/?token=***&region=***&flag"},
	}
	for _, tt := range tests {
		if got := displayOPAURL(tt.url); got != tt.want {
			t.Errorf("displayOPAURL(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}

func TestDatabaseURLResolution(t *testing.T) {
	t.Run("the flag comes first", func(t *testing.T) {
		t.Setenv(envDatabaseURL, "sqlite://env.db")
		if got := resolveDatabaseURL("sqlite://flag.db"); got != "sqlite://flag.db" {
			t.Errorf("got %q", got)
		}
	})
	t.Run("DATABASE_URL comes next", func(t *testing.T) {
		t.Setenv(envDatabaseURL, "sqlite://env.db")
		if got := resolveDatabaseURL(""); got != "sqlite://env.db" {
			t.Errorf("got %q", got)
		}
	})
	t.Run("the default is last", func(t *testing.T) {
		t.Setenv(envDatabaseURL, "")
		if got := resolveDatabaseURL(""); got != database.DefaultURL {
			t.Errorf("got %q", got)
		}
	})
	t.Run("migrate uses DATABASE_URL", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "env.db")
		t.Setenv(envDatabaseURL, "sqlite://"+path)
		if code, _, stderr := runVerdict(t, "", "migrate"); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if _, err := os.Stat(path); err != nil {
			t.Errorf("the database named by DATABASE_URL was not created: %v", err)
		}
	})
	t.Run("migrate defaults to verdict.db in the working directory", func(t *testing.T) {
		dir := t.TempDir()
		t.Chdir(dir)
		t.Setenv(envDatabaseURL, "")
		if code, _, stderr := runVerdict(t, "", "migrate"); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "verdict.db")); err != nil {
			t.Errorf("verdict.db was not created in the working directory: %v", err)
		}
	})
	t.Run("an unknown scheme is bad usage", func(t *testing.T) {
		code, _, stderr := runVerdict(t, "", "migrate", "--database-url", "mysql://localhost/verdict")
		if code != exitUsage || !strings.Contains(stderr, "sqlite://") {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
	})
}
