package graph_test

import (
	"encoding/json"
	"reflect"
	"sort"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// lookupsQuery asks every single-item lookup for one id, next to a field
// that always answers.
const lookupsQuery = `query L($id: ID!) {
  policy(id: $id) { id }
  policyVersions(id: $id) { baseId }
  flow(id: $id) { id }
  flowVersions(id: $id) { baseId }
  group(id: $id) { id }
  viewer { role }
}`

// A lookup that finds nothing answers null with a typed error in its own
// place: the other fields of the operation are answered all the same.
func TestALookupThatFindsNothingIsNullBesideItsSiblings(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		beta, err := w.svc.Operator().Bootstrap(t.Context(), service.BootstrapInput{Organization: "Beta", Email: "boss@beta.test"})
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name, key, id string
		}{
			{"an unknown id", adminKey, "00000000-0000-0000-0000-000000000000"},
			{"another organization's policy", beta.Secret, w.age.BaseID},
		} {
			t.Run(tc.name, func(t *testing.T) {
				res := w.post(t, tc.key, lookupsQuery, map[string]any{"id": tc.id})
				var data map[string]json.RawMessage
				if err := json.Unmarshal(res.Data, &data); err != nil {
					t.Fatalf("data %s: %v", res.Data, err)
				}
				lookups := []string{"policy", "policyVersions", "flow", "flowVersions", "group"}
				for _, field := range lookups {
					if string(data[field]) != "null" {
						t.Errorf("%s = %s, want null", field, data[field])
					}
				}
				if string(data["viewer"]) != `{"role":"ADMIN"}` {
					t.Errorf("viewer = %s, want it answered beside the failed lookups", data["viewer"])
				}
				var failed []string
				for _, e := range res.Errors {
					if e.Extensions["code"] != string(service.CodeNotFound) || len(e.Path) != 1 {
						t.Errorf("error %+v, want not_found at one field", e)
						continue
					}
					failed = append(failed, e.Path[0].(string))
				}
				// Query fields resolve concurrently: their errors come in
				// any order.
				sort.Strings(failed)
				sort.Strings(lookups)
				if !reflect.DeepEqual(failed, lookups) {
					t.Errorf("errors at %v, want one at each of %v", failed, lookups)
				}
			})
		}

		t.Run("the policy itself is found by its own organization", func(t *testing.T) {
			var got struct{ Policy struct{ ID string } }
			w.post(t, adminKey, `query P($id: ID!) { policy(id: $id) { id } }`, map[string]any{"id": w.age.BaseID}).decode(t, &got)
			if got.Policy.ID != w.age.ID {
				t.Errorf("policy(%s) = %s, want its version %s", w.age.BaseID, got.Policy.ID, w.age.ID)
			}
		})
	})
}
