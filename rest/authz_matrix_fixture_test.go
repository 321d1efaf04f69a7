package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/graph"
	"github.com/verdict/verdict/service"
)

// The authorization matrix's world: two tenants, each with a person of
// every role holding keys of several scopes, organization keys of every
// scope, a policy and a flow in every lifecycle state, and groups. People
// and keys are made through the operator, everything else through the REST
// API itself.

// matrixTenantNames name the two tenants. Each name is also a marker put
// into everything the tenant stores (emails, names, rule texts), so that
// finding it in another tenant's response is finding a leak; neither is a
// word an error message would use.
var matrixTenantNames = []string{"Asterix", "Obelix"}

// state names one of a tenant's shared resources of a kind: a lifecycle
// state for policies and flows, a role in the fixture for the others.
type state int

const (
	// neverPublished is a base with only a draft, owned by the tenant's
	// editor: the actor's own draft when the editor acts, another user's
	// for everyone else.
	neverPublished state = iota
	versioned
	versionedWithDraft
	// deleted had a version and a draft when it was deleted.
	deleted
	// present is a group, group member, member or key that exists.
	present
	// removed is a group that was deleted, so exists nowhere.
	removed
	// onlyAdmin is the member who is the tenant's only admin.
	onlyAdmin
)

var lifecycle = []state{neverPublished, versioned, versionedWithDraft, deleted}

func (s state) String() string {
	return [...]string{"never-published", "versioned", "versioned-with-draft", "deleted", "", "removed", "only-admin"}[s]
}

// idKind is which of a resource's ids a request names.
type idKind int

const (
	baseID idKind = iota
	versionID
	draftID
)

func (k idKind) String() string { return [...]string{"id", "version id", "draft id"}[k] }

// resource is one stored thing. For a policy or flow: its base and, where
// it has them, its version 1 and its draft; for anything else, its id in
// base. A group member also names its group.
type resource struct {
	base, version, draft uuid.UUID
	group                uuid.UUID
}

func (r resource) id(k idKind) uuid.UUID {
	return [...]uuid.UUID{r.base, r.version, r.draft}[k]
}

// has says whether the resource has an id of that kind.
func (r resource) has(k idKind) bool { return r.id(k) != uuid.Nil }

// ids are every id of the resource.
func (r resource) ids() []uuid.UUID {
	var out []uuid.UUID
	for _, id := range []uuid.UUID{r.base, r.version, r.draft, r.group} {
		if id != uuid.Nil {
			out = append(out, id)
		}
	}
	return out
}

// matrixTenant is one organization of the matrix.
type matrixTenant struct {
	name   string
	domain string
	org    uuid.UUID
	// editor creates every policy, flow and group, so owns every
	// never-published base.
	editor              uuid.UUID
	editorKey, adminKey string
	// shared holds the resources that refused requests and reads address;
	// a request expected to change one gets a fresh copy.
	shared  map[*kind]map[state]resource
	secrets []string
}

func (tn *matrixTenant) marker() string { return strings.ToLower(tn.name) }

// principal is one caller of the matrix.
type principal struct {
	name   string
	tenant *matrixTenant // the key's tenant; nil without a key
	secret string        // empty: the request carries no key
	key    uuid.UUID
	// authenticated is false for no key and for a revoked key.
	authenticated bool
	orgKey        bool
	role          authz.Role // the user's role; empty for an organization key
	scope         authz.Scope
	user          uuid.UUID // uuid.Nil for an organization key
}

// people are the users of each tenant: a user of every role, with a key of
// admin scope (the role alone limits them) and keys of lower scopes to
// exercise the scope ceiling.
var people = []struct {
	role   authz.Role
	scopes []authz.Scope
}{
	{authz.RoleViewer, []authz.Scope{authz.ScopeAdmin}},
	{authz.RoleEditor, []authz.Scope{authz.ScopeAdmin, authz.ScopeView}},
	{authz.RolePublisher, []authz.Scope{authz.ScopeAdmin, authz.ScopeEdit}},
	{authz.RoleAdmin, []authz.Scope{authz.ScopeAdmin, authz.ScopePublish, authz.ScopeEdit, authz.ScopeView}},
	{authz.RoleAuditor, []authz.Scope{authz.ScopeAdmin, authz.ScopeView}},
}

