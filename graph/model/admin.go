package model

import (
	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/service"
)

// AddMemberInput is a user to add to the organization.
type AddMemberInput struct {
	Email string
	Name  *string
	Role  authz.Role
}

// MemberInput is the service's form of the input.
func (in *AddMemberInput) MemberInput() service.MemberInput {
	out := service.MemberInput{Email: in.Email, Role: in.Role}
	if in.Name != nil {
		out.Name = *in.Name
	}
	return out
}
