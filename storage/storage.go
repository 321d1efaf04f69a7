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

	"github.com/verdict/verdict/auditstore"
	"github.com/verdict/verdict/database/changefeed"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/decisionrecord"
	"github.com/verdict/verdict/ent/membership"
	"github.com/verdict/verdict/ent/record"
)

var (
	// ErrNotFound is what a finder returns for an id it does not hold (in
	// the tenant it was asked about, when it is tenant-scoped), and a
	// write for a row it refers to that is gone.
	ErrNotFound = errors.New("storage: not found")
	// ErrConflict is a write refused because what it would store exists
	// already (a unique constraint).
	ErrConflict = errors.New("storage: conflict")
)

// Store is the database of the service.
type Store interface {
	Lifecycle
	Identity
	Groups
	Audit
	Decisions
	DecisionWrites
	Executions
	// Ready reports whether the database answers, and
	// ErrMigrationsPending when it lacks migrations.
	Ready(ctx context.Context) error
	// InTx runs fn in one transaction: committed when fn returns nil,
	// rolled back when it returns an error (returned as it is) or panics.
	InTx(ctx context.Context, fn func(Tx) error) error
}

// Tx is one transaction: the reads, and the writes of every area.
type Tx interface {
	Lifecycle
	LifecycleWrites
	Identity
	IdentityWrites
	Groups
	GroupWrites
	Audit
	Decisions
	// Announce has c delivered to every instance listening on the
	// database (changefeed) once the transaction commits, never if it
	// rolls back.
	Announce(ctx context.Context, c changefeed.Change) error
	// OnCommit runs fn once the transaction's commit was tried, whether
	// it succeeded or not: a commit that failed may have happened all the
	// same.
	OnCommit(fn func())
	// AppendEvents stores lifecycle audit events with the change they
	// describe, in this order: both are stored, or neither. Each comes
	// with its id, made by EventIDs from its time. Events are never
	// changed.
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
	// Versions are at most limit of a base's published records, newest
	// first, those older than version before when it is not 0: a page of
	// its history, found through the (base, version) index.
	Versions(ctx context.Context, baseID uuid.UUID, before, limit int) ([]*ent.Record, error)
	// RecordsIn are those of ids that are tenant's records of kind.
	RecordsIn(ctx context.Context, tenant uuid.UUID, kind record.Kind, ids []uuid.UUID) ([]*ent.Record, error)
	// Bases lists the bases f selects, newest first, with their number
	// when w asks for it.
	Bases(ctx context.Context, f BaseFilter, w Window) ([]*ent.Base, *int, error)
}

// BaseFilter selects the live bases of a kind in a tenant that a list
// shows: those the organization owns, and those of OwnedBy (uuid.Nil:
// none) that were never published; with Name, those whose name contains
// it (ignoring case); with Group, those in that group; with NotInGroup,
// those not in that one.
type BaseFilter struct {
	Tenant     uuid.UUID
	Kind       base.Kind
	OwnedBy    uuid.UUID
	Name       string
	Group      *uuid.UUID
	NotInGroup *uuid.UUID
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
	// LockRecord is the record with id, read to be changed: on PostgreSQL
	// its row stays locked until the transaction ends, so that changes
	// that read it first take turns rather than fail on each other's
	// revision.
	LockRecord(ctx context.Context, id uuid.UUID) (*ent.Record, error)
	// SaveDraft writes r's content and update time, and its next revision,
	// on condition that r is still a draft at r.Revision. When r.Status is
	// published it writes its status, version and publish time as well:
	// the draft becomes that version.
	SaveDraft(ctx context.Context, r *ent.Record) (bool, error)
	// AttachDraft, RenameBase, PublishDraft, AddVersion and SetDecisions
	// change b only while it is not deleted: on a deleted b they are
	// ErrNotFound (AddVersion false). On PostgreSQL, one that meets b's
	// deletion under way waits for it, so a change is never acknowledged
	// on a base deleted beside it.

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
	// of them, with which values masked, and reports whether that changed
	// anything: a setting as it already was leaves b as it is. A mask
	// never set is the empty one.
	SetDecisions(ctx context.Context, b *ent.Base, enabled bool, rate float64, mask []string, at time.Time) (*ent.Base, bool, error)
}

