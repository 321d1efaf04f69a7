package rest

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// TestTextTheDatabasesCannotStoreIsInvalid sends what PostgreSQL refuses
// (a NUL character, bytes that are not UTF-8, an indexed name longer than
// its index allows) to every route that stores or searches text: each is
// invalid_argument on both databases, and nothing is stored.
func TestTextTheDatabasesCannotStoreIsInvalid(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		json := append(key(adminKey), "Content-Type", "application/json")
		w := f.do(http.MethodPost, "/policy", strings.NewReader(seniorPolicy), json...)
		wantStatus(t, w, http.StatusCreated)
		var pol service.Policy
		decode(t, w.Body.Bytes(), &pol)
		w = f.do(http.MethodPost, "/group", strings.NewReader(`{"name": "Pricing"}`), json...)
		wantStatus(t, w, http.StatusCreated)
		var g service.Group
		decode(t, w.Body.Bytes(), &g)
		flowBody := strings.ReplaceAll(seniorFlow, "{policyId}", pol.ID.String())
		nulJSONText := definitionAsText(t, strings.ReplaceAll(strings.ReplaceAll(seniorDefinition, "{policyId}", pol.ID.String()), `"yes"`, `"yes\u0000"`))
		nulYAML := definitionAsText(t, "formatVersion: 1\nnodes:\n"+
			`  - {id: s, type: start, policy: {id: "`+pol.ID.String()+`"}, onTrue: "yes\0", onFalse: "no"}`+"\n"+
			`  - {id: "yes\0", type: return, returnValue: true}`+"\n"+
			`  - {id: "no", type: return, returnValue: false}`+"\n")

		long := strings.Repeat("é", service.MaxNameLength+1)
		huge := strings.Repeat("x", 3000) // above PostgreSQL's btree entry limit
		for _, tc := range []struct{ name, method, path, body string }{
			{"a NUL in a policy name", http.MethodPost, "/policy", `{"name": "a\u0000b", "rule": ""}`},
			{"a NUL in a rule", http.MethodPost, "/policy", `{"name": "n", "rule": "A **P** is ok\u0000"}`},
			{"a NUL in a rule run inline", http.MethodPost, "/run", `{"rule": "A **P** is ok if the __a__ of the **P** is at least 1.\u0000", "data": {"P": {"a": 2}}}`},
			{"a NUL in a rule checked", http.MethodPost, "/check", `{"rule": "A **P** is ok\u0000"}`},
			{"a NUL in a description", http.MethodPost, "/policy", `{"name": "n", "rule": "", "description": "\u0000"}`},
			{"a NUL in a test name", http.MethodPost, "/policy", `{"name": "n", "rule": "", "tests": [{"name": "t\u0000", "data": {}, "expect": true}]}`},
			{"a NUL in test data", http.MethodPost, "/policy", `{"name": "n", "rule": "", "tests": [{"name": "t", "data": {"P": "\u0000"}, "expect": true}]}`},
			{"a NUL in a schema", http.MethodPost, "/policy", `{"name": "n", "rule": "", "schema": {"title": "\u0000"}}`},
			{"a policy name over the limit", http.MethodPost, "/policy", fmt.Sprintf(`{"name": %q, "rule": ""}`, long)},
			{"a policy name over the index limit", http.MethodPost, "/policy", fmt.Sprintf(`{"name": %q, "rule": ""}`, huge)},
			{"a description over the limit", http.MethodPost, "/policy", fmt.Sprintf(`{"name": "n", "rule": "", "description": %q}`, strings.Repeat("d", service.MaxDescriptionLength+1))},
			{"a rule over the limit", http.MethodPost, "/policy", fmt.Sprintf(`{"name": "n", "rule": %q}`, strings.Repeat("r", service.MaxRuleBytes+1))},
			{"a test name over the limit", http.MethodPost, "/policy", fmt.Sprintf(`{"name": "n", "rule": "", "tests": [{"name": %q, "data": {}, "expect": true}]}`, long)},
			{"a NUL in a draft's new rule", http.MethodPut, "/policy/" + pol.ID.String(), `{"rule": "\u0000"}`},
			{"a NUL in a draft's new name", http.MethodPut, "/policy/" + pol.ID.String(), `{"name": "x\u0000"}`},
			{"a NUL in a flow name", http.MethodPost, "/flow", strings.Replace(flowBody, `"Senior flow"`, `"Senior\u0000flow"`, 1)},
			{"a NUL in a flow definition", http.MethodPost, "/flow", strings.Replace(flowBody, `"id": "yes"`, `"id": "yes\u0000"`, 1)},
			{"a NUL in a flow definition sent as JSON text", http.MethodPost, "/flow", nulJSONText},
			{"a NUL in a flow definition sent as YAML", http.MethodPost, "/flow", nulYAML},
			{"a NUL in a flow tested as YAML", http.MethodPost, "/flow/test", strings.Replace(strings.Replace(nulYAML, `"name": "n"`, `"data": `+seniorInput, 1), `"definition"`, `"flow"`, 1)},
			{"a flow name over the limit", http.MethodPost, "/flow", strings.Replace(flowBody, `"Senior flow"`, fmt.Sprintf("%q", huge), 1)},
			{"a NUL in a group name", http.MethodPost, "/group", `{"name": "\u0000"}`},
			{"a group description over the limit", http.MethodPut, "/group/" + g.ID.String(), fmt.Sprintf(`{"description": %q}`, strings.Repeat("d", service.MaxDescriptionLength+1))},
			{"a group name over the limit", http.MethodPost, "/group", fmt.Sprintf(`{"name": %q}`, huge)},
			{"a NUL in a member's name", http.MethodPost, "/admin/members", `{"email": "nul@acme.test", "name": "\u0000", "role": "viewer"}`},
			{"a NUL in a member's email", http.MethodPost, "/admin/members", `{"email": "nul\u0000@acme.test", "role": "viewer"}`},
			{"a member's name over the limit", http.MethodPost, "/admin/members", fmt.Sprintf(`{"email": "long@acme.test", "name": %q, "role": "viewer"}`, huge)},
			{"an email over the limit", http.MethodPost, "/admin/members", fmt.Sprintf(`{"email": "%s@acme.test", "role": "viewer"}`, huge)},
			{"a NUL in a key's name", http.MethodPost, "/admin/keys", `{"name": "k\u0000", "scope": "view"}`},
			{"a key name over the limit", http.MethodPost, "/admin/keys", fmt.Sprintf(`{"name": %q, "scope": "view"}`, huge)},
			{"an escape sequence in a key's name", http.MethodPost, "/admin/keys", `{"name": "ci\u001b]0;pwned\u0007", "scope": "view"}`},
			{"a line break in a member's name", http.MethodPost, "/admin/members", `{"email": "cr@acme.test", "name": "Eve\rAdministrator", "role": "viewer"}`},
			{"a tab in a policy name", http.MethodPost, "/policy", `{"name": "a\tb", "rule": ""}`},
			{"a line break in a draft's new name", http.MethodPut, "/policy/" + pol.ID.String(), `{"name": "x\ny"}`},
			{"a C1 control in a group name", http.MethodPost, "/group", `{"name": "g\u009b31m"}`},
			{"a line break in a test name", http.MethodPost, "/policy", `{"name": "n", "rule": "", "tests": [{"name": "t\n", "data": {}, "expect": true}]}`},
			{"a line separator in a flow name", http.MethodPost, "/flow", strings.Replace(flowBody, `"Senior flow"`, `"Senior\u2028flow"`, 1)},
			{"a direction override in a group name", http.MethodPost, "/group", `{"name": "invoice\u202egpj.exe"}`},
			{"a NUL in a policy search", http.MethodGet, "/policies?q=%00", ""},
			{"bytes that are not UTF-8 in a search", http.MethodGet, "/flows?q=%FF%FE", ""},
			{"a search over the limit", http.MethodGet, "/groups?q=" + strings.Repeat("q", service.MaxQueryLength+1), ""},
			{"a NUL in a member search", http.MethodGet, "/admin/members?q=%00", ""},
			{"a NUL in a key search", http.MethodGet, "/admin/keys?q=a%00", ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				before := rowCounts(t, db)
				wantError(t, f.do(tc.method, tc.path, strings.NewReader(tc.body), json...), http.StatusBadRequest, service.CodeInvalidArgument)
				if after := rowCounts(t, db); !maps.Equal(before, after) {
					t.Errorf("rows before %v, after %v", before, after)
				}
			})
		}

		t.Run("a name at the limit is stored as sent", func(t *testing.T) {
			name := strings.Repeat("é", service.MaxNameLength)
			w := f.do(http.MethodPost, "/group", strings.NewReader(fmt.Sprintf(`{"name": %q}`, name)), json...)
			wantStatus(t, w, http.StatusCreated)
			var got service.Group
			decode(t, w.Body.Bytes(), &got)
			if got.Name != name {
				t.Errorf("stored name of %d characters, want %d", len([]rune(got.Name)), service.MaxNameLength)
			}
		})
	})
}

