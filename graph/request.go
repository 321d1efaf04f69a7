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
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/internal/bodies"
	"github.com/verdict/verdict/service"
)

// allowedMethods are the methods GraphQL is served by.
const allowedMethods = "GET, HEAD, POST"

// readRequest reads what gqlgen's transports read of a request, and
// refuses what they would refuse without the API's error shape and code
// (or would misread): an upgrade, a method they do not serve, a POST of another
// Content-Type than JSON, a body over the router's limit, a body or a
// query string that holds no operation they can read. HEAD answers what
// GET would, without the body (net/http drops it): gqlgen serves GET
// only.
func readRequest(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// gqlgen serves no transport that upgrades (websockets, for
		// subscriptions, which the schema has none of), and would refuse
		// the request without a code.
		if upgrade := r.Header.Get("Upgrade"); upgrade != "" {
			writeError(w, http.StatusBadRequest, service.CodeInvalidArgument,
				fmt.Sprintf("/graphql does not upgrade connections (Upgrade: %s): it serves no subscriptions; send each operation by POST or GET",
					engine.Quoted(upgrade)))
			return
		}
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
				fmt.Sprintf("%s is not allowed on %s; allowed: %s", engine.Quoted(r.Method), r.URL.Path, allowedMethods))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// readBody reads a POST's body of JSON before gqlgen does, or answers why
// gqlgen could not read it: a body over the limit the router set
// (http.MaxBytesReader) is payload_too_large, which gqlgen would report
// as a request it cannot read; a body the router's bound on bodies in
// flight has no room for is unavailable, with Retry-After, as REST
// answers it.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	invalid := func(msg string) ([]byte, bool) {
		writeError(w, http.StatusBadRequest, service.CodeInvalidArgument, msg)
		return nil, false
	}
	ct := r.Header.Get("Content-Type")
	mediaType, params, err := mime.ParseMediaType(ct)
	if err != nil || mediaType != "application/json" {
		if ct == "" {
			return invalid("Content-Type must be application/json; the request has none")
		}
		return invalid(fmt.Sprintf("Content-Type must be application/json, not %q", engine.Quoted(ct)))
	}
	// The body is read as UTF-8 whatever the header says: another charset
	// would be misread, not converted.
	if charset, ok := params["charset"]; ok && !strings.EqualFold(charset, "utf-8") {
		return invalid(fmt.Sprintf("Content-Type must be JSON in UTF-8, not in charset %q", engine.Quoted(charset)))
	}
	// Behind the router, the body is charged to the bound on bodies in
	// flight that REST's bodies are charged to, until the request ends.
	body, err := bodies.Read(r.Context(), r.Body, r.ContentLength)
	var tooLarge *http.MaxBytesError
	var busy *bodies.Busy
	switch {
	case errors.As(err, &tooLarge):
		writeError(w, http.StatusRequestEntityTooLarge, service.CodePayloadTooLarge,
			fmt.Sprintf("the request body is larger than the limit of %d bytes", tooLarge.Limit))
		return nil, false
	case errors.As(err, &busy):
		w.Header().Set("Retry-After", strconv.Itoa(int(bodies.RetryAfter/time.Second)))
		writeError(w, http.StatusServiceUnavailable, service.CodeUnavailable, busy.Error())
		return nil, false
	case errors.Is(err, bodies.ErrGone):
		writeError(w, http.StatusServiceUnavailable, service.CodeUnavailable, err.Error())
		return nil, false
	case err != nil:
		return invalid("the request body could not be read")
	}
	if problem := bodies.TextProblem(body); problem != "" {
		return invalid(problem)
	}
	if problem := envelopeProblem(body); problem != "" {
		return invalid(problem)
	}
	return body, true
}

// envelopeMembers are the members of a POST body, and the first byte of
// the JSON type each takes (null aside).
var envelopeMembers = []struct {
	name string
	kind byte
}{{"query", '"'}, {"operationName", '"'}, {"variables", '{'}, {"extensions", '{'}}

// envelopeProblem says in plain words why a POST body is not one JSON
// object of the members gqlgen reads, each once and of its type, as REST
// reads its bodies: gqlgen's own message names Go types and quotes the
// whole body back, up to the body's limit, and gqlgen reads members
// regardless of case, keeps the last of duplicates, and ignores unknown
// members and whatever follows the object.
func envelopeProblem(body []byte) string {
	dec := json.NewDecoder(bytes.NewReader(body))
	var object json.RawMessage
	if err := dec.Decode(&object); err != nil {
		return service.InvalidJSON("the request body", err).Message
	}
	if object[0] != '{' {
		return `the request body must be a JSON object: {"query": "...", "operationName": "...", "variables": {...}}`
	}
	if _, err := dec.Token(); err != io.EOF {
		return "the request body has more after its JSON object"
	}
	names := make([]string, len(envelopeMembers))
	for i, m := range envelopeMembers {
		names[i] = m.name
	}
	// The object is valid JSON: reading its members cannot fail.
	members := json.NewDecoder(bytes.NewReader(object))
	members.Token()
	seen := map[string]bool{}
	for members.More() {
		t, _ := members.Token()
		name := t.(string)
		var value json.RawMessage
		members.Decode(&value)
		k := slices.Index(names, name)
		switch {
		case k < 0:
			hint := ""
			if i := slices.IndexFunc(names, func(n string) bool { return strings.EqualFold(n, name) }); i >= 0 {
				hint = fmt.Sprintf(" (did you mean %q?)", names[i])
			}
			return fmt.Sprintf("unknown field %q%s; the fields are %s", engine.Quoted(name), hint, strings.Join(names, ", "))
		case seen[name]:
			return fmt.Sprintf("field %q appears more than once", engine.Quoted(name))
		case string(value) != "null" && value[0] != envelopeMembers[k].kind:
			if envelopeMembers[k].kind == '"' {
				return name + " must be a string"
			}
			return name + " must be a JSON object"
		}
		seen[name] = true
	}
	return ""
}

// queryProblem says what is wrong with the query string of a GET that
// gqlgen would refuse without a code, or misread: a parameter given more
// than once (gqlgen reads the first), one that is not UTF-8 (the JSON of
// variables would read its bytes as U+FFFD, and run on other text than
// was sent), variables or extensions that are not JSON objects.
func queryProblem(raw string) string {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return fmt.Sprintf("the query string does not decode: %v", err)
	}
	for _, m := range envelopeMembers {
		if n := len(q[m.name]); n > 1 {
			return fmt.Sprintf("%s is given %d times; give it once", m.name, n)
		}
		if !utf8.ValidString(q.Get(m.name)) {
			return m.name + " is not valid UTF-8"
		}
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
