package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/verdict/verdict/service"
)

// statuses is the table of error codes and HTTP statuses (docs/endpoints.md, "Errors").
var statuses = map[service.Code]int{
	service.CodeInvalidArgument:          http.StatusBadRequest,
	service.CodeUnauthenticated:          http.StatusUnauthorized,
	service.CodePermissionDenied:         http.StatusForbidden,
	service.CodeNotFound:                 http.StatusNotFound,
	service.CodeConflict:                 http.StatusConflict,
	service.CodeDeleted:                  http.StatusGone,
	service.CodePayloadTooLarge:          http.StatusRequestEntityTooLarge,
	service.CodeRateLimited:              http.StatusTooManyRequests,
	service.CodeAuthorizationUnavailable: http.StatusServiceUnavailable,
	service.CodeUnavailable:              http.StatusServiceUnavailable,
	service.CodeInternal:                 http.StatusInternalServerError,
}

// statusOf is the HTTP status of an error code; a code missing from the
// table is a programming error and answers 500.
func statusOf(code service.Code) int {
	if st, ok := statuses[code]; ok {
		return st
	}
	return http.StatusInternalServerError
}

// errorBody is the one shape of every error response.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    service.Code `json:"code"`
	Message string       `json:"message"`
	// Details lists every problem when the service reports several (an
	// invalid flow definition); absent otherwise.
	Details []string `json:"details,omitempty"`
}

func invalid(format string, args ...any) *service.Error {
	return service.Invalid(format, args...)
}

func failure(code service.Code, format string, args ...any) *service.Error {
	return &service.Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// writeError answers with err's code and the status it stands for. The
// cause of a server-side failure is logged; an internal error's message is
// replaced, so nothing of its cause reaches the caller.
func (s *server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var e *service.Error
	code, msg := service.CodeInternal, "internal error"
	var details []string
	cause := err
	if errors.As(err, &e) {
		code, msg, details = e.Code, e.Message, e.Details
		if c := errors.Unwrap(e); c != nil {
			cause = c
		}
	}
	status := statusOf(code)
	if code == service.CodeInternal || status == http.StatusInternalServerError {
		code, msg, details = service.CodeInternal, "internal error", nil
	}
	// The answer keeps the cause to itself; the log must not, or an
	// operator cannot tell a database outage from a query it refused.
	service.LogFailure(r.Context(), s.log, code, err, cause, slog.String("route", r.Pattern))
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="verdict"`)
	}
	var limited *retryLater
	switch {
	case errors.As(err, &limited) && limited.retryAfter > 0:
		w.Header().Set("Retry-After", strconv.FormatInt(limited.retryAfter, 10))
	case status == http.StatusServiceUnavailable:
		// The server's own refusals (answers in flight, the database, the
		// authorizer) are for a moment.
		w.Header().Set("Retry-After", "1")
	}
	s.respond(w, r, status, s.errorBody(r, errorDetail{Code: code, Message: msg, Details: details}))
}

// errorBody is the body of an error response. On a GraphQL route's path,
// whatever the method, it has GraphQL's shape, `{"errors": [{"message",
// "extensions": {"code"}}]}`, so that a GraphQL client reads a missing
// key, a rate limit or a method not allowed as it reads any other error;
// the status stays the same.
func (s *server) errorBody(r *http.Request, e errorDetail) any {
	if !s.onGraphQL(r) {
		return errorBody{Error: e}
	}
	ext := map[string]any{"code": e.Code}
	if e.Details != nil {
		ext["details"] = e.Details
	}
	return graphQLErrors{Errors: []graphQLError{{Message: e.Message, Extensions: ext}}}
}

// onGraphQL reports whether r came to a GraphQL route, or to a GraphQL
// route's path by a method no route serves there.
func (s *server) onGraphQL(r *http.Request) bool {
	if s.graphQL[r.Pattern] {
		return true
	}
	for pattern := range s.graphQL {
		if _, path, _ := strings.Cut(pattern, " "); path == r.URL.Path {
			return true
		}
	}
	return false
}

type graphQLErrors struct {
	Errors []graphQLError `json:"errors"`
}

type graphQLError struct {
	Message    string         `json:"message"`
	Extensions map[string]any `json:"extensions"`
}

// fail answers with the error shape, for a status the code table does not
// decide (405).
func (s *server) fail(w http.ResponseWriter, r *http.Request, status int, code service.Code, msg string) {
	s.respond(w, r, status, s.errorBody(r, errorDetail{Code: code, Message: msg}))
}

// reply answers with err when there is one, else with v and status: the
// ending of a handler whose last step is the service's call.
func (s *server) reply(w http.ResponseWriter, r *http.Request, status int, v any, err error) {
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.respond(w, r, status, v)
}

// noContent answers 204 with no body, or with err when there is one.
func (s *server) noContent(w http.ResponseWriter, r *http.Request, err error) {
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// runBuffers hold encoded run results between requests: a stored run's
// answer is a few kilobytes, written on every run.
var runBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledRunBuffer keeps the buffers of unusually large answers out of
// the pool, so that one large result does not pin its memory.
const maxPooledRunBuffer = 64 << 10

// respondRun answers 200 with a run result, as respond would, encoded
// without reflection.
func (s *server) respondRun(w http.ResponseWriter, r *http.Request, res *service.RunResult) {
	buf := runBuffers.Get().(*[]byte)
	b, err := res.AppendJSON((*buf)[:0])
	if err != nil {
		s.respond(w, r, http.StatusOK, res)
	} else {
		b = append(b, '\n')
		writeOK(w, b)
	}
	if cap(b) <= maxPooledRunBuffer {
		*buf = b
		runBuffers.Put(buf)
	}
}

// The header values every JSON answer carries, one slice for all: header
// values are replaced (Set, Del), never changed in place.
var (
	jsonContentType = []string{"application/json"}
	noSniff         = []string{"nosniff"}
	noStore         = []string{"no-store"}
)

// writeOK answers 200 with body, a complete JSON document, headed as
// respond heads it.
func writeOK(w http.ResponseWriter, body []byte) {
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	h["X-Content-Type-Options"] = noSniff
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

// respond writes v as JSON. HTML characters stay as they are (a parse
// error's ` --> 1:5` must read as written); the body is encoded in full
// before anything is sent, so an encoding failure is still a clean 500.
func (s *server) respond(w http.ResponseWriter, r *http.Request, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		s.log.LogAttrs(r.Context(), slog.LevelError, "encoding a response", slog.String("route", r.Pattern), slog.Any("error", err))
		buf.Reset()
		buf.WriteString(`{"error":{"code":"internal","message":"internal error"}}` + "\n")
		status = http.StatusInternalServerError
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}
