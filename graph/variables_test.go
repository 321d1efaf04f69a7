package graph_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// An enum's value in a variable is the exact name of one of its values,
// as in the document's text: another case is refused before anything
// runs, as an unknown name is, rather than read as no value at all (which
// dropped a filter, and answered the whole audit log).
func TestEnumVariablesMustNameAValueExactly(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := t.Context()
		createPolicy(t, f, adminKey, map[string]any{"name": "senior", "rule": seniorRule})
		policy := createPolicy(t, f, adminKey, map[string]any{"name": "junior", "rule": seniorRule}).Policy
		group := createGroup(t, f, adminKey, map[string]any{"name": "Lending"})
		member(t, f, "edith", authz.RoleEditor)
		var editorID string
		{
			var got struct {
				Members struct{ Edges []struct{ Node memberData } }
			}
			f.post(t, adminKey, membersQuery, nil).decode(t, &got)
			for _, e := range got.Members.Edges {
				if e.Node.User.Email == "edith@acme.test" {
					editorID = e.Node.User.ID
				}
			}
		}
		const auditActions = "CREATED, EDITED, PUBLISHED, ASSIGNED, EXECUTED, DELETED"
		for _, tc := range []struct {
			name, query string
			vars        map[string]any
			want        string
		}{
			{"an audit action in lower case", `query($a: AuditAction) { auditEvents(filter: {action: $a}) { totalCount } }`, map[string]any{"a": "created"},
				`variable $a must be one of the AuditAction values ` + auditActions + `, not the string "created" (enum values are written exactly as the schema has them: CREATED)`},
			{"an unknown audit action", `query($a: AuditAction) { auditEvents(filter: {action: $a}) { totalCount } }`, map[string]any{"a": "bogus"},
				`variable $a must be one of the AuditAction values ` + auditActions + `, not the string "bogus"`},
			{"an audit kind in lower case, in an input object", `query($f: AuditFilter) { auditEvents(filter: $f) { totalCount } }`, map[string]any{"f": map[string]any{"kind": "policy"}},
				`variable $f.kind must be one of the AuditKind values POLICY, FLOW, GROUP, MEMBER, KEY, not the string "policy" (enum values are written exactly as the schema has them: POLICY)`},
			{"a role in lower case", addMemberMutation, map[string]any{"input": map[string]any{"email": "nora@acme.test", "role": "editor"}},
				`variable $input.role must be one of the Role values VIEWER, EDITOR, PUBLISHER, ADMIN, AUDITOR, not the string "editor" (enum values are written exactly as the schema has them: EDITOR)`},
			{"a new role in mixed case", changeRoleMutation, map[string]any{"userId": editorID, "role": "Viewer"},
				`variable $role must be one of the Role values VIEWER, EDITOR, PUBLISHER, ADMIN, AUDITOR, not the string "Viewer" (enum values are written exactly as the schema has them: VIEWER)`},
			{"a scope in lower case", createKeyMutation, map[string]any{"input": map[string]any{"name": "ci", "scope": "view"}},
				`variable $input.scope must be one of the Scope values VIEW, EDIT, PUBLISH, ADMIN, not the string "view" (enum values are written exactly as the schema has them: VIEW)`},
			{"a group member kind in lower case", addGroupMemberMutation, map[string]any{"groupId": group.ID, "kind": "policy", "baseId": policy.BaseID},
				`variable $kind must be one of the GroupMemberKind values POLICY, FLOW, not the string "policy" (enum values are written exactly as the schema has them: POLICY)`},
			{"a membership's kind in lower case", `query($id: ID!, $kind: GroupMemberKind!, $base: ID!) { group(id: $id) { membership(kind: $kind, baseId: $base) { id } } }`,
				map[string]any{"id": group.ID, "kind": "flow", "base": policy.BaseID},
				`variable $kind must be one of the GroupMemberKind values POLICY, FLOW, not the string "flow" (enum values are written exactly as the schema has them: FLOW)`},
			{"a number for an enum", `query($a: AuditAction) { auditEvents(filter: {action: $a}) { totalCount } }`, map[string]any{"a": 1},
				`variable $a must be one of the AuditAction values ` + auditActions + `, not the number 1`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				res := f.post(t, adminKey, tc.query, tc.vars)
				if e := res.refused(t); e.Message != tc.want {
					t.Errorf("message %q,\nwant    %q", e.Message, tc.want)
				}
			})
		}
		// Nothing the refused mutations asked for was written.
		if n, err := db.Client().Membership.Query().Count(ctx); err != nil || n != 2 {
			t.Errorf("%d memberships (%v), want the admin's and the editor's", n, err)
		}
		if n, err := db.Client().APIKey.Query().Count(ctx); err != nil || n != 2 {
			t.Errorf("%d keys (%v), want the admin's and the editor's", n, err)
		}
		if n, err := db.Client().GroupMember.Query().Count(ctx); err != nil || n != 0 {
			t.Errorf("%d group members (%v), want none", n, err)
		}
		var members struct {
			Members struct{ Edges []struct{ Node memberData } }
		}
		f.post(t, adminKey, membersQuery, nil).decode(t, &members)
		for _, e := range members.Members.Edges {
			if e.Node.User.ID == editorID && e.Node.Role != "EDITOR" {
				t.Errorf("the editor's role is %s", e.Node.Role)
			}
		}
		// The exact name filters: the EDITED events are the operator's, who
		// made the admin's and the editor's memberships and keys.
		var got struct{ AuditEvents struct{ TotalCount int } }
		f.post(t, adminKey, `query($a: AuditAction) { auditEvents(filter: {action: $a}) { totalCount } }`, map[string]any{"a": "EDITED"}).decode(t, &got)
		if got.AuditEvents.TotalCount != 4 {
			t.Errorf("%d EDITED events, want the setup's 4", got.AuditEvents.TotalCount)
		}
	})
}

