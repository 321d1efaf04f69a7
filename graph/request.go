package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"

	"github.com/verdict/verdict/service"
)

// allowedMethods are the methods GraphQL is served by.
const allowedMethods = "GET, HEAD, POST"

// readRequest reads what gqlgen's transports read of a request, and
// refuses what they would refuse without the API's error shape and code
// (or would misread): a method they do not serve, a POST of another
// Content-Type than JSON, a body over the router's limit, a body or a
// query string that holds no operation they can read. HEAD answers what
// GET would, without the body (net/http drops it): gqlgen serves GET
// only.
func readRequest(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			if problem := queryProblem(r.URL.RawQuery); problem != "" {
				writeError(w, http.StatusBadRequest, service.CodeInvalidArgument, problem)
				return
			}
			if r.Method == http.MethodHead {
				r = r.WithContext(r.Context())
				r.Method = http.MethodGet
			}
		case http.MethodPost:
			body, ok := readBody(w, r)
			if !ok {
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		default:
			w.Header().Set("Allow", allowedMethods)
			writeError(w, http.StatusMethodNotAllowed, service.CodeInvalidArgument,
				fmt.Sprintf("%s is not allowed on %s; allowed: %s", r.Method, r.URL.Path, allowedMethods))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// readBody reads a POST's body of JSON before gqlgen does, or answers why
// gqlgen could not read it: a body over the limit the router set
// (http.MaxBytesReader) is payload_too_large, which gqlgen would report
// as a request it cannot read.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	invalid := func(msg string) ([]byte, bool) {
		writeError(w, http.StatusBadRequest, service.CodeInvalidArgument, msg)
		return nil, false
	}
	ct := r.Header.Get("Content-Type")
	if mediaType, _, err := mime.ParseMediaType(ct); err != nil || mediaType != "application/json" {
		if ct == "" {
			return invalid("Content-Type must be application/json; the request has none")
		}
		return invalid(fmt.Sprintf("Content-Type must be application/json, not %q", ct))
	}
	body, err := io.ReadAll(r.Body)
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		writeError(w, http.StatusRequestEntityTooLarge, service.CodePayloadTooLarge,
			fmt.Sprintf("the request body is larger than the limit of %d bytes", tooLarge.Limit))
		return nil, false
	}
	if err != nil {
		return invalid("the request body could not be read")
	}
	if problem := envelopeProblem(body); problem != "" {
		return invalid(problem)
	}
	return body, true
}

// envelopeProblem says in plain words why gqlgen could not decode a POST
// body of JSON into an operation, as it would: gqlgen's own message names
// Go types and quotes the whole body back, up to the body's limit.
func envelopeProblem(body []byte) string {
	var envelope struct {
		Query, OperationName, Variables, Extensions json.RawMessage
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	var syntax *json.SyntaxError
	switch err := dec.Decode(&envelope); {
	case errors.As(err, &syntax) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return service.InvalidJSON("the request body", err).Message
	case err != nil:
		return `the request body must be a JSON object: {"query": "...", "operationName": "...", "variables": {...}}`
	}
	for _, m := range [...]struct {
		name string
		raw  json.RawMessage
		kind byte
	}{{"query", envelope.Query, '"'}, {"operationName", envelope.OperationName, '"'}, {"variables", envelope.Variables, '{'}, {"extensions", envelope.Extensions, '{'}} {
		if len(m.raw) > 0 && string(m.raw) != "null" && m.raw[0] != m.kind {
			if m.kind == '"' {
				return m.name + " must be a string"
			}
			return m.name + " must be a JSON object"
		}
	}
	return ""
}

// queryProblem says what is wrong with the query string of a GET that
// gqlgen would refuse without a code: variables or extensions that are
// not JSON objects.
func queryProblem(raw string) string {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return fmt.Sprintf("the query string does not decode: %v", err)
	}
	for _, name := range []string{"variables", "extensions"} {
		v := q.Get(name)
		if v == "" {
			continue
		}
		var value json.RawMessage
		if err := json.Unmarshal([]byte(v), &value); err != nil {
			return service.InvalidJSON(name, err).Message
		}
		if value[0] != '{' && string(value) != "null" {
			return name + " must be a JSON object"
		}
	}
	return ""
}
