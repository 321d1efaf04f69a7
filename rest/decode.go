package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/internal/bodies"
	"github.com/verdict/verdict/service"
)

// decodeBody decodes a request body strictly into the struct *v: the body
// must be one JSON object in UTF-8 whose members are exactly named by v's
// json tags (case matters, no member twice), with nothing after it.
// Required members and their values are for the caller to check.
func (s *server) decodeBody(r *http.Request, v any) error {
	body, err := s.readBody(r)
	if err != nil {
		return err
	}
	return decodeObject(body, reflect.ValueOf(v).Elem())
}

// decodeNoFields reads the body of a request whose path says everything:
// none, or an empty JSON object. A member would be ignored, so it is
// refused by name.
func (s *server) decodeNoFields(r *http.Request) error {
	body, err := s.readBody(r)
	if err != nil || skipSpace(body, 0) == len(body) {
		return err
	}
	var none struct{}
	return decodeObject(body, reflect.ValueOf(&none).Elem())
}

// readBody reads a JSON body in full: its Content-Type must allow JSON and
// its text be UTF-8; its shape is the caller's to check. The body is
// charged to the bound on bodies in flight before it is read (see
// bodies.Read); a bound without room refuses the request with 503, to be
// retried.
func (s *server) readBody(r *http.Request) ([]byte, error) {
	if err := checkContentType(r.Header.Get("Content-Type")); err != nil {
		return nil, err
	}
	body, err := bodies.Read(r.Context(), r.Body, r.ContentLength)
	if err != nil {
		return nil, s.unreadable(err)
	}
	if problem := bodies.TextProblem(body); problem != "" {
		return nil, invalid("%s", problem)
	}
	return body, nil
}

// unreadable is the refusal of a body bodies.Read could not read.
func (s *server) unreadable(err error) error {
	var tooBig *http.MaxBytesError
	var busy *bodies.Busy
	switch {
	case errors.As(err, &tooBig):
		return s.tooLarge()
	case errors.As(err, &busy):
		return &retryLater{retryAfter: retrySeconds(bodies.RetryAfter), err: failure(service.CodeUnavailable, "%s", busy.Error())}
	case errors.Is(err, bodies.ErrGone):
		return failure(service.CodeUnavailable, "%s", err.Error())
	}
	return invalid("the request body could not be read")
}

// checkContentType accepts no Content-Type at all, application/json and
// any +json type, in UTF-8: a body is read as UTF-8 whatever a charset
// says, so another charset is refused rather than misread.
func checkContentType(ct string) error {
	if ct == "" || ct == "application/json" {
		return nil
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" && !strings.HasSuffix(mt, "+json") {
		return invalid("Content-Type must be application/json, not %q", engine.Quoted(ct))
	}
	if charset, ok := params["charset"]; ok && !strings.EqualFold(charset, "utf-8") {
		return invalid("Content-Type must be JSON in UTF-8, not in charset %q", engine.Quoted(charset))
	}
	return nil
}

// decodeObject decodes the JSON object body into the struct v, scanning
// the body once to check it and once more to split it into members: each
// member's value is decoded on its own, and one of a json.RawMessage field
// is kept as the body's own bytes rather than decoded at all.
// encoding/json alone would match member names regardless of case, keep
// the last of duplicates and stop before trailing garbage.
func decodeObject(body []byte, v reflect.Value) error {
	start := skipSpace(body, 0)
	if start == len(body) {
		return invalid("the request body is empty; send a JSON object")
	}
	if !json.Valid(body) {
		return notJSONObject(body)
	}
	if body[start] != '{' {
		return invalid("the request body must be a JSON object, not %s", describeStart(body[start]))
	}
	fields := fieldsOf(v.Type())
	seen := make([]bool, len(fields.list))
	for i := skipSpace(body, start+1); body[i] != '}'; {
		nameEnd := skipValue(body, i)
		name, err := memberName(body[i:nameEnd])
		if err != nil {
			return notJSON(err)
		}
		k := slices.IndexFunc(fields.list, func(f field) bool { return f.name == name })
		if k < 0 && len(fields.names) == 0 {
			return &unknownFieldError{name: name, err: invalid("unknown field %q; this request takes no fields", engine.Quoted(name))}
		}
		if k < 0 {
			return &unknownFieldError{name: name,
				err: invalid("unknown field %q%s; the fields are %s", engine.Quoted(name), didYouMean(name, fields.names), strings.Join(fields.names, ", "))}
		}
		if seen[k] {
			return invalid("field %q appears more than once", engine.Quoted(name))
		}
		seen[k] = true
		// The body is valid JSON: a colon follows the name, and a comma or
		// the closing brace the value.
		i = skipSpace(body, skipSpace(body, nameEnd)+1)
		end := skipValue(body, i)
		if err := fields.list[k].set(v, body[i:end]); err != nil {
			return err
		}
		if i = skipSpace(body, end); body[i] == ',' {
			i = skipSpace(body, i+1)
		}
	}
	return nil
}

// unknownFieldError refuses a body for a member its type does not have;
// name lets a route say where that member is taken instead.
type unknownFieldError struct {
	name string
	err  *service.Error
}

func (e *unknownFieldError) Error() string { return e.err.Error() }
func (e *unknownFieldError) Unwrap() error { return e.err }

// withHint adds hint to the refusal of an unknown member when is says it
// is the member's hint to give; any other error is left as it is.
func withHint(err error, is func(name string) bool, hint string) error {
	var unknown *unknownFieldError
	if errors.As(err, &unknown) && is(unknown.name) {
		return invalid("%s; %s", unknown.err.Message, hint)
	}
	return err
}

