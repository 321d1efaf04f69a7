package service_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/google/uuid"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

func TestAHistoryIsPagedNewestFirstWithTheDraftOnTheFirstPage(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		v1 := f.publishedPolicy(t, "senior", seniorRule)
		for range 3 {
			d, err := f.svc.PolicyDraftFromVersion(admin, v1.BaseID, false)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.svc.PublishPolicy(admin, d.ID, service.Changes{}); err != nil {
				t.Fatal(err)
			}
		}
		// A draft made before a rollback is published after it: versions,
		// not the order records were made in, order the history.
		draft, err := f.svc.PolicyDraftFromVersion(admin, v1.BaseID, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.RollbackPolicy(admin, v1.ID); err != nil {
			t.Fatal(err)
		}

		type page struct {
			draft    bool
			versions []int
			more     bool
		}
		var pages []page
		o := service.ListOptions{Limit: 2}
		for {
			h, err := f.svc.PolicyVersions(admin, v1.BaseID, o)
			if err != nil {
				t.Fatal(err)
			}
			p := page{draft: h.Draft != nil, more: h.NextCursor != ""}
			if h.Draft != nil && h.Draft.ID != draft.ID {
				t.Errorf("the draft is %s, want %s", h.Draft.ID, draft.ID)
			}
			for _, v := range h.Versions {
				p.versions = append(p.versions, *v.Version)
			}
			pages = append(pages, p)
			if h.NextCursor == "" || len(pages) == 5 {
				break
			}
			o.Cursor = h.NextCursor
		}
		want := []page{{true, []int{5, 4}, true}, {false, []int{3, 2}, true}, {false, []int{1}, false}}
		if !reflect.DeepEqual(pages, want) {
			t.Errorf("pages %+v, want %+v", pages, want)
		}

		all, err := f.svc.PolicyVersions(admin, v1.BaseID, service.ListOptions{})
		if err != nil || len(all.Versions) != 5 || all.NextCursor != "" || all.Draft == nil {
			t.Errorf("the default page: %+v, %v; want every version and the draft", all, err)
		}
		// A cursor serves the history of the base that gave it only.
		other := f.publishedPolicy(t, "other", seniorRule)
		for range 2 {
			d, err := f.svc.PolicyDraftFromVersion(admin, other.BaseID, false)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.svc.PublishPolicy(admin, d.ID, service.Changes{}); err != nil {
				t.Fatal(err)
			}
		}
		policies, err := f.svc.Policies(admin, service.ListOptions{Limit: 1})
		if err != nil || policies.NextCursor == "" {
			t.Fatalf("the first page of policies: %+v, %v", policies, err)
		}
		for _, o := range []service.ListOptions{{Cursor: "not a cursor"}, {Cursor: policies.NextCursor}, {Cursor: "AAAAAQ"},
			{Cursor: pagesCursor(t, f, admin, other.BaseID)}, {Limit: 201}} {
			_, err := f.svc.PolicyVersions(admin, v1.BaseID, o)
			wantCode(t, err, service.CodeInvalidArgument)
		}
		if _, err := f.svc.PolicyVersions(admin, v1.ID, service.ListOptions{Limit: 2, Cursor: pagesCursor(t, f, admin, v1.BaseID)}); err != nil {
			t.Errorf("the history named by a version's id refuses its base's cursor: %v", err)
		}
		// Another organization's key finds no such policy, cursor or not.
		beta, err := f.svc.Operator().Bootstrap(context.Background(), service.BootstrapInput{
			Organization: "Beta", Email: "admin@beta.test", Key: "beta-admin-key-0123456789abcdefghijkl"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.PolicyVersions(f.as(t, beta.Secret, ""), v1.BaseID, service.ListOptions{Limit: 2, Cursor: pagesCursor(t, f, admin, v1.BaseID)})
		wantCode(t, err, service.CodeNotFound)
	})
}

func TestARequestsReadsShareWhatItMayAnswer(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxAnswerBytes = 2 << 20 })
		// A read counts the record's rule, name and description, and 512
		// bytes.
		rule := bigRule(2000)
		pol := f.publishedPolicy(t, "big", rule)
		fit := (2 << 20) / (len(rule) + len("big") + 512)
		request := f.as(t, adminKey, "")
		for i := range fit {
			if _, err := f.svc.Policy(request, pol.BaseID); err != nil {
				t.Fatalf("read %d: %v", i+1, err)
			}
		}
		_, err := f.svc.Policy(request, pol.BaseID)
		wantCode(t, err, service.CodeInvalidArgument)
		_, err = f.svc.PolicyVersions(request, pol.BaseID, service.ListOptions{})
		wantCode(t, err, service.CodeInvalidArgument)
		_, err = f.svc.PolicyDiff(request, pol.ID, pol.ID)
		wantCode(t, err, service.CodeInvalidArgument)
		if fit != 21 {
			t.Errorf("%d reads fit, want 21", fit)
		}
		if _, err := f.svc.PolicyVersions(f.as(t, adminKey, ""), pol.BaseID, service.ListOptions{}); err != nil {
			t.Error(err)
		}
	})
}

// pagesCursor is the cursor of the second page of two versions of base.
func pagesCursor(t *testing.T, f *fixture, ctx context.Context, base uuid.UUID) string {
	t.Helper()
	h, err := f.svc.PolicyVersions(ctx, base, service.ListOptions{Limit: 2})
	if err != nil || h.NextCursor == "" {
		t.Fatalf("%+v, %v", h, err)
	}
	return h.NextCursor
}
