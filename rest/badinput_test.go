package rest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// bodyRoutes are the routes that take a JSON body, each with a body it
// accepts and the status that body gets. Every route added to the API
// belongs here: each gets every bad-input case below. A path names ids by
// the route's wildcards; the test fills in a policy, a flow, a group and a
// member it creates first ({flowBaseId} is the flow's base, {userId} the
// member's user), in paths and bodies alike.
var bodyRoutes = []struct {
	method, path string
	valid        string
	status       int
}{
	{http.MethodPost, "/run", adultRun, http.StatusOK},
	{http.MethodPost, "/policy", seniorPolicy, http.StatusCreated},
	{http.MethodPut, "/policy/{policyId}", `{"status": "draft", "description": "edited"}`, http.StatusOK},
	{http.MethodPost, "/run/policy/{baseId}", seniorRun, http.StatusOK},
	{http.MethodPost, "/run/policy_version/{policyId}", seniorRun, http.StatusOK},
	{http.MethodPut, "/policy/{policyId}/decision-records", decisionSettings, http.StatusOK},
	{http.MethodPost, "/run/policy/{baseId}/batch", seniorBatch, http.StatusOK},
	{http.MethodPost, "/run/policy_version/{policyId}/batch", seniorBatch, http.StatusOK},
	{http.MethodPost, "/flow", seniorFlow, http.StatusCreated},
	{http.MethodPut, "/flow/{flowId}", `{"status": "draft", "description": "edited"}`, http.StatusOK},
	{http.MethodPut, "/flow/{flowId}/decision-records", decisionSettings, http.StatusOK},
	{http.MethodPost, "/run/flow/{flowBaseId}", seniorInput, http.StatusOK},
	{http.MethodPost, "/run/flow_version/{flowId}", seniorInput, http.StatusOK},
	{http.MethodPost, "/run/flow/{flowBaseId}/batch", seniorBatch, http.StatusOK},
	{http.MethodPost, "/run/flow_version/{flowId}/batch", seniorBatch, http.StatusOK},
	{http.MethodPost, "/flow/test", `{"definition": ` + seniorDefinition + `, "data": ` + seniorInput + `}`, http.StatusOK},
	{http.MethodPost, "/group", `{"name": "Risk", "description": "risky"}`, http.StatusCreated},
	{http.MethodPut, "/group/{groupId}", `{"description": "edited"}`, http.StatusOK},
	{http.MethodPost, "/group/{groupId}/member", `{"kind": "policy", "baseId": "{baseId}"}`, http.StatusCreated},
	{http.MethodPost, "/admin/members", `{"email": "new@acme.test", "name": "New", "role": "viewer"}`, http.StatusCreated},
	{http.MethodPut, "/admin/members/{userId}", `{"role": "publisher"}`, http.StatusOK},
	{http.MethodPost, "/admin/keys", `{"name": "ci", "scope": "view", "userId": "{userId}", "expiresAt": "2999-01-01T00:00:00Z"}`, http.StatusCreated},
}

// seniorDefinition is a flow of the senior policy; seniorFlow stores it;
// seniorInput is the body of its runs.
const (
	seniorDefinition = `{"formatVersion": 1, "nodes": [
		{"id": "s", "type": "start", "policy": {"id": "{policyId}"}, "onTrue": "yes", "onFalse": "no"},
		{"id": "yes", "type": "return", "returnValue": true}, {"id": "no", "type": "return", "returnValue": false}]}`
	seniorFlow = `{"name": "Senior flow", "definition": ` + seniorDefinition + `, "description": "for the over-65s",
		"tests": [{"name": "70 is senior", "data": {"Person": {"age": 70}}, "expect": true}]}`
	seniorInput = `{"Person": {"age": 70}}`
)

// decisionSettings records every run, with a mask; decisionSettingsBadBodies
// are what both decision-record routes refuse.
const decisionSettings = `{"enabled": true, "sampleRate": 1, "mask": ["$.Person.ssn"]}`

