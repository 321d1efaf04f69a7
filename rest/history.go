package rest

import (
	"context"
	"net/http"

	"github.com/google/uuid"
)

// diffHandler serves GET /policy/{policyId}/diff/{otherId} and GET
// /flow/{flowId}/diff/{otherId}: what changed from the first record to
// the second.
func diffHandler[D any](s *server, idName string, diff func(ctx context.Context, id, otherID uuid.UUID) (*D, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := pathID(r, idName)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		other, err := pathID(r, "otherId")
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		d, err := diff(r.Context(), id, other)
		s.reply(w, r, http.StatusOK, d, err)
	}
}
