package rest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/google/uuid"
)

// kind is a kind of resource a request can name by id.
type kind struct {
	name, plural string
	// seenWith is the action without which a caller may learn nothing of
	// the kind's ids, not even whether one exists: members and keys are
	// seen by admins only, everything else by every role.
	seenWith action
	// states are the tenant's shared resources of the kind.
	states []state

	// Policies and flows share a lifecycle and differ in these.
	//
	// body is a create body for a resource of the tenant (nil: of none).
	body func(tn *matrixTenant, name string) string
	// runBody is what the stored runs take for seniorData.
	runBody string
	// graphQL are the kind's GraphQL operations; an empty one has no
	// equivalent yet.
	graphQL kindOperations
}

type kindOperations struct {
	run, runVersion, create, get, versions, saveDraft, publish, draft, draftReplacing, remove, list, listOfGroup string
	diff, rollback, batch, batchVersion                                                                          string
}

var (
	policies = &kind{
		name: "policy", plural: "policies", seenWith: view, states: lifecycle,
		body: policyBody, runBody: `{"data": ` + seniorData + `}`,
		graphQL: kindOperations{
			run:            `mutation($id: ID!, $data: JSON!) { runPolicy(input: {baseId: $id, data: $data}) { result } }`,
			runVersion:     `mutation($id: ID!, $data: JSON!) { runPolicyVersion(input: {policyId: $id, data: $data}) { result } }`,
			create:         `mutation($input: CreatePolicyInput!) { createPolicy(input: $input) { policy { id baseId name } } }`,
			get:            `query($id: ID!) { policy(id: $id) { id baseId } }`,
			versions:       `query($id: ID!) { policyVersions(id: $id) { baseId versions { id } } }`,
			saveDraft:      `mutation($id: ID!) { updatePolicyDraft(input: {id: $id, description: "edited"}) { policy { id baseId } } }`,
			publish:        `mutation($id: ID!) { publishPolicy(input: {id: $id}) { id baseId } }`,
			draft:          `mutation($id: ID!) { createPolicyDraftFromVersion(input: {id: $id}) { id baseId } }`,
			draftReplacing: `mutation($id: ID!) { createPolicyDraftFromVersion(input: {id: $id, replace: true}) { id baseId } }`,
			remove:         `mutation($id: ID!) { deletePolicy(input: {id: $id}) }`,
			list:           `{ policies(first: 200, query: "shared") { edges { node { baseId } } } }`,
			listOfGroup:    `query($id: ID!) { policies(first: 200, groupId: $id) { edges { node { baseId } } } }`,
			diff:           `query($id: ID!, $other: ID!) { policyDiff(id: $id, otherId: $other) { baseId } }`,
			rollback:       `mutation($id: ID!) { rollbackPolicy(input: {id: $id}) { id baseId } }`,
			batch:          `mutation($id: ID!, $items: [JSON!]!) { runPolicyBatch(input: {baseId: $id, items: $items}) { results { result } } }`,
			batchVersion:   `mutation($id: ID!, $items: [JSON!]!) { runPolicyVersionBatch(input: {policyId: $id, items: $items}) { results { result } } }`,
		},
	}
	flows = &kind{
		name: "flow", plural: "flows", seenWith: view, states: lifecycle,
		body: flowBody, runBody: seniorData,
		graphQL: kindOperations{
			run:            `mutation($id: ID!, $data: JSON!) { runFlow(input: {baseId: $id, data: $data}) { result } }`,
			runVersion:     `mutation($id: ID!, $data: JSON!) { runFlowVersion(input: {flowId: $id, data: $data}) { result } }`,
			create:         `mutation($input: CreateFlowInput!) { createFlow(input: $input) { flow { id baseId name } } }`,
			get:            `query($id: ID!) { flow(id: $id) { id baseId } }`,
			versions:       `query($id: ID!) { flowVersions(id: $id) { baseId versions { id } } }`,
			saveDraft:      `mutation($id: ID!) { updateFlowDraft(input: {id: $id, description: "edited"}) { flow { id baseId } } }`,
			publish:        `mutation($id: ID!) { publishFlow(input: {id: $id}) { id baseId } }`,
			draft:          `mutation($id: ID!) { createFlowDraftFromVersion(input: {id: $id}) { id baseId } }`,
			draftReplacing: `mutation($id: ID!) { createFlowDraftFromVersion(input: {id: $id, replace: true}) { id baseId } }`,
			remove:         `mutation($id: ID!) { deleteFlow(input: {id: $id}) }`,
			list:           `{ flows(first: 200, query: "shared") { edges { node { baseId } } } }`,
			listOfGroup:    `query($id: ID!) { flows(first: 200, groupId: $id) { edges { node { baseId } } } }`,
			diff:           `query($id: ID!, $other: ID!) { flowDiff(id: $id, otherId: $other) { baseId } }`,
			rollback:       `mutation($id: ID!) { rollbackFlow(input: {id: $id}) { id baseId } }`,
			batch:          `mutation($id: ID!, $items: [JSON!]!) { runFlowBatch(input: {baseId: $id, items: $items}) { results { result } } }`,
			batchVersion:   `mutation($id: ID!, $items: [JSON!]!) { runFlowVersionBatch(input: {flowId: $id, items: $items}) { results { result } } }`,
		},
	}
	groups       = &kind{name: "group", seenWith: view, states: []state{present, removed}}
	groupMembers = &kind{name: "group member", seenWith: view, states: []state{present}}
	members      = &kind{name: "member", seenWith: manageMembers, states: []state{present, onlyAdmin}}
	keys         = &kind{name: "key", seenWith: manageKeys, states: []state{present}}
	// decisions are seen by those who read decisions only: to anyone else
	// every decision id is refused alike.
	decisions      = &kind{name: "decision", seenWith: readAudit, states: []state{present}}
	versionedKinds = []*kind{policies, flows}
	allKinds       = []*kind{policies, flows, groups, groupMembers, members, keys, decisions}
)