var decisionSettingsBadBodies = []badBody{
	{name: "enabled missing", body: func(string) string { return `{"sampleRate": 0.5}` }},
	{name: "enabled null", body: func(string) string { return `{"enabled": null}` }},
	{name: "enabled a string", body: func(string) string { return `{"enabled": "yes"}` }},
	{name: "a sample rate of 0", body: func(string) string { return `{"enabled": true, "sampleRate": 0}` }},
	{name: "a sample rate above 1", body: func(string) string { return `{"enabled": true, "sampleRate": 1.01}` }},
	{name: "a negative sample rate", body: func(string) string { return `{"enabled": true, "sampleRate": -1}` }},
	{name: "a mask that is not a list", body: func(string) string { return `{"enabled": true, "mask": "$.a"}` }},
	{name: "a mask path without $.", body: func(string) string { return `{"enabled": true, "mask": ["Person.ssn"]}` }},
	{name: "a mask path with an empty step", body: func(string) string { return `{"enabled": true, "mask": ["$.Person..ssn"]}` }},
	{name: "a mask path with an index", body: func(string) string { return `{"enabled": true, "mask": ["$.cards[0]"]}` }},
	{name: "a mask path of a number", body: func(string) string { return `{"enabled": true, "mask": [5]}` }},
	{name: "a mask path too long", body: func(string) string {
		return `{"enabled": true, "mask": ["$.` + strings.Repeat("a", service.MaxMaskPathLength) + `"]}`
	}},
	{name: "too many mask paths", body: func(string) string {
		return `{"enabled": true, "mask": [` + strings.Repeat(`"$.a", `, service.MaxMaskPaths) + `"$.b"]}`
	}},
}

// inputRoutes take the input data itself as their body: its members are
// the caller's to name.
var inputRoutes = map[string]bool{
	"POST /run/flow/{flowBaseId}":     true,
	"POST /run/flow_version/{flowId}": true,
}

// storedRuns counts the bodyRoutes that run a stored policy or flow: each
// valid run, and each valid batch, stores an `executed` event, a little
// after it answers.
const storedRuns = 8

// badBody is a body that must be refused, made from a route's valid body.
type badBody struct {
	name        string
	body        func(valid string) string
	contentType string
	// header holds more header lines, added after Content-Type.
	header   []string
	streamed bool // sent without Content-Length
	status   int
	code     service.Code
	// named is refused only by bodies whose members are named (not by
	// inputRoutes).
	named bool
}

func genericBadBodies() []badBody {
	invalid := func(name string, body func(string) string) badBody {
		return badBody{name: name, body: body, status: 400, code: service.CodeInvalidArgument}
	}
	oversized := func(valid string) string { return valid + strings.Repeat(" ", DefaultBodyLimit) }
	return []badBody{
		invalid("malformed JSON", func(v string) string { return v[:len(v)/2] }),
		invalid("a form instead of JSON", func(string) string { return "rule=x&data=y" }),
		invalid("an empty body", func(string) string { return "" }),
		invalid("an array instead of an object", func(v string) string { return "[" + v + "]" }),
		invalid("a string instead of an object", func(string) string { return `"text"` }),
		invalid("null instead of an object", func(string) string { return "null" }),
		{name: "an unknown field", body: func(v string) string { return `{"bogus": 1, ` + v[1:] },
			status: 400, code: service.CodeInvalidArgument, named: true},
		invalid("trailing garbage", func(v string) string { return v + " x" }),
		invalid("a second object", func(v string) string { return v + " {}" }),
		invalid("invalid UTF-8", func(v string) string { return "{\"\xff\": 1, " + v[1:] }),
		{name: "a Content-Type that is not JSON", body: func(v string) string { return v }, contentType: "text/plain",
			status: 400, code: service.CodeInvalidArgument},
		{name: "JSON in another charset", body: func(v string) string { return v }, contentType: "application/json; charset=latin1",
			status: 400, code: service.CodeInvalidArgument},
		{name: "a compressed body", body: func(v string) string { return v }, header: []string{"Content-Encoding", "gzip"},
			status: 400, code: service.CodeInvalidArgument},
		{name: "a second Content-Type", body: func(v string) string { return v }, header: []string{"Content-Type", "text/plain"},
			status: 400, code: service.CodeInvalidArgument},
		{name: "a body over the limit", body: oversized, status: 413, code: service.CodePayloadTooLarge},
		{name: "a body over the limit without Content-Length", body: oversized, streamed: true,
			status: 413, code: service.CodePayloadTooLarge},
	}
}