var allScopes = []authz.Scope{authz.ScopeView, authz.ScopeEdit, authz.ScopePublish, authz.ScopeAdmin}

// matrixResponse is one response of the matrix, kept for the leak check.
type matrixResponse struct {
	who  *principal
	what string
	// sent is what the request said (its path, body or variables).
	sent string
	body string
}

// matrix is the world and the server the requests go to.
type matrix struct {
	db         *database.DB
	srv        *server
	tenants    []*matrixTenant
	principals []*principal
	responses  []matrixResponse
	// nowhere holds the answers for ids that exist nowhere.
	nowhere map[nowhereKey]string
	// made numbers what fresh resources need unique: emails.
	made int
	// restCalls and graphQLCalls count the matrix's requests; the requests
	// that build resources are not counted.
	restCalls, graphQLCalls int
}

func newMatrix(t *testing.T, db *database.DB) *matrix {
	t.Helper()
	az, err := embedded()
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	svc, err := service.New(service.Config{DB: db, Authorizer: az, Registerer: reg})
	if err != nil {
		t.Fatal(err)
	}
	// Runs store their audit events after answering; they must be stored
	// before the database goes.
	t.Cleanup(svc.Close)
	m := &matrix{db: db, nowhere: map[nowhereKey]string{}, srv: newServer(svc, Config{
		Registerer:       reg,
		RateLimit:        -1,
		OrgRateLimit:     -1,
		AuthFailureLimit: -1,
		GraphQL:          graph.NewHandler(svc, graph.Config{}),
		Playground:       graph.Playground("/graphql"),
	})}
	ctx := context.Background()
	op := svc.Operator()
	for _, name := range matrixTenantNames {
		m.tenants = append(m.tenants, m.addTenant(ctx, t, op, name))
	}
	m.principals = append(m.principals,
		&principal{name: "a caller without a key"},
		m.revokedKey(ctx, t, op, m.tenants[0]))
	for _, tn := range m.tenants {
		m.addResources(ctx, t, op, tn)
	}
	return m
}

// addTenant creates an organization, its people and its keys.
func (m *matrix) addTenant(ctx context.Context, t *testing.T, op *service.Operator, name string) *matrixTenant {
	t.Helper()
	domain := strings.ToLower(name) + ".test"
	boot, err := op.Bootstrap(ctx, service.BootstrapInput{Organization: name, Email: "admin@" + domain, Name: name + " admin"})
	if err != nil {
		t.Fatal(err)
	}
	tn := &matrixTenant{name: name, domain: domain, org: boot.Organization.ID, adminKey: boot.Secret,
		secrets: []string{boot.Secret}, shared: map[*kind]map[state]resource{}}
	for _, k := range allKinds {
		tn.shared[k] = map[state]resource{}
	}
	for _, who := range people {
		email := string(who.role) + "@" + domain
		userID := boot.User.ID
		if who.role != authz.RoleAdmin {
			u, err := op.CreateUser(ctx, email, name+" "+string(who.role))
			if err != nil {
				t.Fatal(err)
			}
			if err := op.AddMember(ctx, tn.org, email, who.role); err != nil {
				t.Fatal(err)
			}
			userID = u.ID
		}
		switch who.role {
		case authz.RoleViewer:
			tn.shared[members][present] = resource{base: userID}
		case authz.RoleAdmin:
			tn.shared[members][onlyAdmin] = resource{base: userID}
		}
		for _, scope := range who.scopes {
			secret, keyID := boot.Secret, boot.Key.ID
			if who.role != authz.RoleAdmin || scope != authz.ScopeAdmin {
				k, err := op.CreateKey(ctx, service.KeyInput{Organization: tn.org, UserEmail: email, Name: string(who.role) + " " + string(scope), Scope: scope})
				if err != nil {
					t.Fatal(err)
				}
				secret, keyID = k.Secret, k.ID
				tn.secrets = append(tn.secrets, secret)
			}
			if who.role == authz.RoleEditor && scope == authz.ScopeAdmin {
				tn.editor, tn.editorKey = userID, secret
			}
			m.principals = append(m.principals, &principal{
				name:   fmt.Sprintf("%s %s (%s key)", name, who.role, scope),
				tenant: tn, secret: secret, key: keyID, authenticated: true, role: who.role, scope: scope, user: userID,
			})
		}
	}
	for _, scope := range allScopes {
		k, err := op.CreateKey(ctx, service.KeyInput{Organization: tn.org, Name: "organization " + string(scope), Scope: scope})
		if err != nil {
			t.Fatal(err)
		}
		tn.secrets = append(tn.secrets, k.Secret)
		m.principals = append(m.principals, &principal{
			name:   fmt.Sprintf("%s organization key (%s)", name, scope),
			tenant: tn, secret: k.Secret, key: k.ID, authenticated: true, orgKey: true, scope: scope,
		})
	}
	return tn
}

