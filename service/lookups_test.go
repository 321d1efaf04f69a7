package service_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// lookup is one of the service's by-id lookups, its answer as a value.
type lookup func(ctx context.Context, id uuid.UUID) (any, error)

func lookupOf[T any](find func(context.Context, uuid.UUID) (*T, error)) lookup {
	return func(ctx context.Context, id uuid.UUID) (any, error) {
		v, err := find(ctx, id)
		if err != nil {
			return nil, err
		}
		return *v, nil
	}
}

// firstOf is the newest item of a list, which must have one.
func firstOf[T any](t *testing.T, page *service.Page[T], err error) T {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) == 0 {
		t.Fatal("the list is empty")
	}
	return page.Items[0]
}

func TestObjectsAreFoundByIdAsTheirListsShowThem(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		as["auditor"] = f.auditor(t)
		admin, beta, svc := as["admin"], as["other tenant"], f.svc

		// One object of each kind in Acme, and one in Beta.
		addGroupMember := func(ctx context.Context) *service.GroupMember {
			t.Helper()
			g, err := svc.CreateGroup(ctx, service.GroupChanges{Name: ptr("Lending")})
			if err != nil {
				t.Fatal(err)
			}
			m, err := svc.AddGroupMember(ctx, g.ID, service.GroupMemberInput{
				Kind: authz.KindFlow, BaseID: storedFlow(t, db, actorTenant(t, ctx), "loan")})
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		gm, betaGM := addGroupMember(as["editor"]), addGroupMember(beta)
		revoked, err := svc.CreateKey(admin, service.KeyRequest{Name: "revoked", Scope: authz.ScopeView})
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.RevokeKey(admin, revoked.ID); err != nil {
			t.Fatal(err)
		}
		keys, err := svc.Keys(admin, service.ListOptions{Query: "revoked"})
		key := firstOf(t, keys, err)
		events, err := svc.AuditEvents(admin, service.AuditFilter{}, service.ListOptions{})
		event := firstOf(t, events, err)
		// Not one of the callers below, who read their own user (see
		// TestEveryCallerFindsTheirOwnUserKeyAndOrganization).
		members, err := svc.Members(admin, service.ListOptions{Query: "editor2@"})
		member := firstOf(t, members, err)
		events, err = svc.AuditEvents(beta, service.AuditFilter{}, service.ListOptions{})
		betaEvent := firstOf(t, events, err)
		members, err = svc.Members(beta, service.ListOptions{})
		betaMember := firstOf(t, members, err)
		keys, err = svc.Keys(beta, service.ListOptions{})
		betaKey := firstOf(t, keys, err)
		if key.RevokedAt == nil {
			t.Fatalf("key %+v, want the revoked one", key)
		}

		authors := []string{"viewer", "editor", "publisher"}
		for _, tc := range []struct {
			kind    string
			find    lookup
			want    any
			id      uuid.UUID
			theirs  uuid.UUID // Beta's object of the kind
			readers []string
			denied  []string
		}{
			{"group member", lookupOf(svc.GroupMember), *gm, gm.ID, betaGM.ID, []string{"viewer", "auditor", "admin"}, nil},
			{"audit event", lookupOf(svc.AuditEvent), event, event.ID, betaEvent.ID, []string{"admin", "auditor"}, authors},
			{"user", lookupOf(svc.User), member.User, member.User.ID, betaMember.User.ID, []string{"admin"}, append(authors, "auditor")},
			{"member", lookupOf(svc.Member), member, member.ID, betaMember.ID, []string{"admin"}, append(authors, "auditor")},
			{"key", lookupOf(svc.Key), key, key.ID, betaKey.ID, []string{"admin"}, append(authors, "auditor")},
		} {
			t.Run(tc.kind, func(t *testing.T) {
				for _, who := range tc.readers {
					got, err := tc.find(as[who], tc.id)
					if err != nil {
						t.Fatalf("%s: %v", who, err)
					}
					if !reflect.DeepEqual(got, tc.want) {
						t.Errorf("%s finds %+v, want %+v as listed", who, got, tc.want)
					}
					for name, id := range map[string]uuid.UUID{
						"Beta's":                tc.theirs,
						"an unknown id":         uuid.New(),
						"an id of another kind": f.acme.Organization.ID,
					} {
						_, err := tc.find(as[who], id)
						if service.CodeOf(err) != service.CodeNotFound {
							t.Errorf("%s looks up %s: %v, want not_found", who, name, err)
						}
					}
				}
				for _, who := range tc.denied {
					_, err := tc.find(as[who], tc.id)
					if service.CodeOf(err) != service.CodePermissionDenied {
						t.Errorf("%s: %v, want permission_denied", who, err)
					}
				}
				_, err := tc.find(beta, tc.id)
				wantCode(t, err, service.CodeNotFound)
			})
		}

		t.Run("a membership keeps its id and is gone with it", func(t *testing.T) {
			page, err := svc.Members(admin, service.ListOptions{Limit: 1})
			if err != nil || page.NextCursor != page.Cursor(0) {
				t.Errorf("the first page ends at %q, want the cursor after its member: %+v, %v", page.NextCursor, page, err)
			}
			changed, err := svc.SetMemberRole(admin, member.User.ID, authz.RoleEditor)
			if err != nil || changed.ID != member.ID {
				t.Fatalf("after a role change: %+v, %v; want the id %s", changed, err, member.ID)
			}
			if err := svc.RemoveMember(admin, member.User.ID); err != nil {
				t.Fatal(err)
			}
			_, err = svc.Member(admin, member.ID)
			wantCode(t, err, service.CodeNotFound)
			_, err = svc.User(admin, member.User.ID)
			wantCode(t, err, service.CodeNotFound)
		})
	})
}

