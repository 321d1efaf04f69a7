package rest

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// TestAuthorizationMatrix calls every route (authz_matrix_rows_test.go),
// and its GraphQL equivalent, as every principal of two tenants, on their
// policies and flows in every lifecycle state, groups, members and keys,
// and checks each answer against the oracle (authz_matrix_oracle_test.go);
// then that no response carried another tenant's ids or data, and that
// nothing refused changed anything.
func TestAuthorizationMatrix(t *testing.T) {
	t.Run("every route has a row", func(t *testing.T) {
		routes := registeredRoutes(t)
		rows := map[string]bool{}
		for _, ep := range matrixEndpoints {
			rows[ep.route] = true
			if !slices.Contains(routes, ep.route) {
				t.Errorf("the matrix has a row for %s, which no file of package rest registers", ep.route)
			}
		}
		for _, route := range routes {
			if !rows[route] {
				t.Errorf("%s has no row in the authorization matrix", route)
			}
		}
	})
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		m := newMatrix(t, db)
		before := m.snapshot(t)
		for _, ep := range matrixEndpoints {
			t.Run(ep.String(), func(t *testing.T) { m.runRow(t, ep) })
		}
		if after := m.snapshot(t); !slices.Equal(before, after) {
			t.Errorf("requests that were refused, or addressed only reads, changed the shared resources:\nbefore %q\nafter  %q", before, after)
		}
		m.checkNoLeaks(t)
		n := m.restCalls + m.graphQLCalls
		t.Logf("authorization matrix: %d requests (%d REST, %d GraphQL)", n, m.restCalls, m.graphQLCalls)
		fmt.Printf("%s: authorization matrix: %d requests (%d REST, %d GraphQL)\n", t.Name(), n, m.restCalls, m.graphQLCalls)
	})
}

// endpoint is one row of the matrix: a route, or one way of calling it when
// a route does several things, and its GraphQL equivalent.
type endpoint struct {
	// route is the pattern the route is registered with; GraphQL-only rows
	// name the GraphQL route.
	route string
	does  string
	// action is what the oracle asks the caller's permission for.
	action action
	// success is the REST status of a request that succeeds.
	success int
	// kinds are the kinds of resource a targeted row names by id. It is
	// called on the tenants' shared resources of these kinds (in the states
	// listed, else in all) by each of their ids, and on the first shared
	// resource of each kind in strangers, which it does not take, by its
	// first id.
	kinds     []*kind
	states    []state
	strangers []*kind
	// ids are the kinds of id the route takes; nil takes every kind. Any
	// other kind is not found.
	ids []idKind
	// hintsKind: another kind of id of a resource the caller may see is
	// not found with a message saying what kind of id it is, rather than
	// the answer for an id that exists nowhere (see hinted).
	hintsKind bool
	// conflicts says whether the state of the target (nil for untargeted
	// rows) refuses the request.
	conflicts func(tg *target) bool
	// mutates says that a success changes the target, so a request expected
	// to succeed is sent to a fresh copy of it.
	mutates bool
	// only, when set, picks the targets the row is called on from those.
	only func(tg *target) bool
	// addsToGroup rows add their target to a group of the caller's tenant:
	// the shared group, or a fresh one when the row mutates and the request
	// is expected to succeed.
	addsToGroup bool
	// nullIfNotFound: GraphQL answers not_found with null, without an
	// error (a nullable field).
	nullIfNotFound bool
	// lists is the kind of resource the row lists, for listsWhatItShould.
	lists *kind
	rest  func(c *call) request
	// graphQL is the equivalent GraphQL operation; empty when there is none
	// yet. Its variables are the call's (see variables).
	graphQL string
	// check looks at the body of a success and describes what is wrong
	// with it; empty when nothing is.
	check func(c *call, body string) string
}

func (ep *endpoint) String() string {
	if ep.does == "" {
		return ep.route
	}
	return ep.route + " " + ep.does
}

