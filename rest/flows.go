package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/verdict/verdict/service"
)

// flowRequest is the body of POST /flow. A member that is absent or null
// leaves its field as it is.
type flowRequest struct {
	Name        *string         `json:"name"`
	Definition  json.RawMessage `json:"definition"`
	Description *string         `json:"description"`
	Tests       json.RawMessage `json:"tests"`
}

// flowUpdate is the body of PUT /flow/{flowId}: status, and the members of
// flowRequest with the same meaning.
type flowUpdate struct {
	Status      *string         `json:"status"`
	Name        *string         `json:"name"`
	Definition  json.RawMessage `json:"definition"`
	Description *string         `json:"description"`
	Tests       json.RawMessage `json:"tests"`
}

// flowTestRequest is the body of POST /flow/test (flows.md §8.2): the
// definition as definition, else as flow (an object, or YAML or JSON
// text), else as a UI graph (nodes and edges); the input as data, or
// testData as the UI names it.
type flowTestRequest struct {
	Definition json.RawMessage `json:"definition"`
	Flow       json.RawMessage `json:"flow"`
	Nodes      json.RawMessage `json:"nodes"`
	Edges      json.RawMessage `json:"edges"`
	Data       json.RawMessage `json:"data"`
	TestData   json.RawMessage `json:"testData"`
}

// flowChanges turns the members of a flow body into the service's changes.
func flowChanges(name, description *string, definition, tests json.RawMessage) (service.Changes, error) {
	c, err := changes(name, nil, description, nil, tests)
	if given(definition) {
		c.Definition = definition
	}
	return c, err
}

// given says whether a member was sent with a value: encoding/json leaves
// an absent json.RawMessage nil and keeps null as the text null.
func given(raw json.RawMessage) bool {
	return raw != nil && string(raw) != "null"
}

