package rest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

func TestDiffsAndRollbacksRefuseBadIDsAndChangeNothing(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		headers := append(key(adminKey), "Content-Type", "application/json")
		var ids []string
		for range 2 {
			w := f.do(http.MethodPost, "/policy", strings.NewReader(seniorPolicy), headers...)
			wantStatus(t, w, http.StatusCreated)
			ids = append(ids, decodeStrict[service.SavedPolicy](t, w).ID.String())
		}
		before := rowCounts(t, db)
		for _, c := range []struct {
			method, path string
		}{
			{http.MethodGet, "/policy/not-an-id/diff/" + ids[0]},
			{http.MethodGet, "/policy/" + ids[0] + "/diff/not-an-id"},
			{http.MethodGet, "/flow/" + ids[0] + "/diff/12345"},
			{http.MethodGet, "/policy/" + ids[0] + "/diff/" + ids[1]}, // records of two policies
			{http.MethodPost, "/policy/not-an-id/rollback"},
			{http.MethodPost, "/flow/not-an-id/rollback"},
		} {
			wantError(t, f.do(c.method, c.path, nil, headers...), http.StatusBadRequest, service.CodeInvalidArgument)
		}
		if after := rowCounts(t, db); !equalCounts(before, after) {
			t.Errorf("rows changed from %v to %v", before, after)
		}
		w := f.do(http.MethodGet, "/policy/"+ids[0]+"/diff/"+ids[0], nil, headers...)
		wantStatus(t, w, http.StatusOK)
		d := decodeStrict[service.PolicyDiff](t, w)
		if d.From.ID.String() != ids[0] || d.To.ID.String() != ids[0] || len(d.Rule) != 0 || d.Name != nil {
			t.Errorf("a draft compared with itself: %+v", d)
		}
	})
}
