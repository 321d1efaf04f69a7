package graph_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

const seniorRule = "A **Person** gets senior_discount if the __age__ of the **Person** is at least 65."

const policyFields = `fragment P on Policy {
  id baseId name description rule schema
  tests { name data expect }
  status version owner { kind id } createdBy createdAt updatedAt publishedAt revision
}`

const createPolicyMutation = `mutation Create($input: CreatePolicyInput!) {
  createPolicy(input: $input) { policy { ...P } validation { errors } }
}` + policyFields

const updatePolicyMutation = `mutation Update($input: UpdatePolicyDraftInput!) {
  updatePolicyDraft(input: $input) { policy { ...P } validation { errors } }
}` + policyFields

const publishPolicyMutation = `mutation Publish($input: PublishPolicyInput!) {
  publishPolicy(input: $input) { ...P }
}` + policyFields

const draftFromVersionMutation = `mutation Draft($id: ID!, $replace: Boolean) {
  createPolicyDraftFromVersion(input: {id: $id, replace: $replace}) { ...P }
}` + policyFields

const policyQuery = `query Policy($id: ID!) { policy(id: $id) { ...P } }` + policyFields

const runPolicyMutation = `mutation Run($baseId: ID!, $data: JSON!) {
  runPolicy(input: {baseId: $baseId, data: $data}) { ...R }
}` + runFields

const runPolicyVersionMutation = `mutation Run($policyId: ID!, $data: JSON!) {
  runPolicyVersion(input: {policyId: $policyId, data: $data}) { ...R }
}` + runFields

const runFields = `
fragment R on PolicyRunResult {
  result rule data error labels raw
  execution { orchestrator { go database total } engine total }
  trace {
    execution {
      label selector outcome result
      conditions {
        __typename
        ... on ComparisonCondition {
          selector operator result
          property { path value }
          value { type value }
          evaluationDetails { leftValue { type value } rightValue { type value } comparisonResult }
        }
        ... on ReferenceCondition { selector ruleName referencedRuleOutcome result }
      }
    }
  }
}`

type policyData struct {
	ID, BaseID, Name, Description, Rule string
	Schema                              json.RawMessage
	Tests                               []struct {
		Name   string
		Data   json.RawMessage
		Expect bool
	}
	Status                          string
	Version                         *int
	Owner                           struct{ Kind, ID string }
	CreatedBy, CreatedAt, UpdatedAt string
	PublishedAt                     *string
	Revision                        int
}

type savedPolicy struct {
	Policy     policyData
	Validation struct{ Errors []string }
}

// member adds a user of the role to Acme and returns their key.
func member(t *testing.T, f *fixture, name string, role authz.Role) string {
	t.Helper()
	ctx, op := t.Context(), f.svc.Operator()
	email := name + "@acme.test"
	if _, err := op.CreateUser(ctx, email, name); err != nil {
		t.Fatal(err)
	}
	if err := op.AddMember(ctx, f.boot.Organization.ID, email, role); err != nil {
		t.Fatal(err)
	}
	key, err := op.CreateKey(ctx, service.KeyInput{
		Organization: f.boot.Organization.ID, UserEmail: email, Name: name, Scope: authz.ScopeAdmin,
	})
	if err != nil {
		t.Fatal(err)
	}
	return key.Secret
}

func createPolicy(t *testing.T, f *fixture, key string, input map[string]any) savedPolicy {
	t.Helper()
	var got struct{ CreatePolicy savedPolicy }
	f.post(t, key, createPolicyMutation, map[string]any{"input": input}).decode(t, &got)
	return got.CreatePolicy
}

// draftInput is the variables of an operation that saves or publishes the
// draft id with changes (nil for none): its one input.
func draftInput(id string, changes map[string]any) map[string]any {
	input := map[string]any{"id": id}
	for k, v := range changes {
		input[k] = v
	}
	return map[string]any{"input": input}
}

func publishPolicy(t *testing.T, f *fixture, key, id string, changes map[string]any) policyData {
	t.Helper()
	var got struct{ PublishPolicy policyData }
	f.post(t, key, publishPolicyMutation, draftInput(id, changes)).decode(t, &got)
	return got.PublishPolicy
}

