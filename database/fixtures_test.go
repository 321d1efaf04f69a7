package database_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/pressly/goose/v3"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/record"
)

// fixture is a tenant with one policy base, the smallest world the storage
// invariants can be observed in.
type fixture struct {
	client *ent.Client
	org    *ent.Organization
	user   *ent.User
	base   *ent.Base
}

func newFixture(ctx context.Context, t *testing.T, db *database.DB) *fixture {
	t.Helper()
	c := db.Client()
	org := c.Organization.Create().SetName("Acme").SaveX(ctx)
	user := c.User.Create().SetEmail("ann@acme.test").SetName("Ann").SaveX(ctx)
	return &fixture{client: c, org: org, user: user, base: newBase(ctx, c, org, user)}
}

func newBase(ctx context.Context, c *ent.Client, org *ent.Organization, user *ent.User) *ent.Base {
	return c.Base.Create().
		SetOrganization(org).
		SetKind(base.KindPolicy).
		SetName("Senior discount").
		SetOwnerKind(base.OwnerKindUser).
		SetOwnerID(user.ID).
		SetCreatedBy(user.ID).
		SaveX(ctx)
}

// record starts a record of the fixture's base; version 0 means a draft.
func (f *fixture) record(b *ent.Base, version int) *ent.RecordCreate {
	create := f.client.Record.Create().
		SetBase(b).
		SetOrganization(f.org).
		SetKind(record.KindPolicy).
		SetName(b.Name).
		SetRule("A **Person** gets senior_discount if the **age** of the **Person** is at least 65").
		SetCreatedBy(f.user.ID)
	if version == 0 {
		return create.SetStatus(record.StatusDraft)
	}
	return create.SetStatus(record.StatusPublished).SetVersion(version)
}

func mustNotExist(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		t.Fatal("the database accepted the row")
	}
	if !database.IsUniqueViolation(err) {
		t.Fatalf("IsUniqueViolation(%v) = false, want true", err)
	}
}

var unknownID = uuid.MustParse("00000000-0000-7000-8000-000000000000")

// migrateUpTo applies the migrations up to and including version, so that a
// test can store what an earlier release stored and then migrate the rest.
func migrateUpTo(ctx context.Context, t *testing.T, db *database.DB, version int64) {
	t.Helper()
	dialect := goose.DialectSQLite3
	if db.Dialect() == "postgres" {
		dialect = goose.DialectPostgres
	}
	p, err := goose.NewProvider(dialect, db.SQL(), database.Migrations(db.Dialect()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, version); err != nil {
		t.Fatal(err)
	}
}
