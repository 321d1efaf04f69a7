package rest

import (
	"encoding/json"
	"net/http"
)

// checkRequest is the body of POST /check.
type checkRequest struct {
	Rule   *string         `json:"rule"`
	Schema json.RawMessage `json:"schema"`
}

// check answers a rule text's tokens and diagnostics (POST /check).
func (s *server) check(w http.ResponseWriter, r *http.Request) {
	var req checkRequest
	if err := s.decodeBody(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Rule == nil {
		s.writeError(w, r, invalid("rule is required: the rule text to check, as a string"))
		return
	}
	res, err := s.svc.CheckRule(r.Context(), *req.Rule, req.Schema, true)
	s.reply(w, r, http.StatusOK, res, err)
}
