package rest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/internal/requestid"
	"github.com/verdict/verdict/service"
)

// exchange is what the middleware learns about one request, shared by the
// layers through the request's context: identify gives the request its
// one copy, with this in its context, and the layers inside fill it in
// rather than copy the request again.
type exchange struct {
	keyID string // set once the key is authenticated, for the access log
	// call is what the service reads of the request: identify sets when
	// it arrived, authenticate its caller, rateLimit its budget.
	call   service.Call
	budget requestBudget
}

type exchangeKey struct{}

func exchangeOf(ctx context.Context) *exchange {
	if ex, ok := ctx.Value(exchangeKey{}).(*exchange); ok {
		return ex
	}
	return &exchange{}
}

const requestIDHeader = "X-Request-Id"

// maxRequestIDLength bounds an incoming request id that is reused.
const maxRequestIDLength = 128

// identify gives the request an id: the caller's X-Request-Id when it is
// sane (so a trace can cross services), else a new time-ordered UUID. The
// id is in the request's context, where the server's logger finds it for
// every line logged with that context (internal/requestid).
func (s *server) identify(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(requestIDHeader)
		if !saneRequestID(id) {
			id = newRequestID()
		}
		w.Header().Set(requestIDHeader, id)
		ex := &exchange{call: service.Call{Arrived: time.Now(), Ends: true}}
		ctx := service.WithCall(context.WithValue(requestid.With(r.Context(), id), exchangeKey{}, ex), &ex.call)
		// What the answer held of the bound on answers in flight is let go
		// once it is written.
		defer ex.call.Done()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// saneRequestID accepts ids that are safe to echo in a header and to log:
// short, and made of letters, digits and a little punctuation.
func saneRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLength {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("-_.:/+=@", c) >= 0:
		default:
			return false
		}
	}
	return true
}

func newRequestID() string {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.NewString()
	}
	return id.String()
}

// recorder remembers the status and size of a response.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (rec *recorder) WriteHeader(code int) {
	if rec.status == 0 && (code >= 200 || code == http.StatusSwitchingProtocols) {
		rec.status = code
	}
	rec.ResponseWriter.WriteHeader(code)
}

func (rec *recorder) Write(b []byte) (int, error) {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	n, err := rec.ResponseWriter.Write(b)
	rec.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (rec *recorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }

// Flush and Hijack serve handlers that assert these interfaces rather than
// use http.ResponseController (streaming GraphQL transports).
func (rec *recorder) Flush() {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	http.NewResponseController(rec.ResponseWriter).Flush()
}

func (rec *recorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if rec.status == 0 {
		rec.status = http.StatusSwitchingProtocols
	}
	return http.NewResponseController(rec.ResponseWriter).Hijack()
}

// observe counts the request and its latency by route and writes the
// access log line. It sits outside recoverPanics so that it records the
// 500 a panic becomes.
func (s *server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &recorder{ResponseWriter: w}
		defer func() {
			ex := exchangeOf(r.Context())
			status := rec.status
			if status == 0 {
				status = http.StatusOK
			}
			route := routeLabel(r.Pattern)
			elapsed := time.Since(ex.call.Arrived)
			s.metrics.observe(route, status, elapsed)
			s.log.LogAttrs(r.Context(), slog.LevelInfo, "http request",
				slog.String("method", r.Method),
				slog.String("route", route),
				slog.String("path", r.URL.Path),
				slog.Int("status", status),
				slog.Duration("duration", elapsed),
				slog.Int64("bytes", rec.bytes),
				slog.String("key_id", ex.keyID),
			)
		}()
		next.ServeHTTP(rec, r)
	})
}

// recoverPanics turns a panic into a 500 in the API's error shape and a log
// line with the stack, so a bug costs one request and never the
// connection. When the response has begun already, an error can no longer
// be sent: the connection is aborted instead, so that a truncated body is
// not taken for a whole one.
func (s *server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.LogAttrs(r.Context(), slog.LevelError, "panic serving a request",
				slog.String("route", r.Pattern),
				slog.String("panic", fmt.Sprint(v)),
				slog.String("stack", string(debug.Stack())),
			)
			if rec, ok := w.(*recorder); ok && rec.status != 0 {
				panic(http.ErrAbortHandler)
			}
			s.fail(w, r, http.StatusInternalServerError, service.CodeInternal, "internal error")
		}()
		next.ServeHTTP(w, r)
	})
}

// limitBody refuses a body above the limit: at once when Content-Length
// says so, else when reading reaches the limit (see readBody). It
// replaces the body of the request identify copied, which belongs to the
// middleware: the server's own request stays as it was. The body it puts
// there charges what it reads to the bound on bodies in flight
// (bodies.Read), and gives it back once the request ends, whichever way:
// an answer, an error, a panic or a client gone.
func (s *server) limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > s.bodyLimit {
			s.writeError(w, r, s.tooLarge())
			return
		}
		if err := bodyHeadersProblem(r.Header); err != nil {
			s.writeError(w, r, err)
			return
		}
		body := s.bodies.Body(http.MaxBytesReader(w, r.Body, s.bodyLimit), s.bodyLimit)
		defer body.Release()
		r.Body = body
		next.ServeHTTP(w, r)
	})
}