func TestAPolicyIsCreatedEditedPublishedAndRedraftedOverGraphQL(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.boot.User.ID.String()

		broken := createPolicy(t, f, adminKey, map[string]any{"name": "wip", "rule": "A **P** is ok if __a__ of **P** is bigger than 1."})
		if broken.Policy.Status != "DRAFT" || len(broken.Validation.Errors) != 1 ||
			!strings.HasPrefix(broken.Validation.Errors[0], "Parse error:") {
			t.Errorf("an unparseable rule is saved as a draft with its parse error: %+v", broken)
		}

		created := createPolicy(t, f, adminKey, map[string]any{
			"name": "Senior discount", "rule": seniorRule,
			"schema": map[string]any{"type": "object"},
			"tests":  []any{map[string]any{"name": "70 is senior", "data": map[string]any{"Person": map[string]any{"age": 70}}, "expect": true}},
		})
		p := created.Policy
		if p.Status != "DRAFT" || p.Version != nil || p.Revision != 1 || p.PublishedAt != nil ||
			p.Owner.Kind != "USER" || p.Owner.ID != admin || p.CreatedBy != admin || len(created.Validation.Errors) != 0 {
			t.Fatalf("created %+v", created)
		}
		if p.ID == p.BaseID || p.Name != "Senior discount" || p.Rule != seniorRule || string(p.Schema) != `{"type":"object"}` {
			t.Errorf("created %+v", p)
		}
		if len(p.Tests) != 1 || p.Tests[0].Name != "70 is senior" || !p.Tests[0].Expect || string(p.Tests[0].Data) != `{"Person":{"age":70}}` {
			t.Errorf("tests %+v", p.Tests)
		}

		var updated struct{ UpdatePolicyDraft savedPolicy }
		f.post(t, adminKey, updatePolicyMutation, draftInput(p.ID, map[string]any{"description": "for the over-65s", "schema": nil})).
			decode(t, &updated)
		u := updated.UpdatePolicyDraft.Policy
		if u.ID != p.ID || u.Revision != 2 || u.Description != "for the over-65s" || string(u.Schema) != "null" ||
			u.Name != p.Name || len(u.Tests) != 1 {
			t.Errorf("updated %+v: want revision 2, the description set, the schema removed, the rest kept", u)
		}
		// Made from revision 1, which the draft has left.
		f.post(t, adminKey, updatePolicyMutation, draftInput(p.ID, map[string]any{"revision": 1, "description": "stale"})).
			failure(t, service.CodeConflict)
		f.post(t, adminKey, publishPolicyMutation, draftInput(p.ID, map[string]any{"revision": 1})).
			failure(t, service.CodeConflict)

		v1 := publishPolicy(t, f, adminKey, p.ID, nil)
		if v1.ID != p.ID || v1.Status != "PUBLISHED" || v1.Version == nil || *v1.Version != 1 || v1.PublishedAt == nil ||
			v1.Owner.Kind != "ORGANIZATION" || v1.Owner.ID != f.boot.Organization.ID.String() {
			t.Fatalf("published %+v", v1)
		}
		f.post(t, adminKey, updatePolicyMutation, draftInput(v1.ID, map[string]any{"name": "x"})).
			failure(t, service.CodeConflict)

		var draft struct{ CreatePolicyDraftFromVersion policyData }
		f.post(t, adminKey, draftFromVersionMutation, map[string]any{"id": v1.ID}).decode(t, &draft)
		d := draft.CreatePolicyDraftFromVersion
		if d.Status != "DRAFT" || d.ID == v1.ID || d.BaseID == "" || d.BaseID != v1.BaseID || d.Rule != v1.Rule {
			t.Fatalf("draft from version 1: %+v", d)
		}
		e := f.post(t, adminKey, draftFromVersionMutation, map[string]any{"id": v1.ID}).failure(t, service.CodeConflict)
		if !strings.Contains(e.Message, d.ID) {
			t.Errorf("the conflict %q does not name the draft %s", e.Message, d.ID)
		}
		var replaced struct{ CreatePolicyDraftFromVersion policyData }
		f.post(t, adminKey, draftFromVersionMutation, map[string]any{"id": v1.ID, "replace": true}).decode(t, &replaced)
		if r := replaced.CreatePolicyDraftFromVersion; r.ID != d.ID || r.Revision != d.Revision+1 {
			t.Errorf("replacing the draft gave %+v, want the draft %s one revision on", r, d.ID)
		}

		v2 := publishPolicy(t, f, adminKey, d.ID, map[string]any{"rule": strings.Replace(seniorRule, "65", "60", 1)})
		if v2.Version == nil || *v2.Version != 2 {
			t.Fatalf("second version %+v", v2)
		}

		var hist struct {
			PolicyVersions struct {
				BaseID   string
				Draft    *policyData
				Versions []policyData
			}
		}
		f.post(t, adminKey, `query H($id: ID!) { policyVersions(id: $id) { baseId draft { id } versions { ...P } } }`+policyFields,
			map[string]any{"id": p.BaseID}).decode(t, &hist)
		h := hist.PolicyVersions
		if h.BaseID != p.BaseID || h.Draft != nil || len(h.Versions) != 2 || h.Versions[0].ID != v2.ID || h.Versions[1].ID != v1.ID {
			t.Errorf("history %+v, want versions 2 and 1 and no draft", h)
		}
		// A page of one, then the page after it.
		var page struct {
			PolicyVersions struct {
				Versions   []policyData
				NextCursor string
			}
		}
		pageQuery := `query H($id: ID!, $after: String) { policyVersions(id: $id, first: 1, after: $after) { versions { ...P } nextCursor } }` + policyFields
		f.post(t, adminKey, pageQuery, map[string]any{"id": p.BaseID}).decode(t, &page)
		if pv := page.PolicyVersions; len(pv.Versions) != 1 || pv.Versions[0].ID != v2.ID || pv.NextCursor == "" {
			t.Fatalf("the first page of one: %+v", pv)
		}
		f.post(t, adminKey, pageQuery, map[string]any{"id": p.BaseID, "after": page.PolicyVersions.NextCursor}).decode(t, &page)
		if pv := page.PolicyVersions; len(pv.Versions) != 1 || pv.Versions[0].ID != v1.ID || pv.NextCursor != "" {
			t.Errorf("the second page: %+v", pv)
		}
		f.post(t, adminKey, `query H($id: ID!) { policyVersions(id: $id, first: 201) { baseId } }`, map[string]any{"id": p.BaseID}).
			failure(t, service.CodeInvalidArgument)

		var loaded struct{ Policy policyData }
		f.post(t, adminKey, policyQuery, map[string]any{"id": p.BaseID}).decode(t, &loaded)
		if loaded.Policy.ID != v2.ID {
			t.Errorf("policy(baseId) is %s, want the latest version %s", loaded.Policy.ID, v2.ID)
		}
	})
}

