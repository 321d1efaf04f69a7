package service

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/auditevent"
)

// event is one audit event before it is stored.
type event struct {
	// id is given to `executed` events when they are queued, so that a
	// batch stored twice (a retry after an attempt that committed but
	// reported a failure) is still stored once; lifecycle events get
	// theirs from ent.
	id      uuid.UUID
	tenant  uuid.UUID
	at      time.Time
	action  auditevent.Action
	kind    auditevent.Kind
	base    *uuid.UUID
	record  *uuid.UUID
	group   *uuid.UUID
	actor   *Principal
	details map[string]any
	// decision is the run's decision record, stored with the event when
	// the base records its runs; nil otherwise.
	decision *decisionRow
	// stored, when set, receives whether the event was stored: a durable
	// run waits for it.
	stored chan bool
}

func (ev *event) create(c *ent.AuditEventClient) *ent.AuditEventCreate {
	return c.Create().
		SetOrganizationID(ev.tenant).
		SetAt(ev.at).
		SetAction(ev.action).
		SetKind(ev.kind).
		SetNillableBaseID(ev.base).
		SetNillableRecordID(ev.record).
		SetNillableGroupID(ev.group).
		SetActorKind(auditevent.ActorKind(ev.actor.ActorKind())).
		SetActorID(ev.actor.ActorID()).
		SetDetails(ev.details)
}

// recordInTx writes a lifecycle event in the transaction of the change it
// describes: both are stored, or neither.
func recordInTx(ctx context.Context, tx *ent.Tx, ev event) error {
	return ev.create(tx.AuditEvent).Exec(ctx)
}