// policyBody is a POST /policy body whose rule carries the tenant's marker,
// with a test it passes, so that every draft can be published.
func policyBody(tn *matrixTenant, name string) string {
	return fmt.Sprintf(`{"name": %q, "tests": [{"name": "70 is senior", "data": {"Person": {"age": 70}}, "expect": true}],
		"rule": "A **Person** gets %s_discount if the __age__ of the **Person** is at least 65."}`, name, markerOf(tn))
}

// flowBody is a POST /flow body: a flow of the tenant's versioned policy,
// with a test it passes.
func flowBody(tn *matrixTenant, name string) string {
	return fmt.Sprintf(`{"name": %q, "description": "a %s flow", "definition": %s,
		"tests": [{"name": "70 is senior", "data": {"Person": {"age": 70}}, "expect": true}]}`,
		name, markerOf(tn), flowOf(versionedPolicyOf(tn)))
}

// flowOf is a flow definition that runs one policy and returns its result.
func flowOf(policyBase uuid.UUID) string {
	return fmt.Sprintf(`{"formatVersion": 1, "start": "start", "nodes": [
		{"id": "start", "type": "start", "policy": {"baseId": %q}, "onTrue": "yes", "onFalse": "no"},
		{"id": "yes", "type": "return", "returnValue": true},
		{"id": "no", "type": "return", "returnValue": false}]}`, policyBase)
}

func markerOf(tn *matrixTenant) string {
	if tn == nil {
		return "nobody"
	}
	return tn.marker()
}

// versionedPolicyOf is the base id of tn's shared versioned policy; an id
// of nothing for no tenant.
func versionedPolicyOf(tn *matrixTenant) uuid.UUID {
	if tn == nil {
		return uuid.Must(uuid.NewV7())
	}
	return tn.shared[policies][versioned].base
}

const (
	// adHocRule and adHocData are an ad hoc run that touches no tenant.
	adHocRule = "A **Person** is an adult if the __age__ of the **Person** is at least 18."
	adHocData = `{"Person": {"age": 30}}`
	// seniorData makes every stored policy and flow of the matrix true.
	seniorData = `{"Person": {"age": 70}}`
	// seniorBatch is a batch run body of two such items.
	seniorBatch = `{"items": [` + seniorData + `, ` + seniorData + `]}`
)

func get(path string) func(*call) request {
	return func(*call) request { return request{method: http.MethodGet, path: path} }
}

func always(*target) bool { return true }

