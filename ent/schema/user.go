package schema

import (
	"errors"
	"strings"

	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
)

// User is a person; the organizations they act in come from memberships.
type User struct {
	ent.Schema
}

// A user's id is random: an organization adding a member by email is
// answered the user's id, which must not tell when, or whether, that
// person signed up anywhere before.
func (User) Mixin() []ent.Mixin {
	return []ent.Mixin{entity{randomID: true}}
}

func (User) Fields() []ent.Field {
	return []ent.Field{
		// The unique index compares bytes, so only a lower-cased email makes
		// "Ann@X.test" and "ann@x.test" the same user. Callers lower-case; the
		// validator refuses anything else rather than silently rewriting it.
		field.String("email").NotEmpty().Unique().Validate(lowerCase),
		field.String("name").Default(""),
	}
}

func (User) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("memberships", Membership.Type),
		edge.To("api_keys", APIKey.Type),
	}
}

func lowerCase(s string) error {
	if s != strings.ToLower(s) {
		return errors.New("email must be lower-cased")
	}
	return nil
}