// routeBadBodies are the bad bodies particular to a route.
var routeBadBodies = map[string][]badBody{
	"PUT /policy/{policyId}/decision-records": decisionSettingsBadBodies,
	"PUT /flow/{flowId}/decision-records":     decisionSettingsBadBodies,
	"POST /run": {
		{name: "rule as a number", body: func(string) string { return `{"rule": 5, "data": {}}` }},
		{name: "rule as null", body: func(string) string { return `{"rule": null, "data": {}}` }},
		{name: "rule missing", body: func(string) string { return `{"data": {}}` }},
		{name: "data missing", body: func(string) string { return `{"rule": "A **P** is x if __a__ is 1."}` }},
		{name: "data null", body: func(string) string { return `{"rule": "A **P** is x if __a__ is 1.", "data": null}` }},
		{name: "data an array", body: func(string) string { return `{"rule": "A **P** is x if __a__ is 1.", "data": []}` }},
		{name: "data a string", body: func(string) string { return `{"rule": "A **P** is x if __a__ is 1.", "data": "{}"}` }},
		{name: "data a number", body: func(string) string { return `{"rule": "A **P** is x if __a__ is 1.", "data": 5}` }},
		{name: "data nested too deep", body: func(string) string {
			return `{"rule": "A **P** is x if __a__ is 1.", "data": ` + strings.Repeat(`{"a":`, 100) + "1" + strings.Repeat("}", 100) + "}"
		}},
		{name: "a field named in another case", body: func(string) string { return `{"Rule": "A **P** is x if __a__ is 1.", "data": {}}` }},
		{name: "a field given twice", body: func(string) string { return `{"rule": "a", "rule": "b", "data": {}}` }},
	},
	"POST /policy":                              append(policyBadBodies(`"name": "x", "rule": "y"`), createPolicyBadBodies...),
	"PUT /policy/{policyId}":                    append(policyBadBodies(`"status": "draft"`), updatePolicyBadBodies...),
	"POST /run/policy/{baseId}":                 storedRunBadBodies,
	"POST /run/policy_version/{policyId}":       storedRunBadBodies,
	"POST /run/policy/{baseId}/batch":           batchBadBodies,
	"POST /run/policy_version/{policyId}/batch": batchBadBodies,
	"POST /flow":                                append(flowBadBodies(`"name": "x", "definition": `+seniorDefinition), createFlowBadBodies...),
	"PUT /flow/{flowId}":                        append(flowBadBodies(`"status": "draft"`), updatePolicyBadBodies...),
	"POST /run/flow/{flowBaseId}":               flowInputBadBodies,
	"POST /run/flow_version/{flowId}":           flowInputBadBodies,
	"POST /run/flow/{flowBaseId}/batch":         batchBadBodies,
	"POST /run/flow_version/{flowId}/batch":     batchBadBodies,
	"POST /flow/test":                           flowTestBadBodies,
	"POST /group":                               append(groupBadBodies, createGroupBadBodies...),
	"PUT /group/{groupId}":                      groupBadBodies,
	"POST /group/{groupId}/member":              groupMemberBadBodies,
	"POST /admin/members":                       memberBadBodies,
	"PUT /admin/members/{userId}":               roleBadBodies,
	"POST /admin/keys":                          keyBadBodies,
}

// bad is a body refused with 400 invalid_argument.
func bad(name, body string) badBody {
	return badBody{name: name, body: func(string) string { return body }}
}

