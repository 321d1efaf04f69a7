package model

import (
	"github.com/google/uuid"

	"github.com/verdict/verdict/service"
)

// UpdateGroupInput is a group and the changes to make to it.
type UpdateGroupInput struct {
	ID uuid.UUID
	service.GroupChanges
}