func (ep *endpoint) takes(tg *target) bool {
	return slices.Contains(ep.kinds, tg.kind) && (ep.ids == nil || slices.Contains(ep.ids, tg.id))
}

// hinted says whether the not_found answer to c says what kind of id it
// named: a row that hints, named by another kind of id of a resource of
// its kind that the caller may see, of the caller's tenant and not
// deleted. Every role sees its tenant's bases.
func (c *call) hinted() bool {
	tg := c.tg
	return c.ep.hintsKind && tg.tenant == c.p.tenant && slices.Contains(c.ep.kinds, tg.kind) && !c.ep.takes(tg) &&
		tg.state != deleted && tg.state != removed
}

// kindHint is the start of the message of a hinted answer (see hinted).
const kindHint = ": that is the id of a"

// call is one principal calling one row, on one target for targeted rows.
type call struct {
	m    *matrix
	ep   *endpoint
	p    *principal
	tg   *target
	want outcome
	// res is what the request addresses: shared, fresh, or nowhere.
	res   resource
	fresh bool
	// group is the group addsToGroup rows add to.
	group uuid.UUID
	// email is the address newEmail made.
	email string
}

func (c *call) id() string { return c.res.id(c.tg.id).String() }

// groupID is the group of a group member, else the group addsToGroup rows
// add to.
func (c *call) groupID() string {
	if c.res.group != uuid.Nil {
		return c.res.group.String()
	}
	return c.group.String()
}

func (c *call) String() string {
	s := c.p.name
	if c.tg != nil {
		s += " on " + c.tg.String()
		if c.fresh {
			s += " (a fresh copy)"
		}
	}
	return s
}

type request struct{ method, path, body string }

func (r request) String() string { return r.method + " " + r.path }

// declaredVariable finds the variables an operation declares.
var declaredVariable = regexp.MustCompile(`\$(\w+)\s*:`)

// variables are the values of the variables op declares: $id, $group and
// $kind name the call's target, its group (groupID) and its kind; $other
// the target's base; $policy is the
// caller's tenant's versioned policy; $input is the row's REST body, and
// any other variable that body's member of the same name ($data is
// seniorData where the body has none).
func (c *call) variables(op string) map[string]any {
	var body map[string]json.RawMessage
	if c.ep.rest != nil {
		// A body that is not an object has no members to take.
		json.Unmarshal([]byte(c.ep.rest(c).body), &body)
	}
	vars := map[string]any{}
	for _, match := range declaredVariable.FindAllStringSubmatch(op, -1) {
		name := match[1]
		switch name {
		case "id":
			vars[name] = c.id()
		case "group":
			vars[name] = c.groupID()
		case "other":
			vars[name] = c.res.base.String()
		case "kind":
			vars[name] = strings.ToUpper(c.tg.kind.name)
		case "policy":
			vars[name] = versionedPolicyOf(c.p.tenant)
		case "input":
			vars[name] = body
		default:
			vars[name] = body[name]
			if name == "data" && body[name] == nil {
				vars[name] = json.RawMessage(seniorData)
			}
		}
	}
	return vars
}

// targets are what a targeted row is called on, in both tenants.
func (m *matrix) targets(ep *endpoint) []*target {
	var out []*target
	for _, tn := range m.tenants {
		for _, k := range ep.kinds {
			for _, st := range k.states {
				if ep.states == nil || slices.Contains(ep.states, st) {
					out = append(out, tn.targets(k, st)...)
				}
			}
		}
		for _, k := range ep.strangers {
			out = append(out, tn.targets(k, k.states[0])[0])
		}
	}
	if ep.only != nil {
		out = slices.DeleteFunc(out, func(tg *target) bool { return !ep.only(tg) })
	}
	return out
}

