package rest

import (
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/verdict/verdict/internal/bodies"
	"github.com/verdict/verdict/service"
)

// Defaults for the zero values of Config.
const (
	// DefaultBodyLimit is the default limit on a request body (1 MiB).
	DefaultBodyLimit = 1 << 20
	// DefaultRateLimit and DefaultRateBurst let one key sustain 50 requests a
	// second, in bursts of up to 1,000: well above what an interactive client
	// or a modest batch job needs, low enough that a runaway loop on one key
	// cannot take the service from everyone else. The burst is the largest
	// batch run one key can make, so it matches the default batch limit.
	DefaultRateLimit = 50
	DefaultRateBurst = 1000
	// DefaultOrgRateLimit and DefaultOrgRateBurst are what all the keys of
	// one organization may take together: four keys at full rate, two full
	// batches at once, so that one tenant minting keys cannot take the
	// service from the others.
	DefaultOrgRateLimit = 200
	DefaultOrgRateBurst = 2000
	// DefaultAuthFailureLimit and DefaultAuthFailureBurst are the failed
	// authentications one client address may make: enough for a client
	// whose key was just revoked to notice, far too few to guess keys.
	DefaultAuthFailureLimit = 1
	DefaultAuthFailureBurst = 30
	// DefaultBodyWait is how long a request body waits for room in what
	// the bodies of all requests under way may hold before the request is
	// refused with 503: long enough for a burst of large bodies to be
	// read in turn, short of the minute a body may take to arrive.
	DefaultBodyWait = 5 * time.Second
)

// bodiesInFlightPerLimit is how many bodies as large as the body limit
// the requests under way may hold together when Config leaves
// BodiesInFlight unset: 64 MiB at the default limit, which with what is
// decoded from them keeps bodies to a few hundred megabytes however many
// arrive at once (docs/endpoints.md, "Request bodies").
const bodiesInFlightPerLimit = 64

// Config is what the HTTP surface is built from. The zero value is usable.
type Config struct {
	// Logger receives the access log and the causes of internal errors; nil
	// discards them. They are logged with the request's context, which
	// holds the request's id: a handler wrapped by requestid.NewHandler
	// writes it on each line.
	Logger *slog.Logger
	// Registerer receives the HTTP metrics; nil leaves them unregistered.
	// Metrics that are registered already (a second handler on the same
	// registry) are shared rather than refused.
	Registerer prometheus.Registerer
	// Gatherer is what GET /metrics serves. Nil takes the Registerer when it
	// is a Gatherer too (a *prometheus.Registry); without either, /metrics
	// is not mounted.
	Gatherer prometheus.Gatherer
	// BodyLimit caps a request body in bytes; 0 is DefaultBodyLimit.
	BodyLimit int64
	// BodiesInFlight bounds the bytes the bodies of all requests under way
	// may hold together, REST's and GraphQL's: a body is charged its
	// declared length (BodyLimit when it declares none) before it is read,
	// until its request ends. 0 is 64 times BodyLimit, and less than
	// BodyLimit is BodyLimit.
	BodiesInFlight int64
	// BodyWait is how long a body waits for room in BodiesInFlight before
	// its request is refused with 503 unavailable and Retry-After; 0 is
	// DefaultBodyWait.
	BodyWait time.Duration
	// RateLimit is the requests and runs per second each API key may
	// sustain, and RateBurst how many it may make at once; a request costs
	// one, and every run it makes after its first one more (a GraphQL
	// document with many run fields). 0 selects DefaultRateLimit and
	// DefaultRateBurst, a negative RateLimit turns the limit off.
	RateLimit float64
	RateBurst int
	// OrgRateLimit and OrgRateBurst are the same budget for all the keys
	// of one organization together; 0 selects DefaultOrgRateLimit and
	// DefaultOrgRateBurst, a negative OrgRateLimit turns the limit off.
	OrgRateLimit float64
	OrgRateBurst int
	// AuthFailureLimit is how many failed authentications (unknown,
	// revoked or expired keys) a second one client address may sustain,
	// and AuthFailureBurst how many it may make at once; past them, its
	// requests are refused with rate_limited until its budget refills.
	// 0 selects the defaults, a negative AuthFailureLimit turns it off.
	AuthFailureLimit float64
	AuthFailureBurst int
	// GraphQL is mounted at POST and GET /graphql behind authentication; nil
	// mounts nothing.
	GraphQL http.Handler
	// Playground is mounted at GET /playground and GET /playground/{asset}
	// (the files its page loads) without authentication; nil mounts
	// nothing.
	Playground http.Handler
	// Console serves ConsolePrefix (as in "/console/"), what is below it
	// and the prefix without its slash, for every method and without
	// authentication; a browser's GET / (one that accepts text/html) is
	// sent there. Its requests are logged and counted as the API's are,
	// under the route ConsolePrefix. nil mounts nothing.
	Console       http.Handler
	ConsolePrefix string
}

