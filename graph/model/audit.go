package model

import (
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/service"
)

// Actor kinds, as the service writes them in service.Actor.
const (
	ActorUser = string(auditevent.ActorKindUser)
	ActorKey  = string(auditevent.ActorKindKey)
)

// AuditFilter is the auditEvents filter; nil fields do not filter.
type AuditFilter struct {
	Action *service.AuditAction
	Kind   *service.AuditKind
	BaseID *uuid.UUID
	Actor  *uuid.UUID
	Since  *time.Time
	Until  *time.Time
}

// Filter is the service's form of the filter; a nil filter filters
// nothing.
func (f *AuditFilter) Filter() service.AuditFilter {
	var out service.AuditFilter
	if f == nil {
		return out
	}
	if f.Action != nil {
		out.Action = *f.Action
	}
	if f.Kind != nil {
		out.Kind = *f.Kind
	}
	out.BaseID, out.Actor, out.Since, out.Until = f.BaseID, f.Actor, f.Since, f.Until
	return out
}