// Identity finds organizations, users, memberships and API keys.
type Identity interface {
	// Organization is the organization with id.
	Organization(ctx context.Context, id uuid.UUID) (*ent.Organization, error)
	// Organizations are up to limit organizations (0: all), oldest first.
	Organizations(ctx context.Context, limit int) ([]*ent.Organization, error)
	// OrganizationsNamed are the organization with id, if id is not nil,
	// and the one named name: at most two, names being unique.
	OrganizationsNamed(ctx context.Context, id *uuid.UUID, name string) ([]*ent.Organization, error)
	// UserByEmail is the user with email (stored lower-cased).
	UserByEmail(ctx context.Context, email string) (*ent.User, error)
	// Membership is the membership with id in tenant, with its user.
	Membership(ctx context.Context, tenant, id uuid.UUID) (*ent.Membership, error)
	// Member is the membership who names in tenant, with its user.
	Member(ctx context.Context, tenant uuid.UUID, who MemberRef) (*ent.Membership, error)
	// MembershipOf is the membership of a user in tenant, without its user.
	MembershipOf(ctx context.Context, tenant, userID uuid.UUID) (*ent.Membership, error)
	// Members lists tenant's memberships, with their users, newest first;
	// with query, those whose email or name contains it (ignoring case).
	Members(ctx context.Context, tenant uuid.UUID, query string, w Window) ([]*ent.Membership, *int, error)
	// Key is the API key with id, of any tenant.
	Key(ctx context.Context, id uuid.UUID) (*ent.APIKey, error)
	// KeyByHash is the API key whose secret has hash.
	KeyByHash(ctx context.Context, hash string) (*ent.APIKey, error)
	// Keys lists tenant's keys, revoked ones too, newest first; with
	// query, those whose name contains it (ignoring case).
	Keys(ctx context.Context, tenant uuid.UUID, query string, w Window) ([]*ent.APIKey, *int, error)
}

// MemberRef names a member of a tenant: by UserID, else by the user's
// Email.
type MemberRef struct {
	UserID uuid.UUID
	Email  string
}

// IdentityWrites change organizations, users, memberships and keys.
type IdentityWrites interface {
	CreateOrganization(ctx context.Context, name string) (*ent.Organization, error)
	// CreateUser stores a new user; one with the email already is a
	// conflict.
	CreateUser(ctx context.Context, email, name string) (*ent.User, error)
	// FindOrCreateUser is the user with email, created with name when
	// there is none. A user with the email that another transaction is
	// creating is waited for, and found once that commits: the insertion
	// does nothing on a conflict (ON CONFLICT DO NOTHING), where the unique
	// violation of a plain one would abort the transaction on PostgreSQL,
	// and the user could no longer be read in it.
	FindOrCreateUser(ctx context.Context, email, name string) (*ent.User, error)
	// CreateMembership stores m, with a new id; the result has no user.
	CreateMembership(ctx context.Context, m *ent.Membership) (*ent.Membership, error)
	// SetRole changes m's role; the result keeps m's user.
	SetRole(ctx context.Context, m *ent.Membership, role membership.Role) (*ent.Membership, error)
	DeleteMembership(ctx context.Context, m *ent.Membership) error
	// LockRoles makes the changes of role and removals of members in
	// tenant take turns until the transaction ends, so that each reads the
	// roles as the one before left them, and waits for the transactions
	// that share them (ShareRoles), which wait for it: on PostgreSQL it
	// takes an advisory lock of the tenant. Locking only the memberships
	// that were admins let a promotion and a demotion of one member pass
	// between two others' checks, leaving no admin. SQLite runs write
	// transactions one at a time anyway.
	LockRoles(ctx context.Context, tenant uuid.UUID) error
	// ShareRoles holds tenant's roles, keys and memberships as they are
	// until the transaction ends, beside other holders and against
	// LockRoles: a change of role, a removal or a revocation waits for the
	// transactions that hold them, and those that come after it wait for
	// it.
	ShareRoles(ctx context.Context, tenant uuid.UUID) error
	// CountAdmins counts tenant's admins.
	CountAdmins(ctx context.Context, tenant uuid.UUID) (int, error)
	// LockMember is Member, holding the membership until the transaction
	// ends on PostgreSQL: a key made for the member then cannot commit
	// beside the membership's removal, whose revocation of the member's
	// keys would miss it. SQLite runs write transactions one at a time
	// anyway.
	LockMember(ctx context.Context, tenant uuid.UUID, who MemberRef) (*ent.Membership, error)
	// CreateKey stores k, with a new id.
	CreateKey(ctx context.Context, k *ent.APIKey) (*ent.APIKey, error)
	// RevokeKey revokes k, on condition that it is not revoked yet.
	RevokeKey(ctx context.Context, k *ent.APIKey, at time.Time) (bool, error)
	// RevokeUserKeys revokes the active keys of a user in tenant and
	// returns their number.
	RevokeUserKeys(ctx context.Context, tenant, userID uuid.UUID, at time.Time) (int, error)
	// KeyUsed notes when a key was last used.
	KeyUsed(ctx context.Context, id uuid.UUID, at time.Time) error
}