// matrixEndpoints are the rows: every route the package registers.
var matrixEndpoints = slices.Concat([]*endpoint{
	{route: "GET /healthz", action: noKey, success: http.StatusOK, rest: get("/healthz")},
	{route: "GET /readyz", action: noKey, success: http.StatusOK, rest: get("/readyz")},
	{route: "GET /metrics", action: noKey, success: http.StatusOK, rest: get("/metrics")},
	{route: "GET /openapi.json", action: noKey, success: http.StatusOK, rest: get("/openapi.json")},
	{route: "GET /playground", action: noKey, success: http.StatusOK, rest: get("/playground")},
	{route: "GET /playground/{asset}", action: noKey, success: http.StatusOK, rest: get("/playground/graphiql.min.js")},
	{
		route: "POST /graphql", does: "viewer", action: view, success: http.StatusOK,
		graphQL: `{ viewer { role organization { id } } }`, check: namesTenant,
	},
	{
		// Relay's node: any object by its id alone. An id the caller has
		// nothing under is null, not an error; a base id is no object's.
		route: "POST /graphql", does: "node", action: view, success: http.StatusOK,
		kinds: []*kind{policies, flows, groups}, nullIfNotFound: true,
		only:    func(tg *target) bool { return tg.kind == groups || tg.id != baseID },
		graphQL: `query($id: ID!) { node(id: $id) { id } }`, check: namesTarget,
	},
	{
		// The GraphQL route by GET: the viewer query in the URL.
		route: "GET /graphql", does: "viewer", action: view, success: http.StatusOK,
		rest:  get("/graphql?" + url.Values{"query": {`{ viewer { role organization { id } } }`}}.Encode()),
		check: namesTenant,
	},
	{
		route: "POST /run", action: run, success: http.StatusOK,
		rest: func(*call) request {
			return request{http.MethodPost, "/run", fmt.Sprintf(`{"rule": %q, "data": %s}`, adHocRule, adHocData)}
		},
		graphQL: `mutation($rule: String!, $data: JSON!) { runRule(input: {rule: $rule, data: $data}) { result } }`,
		check:   resultTrue,
	},
	{
		route: "POST /policy/{policyId}/test", action: run, success: http.StatusOK,
		kinds: []*kind{policies}, strangers: []*kind{flows}, ids: []idKind{baseID, versionID, draftID},
		rest: func(c *call) request {
			return request{http.MethodPost, "/policy/" + c.id() + "/test",
				`{"tests": [{"name": "senior", "data": ` + seniorData + `, "expect": true}]}`}
		},
		graphQL: `mutation($id: ID!, $tests: [PolicyTestCaseInput!]) { testPolicy(input: {policyId: $id, tests: $tests}) { passed } }`,
		check: func(_ *call, body string) string {
			return mustContain(body, `"passed":true`, "a passing report")
		},
	},
	{
		route: "POST /flow/{flowId}/test", action: run, success: http.StatusOK,
		kinds: []*kind{flows}, strangers: []*kind{policies}, ids: []idKind{baseID, versionID, draftID},
		rest: func(c *call) request {
			return request{http.MethodPost, "/flow/" + c.id() + "/test",
				`{"tests": [{"name": "senior", "data": ` + seniorData + `, "expect": true}]}`}
		},
		graphQL: `mutation($id: ID!, $tests: [PolicyTestCaseInput!]) { testFlowRecord(input: {flowId: $id, tests: $tests}) { passed } }`,
		check: func(_ *call, body string) string {
			return mustContain(body, `"passed":true`, "a passing report")
		},
	},
	{
		route: "GET /flow/{flowId}/validation", action: view, success: http.StatusOK,
		kinds: []*kind{flows}, strangers: []*kind{policies},
		rest:    func(c *call) request { return request{method: http.MethodGet, path: "/flow/" + c.id() + "/validation"} },
		graphQL: `query($id: ID!) { flowValidation(id: $id) { errors warnings } }`,
		// Its reference resolves for whoever may read it, auditors too.
		check: func(_ *call, body string) string {
			return mustContain(body, `"errors":[],"warnings":[]`, "a flow without problems")
		},
	},
	{
		route: "POST /check", action: view, success: http.StatusOK,
		rest: func(*call) request {
			return request{http.MethodPost, "/check", fmt.Sprintf(`{"rule": %q}`, adHocRule)}
		},
		graphQL: `query($rule: String!) { checkRule(rule: $rule) { diagnostics { code } } }`,
		check: func(_ *call, body string) string {
			return mustContain(body, `"diagnostics":[]`, "no diagnostics")
		},
	},
	{
		route: "POST /flow/test", does: "of a flow of the caller's policy", action: testFlow, success: http.StatusOK,
		rest: func(c *call) request {
			return request{http.MethodPost, "/flow/test", `{"definition": ` + flowOf(versionedPolicyOf(c.p.tenant)) + `, "data": ` + seniorData + `}`}
		},
		graphQL: testFlowOperation, check: resultTrue,
	},
	{
		// A flow may reference policies only within its tenant: the other
		// tenant's policy is one the flow cannot resolve, and the run stops there.
		route: "POST /flow/test", does: "of a flow of another tenant's policy", action: testFlow, success: http.StatusOK,
		rest: func(c *call) request {
			return request{http.MethodPost, "/flow/test", `{"definition": ` + flowOf(versionedPolicyOf(c.m.otherTenant(c.p.tenant))) + `, "data": ` + seniorData + `}`}
		},
		graphQL: testFlowOperation,
		check: func(c *call, body string) string {
			if problem := mustContain(body, `"result":false`, "the result false"); problem != "" {
				return problem
			}
			return mustContain(body, "not found", "the policy that was not found")
		},
	},
}, lifecycleRows(policies), lifecycleRows(flows), groupRows(), adminRows())