// refused is a well-formed body the service refuses with status and code.
func refused(name, body string, status int, code service.Code) badBody {
	return badBody{name: name, body: func(string) string { return body }, status: status, code: code}
}

var groupBadBodies = []badBody{
	bad("name blank", `{"name": " "}`),
	bad("name as a number", `{"name": 5}`),
	bad("description as a boolean", `{"name": "x", "description": true}`),
	bad("an id", `{"name": "x", "id": "{groupId}"}`),
	bad("a field named in another case", `{"Name": "x"}`),
	bad("a field given twice", `{"name": "a", "name": "b"}`),
}

var createGroupBadBodies = []badBody{
	bad("name missing", `{"description": "d"}`),
	bad("name null", `{"name": null}`),
}

var groupMemberBadBodies = []badBody{
	bad("kind missing", `{"baseId": "{baseId}"}`),
	bad("kind null", `{"kind": null, "baseId": "{baseId}"}`),
	bad("kind unknown", `{"kind": "group", "baseId": "{baseId}"}`),
	bad("kind as a number", `{"kind": 1, "baseId": "{baseId}"}`),
	bad("baseId missing", `{"kind": "policy"}`),
	bad("baseId not an id", `{"kind": "policy", "baseId": "senior"}`),
	bad("baseId as a number", `{"kind": "policy", "baseId": 5}`),
	bad("baseId in braces", `{"kind": "policy", "baseId": "{{baseId}}"}`),
	refused("the same base again", `{"kind": "policy", "baseId": "{baseId}"}`, 409, service.CodeConflict),
	refused("a flow named as a policy", `{"kind": "policy", "baseId": "{flowBaseId}"}`, 404, service.CodeNotFound),
	refused("an unknown base", `{"kind": "flow", "baseId": "00000000-0000-7000-8000-000000000000"}`, 404, service.CodeNotFound),
}

var memberBadBodies = []badBody{
	bad("email missing", `{"role": "viewer"}`),
	bad("email invalid", `{"email": "someone", "role": "viewer"}`),
	bad("email as a number", `{"email": 5, "role": "viewer"}`),
	bad("role missing", `{"email": "x@acme.test"}`),
	bad("role unknown", `{"email": "x@acme.test", "role": "owner"}`),
	bad("name as a number", `{"email": "x@acme.test", "name": 5, "role": "viewer"}`),
	bad("a field named in another case", `{"email": "x@acme.test", "Role": "viewer"}`),
	refused("a member already", `{"email": "Admin@Acme.test", "role": "viewer"}`, 409, service.CodeConflict),
}

var roleBadBodies = []badBody{
	bad("role missing", `{}`),
	bad("role null", `{"role": null}`),
	bad("role unknown", `{"role": "owner"}`),
	bad("role as a number", `{"role": 1}`),
	bad("an email", `{"role": "viewer", "email": "x@acme.test"}`),
}

var keyBadBodies = []badBody{
	bad("name missing", `{"scope": "view"}`),
	bad("scope missing", `{"name": "k"}`),
	bad("scope unknown", `{"name": "k", "scope": "root"}`),
	bad("name as a number", `{"name": 5, "scope": "view"}`),
	bad("userId not an id", `{"name": "k", "scope": "view", "userId": "ed"}`),
	bad("expiresAt not RFC 3339", `{"name": "k", "scope": "view", "expiresAt": "2999-01-01"}`),
	bad("expiresAt as a number", `{"name": "k", "scope": "view", "expiresAt": 32503680000}`),
	bad("expiresAt in the past", `{"name": "k", "scope": "view", "expiresAt": "2000-01-01T00:00:00Z"}`),
	bad("a secret", `{"name": "k", "scope": "view", "secret": "vdk_mine"}`),
	refused("a user who is no member", `{"name": "k", "scope": "view", "userId": "00000000-0000-7000-8000-000000000000"}`, 404, service.CodeNotFound),
}