// createFlow is POST /flow.
func (s *server) createFlow(w http.ResponseWriter, r *http.Request) {
	var req flowRequest
	if err := s.decodeBody(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	c, err := flowChanges(req.Name, req.Description, req.Definition, req.Tests)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	f, err := s.svc.CreateFlow(r.Context(), c)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.respond(w, r, http.StatusCreated, f)
}

// updateFlow is PUT /flow/{flowId}: status draft saves the draft, status
// published makes it the next version.
func (s *server) updateFlow(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "flowId")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req flowUpdate
	if err := s.decodeBody(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	c, err := flowChanges(req.Name, req.Description, req.Definition, req.Tests)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	switch {
	case req.Status == nil:
		s.writeError(w, r, invalid("status is required: %q or %q", service.StatusDraft, service.StatusPublished))
	case *req.Status == service.StatusDraft:
		f, err := s.svc.UpdateFlowDraft(r.Context(), id, c)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		s.respond(w, r, http.StatusOK, f)
	case *req.Status == service.StatusPublished:
		f, err := s.svc.PublishFlow(r.Context(), id, c)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		s.respond(w, r, http.StatusCreated, f)
	default:
		s.writeError(w, r, invalid("status must be %q or %q, not %q", service.StatusDraft, service.StatusPublished, *req.Status))
	}
}

// flow is GET /flow/{flowId}: a record, or a base's latest version.
func (s *server) flow(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "flowId")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	f, err := s.svc.Flow(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.respond(w, r, http.StatusOK, f)
}

// flowVersions is GET /flow/{flowId}/versions.
func (s *server) flowVersions(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "flowId")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	v, err := s.svc.FlowVersions(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.respond(w, r, http.StatusOK, v)
}

// flowDraft is GET /flow/{flowId}/draft[?replace=true]: a new draft from a
// published record.
func (s *server) flowDraft(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "flowId")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	replace, err := replaceParam(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	f, err := s.svc.FlowDraftFromVersion(r.Context(), id, replace)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.respond(w, r, http.StatusCreated, f)
}

// replaceParam reads ?replace: absent or false keeps an existing draft
// (a conflict), true overwrites it.
func replaceParam(r *http.Request) (bool, error) {
	switch values := r.URL.Query()["replace"]; {
	case len(values) == 0:
		return false, nil
	case len(values) > 1:
		return false, invalid("replace is given %d times; give it once", len(values))
	case values[0] == "true":
		return true, nil
	case values[0] == "false":
		return false, nil
	default:
		return false, invalid("replace must be true or false, not %q", values[0])
	}
}

// flows is GET /flows.
func (s *server) flows(w http.ResponseWriter, r *http.Request) {
	o, err := listOptions(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	page, err := s.svc.Flows(r.Context(), o)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.respond(w, r, http.StatusOK, page)
}

// deleteFlow is DELETE /flow/{flowId}: the whole base goes.
func (s *server) deleteFlow(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "flowId")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.svc.DeleteFlow(r.Context(), id); err != nil {
		s.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// runFlow is POST /run/flow/{baseId}: the latest version, else the draft.
func (s *server) runFlow(w http.ResponseWriter, r *http.Request) {
	s.runStoredFlow(w, r, "baseId", s.svc.RunFlow)
}

// runFlowVersion is POST /run/flow_version/{flowId}: exactly that record.
func (s *server) runFlowVersion(w http.ResponseWriter, r *http.Request) {
	s.runStoredFlow(w, r, "flowId", s.svc.RunFlowVersion)
}

func (s *server) runStoredFlow(w http.ResponseWriter, r *http.Request, idName string,
	run func(ctx context.Context, id uuid.UUID, data json.RawMessage) (*service.FlowResult, error)) {
	id, err := pathID(r, idName)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	data, err := s.readInput(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := run(r.Context(), id, data)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.respond(w, r, http.StatusOK, res)
}

// readInput reads a body that is the input data itself, not an object
// with named members: any member is the caller's. Whether it is one JSON
// object within the engine's limits is the service's to decide, as for
// every run's data.
func (s *server) readInput(r *http.Request) (json.RawMessage, error) {
	if err := checkContentType(r.Header.Get("Content-Type")); err != nil {
		return nil, err
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, s.tooLarge()
		}
		return nil, invalid("the request body could not be read")
	}
	if !utf8.Valid(body) {
		return nil, invalid("the request body is not valid UTF-8")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, invalid("the request body is empty; send the input data as a JSON object")
	}
	return body, nil
}

// testFlow is POST /flow/test: a definition from the body runs on the
// body's data; nothing is stored.
func (s *server) testFlow(w http.ResponseWriter, r *http.Request) {
	var req flowTestRequest
	if err := s.decodeBody(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	definition, err := req.definition()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	data := req.Data
	if !given(data) && given(req.TestData) {
		data = req.TestData
	}
	if !given(data) {
		s.writeError(w, r, invalid("data is required: the JSON object to run the flow on"))
		return
	}
	res, err := s.svc.TestFlow(r.Context(), definition, data)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.respond(w, r, http.StatusOK, res)
}

// definition picks the definition by flows.md §8.2's precedence.
func (req *flowTestRequest) definition() (json.RawMessage, error) {
	switch {
	case given(req.Definition):
		if req.Definition[0] != '{' {
			return nil, invalid("definition must be a JSON object: a flow definition")
		}
		return req.Definition, nil
	case given(req.Flow):
		if c := req.Flow[0]; c != '{' && c != '"' {
			return nil, invalid("flow must be a JSON object or a string of YAML or JSON")
		}
		return req.Flow, nil
	case given(req.Nodes) || given(req.Edges):
		if !given(req.Nodes) || !given(req.Edges) {
			return nil, invalid("a flow graph needs both nodes and edges")
		}
		graph, err := json.Marshal(struct {
			Nodes json.RawMessage `json:"nodes"`
			Edges json.RawMessage `json:"edges"`
		}{req.Nodes, req.Edges})
		if err != nil {
			return nil, invalid("nodes and edges are not valid JSON: %v", err)
		}
		return graph, nil
	}
	return nil, invalid("a definition is required: definition, flow, or nodes and edges")
}