// New returns the HTTP handler of the API, serving svc.
func New(svc *service.Service, cfg Config) http.Handler {
	return newServer(svc, cfg)
}

// access says whether a route needs an API key.
type access int

const (
	public access = iota
	authenticated
)

// fallbackPattern catches every request no route matches, so that 404 and
// 405 answer in the API's JSON error shape.
const fallbackPattern = "/"

type server struct {
	svc     *service.Service
	log     *slog.Logger
	mux     *http.ServeMux
	metrics *httpMetrics
	budgets *budgets // nil: runs and requests are not limited
	// authFailures counts failed authentications per client address; nil
	// counts none.
	authFailures *limiter[string]
	bodyLimit    int64
	// bodies holds what the bodies of the requests under way hold.
	bodies *bodies.Bound
	// noncanonical answers paths that are not in canonical form, badQuery
	// query strings that do not decode.
	noncanonical http.Handler
	badQuery     http.Handler
	// console serves Config.Console at consoleRoot and below consolePrefix
	// (consoleRoot and a slash), toConsole sends a browser there from the
	// root; both nil without a console.
	console, toConsole         http.Handler
	consolePrefix, consoleRoot string
	// patterns lists the routes in the order they were mounted, so the
	// OpenAPI document can be checked against what is really served.
	patterns []string
	// graphQL holds the GraphQL routes' patterns: their errors take
	// GraphQL's shape (see writeError).
	graphQL map[string]bool
	// refusals holds the patterns that only answer 405 (see refuseMethods).
	refusals map[string]bool
}

