package graph_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	gqlast "github.com/vektah/gqlparser/v2/ast"
)

// restCounterparts maps each REST operation (a route of rest/rest.go) to
// the schema coordinates that offer it over GraphQL (anything
// reachable over REST is reachable over GraphQL, and the other way round).
var restCounterparts = map[string][]string{
	"POST /run":                                 {"Mutation.runRule"},
	"POST /check":                               {"Query.checkRule"},
	"POST /policy/{policyId}/test":              {"Mutation.testPolicy"},
	"POST /flow/{flowId}/test":                  {"Mutation.testFlowRecord"},
	"POST /run/policy/{baseId}":                 {"Mutation.runPolicy"},
	"POST /run/policy_version/{policyId}":       {"Mutation.runPolicyVersion"},
	"POST /run/policy/{baseId}/batch":           {"Mutation.runPolicyBatch"},
	"POST /run/policy_version/{policyId}/batch": {"Mutation.runPolicyVersionBatch"},
	"GET /policy/{policyId}/diff/{otherId}":     {"Query.policyDiff"},
	"POST /policy/{policyId}/rollback":          {"Mutation.rollbackPolicy"},
	"GET /flow/{flowId}/diff/{otherId}":         {"Query.flowDiff"},
	"POST /flow/{flowId}/rollback":              {"Mutation.rollbackFlow"},
	"POST /policy":                              {"Mutation.createPolicy"},
	"GET /policy/{policyId}":                    {"Query.policy"},
	"PUT /policy/{policyId}":                    {"Mutation.updatePolicyDraft", "Mutation.publishPolicy"},
	"DELETE /policy/{policyId}":                 {"Mutation.deletePolicy"},
	"GET /policy/{policyId}/versions":           {"Query.policyVersions"},
	"GET /policy/{policyId}/draft":              {"Mutation.createPolicyDraftFromVersion"},
	"GET /policies":                             {"Query.policies"},
	"POST /run/flow/{baseId}":                   {"Mutation.runFlow"},
	"POST /run/flow_version/{flowId}":           {"Mutation.runFlowVersion"},
	"POST /run/flow/{baseId}/batch":             {"Mutation.runFlowBatch"},
	"POST /run/flow_version/{flowId}/batch":     {"Mutation.runFlowVersionBatch"},
	"POST /flow/test":                           {"Mutation.testFlow"},
	"POST /flow":                                {"Mutation.createFlow"},
	"GET /flow/{flowId}":                        {"Query.flow"},
	"PUT /flow/{flowId}":                        {"Mutation.updateFlowDraft", "Mutation.publishFlow"},
	"DELETE /flow/{flowId}":                     {"Mutation.deleteFlow"},
	"GET /flow/{flowId}/versions":               {"Query.flowVersions"},
	"GET /flow/{flowId}/draft":                  {"Mutation.createFlowDraftFromVersion"},
	"GET /flow/{flowId}/validation":             {"Query.flowValidation"},
	"GET /flows":                                {"Query.flows"},
	"POST /group":                               {"Mutation.createGroup"},
	"GET /group/{groupId}":                      {"Query.group"},
	"PUT /group/{groupId}":                      {"Mutation.updateGroup"},
	"DELETE /group/{groupId}":                   {"Mutation.deleteGroup"},
	"GET /groups":                               {"Query.groups"},
	"POST /group/{groupId}/member":              {"Mutation.addGroupMember"},
	"DELETE /group/{groupId}/member/{memberId}": {"Mutation.removeGroupMember"},
	"GET /group/{groupId}/policies":             {"Group.policies"},
	"GET /group/{groupId}/flows":                {"Group.flows"},
	"GET /audit":                                {"Query.auditEvents"},
	"GET /decisions":                            {"Query.decisions"},
	"GET /decision/{decisionId}":                {"Query.decision"},
	"GET /policy/{policyId}/decision-records":   {"Query.policyDecisionRecords"},
	"PUT /policy/{policyId}/decision-records":   {"Mutation.setDecisionRecords"},
	"POST /policy/{policyId}/replay":            {"Mutation.replayPolicy"},
	"GET /flow/{flowId}/decision-records":       {"Query.flowDecisionRecords"},
	"PUT /flow/{flowId}/decision-records":       {"Mutation.setDecisionRecords"},
	"POST /flow/{flowId}/replay":                {"Mutation.replayFlow"},
	"GET /admin/members":                        {"Query.members"},
	"POST /admin/members":                       {"Mutation.addMember"},
	"PUT /admin/members/{userId}":               {"Mutation.changeMemberRole"},
	"DELETE /admin/members/{userId}":            {"Mutation.removeMember"},
	"GET /admin/keys":                           {"Query.keys"},
	"POST /admin/keys":                          {"Mutation.createKey"},
	"DELETE /admin/keys/{keyId}":                {"Mutation.revokeKey"},
}

