package service

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/auditevent"
)

// event is one audit event before it is stored.
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

// executionLog stores `executed` events off the request path. Runs hand
// their events to a buffer that a single writer flushes in batches, every
// few milliseconds or when a batch is full. A full buffer makes runs wait
// rather than drop events, and Close flushes what is left, so a graceful
// shutdown loses nothing; a crash can lose the events of the last flush
// interval, which is the price of not adding a database write to every run.
type executionLog struct {
	client   *ent.Client
	log      *slog.Logger
	events   chan event
	done     chan struct{}
	closeOne sync.Once
}

const (
	executionBuffer   = 8192
	executionBatch    = 256
	executionInterval = 5 * time.Millisecond
)

func newExecutionLog(client *ent.Client, log *slog.Logger) *executionLog {
	l := &executionLog{client: client, log: log, events: make(chan event, executionBuffer), done: make(chan struct{})}
	go l.run()
	return l
}

func (l *executionLog) add(ev event) { l.events <- ev }

func (l *executionLog) run() {
	defer close(l.done)
	batch := make([]event, 0, executionBatch)
	// The timer runs only while a batch waits, so that an idle service
	// does not wake every interval; due is nil while it is stopped.
	timer := time.NewTimer(executionInterval)
	timer.Stop()
	defer timer.Stop()
	var due <-chan time.Time
	for {
		select {
		case ev, ok := <-l.events:
			if !ok {
				l.flush(batch)
				return
			}
			batch = append(batch, ev)
			switch {
			case len(batch) == executionBatch:
				batch = l.flush(batch)
				timer.Stop()
				due = nil
			case due == nil:
				timer.Reset(executionInterval)
				due = timer.C
			}
		case <-due:
			due = nil
			batch = l.flush(batch)
		}
	}
}

func (l *executionLog) flush(batch []event) []event {
	if len(batch) == 0 {
		return batch
	}
	builders := make([]*ent.AuditEventCreate, len(batch))
	for i := range batch {
		builders[i] = batch[i].create(l.client.AuditEvent)
	}
	// A failed batch is retried once, then logged event by event so that
	// nothing disappears silently.
	err := l.store(builders)
	if err != nil {
		err = l.store(builders)
	}
	if err != nil {
		for _, ev := range batch {
			l.log.Error("audit event lost", "error", err, "tenant", ev.tenant, "action", ev.action,
				"base", ev.base, "record", ev.record, "actor", ev.actor.ActorID(), "at", ev.at)
		}
	}
	return batch[:0]
}

// store writes one batch, with a time limit of its own: a retry does not
// inherit the time a failed attempt used up.
func (l *executionLog) store(builders []*ent.AuditEventCreate) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return l.client.AuditEvent.CreateBulk(builders...).Exec(ctx)
}

// close stops accepting events and waits until every buffered one is stored.
func (l *executionLog) close() {
	l.closeOne.Do(func() { close(l.events) })
	<-l.done
}
