package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

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
	Revision    *int            `json:"revision"`
	Name        *string         `json:"name"`
	Definition  json.RawMessage `json:"definition"`
	Description *string         `json:"description"`
	Tests       json.RawMessage `json:"tests"`
}

// flowTestRequest is the body of POST /flow/test: the members the service
// picks the definition and the input from (service.FlowTestInput).
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

// flowLifecycle serves /flow/{flowId} and /flows.
func (s *server) flowLifecycle() *versionedKind[service.SavedFlow, service.Flow, service.FlowVersions, service.FlowSummary] {
	return &versionedKind[service.SavedFlow, service.Flow, service.FlowVersions, service.FlowSummary]{
		s: s, idName: "flowId",
		decodeCreate: s.decodeFlow, decodeUpdate: s.decodeFlowUpdate,
		create: s.svc.CreateFlow, saveDraft: s.svc.UpdateFlowDraft, publish: s.svc.PublishFlow,
		record: s.svc.Flow, versions: s.svc.FlowVersions, draftFrom: s.svc.FlowDraftFromVersion,
		list: s.svc.Flows, deleteBase: s.svc.DeleteFlow, rollback: s.svc.RollbackFlow,
	}
}

func (s *server) decodeFlow(r *http.Request) (service.Changes, error) {
	var req flowRequest
	if err := s.decodeBody(r, &req); err != nil {
		return service.Changes{}, err
	}
	return flowChanges(req.Name, req.Description, req.Definition, req.Tests)
}

func (s *server) decodeFlowUpdate(r *http.Request) (*string, service.Changes, error) {
	var req flowUpdate
	if err := s.decodeBody(r, &req); err != nil {
		return nil, service.Changes{}, err
	}
	c, err := flowChanges(req.Name, req.Description, req.Definition, req.Tests)
	c.Revision = req.Revision
	return req.Status, c, err
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
	s.reply(w, r, http.StatusOK, res, err)
}

// readInput reads a body that is the input data itself, not an object
// with named members: any member is the caller's. Whether it is one JSON
// object within the engine's limits is the service's to decide, as for
// every run's data.
func (s *server) readInput(r *http.Request) (json.RawMessage, error) {
	body, err := s.readBody(r)
	if err != nil {
		return nil, err
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
	res, err := s.svc.TestFlow(r.Context(), service.FlowTestInput(req))
	s.reply(w, r, http.StatusOK, res, err)
}