// targets are tn's shared resource of kind k in state st, by each id it
// has.
func (tn *matrixTenant) targets(k *kind, st state) []*target {
	var out []*target
	for _, id := range []idKind{baseID, versionID, draftID} {
		if tn.shared[k][st].has(id) {
			out = append(out, &target{kind: k, tenant: tn, state: st, id: id})
		}
	}
	return out
}

// otherTenant is the tenant that is not tn; nil for no tenant.
func (m *matrix) otherTenant(tn *matrixTenant) *matrixTenant {
	for _, other := range m.tenants {
		if tn != nil && other != tn {
			return other
		}
	}
	return nil
}

// maxReported is how many failures of one row are described in full.
const maxReported = 20

// runRow sends a row's requests as every principal.
func (m *matrix) runRow(t *testing.T, ep *endpoint) {
	failures := 0
	fail := func(format string, args ...any) {
		t.Helper()
		failures++
		if failures <= maxReported {
			t.Errorf(format, args...)
		}
	}
	targets := m.targets(ep)
	for _, p := range m.principals {
		if ep.kinds == nil {
			m.runCase(t, &call{m: m, ep: ep, p: p}, fail)
			continue
		}
		// Without a valid key a request goes no further than the
		// middleware, which reads no id: one target shows it.
		for _, tg := range targets {
			m.runCase(t, &call{m: m, ep: ep, p: p, tg: tg}, fail)
			if !p.authenticated {
				break
			}
		}
	}
	if failures > maxReported {
		t.Errorf("%d more failures of this row are not shown", failures-maxReported)
	}
}

type failFunc func(format string, args ...any)

// runCase sends one call over REST and over GraphQL, each time to a fresh
// copy of the target when the request is to change it.
func (m *matrix) runCase(t *testing.T, c *call, fail failFunc) {
	ep := c.ep
	c.want = expect(c.p, ep, c.tg)
	if ep.rest != nil {
		m.aim(t, c)
		req := ep.rest(c)
		w := m.send(c.p.secret, req.method, req.path, req.body)
		m.restCalls++
		body := w.Body.String()
		m.responses = append(m.responses, matrixResponse{who: c.p, what: req.String(), sent: req.path + " " + req.body, body: body})
		problem := restProblem(w.Code, body, c.want)
		if ep.route == "GET /graphql" {
			problem = graphQLProblem(w.Code, body, c.want, false)
		}
		if problem == "" && c.want.code == service.CodeNotFound && c.tg != nil && c.hinted() {
			problem = mustContain(body, kindHint, "what kind of id it is")
		} else if problem == "" && c.want.code == service.CodeNotFound && c.tg != nil {
			problem = m.revealsExistence(t, c, body, false)
		}
		if problem == "" && !c.want.failed() && ep.check != nil {
			problem = ep.check(c, body)
		}
		if problem != "" {
			fail("%s as %s: want %d %s: %s\nresponse %d: %s", req, c, c.want.status, c.want, problem, w.Code, strings.TrimSpace(body))
		}
	}
	if ep.graphQL != "" {
		m.aim(t, c)
		what := "GraphQL " + rootField(ep.graphQL)
		vars := variablesJSON(t, c.variables(ep.graphQL))
		status, body := m.sendGraphQL(t, c.p.secret, ep.graphQL, vars)
		m.graphQLCalls++
		m.responses = append(m.responses, matrixResponse{who: c.p, what: what, sent: string(vars), body: body})
		problem := graphQLProblem(status, body, c.want, ep.nullIfNotFound)
		if problem == "" && c.want.code == service.CodeNotFound && c.tg != nil && c.hinted() {
			problem = mustContain(body, kindHint, "what kind of id it is")
		} else if problem == "" && c.want.code == service.CodeNotFound && c.tg != nil {
			problem = m.revealsExistence(t, c, body, true)
		}
		if problem == "" && !c.want.failed() && ep.check != nil {
			problem = ep.check(c, body)
		}
		if problem != "" {
			fail("%s as %s: want %s: %s\nresponse %d: %s", what, c, c.want, problem, status, strings.TrimSpace(body))
		}
	}
}

