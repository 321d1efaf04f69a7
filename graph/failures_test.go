package graph_test

import (
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/graph"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/internal/requestid"
	"github.com/verdict/verdict/service"
)

// A resolver that fails because the database does not answer is logged as
// REST logs the same failure (a WARN "service unavailable" with its cause),
// with the field's path and the request's id.
func TestADatabaseFailureIsLoggedAsInRESTWithTheRequestID(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		var logs syncBuffer
		f := newFixture(t, db, withConfig(graph.Config{Logger: slog.New(requestid.NewHandler(slog.NewJSONHandler(&logs, nil)))}))
		f.post(t, adminKey, viewerQuery, nil).decode(t, &viewerData{}) // the key is remembered
		if err := db.SQL().Close(); err != nil {
			t.Fatal(err)
		}
		r := jsonRequest(`{"query": "mutation { createPolicy(input: {name: \"n\", rule: \"r\"}) { policy { id } } }"}`)
		r.Header.Set("X-Request-Id", "graph-outage-1")
		f.send(t, adminKey, r).failure(t, service.CodeUnavailable)

		// The service's own background work (the audit's upkeep, recording
		// the key's use) may find the database closed too and say so, but
		// not in this request's name.
		lines := slices.DeleteFunc(problems(t, logs.String()), func(line map[string]any) bool { return line["request_id"] != "graph-outage-1" })
		if len(lines) != 1 {
			t.Fatalf("%d lines of level WARN or ERROR with the request's id, want 1:\n%s", len(lines), logs.String())
		}
		line := lines[0]
		want := map[string]any{
			"level": "WARN", "msg": "service unavailable", "path": "createPolicy", "request_id": "graph-outage-1",
			"error": "input:1:12: createPolicy unavailable: the database is unavailable",
		}
		for k, v := range want {
			if line[k] != v {
				t.Errorf("%s = %v, want %v", k, line[k], v)
			}
		}
		// The cause ends with the database's own words; what comes before
		// is the store's.
		if cause, _ := line["cause"].(string); !strings.HasSuffix(cause, ": sql: database is closed") {
			t.Errorf("cause = %q, want the database's own words, sql: database is closed", cause)
		}
	})
}

// An authorizer that fails is logged by the service and by GraphQL, both
// lines with the request's id.
func TestAnAuthorizerFailureIsLoggedWithTheRequestID(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		az, err := authz.NewRemote("http://127.0.0.1:1")
		if err != nil {
			t.Fatal(err)
		}
		var logs syncBuffer
		f := newFixture(t, db, withAuthorizer(az),
			withConfig(graph.Config{Logger: slog.New(requestid.NewHandler(slog.NewJSONHandler(&logs, nil)))}))
		body, err := json.Marshal(map[string]any{"query": runRuleMutation, "variables": map[string]any{
			"rule": "A **P** is ok if the __a__ of the **P** is 1.", "data": map[string]any{"P": map[string]any{"a": 1}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		r := jsonRequest(string(body))
		r.Header.Set("X-Request-Id", "graph-authz-1")
		f.send(t, adminKey, r).failure(t, service.CodeAuthorizationUnavailable)

		lines := problems(t, logs.String())
		if len(lines) != 2 {
			t.Fatalf("%d lines of level WARN or ERROR, want 2:\n%s", len(lines), logs.String())
		}
		for i, want := range []map[string]any{
			{"level": "ERROR", "msg": "authorization failed; denying", "action": "run", "request_id": "graph-authz-1"},
			{"level": "WARN", "msg": "service unavailable", "path": "runRule", "request_id": "graph-authz-1",
				"error": "input:2:3: runRule authorization_unavailable: authorization is unavailable"},
		} {
			for k, v := range want {
				if lines[i][k] != v {
					t.Errorf("line %d: %s = %v, want %v", i+1, k, lines[i][k], v)
				}
			}
		}
	})
}

// problems returns the logged records of level WARN or ERROR.
func problems(t *testing.T, logs string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for line := range strings.Lines(logs) {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if rec["level"] == "WARN" || rec["level"] == "ERROR" {
			out = append(out, rec)
		}
	}
	return out
}