// lifecycleRows are the rows of the routes every versioned kind has. Each
// targeted row is also called with the other kind's versioned ids.
func lifecycleRows(k *kind) []*endpoint {
	one, idParam := "/"+k.name+"/", "{"+k.name+"Id}"
	on, strangers := []*kind{k}, slices.DeleteFunc(slices.Clone(versionedKinds), func(other *kind) bool { return other == k })
	return []*endpoint{
		{
			route: "POST /run/" + k.name + "/{baseId}", action: run, success: http.StatusOK,
			kinds: on, strangers: strangers, ids: []idKind{baseID}, hintsKind: true,
			rest: func(c *call) request {
				return request{http.MethodPost, "/run/" + k.name + "/" + c.id(), k.runBody}
			},
			graphQL: k.graphQL.run, check: resultTrue,
		},
		{
			route: "POST /run/" + k.name + "_version/" + idParam, action: run, success: http.StatusOK,
			kinds: on, strangers: strangers, ids: []idKind{versionID, draftID}, hintsKind: true,
			rest: func(c *call) request {
				return request{http.MethodPost, "/run/" + k.name + "_version/" + c.id(), k.runBody}
			},
			graphQL: k.graphQL.runVersion, check: resultTrue,
		},
		{
			// A batch is authorized as one run.
			route: "POST /run/" + k.name + "/{baseId}/batch", action: run, success: http.StatusOK,
			kinds: on, strangers: strangers, ids: []idKind{baseID}, hintsKind: true,
			rest: func(c *call) request {
				return request{http.MethodPost, "/run/" + k.name + "/" + c.id() + "/batch", seniorBatch}
			},
			graphQL: k.graphQL.batch, check: resultTrue,
		},
		{
			route: "POST /run/" + k.name + "_version/" + idParam + "/batch", action: run, success: http.StatusOK,
			kinds: on, strangers: strangers, ids: []idKind{versionID, draftID}, hintsKind: true,
			rest: func(c *call) request {
				return request{http.MethodPost, "/run/" + k.name + "_version/" + c.id() + "/batch", seniorBatch}
			},
			graphQL: k.graphQL.batchVersion, check: resultTrue,
		},
		{
			route: "POST /" + k.name, action: create, success: http.StatusCreated,
			rest: func(c *call) request {
				return request{http.MethodPost, "/" + k.name, k.body(c.p.tenant, createdName(c.p))}
			},
			graphQL: k.graphQL.create, check: namesCreated,
		},
		{
			route: "GET " + one + idParam, action: view, success: http.StatusOK, kinds: on, strangers: strangers,
			rest:    func(c *call) request { return request{method: http.MethodGet, path: one + c.id()} },
			graphQL: k.graphQL.get, check: namesAddressedRecord,
		},
		{
			route: "GET " + one + idParam + "/versions", action: view, success: http.StatusOK, kinds: on, strangers: strangers,
			rest:    func(c *call) request { return request{method: http.MethodGet, path: one + c.id() + "/versions"} },
			graphQL: k.graphQL.versions, check: namesBase,
		},
		{
			route: "PUT " + one + idParam, does: "saving the draft", action: edit, success: http.StatusOK,
			kinds: on, strangers: strangers, conflicts: (*target).addressesVersion, mutates: true,
			rest: func(c *call) request {
				return request{http.MethodPut, one + c.id(), `{"status": "draft", "description": "edited"}`}
			},
			graphQL: k.graphQL.saveDraft, check: namesAddressedRecord,
		},
		{
			route: "PUT " + one + idParam, does: "publishing", action: publish, success: http.StatusCreated,
			kinds: on, strangers: strangers, conflicts: (*target).addressesVersion, mutates: true,
			rest:    func(c *call) request { return request{http.MethodPut, one + c.id(), `{"status": "published"}`} },
			graphQL: k.graphQL.publish, check: namesAddressedRecord,
		},
		{
			route: "GET " + one + idParam + "/draft", does: "from a version", action: edit, success: http.StatusCreated,
			kinds: on, strangers: strangers, mutates: true,
			conflicts: func(tg *target) bool { return !tg.addressesVersion() || tg.hasDraft() },
			rest:      func(c *call) request { return request{method: http.MethodGet, path: one + c.id() + "/draft"} },
			graphQL:   k.graphQL.draft, check: namesBase,
		},
		{
			route: "GET " + one + idParam + "/draft", does: "replacing the draft", action: edit, success: http.StatusCreated,
			kinds: on, strangers: strangers, mutates: true,
			conflicts: func(tg *target) bool { return !tg.addressesVersion() },
			rest: func(c *call) request {
				return request{method: http.MethodGet, path: one + c.id() + "/draft?replace=true"}
			},
			graphQL: k.graphQL.draftReplacing, check: namesBase,
		},
		{
			// Compared with the base's current record: another tenant's
			// base, or one of another kind, is not found either.
			route: "GET " + one + idParam + "/diff/{otherId}", action: view, success: http.StatusOK, kinds: on, strangers: strangers,
			rest: func(c *call) request {
				return request{method: http.MethodGet, path: one + c.id() + "/diff/" + c.res.base.String()}
			},
			graphQL: k.graphQL.diff, check: namesBase,
		},
		{
			route: "POST " + one + idParam + "/rollback", action: publish, success: http.StatusCreated,
			kinds: on, strangers: strangers, mutates: true,
			conflicts: func(tg *target) bool { return !tg.addressesVersion() },
			rest:      func(c *call) request { return request{method: http.MethodPost, path: one + c.id() + "/rollback"} },
			graphQL:   k.graphQL.rollback, check: namesBase,
		},
		{
			route: "DELETE " + one + idParam, action: remove, success: http.StatusNoContent, kinds: on, strangers: strangers, mutates: true,
			rest:    func(c *call) request { return request{method: http.MethodDelete, path: one + c.id()} },
			graphQL: k.graphQL.remove,
		},
		{
			route: "GET " + one + idParam + "/decision-records", action: view, success: http.StatusOK, kinds: on, strangers: strangers,
			rest: func(c *call) request {
				return request{method: http.MethodGet, path: one + c.id() + "/decision-records"}
			},
			graphQL: `query($id: ID!) { ` + k.name + `DecisionRecords(id: $id) { baseId enabled } }`, check: namesBase,
		},
		{
			route: "PUT " + one + idParam + "/decision-records", action: edit, success: http.StatusOK,
			kinds: on, strangers: strangers, mutates: true,
			rest: func(c *call) request {
				return request{http.MethodPut, one + c.id() + "/decision-records", `{"enabled": true, "sampleRate": 0.5}`}
			},
			graphQL: `mutation($id: ID!) { setDecisionRecords(input: {` + k.name + `Id: $id, enabled: true, sampleRate: 0.5}) { baseId sampleRate } }`,
			check:   namesBase,
		},
		{
			route: "POST " + one + idParam + "/replay", action: replay, success: http.StatusOK,
			kinds: on, strangers: strangers,
			rest: func(c *call) request {
				return request{http.MethodPost, one + c.id() + "/replay", `{"limit": 10}`}
			},
			graphQL: `mutation($id: ID!) { replay` + strings.ToUpper(k.name[:1]) + k.name[1:] + `(input: {` + k.name + `Id: $id, limit: 10}) { compared errors } }`,
			check: func(_ *call, body string) string {
				return mustContain(body, `"errors":0`, "a replay without errors")
			},
		},
		{
			route: "GET /" + k.plural, action: view, success: http.StatusOK, lists: k,
			rest:    get("/" + k.plural + "?q=shared&limit=200"),
			graphQL: k.graphQL.list, check: listsWhatItShould,
		},
		{
			route: "GET /" + k.plural, does: "of a group", action: view, success: http.StatusOK,
			kinds: []*kind{groups}, strangers: []*kind{k}, lists: k,
			rest: func(c *call) request {
				return request{method: http.MethodGet, path: "/" + k.plural + "?limit=200&groupId=" + c.id()}
			},
			graphQL: k.graphQL.listOfGroup, check: listsWhatItShould,
		},
	}
}

