package service

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/storage"
)

// event is one lifecycle audit event before it is stored (`executed`
// events go through the execution log, see recordExecution). Its actor is
// nil for the operator's changes.
type event struct {
	tenant  uuid.UUID
	action  auditevent.Action
	kind    auditevent.Kind
	base    *uuid.UUID
	record  *uuid.UUID
	group   *uuid.UUID
	actor   *Principal
	details map[string]any
}

// entity is the event as the store keeps it.
func (ev *event) entity(at time.Time) *ent.AuditEvent {
	kind, id := actorOf(ev.actor)
	return &ent.AuditEvent{
		OrganizationID: ev.tenant, At: at, Action: ev.action, Kind: ev.kind,
		BaseID: ev.base, RecordID: ev.record, GroupID: ev.group,
		ActorKind: kind, ActorID: id,
		Details: ev.details,
	}
}

// actorOf is how an event names who acted: the principal, or with none
// the operator.
func actorOf(p *Principal) (auditevent.ActorKind, uuid.UUID) {
	if p == nil {
		return auditevent.ActorKindOperator, OperatorID
	}
	return auditevent.ActorKind(p.ActorKind()), p.ActorID()
}

// appendEvents writes lifecycle events in the transaction of the change
// they describe: both are stored, or neither. They are timed as they are
// written, after the change's own statements have waited for the rows
// they lock: of two changes to one thing, the one committed first has the
// earlier time, and the log reads in the order the changes took effect.
func (s *Service) appendEvents(ctx context.Context, tx storage.Tx, evs ...event) error {
	at := s.timestamp()
	entities := make([]*ent.AuditEvent, len(evs))
	for i := range evs {
		entities[i] = evs[i].entity(at)
		entities[i].ID = s.eventIDs.At(at)
	}
	return tx.AppendEvents(ctx, entities...)
}