// rootField is the first field an operation selects, to name it.
func rootField(op string) string {
	_, sel, _ := strings.Cut(op, "{")
	name, _, _ := strings.Cut(strings.TrimSpace(sel), "(")
	return strings.Fields(name)[0]
}

// aim points the call at what it addresses: the shared resource of its
// target, or a fresh copy when the request is expected to change it; and,
// for rows that add to a group, the group.
func (m *matrix) aim(t *testing.T, c *call) {
	renew := c.ep.mutates && !c.want.failed()
	c.fresh = renew && !c.ep.addsToGroup
	if c.tg != nil {
		c.res = c.tg.tenant.shared[c.tg.kind][c.tg.state]
		if c.fresh {
			c.res = m.fresh(t, c.tg.tenant, c.tg.kind, c.tg.state)
		}
	}
	if c.ep.addsToGroup {
		switch {
		case c.p.tenant == nil:
			c.group = uuid.Must(uuid.NewV7())
		case renew:
			c.group = m.group(t, c.p.tenant, "fresh").base
		default:
			c.group = c.p.tenant.shared[groups][present].base
		}
	}
}

// fresh stores a new resource like tn's shared one of kind k in state st.
func (m *matrix) fresh(t *testing.T, tn *matrixTenant, k *kind, st state) resource {
	t.Helper()
	switch k {
	case groups:
		return m.group(t, tn, "fresh")
	case groupMembers:
		return m.groupMember(t, tn, "fresh")
	case members:
		return m.member(t, tn)
	case keys:
		return m.key(t, tn)
	}
	return m.build(t, tn, k, st, "fresh", uuid.Nil)
}

// revealsExistence compares a not_found answer with the answer to the same
// request for ids that exist nowhere: docs/endpoints.md promises that they cannot be
// told apart. The resource's ids are replaced by a placeholder before
// comparing.
func (m *matrix) revealsExistence(t *testing.T, c *call, body string, graphQL bool) string {
	seen := body
	for _, id := range c.res.ids() {
		seen = strings.ReplaceAll(seen, id.String(), "{id}")
	}
	if absent := m.answerForNowhere(t, c, graphQL); seen != absent {
		return fmt.Sprintf("the answer differs from the one for an id that exists nowhere (%s), so it reveals that the resource exists", strings.TrimSpace(absent))
	}
	return ""
}

// nowhereKey names the answer to one row's request, by one principal, on
// a kind of resource, for ids that exist nowhere.
type nowhereKey struct {
	ep      *endpoint
	p       *principal
	kind    *kind
	graphQL bool
}

// answerForNowhere is the answer to c's request with the resource's ids
// replaced by one that exists nowhere, and then by the placeholder. It
// depends on the row, the principal and the kind of resource only, so it
// is asked once.
func (m *matrix) answerForNowhere(t *testing.T, c *call, graphQL bool) string {
	key := nowhereKey{c.ep, c.p, c.tg.kind, graphQL}
	if answer, ok := m.nowhere[key]; ok {
		return answer
	}
	id := uuid.Must(uuid.NewV7())
	ghost := *c
	ghost.res = resource{base: id, version: id, draft: id}
	// Only ids of the resource itself are replaced: a base added to the
	// caller's own group stays addressed to that group.
	if c.res.group != uuid.Nil {
		ghost.res.group = id
	}
	var answer string
	if graphQL {
		_, answer = m.sendGraphQL(t, c.p.secret, c.ep.graphQL, variablesJSON(t, ghost.variables(c.ep.graphQL)))
		m.graphQLCalls++
	} else {
		req := c.ep.rest(&ghost)
		answer = m.send(c.p.secret, req.method, req.path, req.body).Body.String()
		m.restCalls++
	}
	answer = strings.ReplaceAll(answer, id.String(), "{id}")
	m.nowhere[key] = answer
	return answer
}