// notJSONObject says what is wrong with a body that is not valid JSON:
// its first value, else what follows it.
func notJSONObject(body []byte) error {
	var first json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&first); err != nil {
		return notJSON(err)
	}
	if first[0] != '{' {
		return invalid("the request body must be a JSON object, not %s", describeStart(first[0]))
	}
	return invalid("the request body has more after its JSON object")
}

// memberName reads a member name, the JSON string quoted.
func memberName(quoted []byte) (string, error) {
	if bytes.IndexByte(quoted, '\\') < 0 {
		return string(quoted[1 : len(quoted)-1]), nil
	}
	var name string
	err := json.Unmarshal(quoted, &name)
	return name, err
}

// soleMember is where the value of the body's member name starts, when the
// body opens as {"name": with nothing but spaces between; the caller
// follows the value and checks with closesBody that the member is the
// only one.
func soleMember(body []byte, name string) (int, bool) {
	i := skipSpace(body, 0)
	if i == len(body) || body[i] != '{' {
		return 0, false
	}
	i = skipSpace(body, i+1)
	if len(body)-i < len(name)+2 || body[i] != '"' || string(body[i+1:i+1+len(name)]) != name || body[i+1+len(name)] != '"' {
		return 0, false
	}
	i = skipSpace(body, i+len(name)+2)
	if i == len(body) || body[i] != ':' {
		return 0, false
	}
	i = skipSpace(body, i+1)
	return i, i < len(body)
}

// closesBody reports whether the body ends at i with the closing brace of
// its object and spaces.
func closesBody(body []byte, i int) bool {
	i = skipSpace(body, i)
	return i < len(body) && body[i] == '}' && skipSpace(body, i+1) == len(body)
}

// objectEnd is where the object starting at body[i] ends, following only
// strings and nesting; false when the body ends first.
func objectEnd(body []byte, i int) (int, bool) {
	depth := 0
	for ; i < len(body); i++ {
		switch body[i] {
		case '"':
			for i++; i < len(body) && body[i] != '"'; i++ {
				if body[i] == '\\' {
					i++
				}
			}
			if i >= len(body) {
				return 0, false
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1, true
			}
		}
	}
	return 0, false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue is where the value starting at b[i] ends, in JSON that is
// known to be valid: only strings and nesting need following.
func skipValue(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
			if depth < 0 {
				return i
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
		}
	}
	return i
}

// notJSON is the 400 of a request body that JSON decoding refused with err.
func notJSON(err error) error {
	return service.InvalidJSON("the request body", err)
}

// describeStart names the JSON type of a valid value by its first byte.
func describeStart(c byte) string {
	switch c {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// describeValue turns encoding/json's description of a value that did not
// fit ("number", "bool", "number 1e400") into words.
func describeValue(v string) string {
	switch v {
	case "string", "number":
		return "a " + v
	case "bool":
		return "a boolean"
	case "array", "object":
		return "an " + v
	}
	return engine.Quoted(v)
}

// jsonType names the JSON type a Go type decodes from.
func jsonType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a JSON value"
}

// field is a member a request struct accepts: its name, where its field
// is, and whether the field takes the member's text as it is.
type field struct {
	name  string
	index []int
	raw   bool
}

// set decodes the member's value into its field of the struct v.
func (f field) set(v reflect.Value, value []byte) error {
	dst := v.FieldByIndex(f.index)
	if f.raw {
		// Capped at its end, so that appending to the field never writes
		// over the rest of the body.
		dst.SetBytes(value[:len(value):len(value)])
		return nil
	}
	if err := json.Unmarshal(value, dst.Addr().Interface()); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			name := f.name
			if typeErr.Field != "" {
				name += "." + typeErr.Field
			}
			want := jsonType(typeErr.Type)
			// A number that does not fit: encoding/json names it whole.
			if n, ok := strings.CutPrefix(typeErr.Value, "number "); ok {
				if want == "a number" {
					return invalid("%s is the number %s, larger than any number it may be (about 1.8e308)", name, n)
				}
				return invalid("%s must be %s, not %s", name, want, n)
			}
			return invalid("%s must be %s, not %s", name, want, describeValue(typeErr.Value))
		}
		return invalid("the request body is not valid: %v", err)
	}
	return nil
}

// fields are the members a request struct accepts, and their names.
type fields struct {
	list  []field
	names []string
}

var fieldCache sync.Map // reflect.Type → *fields

var rawMessage = reflect.TypeFor[json.RawMessage]()

// fieldsOf lists the members a request struct accepts, from its json tags.
// The fields of an embedded struct without a tag are its own, as
// encoding/json has them.
func fieldsOf(t reflect.Type) *fields {
	if f, ok := fieldCache.Load(t); ok {
		return f.(*fields)
	}
	fs := &fields{list: appendFields(nil, t, nil)}
	fs.names = make([]string, len(fs.list))
	for i, f := range fs.list {
		fs.names[i] = f.name
	}
	fieldCache.Store(t, fs)
	return fs
}

func appendFields(list []field, t reflect.Type, index []int) []field {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		at := append(slices.Clip(index), i)
		switch {
		case tag == "-":
		case f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct:
			list = appendFields(list, f.Type, at)
		case f.IsExported():
			if tag == "" {
				tag = f.Name
			}
			list = append(list, field{name: tag, index: at, raw: f.Type == rawMessage})
		}
	}
	return list
}