// Variables of the built-in scalars and of input objects hold what their
// types take, as JSON writes it, and a refusal says what was sent in
// JSON's words.
func TestVariablesHoldValuesOfTheirTypes(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		const (
			first    = `query($f: Int) { policies(first: $f) { totalCount } }`
			sample   = `mutation($r: Float!) { setDecisionRecords(input: {policyId: "00000000-0000-0000-0000-000000000000", enabled: true, sampleRate: $r}) { enabled } }`
			replace  = `mutation($r: Boolean) { createPolicyDraftFromVersion(input: {id: "00000000-0000-0000-0000-000000000000", replace: $r}) { id } }`
			search   = `query($q: String) { policies(query: $q) { totalCount } }`
			lookup   = `query($id: ID!) { policy(id: $id) { id } }`
			run      = `mutation($i: RunRuleInput!) { runRule(input: $i) { result } }`
			intRange = "a whole number from -2147483648 to 2147483647 written without a fraction or exponent"
		)
		for _, tc := range []struct {
			name, query, vars, want string
		}{
			{"a string for an Int", first, `{"f": "5"}`, `variable $f must be an Int, a whole number, not the string "5"`},
			{"a boolean for an Int", first, `{"f": true}`, `variable $f must be an Int, a whole number, not the boolean true`},
			{"an Int beyond 32 bits", first, `{"f": 3000000000}`, `variable $f must be an Int, ` + intRange + `, not the number 3000000000`},
			{"a fraction for an Int", first, `{"f": 1.5}`, `variable $f must be an Int, ` + intRange + `, not the number 1.5`},
			{"an exponent for an Int", first, `{"f": 1e300}`, `variable $f must be an Int, ` + intRange + `, not the number 1e300`},
			{"a string for a Float", sample, `{"r": "0.5"}`, `variable $r must be a Float, a number, not the string "0.5"`},
			{"a Float out of range", sample, `{"r": 1e400}`, `variable $r must be a Float, a number of at most about 1.8e308 in size, not the number 1e400`},
			{"a number for a Boolean", replace, `{"r": 1}`, `variable $r must be a Boolean, true or false, not the number 1`},
			{"a string for a Boolean", replace, `{"r": "true"}`, `variable $r must be a Boolean, true or false, not the string "true"`},
			{"an object for a String", search, `{"q": {"a": 1}}`, `variable $q must be a String, not an object`},
			{"a boolean for an ID", lookup, `{"id": true}`, `variable $id must be an ID, a string, not the boolean true`},
			{"an array for an ID", lookup, `{"id": ["x"]}`, `variable $id must be an ID, a string, not an array`},
			{"a missing variable", lookup, `{}`, `variable $id of type ID! is not given`},
			{"a null variable", lookup, `{"id": null}`, `variable $id must not be null: its type is ID!`},
			{"a string for an input object", run, `{"i": "x"}`, `variable $i must be an object (RunRuleInput), not the string "x"`},
			{"an unknown field", run, `{"i": {"rule": "x", "data": {}, "dat": {}}}`, `variable $i holds the field "dat", which RunRuleInput does not have (its fields are rule, data)`},
			{"a missing field", run, `{"i": {"data": {}}}`, `variable $i lacks the field rule (String!), which RunRuleInput requires`},
			{"a null field", run, `{"i": {"rule": null, "data": {}}}`, `variable $i.rule must not be null: its type is String!`},
			{"a number for a String in an input object", run, `{"i": {"rule": 5, "data": {}}}`, `variable $i.rule must be a String, not the number 5`},
			{"a long value is quoted in part", first, `{"f": "` + strings.Repeat("9", 60) + `"}`, `variable $f must be an Int, a whole number, not the string "` + strings.Repeat("9", 40) + `…"`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := jsonRequest(`{"query": ` + quote(tc.query) + `, "variables": ` + tc.vars + `}`)
				if e := f.send(t, adminKey, r).refused(t); e.Message != tc.want {
					t.Errorf("message %q,\nwant    %q", e.Message, tc.want)
				}
			})
		}
		t.Run("what each type takes", func(t *testing.T) {
			r := jsonRequest(`{"query": "query($f: Int, $q: String, $id: ID!) { policies(first: $f, query: $q) { totalCount } policy(id: $id) { id } }",
				"variables": {"f": 200, "q": "x", "id": "00000000-0000-0000-0000-000000000000"}}`)
			res := f.send(t, adminKey, r)
			if res.Status != http.StatusOK || string(res.Data) != `{"policies":{"totalCount":0},"policy":null}` {
				t.Errorf("%d %s %+v", res.Status, res.Data, res.Errors)
			}
			res.fieldFailure(t, service.CodeNotFound)
		})
	})
}