// groupRows are the rows of groups and their members.
func groupRows() []*endpoint {
	on, bases := []*kind{groups}, versionedKinds
	// A record id is not a base id: the lifecycle rows show it.
	byBaseID := func(tg *target) bool { return tg.id == baseID }
	addBase := func(c *call) request {
		return request{http.MethodPost, "/group/" + c.groupID() + "/member",
			fmt.Sprintf(`{"kind": %q, "baseId": %q}`, c.tg.kind.name, c.id())}
	}
	listing := func(k *kind) *endpoint {
		return &endpoint{
			route: "GET /group/{groupId}/" + k.plural, action: view, success: http.StatusOK, kinds: on, strangers: []*kind{policies}, lists: k,
			rest: func(c *call) request {
				return request{method: http.MethodGet, path: "/group/" + c.id() + "/" + k.plural}
			},
			graphQL: `query($id: ID!) { group(id: $id) { ` + k.plural + `(first: 200) { edges { node { baseId } } } } }`,
			check:   listsWhatItShould,
		}
	}
	return []*endpoint{
		{
			route: "POST /group", action: manageGroups, success: http.StatusCreated,
			rest: func(c *call) request {
				return request{http.MethodPost, "/group", fmt.Sprintf(`{"name": %q}`, createdName(c.p))}
			},
			graphQL: `mutation($input: CreateGroupInput!) { createGroup(input: $input) { id name } }`,
			check:   namesCreated,
		},
		{
			route: "GET /group/{groupId}", action: view, success: http.StatusOK, kinds: on, strangers: []*kind{policies},
			rest:    func(c *call) request { return request{method: http.MethodGet, path: "/group/" + c.id()} },
			graphQL: `query($id: ID!) { group(id: $id) { id } }`,
			check:   namesTarget,
		},
		{
			route: "PUT /group/{groupId}", action: manageGroups, success: http.StatusOK, kinds: on, mutates: true,
			rest:    func(c *call) request { return request{http.MethodPut, "/group/" + c.id(), `{"description": "edited"}`} },
			graphQL: `mutation($id: ID!) { updateGroup(input: {id: $id, description: "edited"}) { id } }`,
			check:   namesTarget,
		},
		{
			route: "DELETE /group/{groupId}", action: manageGroups, success: http.StatusNoContent, kinds: on, mutates: true,
			rest:    func(c *call) request { return request{method: http.MethodDelete, path: "/group/" + c.id()} },
			graphQL: `mutation($id: ID!) { deleteGroup(input: {id: $id}) }`,
		},
		{
			route: "GET /groups", action: view, success: http.StatusOK,
			rest:    get("/groups?q=shared&limit=200"),
			graphQL: `{ groups(first: 200, query: "shared") { edges { node { id } } } }`,
			check: func(c *call, body string) string {
				return mustContain(body, `"id":"`+c.p.tenant.shared[groups][present].base.String()+`"`, "the tenant's group")
			},
		},
		{
			route: "POST /group/{groupId}/member", does: "adding a base", action: manageGroups, success: http.StatusCreated,
			kinds: bases, only: byBaseID, addsToGroup: true, mutates: true,
			rest: addBase, graphQL: addBaseOperation, check: namesBase,
		},
		{
			route: "POST /group/{groupId}/member", does: "adding a base the group has", action: manageGroups, success: http.StatusCreated,
			kinds: bases, only: byBaseID, addsToGroup: true, conflicts: always,
			rest: addBase, graphQL: addBaseOperation,
		},
		{
			route: "DELETE /group/{groupId}/member/{memberId}", action: manageGroups, success: http.StatusNoContent,
			kinds: []*kind{groupMembers}, mutates: true,
			rest: func(c *call) request {
				return request{method: http.MethodDelete, path: "/group/" + c.groupID() + "/member/" + c.id()}
			},
			graphQL: `mutation($group: ID!, $id: ID!) { removeGroupMember(input: {groupId: $group, memberId: $id}) }`,
		},
		listing(policies),
		listing(flows),
		{
			route: "GET /decisions", action: readAudit, success: http.StatusOK,
			rest: func(c *call) request {
				return request{method: http.MethodGet, path: "/decisions?baseId=" + versionedPolicyOf(c.p.tenant).String()}
			},
			// The matrix's runs of the policy record more decisions; any of
			// them shows the tenant's policy.
			graphQL: `query($policy: ID!) { decisions(first: 200, filter: {baseId: $policy}) { edges { node { id baseId } } } }`,
			check: func(c *call, body string) string {
				return mustContain(body, `"baseId":"`+versionedPolicyOf(c.p.tenant).String()+`"`, "a decision of the tenant's versioned policy")
			},
		},
		{
			route: "GET /decision/{decisionId}", action: readAudit, success: http.StatusOK,
			// No strangers: to those who may not read decisions every id is
			// refused before it is looked up, of whatever kind it is.
			kinds:   []*kind{decisions},
			rest:    func(c *call) request { return request{method: http.MethodGet, path: "/decision/" + c.id()} },
			graphQL: `query($id: ID!) { decision(id: $id) { id recomputed { result } } }`,
			check:   namesTarget,
		},
		{
			route: "GET /audit", action: readAudit, success: http.StatusOK,
			rest: func(c *call) request {
				return request{method: http.MethodGet, path: "/audit?action=published&baseId=" + versionedPolicyOf(c.p.tenant).String()}
			},
			graphQL: `query($policy: ID!) { auditEvents(first: 200, filter: {action: PUBLISHED, baseId: $policy}) { edges { node { baseId } } } }`,
			check: func(c *call, body string) string {
				return mustContain(body, `"baseId":"`+versionedPolicyOf(c.p.tenant).String()+`"`, "the publishing of the versioned policy")
			},
		},
	}
}

