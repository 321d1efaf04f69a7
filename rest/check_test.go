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