func TestPublishingAPolicyWhoseTestFailsIsAConflictNamingTheTest(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		created := createPolicy(t, f, adminKey, map[string]any{"name": "senior", "rule": seniorRule, "tests": []any{
			map[string]any{"name": "70 is senior", "data": map[string]any{"Person": map[string]any{"age": 70}}, "expect": true},
			map[string]any{"name": "20 is senior", "data": map[string]any{"Person": map[string]any{"age": 20}}, "expect": true},
		}})
		e := f.post(t, adminKey, publishPolicyMutation, draftInput(created.Policy.ID, nil)).failure(t, service.CodeConflict)
		if !strings.Contains(e.Message, "20 is senior") || strings.Contains(e.Message, "70 is senior") {
			t.Errorf("message %q, want it to name the failing test only", e.Message)
		}
		var got struct{ Policy policyData }
		f.post(t, adminKey, policyQuery, map[string]any{"id": created.Policy.ID}).decode(t, &got)
		if got.Policy.Status != "DRAFT" || got.Policy.Version != nil {
			t.Errorf("a refused publish changed the record: %+v", got.Policy)
		}
	})
}

type policiesData struct {
	Policies struct {
		Edges []struct {
			Cursor string
			Node   struct {
				Typename        string `json:"__typename"`
				ID, BaseID      string
				Name            string
				Owner           struct{ Kind, ID string }
				LatestVersion   *int
				LatestVersionID *string
				DraftID         *string
				HasDraft        bool
				UpdatedAt       string
			}
		}
		PageInfo struct {
			HasNextPage, HasPreviousPage bool
			StartCursor, EndCursor       *string
		}
	}
}

const policiesQuery = `query List($first: Int, $after: String, $query: String) {
  policies(first: $first, after: $after, query: $query) {
    edges { cursor node { __typename id baseId name owner { kind id } latestVersion latestVersionId draftId hasDraft updatedAt } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`

