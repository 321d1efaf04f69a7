package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/apikey"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/membership"
	"github.com/verdict/verdict/ent/organization"
	"github.com/verdict/verdict/ent/user"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/internal/faultproxy"
)

// stored is every row the admin commands write, read back with the ent
// client, oldest first.
type stored struct {
	orgs    []*ent.Organization
	users   []*ent.User
	members []*ent.Membership
	keys    []*ent.APIKey
	// events, in the order they were written, as operatorEvent shows them.
	events []string
}

func readStored(t *testing.T, db *database.DB) stored {
	t.Helper()
	ctx := context.Background()
	c := db.Client()
	var s stored
	var err error
	if s.orgs, err = c.Organization.Query().Order(ent.Asc(organization.FieldCreatedAt), ent.Asc(organization.FieldID)).All(ctx); err != nil {
		t.Fatal(err)
	}
	if s.users, err = c.User.Query().Order(ent.Asc(user.FieldCreatedAt), ent.Asc(user.FieldID)).All(ctx); err != nil {
		t.Fatal(err)
	}
	if s.members, err = c.Membership.Query().Order(ent.Asc(membership.FieldCreatedAt), ent.Asc(membership.FieldID)).All(ctx); err != nil {
		t.Fatal(err)
	}
	if s.keys, err = c.APIKey.Query().Order(ent.Asc(apikey.FieldCreatedAt), ent.Asc(apikey.FieldID)).All(ctx); err != nil {
		t.Fatal(err)
	}
	events, err := c.AuditEvent.Query().Order(ent.Asc(auditevent.FieldAt), ent.Asc(auditevent.FieldID)).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range events {
		details, err := json.Marshal(ev.Details)
		if err != nil {
			t.Fatal(err)
		}
		s.events = append(s.events, fmt.Sprintf("%s %s in %s by %s %s: %s",
			ev.Action, ev.Kind, ev.OrganizationID, ev.ActorKind, ev.ActorID, details))
	}
	return s
}

// operatorEvent is an audit event of the operator's as stored shows it:
// an `edited` event of kind member or key in org, with details as the
// API's change of the same writes.
func operatorEvent(t *testing.T, kind string, org uuid.UUID, details map[string]any) string {
	t.Helper()
	// The details as they are stored and read back: JSON, with ids and
	// times as strings.
	raw, err := json.Marshal(details)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if raw, err = json.Marshal(back); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("edited %s in %s by operator %s: %s", kind, org, uuid.Nil, raw)
}

// memberAdded, roleChanged, memberRemoved, keyCreated and keyRevoked are
// the operator's events of each change.
func memberAdded(t *testing.T, org uuid.UUID, u *ent.User, role string) string {
	return operatorEvent(t, "member", org, map[string]any{"change": "added", "userId": u.ID, "email": u.Email, "role": role})
}

func roleChanged(t *testing.T, org uuid.UUID, u *ent.User, from, to string) string {
	return operatorEvent(t, "member", org, map[string]any{"change": "role", "userId": u.ID, "email": u.Email, "from": from, "to": to})
}

func memberRemoved(t *testing.T, org uuid.UUID, u *ent.User, role string, keysRevoked int) string {
	return operatorEvent(t, "member", org, map[string]any{"change": "removed", "userId": u.ID, "email": u.Email, "role": role, "keysRevoked": keysRevoked})
}

func keyCreated(t *testing.T, k *ent.APIKey) string {
	owner := map[string]any{"kind": "organization", "id": k.OrganizationID}
	if k.UserID != nil {
		owner = map[string]any{"kind": "user", "id": *k.UserID}
	}
	var expires any
	if k.ExpiresAt != nil {
		expires = k.ExpiresAt.UTC()
	}
	return operatorEvent(t, "key", k.OrganizationID, map[string]any{"change": "created", "keyId": k.ID, "name": k.Name,
		"scope": k.Scope, "owner": owner, "expiresAt": expires})
}

// newEvents are the events after holds beyond before's, which it must
// extend.
func newEvents(t *testing.T, before, after stored) []string {
	t.Helper()
	if len(after.events) < len(before.events) || !slices.Equal(after.events[:len(before.events)], before.events) {
		t.Fatalf("stored events changed:\n%s\nwere\n%s", strings.Join(after.events, "\n"), strings.Join(before.events, "\n"))
	}
	return after.events[len(before.events):]
}

func keyRevoked(t *testing.T, k *ent.APIKey) string {
	return operatorEvent(t, "key", k.OrganizationID, map[string]any{"change": "revoked", "keyId": k.ID, "name": k.Name})
}

// rows is the stored state as comparable text, one line a row.
func (s stored) rows() []string {
	var out []string
	for _, o := range s.orgs {
		out = append(out, fmt.Sprintf("org %s %q", o.ID, o.Name))
	}
	for _, u := range s.users {
		out = append(out, fmt.Sprintf("user %s %q %q", u.ID, u.Email, u.Name))
	}
	for _, m := range s.members {
		out = append(out, fmt.Sprintf("member %s %s %s", m.UserID, m.OrganizationID, m.Role))
	}
	for _, k := range s.keys {
		out = append(out, fmt.Sprintf("key %s org=%s owner=%s user=%v name=%q scope=%s prefix=%s hash=%s expires=%v revoked=%v",
			k.ID, k.OrganizationID, k.OwnerKind, k.UserID, k.Name, k.Scope, k.Prefix, k.Hash, k.ExpiresAt, k.RevokedAt))
	}
	return out
}

func (s stored) org(t *testing.T, name string) *ent.Organization {
	t.Helper()
	for _, o := range s.orgs {
		if o.Name == name {
			return o
		}
	}
	t.Fatalf("no organization %q stored", name)
	return nil
}

func (s stored) user(t *testing.T, email string) *ent.User {
	t.Helper()
	for _, u := range s.users {
		if u.Email == email {
			return u
		}
	}
	t.Fatalf("no user %q stored", email)
	return nil
}