// flowBadBodies are bad members of a flow body; required holds the
// members the route needs besides them. (A definition the flow package
// refuses is an error with details, tested with the flows.)
func flowBadBodies(required string) []badBody {
	with := func(name, members string) badBody {
		return badBody{name: name, body: func(string) string { return "{" + required + ", " + members + "}" }}
	}
	return []badBody{
		with("name blank", `"name": " "`),
		with("a rule", `"rule": "A **P** is x if __a__ is 1."`),
		with("a schema", `"schema": {}`),
		with("tests as an object", `"tests": {"name": "t"}`),
		with("a test expecting a number", `"tests": [{"name": "t", "data": {}, "expect": 1}]`),
		with("a test expecting an object", `"tests": [{"name": "t", "data": {}, "expect": {"result": true}}]`),
		with("a test whose data is an array", `"tests": [{"name": "t", "data": [], "expect": true}]`),
		with("description as a number", `"description": 1`),
		{name: "a field named in another case", body: func(string) string { return "{" + required + `, "Definition": {}}` }},
		{name: "a field given twice", body: func(string) string { return "{" + required + `, "description": "a", "description": "b"}` }},
	}
}

var createFlowBadBodies = []badBody{
	{name: "name missing", body: func(string) string { return `{"definition": ` + seniorDefinition + `}` }},
	{name: "definition missing", body: func(string) string { return `{"name": "x"}` }},
	{name: "definition null", body: func(string) string { return `{"name": "x", "definition": null}` }},
	{name: "a status", body: func(string) string { return `{"name": "x", "definition": ` + seniorDefinition + `, "status": "draft"}` }},
}

var flowInputBadBodies = []badBody{
	{name: "input nested too deep", body: func(string) string { return strings.Repeat(`{"a":`, 100) + "1" + strings.Repeat("}", 100) }},
	{name: "whitespace only", body: func(string) string { return " \n " }},
	{name: "a number", body: func(string) string { return "5" }},
}

var flowTestBadBodies = []badBody{
	{name: "data missing", body: func(string) string { return `{"definition": ` + seniorDefinition + `}` }},
	{name: "data null", body: func(string) string { return `{"definition": ` + seniorDefinition + `, "data": null}` }},
	{name: "data an array", body: func(string) string { return `{"definition": ` + seniorDefinition + `, "data": []}` }},
	{name: "testData a string", body: func(string) string { return `{"definition": ` + seniorDefinition + `, "testData": "{}"}` }},
	{name: "no definition", body: func(string) string { return `{"data": {}}` }},
	{name: "definition as a string", body: func(string) string { return `{"definition": "flow: x", "data": {}}` }},
	{name: "definition as an array", body: func(string) string { return `{"definition": [], "data": {}}` }},
	{name: "flow as a number", body: func(string) string { return `{"flow": 5, "data": {}}` }},
	{name: "nodes without edges", body: func(string) string { return `{"nodes": [], "data": {}}` }},
	{name: "edges without nodes", body: func(string) string { return `{"edges": [], "data": {}}` }},
	{name: "a name", body: func(string) string { return `{"name": "x", "definition": ` + seniorDefinition + `, "data": {}}` }},
	{name: "a field given twice", body: func(string) string { return `{"data": {}, "data": {}, "definition": ` + seniorDefinition + `}` }},
}