func TestEveryCallerFindsTheirOwnUserKeyAndOrganization(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		as["auditor"] = f.auditor(t)
		f.svc.KeyUsesWritten()
		for who, ctx := range as {
			v, err := f.svc.Viewer(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if u, err := f.svc.User(ctx, v.User.ID); err != nil || *u != *v.User {
				t.Errorf("%s finds their user as %+v, %v; want %+v", who, u, err, *v.User)
			}
			if k, err := f.svc.Key(ctx, v.Key.ID); err != nil || !reflect.DeepEqual(*k, v.Key) {
				t.Errorf("%s finds their key as %+v, %v; want %+v", who, k, err, v.Key)
			}
			if o, err := f.svc.Organization(ctx, v.Organization.ID); err != nil || *o != *v.Organization {
				t.Errorf("%s finds their organization as %+v, %v; want %+v", who, o, err, *v.Organization)
			}
		}
		_, err := f.svc.Organization(as["other tenant"], f.acme.Organization.ID)
		wantCode(t, err, service.CodeNotFound)
	})
}

func TestABaseIsFoundByItsIdAsTheListShowsIt(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		as["auditor"] = f.auditor(t)
		svc := f.svc
		v1 := f.publishedPolicy(t, "senior", "A **Person** is senior if the __age__ of the **Person** is at least 65.")
		page, err := svc.Policies(as["admin"], service.ListOptions{Query: "senior"})
		listed := firstOf(t, page, err)
		theirs, err := svc.CreatePolicy(as["other tenant"], service.Changes{Name: ptr("theirs"), Rule: ptr("x")})
		if err != nil {
			t.Fatal(err)
		}

		for _, who := range []string{"viewer", "editor", "publisher", "admin", "auditor"} {
			got, err := svc.PolicySummary(as[who], v1.BaseID)
			if err != nil || !reflect.DeepEqual(*got, listed) {
				t.Errorf("%s finds %+v (%v), want %+v as listed", who, got, err, listed)
			}
		}
		for name, id := range map[string]uuid.UUID{
			"a record id, not a base id": v1.ID,
			"Beta's base":                theirs.Policy.BaseID,
			"an unknown id":              uuid.New(),
		} {
			_, err := svc.PolicySummary(as["admin"], id)
			if service.CodeOf(err) != service.CodeNotFound {
				t.Errorf("%s: %v, want not_found", name, err)
			}
		}
		_, err = svc.FlowSummary(as["admin"], v1.BaseID)
		wantCode(t, err, service.CodeNotFound)
	})
}
