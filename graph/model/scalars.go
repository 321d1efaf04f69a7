package model

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/service"
)

// MarshalJSON writes a value of the JSON scalar. gqlgen finds scalar
// marshalers by name (Marshal<Scalar>); this is not a json.Marshaler.
func MarshalJSON(v any) graphql.ContextMarshaler {
	return graphql.ContextWriterFunc(func(_ context.Context, w io.Writer) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
}

// UnmarshalJSON reads a value of the JSON scalar: whatever the request
// holds, as decoded from its variables or literal.
func UnmarshalJSON(_ context.Context, v any) (any, error) {
	return emptyLists(v), nil
}

// emptyLists gives back the empty lists of a literal: the GraphQL parser
// decodes a literal's [] as a nil slice, which would encode as null, at
// any depth. A variable, decoded as JSON, holds none, and is not written
// to: fields that run at once may read the same one.
func emptyLists(v any) any {
	if isNilList(v) {
		return []any{}
	}
	switch v := v.(type) {
	case []any:
		for i, x := range v {
			if isNilList(x) {
				v[i] = []any{}
			} else {
				emptyLists(x)
			}
		}
	case map[string]any:
		for k, x := range v {
			if isNilList(x) {
				v[k] = []any{}
			} else {
				emptyLists(x)
			}
		}
	}
	return v
}

func isNilList(v any) bool {
	l, ok := v.([]any)
	return ok && l == nil
}

// MarshalRawJSON writes a value of the JSON scalar held as JSON text, as
// the service holds what it stores. Encoding it again checks and compacts
// it, as the REST API's encoding does; empty text is null.
func MarshalRawJSON(raw json.RawMessage) graphql.ContextMarshaler {
	return MarshalJSON(raw)
}

// UnmarshalRawJSON reads a value of the JSON scalar as JSON text.
func UnmarshalRawJSON(_ context.Context, v any) (json.RawMessage, error) {
	return JSONText("the value", emptyLists(v))
}

// JSONText writes a JSON argument, named what, as the service takes it:
// as JSON text, which the service then checks as it checks REST's.
func JSONText(what string, v any) (json.RawMessage, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, service.Invalid("%s is not JSON: %v", what, err)
	}
	return raw, nil
}

// MarshalNanos writes a duration as the REST API does: a String of decimal
// nanoseconds.
func MarshalNanos(n service.Nanos) graphql.Marshaler {
	return graphql.MarshalString(strconv.FormatInt(int64(n), 10))
}

// UnmarshalNanos reads a String of decimal nanoseconds.
func UnmarshalNanos(v any) (service.Nanos, error) {
	s, ok := v.(string)
	if !ok {
		return 0, service.Invalid("a duration must be a string of decimal nanoseconds, not %s", Describe(v))
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, service.Invalid("%q is not a number of nanoseconds", engine.Quoted(s))
	}
	return service.Nanos(n), nil
}

// MarshalUUID writes a UUID as an ID.
func MarshalUUID(id uuid.UUID) graphql.Marshaler {
	return graphql.MarshalString(id.String())
}

// UnmarshalUUID reads an ID that must be a UUID; anything else is the
// caller's mistake (invalid_argument), not the server's.
func UnmarshalUUID(v any) (uuid.UUID, error) {
	s, ok := v.(string)
	if !ok {
		return uuid.Nil, service.Invalid("an id must be a string, not %s", Describe(v))
	}
	return service.ParseID("id", s)
}

// MarshalTime writes an instant as the REST API does: RFC 3339 with
// fractional seconds where they are not zero.
func MarshalTime(t time.Time) graphql.Marshaler {
	return graphql.MarshalString(t.Format(time.RFC3339Nano))
}

// UnmarshalTime reads an RFC 3339 instant; anything else is the caller's
// mistake (invalid_argument).
func UnmarshalTime(v any) (time.Time, error) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, service.Invalid("a time must be an RFC 3339 string, not %s", Describe(v))
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, service.Invalid("%q is not an RFC 3339 time", engine.Quoted(s))
	}
	return t, nil
}

// JSONTexts writes each value of a list argument, named what, as JSONText
// does.
func JSONTexts(what string, vs []any) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(vs))
	for i, v := range vs {
		raw, err := JSONText(fmt.Sprintf("%s[%d]", what, i), v)
		if err != nil {
			return nil, err
		}
		out[i] = raw
	}
	return out, nil
}

// JSONValues lists values for a list of the JSON scalar.
func JSONValues[T any](vs []T) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}
