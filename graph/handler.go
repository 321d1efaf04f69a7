package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/verdict/verdict/graph/generated"
	"github.com/verdict/verdict/internal/weighed"
	"github.com/verdict/verdict/service"
)

// Defaults of Config. DefaultMaxComplexity admits a full page (200) of any
// list with every field selected, and refuses lists nested in lists that
// would fetch several thousand items. DefaultMaxTokens and DefaultMaxFields
// admit GraphiQL's introspection query several times over, and any
// operation a client writes by hand; DefaultMaxSameName admits as many
// fragments selecting the same field (an id, say) as a client composes,
// and DefaultMaxFragments as many fragments; DefaultMaxErrors is more than
// a person reads.
const (
	DefaultMaxDepth      = 12
	DefaultMaxComplexity = 10000
	DefaultMaxTokens     = 10000
	DefaultMaxFields     = 1000
	DefaultMaxSameName   = 50
	DefaultMaxFragments  = 200
	DefaultMaxErrors     = 50
)

// queryCacheSize is how many parsed and validated documents are kept, so
// that clients repeating their operations skip both steps. queryCacheBytes
// bounds what they hold, each counted eight times its text for its parsed
// form: a document may be as long as a request body, and a thousand such
// would otherwise hold gigabytes.
const (
	queryCacheSize  = 1000
	queryCacheBytes = 32 << 20
)

// queryCache is gqlgen's cache of parsed documents, keyed by their text.
type queryCache struct {
	*weighed.Cache[string, *ast.QueryDocument]
}

var _ graphql.Cache[*ast.QueryDocument] = queryCache{}

func newQueryCache() queryCache {
	// Refused only for a size below 1.
	c, _ := weighed.NewLRU(queryCacheSize, queryCacheBytes,
		func(query string, _ *ast.QueryDocument) int64 { return int64(8*len(query) + 1<<10) })
	return queryCache{c}
}

func (c queryCache) Get(_ context.Context, query string) (*ast.QueryDocument, bool) {
	return c.Cache.Get(query)
}

func (c queryCache) Add(_ context.Context, query string, doc *ast.QueryDocument) {
	c.Cache.Add(query, doc)
}

// Config configures the GraphQL handler. Zero values take the defaults.
//
// Every document is bounded at each stage, so that whatever fits in a
// request body is answered or refused at a small cost: in tokens before it
// is parsed, in fields, in fields under one key, in introspection and in
// depth before it is validated, in errors while it
// is validated and answered, and in complexity and the arguments of lists
// before it runs. A document over a limit is refused with invalid_argument before
// anything runs. An operation whose request ends (the client went away)
// resolves no further field.
type Config struct {
	// Logger receives a line for each operation, and internal errors and
	// recovered panics, which clients see only as `internal`; nil discards
	// them. They are logged with the request's context: a handler wrapped
	// by requestid.NewHandler writes the request's id on each line.
	Logger *slog.Logger
	// Registerer receives the operation metrics, by operation name; nil
	// leaves them unregistered. It must not hold them already: one handler
	// registers them.
	Registerer prometheus.Registerer
	// MaxTokens is how many tokens (names, punctuation, values) a
	// document may hold (DefaultMaxTokens when zero or less).
	MaxTokens int
	// MaxFields is how many fields, inline fragments and fragment spreads
	// a document may select once each fragment spread is replaced by its
	// fragment (DefaultMaxFields when zero or less).
	MaxFields int
	// MaxSameName is how many fields may answer under one key of the
	// response (DefaultMaxSameName when zero or less): `{ a: viewer { role }
	// a: viewer { role } }` has two under a and two under a.role.
	MaxSameName int
	// MaxFragments is how many fragments a document may define
	// (DefaultMaxFragments when zero or less).
	MaxFragments int
	// MaxDepth is how deeply an operation's fields may nest
	// (DefaultMaxDepth when zero or less).
	MaxDepth int
	// MaxComplexity is the most an operation may cost (DefaultMaxComplexity
	// when zero or less): each field selected costs one, and a connection
	// one plus its page size (first, 50 when absent) times what is selected
	// in it.
	MaxComplexity int
	// MaxConcurrent is how many requests the handler works on at once
	// (4 for each processor Go may use when zero or less); the others wait
	// for their turn, their bodies unread. Documents are bounded in what
	// each costs, and this bounds how many cost it at once, so that the
	// memory they need is bounded too.
	MaxConcurrent int
	// MaxErrors is how many errors a response lists (DefaultMaxErrors when
	// zero or less); when there are more, the last says so.
	MaxErrors int
}

func (c Config) withDefaults() Config {
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	c.MaxTokens = positiveOr(c.MaxTokens, DefaultMaxTokens)
	c.MaxFields = positiveOr(c.MaxFields, DefaultMaxFields)
	c.MaxSameName = positiveOr(c.MaxSameName, DefaultMaxSameName)
	c.MaxFragments = positiveOr(c.MaxFragments, DefaultMaxFragments)
	c.MaxDepth = positiveOr(c.MaxDepth, DefaultMaxDepth)
	c.MaxComplexity = positiveOr(c.MaxComplexity, DefaultMaxComplexity)
	c.MaxErrors = positiveOr(c.MaxErrors, DefaultMaxErrors)
	c.MaxConcurrent = positiveOr(c.MaxConcurrent, 4*runtime.GOMAXPROCS(0))
	return c
}

