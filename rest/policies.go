package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"

	"github.com/google/uuid"

	"github.com/verdict/verdict/service"
)

// policyRequest is the body of POST /policy. A member that is absent (or
// null, as encoding/json reads it) leaves its field as it is, except
// schema, whose null is a value: no schema.
type policyRequest struct {
	Name        *string         `json:"name"`
	Rule        *string         `json:"rule"`
	Description *string         `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       json.RawMessage `json:"tests"`
}

// policyUpdate is the body of PUT /policy/{policyId}: status, and the
// members of policyRequest with the same meaning.
type policyUpdate struct {
	Status   *string `json:"status"`
	Revision *int    `json:"revision"`
	policyRequest
}

// policyRunRequest is the body of the stored-policy runs.
type policyRunRequest struct {
	Data json.RawMessage `json:"data"`
}

// changes turns the members of a policy body into the service's changes.
func changes(name, rule, description *string, schema, tests json.RawMessage) (service.Changes, error) {
	c := service.Changes{Name: name, Rule: rule, Description: description, Schema: schema}
	if tests != nil && string(tests) != "null" {
		cases, err := decodeTests(tests)
		if err != nil {
			return c, err
		}
		c.Tests = &cases
	}
	return c, nil
}

// decodeTests decodes the tests member as strictly as a body: a test case
// with a member other than name, data and expect, or one named in another
// case or given twice, is refused rather than stored otherwise.
func decodeTests(raw json.RawMessage) ([]service.TestCase, error) {
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return nil, invalid("tests must be an array of objects {name, data, expect}; found %s", describeValue(typeErr.Value))
		}
		return nil, notJSON(err)
	}
	cases := make([]service.TestCase, len(elems))
	for i, elem := range elems {
		if elem[0] != '{' {
			return nil, invalid("tests[%d] must be an object {name, data, expect}, not %s", i, describeStart(elem[0]))
		}
		if err := decodeObject(elem, reflect.ValueOf(&cases[i]).Elem()); err != nil {
			var se *service.Error
			if errors.As(err, &se) {
				return nil, invalid("tests[%d]: %s", i, se.Message)
			}
			return nil, err
		}
	}
	return cases, nil
}

// pathID is the id in the path segment named name.
func pathID(r *http.Request, name string) (uuid.UUID, error) {
	return service.ParseID(name, r.PathValue(name))
}

// readByID serves a GET of what read answers for the id in the path
// segment named idName.
func readByID[T any](s *server, idName string, read func(context.Context, uuid.UUID) (*T, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := pathID(r, idName)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		out, err := read(r.Context(), id)
		s.reply(w, r, http.StatusOK, out, err)
	}
}

// policyLifecycle serves /policy/{policyId} and /policies.
func (s *server) policyLifecycle() *versionedKind[service.SavedPolicy, service.Policy, service.Versions, service.Summary] {
	return &versionedKind[service.SavedPolicy, service.Policy, service.Versions, service.Summary]{
		s: s, idName: "policyId",
		decodeCreate: s.decodePolicy, decodeUpdate: s.decodePolicyUpdate,
		create: s.svc.CreatePolicy, saveDraft: s.svc.UpdatePolicyDraft, publish: s.svc.PublishPolicy,
		record: s.svc.Policy, versions: s.svc.PolicyVersions, draftFrom: s.svc.PolicyDraftFromVersion,
		list: s.svc.Policies, deleteBase: s.svc.DeletePolicy, rollback: s.svc.RollbackPolicy,
	}
}

func (s *server) decodePolicy(r *http.Request) (service.Changes, error) {
	var req policyRequest
	if err := s.decodeBody(r, &req); err != nil {
		return service.Changes{}, err
	}
	return req.changes()
}

func (s *server) decodePolicyUpdate(r *http.Request) (*string, service.Changes, error) {
	var req policyUpdate
	if err := s.decodeBody(r, &req); err != nil {
		return nil, service.Changes{}, err
	}
	c, err := req.changes()
	c.Revision = req.Revision
	return req.Status, c, err
}

func (req *policyRequest) changes() (service.Changes, error) {
	return changes(req.Name, req.Rule, req.Description, req.Schema, req.Tests)
}

// runPolicy is POST /run/policy/{baseId}: the latest version, else the
// draft.
func (s *server) runPolicy(w http.ResponseWriter, r *http.Request) {
	s.runStored(w, r, "baseId", s.svc.RunPolicy)
}

// runPolicyVersion is POST /run/policy_version/{policyId}: exactly that
// record.
func (s *server) runPolicyVersion(w http.ResponseWriter, r *http.Request) {
	s.runStored(w, r, "policyId", s.svc.RunPolicyVersion)
}

// readRunData reads the data of a policy run's body.
func (s *server) readRunData(r *http.Request) (json.RawMessage, error) {
	body, err := s.readBody(r)
	if err != nil {
		return nil, err
	}
	if data, ok := splitRunData(body); ok {
		return data, nil
	}
	var req policyRunRequest
	if err := decodeObject(body, reflect.ValueOf(&req).Elem()); err != nil {
		return nil, withHint(err, func(name string) bool { return name == "items" },
			fmt.Sprintf(`to run on many inputs in one call, send {"items": [...]} to %s/batch`, r.URL.Path))
	}
	if req.Data == nil {
		return nil, invalid("data is required: the JSON object to evaluate the policy against")
	}
	return req.Data, nil
}

// splitRunData reads the usual body, {"data": {...}}, in one pass that
// only follows strings and nesting, so that the data's bytes are checked
// once, by the service's decoding of it. Any other shape is left to
// decodeObject, whose checks and messages cover every body.
func splitRunData(body []byte) (json.RawMessage, bool) {
	i, ok := soleMember(body, "data")
	if !ok || body[i] != '{' {
		return nil, false
	}
	end, ok := objectEnd(body, i)
	if !ok || !closesBody(body, end) {
		return nil, false
	}
	return body[i:end], true
}

func (s *server) runStored(w http.ResponseWriter, r *http.Request, idName string,
	run func(ctx context.Context, id uuid.UUID, data json.RawMessage) (*service.RunResult, error)) {
	id, err := pathID(r, idName)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	data, err := s.readRunData(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := run(r.Context(), id, data)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// respondRun has encoded the result in full before it returns, so its
	// memory may go back to the pool.
	s.respondRun(w, r, res)
	res.Release()
}