// What the document writes for an Int is within 32 bits, as a variable's
// is; and an id of the wrong JSON type is named in JSON's terms whether the
// document or a variable holds it.
func TestLiteralsAndScalarsAreNamedInJSONTerms(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		e := f.post(t, adminKey, `{ policies(first: 3000000000) { totalCount } }`, nil).refused(t)
		if want := "the Int 3000000000 is out of range: an Int is a whole number from -2147483648 to 2147483647"; e.Message != want {
			t.Errorf("message %q, want %q", e.Message, want)
		}
		for _, tc := range []struct {
			query, vars, field, want string
		}{
			{`{ policy(id: 123) { id } }`, `{}`, "policy", "an id must be a string, not the number 123"},
			{`query($id: ID!) { policy(id: $id) { id } }`, `{"id": 123}`, "policy", "an id must be a string, not the number 123"},
		} {
			res := f.send(t, adminKey, jsonRequest(`{"query": `+quote(tc.query)+`, "variables": `+tc.vars+`}`))
			if e := res.fieldFailure(t, service.CodeInvalidArgument); e.Message != tc.want || res.Status != http.StatusOK {
				t.Errorf("%s %s: %d %q, want %q", tc.query, tc.vars, res.Status, e.Message, tc.want)
			}
		}
	})
}