// adminRows are the rows of members and keys.
func adminRows() []*endpoint {
	role := func(role string) func(c *call) request {
		return func(c *call) request {
			return request{http.MethodPut, "/admin/members/" + c.id(), `{"role": "` + role + `"}`}
		}
	}
	removeMember := func(c *call) request { return request{method: http.MethodDelete, path: "/admin/members/" + c.id()} }
	return []*endpoint{
		{
			route: "GET /admin/members", action: manageMembers, success: http.StatusOK,
			rest:    get("/admin/members?limit=200"),
			graphQL: `{ members(first: 200) { edges { node { user { id } } } } }`,
			check: func(c *call, body string) string {
				return mustContain(body, `"id":"`+c.p.tenant.editor.String()+`"`, "the tenant's editor")
			},
		},
		{
			route: "POST /admin/members", does: "adding a user", action: manageMembers, success: http.StatusCreated,
			rest: func(c *call) request {
				return request{http.MethodPost, "/admin/members", `{"email": "` + c.newEmail() + `", "role": "viewer"}`}
			},
			graphQL: `mutation($email: String!) { addMember(input: {email: $email, role: VIEWER}) { user { email } } }`,
			check:   func(c *call, body string) string { return mustContain(body, `"email":"`+c.email+`"`, "the new member") },
		},
		{
			route: "POST /admin/members", does: "adding a member", action: manageMembers, success: http.StatusCreated, conflicts: always,
			rest: func(c *call) request {
				return request{http.MethodPost, "/admin/members", `{"email": "viewer@` + domainOf(c.p.tenant) + `", "role": "viewer"}`}
			},
			graphQL: `mutation($email: String!) { addMember(input: {email: $email, role: VIEWER}) { role } }`,
		},
		{
			route: "PUT /admin/members/{userId}", does: "to viewer", action: manageMembers, success: http.StatusOK,
			kinds: []*kind{members}, states: []state{present}, mutates: true,
			rest: role("viewer"), check: namesTarget,
			graphQL: `mutation($id: ID!) { changeMemberRole(input: {userId: $id, role: VIEWER}) { user { id } } }`,
		},
		{
			route: "PUT /admin/members/{userId}", does: "demoting the only admin", action: manageMembers, success: http.StatusOK,
			kinds: []*kind{members}, states: []state{onlyAdmin}, conflicts: always,
			rest:    role("editor"),
			graphQL: `mutation($id: ID!) { changeMemberRole(input: {userId: $id, role: EDITOR}) { role } }`,
		},
		{
			route: "DELETE /admin/members/{userId}", action: manageMembers, success: http.StatusNoContent,
			kinds: []*kind{members}, states: []state{present}, mutates: true,
			rest: removeMember, graphQL: removeMemberOperation,
		},
		{
			route: "DELETE /admin/members/{userId}", does: "removing the only admin", action: manageMembers, success: http.StatusNoContent,
			kinds: []*kind{members}, states: []state{onlyAdmin}, conflicts: always,
			rest: removeMember, graphQL: removeMemberOperation,
		},
		{
			route: "GET /admin/keys", action: manageKeys, success: http.StatusOK,
			rest:    get("/admin/keys?limit=200"),
			graphQL: `{ keys(first: 200) { edges { node { id } } } }`,
			check:   listsKeysWithoutSecrets,
		},
		{
			route: "POST /admin/keys", does: "for the organization", action: manageKeys, success: http.StatusCreated,
			rest: func(c *call) request {
				return request{http.MethodPost, "/admin/keys", fmt.Sprintf(`{"name": %q, "scope": "view"}`, createdName(c.p))}
			},
			graphQL: `mutation($name: String!) { createKey(input: {name: $name, scope: VIEW}) { secret } }`,
			check:   func(_ *call, body string) string { return mustContain(body, `"secret":"vdk_`, "the new key's secret") },
		},
		{
			route: "POST /admin/keys", does: "for a member", action: manageKeys, success: http.StatusCreated,
			kinds: []*kind{members}, states: []state{present},
			rest: func(c *call) request {
				return request{http.MethodPost, "/admin/keys", fmt.Sprintf(`{"name": %q, "scope": "view", "userId": %q}`, createdName(c.p), c.id())}
			},
			graphQL: `mutation($name: String!, $id: ID!) { createKey(input: {name: $name, scope: VIEW, userId: $id}) { key { owner { kind id } } } }`,
			check: func(c *call, body string) string {
				return mustContain(strings.ToLower(body), `"owner":{"kind":"user","id":"`+c.id()+`"}`, "the member as the key's owner")
			},
		},
		{
			route: "DELETE /admin/keys/{keyId}", action: manageKeys, success: http.StatusNoContent,
			kinds: []*kind{keys}, mutates: true,
			rest:    func(c *call) request { return request{method: http.MethodDelete, path: "/admin/keys/" + c.id()} },
			graphQL: `mutation($id: ID!) { revokeKey(input: {id: $id}) }`,
		},
	}
}