func TestPoliciesPageThroughARelayConnection(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		for _, name := range []string{"alpha", "beta", "alphabet"} {
			createPolicy(t, f, adminKey, map[string]any{"name": name, "rule": seniorRule})
		}
		published := publishPolicy(t, f, adminKey, createPolicy(t, f, adminKey, map[string]any{"name": "gamma", "rule": seniorRule}).Policy.ID, nil)

		var names []string
		var after any
		for pages := 1; ; pages++ {
			var got policiesData
			f.post(t, adminKey, policiesQuery, map[string]any{"first": 1, "after": after}).decode(t, &got)
			c := got.Policies
			if len(c.Edges) != 1 {
				t.Fatalf("page %d has %d edges, want 1", pages, len(c.Edges))
			}
			names = append(names, c.Edges[0].Node.Name)
			if c.PageInfo.EndCursor == nil || *c.PageInfo.EndCursor != c.Edges[0].Cursor {
				t.Errorf("page %d: endCursor %v, want the last edge's cursor %q", pages, c.PageInfo.EndCursor, c.Edges[0].Cursor)
			}
			if c.PageInfo.StartCursor == nil || *c.PageInfo.StartCursor != c.Edges[0].Cursor {
				t.Errorf("page %d: startCursor %v, want the first edge's cursor %q", pages, c.PageInfo.StartCursor, c.Edges[0].Cursor)
			}
			if c.PageInfo.HasPreviousPage != (pages > 1) {
				t.Errorf("page %d: hasPreviousPage %v", pages, c.PageInfo.HasPreviousPage)
			}
			if n := c.Edges[0].Node; n.Typename != "PolicySummary" || n.ID != n.BaseID {
				t.Errorf("page %d: a %s with id %s, want a PolicySummary whose id is its base id %s", pages, n.Typename, n.ID, n.BaseID)
			}
			if c.PageInfo.HasNextPage != (pages < 4) {
				t.Errorf("page %d: hasNextPage %v", pages, c.PageInfo.HasNextPage)
			}
			if !c.PageInfo.HasNextPage {
				break
			}
			after = *c.PageInfo.EndCursor
		}
		if strings.Join(names, ",") != "gamma,alphabet,beta,alpha" {
			t.Errorf("pages gave %v, want newest first", names)
		}

		var all policiesData
		f.post(t, adminKey, policiesQuery, map[string]any{"first": 2}).decode(t, &all)
		first := all.Policies.Edges[0].Node
		if first.BaseID != published.BaseID || first.LatestVersion == nil || *first.LatestVersion != 1 ||
			first.LatestVersionID == nil || *first.LatestVersionID != published.ID || first.HasDraft || first.DraftID != nil ||
			first.Owner.Kind != "ORGANIZATION" {
			t.Errorf("summary of a published policy: %+v", first)
		}
		if second := all.Policies.Edges[1].Node; !second.HasDraft || second.DraftID == nil || second.LatestVersion != nil || second.Owner.Kind != "USER" {
			t.Errorf("summary of a draft: %+v", second)
		}
		var rest policiesData
		f.post(t, adminKey, policiesQuery, map[string]any{"after": all.Policies.Edges[0].Cursor}).decode(t, &rest)
		if len(rest.Policies.Edges) != 3 || rest.Policies.Edges[0].Node.Name != "alphabet" || rest.Policies.PageInfo.HasNextPage ||
			!rest.Policies.PageInfo.HasPreviousPage || *rest.Policies.PageInfo.StartCursor != rest.Policies.Edges[0].Cursor ||
			*rest.Policies.PageInfo.EndCursor != rest.Policies.Edges[2].Cursor {
			t.Errorf("after the first edge's cursor: %+v", rest.Policies)
		}

		var found policiesData
		f.post(t, adminKey, policiesQuery, map[string]any{"query": "ALPHA"}).decode(t, &found)
		if len(found.Policies.Edges) != 2 || found.Policies.PageInfo.HasNextPage {
			t.Errorf("query ALPHA: %+v", found.Policies)
		}
		var none policiesData
		f.post(t, adminKey, policiesQuery, map[string]any{"query": "zeta"}).decode(t, &none)
		if p := none.Policies.PageInfo; len(none.Policies.Edges) != 0 || p.StartCursor != nil || p.EndCursor != nil || p.HasNextPage || p.HasPreviousPage {
			t.Errorf("an empty page: %+v", none.Policies)
		}

		for name, vars := range map[string]map[string]any{
			"first 0":          {"first": 0},
			"first 201":        {"first": 201},
			"a foreign cursor": {"after": "nonsense"},
		} {
			t.Run(name+" is an invalid argument", func(t *testing.T) {
				f.post(t, adminKey, policiesQuery, vars).failure(t, service.CodeInvalidArgument)
			})
		}
	})
}

