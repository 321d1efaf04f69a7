package model

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/verdict/verdict/service"
)

func TestAnIDIsAUUIDInItsCanonicalFormOnly(t *testing.T) {
	const id = "0192f0c1-7a2b-7c3d-8e4f-5a6b7c8d9e0f"
	if got, err := UnmarshalUUID(id); err != nil || got.String() != id {
		t.Errorf("UnmarshalUUID(%q) = %v, %v", id, got, err)
	}
	for _, s := range []string{"{" + id + "}", "urn:uuid:" + id, "0192f0c17a2b7c3d8e4f5a6b7c8d9e0f", "senior", ""} {
		_, err := UnmarshalUUID(s)
		var e *service.Error
		if !errors.As(err, &e) || e.Code != service.CodeInvalidArgument {
			t.Errorf("UnmarshalUUID(%q): %v, want invalid_argument", s, err)
		}
	}
}

// The scalars' refusals name what was sent in JSON's terms, not in Go's.
func TestScalarRefusalsNameJSONTypes(t *testing.T) {
	for name, err := range map[string]error{
		"an id must be a string, not the number 123":                               second(UnmarshalUUID(int64(123))),
		"an id must be a string, not an object":                                    second(UnmarshalUUID(map[string]any{})),
		"a time must be an RFC 3339 string, not the number 12345":                  second(UnmarshalTime(json.Number("12345"))),
		"a duration must be a string of decimal nanoseconds, not the boolean true": second(UnmarshalNanos(true)),
	} {
		var e *service.Error
		if !errors.As(err, &e) || e.Message != name {
			t.Errorf("%v, want %q", err, name)
		}
	}
}

func second[T any](_ T, err error) error { return err }
