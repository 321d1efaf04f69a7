package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"reflect"

	"github.com/google/uuid"

	"github.com/verdict/verdict/service"
)

// testRequest is the optional body of POST /policy/{policyId}/test and
// POST /flow/{flowId}/test: tests to run instead of the record's stored
// ones.
type testRequest struct {
	Tests json.RawMessage `json:"tests"`
}

// testPolicy runs a policy record's tests and reports each (POST
// /policy/{policyId}/test). Without a body, or without tests in it, the
// record's stored tests run.
func (s *server) testPolicy(w http.ResponseWriter, r *http.Request) {
	s.testRecord(w, r, "policyId", s.svc.TestPolicy)
}

// testFlowRecord is testPolicy's twin for flows (POST /flow/{flowId}/test).
func (s *server) testFlowRecord(w http.ResponseWriter, r *http.Request) {
	s.testRecord(w, r, "flowId", s.svc.TestFlowRecord)
}

func (s *server) testRecord(w http.ResponseWriter, r *http.Request, idName string,
	test func(context.Context, uuid.UUID, []service.TestCase) (*service.TestReport, error)) {
	var req testRequest
	id, err := s.idAndOptionalBody(r, idName, &req)
	if err != nil {
		s.writeError(w, r, err)
		return
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
	rep, err := test(r.Context(), id, tests)
	s.reply(w, r, http.StatusOK, rep, err)
}

// idAndOptionalBody reads the path id named idName and, when the body is
// not empty, decodes it into dst (a pointer to a struct): routes whose
// body only refines what they do.
func (s *server) idAndOptionalBody(r *http.Request, idName string, dst any) (uuid.UUID, error) {
	id, err := pathID(r, idName)
	if err != nil {
		return uuid.Nil, err
	}
	body, err := s.readBody(r)
	if err != nil {
		return uuid.Nil, err
	}
	if len(bytes.TrimSpace(body)) > 0 {
		if err := decodeObject(body, reflect.ValueOf(dst).Elem()); err != nil {
			return uuid.Nil, err
		}
	}
	return id, nil
}