// policyBadBodies are bad members of a policy body; required holds the
// members the route needs besides them.
func policyBadBodies(required string) []badBody {
	with := func(name, members string) badBody {
		return badBody{name: name, body: func(string) string { return "{" + required + ", " + members + "}" }}
	}
	return []badBody{
		with("name as a number", `"name": 5`),
		with("name blank", `"name": "  "`),
		with("rule as a number", `"rule": 5`),
		with("rule as an object", `"rule": {"text": "y"}`),
		with("description as a boolean", `"description": true`),
		with("schema as a string", `"schema": "object"`),
		with("schema as a number", `"schema": 5`),
		with("schema as an array", `"schema": []`),
		with("tests as an object", `"tests": {"name": "t"}`),
		with("tests as a string", `"tests": "t"`),
		with("a test that is not an object", `"tests": [5]`),
		with("a test with an unknown member", `"tests": [{"name": "t", "data": {}, "expect": true, "expected": true}]`),
		with("a test without a name", `"tests": [{"data": {}, "expect": true}]`),
		with("a test named by a number", `"tests": [{"name": 5, "data": {}, "expect": true}]`),
		with("a test whose data is an array", `"tests": [{"name": "t", "data": [], "expect": true}]`),
		with("a test without data", `"tests": [{"name": "t", "expect": true}]`),
		with("a test without expect", `"tests": [{"name": "t", "data": {}}]`),
		with("a test expecting a string", `"tests": [{"name": "t", "data": {}, "expect": "yes"}]`),
		with("a test expecting null", `"tests": [{"name": "t", "data": {}, "expect": null}]`),
		with("a test member named in another case", `"tests": [{"Name": "t", "data": {}, "expect": true}]`),
		with("a test member given twice", `"tests": [{"name": "t", "name": "u", "data": {}, "expect": true}]`),
		with("two tests of one name", `"tests": [{"name": "t", "data": {}, "expect": true}, {"name": "t", "data": {}, "expect": false}]`),
		{name: "a field named in another case", body: func(string) string { return "{" + required + `, "Name": "x"}` }},
		{name: "a field given twice", body: func(string) string { return "{" + required + `, "description": "a", "description": "b"}` }},
	}
}

var createPolicyBadBodies = []badBody{
	{name: "name missing", body: func(string) string { return `{"rule": "y"}` }},
	{name: "rule missing", body: func(string) string { return `{"name": "x"}` }},
	{name: "rule null", body: func(string) string { return `{"name": "x", "rule": null}` }},
	{name: "a status", body: func(string) string { return `{"name": "x", "rule": "y", "status": "draft"}` }},
}

var updatePolicyBadBodies = []badBody{
	{name: "status missing", body: func(string) string { return `{"name": "x"}` }},
	{name: "status null", body: func(string) string { return `{"status": null}` }},
	{name: "status unknown", body: func(string) string { return `{"status": "archived"}` }},
	{name: "status as a boolean", body: func(string) string { return `{"status": true}` }},
	{name: "status empty", body: func(string) string { return `{"status": ""}` }},
}

var storedRunBadBodies = []badBody{
	{name: "data missing", body: func(string) string { return `{}` }},
	{name: "data null", body: func(string) string { return `{"data": null}` }},
	{name: "data an array", body: func(string) string { return `{"data": []}` }},
	{name: "data a string", body: func(string) string { return `{"data": "{}"}` }},
	{name: "data a number", body: func(string) string { return `{"data": 5}` }},
	{name: "data nested too deep", body: func(string) string {
		return `{"data": ` + strings.Repeat(`{"a":`, 100) + "1" + strings.Repeat("}", 100) + "}"
	}},
	{name: "data not valid JSON", body: func(string) string { return `{"data": {"Person": {"age": 70,}}}` }},
	{name: "data unbalanced", body: func(string) string { return `{"data": {"Person": {"age": 70]]}` }},
	{name: "more after the body", body: func(string) string { return `{"data": {}} {}` }},
	{name: "a rule beside the data", body: func(string) string { return `{"rule": "A **P** is x if __a__ is 1.", "data": {}}` }},
	{name: "a rule after the data", body: func(string) string { return `{"data": {}, "rule": "A **P** is x if __a__ is 1."}` }},
	{name: "a field named in another case", body: func(string) string { return `{"Data": {}}` }},
	{name: "a field given twice", body: func(string) string { return `{"data": {}, "data": {}}` }},
}

