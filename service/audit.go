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
// events go through the execution log, see recordExecution).
type event struct {
	tenant  uuid.UUID
	at      time.Time
	action  auditevent.Action
	kind    auditevent.Kind
	base    *uuid.UUID
	record  *uuid.UUID
	group   *uuid.UUID
	actor   *Principal
	details map[string]any
}

// entity is the event as the store keeps it.
func (ev *event) entity() *ent.AuditEvent {
	return &ent.AuditEvent{
		OrganizationID: ev.tenant, At: ev.at, Action: ev.action, Kind: ev.kind,
		BaseID: ev.base, RecordID: ev.record, GroupID: ev.group,
		ActorKind: auditevent.ActorKind(ev.actor.ActorKind()), ActorID: ev.actor.ActorID(),
		Details: ev.details,
	}
}

// appendEvents writes lifecycle events in the transaction of the change
// they describe: both are stored, or neither.
func appendEvents(ctx context.Context, tx storage.Tx, evs ...event) error {
	entities := make([]*ent.AuditEvent, len(evs))
	for i := range evs {
		entities[i] = evs[i].entity()
	}
	return tx.AppendEvents(ctx, entities...)
}