// Groups finds groups and their members.
type Groups interface {
	// Group is the group with id in tenant.
	Group(ctx context.Context, tenant, id uuid.UUID) (*ent.Group, error)
	// Groups lists tenant's groups, newest first; with query, those whose
	// name contains it (ignoring case).
	Groups(ctx context.Context, tenant uuid.UUID, query string, w Window) ([]*ent.Group, *int, error)
	// GroupMember is the group member with id, of a group of tenant.
	GroupMember(ctx context.Context, tenant, id uuid.UUID) (*ent.GroupMember, error)
	// MemberOfGroup is the member with id of the group groupID.
	MemberOfGroup(ctx context.Context, groupID, id uuid.UUID) (*ent.GroupMember, error)
	// GroupMembers are a group's members, oldest first.
	GroupMembers(ctx context.Context, groupID uuid.UUID) ([]*ent.GroupMember, error)
	// Membership of the base in g, found as Bases finds bases: live, of
	// g's tenant, of kind, shown to ownedBy.
	GroupMembership(ctx context.Context, g *ent.Group, kind base.Kind, baseID, ownedBy uuid.UUID) (*ent.GroupMember, error)
}

// GroupWrites change groups and their members.
type GroupWrites interface {
	// CreateGroup stores g, with a new id.
	CreateGroup(ctx context.Context, g *ent.Group) (*ent.Group, error)
	// UpdateGroup sets g's name and description, those not nil.
	UpdateGroup(ctx context.Context, g *ent.Group, name, description *string, at time.Time) (*ent.Group, error)
	// LockGroup is Group, holding the group until the transaction ends on
	// PostgreSQL: no member can be added to it meanwhile, so a deletion
	// sees every member its cascade takes. SQLite runs write transactions
	// one at a time anyway.
	LockGroup(ctx context.Context, tenant, id uuid.UUID) (*ent.Group, error)
	// DeleteGroup deletes g with its members.
	DeleteGroup(ctx context.Context, g *ent.Group) error
	// AddToGroup stores m, with a new id; ErrNotFound when m's group is
	// gone (deleted beside it).
	AddToGroup(ctx context.Context, m *ent.GroupMember) (*ent.GroupMember, error)
	RemoveFromGroup(ctx context.Context, m *ent.GroupMember) error
	// KeepLive says whether the base is not deleted and, on PostgreSQL,
	// keeps it so until the transaction ends (a share lock); SQLite runs
	// write transactions one at a time anyway.
	KeepLive(ctx context.Context, baseID uuid.UUID) (bool, error)
}