var batchBadBodies = []badBody{
	bad("items missing", `{}`),
	bad("items null", `{"items": null}`),
	bad("items empty", `{"items": []}`),
	bad("items an object", `{"items": {"Person": {"age": 70}}}`),
	bad("items a string", `{"items": "[]"}`),
	bad("an item a number", `{"items": [{"Person": {"age": 70}}, 5]}`),
	bad("an item null", `{"items": [null]}`),
	bad("an item an array", `{"items": [[]]}`),
	bad("an item a string", `{"items": ["{}"]}`),
	bad("an item not valid JSON", `{"items": [{"Person": {"age": 70}}, {"Person": {"age": 70,}}]}`),
	bad("an item unbalanced", `{"items": [{"Person": {"age": 70]]}`),
	bad("an item nested too deep", `{"items": [`+strings.Repeat(`{"a":`, 100)+"1"+strings.Repeat("}", 100)+`]}`),
	bad("more items than a batch holds", `{"items": [`+strings.Repeat(`{}, `, service.DefaultMaxBatchItems)+`{}]}`),
	bad("data beside the items", `{"items": [{}], "data": {}}`),
	bad("a field named in another case", `{"Items": [{}]}`),
	bad("a field given twice", `{"items": [{}], "items": [{}]}`),
}

// streamedBody hides its length, so the request goes without
// Content-Length and the limit must be caught while reading.
type streamedBody struct{ io.Reader }