// notOperations are the routes that serve the infrastructure or GraphQL
// itself rather than an operation of the API.
var notOperations = []string{
	"GET /healthz", "GET /readyz", "GET /metrics", "GET /openapi.json",
	"POST /graphql", "GET /graphql", "GET /playground", "GET /playground/{asset}",
}

// graphQLOnly are the root fields with no REST counterpart: who the caller
// is, and object identification.
var graphQLOnly = []string{"Query.viewer", "Query.node"}

// restRoutes reads the patterns rest/rest.go mounts with s.handle. graph
// may not import rest, so the source is parsed. The one pattern that is a
// constant, fallbackPattern, answers requests no route matches.
func restRoutes(t *testing.T) []string {
	t.Helper()
	file, err := parser.ParseFile(token.NewFileSet(), "../rest/rest.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var routes []string
	ast.Inspect(file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "handle" {
			return true
		}
		switch arg := call.Args[0].(type) {
		case *ast.BasicLit:
			pattern, err := strconv.Unquote(arg.Value)
			if err != nil || arg.Kind != token.STRING {
				t.Errorf("a route pattern that is not a string: %s", arg.Value)
				return true
			}
			routes = append(routes, pattern)
		case *ast.Ident:
			if arg.Name != "fallbackPattern" {
				t.Errorf("a route pattern the test cannot read: %s", arg.Name)
			}
		default:
			t.Errorf("a route pattern the test cannot read: %T", arg)
		}
		return true
	})
	if len(routes) < len(restCounterparts) {
		t.Fatalf("read only %d routes from rest/rest.go: %v", len(routes), routes)
	}
	return routes
}

func TestEveryRESTOperationHasAGraphQLCounterpartAndBack(t *testing.T) {
	schema := loadSchema(t)
	routes := restRoutes(t)

	for _, route := range routes {
		if slices.Contains(notOperations, route) {
			continue
		}
		if _, ok := restCounterparts[route]; !ok {
			t.Errorf("the REST operation %q has no GraphQL counterpart in restCounterparts", route)
		}
	}

	offered := map[string]bool{}
	for route, coordinates := range restCounterparts {
		if !slices.Contains(routes, route) {
			t.Errorf("restCounterparts names %q, which rest/rest.go does not serve", route)
		}
		for _, c := range coordinates {
			typeName, field, _ := strings.Cut(c, ".")
			def := schema.Types[typeName]
			if def == nil || def.Fields.ForName(field) == nil {
				t.Errorf("%s is the counterpart of %q, but the schema has no %s", c, route, c)
			}
			offered[c] = true
		}
	}

	var roots []string
	for _, root := range []*gqlast.Definition{schema.Query, schema.Mutation} {
		for _, f := range root.Fields {
			if !strings.HasPrefix(f.Name, "__") {
				roots = append(roots, root.Name+"."+f.Name)
			}
		}
	}
	sort.Strings(roots)
	for _, c := range roots {
		if !offered[c] && !slices.Contains(graphQLOnly, c) {
			t.Errorf("the root field %s has no REST counterpart in restCounterparts and is not in graphQLOnly", c)
		}
	}
}