func positiveOr(n, fallback int) int {
	if n <= 0 {
		return fallback
	}
	return n
}

// gqlgen marks the errors of its complexity limit with this code, and
// answers them with status 200 unless the code is registered as a protocol
// error: an operation over that limit is refused before anything runs, as
// a document over any other limit is, with 422.
func init() { errcode.RegisterErrorType("COMPLEXITY_LIMIT_EXCEEDED", errcode.KindProtocol) }

// NewHandler serves GraphQL over HTTP: queries by GET or POST, mutations by
// POST only (see queriesByGet). It expects the request's context to carry the caller
// (service.WithPrincipal), as the REST router's authentication puts it
// there; without one, every field fails with unauthenticated.
// Introspection is on.
func NewHandler(svc *service.Service, cfg Config) http.Handler {
	cfg = cfg.withDefaults()
	es := newPagedComplexity(generated.NewExecutableSchema(generated.Config{Resolvers: &Resolver{svc: svc}}))
	schema := es.Schema()
	if missing := uncheckedScalars(schema); len(missing) > 0 {
		panic(fmt.Sprintf("graph: the schema's scalars %v have no entry in customScalars", missing))
	}
	srv := handler.New(es)
	srv.AddTransport(checkedTransport{Transport: transport.GET{}, schema: schema})
	srv.AddTransport(checkedTransport{Transport: transport.POST{}, schema: schema})
	cache := newQueryCache()
	srv.SetQueryCache(cache)
	srv.SetParserTokenLimit(cfg.MaxTokens)
	srv.SetValidationRulesFn(cappedRules(cfg.MaxErrors))
	srv.Use(documentBounds{
		maxTokens: cfg.MaxTokens, maxFields: cfg.MaxFields, maxDepth: cfg.MaxDepth, maxSameName: cfg.MaxSameName,
		maxFragments: cfg.MaxFragments, cache: cache, schema: schema,
	})
	// First of the extensions that read an operation's variables.
	srv.Use(strictVariables{schema: schema})
	srv.Use(queriesByGet{})
	srv.Use(extension.Introspection{})
	// Before the complexity limit, which counts with the page sizes.
	srv.Use(listArguments{})
	srv.Use(extension.FixedComplexityLimit(cfg.MaxComplexity))
	// Before errorCap, so that it wraps errorCap and sees the errors the
	// client sees.
	srv.Use(newObserver(cfg))
	srv.Use(errorCap{max: cfg.MaxErrors})
	srv.Use(stopWhenGone{})
	srv.Use(reauthenticate{svc: svc})
	srv.SetErrorPresenter(presentError(cfg.Logger))
	srv.SetRecoverFunc(recoverPanic)
	// The body is read before a turn is taken: a client sending it slowly
	// would otherwise hold a turn, and a few such clients every one.
	return readRequest(admit(cfg.MaxConcurrent, markGet(chargeObjects(srv))))
}

// objectBytes is what the service charges a GraphQL answer for each
// object it builds where it counts them (a check's tokens and diagnostics,
// a diff's lines; service.WithObjectBytes), beyond the object's bytes in
// JSON. gqlgen builds each object of an answer field by field, through
// the executor, its marshalers and an ordered map, before encoding it:
// checkRule on a 254 KiB text of 255,270 tokens answered 24.4 MB of JSON,
// 96 bytes a token, but allocated 2.0 GB with each token's four objects
// selected (about 2 KiB an object; 500 MB, 2 KiB a token, with its kind
// alone) and held 800 MB (3.1 KiB a token, near 800 bytes an object),
// where POST /check answers the same tokens as the bytes it writes. The
// bound on answers counts a quarter of the memory an answer takes
// (service.DefaultMaxAnswerBytes is 64 MiB of the 256 MiB answers in
// flight may hold), so an object held at some 800 bytes and allocated at
// 2 KiB counts 256: a token 1,024 bytes beside its JSON.
const objectBytes = 256

// chargeObjects has next's answers charged objectBytes for each object
// the service counts.
func chargeObjects(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(service.WithObjectBytes(r.Context(), objectBytes)))
	})
}

// admit lets at most n requests into next at once. A request whose client
// goes away while it waits is answered unavailable, for the logs: nobody
// reads the answer.
func admit(n int, next http.Handler) http.Handler {
	slots := make(chan struct{}, n)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case slots <- struct{}{}:
		case <-r.Context().Done():
			writeError(w, http.StatusServiceUnavailable, service.CodeUnavailable, "the request ended before its turn came")
			return
		}
		defer func() { <-slots }()
		next.ServeHTTP(w, r)
	})
}

// writeError answers a request that never reached gqlgen, in the shape of
// the router's refusals on /graphql: errors and no data, since no
// operation was read (graphql.Response would write "data": null).
func writeError(w http.ResponseWriter, status int, code service.Code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(struct {
		Errors gqlerror.List `json:"errors"`
	}{gqlerror.List{{
		Message:    msg,
		Extensions: map[string]any{"code": string(code)},
	}}})
}
