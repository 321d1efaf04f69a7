package model

import (
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
