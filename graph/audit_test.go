package graph_test

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
	"github.com/verdict/verdict/storage"
)

const auditQuery = `query Audit($first: Int, $after: String, $filter: AuditFilter) {
  auditEvents(first: $first, after: $after, filter: $filter) {
    edges { cursor node { id at action kind baseId recordId groupId actor { kind id } details } }
    pageInfo { hasNextPage endCursor }
  }
}`

type auditEvent struct {
	ID, At, Action, Kind      string
	BaseID, RecordID, GroupID *string
	Actor                     struct{ Kind, ID string }
	Details                   map[string]any
}

type auditPage struct {
	AuditEvents struct {
		Edges []struct {
			Cursor string
			Node   auditEvent
		}
		PageInfo struct {
			HasNextPage bool
			EndCursor   *string
		}
	}
}

func (p auditPage) actions() string {
	var out []string
	for _, e := range p.AuditEvents.Edges {
		out = append(out, e.Node.Action+" "+e.Node.Kind)
	}
	return strings.Join(out, ", ")
}

func auditEvents(t *testing.T, f *fixture, key string, vars map[string]any) auditPage {
	t.Helper()
	var got auditPage
	f.post(t, key, auditQuery, vars).decode(t, &got)
	return got
}

func TestTheAuditLogPagesAndFiltersForAdminsAndAuditors(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		editor := member(t, f, "edith", authz.RoleEditor)
		auditor := member(t, f, "audrey", authz.RoleAuditor)
		admin := f.boot.User.ID.String()

		created := createPolicy(t, f, adminKey, map[string]any{"name": "senior", "rule": seniorRule}).Policy
		v1 := publishPolicy(t, f, adminKey, created.ID, nil)
		g := createGroup(t, f, editor, map[string]any{"name": "Lending"})
		addGroupMember(t, f, editor, g.ID, "POLICY", v1.BaseID)

		// Before the API's events, the operator's: the bootstrap's and those
		// of edith's and audrey's memberships and keys.
		const setup = "EDITED KEY, EDITED MEMBER, EDITED KEY, EDITED MEMBER, EDITED KEY, EDITED MEMBER"
		all := auditEvents(t, f, auditor, nil)
		if got := all.actions(); got != "ASSIGNED POLICY, CREATED GROUP, PUBLISHED POLICY, CREATED POLICY, "+setup {
			t.Fatalf("the log is %s, want newest first", got)
		}
		edges := all.AuditEvents.Edges
		nobody := "00000000-0000-0000-0000-000000000000"
		if first := edges[len(edges)-1].Node; first.Actor.Kind != "OPERATOR" || first.Actor.ID != nobody || first.BaseID != nil ||
			!maps.Equal(first.Details, map[string]any{"change": "added", "userId": admin, "email": "admin@acme.test", "role": "admin"}) {
			t.Errorf("the bootstrap's member event %+v", first)
		}
		if key := edges[len(edges)-2].Node; key.Actor.Kind != "OPERATOR" || key.Actor.ID != nobody || key.Details["change"] != "created" ||
			key.Details["keyId"] != f.boot.Key.ID.String() || key.Details["scope"] != "admin" {
			t.Errorf("the bootstrap's key event %+v", key)
		}
		published := all.AuditEvents.Edges[2].Node
		if published.BaseID == nil || *published.BaseID != v1.BaseID || published.RecordID == nil || *published.RecordID != v1.ID ||
			published.GroupID != nil || published.Actor.Kind != "USER" || published.Actor.ID != admin || published.Details["version"] != float64(1) {
			t.Errorf("the published event %+v", published)
		}
		if assigned := all.AuditEvents.Edges[0].Node; assigned.GroupID == nil || *assigned.GroupID != g.ID || assigned.Details["direction"] != "added" {
			t.Errorf("the assigned event %+v", assigned)
		}

		var seen []string
		var after any
		for {
			page := auditEvents(t, f, adminKey, map[string]any{"first": 3, "after": after})
			for _, e := range page.AuditEvents.Edges {
				seen = append(seen, e.Node.ID)
			}
			if !page.AuditEvents.PageInfo.HasNextPage {
				break
			}
			after = *page.AuditEvents.PageInfo.EndCursor
		}
		if len(seen) != 10 || seen[9] != edges[9].Node.ID {
			t.Errorf("paging by 3 gave %v", seen)
		}

		for _, tc := range []struct {
			name   string
			filter map[string]any
			want   string
		}{
			{"by action", map[string]any{"action": "CREATED"}, "CREATED GROUP, CREATED POLICY"},
			{"by kind", map[string]any{"kind": "GROUP"}, "CREATED GROUP"},
			{"by base", map[string]any{"baseId": v1.BaseID}, "ASSIGNED POLICY, PUBLISHED POLICY, CREATED POLICY"},
			{"by actor", map[string]any{"actor": admin}, "PUBLISHED POLICY, CREATED POLICY"},
			{"by the operator", map[string]any{"actor": nobody}, setup},
			{"by kind member", map[string]any{"kind": "MEMBER"}, "EDITED MEMBER, EDITED MEMBER, EDITED MEMBER"},
			{"by action and kind", map[string]any{"action": "CREATED", "kind": "POLICY"}, "CREATED POLICY"},
			{"since an event", map[string]any{"since": published.At}, "ASSIGNED POLICY, CREATED GROUP, PUBLISHED POLICY"},
			{"until an event", map[string]any{"until": published.At}, "CREATED POLICY, " + setup},
			{"in the future", map[string]any{"since": time.Now().Add(time.Hour).Format(time.RFC3339)}, ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if got := auditEvents(t, f, adminKey, map[string]any{"filter": tc.filter}).actions(); got != tc.want {
					t.Errorf("got %q, want %q", got, tc.want)
				}
			})
		}

		t.Run("errors", func(t *testing.T) {
			f.post(t, editor, auditQuery, nil).failure(t, service.CodePermissionDenied)
			f.post(t, adminKey, auditQuery, map[string]any{"filter": map[string]any{"since": published.At, "until": published.At}}).
				failure(t, service.CodeInvalidArgument)
			f.post(t, adminKey, auditQuery, map[string]any{"filter": map[string]any{"action": "READ"}}).failure(t, service.CodeInvalidArgument)
			f.post(t, adminKey, auditQuery, map[string]any{"filter": map[string]any{"since": "yesterday"}}).failure(t, service.CodeInvalidArgument)
			f.post(t, adminKey, auditQuery, map[string]any{"after": all.AuditEvents.Edges[0].Node.ID}).failure(t, service.CodeInvalidArgument)
			f.post(t, adminKey, auditQuery, map[string]any{"first": 201}).failure(t, service.CodeInvalidArgument)
		})

		t.Run("another organization's log is its own", func(t *testing.T) {
			beta, err := f.svc.Operator().Bootstrap(t.Context(), service.BootstrapInput{Organization: "Beta", Email: "boss@beta.test"})
			if err != nil {
				t.Fatal(err)
			}
			if got := auditEvents(t, f, beta.Secret, nil).actions(); got != "EDITED KEY, EDITED MEMBER" {
				t.Errorf("Beta's log holds %s, want its bootstrap's alone", got)
			}
		})
	})
}

