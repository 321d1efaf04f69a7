package rest

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/uuid"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// A single run's body sent to a batch, or a batch's to a single run, is
// refused before anything runs, saying where it goes.
func TestABodyForTheOtherRunSaysWhereItGoes(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		admin := member{key: adminKey, id: f.acme.User.ID}
		id := uuid.Must(uuid.NewV7()).String()
		for _, c := range []struct{ path, body, message string }{
			{"/run/policy/" + id, `{"items": [{"Person": {"age": 70}}]}`,
				`unknown field "items"; the fields are data; to run on many inputs in one call, send {"items": [...]} to /run/policy/` + id + `/batch`},
			{"/run/policy_version/" + id, `{"items": []}`,
				`unknown field "items"; the fields are data; to run on many inputs in one call, send {"items": [...]} to /run/policy_version/` + id + `/batch`},
			{"/run/policy/" + id + "/batch", `{"data": {"Person": {"age": 70}}}`,
				`unknown field "data"; the fields are items; to run on one input, send {"data": {...}} to /run/policy/` + id},
			{"/run/flow_version/" + id + "/batch", `{"applicant": {"age": 30}}`,
				`unknown field "applicant"; the fields are items; a batch takes {"items": [input, ...]}; to run on one input, send the input itself to /run/flow_version/` + id},
			// A slip in the member's name is told as such, and nothing more.
			{"/run/flow/" + id + "/batch", `{"Items": [{}]}`, `unknown field "Items" (did you mean "items"?); the fields are items`},
			{"/run/policy/" + id, `{"dta": {}}`, `unknown field "dta" (did you mean "data"?); the fields are data`},
		} {
			w := f.call(t, admin, http.MethodPost, c.path, c.body)
			wantError(t, w, http.StatusBadRequest, service.CodeInvalidArgument)
			var got struct{ Error struct{ Message string } }
			if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || got.Error.Message != c.message {
				t.Errorf("POST %s %s:\n%q\nwant\n%q", c.path, c.body, got.Error.Message, c.message)
			}
		}
	})
}