func (s stored) role(userID, orgID uuid.UUID) string {
	for _, m := range s.members {
		if m.UserID == userID && m.OrganizationID == orgID {
			return string(m.Role)
		}
	}
	return ""
}

func (s stored) key(t *testing.T, id uuid.UUID) *ent.APIKey {
	t.Helper()
	for _, k := range s.keys {
		if k.ID == id {
			return k
		}
	}
	t.Fatalf("no key %s stored", id)
	return nil
}

// newRows is what after holds beyond before, which it must extend.
func newRows(t *testing.T, before, after stored) []string {
	t.Helper()
	var added []string
	for _, r := range after.rows() {
		if !slices.Contains(before.rows(), r) {
			added = append(added, r)
		}
	}
	return added
}

var secretLine = regexp.MustCompile(`(?m)^    (\S+)$`)

// printedSecret is the secret a text output shows, checked to appear in
// the output exactly once and never on standard error.
func printedSecret(t *testing.T, stdout, stderr string) string {
	t.Helper()
	m := secretLine.FindAllStringSubmatch(stdout, -1)
	if len(m) != 1 {
		t.Fatalf("want one secret line in the output, found %d:\n%s", len(m), stdout)
	}
	secret := m[0][1]
	checkSecretShownOnce(t, secret, stdout, stderr)
	return secret
}

func checkSecretShownOnce(t *testing.T, secret, stdout, stderr string) {
	t.Helper()
	if n := strings.Count(stdout, secret); n != 1 {
		t.Errorf("the secret appears %d times in the output, want once", n)
	}
	if strings.Contains(stderr, secret) {
		t.Errorf("the secret appears on standard error")
	}
}

// checkStoredAsHash checks that key is stored for secret as its SHA-256 and
// visible prefix, and that no column of any key row holds the secret.
func checkStoredAsHash(t *testing.T, db *database.DB, k *ent.APIKey, secret string) {
	t.Helper()
	sum := sha256.Sum256([]byte(secret))
	if k.Hash != hex.EncodeToString(sum[:]) {
		t.Errorf("stored hash %s is not the SHA-256 of the printed secret", k.Hash)
	}
	if !strings.HasPrefix(secret, k.Prefix) || len(k.Prefix) >= len(secret) {
		t.Errorf("stored prefix %q is not a proper prefix of the secret", k.Prefix)
	}
	rows, err := db.SQL().QueryContext(context.Background(), "SELECT * FROM api_keys")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			if strings.Contains(fmt.Sprint(v), secret) {
				t.Errorf("column %s of api_keys holds the secret", cols[i])
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

// A key bootstrap would refuse is refused before the database is opened,
// as serve's --bootstrap-key is: a fresh database is neither created nor
// migrated for a bootstrap that cannot happen.
func TestAdminBootstrapRefusesAShortKeyBeforeOpeningTheDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v.db")
	for _, key := range []string{"short", " a-key-chosen-by-the-operator-0123456789"} {
		code, stdout, stderr := runVerdict(t, "", "admin", "bootstrap", "--org", "Acme", "--email", "admin@acme.test",
			"--key", key, "--database-url", "sqlite://"+path)
		want := "verdict: --key: a key must be at least 32 characters without surrounding spaces\n"
		if code != exitUsage || stdout != "" || stderr != want {
			t.Errorf("bootstrap --key %q = %d %q %q, want %d and %q", key, code, stdout, stderr, exitUsage, want)
		}
		if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("bootstrap --key %q created the database: %v", key, err)
		}
	}
}

