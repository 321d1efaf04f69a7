// Package storage is the service's data access: the queries, the
// transactions, the tenant-scoped finders and the locks, behind the
// interfaces the service consumes. New backs them with a database (ent, on
// SQLite or PostgreSQL); the service's business-rule tests back them with
// memory.
//
// What is read and written are ent's entity structs (ent.Base,
// ent.Record, ...): plain values that any implementation can build.
package storage

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/database/changefeed"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/base"
)

var (
	// ErrNotFound is what a finder returns for an id it does not hold (in
	// the tenant it was asked about, when it is tenant-scoped).
	ErrNotFound = errors.New("storage: not found")
	// ErrConflict is a write refused because what it would store exists
	// already (a unique constraint).
	ErrConflict = errors.New("storage: conflict")
)

// Store is the database of the service.
type Store interface {
	Lifecycle
	// InTx runs fn in one transaction: committed when fn returns nil,
	// rolled back when it returns an error (returned as it is) or panics.
	InTx(ctx context.Context, fn func(Tx) error) error
}

// Tx is one transaction: the reads, and the writes of every area.
type Tx interface {
	Lifecycle
	LifecycleWrites
	// Announce has c delivered to every instance listening on the
	// database (changefeed) once the transaction commits, never if it
	// rolls back.
	Announce(ctx context.Context, c changefeed.Change) error
	// OnCommit runs fn once the transaction's commit was tried, whether
	// it succeeded or not: a commit that failed may have happened all the
	// same.
	OnCommit(fn func())
	// AppendEvents stores lifecycle audit events with the change they
	// describe: both are stored, or neither. Events are never changed.
	AppendEvents(ctx context.Context, evs ...*ent.AuditEvent) error
}

// Window is the part of a list ordered by id, newest first, that one page
// reads: up to Limit rows whose ids are below After (nil: from the
// newest). Count asks for the number of rows of the whole list too.
type Window struct {
	After *uuid.UUID
	Limit int
	Count bool
}

// Lifecycle finds policy and flow bases and their records.
type Lifecycle interface {
	// Base is the base with id, of any tenant: its callers check the
	// tenant (see service's reach), since the run cache keeps bases by id.
	Base(ctx context.Context, id uuid.UUID) (*ent.Base, error)
	// Record is the record with id, of any tenant, like Base.
	Record(ctx context.Context, id uuid.UUID) (*ent.Record, error)
	// Records are a base's records by version, the draft first, then id.
	Records(ctx context.Context, baseID uuid.UUID) ([]*ent.Record, error)
	// Bases lists the bases f selects, newest first, with their number
	// when w asks for it.
	Bases(ctx context.Context, f BaseFilter, w Window) ([]*ent.Base, *int, error)
}

// BaseFilter selects the live bases of a kind in a tenant that a list
// shows: those the organization owns, and those of OwnedBy (uuid.Nil:
// none) that were never published; with Name, those whose name contains
// it (ignoring case); with Group, those in that group.
type BaseFilter struct {
	Tenant  uuid.UUID
	Kind    base.Kind
	OwnedBy uuid.UUID
	Name    string
	Group   *uuid.UUID
}

// LifecycleWrites change bases and records. Each writes what its name says
// and nothing else; those returning a bool make their write on a
// condition, and report false, having written nothing, when it no longer
// holds.
type LifecycleWrites interface {
	// CreateBase stores b, with a new id, and returns it as stored.
	CreateBase(ctx context.Context, b *ent.Base) (*ent.Base, error)
	// CreateRecord stores r, with a new id, and returns it as stored.
	CreateRecord(ctx context.Context, r *ent.Record) (*ent.Record, error)
	// SaveDraft writes r's content and update time, and its next revision,
	// on condition that r is still a draft at r.Revision. When r.Status is
	// published it writes its status, version and publish time as well:
	// the draft becomes that version.
	SaveDraft(ctx context.Context, r *ent.Record) (bool, error)
	// AttachDraft makes draftID the draft of b.
	AttachDraft(ctx context.Context, b *ent.Base, draftID uuid.UUID, at time.Time) (*ent.Base, error)
	// RenameBase sets b's name and description.
	RenameBase(ctx context.Context, b *ent.Base, name, description string, at time.Time) (*ent.Base, error)
	// PublishDraft makes b's draft r, published, its latest version and
	// hands b to its organization: b has no draft afterwards.
	PublishDraft(ctx context.Context, b *ent.Base, r *ent.Record, at time.Time) (*ent.Base, error)
	// AddVersion makes r, published, b's latest version, on condition
	// that b's latest version is still b.LatestVersion.
	AddVersion(ctx context.Context, b *ent.Base, r *ent.Record, at time.Time) (bool, error)
	// DeleteBase soft-deletes b, on condition that it is not deleted yet.
	DeleteBase(ctx context.Context, b *ent.Base, at time.Time) (bool, error)
	// SetDecisions sets whether b's runs are recorded, for which share
	// of them, with which values masked.
	SetDecisions(ctx context.Context, b *ent.Base, enabled bool, rate float64, mask []string, at time.Time) (*ent.Base, error)
}
