package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/cobra"
	"golang.org/x/net/netutil"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/console"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/database/changefeed"
	"github.com/verdict/verdict/internal/logbuf"
	"github.com/verdict/verdict/internal/requestid"
	"github.com/verdict/verdict/rest"
	"github.com/verdict/verdict/service"
)

// envBootstrapKey is the admin key of the organization serve bootstraps on
// an empty database, when --bootstrap-key is not given.
const envBootstrapKey = "VERDICT_BOOTSTRAP_KEY"

// Timeouts of the HTTP server. A request's headers must arrive promptly (a
// slow client must not hold a connection for nothing); its body and the
// answer get more room, for large documents and long flows.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = time.Minute
	writeTimeout      = 2 * time.Minute
	idleTimeout       = 2 * time.Minute
	maxHeaderBytes    = 64 << 10
)

// defaultMaxConnections bounds the connections open at once: an idle one
// holds about 20 KB (its goroutine and buffers), so ten thousand about
// 200 MB, where without a bound a client could open as many as the
// process may have files.
const defaultMaxConnections = 10000

// serveConfig is the configuration of `verdict serve`, from its flags.
type serveConfig struct {
	addr            string
	dbURL           string
	noMigrate       bool
	bootstrapKey    string
	opaURL          string
	authzTimeout    time.Duration
	logFormat       string
	logLevel        string
	bodyLimit       int64
	bodiesInFlight  int64
	rateLimit       float64
	rateBurst       int
	orgRateLimit    float64
	orgRateBurst    int
	authFailLimit   float64
	authFailBurst   int
	shutdownTimeout time.Duration
	cacheSize       int
	cacheExpiry     time.Duration
	batchLimit      int
	answerLimit     int
	answersInFlight int
	maxConnections  int
	cacheMemory     int64
	dbTimeout       time.Duration
	auditDurable    bool
	decisionKeep    retention
	auditRetention  retention
}

// serveGCPercent is the garbage collector's target for a server whose
// GOGC is not set: the heap may grow to three times what is live between
// collections, instead of twice. A server's live heap is small (its
// caches) and every request allocates a few kilobytes, so collections come
// often; at 200, stored runs take about a twelfth less CPU, for about 30 MB
// more memory at full load (docs/operations.md, "Memory and the garbage
// collector").
const serveGCPercent = 200

// collectorTarget is the GC percent serve sets, given GOGC from the
// environment: none when the operator chose one.
func collectorTarget(gogc string) (percent int, set bool) {
	if gogc != "" {
		return 0, false
	}
	return serveGCPercent, true
}

// logBufferBytes bounds the log lines waiting for their write: about four
// thousand access log lines.
const logBufferBytes = 1 << 20

// decisionExpiryInterval is how often serve removes expired decision
// records: on SQLite often enough that each round deletes few; on
// PostgreSQL, where a round drops whole days and prepares the days ahead,
// it mostly finds nothing to do.
const decisionExpiryInterval = 10 * time.Minute