func TestStoredPoliciesRunByBaseAndByRecordWithATypedTrace(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		v1 := publishPolicy(t, f, adminKey, createPolicy(t, f, adminKey, map[string]any{"name": "senior", "rule": seniorRule}).Policy.ID, nil)
		var draft struct{ CreatePolicyDraftFromVersion policyData }
		f.post(t, adminKey, draftFromVersionMutation, map[string]any{"id": v1.ID}).decode(t, &draft)
		publishPolicy(t, f, adminKey, draft.CreatePolicyDraftFromVersion.ID, map[string]any{"rule": strings.Replace(seniorRule, "65", "60", 1)})
		data := map[string]any{"Person": map[string]any{"age": 62}}

		var latest struct{ RunPolicy runResult }
		f.post(t, adminKey, runPolicyMutation, map[string]any{"baseId": v1.BaseID, "data": data}).decode(t, &latest)
		got := latest.RunPolicy
		if !got.Result || got.Error != nil || len(got.Rule) != 1 || got.Rule[0] != strings.Replace(seniorRule, "65", "60", 1) {
			t.Fatalf("run by base: result %v, error %v, rule %q; want the latest version's true", got.Result, got.Error, got.Rule)
		}
		if len(got.Trace.Execution) != 1 || len(got.Trace.Execution[0].Conditions) != 1 {
			t.Fatalf("trace %+v", got.Trace)
		}
		c := got.Trace.Execution[0].Conditions[0]
		if c.Typename != "ComparisonCondition" || c.Property == nil || c.Property.Path != "$.Person.age" ||
			c.Value == nil || c.Value.Type != "NUMBER" || !reflect.DeepEqual(c.Value.Value, float64(60)) ||
			c.EvaluationDetails == nil || !c.EvaluationDetails.ComparisonResult || !c.Result {
			t.Errorf("condition %+v", c)
		}
		for name, v := range map[string]string{"engine": got.Execution.Engine, "total": got.Execution.Total, "database": got.Execution.Orchestrator.Database} {
			if v == "" || strings.Trim(v, "0123456789") != "" {
				t.Errorf("execution.%s = %q, want a string of digits", name, v)
			}
		}

		var old struct{ RunPolicyVersion runResult }
		f.post(t, adminKey, runPolicyVersionMutation, map[string]any{"policyId": v1.ID, "data": data}).decode(t, &old)
		if old.RunPolicyVersion.Result || old.RunPolicyVersion.Rule[0] != seniorRule {
			t.Errorf("run of version 1: %v on %q, want false on the first rule", old.RunPolicyVersion.Result, old.RunPolicyVersion.Rule)
		}

		f.post(t, adminKey, runPolicyMutation, map[string]any{"baseId": v1.BaseID, "data": []any{1}}).failure(t, service.CodeInvalidArgument)
	})
}

// Every result of an operation lives until the response is written: two
// runs in one operation must not share a trace.
func TestRunsInOneOperationKeepTheirOwnResults(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		const rule = "1.1. A **Person** is old if the __age__ of the **Person** is at least 65.\nA **Person** is senior if the **Person** is old."
		created := createPolicy(t, f, adminKey, map[string]any{"name": "labelled", "rule": rule})
		var got struct{ Old, Young, Again runResult }
		f.post(t, adminKey, `mutation Runs($id: ID!) {
			old: runPolicyVersion(input: {policyId: $id, data: {Person: {age: 70}}}) { ...R }
			young: runPolicyVersion(input: {policyId: $id, data: {Person: {age: 20}}}) { ...R }
			again: runPolicyVersion(input: {policyId: $id, data: {Person: {age: 80}}}) { ...R }
		}`+runFields, map[string]any{"id": created.Policy.ID}).decode(t, &got)

		for name, tc := range map[string]struct {
			res  runResult
			age  float64
			want bool
		}{"old": {got.Old, 70, true}, "young": {got.Young, 20, false}, "again": {got.Again, 80, true}} {
			if tc.res.Result != tc.want || tc.res.Labels["1.1"] != tc.want {
				t.Errorf("%s: result %v, labels %v; want %v", name, tc.res.Result, tc.res.Labels, tc.want)
			}
			var raw struct {
				Result bool
				Data   struct{ Person struct{ Age float64 } }
				Labels map[string]bool
			}
			if err := json.Unmarshal(tc.res.Raw, &raw); err != nil || raw.Result != tc.want || raw.Data.Person.Age != tc.age || raw.Labels["1.1"] != tc.want {
				t.Errorf("%s: raw %s (%v)", name, tc.res.Raw, err)
			}
			ref := tc.res.Trace.Execution[0].Conditions
			if len(ref) != 1 || ref[0].Typename != "ReferenceCondition" || ref[0].Result != tc.want {
				t.Errorf("%s: conditions %+v", name, ref)
			}
		}
	})
}