// A Time, in a variable, nested in one's input object, or written in the
// document, is checked before anything runs, as the built-in scalars are:
// a mutation before the field that takes it writes nothing, and a query
// is refused with 422 rather than answered with a field's error.
func TestTimesAreCheckedBeforeAnythingRuns(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := t.Context()
		const timeExpected = "a Time, an RFC 3339 string such as 2027-01-31T00:00:00Z"
		for _, tc := range []struct {
			name, query, vars, want string
		}{
			{"a variable, after a mutation", `mutation($t: Time) { createGroup(input: {name: "x"}) { id } createKey(input: {name: "k", scope: VIEW, expiresAt: $t}) { secret } }`,
				`{"t": "yesterday"}`, `variable $t must be ` + timeExpected + `, not the string "yesterday"`},
			{"a literal, after a mutation", `mutation { createGroup(input: {name: "x"}) { id } createKey(input: {name: "k", scope: VIEW, expiresAt: "yesterday"}) { secret } }`,
				`{}`, `the argument input of createKey, at expiresAt: the value must be ` + timeExpected + `, not the string "yesterday"`},
			{"in an input object's variable", `mutation($i: CreateKeyInput!) { createGroup(input: {name: "x"}) { id } createKey(input: $i) { secret } }`,
				`{"i": {"name": "k", "scope": "VIEW", "expiresAt": "2026-13-01T00:00:00Z"}}`, `variable $i.expiresAt must be ` + timeExpected + `, not the string "2026-13-01T00:00:00Z"`},
			{"in a filter's variable", `query($f: AuditFilter) { auditEvents(filter: $f) { totalCount } }`,
				`{"f": {"since": "yesterday"}}`, `variable $f.since must be ` + timeExpected + `, not the string "yesterday"`},
			{"a number in a variable", `query($t: Time) { decisions(filter: {since: $t}) { totalCount } }`,
				`{"t": 12345}`, `variable $t must be ` + timeExpected + `, not the number 12345`},
			{"a number in the document", `{ decisions(filter: {since: 12345}) { totalCount } }`,
				`{}`, `the argument filter of decisions, at since: the value must be ` + timeExpected + `, not the number 12345`},
			{"an enum value in the document", `{ auditEvents(filter: {until: TOMORROW}) { totalCount } }`,
				`{}`, `the argument filter of auditEvents, at until: the value must be ` + timeExpected + `, not the enum value TOMORROW`},
			{"a variable's default value", `query($t: Time = "yesterday") { decisions(filter: {since: $t}) { totalCount } }`,
				`{}`, `the default value of $t: the value must be ` + timeExpected + `, not the string "yesterday"`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := jsonRequest(`{"query": ` + quote(tc.query) + `, "variables": ` + tc.vars + `}`)
				if e := f.send(t, adminKey, r).refused(t); e.Message != tc.want {
					t.Errorf("message %q,\nwant    %q", e.Message, tc.want)
				}
			})
		}
		if n, err := db.Client().Group.Query().Count(ctx); err != nil || n != 0 {
			t.Errorf("%d groups (%v), want none", n, err)
		}
		if n, err := db.Client().APIKey.Query().Count(ctx); err != nil || n != 1 {
			t.Errorf("%d keys (%v), want the admin's", n, err)
		}
		t.Run("an RFC 3339 time is taken", func(t *testing.T) {
			var got struct {
				CreateGroup struct{ ID string }
				CreateKey   struct{ Key struct{ ExpiresAt string } }
			}
			f.post(t, adminKey, `mutation($t: Time) { createGroup(input: {name: "x"}) { id } createKey(input: {name: "k", scope: VIEW, expiresAt: $t}) { key { expiresAt } } }`,
				map[string]any{"t": "2030-01-02T15:04:05+01:00"}).decode(t, &got)
			if got.CreateKey.Key.ExpiresAt != "2030-01-02T14:04:05Z" {
				t.Errorf("expiresAt %q", got.CreateKey.Key.ExpiresAt)
			}
			var events struct{ AuditEvents struct{ TotalCount int } }
			f.post(t, adminKey, `{ auditEvents(filter: {since: "2000-01-01T00:00:00Z", until: "2100-01-01T00:00:00.5Z"}) { totalCount } }`, nil).decode(t, &events)
			// Besides the bootstrap's two, the admin's membership and key.
			if events.AuditEvents.TotalCount != 4 {
				t.Errorf("%d events, want the group's and the key's, and the bootstrap's", events.AuditEvents.TotalCount)
			}
		})
	})
}