const (
	testFlowOperation     = `mutation($definition: JSON!, $data: JSON!) { testFlow(input: {definition: $definition, data: $data}) { result errors } }`
	addBaseOperation      = `mutation($group: ID!, $kind: GroupMemberKind!, $id: ID!) { addGroupMember(input: {groupId: $group, kind: $kind, baseId: $id}) { id baseId } }`
	removeMemberOperation = `mutation($id: ID!) { removeMember(input: {userId: $id}) }`
)

func domainOf(tn *matrixTenant) string {
	if tn == nil {
		return "nobody.test"
	}
	return tn.domain
}

// newEmail is an address no user has, in the caller's tenant's domain.
func (c *call) newEmail() string {
	c.m.made++
	c.email = fmt.Sprintf("added-%d@%s", c.m.made, domainOf(c.p.tenant))
	return c.email
}

// createdName names what a principal creates; it is unique to the
// principal and carries its tenant's name.
func createdName(p *principal) string { return "created by " + p.name }

func mustContain(body, want, what string) string {
	if !strings.Contains(body, want) {
		return fmt.Sprintf("the body does not name %s (%s)", what, want)
	}
	return ""
}

func resultTrue(_ *call, body string) string {
	return mustContain(body, `"result":true`, "the result true")
}

func namesCreated(c *call, body string) string {
	return mustContain(body, `"name":"`+createdName(c.p)+`"`, "the created resource's name")
}