// Audit reads the lifecycle audit events (AppendEvents writes them).
type Audit interface {
	// Event is the event with id in tenant.
	Event(ctx context.Context, tenant, id uuid.UUID) (*ent.AuditEvent, error)
	// Events are up to limit of the events f selects, newest first (by
	// time, then id). No index of a database holds an action, kind or
	// actor without a base: with f.Scan set, a database examines at most
	// f.Scan of the tenant's events in f's times from the cursor, and when
	// that found fewer than limit, scanned is the last one examined, where
	// the list goes on.
	Events(ctx context.Context, f EventFilter, limit int) (events []*ent.AuditEvent, scanned *Position, err error)
	// CountEvents counts the events f selects, Before aside.
	CountEvents(ctx context.Context, f EventFilter) (int, error)
}

// EventFilter selects a tenant's events: those with each field that is
// set (Since inclusive, Until exclusive), older than Before when set.
type EventFilter struct {
	Tenant       uuid.UUID
	Action       auditevent.Action
	Kind         auditevent.Kind
	BaseID       *uuid.UUID
	Actor        *uuid.UUID
	Since, Until *time.Time
	Before       *Position
	// Scan bounds the events Events examines for a filter no index
	// serves; 0 leaves it unbounded.
	Scan int
}

// Position is an event's place in the log, which is ordered by time, then
// id: the same for `executed` events and the others.
type Position = auditstore.Position

// Decisions reads the decision records of runs.
type Decisions interface {
	// Decision is the decision record with id in tenant.
	Decision(ctx context.Context, tenant, id uuid.UUID) (*ent.DecisionRecord, error)
	// Decisions are up to limit of the records f selects, newest first (by
	// time, then id). No index of a database holds a result: with f.Scan
	// set, a database examines at most f.Scan of the records of f's tenant,
	// base and times from the cursor, and when that found fewer than limit,
	// scanned is the last one examined, where the list goes on.
	Decisions(ctx context.Context, f DecisionFilter, limit int) (rows []*ent.DecisionRecord, scanned *Position, err error)
	// CountDecisions counts the records f selects, Before aside.
	CountDecisions(ctx context.Context, f DecisionFilter) (int, error)
	// DecisionInputs are Decisions with only what a replay reads of each:
	// id, time, result, explanation, error, outcome and input.
	DecisionInputs(ctx context.Context, f DecisionFilter, limit int) ([]*ent.DecisionRecord, error)
}

// DecisionWrites store and expire decision records. Each call stands
// alone, outside any transaction: records are written by the audit log's
// writers in batches, and expire in batches.
type DecisionWrites interface {
	// InsertDecisions stores rows in one statement, skipping those whose
	// id is stored already, so that a batch that is retried stores each
	// once.
	InsertDecisions(ctx context.Context, rows []*ent.DecisionRecord) error
	// Recordings reads how each of bases (in any tenant) records its runs
	// now; a base that is not stored is left out. The writer of decision
	// records reads it before it stores what runs recorded with the
	// settings they had cached.
	Recordings(ctx context.Context, bases []uuid.UUID) (map[uuid.UUID]Recording, error)
	// ExpireDecisions removes the records older than cutoff and returns
	// how many it removed, also when it fails part way. On PostgreSQL,
	// where the table is partitioned by day, it first creates the
	// partitions of the day of now and the days ahead, then drops the
	// partitions whose whole day ended before the cutoff: the records of
	// the day the cutoff falls in stay until that day has expired too. On
	// SQLite it deletes exactly the expired records, in batches small
	// enough that no statement holds the database's one writer for long.
	ExpireDecisions(ctx context.Context, now, cutoff time.Time) (int, error)
}

// Recording is whether a base records its runs, and the JSON paths whose
// values its records hide.
type Recording struct {
	Enabled bool
	Mask    []string
}

// DecisionFilter selects a tenant's decision records: those with each
// field that is set (Since inclusive, Until exclusive), older than Before
// when set.
type DecisionFilter struct {
	Tenant       uuid.UUID
	BaseID       *uuid.UUID
	Kind         decisionrecord.Kind
	Result       *bool
	Since, Until *time.Time
	Before       *Position
	// Scan bounds the records Decisions examines for a result, which no
	// index holds; 0 leaves it unbounded.
	Scan int
}