func TestAdminBootstrap(t *testing.T) {
	eachDatabaseURL(t, func(t *testing.T, dbURL string) {
		admin := func(args ...string) (int, string, string) {
			return runVerdict(t, "", append(append([]string{"admin"}, args...), "--database-url", dbURL)...)
		}

		// A fresh database: bootstrap migrates it first.
		code, stdout, stderr := admin("bootstrap", "--org", "Acme", "--email", "Admin@Acme.test", "--name", "Ann Admin")
		if code != 0 || stderr != "" {
			t.Fatalf("bootstrap: exit %d, stderr %q", code, stderr)
		}
		if !strings.Contains(stdout, "applied migration ") {
			t.Errorf("bootstrap on a fresh database does not report the migrations it applied:\n%s", stdout)
		}
		secret := printedSecret(t, stdout, stderr)
		if !strings.HasPrefix(secret, "vdk_") {
			t.Errorf("a new key should look like vdk_...: %q", secret)
		}
		db := openTestDatabase(t, dbURL)
		s := readStored(t, db)
		if len(s.orgs) != 1 || len(s.users) != 1 || len(s.members) != 1 || len(s.keys) != 1 {
			t.Fatalf("want one organization, user, membership and key, got:\n%s", strings.Join(s.rows(), "\n"))
		}
		org, u, k := s.orgs[0], s.users[0], s.keys[0]
		if org.Name != "Acme" || u.Email != "admin@acme.test" || u.Name != "Ann Admin" {
			t.Errorf("stored %q, %q, %q", org.Name, u.Email, u.Name)
		}
		if s.role(u.ID, org.ID) != "admin" {
			t.Errorf("the user's role is %q, want admin", s.role(u.ID, org.ID))
		}
		if k.OrganizationID != org.ID || k.OwnerKind != apikey.OwnerKindUser || k.UserID == nil || *k.UserID != u.ID ||
			k.Scope != apikey.ScopeAdmin || k.Name != "bootstrap" || k.ExpiresAt != nil || k.RevokedAt != nil {
			t.Errorf("stored key: %s", s.rows()[3])
		}
		checkStoredAsHash(t, db, k, secret)
		for _, want := range []string{"Acme", org.ID.String(), "admin@acme.test", u.ID.String(), k.Prefix, k.ID.String()} {
			if !strings.Contains(stdout, want) {
				t.Errorf("the output lacks %q:\n%s", want, stdout)
			}
		}

		t.Run("with a given key, for an existing user", func(t *testing.T) {
			before := readStored(t, db)
			given := "a-key-chosen-by-the-operator-0123456789"
			code, stdout, stderr := admin("bootstrap", "--org", "Beta", "--email", "admin@acme.test", "--key", given)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			if strings.Contains(stdout, "applied migration") {
				t.Errorf("a migrated database needs no migration:\n%s", stdout)
			}
			if got := printedSecret(t, stdout, stderr); got != given {
				t.Errorf("printed key %q, want the given one", got)
			}
			after := readStored(t, db)
			beta := after.org(t, "Beta")
			if len(after.users) != 1 || after.role(u.ID, beta.ID) != "admin" || len(after.keys) != 2 {
				t.Fatalf("want the existing user made admin of Beta with a second key; new rows:\n%s",
					strings.Join(newRows(t, before, after), "\n"))
			}
			k := after.keys[1]
			if k.OrganizationID != beta.ID || *k.UserID != u.ID || k.Scope != apikey.ScopeAdmin {
				t.Errorf("stored key: %s", after.rows()[len(after.rows())-1])
			}
			checkStoredAsHash(t, db, k, given)
		})

		failures := []struct {
			name, stderr string
			args         []string
		}{
			{"a taken organization name is a conflict", "exists already",
				[]string{"bootstrap", "--org", "Acme", "--email", "other@acme.test"}},
			{"a key in use is a conflict", "in use",
				[]string{"bootstrap", "--org", "Gamma", "--email", "g@acme.test", "--key", "a-key-chosen-by-the-operator-0123456789"}},
			{"an invalid email is invalid", "not an email address",
				[]string{"bootstrap", "--org", "Gamma", "--email", "nobody"}},
		}
		for _, tt := range failures {
			t.Run(tt.name+" and changes nothing", func(t *testing.T) {
				before := readStored(t, db)
				code, stdout, stderr := admin(tt.args...)
				if code != exitFailure || stdout != "" || !strings.Contains(stderr, tt.stderr) || strings.Count(stderr, "\n") != 1 {
					t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and one line with %q", code, stdout, stderr, tt.stderr)
				}
				if added := newRows(t, before, readStored(t, db)); len(added) > 0 || len(readStored(t, db).rows()) != len(before.rows()) {
					t.Errorf("stored state changed: %v", added)
				}
			})
		}
	})
}

func TestAdminBootstrapJSON(t *testing.T) {
	eachDatabaseURL(t, func(t *testing.T, dbURL string) {
		code, stdout, stderr := runVerdict(t, "", "admin", "bootstrap", "--json", "--org", "Acme", "--email", "admin@acme.test", "--database-url", dbURL)
		if code != 0 || stderr != "" {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		var out struct {
			Organization struct {
				ID   uuid.UUID `json:"id"`
				Name string    `json:"name"`
			} `json:"organization"`
			User struct {
				ID    uuid.UUID `json:"id"`
				Email string    `json:"email"`
			} `json:"user"`
			Key struct {
				ID     uuid.UUID `json:"id"`
				Prefix string    `json:"prefix"`
				Scope  string    `json:"scope"`
				Owner  struct {
					Kind string    `json:"kind"`
					ID   uuid.UUID `json:"id"`
				} `json:"owner"`
			} `json:"key"`
			Secret string `json:"secret"`
		}
		dec := json.NewDecoder(strings.NewReader(stdout))
		var top map[string]json.RawMessage
		if err := dec.Decode(&top); err != nil || dec.More() {
			t.Fatalf("the output is not one JSON document (%v):\n%s", err, stdout)
		}
		if keys := slices.Sorted(maps.Keys(top)); !slices.Equal(keys, []string{"key", "organization", "secret", "user"}) {
			t.Errorf("the output has members %v", keys)
		}
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatal(err)
		}
		checkSecretShownOnce(t, out.Secret, stdout, stderr)
		db := openTestDatabase(t, dbURL)
		s := readStored(t, db)
		k := s.key(t, out.Key.ID)
		if out.Organization.ID != s.org(t, "Acme").ID || out.User.ID != s.user(t, "admin@acme.test").ID ||
			out.Key.Scope != "admin" || out.Key.Owner.Kind != "user" || out.Key.Owner.ID != out.User.ID || out.Key.Prefix != k.Prefix {
			t.Errorf("the output does not describe what was stored:\n%s\n%s", stdout, strings.Join(s.rows(), "\n"))
		}
		checkStoredAsHash(t, db, k, out.Secret)
	})
}