func TestDeletingAPolicyNeedsAnAdminAndLeavesItDeleted(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		editor := member(t, f, "edith", authz.RoleEditor)
		v1 := publishPolicy(t, f, adminKey, createPolicy(t, f, adminKey, map[string]any{"name": "senior", "rule": seniorRule}).Policy.ID, nil)
		const deleteMutation = `mutation Delete($id: ID!) { deletePolicy(input: {id: $id}) }`

		f.post(t, editor, deleteMutation, map[string]any{"id": v1.BaseID}).failure(t, service.CodePermissionDenied)
		var deleted struct{ DeletePolicy bool }
		f.post(t, adminKey, deleteMutation, map[string]any{"id": v1.ID}).decode(t, &deleted)
		if !deleted.DeletePolicy {
			t.Fatal("deletePolicy = false, want true")
		}

		data := map[string]any{"Person": map[string]any{"age": 70}}
		f.post(t, adminKey, policyQuery, map[string]any{"id": v1.BaseID}).nullFailure(t, "policy", service.CodeDeleted)
		f.post(t, adminKey, runPolicyMutation, map[string]any{"baseId": v1.BaseID, "data": data}).failure(t, service.CodeDeleted)
		f.post(t, adminKey, runPolicyVersionMutation, map[string]any{"policyId": v1.ID, "data": data}).failure(t, service.CodeDeleted)
		f.post(t, adminKey, deleteMutation, map[string]any{"id": v1.BaseID}).failure(t, service.CodeDeleted)
		var list policiesData
		f.post(t, adminKey, policiesQuery, nil).decode(t, &list)
		if len(list.Policies.Edges) != 0 {
			t.Errorf("a deleted policy is listed: %+v", list.Policies.Edges)
		}
	})
}

func TestPolicyIdsMustBeUUIDsOfTheCallersOrganization(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		created := createPolicy(t, f, adminKey, map[string]any{"name": "senior", "rule": seniorRule})
		publishPolicy(t, f, adminKey, created.Policy.ID, nil)
		beta, err := f.svc.Operator().Bootstrap(t.Context(), service.BootstrapInput{Organization: "Beta", Email: "boss@beta.test"})
		if err != nil {
			t.Fatal(err)
		}
		data := map[string]any{"Person": map[string]any{"age": 70}}

		t.Run("another organization's ids are not found", func(t *testing.T) {
			for _, id := range []string{created.Policy.ID, created.Policy.BaseID} {
				f.post(t, beta.Secret, policyQuery, map[string]any{"id": id}).nullFailure(t, "policy", service.CodeNotFound)
				f.post(t, beta.Secret, draftFromVersionMutation, map[string]any{"id": id}).failure(t, service.CodeNotFound)
			}
			f.post(t, beta.Secret, runPolicyMutation, map[string]any{"baseId": created.Policy.BaseID, "data": data}).failure(t, service.CodeNotFound)
			f.post(t, beta.Secret, runPolicyVersionMutation, map[string]any{"policyId": created.Policy.ID, "data": data}).failure(t, service.CodeNotFound)
		})
		t.Run("ids that are not UUIDs are invalid arguments", func(t *testing.T) {
			f.post(t, adminKey, policyQuery, map[string]any{"id": "senior"}).nullFailure(t, "policy", service.CodeInvalidArgument)
			f.post(t, adminKey, `{ policy(id: "42") { id } }`, nil).nullFailure(t, "policy", service.CodeInvalidArgument)
			f.post(t, adminKey, `mutation { deletePolicy(input: {id: "x"}) }`, nil).failure(t, service.CodeInvalidArgument)
			f.post(t, adminKey, runPolicyMutation, map[string]any{"baseId": "x", "data": data}).failure(t, service.CodeInvalidArgument)
			f.post(t, adminKey, `{ policies(groupId: "g") { pageInfo { hasNextPage } } }`, nil).failure(t, service.CodeInvalidArgument)
		})
	})
}