// A page of the audit log filtered by kind walks a bounded part of the
// `executed` events: one that found nothing still ends with a cursor, its
// endCursor, and paging on reads every matching event.
func TestAnEmptyAuditPageCanGoOn(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, withListScan(2))
		created := createPolicy(t, f, adminKey, map[string]any{"name": "senior", "rule": seniorRule}).Policy
		publishPolicy(t, f, adminKey, created.ID, nil)
		// Flow runs newer than the policy's events.
		var runs []storage.Execution
		for i := range 5 {
			runs = append(runs, storage.Execution{ID: uuid.Must(uuid.NewV7()), Tenant: f.boot.Organization.ID,
				At: time.Now().Add(time.Duration(i+1) * time.Second), Kind: "flow", BaseID: uuid.New(), RecordID: uuid.New(),
				ActorKind: "user", ActorID: f.boot.User.ID, Result: true})
		}
		if err := storage.New(db).InsertExecutions(context.Background(), runs); err != nil {
			t.Fatal(err)
		}
		vars := map[string]any{"first": 1, "filter": map[string]any{"kind": "POLICY"}}
		first := auditEvents(t, f, adminKey, vars)
		if info := first.AuditEvents.PageInfo; len(first.AuditEvents.Edges) != 0 || !info.HasNextPage || info.EndCursor == nil {
			t.Fatalf("the first page holds %q, pageInfo %+v; want none, and a cursor to go on from", first.actions(), info)
		}
		var read []string
		for page := first; page.AuditEvents.PageInfo.HasNextPage; {
			vars["after"] = *page.AuditEvents.PageInfo.EndCursor
			page = auditEvents(t, f, adminKey, vars)
			if a := page.actions(); a != "" {
				read = append(read, a)
			}
		}
		if got := strings.Join(read, ", "); got != "PUBLISHED POLICY, CREATED POLICY" {
			t.Errorf("paging on read %s", got)
		}
	})
}
