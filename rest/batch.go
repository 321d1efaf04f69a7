package rest

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/google/uuid"

	"github.com/verdict/verdict/service"
)

// batchRequest is the body of the batch runs: the data of each run.
type batchRequest struct {
	Items []json.RawMessage `json:"items"`
}

// runPolicyBatch is POST /run/policy/{baseId}/batch.
func (s *server) runPolicyBatch(w http.ResponseWriter, r *http.Request) {
	s.runBatch(w, r, "baseId", s.svc.RunPolicyBatch)
}

// runPolicyVersionBatch is POST /run/policy_version/{policyId}/batch.
func (s *server) runPolicyVersionBatch(w http.ResponseWriter, r *http.Request) {
	s.runBatch(w, r, "policyId", s.svc.RunPolicyVersionBatch)
}

// runBatch decodes the items as raw JSON; whether each is acceptable data,
// and how many a call may hold, is the service's to decide.
func (s *server) runBatch(w http.ResponseWriter, r *http.Request, idName string,
	run func(ctx context.Context, id uuid.UUID, items []json.RawMessage) (*service.BatchResult, error)) {
	id, err := pathID(r, idName)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req batchRequest
	if err := s.decodeBody(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Items == nil {
		s.writeError(w, r, invalid("items is required: an array of the JSON objects to evaluate the policy against"))
		return
	}
	res, err := run(r.Context(), id, req.Items)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// respond has encoded every result before it returns.
	s.respond(w, r, http.StatusOK, res)
	res.Release()
}
