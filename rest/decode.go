package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
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
	if err := checkObject(body, fieldsOf(reflect.TypeOf(v).Elem())); err != nil {
		return err
	}
	if err := json.Unmarshal(body, v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return invalid("%s must be %s, not %s", typeErr.Field, jsonType(typeErr.Type), describeValue(typeErr.Value))
		}
		return invalid("the request body is not valid: %v", err)
	}
	return nil
}

// readBody reads a JSON body in full: its Content-Type must allow JSON and
// its text be UTF-8; its shape is the caller's to check.
func (s *server) readBody(r *http.Request) ([]byte, error) {
	if err := checkContentType(r.Header.Get("Content-Type")); err != nil {
		return nil, err
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, s.tooLarge()
		}
		return nil, invalid("the request body could not be read")
	}
	if !utf8.Valid(body) {
		return nil, invalid("the request body is not valid UTF-8")
	}
	return body, nil
}

// checkContentType accepts no Content-Type at all, application/json and
// any +json type.
func checkContentType(ct string) error {
	if ct == "" {
		return nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json")) {
		return nil
	}
	return invalid("Content-Type must be application/json, not %q", ct)
}

// checkObject walks the top level of body: one object, known members, each
// once, nothing after it. encoding/json alone would match member names
// regardless of case, keep the last of duplicates and stop before
// trailing garbage.
func checkObject(body []byte, fields []string) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	tok, err := dec.Token()
	switch {
	case err == io.EOF:
		return invalid("the request body is empty; send a JSON object")
	case err != nil:
		return notJSON(err)
	case tok != json.Delim('{'):
		return invalid("the request body must be a JSON object, not %s", describeToken(tok))
	}
	seen := make(map[string]bool, len(fields))
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return notJSON(err)
		}
		name, _ := tok.(string)
		if !slices.Contains(fields, name) {
			return invalid("unknown field %q; the fields are %s", name, strings.Join(fields, ", "))
		}
		if seen[name] {
			return invalid("field %q appears more than once", name)
		}
		seen[name] = true
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return notJSON(err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return notJSON(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return invalid("the request body has more after its JSON object")
	}
	return nil
}

func notJSON(err error) error {
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax):
		return invalid("the request body is not valid JSON: %v (at byte %d)", err, syntax.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF), err == io.EOF:
		return invalid("the request body is not valid JSON: it ends too early")
	}
	return invalid("the request body is not valid JSON: %v", err)
}

func describeToken(tok json.Token) string {
	switch tok := tok.(type) {
	case json.Delim:
		if tok == '[' {
			return "an array"
		}
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprint(tok)
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
	return v
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

var fieldCache sync.Map // reflect.Type → []string

// fieldsOf lists the member names a request struct accepts, from its json
// tags.
func fieldsOf(t reflect.Type) []string {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]string)
	}
	var fields []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields = append(fields, name)
	}
	fieldCache.Store(t, fields)
	return fields
}
