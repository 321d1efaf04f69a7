package graph_test

import (
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
