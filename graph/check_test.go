package graph_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

const checkRuleQuery = `query Check($rule: String!) {
  checkRule(rule: $rule) {
    tokens { kind range { start { line column } end { line column } } }
    diagnostics {
      severity code message suggestions
      range { start { line column } end { line column } }
    }
  }
}`

func TestCheckRuleAnswersWhatTheEngineFinds(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		rule := "a **Person** gets senior discount if the __age__ of the **Person** is at least 1,000"
		var got struct {
			CheckRule struct {
				Tokens      []engine.Token
				Diagnostics []struct {
					Severity, Code, Message string
					Range                   engine.Range
					Suggestions             []string
				}
			}
		}
		f.post(t, adminKey, checkRuleQuery, map[string]any{"rule": rule}).decode(t, &got)
		want := engine.Check(rule)
		if !reflect.DeepEqual(got.CheckRule.Tokens, want.Tokens) {
			t.Errorf("tokens %+v, want %+v", got.CheckRule.Tokens, want.Tokens)
		}
		if len(got.CheckRule.Diagnostics) != len(want.Diagnostics) {
			t.Fatalf("diagnostics %+v, want %+v", got.CheckRule.Diagnostics, want.Diagnostics)
		}
		for i, d := range got.CheckRule.Diagnostics {
			w := want.Diagnostics[i]
			if d.Severity != strings.ToUpper(w.Severity) || d.Code != w.Code || d.Message != w.Message ||
				d.Range != w.Range || !reflect.DeepEqual(d.Suggestions, w.Suggestions) {
				t.Errorf("diagnostic %d = %+v, want %+v", i, d, w)
			}
		}
		if got.CheckRule.Diagnostics[0].Code != engine.CodeLowercaseArticle {
			t.Errorf("first diagnostic %s, want %s", got.CheckRule.Diagnostics[0].Code, engine.CodeLowercaseArticle)
		}
	})
}

func TestCheckRuleNeedsAPrincipal(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		f.post(t, "", checkRuleQuery, map[string]any{"rule": "x"}).
			failure(t, service.CodeUnauthenticated)
	})
}

func TestCheckRuleFollowsTheRulesNamesThroughASchema(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		const query = `query Check($rule: String!, $schema: JSON) {
  checkRule(rule: $rule, schema: $schema) { diagnostics { code message suggestions } }
}`
		rule := "A **Applicant** gets credit if the __montly income__ of the **Aplicant** is at least 3000."
		schema := map[string]any{"type": "object", "properties": map[string]any{
			"Applicant": map[string]any{"type": "object", "properties": map[string]any{"monthlyIncome": map[string]any{}}}}}
		var got struct {
			CheckRule struct {
				Diagnostics []struct {
					Code, Message string
					Suggestions   []string
				}
			}
		}
		f.post(t, adminKey, query, map[string]any{"rule": rule, "schema": schema}).decode(t, &got)
		if d := got.CheckRule.Diagnostics; len(d) != 1 || d[0].Code != engine.CodeNotInSchema ||
			d[0].Message != `The schema of the data lists no member "Aplicant" at the top level: is the name misspelt, or is the schema missing it?` ||
			!reflect.DeepEqual(d[0].Suggestions, []string{"Applicant"}) {
			t.Errorf("diagnostics %+v", d)
		}
		f.post(t, adminKey, query, map[string]any{"rule": rule}).decode(t, &got)
		if d := got.CheckRule.Diagnostics; len(d) != 0 {
			t.Errorf("diagnostics without a schema %+v", d)
		}
		f.post(t, adminKey, query, map[string]any{"rule": rule, "schema": []any{}}).
			failure(t, service.CodeInvalidArgument)
	})
}

func TestCheckRuleFieldsAreChargedTheTokensTheyBuild(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		// 255,270 tokens, 24.5 MB of JSON, which gqlgen builds as a
		// million objects: each field is past the 64 MiB bound, and the
		// text is checked once for all sixteen.
		line := "A **P** is ok if the __a__ of the **P** is in [" + strings.Repeat("1,", 998) + "1].\n"
		rule := strings.Repeat(line, 262000/len(line))
		var query strings.Builder
		query.WriteString("query($r: String!) {")
		for i := range 16 {
			fmt.Fprintf(&query, " c%d: checkRule(rule: $r) { tokens { kind range { start { line column } end { line column } } } }", i)
		}
		query.WriteString(" }")
		r := f.post(t, adminKey, query.String(), map[string]any{"r": rule})
		if !noData(r.Data) {
			t.Errorf("data %.200s, want none", r.Data)
		}
		if len(r.Errors) != 16 {
			t.Fatalf("%d errors, want 16: %.500v", len(r.Errors), r.Errors)
		}
		for _, e := range r.Errors {
			if e.Extensions["code"] != string(service.CodeInvalidArgument) ||
				e.Message != "this request would answer more than 64.0 MiB; ask for fewer runs, checks or records in one request" {
				t.Errorf("error %+v, want the bound's", e)
			}
		}
		// A field asking for the diagnostics alone is not charged the
		// tokens it does not answer.
		r = f.post(t, adminKey, `query($r: String!) { checkRule(rule: $r) { diagnostics { code } } }`, map[string]any{"r": rule})
		if len(r.Errors) != 0 || !strings.HasPrefix(string(r.Data), `{"checkRule":{"diagnostics":[{"code":"unused-rule"}`) {
			t.Errorf("diagnostics alone: %.300s, %.300v; want the warnings", r.Data, r.Errors)
		}
	})
}
