package service

import (
	"github.com/google/uuid"

	"github.com/verdict/verdict/engine"
)

// ParseID reads an id given as name (a path segment, a query parameter, a
// member, a GraphQL ID). Only the canonical form of a UUID is one:
// uuid.Parse takes braces, URNs and bare hex too, and one resource should
// have one spelling wherever it is named.
func ParseID(name, s string) (uuid.UUID, error) {
	id, err := uuid.Parse(s)
	if err != nil || len(s) != len("xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx") {
		return uuid.Nil, Invalid("%s %q is not a valid id", name, engine.Quoted(s))
	}
	return id, nil
}
