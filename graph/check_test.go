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
