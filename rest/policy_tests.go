package rest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"

	"github.com/verdict/verdict/service"
)

// testRequest is the optional body of POST /policy/{policyId}/test: tests
// to run instead of the record's stored ones.
type testRequest struct {
	Tests json.RawMessage `json:"tests"`
}

// testPolicy runs a policy record's tests and reports each (POST
// /policy/{policyId}/test). Without a body, or without tests in it, the
// record's stored tests run.
func (s *server) testPolicy(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "policyId")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	body, err := s.readBody(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req testRequest
	if len(bytes.TrimSpace(body)) > 0 {
		if err := decodeObject(body, reflect.ValueOf(&req).Elem()); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	var tests []service.TestCase
	if req.Tests != nil && string(req.Tests) != "null" {
		if tests, err = decodeTests(req.Tests); err != nil {
			s.writeError(w, r, err)
			return
		}
		if tests == nil {
			tests = []service.TestCase{}
		}
	}
	for _, tc := range tests {
		if tc.Name == "" || len(tc.Data) == 0 || len(tc.Expect) == 0 {
			s.writeError(w, r, invalid("each test needs a name, data and expect"))
			return
		}
	}
	rep, err := s.svc.TestPolicy(r.Context(), id, tests)
	s.reply(w, r, http.StatusOK, rep, err)
}
