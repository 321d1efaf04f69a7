package rest

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/groupmember"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// createGroupAs creates a group over REST and returns it.
func (f *fixture) createGroupAs(t *testing.T, m member, body string) service.Group {
	t.Helper()
	w := f.call(t, m, http.MethodPost, "/group", body)
	wantStatus(t, w, http.StatusCreated)
	return decodeStrict[service.Group](t, w)
}

// publishedPolicy creates and publishes a policy as m.
func (f *fixture) publishedPolicy(t *testing.T, m member) service.Policy {
	t.Helper()
	w := f.call(t, m, http.MethodPost, "/policy", seniorPolicy)
	wantStatus(t, w, http.StatusCreated)
	draft := decodeStrict[service.SavedPolicy](t, w)
	w = f.call(t, m, http.MethodPut, "/policy/"+draft.ID.String(), `{"status": "published"}`)
	wantStatus(t, w, http.StatusCreated)
	return decodeStrict[service.Policy](t, w)
}

func listedBases(page service.Page[service.Summary]) []uuid.UUID {
	var ids []uuid.UUID
	for _, s := range page.Items {
		ids = append(ids, s.BaseID)
	}
	return ids
}

func TestGroupsOverREST(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		as := f.team(t)
		editor, viewer, other := as["editor"], as["viewer"], as["other tenant"]
		ctx := context.Background()

		wantError(t, f.call(t, viewer, http.MethodPost, "/group", `{"name": "Pricing"}`), http.StatusForbidden, service.CodePermissionDenied)
		g := f.createGroupAs(t, editor, `{"name": "Pricing", "description": "prices"}`)
		if g.Name != "Pricing" || g.Description != "prices" || g.ID == uuid.Nil || g.CreatedAt.IsZero() || !g.UpdatedAt.Equal(g.CreatedAt) {
			t.Errorf("created %+v", g)
		}
		path := "/group/" + g.ID.String()

		w := f.call(t, viewer, http.MethodGet, path, nil)
		wantStatus(t, w, http.StatusOK)
		if got := decodeStrict[service.Group](t, w); got != g {
			t.Errorf("loaded %+v, want %+v", got, g)
		}
		wantError(t, f.call(t, other, http.MethodGet, path, nil), http.StatusNotFound, service.CodeNotFound)
		wantError(t, f.call(t, editor, http.MethodGet, "/group/"+uuid.NewString(), nil), http.StatusNotFound, service.CodeNotFound)
		wantError(t, f.call(t, editor, http.MethodGet, "/group/pricing", nil), http.StatusBadRequest, service.CodeInvalidArgument)

		w = f.call(t, editor, http.MethodPut, path, `{"name": "Prices"}`)
		wantStatus(t, w, http.StatusOK)
		if got := decodeStrict[service.Group](t, w); got.Name != "Prices" || got.Description != "prices" || got.ID != g.ID {
			t.Errorf("updated %+v", got)
		}
		wantError(t, f.call(t, viewer, http.MethodPut, path, `{"name": "Mine"}`), http.StatusForbidden, service.CodePermissionDenied)
		wantError(t, f.call(t, other, http.MethodPut, path, `{"name": "Mine"}`), http.StatusNotFound, service.CodeNotFound)
		if stored := db.Client().Group.GetX(ctx, g.ID); stored.Name != "Prices" {
			t.Errorf("stored name %q", stored.Name)
		}

		second := f.createGroupAs(t, editor, `{"name": "Risk"}`)
		w = f.call(t, viewer, http.MethodGet, "/groups?limit=1", nil)
		wantStatus(t, w, http.StatusOK)
		page := decodeStrict[service.Page[service.Group]](t, w)
		if len(page.Items) != 1 || page.Items[0].ID != second.ID || page.NextCursor == "" {
			t.Fatalf("first page %+v", page)
		}
		w = f.call(t, viewer, http.MethodGet, "/groups?limit=1&cursor="+page.NextCursor, nil)
		wantStatus(t, w, http.StatusOK)
		if page := decodeStrict[service.Page[service.Group]](t, w); len(page.Items) != 1 || page.Items[0].ID != g.ID || page.NextCursor != "" {
			t.Fatalf("second page %+v", page)
		}
		w = f.call(t, other, http.MethodGet, "/groups", nil)
		wantStatus(t, w, http.StatusOK)
		if w.Body.String() != `{"items":[],"nextCursor":""}`+"\n" {
			t.Errorf("another tenant lists %s", w.Body)
		}
		wantError(t, f.call(t, viewer, http.MethodGet, "/groups?limit=0", nil), http.StatusBadRequest, service.CodeInvalidArgument)
		wantError(t, f.call(t, viewer, http.MethodGet, "/groups?groupId="+g.ID.String(), nil), http.StatusBadRequest, service.CodeInvalidArgument)

		// Members.
		pol := f.publishedPolicy(t, as["admin"])
		w = f.call(t, editor, http.MethodPost, "/policy", seniorPolicy)
		wantStatus(t, w, http.StatusCreated)
		draft := decodeStrict[service.SavedPolicy](t, w)
		theirs := f.publishedPolicy(t, other)
		flow := db.Client().Base.Create().SetOrganizationID(f.acme.Organization.ID).SetKind(base.KindFlow).SetName("routing").
			SetOwnerKind(base.OwnerKindOrganization).SetOwnerID(f.acme.Organization.ID).SetCreatedBy(f.acme.User.ID).SetLatestVersion(1).SaveX(ctx)

		memberPath := path + "/member"
		w = f.call(t, editor, http.MethodPost, memberPath, `{"kind": "policy", "baseId": "`+pol.BaseID.String()+`"}`)
		wantStatus(t, w, http.StatusCreated)
		m1 := decodeStrict[service.GroupMember](t, w)
		if m1.GroupID != g.ID || m1.BaseID != pol.BaseID || m1.Kind != "policy" || m1.ID == uuid.Nil {
			t.Errorf("membership %+v", m1)
		}
		w = f.call(t, editor, http.MethodPost, memberPath, `{"kind": "policy", "baseId": "`+draft.BaseID.String()+`"}`)
		wantStatus(t, w, http.StatusCreated)
		m2 := decodeStrict[service.GroupMember](t, w)
		w = f.call(t, editor, http.MethodPost, memberPath, `{"kind": "flow", "baseId": "`+flow.ID.String()+`"}`)
		wantStatus(t, w, http.StatusCreated)

		for _, tc := range []struct {
			name   string
			who    member
			path   string
			body   string
			status int
			code   service.Code
		}{
			{"a base already in the group", editor, memberPath, `{"kind": "policy", "baseId": "` + pol.BaseID.String() + `"}`, 409, service.CodeConflict},
			{"another tenant's base", editor, memberPath, `{"kind": "policy", "baseId": "` + theirs.BaseID.String() + `"}`, 404, service.CodeNotFound},
			{"a policy named as a flow", editor, memberPath, `{"kind": "flow", "baseId": "` + draft.BaseID.String() + `"}`, 404, service.CodeNotFound},
			{"an unknown group", editor, "/group/" + uuid.NewString() + "/member", `{"kind": "policy", "baseId": "` + pol.BaseID.String() + `"}`, 404, service.CodeNotFound},
			{"another tenant", other, memberPath, `{"kind": "policy", "baseId": "` + theirs.BaseID.String() + `"}`, 404, service.CodeNotFound},
			{"a viewer", viewer, memberPath, `{"kind": "policy", "baseId": "` + draft.BaseID.String() + `"}`, 403, service.CodePermissionDenied},
			{"a kind that is not one", editor, memberPath, `{"kind": "group", "baseId": "` + pol.BaseID.String() + `"}`, 400, service.CodeInvalidArgument},
		} {
			t.Run("adding refuses "+tc.name, func(t *testing.T) {
				wantError(t, f.call(t, tc.who, http.MethodPost, tc.path, tc.body), tc.status, tc.code)
			})
		}
		if n := db.Client().GroupMember.Query().CountX(ctx); n != 3 {
			t.Fatalf("%d memberships stored, want 3", n)
		}

		lists := []struct {
			who  string
			path string
			want []uuid.UUID
		}{
			{"editor", path + "/policies", []uuid.UUID{draft.BaseID, pol.BaseID}},
			{"viewer", path + "/policies", []uuid.UUID{pol.BaseID}},
			{"viewer", path + "/flows", []uuid.UUID{flow.ID}},
			{"editor", "/policies?groupId=" + g.ID.String(), []uuid.UUID{draft.BaseID, pol.BaseID}},
			{"viewer", "/flows?groupId=" + g.ID.String(), []uuid.UUID{flow.ID}},
			{"editor", path + "/policies?limit=1", []uuid.UUID{draft.BaseID}},
			{"editor", "/policies?notInGroupId=" + g.ID.String(), nil},
			{"viewer", "/flows?notInGroupId=" + second.ID.String(), []uuid.UUID{flow.ID}},
			{"editor", "/policies?notInGroupId=" + second.ID.String(), []uuid.UUID{draft.BaseID, pol.BaseID}},
		}
		for _, l := range lists {
			w := f.call(t, as[l.who], http.MethodGet, l.path, nil)
			wantStatus(t, w, http.StatusOK)
			if got := listedBases(decodeStrict[service.Page[service.Summary]](t, w)); !slices.Equal(got, l.want) {
				t.Errorf("%s GET %s lists %v, want %v", l.who, l.path, got, l.want)
			}
		}
		for _, p := range []string{
			"/group/" + uuid.NewString() + "/policies",
			"/group/" + uuid.NewString() + "/flows",
			"/policies?groupId=" + uuid.NewString(),
			"/flows?groupId=" + uuid.NewString(),
			"/policies?notInGroupId=" + uuid.NewString(),
		} {
			wantError(t, f.call(t, editor, http.MethodGet, p, nil), http.StatusNotFound, service.CodeNotFound)
		}
		for _, p := range []string{path + "/policies", path + "/flows", "/policies?groupId=" + g.ID.String(), "/flows?notInGroupId=" + g.ID.String()} {
			wantError(t, f.call(t, other, http.MethodGet, p, nil), http.StatusNotFound, service.CodeNotFound)
		}
		wantError(t, f.call(t, editor, http.MethodGet, "/policies?groupId=pricing", nil), http.StatusBadRequest, service.CodeInvalidArgument)
		wantError(t, f.call(t, editor, http.MethodGet, path+"/policies?groupId="+second.ID.String(), nil), http.StatusBadRequest, service.CodeInvalidArgument)

		// Deleting a policy hides it from the group's lists, and keeps the
		// membership.
		wantStatus(t, f.call(t, as["admin"], http.MethodDelete, "/policy/"+pol.BaseID.String(), nil), http.StatusNoContent)
		w = f.call(t, viewer, http.MethodGet, path+"/policies", nil)
		wantStatus(t, w, http.StatusOK)
		if got := listedBases(decodeStrict[service.Page[service.Summary]](t, w)); len(got) != 0 {
			t.Errorf("a deleted policy is listed: %v", got)
		}

		// Removing a member.
		memberOne := memberPath + "/" + m2.ID.String()
		wantError(t, f.call(t, viewer, http.MethodDelete, memberOne, nil), http.StatusForbidden, service.CodePermissionDenied)
		wantError(t, f.call(t, other, http.MethodDelete, memberOne, nil), http.StatusNotFound, service.CodeNotFound)
		wantError(t, f.call(t, editor, http.MethodDelete, "/group/"+second.ID.String()+"/member/"+m2.ID.String(), nil), http.StatusNotFound, service.CodeNotFound)
		wantError(t, f.call(t, editor, http.MethodDelete, memberPath+"/x", nil), http.StatusBadRequest, service.CodeInvalidArgument)
		w = f.call(t, editor, http.MethodDelete, memberOne, nil)
		wantStatus(t, w, http.StatusNoContent)
		if w.Body.Len() != 0 {
			t.Errorf("204 with a body: %s", w.Body)
		}
		if db.Client().GroupMember.Query().Where(groupmember.ID(m2.ID)).ExistX(ctx) {
			t.Error("the membership is still stored")
		}
		wantError(t, f.call(t, editor, http.MethodDelete, memberOne, nil), http.StatusNotFound, service.CodeNotFound)

		assigned := db.Client().AuditEvent.Query().Where(auditevent.ActionEQ(auditevent.ActionAssigned)).
			Order(auditevent.ByAt(), auditevent.ByID()).AllX(ctx)
		var directions []string
		for _, ev := range assigned {
			directions = append(directions, ev.Details["direction"].(string))
		}
		if !slices.Equal(directions, []string{"added", "added", "added", "removed"}) {
			t.Errorf("assigned events: %v", directions)
		}

		// Deleting the group takes its memberships, not its bases.
		wantError(t, f.call(t, viewer, http.MethodDelete, path, nil), http.StatusForbidden, service.CodePermissionDenied)
		wantError(t, f.call(t, other, http.MethodDelete, path, nil), http.StatusNotFound, service.CodeNotFound)
		wantStatus(t, f.call(t, editor, http.MethodDelete, path, nil), http.StatusNoContent)
		if n := db.Client().GroupMember.Query().Where(groupmember.GroupID(g.ID)).CountX(ctx); n != 0 {
			t.Errorf("%d memberships outlive their group", n)
		}
		if !db.Client().Base.Query().Where(base.ID(flow.ID)).ExistX(ctx) {
			t.Error("the group's flow went with it")
		}
		wantError(t, f.call(t, editor, http.MethodGet, path, nil), http.StatusNotFound, service.CodeNotFound)
		wantError(t, f.call(t, editor, http.MethodDelete, path, nil), http.StatusNotFound, service.CodeNotFound)
		wantError(t, f.call(t, editor, http.MethodGet, path+"/policies", nil), http.StatusNotFound, service.CodeNotFound)
	})
}