func TestAdminRefusesAnUnmigratedDatabase(t *testing.T) {
	eachDatabaseURL(t, func(t *testing.T, dbURL string) {
		// Opened, the SQLite file exists: an empty database.
		db := openTestDatabase(t, dbURL)
		for _, args := range [][]string{
			{"org", "list"},
			{"org", "create", "--name", "Acme"},
			{"user", "create", "--email", "a@acme.test"},
			{"member", "add", "--org", "Acme", "--email", "a@acme.test", "--role", "viewer"},
			{"member", "list", "--org", "Acme"},
			{"member", "role", "--org", "Acme", "--email", "a@acme.test", "--role", "viewer"},
			{"member", "remove", "--org", "Acme", "--email", "a@acme.test"},
			{"key", "create", "--org", "Acme", "--scope", "view"},
			{"key", "list", "--org", "Acme"},
			{"key", "revoke", "--id", uuid.NewString()},
		} {
			code, stdout, stderr := runVerdict(t, "", append(append([]string{"admin"}, args...), "--database-url", dbURL)...)
			if code != exitFailure || stdout != "" || !strings.Contains(stderr, "pending migrations: run `verdict migrate`") {
				t.Errorf("admin %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, stdout, stderr)
			}
		}
		if pending, err := database.Pending(context.Background(), db); err != nil || !pending {
			t.Errorf("the refused commands migrated the database: pending %v, %v", pending, err)
		}
	})
}

func TestAdminUsage(t *testing.T) {
	tests := []struct {
		name, stderr string
		args         []string
	}{
		{"admin alone names its commands", "needs a command: bootstrap, key, member, org, seed, user", []string{"admin"}},
		{"an unknown admin command", `unknown command "frobnicate"`, []string{"admin", "frobnicate"}},
		{"an unknown key command", `unknown command "rotate" for "verdict admin key"`, []string{"admin", "key", "rotate"}},
		{"a misspelled admin command", `unknown command "orgs" for "verdict admin"; did you mean org?`, []string{"admin", "orgs", "list"}},
		{"a misspelled org command", `unknown command "lst" for "verdict admin org"; did you mean list?`, []string{"admin", "org", "lst"}},
		{"bootstrap without its flags", `required flag(s) "email", "org" not set`, []string{"admin", "bootstrap"}},
		{"org create without a name", `required flag(s) "name" not set`, []string{"admin", "org", "create"}},
		{"member add without a role", `required flag(s) "role" not set`, []string{"admin", "member", "add", "--org", "x", "--email", "a@b.test"}},
		{"key create without a scope", `required flag(s) "scope" not set`, []string{"admin", "key", "create", "--org", "x"}},
		{"an unknown flag", "unknown flag: --colour", []string{"admin", "org", "list", "--colour"}},
		{"a stray argument", `unknown command "Acme"`, []string{"admin", "org", "list", "Acme"}},
		{"a negative database timeout", "--database-timeout must not be negative", []string{"admin", "org", "list", "--database-timeout", "-1s"}},
		{"a negative database timeout to seed", "--database-timeout must not be negative",
			[]string{"admin", "seed", "--org", "x", "--database-timeout", "-1s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is bad usage", func(t *testing.T) {
			// No database is opened: these fail before.
			t.Chdir(t.TempDir())
			code, stdout, stderr := runVerdict(t, "", tt.args...)
			if code != exitUsage || stdout != "" || !strings.Contains(stderr, tt.stderr) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and one line with %q", code, stdout, stderr, exitUsage, tt.stderr)
			}
		})
	}
}

func TestAdminCommands(t *testing.T) {
	eachMigratedDatabaseURL(t, func(t *testing.T, dbURL string) {
		db := openTestDatabase(t, dbURL)
		var (
			acme, beta   *ent.Organization
			bob          *ent.User
			orgKeyID     uuid.UUID
			orgKeySecret string
		)
		expires := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
		steps := []struct {
			name   string
			args   []string
			code   int
			stderr string
			// check sees the state after a successful step; a failed step
			// must leave the state unchanged.
			check func(t *testing.T, before, after stored, stdout string)
			// events are the audit events a successful step writes, as the
			// API's change of the same would, but by the operator; nil for
			// none. Organizations and users are not audited.
			events func(t *testing.T, after stored) []string
		}{
			{name: "org create makes an empty organization", args: []string{"org", "create", "--name", "Acme"},
				check: func(t *testing.T, before, after stored, stdout string) {
					acme = after.org(t, "Acme")
					if added := newRows(t, before, after); len(added) != 1 {
						t.Errorf("want one new row, the organization: %v", added)
					}
					if stdout != fmt.Sprintf("created organization Acme (%s)\n", acme.ID) {
						t.Errorf("output %q", stdout)
					}
				}},
			{name: "org create refuses a taken name", args: []string{"org", "create", "--name", "Acme"},
				code: exitFailure, stderr: "an organization named Acme exists already"},
			{name: "org create refuses an empty name", args: []string{"org", "create", "--name", ""},
				code: exitFailure, stderr: "an organization name is required"},
			{name: "org create refuses a blank name", args: []string{"org", "create", "--name", "   "},
				code: exitFailure, stderr: "an organization name is required"},
			{name: "org create refuses a name with a line break", args: []string{"org", "create", "--name", "two\nlines"},
				code: exitFailure, stderr: "must not hold control or invisible characters"},
			{name: "org create refuses a name that is an id", args: []string{"org", "create", "--name", "01a22e3e-44c0-7000-8000-000000000000"},
				code: exitFailure, stderr: "must not be an id"},
			{name: "org create --json prints the organization", args: []string{"org", "create", "--name", "Beta", "--json"},
				check: func(t *testing.T, before, after stored, stdout string) {
					beta = after.org(t, "Beta")
					var got struct {
						ID        uuid.UUID `json:"id"`
						Name      string    `json:"name"`
						CreatedAt time.Time `json:"createdAt"`
					}
					if err := json.Unmarshal([]byte(stdout), &got); err != nil || got.ID != beta.ID || got.Name != "Beta" || !got.CreatedAt.Equal(beta.CreatedAt) {
						t.Errorf("output %q (%v), stored %v", stdout, err, beta)
					}
				}},
			{name: "org list prints every organization, oldest first", args: []string{"org", "list"},
				check: func(t *testing.T, before, after stored, stdout string) {
					lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
					if len(lines) != 3 || !strings.HasPrefix(lines[0], "ID") ||
						!strings.HasPrefix(lines[1], acme.ID.String()+"  Acme ") || !strings.HasPrefix(lines[2], beta.ID.String()+"  Beta ") {
						t.Errorf("output:\n%s", stdout)
					}
				}},
			{name: "org list --json lists the items", args: []string{"org", "list", "--json"},
				check: func(t *testing.T, before, after stored, stdout string) {
					var got struct {
						Items []struct {
							ID   uuid.UUID `json:"id"`
							Name string    `json:"name"`
						} `json:"items"`
					}
					if err := json.Unmarshal([]byte(stdout), &got); err != nil || len(got.Items) != 2 ||
						got.Items[0].ID != acme.ID || got.Items[1].Name != "Beta" {
						t.Errorf("output %q (%v)", stdout, err)
					}
				}},
			{name: "user create stores the email lower-cased", args: []string{"user", "create", "--email", "Bob@Acme.Test", "--name", "Bob"},
				check: func(t *testing.T, before, after stored, stdout string) {
					bob = after.user(t, "bob@acme.test")
					if bob.Name != "Bob" || len(newRows(t, before, after)) != 1 {
						t.Errorf("new rows: %v", newRows(t, before, after))
					}
					if stdout != fmt.Sprintf("created user bob@acme.test (%s)\n", bob.ID) {
						t.Errorf("output %q", stdout)
					}
				}},
			{name: "user create refuses a taken email", args: []string{"user", "create", "--email", "bob@acme.test"},
				code: exitFailure, stderr: "a user with that email exists already"},
			{name: "user create refuses an invalid email", args: []string{"user", "create", "--email", "bob"},
				code: exitFailure, stderr: `"bob" is not an email address`},
			{name: "user create --json prints the user", args: []string{"user", "create", "--email", "carol@acme.test", "--json"},
				check: func(t *testing.T, before, after stored, stdout string) {
					carol := after.user(t, "carol@acme.test")
					want := fmt.Sprintf(`{"id":"%s","email":"carol@acme.test","name":""}`+"\n", carol.ID)
					if stdout != want {
						t.Errorf("output %q, want %q", stdout, want)
					}
				}},
			{name: "member add finds the organization by name", args: []string{"member", "add", "--org", "Acme", "--email", "bob@acme.test", "--role", "editor"},
				check: func(t *testing.T, before, after stored, stdout string) {
					if after.role(bob.ID, acme.ID) != "editor" || len(newRows(t, before, after)) != 1 {
						t.Errorf("new rows: %v", newRows(t, before, after))
					}
					if stdout != fmt.Sprintf("bob@acme.test is now editor in Acme (%s)\n", acme.ID) {
						t.Errorf("output %q", stdout)
					}
				},
				events: func(t *testing.T, after stored) []string {
					return []string{memberAdded(t, acme.ID, bob, "editor")}
				}},
			{name: "member add finds the organization by id", args: nil, // set below: needs Beta's id
				check: func(t *testing.T, before, after stored, stdout string) {
					if after.role(bob.ID, beta.ID) != "viewer" || len(newRows(t, before, after)) != 1 {
						t.Errorf("new rows: %v", newRows(t, before, after))
					}
					var got struct {
						Organization struct{ ID uuid.UUID } `json:"organization"`
						Email        string                 `json:"email"`
						Role         string                 `json:"role"`
					}
					if err := json.Unmarshal([]byte(stdout), &got); err != nil || got.Organization.ID != beta.ID || got.Email != "bob@acme.test" || got.Role != "viewer" {
						t.Errorf("output %q (%v)", stdout, err)
					}
				},
				events: func(t *testing.T, after stored) []string {
					return []string{memberAdded(t, beta.ID, bob, "viewer")}
				}},
			{name: "member add refuses a second role in one organization", args: []string{"member", "add", "--org", "Acme", "--email", "bob@acme.test", "--role", "admin"},
				code: exitFailure, stderr: "the user is a member of that organization already"},
			{name: "member add refuses an unknown role", args: []string{"member", "add", "--org", "Acme", "--email", "carol@acme.test", "--role", "boss"},
				code: exitFailure, stderr: "role must be viewer, editor, publisher, admin or auditor"},
			{name: "member add refuses an unknown user and tells how to create one", args: []string{"member", "add", "--org", "Acme", "--email", "dan@acme.test", "--role", "viewer"},
				code: exitFailure, stderr: "no user has the email dan@acme.test: create one with `verdict admin user create --email dan@acme.test`"},
			{name: "member add refuses an unknown organization", args: []string{"member", "add", "--org", "Zeta", "--email", "bob@acme.test", "--role", "viewer"},
				code: exitFailure, stderr: `no organization has the id or name "Zeta"`},
			{name: "key create makes an organization key", args: []string{"key", "create", "--org", "Acme", "--scope", "view", "--name", "reports"},
				check: func(t *testing.T, before, after stored, stdout string) {
					if len(after.keys) != 1 || len(newRows(t, before, after)) != 1 {
						t.Fatalf("new rows: %v", newRows(t, before, after))
					}
					k := after.keys[0]
					if k.OrganizationID != acme.ID || k.OwnerKind != apikey.OwnerKindOrganization || k.UserID != nil ||
						k.Scope != apikey.ScopeView || k.Name != "reports" || k.ExpiresAt != nil || k.RevokedAt != nil {
						t.Errorf("stored %s", after.rows()[len(after.rows())-1])
					}
					orgKeyID = k.ID
					orgKeySecret = printedSecret(t, stdout, "")
					checkStoredAsHash(t, db, k, orgKeySecret)
					if !strings.HasPrefix(stdout, fmt.Sprintf("created key %s in Acme (%s), owned by the organization\nscope view, prefix %s\n", k.ID, acme.ID, k.Prefix)) {
						t.Errorf("output:\n%s", stdout)
					}
				},
				events: func(t *testing.T, after stored) []string {
					return []string{keyCreated(t, after.key(t, orgKeyID))}
				}},
			{name: "key create makes a member's key", args: []string{"key", "create", "--org", "Acme", "--user-email", "BOB@acme.test", "--scope", "edit", "--expires", "2030-01-02T04:04:05+01:00"},
				check: func(t *testing.T, before, after stored, stdout string) {
					if len(after.keys) != 2 || len(newRows(t, before, after)) != 1 {
						t.Fatalf("new rows: %v", newRows(t, before, after))
					}
					k := after.keys[1]
					if k.OrganizationID != acme.ID || k.OwnerKind != apikey.OwnerKindUser || k.UserID == nil || *k.UserID != bob.ID ||
						k.Scope != apikey.ScopeEdit || k.Name != "bob@acme.test" || k.ExpiresAt == nil || !k.ExpiresAt.Equal(expires) || k.RevokedAt != nil {
						t.Errorf("stored %s", after.rows()[len(after.rows())-1])
					}
					secret := printedSecret(t, stdout, "")
					if secret == orgKeySecret {
						t.Error("two keys have the same secret")
					}
					checkStoredAsHash(t, db, k, secret)
					if !strings.Contains(stdout, "owned by bob@acme.test\nscope edit, prefix "+k.Prefix+", expires 2030-01-02T03:04:05Z\n") {
						t.Errorf("output:\n%s", stdout)
					}
				},
				events: func(t *testing.T, after stored) []string {
					return []string{keyCreated(t, after.keys[1])}
				}},
			{name: "key create --json prints the key and its secret", args: []string{"key", "create", "--org", "Beta", "--user-email", "bob@acme.test", "--scope", "publish", "--name", "ci", "--json"},
				check: func(t *testing.T, before, after stored, stdout string) {
					var got struct {
						ID     uuid.UUID `json:"id"`
						Name   string    `json:"name"`
						Prefix string    `json:"prefix"`
						Scope  string    `json:"scope"`
						Owner  struct {
							Kind string    `json:"kind"`
							ID   uuid.UUID `json:"id"`
						} `json:"owner"`
						Secret string `json:"secret"`
					}
					if err := json.Unmarshal([]byte(stdout), &got); err != nil {
						t.Fatalf("output %q: %v", stdout, err)
					}
					k := after.key(t, got.ID)
					if k.OrganizationID != beta.ID || got.Owner.Kind != "user" || got.Owner.ID != bob.ID || *k.UserID != bob.ID ||
						got.Scope != "publish" || k.Scope != apikey.ScopePublish || got.Name != "ci" || got.Prefix != k.Prefix {
						t.Errorf("output %s, stored %s", stdout, after.rows()[len(after.rows())-1])
					}
					checkSecretShownOnce(t, got.Secret, stdout, "")
					checkStoredAsHash(t, db, k, got.Secret)
				},
				events: func(t *testing.T, after stored) []string {
					return []string{keyCreated(t, after.keys[2])}
				}},
			{name: "key create refuses a user who is not a member", args: []string{"key", "create", "--org", "Acme", "--user-email", "carol@acme.test", "--scope", "view"},
				code: exitFailure, stderr: "carol@acme.test is not a member of that organization"},
			{name: "key create refuses an unknown scope", args: []string{"key", "create", "--org", "Acme", "--scope", "root"},
				code: exitFailure, stderr: "scope must be view, edit, publish or admin"},
			{name: "key create refuses an unknown organization", args: []string{"key", "create", "--org", uuid.NewString(), "--scope", "view"},
				code: exitFailure, stderr: "no organization has the id or name"},
			{name: "key create refuses an expiry that is not RFC 3339", args: []string{"key", "create", "--org", "Acme", "--scope", "view", "--expires", "tomorrow"},
				code: exitUsage, stderr: `--expires "tomorrow" is not an RFC 3339 time`},
			{name: "key revoke revokes the key and keeps it", args: nil, // set below: needs the key's id
				check: func(t *testing.T, before, after stored, stdout string) {
					k := after.key(t, orgKeyID)
					if k.RevokedAt == nil {
						t.Fatal("the key is not revoked")
					}
					for i, k := range after.keys {
						if k.ID != orgKeyID && k.RevokedAt != nil {
							t.Errorf("key %d was revoked too", i)
						}
					}
					if len(after.keys) != len(before.keys) {
						t.Error("the key was deleted")
					}
					if stdout != fmt.Sprintf("revoked key %s\n", orgKeyID) {
						t.Errorf("output %q", stdout)
					}
				},
				events: func(t *testing.T, after stored) []string {
					return []string{keyRevoked(t, after.key(t, orgKeyID))}
				}},
			{name: "key revoke refuses a revoked key", args: nil, // set below
				code: exitFailure, stderr: "no active key"},
			{name: "key revoke refuses an unknown key", args: []string{"key", "revoke", "--id", uuid.NewString()},
				code: exitFailure, stderr: "no active key"},
			{name: "key revoke refuses an id that is not one", args: []string{"key", "revoke", "--id", "vdk_12345678"},
				code: exitUsage, stderr: `--id "vdk_12345678" is not a key id`},
		}
		for i := range steps {
			step := &steps[i]
			t.Run(step.name, func(t *testing.T) {
				switch step.name {
				case "member add finds the organization by id":
					step.args = []string{"member", "add", "--org", beta.ID.String(), "--email", "bob@acme.test", "--role", "viewer", "--json"}
				case "key revoke revokes the key and keeps it", "key revoke refuses a revoked key":
					step.args = []string{"key", "revoke", "--id", orgKeyID.String()}
				}
				before := readStored(t, db)
				code, stdout, stderr := runVerdict(t, "", append(append([]string{"admin"}, step.args...), "--database-url", dbURL)...)
				after := readStored(t, db)
				if code != step.code {
					t.Fatalf("exit %d, want %d; stderr %q", code, step.code, stderr)
				}
				if step.code != 0 {
					if stdout != "" || !strings.Contains(stderr, step.stderr) || strings.Count(stderr, "\n") != 1 {
						t.Errorf("stdout %q, stderr %q; want one line with %q", stdout, stderr, step.stderr)
					}
					if !slices.Equal(before.rows(), after.rows()) {
						t.Errorf("a failed command changed the stored state: %v", newRows(t, before, after))
					}
					if added := newEvents(t, before, after); len(added) != 0 {
						t.Errorf("a failed command wrote audit events: %v", added)
					}
					return
				}
				if stderr != "" {
					t.Errorf("stderr %q", stderr)
				}
				step.check(t, before, after, stdout)
				var want []string
				if step.events != nil {
					want = step.events(t, after)
				}
				if added := newEvents(t, before, after); !slices.Equal(added, want) {
					t.Errorf("audit events written:\n%s\nwant\n%s", strings.Join(added, "\n"), strings.Join(want, "\n"))
				}
			})
		}
	})
}

func TestAdminMemberAndKeyCommands(t *testing.T) {
	eachMigratedDatabaseURL(t, func(t *testing.T, dbURL string) {
		db := openTestDatabase(t, dbURL)
		admin := func(args ...string) (int, string, string) {
			t.Helper()
			return runVerdict(t, "", append(append([]string{"admin"}, args...), "--database-url", dbURL)...)
		}
		mustRun := func(args ...string) string {
			t.Helper()
			code, stdout, stderr := admin(args...)
			if code != 0 || stderr != "" {
				t.Fatalf("admin %s: exit %d, stderr %q", strings.Join(args, " "), code, stderr)
			}
			return stdout
		}
		mustRun("bootstrap", "--org", "Acme", "--email", "admin@acme.test", "--key", "a-key-chosen-by-the-operator-0123456789")
		mustRun("user", "create", "--email", "bob@acme.test", "--name", "Bob")
		mustRun("member", "add", "--org", "Acme", "--email", "bob@acme.test", "--role", "editor")
		bobKey := printedSecret(t, mustRun("key", "create", "--org", "Acme", "--user-email", "bob@acme.test", "--scope", "edit", "--name", "bob's"), "")
		mustRun("key", "create", "--org", "Acme", "--scope", "view", "--name", "reports")
		s := readStored(t, db)
		acme, adminUser, bob := s.org(t, "Acme"), s.user(t, "admin@acme.test"), s.user(t, "bob@acme.test")

		t.Run("member list shows the members, newest first", func(t *testing.T) {
			lines := strings.Split(strings.TrimSuffix(mustRun("member", "list", "--org", "Acme"), "\n"), "\n")
			if len(lines) != 3 || !strings.HasPrefix(lines[0], "USER ID") ||
				!regexp.MustCompile(`^`+bob.ID.String()+` +bob@acme.test +Bob +editor +\S+Z$`).MatchString(lines[1]) ||
				!regexp.MustCompile(`^`+adminUser.ID.String()+` +admin@acme.test +admin +\S+Z$`).MatchString(lines[2]) {
				t.Errorf("output:\n%s", strings.Join(lines, "\n"))
			}
			var got struct {
				Items []struct {
					User struct {
						ID    uuid.UUID `json:"id"`
						Email string    `json:"email"`
					} `json:"user"`
					Role string `json:"role"`
				} `json:"items"`
			}
			if err := json.Unmarshal([]byte(mustRun("member", "list", "--org", acme.ID.String(), "--json")), &got); err != nil ||
				len(got.Items) != 2 || got.Items[0].User.ID != bob.ID || got.Items[0].Role != "editor" || got.Items[1].User.Email != "admin@acme.test" {
				t.Errorf("--json: %+v (%v)", got, err)
			}
		})

		t.Run("a name stored with control characters is listed quoted", func(t *testing.T) {
			// Stored before names refused them.
			keys := db.Client().APIKey
			keys.Update().Where(apikey.Name("reports")).SetName("rep\x1b[2J\norts").ExecX(t.Context())
			defer keys.Update().Where(apikey.Name("rep\x1b[2J\norts")).SetName("reports").ExecX(t.Context())
			out := mustRun("key", "list", "--org", "Acme")
			if lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); len(lines) != 4 || strings.Contains(out, "\x1b") ||
				!strings.Contains(lines[1], `"rep\x1b[2J\norts"`) {
				t.Errorf("output:\n%s", out)
			}
		})

		t.Run("key list shows every key without its secret", func(t *testing.T) {
			out := mustRun("key", "list", "--org", "Acme")
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(lines) != 4 || !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[1], "reports") ||
				!strings.Contains(lines[2], "bob's") || !strings.Contains(lines[2], "user "+bob.ID.String()) ||
				!strings.Contains(lines[3], "bootstrap") {
				t.Errorf("output:\n%s", out)
			}
			jsonOut := mustRun("key", "list", "--org", "Acme", "--json")
			for _, k := range readStored(t, db).keys {
				for _, hidden := range []string{k.Hash, bobKey, "a-key-chosen-by-the-operator-0123456789"} {
					if strings.Contains(out, hidden) || strings.Contains(jsonOut, hidden) {
						t.Errorf("a key list shows a secret or a hash")
					}
				}
			}
			var got struct {
				Items []map[string]any `json:"items"`
			}
			if err := json.Unmarshal([]byte(jsonOut), &got); err != nil || len(got.Items) != 3 || got.Items[0]["name"] != "reports" {
				t.Errorf("--json: %s (%v)", jsonOut, err)
			}
		})

		failures := []struct {
			name, stderr string
			args         []string
		}{
			{"member role refuses to demote the last admin", "admin@acme.test is the organization's last admin",
				[]string{"member", "role", "--org", "Acme", "--email", "admin@acme.test", "--role", "editor"}},
			{"member remove refuses to remove the last admin", "admin@acme.test is the organization's last admin",
				[]string{"member", "remove", "--org", "Acme", "--email", "admin@acme.test"}},
			{"member role refuses someone who is not a member", "carol@acme.test is not a member of that organization",
				[]string{"member", "role", "--org", "Acme", "--email", "carol@acme.test", "--role", "viewer"}},
			{"member remove refuses someone who is not a member", "carol@acme.test is not a member of that organization",
				[]string{"member", "remove", "--org", "Acme", "--email", "carol@acme.test"}},
			{"member role refuses an unknown role", "role must be viewer, editor, publisher, admin or auditor",
				[]string{"member", "role", "--org", "Acme", "--email", "bob@acme.test", "--role", "boss"}},
			{"member list refuses an unknown organization", `no organization has the id or name "Zeta"`,
				[]string{"member", "list", "--org", "Zeta"}},
			{"key create refuses an expiry in the past", "is not in the future",
				[]string{"key", "create", "--org", "Acme", "--scope", "view", "--expires", "2000-01-01T00:00:00Z"}},
		}
		for _, tt := range failures {
			t.Run(tt.name+" and changes nothing", func(t *testing.T) {
				before := readStored(t, db)
				code, stdout, stderr := admin(tt.args...)
				if code != exitFailure || stdout != "" || !strings.Contains(stderr, tt.stderr) || strings.Count(stderr, "\n") != 1 {
					t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and one line with %q", code, stdout, stderr, tt.stderr)
				}
				if !slices.Equal(before.rows(), readStored(t, db).rows()) {
					t.Errorf("stored state changed: %v", newRows(t, before, readStored(t, db)))
				}
			})
		}
		for _, args := range [][]string{{"member", "list"}, {"member", "role", "--org", "Acme", "--email", "b@acme.test"}, {"member", "remove", "--org", "Acme"}, {"key", "list"}} {
			if code, _, stderr := admin(args...); code != exitUsage || !strings.Contains(stderr, "required flag(s)") {
				t.Errorf("admin %s: exit %d, stderr %q; want bad usage", strings.Join(args, " "), code, stderr)
			}
		}

		t.Run("member role changes the role", func(t *testing.T) {
			out := mustRun("member", "role", "--org", "Acme", "--email", "BOB@acme.test", "--role", "publisher")
			if out != fmt.Sprintf("bob@acme.test is now publisher in Acme (%s)\n", acme.ID) {
				t.Errorf("output %q", out)
			}
			if role := readStored(t, db).role(bob.ID, acme.ID); role != "publisher" {
				t.Errorf("stored role %s", role)
			}
			var got struct {
				User struct{ Email string } `json:"user"`
				Role string                 `json:"role"`
			}
			if err := json.Unmarshal([]byte(mustRun("member", "role", "--org", "Acme", "--email", "bob@acme.test", "--role", "admin", "--json")), &got); err != nil ||
				got.User.Email != "bob@acme.test" || got.Role != "admin" {
				t.Errorf("--json: %+v (%v)", got, err)
			}
			// With a second admin, the first may step down.
			mustRun("member", "role", "--org", "Acme", "--email", "admin@acme.test", "--role", "viewer")
			mustRun("member", "role", "--org", "Acme", "--email", "admin@acme.test", "--role", "admin")
		})

		t.Run("member remove takes the member out and revokes their keys there", func(t *testing.T) {
			out := mustRun("member", "remove", "--org", "Acme", "--email", "bob@acme.test")
			if out != fmt.Sprintf("removed bob@acme.test from Acme (%s) and revoked their keys there\n", acme.ID) {
				t.Errorf("output %q", out)
			}
			after := readStored(t, db)
			if after.role(bob.ID, acme.ID) != "" {
				t.Error("bob is still a member")
			}
			for _, k := range after.keys {
				if revoked := k.RevokedAt != nil; revoked != (k.UserID != nil && *k.UserID == bob.ID) {
					t.Errorf("key %q revoked at %v", k.Name, k.RevokedAt)
				}
			}
			after.user(t, "bob@acme.test")
			if code, _, stderr := admin("member", "remove", "--org", "Acme", "--email", "bob@acme.test"); code != exitFailure || !strings.Contains(stderr, "not a member") {
				t.Errorf("removing again: exit %d, stderr %q", code, stderr)
			}
		})

		// Every change of a member or a key is in Acme's log, with the
		// details the API's change of the same writes, and the operator,
		// who is neither a user nor a key, as its actor; the failed
		// commands wrote none.
		final := readStored(t, db)
		var bootstrapKey, bobsKey, reports *ent.APIKey
		for _, k := range final.keys {
			switch k.Name {
			case "bootstrap":
				bootstrapKey = k
			case "bob's":
				bobsKey = k
			case "reports":
				reports = k
			}
		}
		want := []string{
			memberAdded(t, acme.ID, adminUser, "admin"),
			keyCreated(t, bootstrapKey),
			memberAdded(t, acme.ID, bob, "editor"),
			keyCreated(t, bobsKey),
			keyCreated(t, reports),
			roleChanged(t, acme.ID, bob, "editor", "publisher"),
			roleChanged(t, acme.ID, bob, "publisher", "admin"),
			roleChanged(t, acme.ID, adminUser, "admin", "viewer"),
			roleChanged(t, acme.ID, adminUser, "viewer", "admin"),
			memberRemoved(t, acme.ID, bob, "admin", 1),
		}
		if !slices.Equal(final.events, want) {
			t.Errorf("audit events:\n%s\nwant\n%s", strings.Join(final.events, "\n"), strings.Join(want, "\n"))
		}
	})
}

// A database that stalls longer than the default bound of a read (2 s) is
// waited for by a command given a longer --database-timeout: the bound
// covers connecting too.
func TestAdminWaitsForAStalledDatabaseAsLongAsItsDatabaseTimeout(t *testing.T) {
	u, err := url.Parse(dbtest.URL(t, dialect.Postgres, true))
	if err != nil {
		t.Fatal(err)
	}
	proxy := faultproxy.Start(t, u.Host)
	u.Host = proxy.Addr()
	proxy.Set(faultproxy.BlackHole)
	stall := time.AfterFunc(3*database.DefaultIOTimeout/2, func() { proxy.Set(faultproxy.Forward) })
	defer stall.Stop()
	code, stdout, stderr := runVerdict(t, "", "admin", "org", "list", "--database-url", u.String(), "--database-timeout", time.Minute.String())
	if code != 0 || stderr != "" || stdout == "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want the organizations listed once the database answers", code, stdout, stderr)
	}
}