func newServer(svc *service.Service, cfg Config) *server {
	s := &server{
		svc:       svc,
		log:       cfg.Logger,
		mux:       http.NewServeMux(),
		metrics:   newHTTPMetrics(cfg.Registerer),
		bodyLimit: cfg.BodyLimit,
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.bodyLimit <= 0 {
		s.bodyLimit = DefaultBodyLimit
	}
	inFlight := cfg.BodiesInFlight
	if inFlight <= 0 {
		inFlight = bodiesInFlightPerLimit * s.bodyLimit
	}
	wait := cfg.BodyWait
	if wait <= 0 {
		wait = DefaultBodyWait
	}
	s.bodies = bodies.New(max(inFlight, s.bodyLimit), wait)
	perKey := limiterOf[uuid.UUID](cfg.RateLimit, cfg.RateBurst, DefaultRateLimit, DefaultRateBurst)
	perOrg := limiterOf[uuid.UUID](cfg.OrgRateLimit, cfg.OrgRateBurst, DefaultOrgRateLimit, DefaultOrgRateBurst)
	if perKey != nil || perOrg != nil {
		s.budgets = &budgets{perKey: perKey, perOrg: perOrg}
	}
	s.authFailures = limiterOf[string](cfg.AuthFailureLimit, cfg.AuthFailureBurst, DefaultAuthFailureLimit, DefaultAuthFailureBurst)

	s.handle("GET /healthz", public, http.HandlerFunc(s.healthz))
	s.handle("GET /readyz", public, http.HandlerFunc(s.readyz))
	if g := gathererOf(cfg); g != nil {
		s.handle("GET /metrics", public, promhttp.HandlerFor(g, promhttp.HandlerOpts{
			ErrorLog:      slog.NewLogLogger(s.log.Handler(), slog.LevelError),
			ErrorHandling: promhttp.ContinueOnError,
		}))
	}
	s.handle("GET /openapi.json", public, http.HandlerFunc(s.openAPI))
	s.handle("POST /run", authenticated, http.HandlerFunc(s.run))
	s.handle("POST /check", authenticated, http.HandlerFunc(s.check))
	s.handle("POST /run/policy/{baseId}", authenticated, http.HandlerFunc(s.runPolicy))
	s.handle("POST /run/policy_version/{policyId}", authenticated, http.HandlerFunc(s.runPolicyVersion))
	s.handle("POST /run/policy/{baseId}/batch", authenticated, http.HandlerFunc(s.runPolicyBatch))
	s.handle("POST /run/policy_version/{policyId}/batch", authenticated, http.HandlerFunc(s.runPolicyVersionBatch))
	policies := s.policyLifecycle()
	s.handle("POST /policy", authenticated, http.HandlerFunc(policies.handleCreate))
	s.handle("GET /policy/{policyId}", authenticated, http.HandlerFunc(policies.handleGet))
	s.handle("PUT /policy/{policyId}", authenticated, http.HandlerFunc(policies.handleUpdate))
	s.handle("DELETE /policy/{policyId}", authenticated, http.HandlerFunc(policies.handleDelete))
	s.handle("GET /policy/{policyId}/versions", authenticated, http.HandlerFunc(policies.handleVersions))
	s.handle("GET /policy/{policyId}/draft", authenticated, http.HandlerFunc(policies.handleDraft))
	s.refuseMethods("/policy/{policyId}/draft", http.MethodHead)
	s.handle("GET /policy/{policyId}/diff/{otherId}", authenticated, diffHandler(s, "policyId", s.svc.PolicyDiff))
	s.handle("POST /policy/{policyId}/rollback", authenticated, http.HandlerFunc(policies.handleRollback))
	s.handle("GET /policies", authenticated, http.HandlerFunc(policies.handleList))
	s.handle("POST /policy/{policyId}/test", authenticated, http.HandlerFunc(s.testPolicy))
	s.handle("GET /policy/{policyId}/decision-records", authenticated, readByID(s, "policyId", s.svc.PolicyDecisionSettings))
	s.handle("PUT /policy/{policyId}/decision-records", authenticated, s.setDecisionSettings("policyId", s.svc.SetPolicyDecisionSettings))
	s.handle("POST /policy/{policyId}/replay", authenticated, s.replay("policyId", s.svc.ReplayPolicy))
	s.handle("POST /run/flow/{baseId}", authenticated, http.HandlerFunc(s.runFlow))
	s.handle("POST /run/flow_version/{flowId}", authenticated, http.HandlerFunc(s.runFlowVersion))
	s.handle("POST /run/flow/{baseId}/batch", authenticated, http.HandlerFunc(s.runFlowBatch))
	s.handle("POST /run/flow_version/{flowId}/batch", authenticated, http.HandlerFunc(s.runFlowVersionBatch))
	s.handle("POST /flow/test", authenticated, http.HandlerFunc(s.testFlow))
	s.refuseMethods("/flow/test", http.MethodGet, http.MethodPut, http.MethodDelete)
	flows := s.flowLifecycle()
	s.handle("POST /flow", authenticated, http.HandlerFunc(flows.handleCreate))
	s.handle("GET /flow/{flowId}", authenticated, http.HandlerFunc(flows.handleGet))
	s.handle("PUT /flow/{flowId}", authenticated, http.HandlerFunc(flows.handleUpdate))
	s.handle("DELETE /flow/{flowId}", authenticated, http.HandlerFunc(flows.handleDelete))
	s.handle("GET /flow/{flowId}/versions", authenticated, http.HandlerFunc(flows.handleVersions))
	s.handle("GET /flow/{flowId}/draft", authenticated, http.HandlerFunc(flows.handleDraft))
	s.refuseMethods("/flow/{flowId}/draft", http.MethodHead)
	s.handle("GET /flow/{flowId}/validation", authenticated, readByID(s, "flowId", s.svc.FlowValidation))
	s.handle("GET /flow/{flowId}/diff/{otherId}", authenticated, diffHandler(s, "flowId", s.svc.FlowDiff))
	s.handle("POST /flow/{flowId}/rollback", authenticated, http.HandlerFunc(flows.handleRollback))
	s.handle("GET /flows", authenticated, http.HandlerFunc(flows.handleList))
	s.handle("POST /flow/{flowId}/test", authenticated, http.HandlerFunc(s.testFlowRecord))
	s.handle("GET /flow/{flowId}/decision-records", authenticated, readByID(s, "flowId", s.svc.FlowDecisionSettings))
	s.handle("PUT /flow/{flowId}/decision-records", authenticated, s.setDecisionSettings("flowId", s.svc.SetFlowDecisionSettings))
	s.handle("POST /flow/{flowId}/replay", authenticated, s.replay("flowId", s.svc.ReplayFlow))
	s.handle("POST /group", authenticated, http.HandlerFunc(s.createGroup))
	s.handle("GET /group/{groupId}", authenticated, readByID(s, "groupId", s.svc.Group))
	s.handle("PUT /group/{groupId}", authenticated, http.HandlerFunc(s.updateGroup))
	s.handle("DELETE /group/{groupId}", authenticated, http.HandlerFunc(s.deleteGroup))
	s.handle("GET /groups", authenticated, http.HandlerFunc(s.groups))
	s.handle("POST /group/{groupId}/member", authenticated, http.HandlerFunc(s.addGroupMember))
	s.handle("DELETE /group/{groupId}/member/{memberId}", authenticated, http.HandlerFunc(s.removeGroupMember))
	s.handle("GET /group/{groupId}/policies", authenticated, http.HandlerFunc(s.groupPolicies))
	s.handle("GET /group/{groupId}/flows", authenticated, http.HandlerFunc(s.groupFlows))
	s.handle("GET /audit", authenticated, http.HandlerFunc(s.auditLog))
	s.handle("GET /decisions", authenticated, http.HandlerFunc(s.decisions))
	s.handle("GET /decision/{decisionId}", authenticated, readByID(s, "decisionId", s.svc.Decision))
	s.handle("GET /admin/members", authenticated, http.HandlerFunc(s.members))
	s.handle("POST /admin/members", authenticated, http.HandlerFunc(s.addMember))
	s.handle("PUT /admin/members/{userId}", authenticated, http.HandlerFunc(s.setMemberRole))
	s.handle("DELETE /admin/members/{userId}", authenticated, http.HandlerFunc(s.removeMember))
	s.handle("GET /admin/keys", authenticated, http.HandlerFunc(s.keys))
	s.handle("POST /admin/keys", authenticated, http.HandlerFunc(s.createKey))
	s.handle("DELETE /admin/keys/{keyId}", authenticated, http.HandlerFunc(s.revokeKey))
	if cfg.GraphQL != nil {
		s.handle("POST /graphql", authenticated, cfg.GraphQL)
		s.handle("GET /graphql", authenticated, cfg.GraphQL)
		s.graphQL = map[string]bool{"POST /graphql": true, "GET /graphql": true}
	}
	if cfg.Playground != nil {
		s.handle("GET /playground", public, cfg.Playground)
		s.handle("GET /playground/{asset}", public, cfg.Playground)
	}
	if cfg.Console != nil {
		s.consolePrefix = cfg.ConsolePrefix
		s.consoleRoot = strings.TrimSuffix(cfg.ConsolePrefix, "/")
		s.console = s.chain(public, cfg.Console)
		s.toConsole = s.chain(public, http.RedirectHandler(cfg.ConsolePrefix, http.StatusFound))
	}
	s.handle(fallbackPattern, public, http.HandlerFunc(s.unmatched))
	s.noncanonical = s.chain(public, http.HandlerFunc(s.notFound))
	s.badQuery = s.chain(public, http.HandlerFunc(s.undecodableQuery))
	return s
}

// limiterOf makes a limiter from a configured rate and burst: zero takes
// the default, a negative rate none.
func limiterOf[K comparable](perSecond float64, burst int, defaultRate float64, defaultBurst int) *limiter[K] {
	if perSecond < 0 {
		return nil
	}
	if perSecond == 0 {
		perSecond = defaultRate
	}
	if burst <= 0 {
		burst = defaultBurst
	}
	return newLimiter[K](perSecond, burst, maxLimited)
}

func gathererOf(cfg Config) prometheus.Gatherer {
	if cfg.Gatherer != nil {
		return cfg.Gatherer
	}
	if g, ok := cfg.Registerer.(prometheus.Gatherer); ok {
		return g
	}
	return nil
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.console != nil {
		p := r.URL.Path
		switch {
		case p == s.consoleRoot || strings.HasPrefix(p, s.consolePrefix):
			r.Pattern = s.consolePrefix
			s.console.ServeHTTP(w, r)
			return
		case p == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead) && strings.Contains(r.Header.Get("Accept"), "text/html"):
			r.Pattern = "GET /"
			s.toConsole.ServeHTTP(w, r)
			return
		}
	}
	// ServeMux would answer a path like /a/../run with a redirect of its
	// own, outside the middleware and not in JSON.
	if r.Method != http.MethodConnect && !canonicalPath(r.URL.EscapedPath()) {
		s.noncanonical.ServeHTTP(w, r)
		return
	}
	// net/http refuses a path with a broken escape itself, but passes a
	// query string on as it came; url.Values would drop the broken part
	// without a word, and a filter with it.
	if _, err := url.ParseQuery(r.URL.RawQuery); err != nil {
		s.badQuery.ServeHTTP(w, r)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// refuseMethods answers methods on path with 405, as on any path that a
// route of theirs does not take: where path is a literal that the routes
// of these methods with a wildcard there would otherwise read as an id
// (GET /flow/test as GET /flow/{flowId}), and where HEAD would otherwise
// do what GET does on a route whose GET makes something (GET /{kind}/{id}/draft).
func (s *server) refuseMethods(path string, methods ...string) {
	if s.refusals == nil {
		s.refusals = map[string]bool{}
	}
	for _, m := range methods {
		pattern := m + " " + path
		s.mux.Handle(pattern, s.chain(public, http.HandlerFunc(s.unmatched)))
		s.refusals[pattern] = true
	}
}

// handle mounts h at pattern behind the middleware. Each route has its own
// chain, so every layer sees the matched pattern.
func (s *server) handle(pattern string, a access, h http.Handler) {
	// The API's routes read only the query parameters openapi.json gives
	// them; the service routes (health, metrics, the playground) are
	// fetched by tools that may add their own.
	if names, ok := documentedQueries[pattern]; ok && a == authenticated {
		h = s.knownQuery(pattern, names, h)
	}
	s.mux.Handle(pattern, s.chain(a, h))
	s.patterns = append(s.patterns, pattern)
}

// chain puts h behind the middleware, listed here innermost first.
func (s *server) chain(a access, h http.Handler) http.Handler {
	if a == authenticated {
		if s.budgets != nil {
			h = s.rateLimit(h)
		}
		h = s.authenticate(h)
	}
	h = s.limitBody(h)
	h = s.recoverPanics(h)
	h = s.observe(h)
	return s.identify(h)
}
