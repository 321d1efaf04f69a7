package rest

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

func TestCheckAnswersTokensAndDiagnosticsAndStoresNothing(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		before := rowCounts(t, db)
		rule := "A **Person** gets senior discount if the __age__ of the **Person** is more than 65."
		body, _ := json.Marshal(map[string]string{"rule": rule})
		w := f.do("POST", "/check", strings.NewReader(string(body)), key(adminKey)...)
		wantStatus(t, w, 200)
		var got engine.CheckResult
		if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, engine.Check(rule)) {
			t.Errorf("POST /check = %s, want the engine's check of the text", w.Body)
		}
		if len(got.Diagnostics) != 1 || got.Diagnostics[0].Code != engine.CodeUnknownOperator ||
			!reflect.DeepEqual(got.Diagnostics[0].Suggestions, []string{"is greater than"}) {
			t.Errorf("diagnostics %+v, want one unknown-operator suggesting is greater than", got.Diagnostics)
		}
		if got.Tokens[0].Kind != engine.TokKeyword || got.Tokens[1].Kind != engine.TokSelector {
			t.Errorf("tokens start %+v, want a keyword then a selector", got.Tokens[:2])
		}
		if after := rowCounts(t, db); !reflect.DeepEqual(before, after) {
			t.Errorf("rows %v after a check, %v before", after, before)
		}
	})
}

func TestCheckRefusesABodyWithoutARule(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		for _, body := range []string{`{}`, `{"rule": 5}`, `not json`, `{"rule": "x", "extra": 1}`} {
			w := f.do("POST", "/check", strings.NewReader(body), key(adminKey)...)
			wantError(t, w, 400, service.CodeInvalidArgument)
		}
	})
}

// applicantSchema lists the names of the mortgage data's applicant.
const applicantSchema = `{"type": "object", "properties": {"Applicant": {"type": "object",
	"properties": {"monthlyIncome": {"type": "number"}, "debtRatio": {"type": "number"}}}}}`

func TestCheckFollowsTheRulesNamesThroughASchema(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		rule := "A **Applicant** gets credit if the __montly income__ of the **Applicant** is at least 3000."
		for _, tc := range []struct {
			schema string
			want   []string // codes
		}{
			{applicantSchema, []string{engine.CodeNotInSchema}},
			{`null`, nil},
			{`true`, nil},
			{``, nil},
		} {
			quoted, _ := json.Marshal(rule)
			body := `{"rule": ` + string(quoted)
			if tc.schema != "" {
				body += `, "schema": ` + tc.schema
			}
			w := f.do("POST", "/check", strings.NewReader(body+"}"), key(adminKey)...)
			wantStatus(t, w, 200)
			var got engine.CheckResult
			if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			var codes []string
			for _, d := range got.Diagnostics {
				codes = append(codes, d.Code)
			}
			if !reflect.DeepEqual(codes, tc.want) {
				t.Errorf("schema %s: diagnostics %+v, want codes %v", tc.schema, got.Diagnostics, tc.want)
			}
			if tc.want != nil && !reflect.DeepEqual(got.Diagnostics[0].Suggestions, []string{"monthlyIncome"}) {
				t.Errorf("suggestions %v, want monthlyIncome", got.Diagnostics[0].Suggestions)
			}
		}
		for _, schema := range []string{`[]`, `5`, `"a schema"`} {
			w := f.do("POST", "/check", strings.NewReader(`{"rule": "x", "schema": `+schema+`}`), key(adminKey)...)
			wantError(t, w, 400, service.CodeInvalidArgument)
			if !strings.Contains(w.Body.String(), "schema must be a JSON Schema") {
				t.Errorf("schema %s: %s", schema, w.Body)
			}
		}
	})
}

func TestASavedDraftIsCheckedAgainstItsSchema(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		var created service.SavedPolicy
		w := f.do("POST", "/policy", strings.NewReader(`{"name": "Credit", "schema": `+applicantSchema+`,
			"rule": "A **Applicant** gets credit if the __montly income__ of the **Applicant** is at least 3000."}`), key(adminKey)...)
		wantStatus(t, w, 201)
		if err := json.Unmarshal(w.Body.Bytes(), &created); err != nil {
			t.Fatal(err)
		}
		if d := created.Validation.Diagnostics; len(d) != 1 || d[0].Code != engine.CodeNotInSchema ||
			d[0].Message != `The schema of the data lists no property "montly income" at $.Applicant: is the name misspelt, or is the schema missing it?` {
			t.Errorf("diagnostics of the created draft %+v", d)
		}
		// A save that leaves the rule as it is, and drops the schema, is checked against none.
		w = f.do("PUT", "/policy/"+created.ID.String(), strings.NewReader(`{"status": "draft", "schema": null}`), key(adminKey)...)
		wantStatus(t, w, 200)
		var saved service.SavedPolicy
		if err := json.Unmarshal(w.Body.Bytes(), &saved); err != nil {
			t.Fatal(err)
		}
		if d := saved.Validation.Diagnostics; len(d) != 0 {
			t.Errorf("diagnostics without a schema %+v", d)
		}
	})
}
