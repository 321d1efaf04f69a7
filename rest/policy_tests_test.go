package rest

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

func TestPolicyTestsRunOnDemandStoredOrGiven(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		team := f.team(t)
		admin := team["admin"]
		w := f.call(t, admin, http.MethodPost, "/policy", `{"name": "senior", "rule": "A **Person** gets senior_discount if the __age__ of the **Person** is at least 65.",
			"tests": [{"name": "70 is senior", "data": {"Person": {"age": 70}}, "expect": true},
			          {"name": "text age", "data": {"Person": {"age": "70"}}, "expect": true}]}`)
		wantStatus(t, w, http.StatusCreated)
		draft := decodeStrict[service.SavedPolicy](t, w)
		before := rowCounts(t, db)

		w = f.call(t, team["viewer"], http.MethodPost, "/policy/"+draft.BaseID.String()+"/test", nil)
		wantStatus(t, w, http.StatusOK)
		rep := decodeStrict[service.TestReport](t, w)
		want := service.TestReport{Passed: false, Total: 2, Failed: 1, Results: []service.TestResult{
			{Name: "70 is senior", Expected: json.RawMessage("true"), Actual: json.RawMessage("true"), Passed: true,
				Explanation: "Person gets senior_discount: yes — the age of the Person is 70, which is at least 65."},
			{Name: "text age", Expected: json.RawMessage("true"), Actual: json.RawMessage("false"), Passed: false,
				Explanation: `Person gets senior_discount: no — the age of the Person is "70", which cannot be compared with 65, so the condition is false.`},
		}}
		if !reflect.DeepEqual(rep, want) {
			t.Errorf("report %+v, want %+v", rep, want)
		}

		w = f.call(t, admin, http.MethodPost, "/policy/"+draft.ID.String()+"/test",
			`{"tests": [{"name": "young", "data": {"Person": {"age": 20}}, "expect": false}]}`)
		wantStatus(t, w, http.StatusOK)
		if rep := decodeStrict[service.TestReport](t, w); !rep.Passed || rep.Total != 1 || rep.Results[0].Name != "young" {
			t.Errorf("report %+v, want the one given test passing", rep)
		}
		if after := rowCounts(t, db); !equalCounts(before, after) {
			t.Errorf("rows changed from %v to %v", before, after)
		}

		for _, body := range []string{`{"tests": 5}`, `{"tests": [{"name": "x", "data": {}, "expect": "yes"}]}`,
			`{"tests": [{"name": "x", "data": {}}]}`, `{"other": 1}`, `[1]`} {
			w = f.call(t, admin, http.MethodPost, "/policy/"+draft.ID.String()+"/test", body)
			wantError(t, w, http.StatusBadRequest, service.CodeInvalidArgument)
		}
		w = f.call(t, team["other tenant"], http.MethodPost, "/policy/"+draft.ID.String()+"/test", nil)
		wantError(t, w, http.StatusNotFound, service.CodeNotFound)
	})
}
