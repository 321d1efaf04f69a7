package rest

import (
	"encoding/json"
	"net/http"
)

// runRequest is the body of POST /run.
type runRequest struct {
	Rule *string         `json:"rule"`
	Data json.RawMessage `json:"data"`
}

// run evaluates a rule text against data (POST /run). Whether data is an
// object within the engine's limits is the service's to decide; it gets
// the raw JSON.
func (s *server) run(w http.ResponseWriter, r *http.Request) {
	var req runRequest
	if err := s.decodeBody(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	switch {
	case req.Rule == nil:
		s.writeError(w, r, invalid("rule is required: the rule text, as a string"))
		return
	case req.Data == nil:
		s.writeError(w, r, invalid("data is required: the JSON object to evaluate the rule against"))
		return
	}
	res, err := s.svc.RunRule(r.Context(), *req.Rule, req.Data)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.respondRun(w, r, res)
}
