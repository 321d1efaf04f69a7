package database_test

import (
	"context"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/groupmember"
	"github.com/verdict/verdict/internal/dbtest"
)

func TestRecordInvariants(t *testing.T) {
	tests := []struct {
		name string
		// first is stored, then second is tried; versions as in fixture.record.
		first, second int
		otherBase     bool
		rejected      bool
	}{
		{name: "a second draft for the same base is rejected", first: 0, second: 0, rejected: true},
		{name: "a duplicate version for the same base is rejected", first: 1, second: 1, rejected: true},
		{name: "a draft beside a published version is accepted", first: 1, second: 0},
		{name: "the next version of a base is accepted", first: 1, second: 2},
		{name: "another base may have its own draft", first: 0, second: 0, otherBase: true},
		{name: "another base may reuse a version number", first: 1, second: 1, otherBase: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dbtest.Each(t, func(t *testing.T, db *database.DB) {
				ctx := context.Background()
				f := newFixture(ctx, t, db)
				f.record(f.base, tt.first).SaveX(ctx)
				target := f.base
				if tt.otherBase {
					target = newBase(ctx, f.client, f.org, f.user)
				}
				_, err := f.record(target, tt.second).Save(ctx)
				if tt.rejected {
					mustNotExist(t, err)
					return
				}
				if err != nil {
					t.Fatalf("storing the second record: %v", err)
				}
			})
		})
	}
}

func TestGroupMembers(t *testing.T) {
	t.Run("a base twice in one group is rejected", func(t *testing.T) {
		dbtest.Each(t, func(t *testing.T, db *database.DB) {
			ctx := context.Background()
			f := newFixture(ctx, t, db)
			g := f.client.Group.Create().SetOrganization(f.org).SetName("Pricing").SaveX(ctx)
			add := func() error {
				return f.client.GroupMember.Create().SetGroup(g).SetBase(f.base).SetKind(groupmember.KindPolicy).Exec(ctx)
			}
			if err := add(); err != nil {
				t.Fatalf("adding the base: %v", err)
			}
			mustNotExist(t, add())
		})
	})
	t.Run("deleting a group leaves no memberships", func(t *testing.T) {
		dbtest.Each(t, func(t *testing.T, db *database.DB) {
			ctx := context.Background()
			f := newFixture(ctx, t, db)
			doomed := f.client.Group.Create().SetOrganization(f.org).SetName("Pricing").SaveX(ctx)
			kept := f.client.Group.Create().SetOrganization(f.org).SetName("Risk").SaveX(ctx)
			for _, g := range []*ent.Group{doomed, kept} {
				f.client.GroupMember.Create().SetGroup(g).SetBase(f.base).SetKind(groupmember.KindPolicy).ExecX(ctx)
			}
			f.client.Group.DeleteOne(doomed).ExecX(ctx)

			var left []string
			for _, m := range f.client.GroupMember.Query().AllX(ctx) {
				left = append(left, m.GroupID.String())
			}
			if len(left) != 1 || left[0] != kept.ID.String() {
				t.Fatalf("memberships left: %v, want only group %s", left, kept.ID)
			}
		})
	})
}

func TestIsUniqueViolation(t *testing.T) {
	tests := []struct {
		name string
		try  func(ctx context.Context, f *fixture) error
		want bool
	}{
		{
			name: "a duplicate email is a unique violation",
			try: func(ctx context.Context, f *fixture) error {
				return f.client.User.Create().SetEmail(f.user.Email).Exec(ctx)
			},
			want: true,
		},
		{
			name: "a duplicate primary key is a unique violation",
			try: func(ctx context.Context, f *fixture) error {
				return f.client.Organization.Create().SetID(f.org.ID).SetName("Other").Exec(ctx)
			},
			want: true,
		},
		{
			name: "a missing foreign row is not a unique violation",
			try: func(ctx context.Context, f *fixture) error {
				return f.client.Group.Create().SetOrganizationID(unknownID).SetName("Orphan").Exec(ctx)
			},
		},
		{
			name: "no error is not a unique violation",
			try: func(ctx context.Context, f *fixture) error {
				return nil
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dbtest.Each(t, func(t *testing.T, db *database.DB) {
				ctx := context.Background()
				err := tt.try(ctx, newFixture(ctx, t, db))
				if got := database.IsUniqueViolation(err); got != tt.want {
					t.Fatalf("IsUniqueViolation(%v) = %v, want %v", err, got, tt.want)
				}
			})
		})
	}
}