// revokedKey is an admin-scoped organization key of tn that was revoked.
func (m *matrix) revokedKey(ctx context.Context, t *testing.T, op *service.Operator, tn *matrixTenant) *principal {
	t.Helper()
	k, err := op.CreateKey(ctx, service.KeyInput{Organization: tn.org, Name: "revoked", Scope: authz.ScopeAdmin})
	if err != nil {
		t.Fatal(err)
	}
	if err := op.RevokeKey(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	tn.secrets = append(tn.secrets, k.Secret)
	return &principal{name: tn.name + " revoked key", tenant: tn, secret: k.Secret, key: k.ID, orgKey: true, scope: authz.ScopeAdmin}
}

// addResources stores tn's shared resources: a spare key; a group holding
// a policy and a flow of every state (each added before it was deleted),
// a group holding one member, and a removed group.
func (m *matrix) addResources(ctx context.Context, t *testing.T, op *service.Operator, tn *matrixTenant) {
	t.Helper()
	k, err := op.CreateKey(ctx, service.KeyInput{Organization: tn.org, Name: "spare", Scope: authz.ScopeView})
	if err != nil {
		t.Fatal(err)
	}
	tn.secrets = append(tn.secrets, k.Secret)
	tn.shared[keys][present] = resource{base: k.ID}

	group := m.group(t, tn, "shared")
	tn.shared[groups][present] = group
	// Flows refer to the versioned policy, so policies come first.
	for _, k := range versionedKinds {
		for _, st := range lifecycle {
			tn.shared[k][st] = m.build(t, tn, k, st, "shared", group.base)
		}
	}
	tn.shared[groupMembers][present] = m.groupMember(t, tn, "shared")
	tn.shared[decisions][present] = m.decision(t, tn)
	gone := m.group(t, tn, "removed")
	m.setup(t, tn.editorKey, http.MethodDelete, "/group/"+gone.base.String(), "", http.StatusNoContent, nil)
	tn.shared[groups][removed] = gone
}

// build stores a policy or flow of tn in state st, created by tn's editor
// and published, redrafted and deleted by tn's admin, and put into group
// (unless uuid.Nil) before anything else. Its name carries label, which
// listings filter on.
func (m *matrix) build(t *testing.T, tn *matrixTenant, k *kind, st state, label string, group uuid.UUID) resource {
	t.Helper()
	var created struct {
		ID     uuid.UUID `json:"id"`
		BaseID uuid.UUID `json:"baseId"`
	}
	name := fmt.Sprintf("%s %s %s %s", tn.name, label, st, k.name)
	m.setup(t, tn.editorKey, http.MethodPost, "/"+k.name, k.body(tn, name), http.StatusCreated, &created)
	r := resource{base: created.BaseID, draft: created.ID}
	if group != uuid.Nil {
		m.setup(t, tn.editorKey, http.MethodPost, "/group/"+group.String()+"/member",
			fmt.Sprintf(`{"kind": %q, "baseId": %q}`, k.name, r.base), http.StatusCreated, nil)
	}
	if st == neverPublished {
		return r
	}
	m.setup(t, tn.adminKey, http.MethodPut, "/"+k.name+"/"+r.draft.String(), `{"status": "published"}`, http.StatusCreated, nil)
	r.version, r.draft = r.draft, uuid.Nil
	if st == versioned {
		return r
	}
	var draft struct {
		ID uuid.UUID `json:"id"`
	}
	m.setup(t, tn.adminKey, http.MethodGet, "/"+k.name+"/"+r.base.String()+"/draft", "", http.StatusCreated, &draft)
	r.draft = draft.ID
	if st == versionedWithDraft {
		return r
	}
	m.setup(t, tn.adminKey, http.MethodDelete, "/"+k.name+"/"+r.base.String(), "", http.StatusNoContent, nil)
	return r
}

// decision turns the recording of tn's versioned policy on, runs it as tn's
// admin and returns the decision recorded, once it is stored.
func (m *matrix) decision(t *testing.T, tn *matrixTenant) resource {
	t.Helper()
	base := tn.shared[policies][versioned].base.String()
	m.setup(t, tn.editorKey, http.MethodPut, "/policy/"+base+"/decision-records", `{"enabled": true}`, http.StatusOK, nil)
	m.setup(t, tn.adminKey, http.MethodPost, "/run/policy/"+base, policies.runBody, http.StatusOK, nil)
	deadline := time.Now().Add(30 * time.Second)
	for {
		var page struct {
			Items []struct {
				ID uuid.UUID `json:"id"`
			} `json:"items"`
		}
		m.setup(t, tn.adminKey, http.MethodGet, "/decisions?baseId="+base, "", http.StatusOK, &page)
		if len(page.Items) == 1 {
			return resource{base: page.Items[0].ID}
		}
		if time.Now().After(deadline) {
			t.Fatalf("setting up: the decision of %s's run was not stored", tn.name)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// group stores a group of tn, created by its editor.
func (m *matrix) group(t *testing.T, tn *matrixTenant, label string) resource {
	t.Helper()
	var g struct {
		ID uuid.UUID `json:"id"`
	}
	m.setup(t, tn.editorKey, http.MethodPost, "/group", fmt.Sprintf(`{"name": "%s %s group"}`, tn.name, label), http.StatusCreated, &g)
	return resource{base: g.ID}
}

// groupMember stores a group of tn holding tn's versioned policy, and
// returns the membership.
func (m *matrix) groupMember(t *testing.T, tn *matrixTenant, label string) resource {
	t.Helper()
	g := m.group(t, tn, label+" one-member")
	var member struct {
		ID uuid.UUID `json:"id"`
	}
	m.setup(t, tn.editorKey, http.MethodPost, "/group/"+g.base.String()+"/member",
		fmt.Sprintf(`{"kind": "policy", "baseId": %q}`, tn.shared[policies][versioned].base), http.StatusCreated, &member)
	return resource{base: member.ID, group: g.base}
}

// member adds a new editor to tn, through its admin.
func (m *matrix) member(t *testing.T, tn *matrixTenant) resource {
	t.Helper()
	m.made++
	var added struct {
		User struct {
			ID uuid.UUID `json:"id"`
		} `json:"user"`
	}
	m.setup(t, tn.adminKey, http.MethodPost, "/admin/members",
		fmt.Sprintf(`{"email": "fresh-%d@%s", "role": "editor"}`, m.made, tn.domain), http.StatusCreated, &added)
	return resource{base: added.User.ID}
}

// key creates an organization key of tn, through its admin.
func (m *matrix) key(t *testing.T, tn *matrixTenant) resource {
	t.Helper()
	var created struct {
		ID uuid.UUID `json:"id"`
	}
	m.setup(t, tn.adminKey, http.MethodPost, "/admin/keys", `{"name": "fresh", "scope": "view"}`, http.StatusCreated, &created)
	return resource{base: created.ID}
}

// setup sends a request that builds the world and must succeed; out, when
// not nil, receives the decoded response.
func (m *matrix) setup(t *testing.T, secret, method, path, body string, status int, out any) {
	t.Helper()
	w := m.send(secret, method, path, body)
	if w.Code != status {
		t.Fatalf("setting up: %s %s answered %d, want %d; body %s", method, path, w.Code, status, w.Body)
	}
	if out != nil {
		if err := json.Unmarshal(w.Body.Bytes(), out); err != nil {
			t.Fatalf("setting up: %s %s: decoding %s: %v", method, path, w.Body, err)
		}
	}
}

// send makes one request with the key secret (none when empty).
func (m *matrix) send(secret, method, path, body string) *httptest.ResponseRecorder {
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, r)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if secret != "" {
		req.Header.Set("x-api-key", secret)
	}
	w := httptest.NewRecorder()
	m.srv.ServeHTTP(w, req)
	return w
}