// restProblem describes how a REST response differs from the expected
// outcome; empty when it does not.
func restProblem(status int, body string, want outcome) string {
	if status != want.status {
		return fmt.Sprintf("got status %d", status)
	}
	if !want.failed() {
		if status == http.StatusNoContent && body != "" {
			return "a 204 with a body"
		}
		return ""
	}
	var e struct {
		Error *errorDetail `json:"error"`
	}
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil || e.Error == nil {
		return fmt.Sprintf("the body is not {\"error\": {\"code\", \"message\"}} (%v)", err)
	}
	if e.Error.Code != want.code {
		return fmt.Sprintf("got code %s", e.Error.Code)
	}
	if e.Error.Message == "" {
		return "an error without a message"
	}
	return ""
}

// graphQLProblem describes how a GraphQL response differs from the
// expected outcome. A request without a valid key never reaches GraphQL:
// the router refuses it with the REST status, in GraphQL's error shape.
// The rest answer 200, with the data, or with no data and one error whose
// extensions.code is the REST code; but a nullable field answers not_found
// with null, without an error, when nullIfNotFound.
func graphQLProblem(status int, body string, want outcome, nullIfNotFound bool) string {
	wantStatus := http.StatusOK
	if want.code == service.CodeUnauthenticated {
		wantStatus = want.status
	}
	if status != wantStatus {
		return fmt.Sprintf("got status %d", status)
	}
	var res struct {
		Data   map[string]json.RawMessage `json:"data"`
		Errors []struct {
			Message    string         `json:"message"`
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.Unmarshal([]byte(body), &res); err != nil {
		return fmt.Sprintf("the body is not a GraphQL response: %v", err)
	}
	hasData := slices.ContainsFunc(slices.Collect(maps.Values(res.Data)), func(v json.RawMessage) bool { return string(v) != "null" })
	switch {
	case nullIfNotFound && want.code == service.CodeNotFound:
		if len(res.Errors) > 0 || hasData {
			return "want null and no error"
		}
	case !want.failed():
		if len(res.Errors) > 0 || !hasData {
			return "want data and no error"
		}
	case len(res.Errors) != 1:
		return fmt.Sprintf("got %d errors, want 1", len(res.Errors))
	case res.Errors[0].Extensions["code"] != string(want.code):
		return fmt.Sprintf("got code %v", res.Errors[0].Extensions["code"])
	case hasData:
		return "got data with the error"
	}
	return ""
}

func variablesJSON(t *testing.T, vars map[string]any) json.RawMessage {
	t.Helper()
	raw, err := json.Marshal(vars)
	if err != nil {
		t.Fatalf("encoding GraphQL variables %v: %v", vars, err)
	}
	return raw
}

// sendGraphQL posts an operation to the GraphQL route.
func (m *matrix) sendGraphQL(t *testing.T, secret, op string, vars json.RawMessage) (int, string) {
	t.Helper()
	body, err := json.Marshal(struct {
		Query     string          `json:"query"`
		Variables json.RawMessage `json:"variables"`
	}{op, vars})
	if err != nil {
		t.Fatalf("encoding the GraphQL request %s: %v", op, err)
	}
	w := m.send(secret, http.MethodPost, "/graphql", string(body))
	return w.Code, w.Body.String()
}

// handleCall finds a route registration: s.handle("METHOD /path", ...).
var handleCall = regexp.MustCompile(`s\.handle\("([A-Z]+ /[^"]*)"`)

// registeredRoutes reads the routes the package registers from its source,
// so that a new route without a row fails the matrix.
func registeredRoutes(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var routes []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, match := range handleCall.FindAllSubmatch(src, -1) {
			routes = append(routes, string(match[1]))
		}
	}
	if len(routes) == 0 {
		t.Fatal("found no route registrations (s.handle(\"METHOD /path\", ...)) in package rest")
	}
	return routes
}