// bodyHeadersProblem refuses a body whose headers leave how to read it in
// doubt: a body is read as sent, so a compressed one would be misread as
// JSON (or refused as not UTF-8, which hides why), and of two Content-Type
// headers only the first was checked.
func bodyHeadersProblem(h http.Header) *service.Error {
	if types := h.Values("Content-Type"); len(types) > 1 {
		return failure(service.CodeInvalidArgument, "the request has %d Content-Type headers; send one", len(types))
	}
	for _, list := range h.Values("Content-Encoding") {
		for coding := range strings.SplitSeq(list, ",") {
			if coding = strings.TrimSpace(coding); coding != "" && !strings.EqualFold(coding, "identity") {
				return failure(service.CodeInvalidArgument,
					"Content-Encoding %q is not supported; send the body uncompressed", engine.Quoted(coding))
			}
		}
	}
	return nil
}

func (s *server) tooLarge() *service.Error {
	return failure(service.CodePayloadTooLarge, "the request body is larger than the limit of %d bytes", s.bodyLimit)
}

// authenticate turns the request's API key and x-org-id into the
// principal the service reads from the context. Failed authentications
// are counted per client address: once an address has spent its budget of
// them, its requests are refused before any key is looked up, so that
// guessing keys, or a flood of bad ones, costs neither the database nor
// much time.
func (s *server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secret, err := apiKey(r.Header)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		if secret == "" {
			s.writeError(w, r, failure(service.CodeUnauthenticated,
				"an API key is required: send it as x-api-key or Authorization: Bearer"))
			return
		}
		addr := clientAddress(r)
		if s.authFailures != nil {
			if wait, out := s.authFailures.exhausted(addr, time.Now()); out {
				secs := retrySeconds(wait)
				w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
				s.writeError(w, r, failure(service.CodeRateLimited,
					"too many failed authentications from this address; retry after %d s", secs))
				return
			}
		}
		if n := len(r.Header.Values("X-Org-Id")); n > 1 {
			s.writeError(w, r, invalid("the request carries %d x-org-id headers; send one", n))
			return
		}
		p, err := s.svc.Authenticate(r.Context(), secret, strings.TrimSpace(r.Header.Get("X-Org-Id")))
		if err != nil {
			if s.authFailures != nil && service.CodeOf(err) == service.CodeUnauthenticated {
				s.authFailures.allow(addr, time.Now())
			}
			s.writeError(w, r, err)
			return
		}
		ex := exchangeOf(r.Context())
		ex.keyID = p.KeyID.String()
		ex.call.Principal = p
		// What a key is answered is for it alone: new keys' secrets,
		// recorded data. Keys come in x-api-key, which caches do not take
		// for authentication, so they are told not to store it.
		h := w.Header()
		h["Cache-Control"] = noStore
		h["X-Content-Type-Options"] = noSniff
		next.ServeHTTP(w, r)
	})
}

// clientAddress is the address a request came from: the peer of the
// connection. Forwarding headers are not trusted, since any client can
// send them.
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// apiKey is the key a request carries: x-api-key, else a bearer token.
// A request that carries two keys is refused rather than served with one
// of them: which key acts must not depend on which header a server, or a
// proxy before it, happens to read first.
func apiKey(h http.Header) (string, error) {
	for _, name := range [...]string{"X-Api-Key", "Authorization"} {
		if n := len(h.Values(name)); n > 1 {
			return "", invalid("the request carries %d %s headers; send one API key", n, strings.ToLower(name))
		}
	}
	key := strings.TrimSpace(h.Get("X-Api-Key"))
	scheme, token, ok := strings.Cut(strings.TrimSpace(h.Get("Authorization")), " ")
	bearer := ""
	if ok && strings.EqualFold(scheme, "Bearer") {
		bearer = strings.TrimSpace(token)
	}
	switch {
	case key == "":
		return bearer, nil
	case bearer != "" && bearer != key:
		return "", invalid("the request carries two different API keys, in x-api-key and in Authorization; send one")
	}
	return key, nil
}

// rateLimit charges the request to its key's and its organization's
// budgets, and hands the service the request's run budget, which charges
// every run after the first to the same budgets. It runs after
// authentication because the budgets belong to the key.
func (s *server) rateLimit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := service.PrincipalFrom(r.Context())
		if !ok {
			s.writeError(w, r, errors.New("rest: rate limit reached without a principal"))
			return
		}
		if err := s.budgets.take(p, 1, 1, time.Now()); err != nil {
			s.writeError(w, r, err)
			return
		}
		ex := exchangeOf(r.Context())
		ex.budget = requestBudget{budgets: s.budgets, principal: p}
		ex.budget.prepaid.Store(true)
		ex.call.Budget = &ex.budget
		next.ServeHTTP(w, r)
	})
}
