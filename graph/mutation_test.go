package graph_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// fieldError checks that a response answered data exactly and failed with
// one error, at path, with the code and message.
func (r response) fieldError(t *testing.T, data, path string, code service.Code, message string) {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Errorf("status %d, want 200", r.Status)
	}
	if string(r.Data) != data {
		t.Errorf("data %s, want %s", r.Data, data)
	}
	e := r.fieldFailure(t, code)
	if !reflect.DeepEqual(e.Path, []any{path}) || e.Message != message {
		t.Errorf("error at %v: %q; want at [%s]: %q", e.Path, e.Message, path, message)
	}
}

// A document's mutations run one after the other and each commits on its
// own: when one fails, the answers of the others still reach the client,
// or it would not learn what they wrote and would write it again.
func TestRollbacksAnswerBesideOneInTheirDocumentThatFails(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		v1 := publishPolicy(t, f, adminKey, createPolicy(t, f, adminKey, map[string]any{"name": "senior", "rule": seniorRule}).Policy.ID, nil)
		var draft struct{ CreatePolicyDraftFromVersion policyData }
		f.post(t, adminKey, draftFromVersionMutation, map[string]any{"id": v1.ID}).decode(t, &draft)
		draftID := draft.CreatePolicyDraftFromVersion.ID

		r := f.post(t, adminKey, `mutation($v1: ID!, $draft: ID!) {
			a: rollbackPolicy(input: {id: $v1}) { id version }
			b: rollbackPolicy(input: {id: $draft}) { id version }
			c: rollbackPolicy(input: {id: $v1}) { id version } }`, map[string]any{"v1": v1.ID, "draft": draftID})
		var answered struct{ A, C struct{ ID string } }
		if err := json.Unmarshal(r.Data, &answered); err != nil || answered.A.ID == "" || answered.C.ID == "" {
			t.Fatalf("data %s (%v), want a's and c's new versions", r.Data, err)
		}
		v2, v3 := answered.A.ID, answered.C.ID
		r.fieldError(t, fmt.Sprintf(`{"a":{"id":%q,"version":2},"b":null,"c":{"id":%q,"version":3}}`, v2, v3), "b", service.CodeConflict,
			fmt.Sprintf("record %s is a draft; only a published version can be rolled back to", draftID))

		var history struct {
			PolicyVersions struct {
				Draft    struct{ ID string }
				Versions []struct {
					ID      string
					Version int
				}
			}
		}
		f.post(t, adminKey, `query($id: ID!) { policyVersions(id: $id) { draft { id } versions { id version } } }`,
			map[string]any{"id": v1.BaseID}).decode(t, &history)
		want := []struct {
			ID      string
			Version int
		}{{v3, 3}, {v2, 2}, {v1.ID, 1}}
		if h := history.PolicyVersions; h.Draft.ID != draftID || !reflect.DeepEqual(h.Versions, want) {
			t.Errorf("history %+v, want the draft %s and versions %+v", h, draftID, want)
		}
	})
}

func TestACreatedGroupAnswersWhenALaterKeyInItsDocumentFails(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		stranger := "00000000-0000-0000-0000-000000000000"
		r := f.post(t, adminKey, `mutation($user: ID!) {
			g: createGroup(input: {name: "seniors"}) { id name }
			k: createKey(input: {name: "stranger's", scope: VIEW, userId: $user}) { secret } }`, map[string]any{"user": stranger})
		var answered struct{ G struct{ ID string } }
		if err := json.Unmarshal(r.Data, &answered); err != nil || answered.G.ID == "" {
			t.Fatalf("data %s (%v), want g's group", r.Data, err)
		}
		group := answered.G.ID
		r.fieldError(t, fmt.Sprintf(`{"g":{"id":%q,"name":"seniors"},"k":null}`, group), "k", service.CodeNotFound,
			fmt.Sprintf("user %s is not a member of this organization", stranger))

		var stored struct{ Group groupData }
		f.post(t, adminKey, groupQuery, map[string]any{"id": group}).decode(t, &stored)
		if stored.Group.ID != group || stored.Group.Name != "seniors" {
			t.Errorf("stored group %+v, want seniors %s", stored.Group, group)
		}
		var keys struct {
			Keys struct{ Edges []struct{ Node keyData } }
		}
		f.post(t, adminKey, keysQuery, map[string]any{"query": "stranger"}).decode(t, &keys)
		if len(keys.Keys.Edges) != 0 {
			t.Errorf("keys named stranger: %+v, want none", keys.Keys.Edges)
		}
	})
}