func TestBadInputIsRefusedAndChangesNothing(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		// The valid bodies first: they prove the routes work, and the
		// first is the request that records the key's first use.
		wantStatus(t, f.run(adultRun, key(adminKey)...), http.StatusOK)
		w := f.do(http.MethodPost, "/policy", strings.NewReader(seniorPolicy), append(key(adminKey), "Content-Type", "application/json")...)
		wantStatus(t, w, http.StatusCreated)
		var pol service.Policy
		if err := json.Unmarshal(w.Body.Bytes(), &pol); err != nil {
			t.Fatal(err)
		}
		w = f.do(http.MethodPost, "/flow", strings.NewReader(strings.ReplaceAll(seniorFlow, "{policyId}", pol.ID.String())),
			append(key(adminKey), "Content-Type", "application/json")...)
		wantStatus(t, w, http.StatusCreated)
		var fl service.Flow
		if err := json.Unmarshal(w.Body.Bytes(), &fl); err != nil {
			t.Fatal(err)
		}
		w = f.do(http.MethodPost, "/group", strings.NewReader(`{"name": "Pricing"}`), append(key(adminKey), "Content-Type", "application/json")...)
		wantStatus(t, w, http.StatusCreated)
		var g service.Group
		if err := json.Unmarshal(w.Body.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		w = f.do(http.MethodPost, "/admin/members", strings.NewReader(`{"email": "member@acme.test", "role": "editor"}`),
			append(key(adminKey), "Content-Type", "application/json")...)
		wantStatus(t, w, http.StatusCreated)
		var m service.Member
		if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		ids := strings.NewReplacer("{policyId}", pol.ID.String(), "{baseId}", pol.BaseID.String(),
			"{flowId}", fl.ID.String(), "{flowBaseId}", fl.BaseID.String(), "{groupId}", g.ID.String(), "{userId}", m.User.ID.String())
		for _, rt := range bodyRoutes {
			w := f.do(rt.method, ids.Replace(rt.path), strings.NewReader(ids.Replace(rt.valid)), append(key(adminKey), "Content-Type", "application/json")...)
			wantStatus(t, w, rt.status)
		}
		waitForExecuted(t, db, storedRuns)
		before := rowCounts(t, db)
		unchanged := func(t *testing.T) {
			t.Helper()
			if after := rowCounts(t, db); !equalCounts(before, after) {
				t.Errorf("rows changed from %v to %v", before, after)
			}
		}

		for _, rt := range bodyRoutes {
			route := rt.method + " " + rt.path
			cases := append(genericBadBodies(), routeBadBodies[route]...)
			for _, bc := range cases {
				if bc.named && inputRoutes[route] {
					continue
				}
				if bc.status == 0 {
					bc.status, bc.code = 400, service.CodeInvalidArgument
				}
				t.Run(route+" refuses "+bc.name, func(t *testing.T) {
					var body io.Reader = strings.NewReader(ids.Replace(bc.body(rt.valid)))
					if bc.streamed {
						body = streamedBody{body}
					}
					contentType := bc.contentType
					if contentType == "" {
						contentType = "application/json"
					}
					r := httptest.NewRequest(rt.method, ids.Replace(rt.path), body)
					r.Header.Set("x-api-key", adminKey)
					r.Header.Set("Content-Type", contentType)
					for i := 0; i+1 < len(bc.header); i += 2 {
						r.Header.Add(bc.header[i], bc.header[i+1])
					}
					w := f.send(r)
					wantError(t, w, bc.status, bc.code)
					unchanged(t)
				})
			}
		}

		for _, tc := range []struct {
			name         string
			method, path string
			header       []string
			status       int
			code         service.Code
			allow        string
		}{
			{"an unknown route is not found", "GET", "/nope", key(adminKey), 404, service.CodeNotFound, ""},
			{"an unknown route is not found without a key either", "POST", "/nope/1", nil, 404, service.CodeNotFound, ""},
			{"a near miss of a route is not found", "POST", "/runs", key(adminKey), 404, service.CodeNotFound, ""},
			{"a trailing slash is another route", "POST", "/run/", key(adminKey), 404, service.CodeNotFound, ""},
			{"a path that is not canonical is not found", "GET", "/run/../healthz", nil, 404, service.CodeNotFound, ""},
			{"a path with an empty element is not found", "POST", "//run", key(adminKey), 404, service.CodeNotFound, ""},
			{"GET on /run is not allowed", "GET", "/run", key(adminKey), 405, service.CodeInvalidArgument, "POST"},
			{"PUT on /run is not allowed", "PUT", "/run", key(adminKey), 405, service.CodeInvalidArgument, "POST"},
			{"DELETE on /run is not allowed without a key either", "DELETE", "/run", nil, 405, service.CodeInvalidArgument, "POST"},
			{"POST on /healthz is not allowed", "POST", "/healthz", nil, 405, service.CodeInvalidArgument, "GET, HEAD"},
			{"PATCH on a policy is not allowed", "PATCH", "/policy/" + pol.ID.String(), key(adminKey), 405, service.CodeInvalidArgument, "GET, HEAD, PUT, DELETE"},
			{"GET on /policy is not allowed", "GET", "/policy", key(adminKey), 405, service.CodeInvalidArgument, "POST"},
			{"POST on /policies is not allowed", "POST", "/policies", key(adminKey), 405, service.CodeInvalidArgument, "GET, HEAD"},
			{"GET on a stored run is not allowed", "GET", "/run/policy/" + pol.BaseID.String(), key(adminKey), 405, service.CodeInvalidArgument, "POST"},
			{"GET on /flow/test is not allowed, not a flow id", "GET", "/flow/test", key(adminKey), 405, service.CodeInvalidArgument, "POST"},
			{"HEAD on /flow/test is not allowed", "HEAD", "/flow/test", key(adminKey), 405, service.CodeInvalidArgument, "POST"},
			{"PUT on /flow/test is not allowed", "PUT", "/flow/test", key(adminKey), 405, service.CodeInvalidArgument, "POST"},
			{"DELETE on /flow/test is not allowed without a key either", "DELETE", "/flow/test", nil, 405, service.CodeInvalidArgument, "POST"},
			{"PATCH on /flow/test is not allowed", "PATCH", "/flow/test", key(adminKey), 405, service.CodeInvalidArgument, "POST"},
			{"a policy path with a trailing slash is not found", "GET", "/policy/" + pol.ID.String() + "/", key(adminKey), 404, service.CodeNotFound, ""},
			{"a run without an id is not found", "POST", "/run/policy/", key(adminKey), 404, service.CodeNotFound, ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				w := f.do(tc.method, tc.path, strings.NewReader(adultRun), tc.header...)
				wantError(t, w, tc.status, tc.code)
				if got := w.Header().Get("Allow"); got != tc.allow {
					t.Errorf("Allow %q, want %q", got, tc.allow)
				}
				unchanged(t)
			})
		}
	})
}
