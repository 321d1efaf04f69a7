// Package seed fills a database with many published policies and many
// `executed` audit events, so that what a run, a list or the audit log
// costs can be measured on a database of production size. It writes rows
// directly, in multi-row inserts, rather than through the service: a
// hundred thousand publishes and ten million runs would take hours.
package seed

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/auditstore"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/record"
)

// batch is the number of rows one insert carries: within SQLite's limit
// of 32,766 parameters for the widest row (a record's).
const batch = 1000

// Policy is a seeded policy: its base and its one published version.
type Policy struct {
	Base, Record uuid.UUID
}

// Policies stores n published policies in the organization, created and
// published by creator, each with one version whose rule is a single
// comparison. Progress, when not nil, hears how many are stored so far.
func Policies(ctx context.Context, client *ent.Client, org, creator uuid.UUID, n int, progress func(int)) ([]Policy, error) {
	policies := make([]Policy, 0, n)
	now := time.Now().UTC()
	for start := 0; start < n; start += batch {
		count := min(batch, n-start)
		// A batch's bases and versions commit together: a base stored
		// without its version (the command interrupted between them) was
		// listed and could not be opened.
		tx, err := client.Tx(ctx)
		if err != nil {
			return nil, fmt.Errorf("storing policies: %w", err)
		}
		bases := make([]*ent.BaseCreate, count)
		records := make([]*ent.RecordCreate, count)
		for i := range count {
			p := Policy{Base: newID(), Record: newID()}
			policies = append(policies, p)
			name := fmt.Sprintf("Seeded policy %07d", start+i)
			bases[i] = tx.Base.Create().SetID(p.Base).SetOrganizationID(org).SetKind(base.KindPolicy).
				SetName(name).SetOwnerKind(base.OwnerKindOrganization).SetOwnerID(org).SetCreatedBy(creator).
				SetLatestVersion(1).SetLatestRecordID(p.Record).SetCreatedAt(now).SetUpdatedAt(now)
			records[i] = tx.Record.Create().SetID(p.Record).SetBaseID(p.Base).SetOrganizationID(org).
				SetKind(record.KindPolicy).SetStatus(record.StatusPublished).SetVersion(1).SetName(name).
				SetRule(fmt.Sprintf("A **Person** gets seeded_%d if the __age__ of the **Person** is at least %d.", start+i, 18+(start+i)%60)).
				SetCreatedBy(creator).SetPublishedAt(now).SetCreatedAt(now).SetUpdatedAt(now)
		}
		if err := tx.Base.CreateBulk(bases...).Exec(ctx); err != nil {
			return nil, errors.Join(fmt.Errorf("storing policies: %w", err), tx.Rollback())
		}
		if err := tx.Record.CreateBulk(records...).Exec(ctx); err != nil {
			return nil, errors.Join(fmt.Errorf("storing policy versions: %w", err), tx.Rollback())
		}
		if err := tx.Commit(); err != nil {
			return nil, fmt.Errorf("storing policies: %w", err)
		}
		if progress != nil {
			progress(start + count)
		}
	}
	return policies, nil
}

// Events stores m `executed` events of the policies by actor (a user),
// spread evenly over the span before now, oldest first, as runs would
// have left them. Progress, when not nil, hears how many are stored so far.
func Events(ctx context.Context, store *auditstore.Store, org, actor uuid.UUID, policies []Policy, m int, span time.Duration,
	progress func(int)) error {
	if m > 0 && len(policies) == 0 {
		return fmt.Errorf("events need policies to have run")
	}
	end := time.Now().UTC()
	step := span / time.Duration(max(m, 1))
	version := 1
	for start := 0; start < m; start += batch {
		count := min(batch, m-start)
		events := make([]auditstore.Event, count)
		for i := range count {
			n := start + i
			p := policies[n%len(policies)]
			at := end.Add(-span + time.Duration(n)*step)
			events[i] = auditstore.Event{ID: idAt(at), Tenant: org, At: at, Kind: "policy",
				BaseID: p.Base, RecordID: p.Record, ActorKind: "user", ActorID: actor,
				Result: n%2 == 0, Duration: time.Duration(250000 + n%1000), Published: true, Version: &version}
		}
		if err := store.Insert(ctx, events); err != nil {
			return fmt.Errorf("storing audit events: %w", err)
		}
		if progress != nil {
			progress(start + count)
		}
	}
	return nil
}

func newID() uuid.UUID {
	return uuid.Must(uuid.NewV7())
}

// idAt is a time-ordered id of an event that happened at t, as the
// service would have given it then.
func idAt(t time.Time) uuid.UUID {
	id := newID()
	ms := uint64(t.UnixMilli())
	for i := range 6 {
		id[i] = byte(ms >> (40 - 8*i))
	}
	return id
}