func newServeCommand() *cobra.Command {
	var cfg serveConfig
	cmd := &cobra.Command{
		Use:   "serve [flags]",
		Short: "Serve the REST and GraphQL API",
		Long: `Serve the REST and GraphQL API (GraphQL at /graphql, its playground at
/playground), with /healthz, /readyz and Prometheus metrics at /metrics.

At start, serve applies pending migrations, creating the SQLite file when
it does not exist; with --no-migrate it refuses to start on a database that
is missing or needs migrations instead. On a database without any
organization, it creates the organization Default with the admin
admin@localhost and prints that admin's API key: --bootstrap-key or
$` + envBootstrapKey + ` when set, else a new random key.

SIGINT or SIGTERM stops it: it stops accepting connections, lets requests in
flight finish within --shutdown-timeout and exits with status 0 (1 when
some did not finish in time).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cfg.bootstrapKey == "" {
				cfg.bootstrapKey = os.Getenv(envBootstrapKey)
			}
			if err := cfg.check(); err != nil {
				return err
			}
			if percent, set := collectorTarget(os.Getenv("GOGC")); set {
				debug.SetGCPercent(percent)
			}
			ctx, stop := untilStopped(cmd.Context())
			defer stop()
			return serve(ctx, stop, cfg, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.addr, "addr", ":8080", "the address to listen on, host:port (port 0 picks a free port)")
	addDatabaseURLFlag(f, &cfg.dbURL)
	f.BoolVar(&cfg.noMigrate, "no-migrate", false, "do not migrate at start; refuse to start on a missing SQLite file or while migrations are pending")
	f.StringVar(&cfg.bootstrapKey, "bootstrap-key", "",
		"the admin key to bootstrap an empty database with, at least 32 characters; default $"+envBootstrapKey+", else a new random key")
	f.StringVar(&cfg.opaURL, "opa-url", "", "ask the OPA server at this URL for authorization decisions; default the embedded policy")
	f.DurationVar(&cfg.authzTimeout, "authz-timeout", 0, "how long one authorization decision may take before the request fails with 503 authorization_unavailable (default 250ms)")
	f.StringVar(&cfg.logFormat, "log-format", "text", "text or json")
	f.StringVar(&cfg.logLevel, "log-level", "info", "the least severe lines logged: info, warn or error; warn leaves out the line of each request")
	f.Int64Var(&cfg.bodyLimit, "body-limit", rest.DefaultBodyLimit, "the largest request body accepted, in bytes")
	f.Int64Var(&cfg.bodiesInFlight, "bodies-in-flight", 0,
		"how many bytes the bodies of all requests under way may hold together, each counted at its Content-Length (--body-limit when it has none) until its request ends; "+
			"a body that finds no room within "+rest.DefaultBodyWait.String()+" is refused with 503 unavailable, to be retried; 0 is 64 times --body-limit")
	f.Float64Var(&cfg.rateLimit, "rate-limit", rest.DefaultRateLimit,
		"requests and runs per second one API key may sustain (a request costs one, each further run it makes one more); 0 turns the limit off")
	f.IntVar(&cfg.rateBurst, "rate-burst", rest.DefaultRateBurst, "how many requests and runs one API key may make at once")
	f.Float64Var(&cfg.orgRateLimit, "org-rate-limit", rest.DefaultOrgRateLimit,
		"requests and runs per second all the API keys of one organization may sustain together; 0 turns the limit off")
	f.IntVar(&cfg.orgRateBurst, "org-rate-burst", rest.DefaultOrgRateBurst, "how many requests and runs the keys of one organization may make at once")
	f.Float64Var(&cfg.authFailLimit, "auth-failure-limit", rest.DefaultAuthFailureLimit,
		"failed authentications per second one client address may sustain before its requests are refused; 0 turns the limit off")
	f.IntVar(&cfg.authFailBurst, "auth-failure-burst", rest.DefaultAuthFailureBurst, "how many failed authentications one client address may make at once")
	f.DurationVar(&cfg.shutdownTimeout, "shutdown-timeout", 10*time.Second, "how long requests in flight may take to finish at shutdown")
	f.DurationVar(&cfg.dbTimeout, "database-timeout", database.DefaultIOTimeout,
		"PostgreSQL: how long one read or write (and so one statement) may stall before the request fails with 503; 0 for no limit")
	f.BoolVar(&cfg.auditDurable, "audit-durable", false,
		"answer a run only once its executed event is committed: a crash then loses none, for an insert's time added to each run")
	cfg.decisionKeep = newRetention(service.DefaultDecisionRetention, false, "decision records")
	f.Var(&cfg.decisionKeep, "decision-retention",
		"how long decision records are kept before they are deleted, in days (30d) or as a duration (36h)")
	cfg.auditRetention = newRetention(service.DefaultAuditRetention, true, "events")
	f.Var(&cfg.auditRetention, "audit-retention",
		"how long executed events are kept, in days (90d) or as a duration (36h); 0 keeps them forever")
	f.IntVar(&cfg.cacheSize, "cache-size", service.DefaultCacheSize, "how many compiled programs (and bases and records) the run caches keep")
	f.Int64Var(&cfg.cacheMemory, "cache-memory", service.DefaultCacheBytes,
		"how many bytes, as estimated, the run caches may hold: half for compiled programs, a quarter for flow definitions, an eighth each for records and bases")
	f.DurationVar(&cfg.cacheExpiry, "cache-expiry", service.DefaultCacheExpiry,
		"how long a cached base, record or authenticated key is used before it is read again: on PostgreSQL, how long another instance's change may go unseen while change notifications cannot arrive")
	f.IntVar(&cfg.batchLimit, "batch-limit", service.DefaultMaxBatchItems, "how many items one batch run may hold")
	f.IntVar(&cfg.answerLimit, "answer-limit", service.DefaultMaxAnswerBytes,
		"how many bytes the runs, checks and saves of one request may answer together, as estimated before each; past it they are refused with 400")
	f.IntVar(&cfg.answersInFlight, "answers-in-flight", 0,
		"how many bytes, as --answer-limit counts them, all requests under way may answer together; past it a request is refused with 503 unavailable, to be retried; 0 is four times --answer-limit")
	f.IntVar(&cfg.maxConnections, "max-connections", defaultMaxConnections,
		"how many client connections may be open at once; further ones wait to be accepted until one closes")
	return cmd
}

// check refuses flag values that cannot work, before anything is opened.
func (cfg *serveConfig) check() error {
	// NaN fails every comparison, so the checks below would pass it, and
	// an infinite rate is no rate: 0 is how a limit is turned off.
	for _, limit := range []struct {
		flag  string
		value float64
	}{{"--rate-limit", cfg.rateLimit}, {"--org-rate-limit", cfg.orgRateLimit}, {"--auth-failure-limit", cfg.authFailLimit}} {
		if math.IsNaN(limit.value) || math.IsInf(limit.value, 0) {
			return usageError("%s must be a finite number, not %v; 0 turns the limit off", limit.flag, limit.value)
		}
	}
	switch {
	case cfg.logFormat != "text" && cfg.logFormat != "json":
		return usageError("--log-format must be text or json, not %q", cfg.logFormat)
	case logLevels[cfg.logLevel] == nil:
		return usageError("--log-level must be info, warn or error, not %q", cfg.logLevel)
	case cfg.authzTimeout < 0:
		return usageError("--authz-timeout must not be negative")
	case cfg.rateLimit < 0, cfg.orgRateLimit < 0, cfg.authFailLimit < 0:
		return usageError("--rate-limit, --org-rate-limit and --auth-failure-limit must not be negative; 0 turns a limit off")
	case cfg.bodyLimit <= 0:
		return usageError("--body-limit must be positive")
	case cfg.bodiesInFlight < 0:
		return usageError("--bodies-in-flight must not be negative")
	case cfg.bodiesInFlight > 0 && cfg.bodiesInFlight < cfg.bodyLimit:
		return usageError("--bodies-in-flight %d is below --body-limit %d: the largest body could never be read", cfg.bodiesInFlight, cfg.bodyLimit)
	case cfg.rateLimit > 0 && cfg.rateBurst < 1:
		return usageError("--rate-burst must be at least 1")
	case cfg.orgRateLimit > 0 && cfg.orgRateBurst < 1:
		return usageError("--org-rate-burst must be at least 1")
	case cfg.authFailLimit > 0 && cfg.authFailBurst < 1:
		return usageError("--auth-failure-burst must be at least 1")
	case cfg.shutdownTimeout <= 0:
		return usageError("--shutdown-timeout must be positive")
	case cfg.dbTimeout < 0:
		return usageError("--database-timeout must not be negative")
	case cfg.batchLimit < 1:
		return usageError("--batch-limit must be at least 1")
	case cfg.answerLimit < 1:
		return usageError("--answer-limit must be positive")
	case cfg.maxConnections < 1:
		return usageError("--max-connections must be at least 1")
	case cfg.answersInFlight < 0:
		return usageError("--answers-in-flight must not be negative")
	case cfg.answersInFlight > 0 && cfg.answersInFlight < cfg.answerLimit:
		return usageError("--answers-in-flight %d is below --answer-limit %d: the largest request could never be answered", cfg.answersInFlight, cfg.answerLimit)
	// A batch is charged whole before it runs, so one larger than a burst
	// could never run: refuse the setting rather than every such batch.
	case cfg.rateLimit > 0 && cfg.batchLimit > cfg.rateBurst:
		return usageError("--batch-limit %d is above --rate-burst %d: a batch that large would always be refused; lower --batch-limit or raise --rate-burst", cfg.batchLimit, cfg.rateBurst)
	case cfg.orgRateLimit > 0 && cfg.batchLimit > cfg.orgRateBurst:
		return usageError("--batch-limit %d is above --org-rate-burst %d: a batch that large would always be refused; lower --batch-limit or raise --org-rate-burst", cfg.batchLimit, cfg.orgRateBurst)
	case cfg.cacheSize < 1:
		return usageError("--cache-size must be at least 1")
	case cfg.cacheMemory < 1:
		return usageError("--cache-memory must be positive")
	case cfg.cacheExpiry < service.MinCacheExpiry:
		return usageError("--cache-expiry must be at least %s, not %s", service.MinCacheExpiry, cfg.cacheExpiry)
	}
	if _, port, err := net.SplitHostPort(cfg.addr); err != nil {
		return usageError("--addr must be host:port: %v", err)
	} else if _, err := net.LookupPort("tcp", port); err != nil {
		return usageError("--addr: %v", err)
	}
	if cfg.bootstrapKey != "" {
		// The same rule as `admin bootstrap --key`, checked before anything
		// is opened.
		var se *service.Error
		if err := service.CheckOperatorKey(cfg.bootstrapKey); errors.As(err, &se) {
			return usageError("the bootstrap key (--bootstrap-key or $%s): %s", envBootstrapKey, se.Message)
		}
	}
	return nil
}

// logLevels are the values of --log-level. There is no debug: nothing
// logs below info.
var logLevels = map[string]slog.Leveler{"info": slog.LevelInfo, "warn": slog.LevelWarn, "error": slog.LevelError}

// newLogger logs lines of level and above: below it a line costs a
// comparison, not its formatting. A line logged with a request's context
// carries the request's id, whichever layer logs it (REST, GraphQL, the
// service), so that an operator can find every line of one request.
func newLogger(w io.Writer, format, level string) *slog.Logger {
	opts := &slog.HandlerOptions{Level: logLevels[level]}
	var h slog.Handler
	if format == "json" {
		h = slog.NewJSONHandler(w, opts)
	} else {
		h = slog.NewTextHandler(w, opts)
	}
	return slog.New(requestid.NewHandler(h))
}

func (cfg *serveConfig) authorizer() (authz.Authorizer, error) {
	var opts []authz.Option
	if cfg.authzTimeout > 0 {
		opts = append(opts, authz.WithTimeout(cfg.authzTimeout))
	}
	if cfg.opaURL != "" {
		a, err := authz.NewRemote(cfg.opaURL, opts...)
		if err != nil {
			return nil, usageError("--opa-url %s: %v", displayOPAURL(cfg.opaURL), err)
		}
		return a, nil
	}
	a, err := authz.NewEmbedded(opts...)
	if err != nil {
		return nil, failure(err)
	}
	return a, nil
}

// serve runs the server until ctx is done, then shuts it down gracefully.
// stopSignals restores the default handling of SIGINT and SIGTERM, so that
// a second signal during shutdown kills the process.
func serve(ctx context.Context, stopSignals func(), cfg serveConfig, stdout, stderr io.Writer) error {
	// Every request logs a line: written from one goroutine, lines logged
	// together share a system call.
	logs := logbuf.New(stderr, logBufferBytes)
	defer logs.Close()
	log := newLogger(logs, cfg.logFormat, cfg.logLevel)
	authorizer, err := cfg.authorizer()
	if err != nil {
		return err
	}
	// Listening comes first: an address that cannot be had (a port in
	// use) must fail before the database is touched, or an empty one
	// would be bootstrapped with a key nobody was shown.
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return failure(err)
	}
	defer ln.Close()
	cfg.dbURL = resolveDatabaseURL(cfg.dbURL)
	dbURL := cfg.dbURL
	open := openDatabase
	if cfg.noMigrate {
		open = openExistingDatabase
	}
	db, err := open(ctx, dbURL, database.WithIOTimeout(cfg.dbTimeout))
	if err != nil {
		return err
	}
	defer db.Close()
	if cfg.noMigrate {
		if err := requireMigrated(ctx, db, dbURL); err != nil {
			return err
		}
	} else {
		m, err := database.Migrate(ctx, db, database.WhileWaiting(func() {
			log.Info("waiting for another instance to finish migrating the database", "database", displayURL(dbURL))
		}))
		if err != nil {
			return migrationFailure(dbURL, err)
		}
		log.Info("database migrated", "database", displayURL(dbURL), "applied", m.Applied, "version", m.Version)
	}

	reg := prometheus.NewRegistry()
	reg.MustRegister(processCollectors(db)...)
	changes, err := changefeed.Listen(ctx, db, log, reg)
	if err != nil {
		return failuref("%s: %v", displayURL(dbURL), err)
	}
	defer changes.Close()
	svc, err := service.New(service.Config{DB: db, Authorizer: authorizer, Logger: log, Registerer: reg, CacheSize: cfg.cacheSize, CacheBytes: cfg.cacheMemory,
		CacheExpiry: cfg.cacheExpiry, Changes: changes, AuditDurable: cfg.auditDurable, AuditRetention: cfg.auditRetention.d,
		DecisionRetention: cfg.decisionKeep.d, DecisionExpiry: decisionExpiryInterval, MaxBatchItems: cfg.batchLimit,
		MaxAnswerBytes: cfg.answerLimit, MaxAnswersInFlight: cfg.answersInFlight})
	if err != nil {
		return failure(err)
	}
	err = serveHTTP(ctx, stopSignals, ln, cfg, svc, reg, log, stdout)
	// Stores the audit events still queued, while the database is open,
	// even when requests outlived the shutdown timeout: those are refused
	// from now on, and what the runs answered before is kept.
	svc.Close()
	if err != nil {
		return err
	}
	log.Info("stopped")
	return nil
}

// serveHTTP bootstraps an empty database, serves on ln until ctx is done,
// then shuts down.
func serveHTTP(ctx context.Context, stopSignals func(), ln net.Listener, cfg serveConfig, svc *service.Service, reg *prometheus.Registry, log *slog.Logger, stdout io.Writer) error {
	boot, err := svc.Operator().BootstrapIfEmpty(ctx, cfg.bootstrapKey)
	if err != nil {
		return failure(err)
	}
	ln = netutil.LimitListener(ln, cfg.maxConnections)
	srv := &http.Server{
		Handler:           newHandler(svc, log, reg, cfg),
		ConnState:         connectionsGauge(reg),
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	// Shutdown calls this, from a goroutine of its own, once the listener
	// is closed.
	listenerClosed := make(chan struct{})
	srv.RegisterOnShutdown(func() { close(listenerClosed) })
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	// One write, so that a reader sees the address and the key together.
	var banner strings.Builder
	base := baseURL(cfg.addr, ln.Addr())
	fmt.Fprintf(&banner, "Verdict listening on %s\n", base)
	fmt.Fprintf(&banner, "Open the console: %s%s\n", base, console.Prefix)
	if boot != nil {
		printServeBootstrapped(&banner, boot, base)
	} else {
		if cfg.bootstrapKey != "" {
			log.Info("bootstrap key not used: the database has organizations already")
		}
		printKeyHint(ctx, &banner, svc.Operator(), cfg.dbURL)
	}
	io.WriteString(stdout, banner.String())
	log.Info("serving", "addr", ln.Addr().String(), "database", displayURL(cfg.dbURL), "authorizer", cfg.authorizerName())

	var serveErr error
	select {
	case serveErr = <-served:
		log.Error("serving failed", "error", serveErr)
	case <-ctx.Done():
	}
	stopSignals()
	log.Info("shutting down", "timeout", cfg.shutdownTimeout.String())
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.shutdownTimeout)
	defer cancel()
	shutDown := make(chan error, 1)
	go func() { shutDown <- srv.Shutdown(shutdownCtx) }()
	// Logged here rather than from the hook, so that it comes before
	// what follows the shutdown and before the log is closed.
	<-listenerClosed
	log.Info("stopped accepting connections; waiting for requests in flight")
	if err := <-shutDown; err != nil {
		srv.Close()
		log.Warn("requests in flight did not finish in time; their connections were closed", "timeout", cfg.shutdownTimeout.String())
		return failuref("shutdown: requests in flight did not finish within %s", cfg.shutdownTimeout)
	}
	if serveErr == nil {
		serveErr = <-served
	}
	if !errors.Is(serveErr, http.ErrServerClosed) {
		return failure(serveErr)
	}
	return nil
}

func (cfg *serveConfig) authorizerName() string {
	if cfg.opaURL != "" {
		return displayOPAURL(cfg.opaURL)
	}
	return "embedded"
}

// baseURL is where a client on this machine reaches the listener: a
// wildcard address is reached through the loopback.
func baseURL(flagAddr string, addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return "http://" + addr.String()
	}
	host := tcp.IP.String()
	if tcp.IP == nil || tcp.IP.IsUnspecified() {
		host = "localhost"
	}
	// A name the operator wrote (localhost, a host name) is kept: the
	// address it resolved to is not what they would type in a browser.
	if named, _, err := net.SplitHostPort(flagAddr); err == nil && named != "" && net.ParseIP(named) == nil {
		host = named
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(tcp.Port))
}

// printServeBootstrapped shows what the bootstrap at start created, once,
// with a request to try the key on. The key is not repeated in the request,
// so that it appears in the output once.
func printServeBootstrapped(w io.Writer, b *service.Bootstrapped, base string) {
	fmt.Fprintln(w, "\nThe database was empty: created an organization, its admin and an admin API key.")
	printBootstrapped(w, b)
	fmt.Fprintf(w, "Try it:\n\n    curl -H 'x-api-key: <key>' -H 'content-type: application/json' \\\n        -d '%s' \\\n        %s/run\n\n", tryRunBody, base)
}

const tryRunBody = `{"rule": "A **Person** gets senior_discount if the __age__ of the **Person** is at least 65.", "data": {"Person": {"age": 70}}}`

// printKeyHint tells how to get a key for a database that was bootstrapped
// before.
func printKeyHint(ctx context.Context, w io.Writer, op *service.Operator, dbURL string) {
	org := "ORG"
	if only, err := op.OnlyOrganization(ctx); err == nil && only != nil {
		org = only.Name
	}
	io.WriteString(w, keyHint(dbURL, org))
}

// keyHint is the command that creates an admin key in the organization org
// of the database dbURL, to run as shown. It names the database unless it
// is the default, and never shows its password.
func keyHint(dbURL, org string) string {
	dbFlag := ""
	shown, hidden := hidePassword(dbURL)
	if dbURL != database.DefaultURL {
		dbFlag = " --database-url " + shellQuote(shown)
	}
	hint := fmt.Sprintf("To create an API key (against the same database):\n\n    verdict admin key create%s --org %s --scope admin [--user-email EMAIL]\n\n",
		dbFlag, shellQuote(org))
	if hidden {
		hint += hiddenPassword + " stands for the database password, which is not shown.\n\n"
	}
	return hint
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.@/:", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