func namesTenant(c *call, body string) string {
	return mustContain(body, `"id":"`+c.p.tenant.org.String()+`"`, "the caller's organization")
}

func namesTarget(c *call, body string) string {
	return mustContain(body, `"id":"`+c.id()+`"`, "the target")
}

func namesBase(c *call, body string) string {
	return mustContain(body, `"baseId":"`+c.res.base.String()+`"`, "the base id")
}

// namesAddressedRecord checks that the answer is the record the id stands
// for: a record id itself; a base id, the latest version, else the draft.
func namesAddressedRecord(c *call, body string) string {
	want := c.res.id(c.tg.id)
	if c.tg.id == baseID {
		want = c.res.version
		if want == uuid.Nil {
			want = c.res.draft
		}
	}
	return mustContain(body, `"id":"`+want.String()+`"`, "the addressed record")
}

// listsWhatItShould checks the caller's shared policies or flows in a
// listing against the oracle.
func listsWhatItShould(c *call, body string) string {
	var problems []string
	for _, st := range lifecycle {
		listed := strings.Contains(body, c.p.tenant.shared[c.ep.lists][st].base.String())
		if want := c.p.lists(st); listed != want {
			problems = append(problems, fmt.Sprintf("the %s %s is listed: %v, want %v", st, c.ep.lists.name, listed, want))
		}
	}
	return strings.Join(problems, "; ")
}

// listsKeysWithoutSecrets checks that a key listing has the caller's key
// and neither the secret nor the hash of any key of the tenant.
func listsKeysWithoutSecrets(c *call, body string) string {
	if problem := mustContain(body, `"id":"`+c.p.key.String()+`"`, "the caller's key"); problem != "" {
		return problem
	}
	for _, secret := range c.p.tenant.secrets {
		hash := sha256.Sum256([]byte(secret))
		if strings.Contains(body, secret) || strings.Contains(body, hex.EncodeToString(hash[:])) {
			return "the listing shows a key's secret or hash"
		}
	}
	return ""
}