// definitionAsText is the body of a flow whose definition is sent as
// text, JSON or YAML: a NUL it holds escaped is one only once decoded.
func definitionAsText(t *testing.T, definition string) string {
	t.Helper()
	text, err := json.Marshal(definition)
	if err != nil {
		t.Fatal(err)
	}
	return `{"name": "n", "definition": ` + string(text) + `}`
}

func decode(t *testing.T, body []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
}

// A 503 keeps its cause from the caller, and tells the log.
func TestAnUnavailableDatabaseIsLoggedWithItsCause(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		f.do(http.MethodGet, "/policies", nil, key(adminKey)...) // the key is remembered
		if err := db.SQL().Close(); err != nil {
			t.Fatal(err)
		}
		w := f.do(http.MethodGet, "/policies", nil, append(key(adminKey), "X-Request-Id", "outage-1")...)
		wantError(t, w, http.StatusServiceUnavailable, service.CodeUnavailable)
		if w.Header().Get("Retry-After") != "1" {
			t.Errorf("Retry-After %q, want 1", w.Header().Get("Retry-After"))
		}
		if strings.Contains(w.Body.String(), "closed") {
			t.Errorf("the answer shows the cause: %s", w.Body)
		}
		lines := f.logs.lines(t, "service unavailable")
		if len(lines) != 1 || lines[0]["level"] != "WARN" || lines[0]["request_id"] != "outage-1" ||
			!strings.Contains(fmt.Sprint(lines[0]["cause"]), "database is closed") {
			t.Errorf("logged %v; want one WARN line with the request id outage-1, whose cause says the database is closed", lines)
		}
	})
}

func TestAQueryStringThatDoesNotDecodeIsInvalid(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		for _, path := range []string{"/policies?q=%zz", "/flows?limit=5&q=a%2", "/audit?action=%"} {
			w := f.do(http.MethodGet, path, nil, key(adminKey)...)
			wantError(t, w, http.StatusBadRequest, service.CodeInvalidArgument)
			if !strings.Contains(w.Body.String(), "invalid URL escape") {
				t.Errorf("%s: %s; want the broken escape named", path, w.Body)
			}
		}
		wantStatus(t, f.do(http.MethodGet, "/policies?q=%41", nil, key(adminKey)...), http.StatusOK)
	})
}
