package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database/changefeed"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/record"
	"github.com/verdict/verdict/storage"
)

// This file is the lifecycle shared by every versioned resource (policies
// and flows): a base with at most one draft and numbered, immutable
// versions. What differs by kind, the content and its publish gate, comes
// in through a kindRules.

// Changes are the fields a create or an update sets; nil leaves a field as
// it is.
type Changes struct {
	Name        *string
	Description *string
	Rule        *string
	Definition  json.RawMessage
	Schema      json.RawMessage
	Tests       *[]TestCase
	// Revision, when set, is the draft's revision the caller last read: an
	// edit or a publish of a draft changed since is a conflict, so that
	// two editors of one draft do not overwrite each other unseen.
	Revision *int

	// flow is Definition decoded by the flow check, and completed by the
	// publish gate with its plan, so that nothing decodes or validates it
	// again.
	flow *parsedFlow
	// ignored are the flow check's warnings of node members it left out
	// of Definition, for the answer to the save.
	ignored []string
}

// kindRules is what the lifecycle needs to know about a kind of resource.
type kindRules struct {
	kind base.Kind
	// check validates changes before anything is stored.
	check func(c *Changes) error
	// gate decides whether a draft, with its changes applied, may become a
	// version when p publishes it. Its error reaches the caller as it is: a
	// conflict naming failing tests, an invalid content, a reference p
	// cannot resolve.
	// c are the changes already applied to r: what r holds that is not
	// stored at its revision.
	gate func(ctx context.Context, p *Principal, r *ent.Record, c *Changes) error
}

func (k *kindRules) auditKind() auditevent.Kind { return auditevent.Kind(k.kind) }

// newDraft is a base's new draft, with content's name, description and
// content.
func newDraft(p *Principal, k *kindRules, baseID uuid.UUID, content *ent.Record, now time.Time) *ent.Record {
	return &ent.Record{
		BaseID: baseID, OrganizationID: p.TenantID, Kind: record.Kind(k.kind), Status: record.StatusDraft,
		Name: content.Name, Description: content.Description, Rule: content.Rule,
		Definition: content.Definition, Schema: content.Schema, Tests: content.Tests,
		CreatedBy: p.ActorID(), CreatedAt: now, UpdatedAt: now,
	}
}

// baseChange is the announcement of a change to a base and, unless
// uuid.Nil, the record that changed with it.
func baseChange(b *ent.Base, record uuid.UUID) changefeed.Change {
	return changefeed.Change{Kind: changefeed.KindBase, Tenant: b.OrganizationID, ID: b.ID, Record: record}
}

func (c *Changes) apply(r *ent.Record) {
	if c.Name != nil {
		r.Name = *c.Name
	}
	if c.Description != nil {
		r.Description = *c.Description
	}
	if c.Rule != nil {
		r.Rule = *c.Rule
	}
	if c.Definition != nil {
		r.Definition = c.Definition
	}
	if c.Schema != nil {
		r.Schema = c.Schema
	}
	if c.Tests != nil {
		r.Tests = *c.Tests
	}
}

// fields names the fields the changes set, as the API calls them, for the
// audit trail of an edit.
func (c *Changes) fields() []string {
	set := []string{}
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"name", c.Name != nil}, {"description", c.Description != nil}, {"rule", c.Rule != nil},
		{"definition", c.Definition != nil}, {"schema", c.Schema != nil}, {"tests", c.Tests != nil},
	} {
		if f.set {
			set = append(set, f.name)
		}
	}
	return set
}

// checkCommon validates what every kind shares.
func (s *Service) checkCommon(c *Changes, creating bool) error {
	if c.Name != nil && strings.TrimSpace(*c.Name) == "" || creating && c.Name == nil {
		return Invalid("name is required")
	}
	if err := checkOptionalName("name", c.Name); err != nil {
		return err
	}
	if err := checkOptionalText("description", c.Description, MaxDescriptionLength); err != nil {
		return err
	}
	if c.Rule != nil {
		if len(*c.Rule) > MaxRuleBytes {
			return Invalid("rule is %d bytes long; the limit is %d", len(*c.Rule), MaxRuleBytes)
		}
		if err := checkText("rule", *c.Rule, MaxRuleBytes); err != nil {
			return err
		}
	}
	c.Schema = withValidUnicode(c.Schema)
	if _, err := checkSchema(c.Schema); err != nil {
		return err
	}
	if c.Tests != nil {
		for i := range *c.Tests {
			tc := &(*c.Tests)[i]
			tc.Data, tc.Expect = withValidUnicode(tc.Data), withValidUnicode(tc.Expect)
		}
		if err := s.checkTestCount(*c.Tests); err != nil {
			return err
		}
		seen := map[string]bool{}
		for i, tc := range *c.Tests {
			if strings.TrimSpace(tc.Name) == "" {
				return Invalid("tests[%d] needs a name", i)
			}
			if err := checkName(fmt.Sprintf("tests[%d].name", i), tc.Name); err != nil {
				return err
			}
			if err := checkJSONText(fmt.Sprintf("tests[%d] (%s)", i, engine.Quoted(tc.Name)), tc.Expect); err != nil {
				return err
			}
			if seen[tc.Name] {
				return Invalid("two tests are named %q", engine.Quoted(tc.Name))
			}
			seen[tc.Name] = true
			// A test's data is refused as a run refuses it, rather than
			// stored to fail every publish.
			if err := s.checkData(tc.Data); err != nil {
				return Invalid("tests[%d] (%s): %s", i, engine.Quoted(tc.Name), messageOf(err))
			}
			if len(tc.Expect) == 0 {
				return Invalid("tests[%d] (%s): expect is required", i, engine.Quoted(tc.Name))
			}
		}
	}
	return nil
}

// checkSchema refuses a schema that is not a JSON Schema or null; a nil
// one is absent.
func checkSchema(schema json.RawMessage) (any, error) {
	var v any
	if schema != nil {
		var ok bool
		if v, ok = schemaOrNull(schema); !ok {
			return nil, Invalid("schema must be a JSON Schema (an object, or true or false) or null")
		}
	}
	return v, checkJSONText("schema", schema)
}

// schemaOrNull decodes raw and tells whether it is a JSON Schema or null.
func schemaOrNull(raw json.RawMessage) (any, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil || v != nil && !engine.IsSchema(v) {
		return nil, false
	}
	return v, true
}

// create makes a base and its draft, owned by the creating user (by the
// organization when an organization key creates it).
func (s *Service) create(ctx context.Context, k *kindRules, c *Changes) (*target, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	// Authorized before the content is read: reading a large definition
	// costs, and tells what is wrong with it, which is for those who may
	// create.
	if err := s.authorize(ctx, p, authz.ActionCreate, newBaseResource(p, k.kind)); err != nil {
		return nil, err
	}
	if err := s.checkCommon(c, true); err != nil {
		return nil, err
	}
	if err := s.chargeContent(ctx, c.Rule, c.Definition, c.Schema); err != nil {
		return nil, err
	}
	if err := k.check(c); err != nil {
		return nil, err
	}
	owner := Owner{Kind: authz.OwnerUser, ID: p.UserID}
	if p.UserID == uuid.Nil {
		owner = Owner{Kind: authz.OwnerOrganization, ID: p.TenantID}
	}
	draft := &ent.Record{}
	c.apply(draft)
	var out target
	err = s.inTx(ctx, func(tx storage.Tx) error {
		now := s.timestamp()
		b, err := tx.CreateBase(ctx, &ent.Base{
			OrganizationID: p.TenantID, Kind: k.kind, Name: draft.Name, Description: draft.Description,
			OwnerKind: base.OwnerKind(owner.Kind), OwnerID: owner.ID, CreatedBy: p.ActorID(),
			CreatedAt: now, UpdatedAt: now,
		})
		if err != nil {
			return storeErr(err, "the base could not be created")
		}
		r, err := tx.CreateRecord(ctx, newDraft(p, k, b.ID, draft, now))
		if err != nil {
			return storeErr(err, "the draft could not be created")
		}
		if b, err = tx.AttachDraft(ctx, b, r.ID, now); err != nil {
			return unavailable(err)
		}
		out = target{base: b, record: r}
		return s.appendEvents(ctx, tx, event{tenant: p.TenantID, action: auditevent.ActionCreated,
			kind: k.auditKind(), base: &b.ID, record: &r.ID, actor: p, details: map[string]any{"name": b.Name}})
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// chargeContent charges a save for checking the content it carries, as
// a check of that text is charged: a saved policy is answered with its
// rule's diagnostics and a saved flow with its definition's problems, and
// a GraphQL document of hundreds of saves of one large variable would
// otherwise check it hundreds of times. It comes before the content is
// decoded, and before anything is stored.
func (s *Service) chargeContent(ctx context.Context, rule *string, definition, schema json.RawMessage) error {
	n := len(definition) + len(schema)
	if rule != nil {
		n += len(*rule)
	}
	return s.spendAnswer(ctx, checkAnswerPerByte*n)
}

// changeDraft checks the changes an edit or a publish brings, loads the
// record the caller may take action on, and applies the changes to it in
// memory. The record must be a draft: a published one is a conflict, which
// published words, or which names the base's draft when it has one, for
// the caller to do (verb) to that one instead.
func (s *Service) changeDraft(ctx context.Context, k *kindRules, id uuid.UUID, c *Changes, action authz.Action,
	published, verb string) (*Principal, *target, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, nil, err
	}
	// Authorized before the content is read, as in create.
	l, err := s.load(ctx, p, k, id, action)
	if err != nil {
		return nil, nil, err
	}
	// Revisions start at 1: a lower one is no revision any draft was at.
	if c.Revision != nil && *c.Revision < 1 {
		return nil, nil, Invalid("revision must be 1 or more, not %d", *c.Revision)
	}
	if err := s.checkCommon(c, false); err != nil {
		return nil, nil, err
	}
	if err := s.chargeContent(ctx, c.Rule, c.Definition, c.Schema); err != nil {
		return nil, nil, err
	}
	if err := k.check(c); err != nil {
		return nil, nil, err
	}
	if l.record.Status != record.StatusDraft && l.base.DraftRecordID != nil {
		return nil, nil, newError(CodeConflict, "record %s is published; the base has a draft already: %s; %s that one",
			l.record.ID, *l.base.DraftRecordID, verb)
	}
	if l.record.Status != record.StatusDraft {
		return nil, nil, newError(CodeConflict, "record %s %s", l.record.ID, published)
	}
	if c.Revision != nil && *c.Revision != l.record.Revision {
		return nil, nil, newError(CodeConflict, "the draft is at revision %d, not %d: it changed since you read it; load it again",
			l.record.Revision, *c.Revision)
	}
	c.apply(l.record)
	return p, l, nil
}

// uncarried is the size of the checked content of r that the changes do
// not replace: the rule, definition and schema an edit's answer checks as
// stored.
func (c *Changes) uncarried(r *ent.Record) int {
	n := 0
	if c.Rule == nil {
		n += len(r.Rule)
	}
	if c.Definition == nil {
		n += len(r.Definition)
	}
	if c.Schema == nil {
		n += len(r.Schema)
	}
	return n
}

// updateDraft changes a draft record in place and bumps its revision.
func (s *Service) updateDraft(ctx context.Context, k *kindRules, id uuid.UUID, c *Changes) (*target, error) {
	p, l, err := s.changeDraft(ctx, k, id, c, authz.ActionEdit, "is published and cannot change; create a draft from it", "change")
	if err != nil {
		return nil, err
	}
	// The saved draft is answered with its content checked, changed or
	// not: what the changes did not carry, and so were not charged for, is
	// charged here.
	charged := c.uncarried(l.record)
	if err := s.spendAnswer(ctx, checkAnswerPerByte*charged); err != nil {
		return nil, err
	}
	var out target
	err = s.inTx(ctx, func(tx storage.Tx) error {
		now := s.timestamp()
		r := l.record
		r.UpdatedAt = now
		saved, err := tx.SaveDraft(ctx, r)
		// An edit without a revision applies to the draft as it is: when
		// another save came between reading the draft and saving it, the
		// changes go onto that save's draft instead, read locked (on
		// SQLite this transaction holds the write lock already), so that
		// no third save comes between again.
		if err == nil && !saved && c.Revision == nil {
			if r, err = tx.LockRecord(ctx, r.ID); err == nil && r.Status == record.StatusDraft {
				if more := c.uncarried(r) - charged; more > 0 {
					if err := s.spendAnswer(ctx, checkAnswerPerByte*more); err != nil {
						return err
					}
				}
				c.apply(r)
				r.UpdatedAt = now
				saved, err = tx.SaveDraft(ctx, r)
			}
		}
		if err != nil {
			return unavailable(err)
		}
		if !saved {
			return newError(CodeConflict, "the draft changed or was published meanwhile; load it again")
		}
		b, err := tx.RenameBase(ctx, l.base, r.Name, r.Description, now)
		if err != nil {
			return changeErr(err, l.base)
		}
		if r, err = tx.Record(ctx, r.ID); err != nil {
			return unavailable(err)
		}
		out = target{base: b, record: r}
		return s.changed(ctx, tx, baseChange(b, r.ID), event{tenant: p.TenantID, action: auditevent.ActionEdited,
			kind: k.auditKind(), base: &b.ID, record: &r.ID, actor: p, details: map[string]any{"revision": r.Revision, "fields": c.fields()}})
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// publish turns the draft, with the changes applied, into the next
// version, after the kind's gate passed. The draft is consumed and the base
// passes to the organization, all in one transaction; of two concurrent
// publishes of one draft exactly one succeeds.
func (s *Service) publish(ctx context.Context, k *kindRules, id uuid.UUID, c *Changes) (*target, error) {
	p, l, err := s.changeDraft(ctx, k, id, c, authz.ActionPublish, "is published already; there is no draft to publish", "publish")
	if err != nil {
		return nil, err
	}
	if err := k.gate(ctx, p, l.record, c); err != nil {
		return nil, err
	}
	var out target
	err = s.inTx(ctx, func(tx storage.Tx) error {
		now := s.timestamp()
		b, err := tx.Base(ctx, l.base.ID)
		if err != nil {
			return unavailable(err)
		}
		version := b.LatestVersion + 1
		published := *l.record
		published.Status, published.Version, published.PublishedAt, published.UpdatedAt = record.StatusPublished, &version, &now, now
		saved, err := tx.SaveDraft(ctx, &published)
		if err != nil {
			return storeErr(err, "another publish of this base won the race")
		}
		if !saved {
			return newError(CodeConflict, "the draft was published or changed meanwhile")
		}
		if b, err = tx.PublishDraft(ctx, b, &published, now); err != nil {
			return changeErr(err, l.base)
		}
		r, err := tx.Record(ctx, published.ID)
		if err != nil {
			return unavailable(err)
		}
		out = target{base: b, record: r}
		details := map[string]any{"version": version}
		// A publish may change the draft as it publishes it; the log says
		// what it changed, as an edit's event does.
		if fields := c.fields(); len(fields) > 0 {
			details["fields"] = fields
		}
		return s.changed(ctx, tx, baseChange(b, r.ID), event{tenant: p.TenantID, action: auditevent.ActionPublished,
			kind: k.auditKind(), base: &b.ID, record: &r.ID, actor: p, details: details})
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// rollback publishes a published record's content again, as the base's
// next version, after the kind's gate passed on it: the tests it carries
// must still pass, and a flow's policies still resolve. The draft, if the
// base has one, stays as it is.
func (s *Service) rollback(ctx context.Context, k *kindRules, id uuid.UUID) (*target, *Changes, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, nil, err
	}
	l, err := s.load(ctx, p, k, id, authz.ActionPublish)
	if err != nil {
		return nil, nil, err
	}
	src := l.record
	if src.Status != record.StatusPublished {
		return nil, nil, newError(CodeConflict, "record %s is a draft; only a published version can be rolled back to", src.ID)
	}
	// The gate may fill in what it decoded; the source stays untouched.
	content := *src
	c := &Changes{}
	if err := k.gate(ctx, p, &content, c); err != nil {
		return nil, nil, err
	}
	var out target
	err = s.inTx(ctx, func(tx storage.Tx) error {
		now := s.timestamp()
		b, err := tx.Base(ctx, l.base.ID)
		if err != nil {
			return unavailable(err)
		}
		if b.DeletedAt != nil {
			return errBaseDeleted(b)
		}
		version := b.LatestVersion + 1
		again := newDraft(p, k, b.ID, src, now)
		again.Status, again.Version, again.PublishedAt = record.StatusPublished, &version, &now
		r, err := tx.CreateRecord(ctx, again)
		if err != nil {
			return storeErr(err, "another publish of this base won the race")
		}
		// A concurrent publish took the version number after it was read:
		// the condition makes this update nothing then.
		added, err := tx.AddVersion(ctx, b, r, now)
		if err != nil {
			return unavailable(err)
		}
		if !added {
			// Deleted since it was read, or a version taken.
			if b, err := tx.Base(ctx, b.ID); err == nil && b.DeletedAt != nil {
				return errBaseDeleted(b)
			}
			return newError(CodeConflict, "another publish of this base won the race")
		}
		if b, err = tx.Base(ctx, b.ID); err != nil {
			return unavailable(err)
		}
		out = target{base: b, record: r}
		return s.changed(ctx, tx, baseChange(b, r.ID), event{tenant: p.TenantID, action: auditevent.ActionPublished,
			kind: k.auditKind(), base: &b.ID, record: &r.ID, actor: p,
			details: map[string]any{"version": version, "rollbackOf": src.ID.String(), "rollbackOfVersion": *src.Version}})
	})
	if err != nil {
		return nil, nil, err
	}
	return &out, c, nil
}

// draftFromVersion starts a draft from a published record. An existing
// draft is a conflict unless replace is set, in which case it is
// overwritten.
func (s *Service) draftFromVersion(ctx context.Context, k *kindRules, id uuid.UUID, replace bool) (*target, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	l, err := s.load(ctx, p, k, id, authz.ActionEdit)
	if err != nil {
		return nil, err
	}
	src := l.record
	if src.Status != record.StatusPublished {
		return nil, newError(CodeConflict, "record %s is a draft; drafts are made from published versions", src.ID)
	}
	if l.base.DraftRecordID != nil && !replace {
		return nil, newError(CodeConflict, "the base has a draft already: %s (use replace=true to overwrite it)", *l.base.DraftRecordID)
	}
	var out target
	// A replace overwrites whatever draft it finds, so one that another
	// request's draft got ahead of (its new draft, or its edit of the one
	// read here) is done again over it, a few times at most.
	raced := false
	replaceOnce := func(tx storage.Tx) error {
		now := s.timestamp()
		b, err := tx.Base(ctx, l.base.ID)
		if err != nil {
			return unavailable(err)
		}
		var r *ent.Record
		replaced := b.DraftRecordID != nil
		if replaced {
			if !replace {
				return newError(CodeConflict, "the base has a draft already: %s (use replace=true to overwrite it)", *b.DraftRecordID)
			}
			// Locked, so that replacements of one draft take turns, each
			// over the one before.
			old, err := tx.LockRecord(ctx, *b.DraftRecordID)
			if err != nil {
				return unavailable(err)
			}
			replaced := *old
			replaced.Name, replaced.Description, replaced.Rule = src.Name, src.Description, src.Rule
			replaced.Definition, replaced.Schema, replaced.Tests = src.Definition, src.Schema, src.Tests
			replaced.UpdatedAt = now
			saved, err := tx.SaveDraft(ctx, &replaced)
			if err != nil {
				return unavailable(err)
			}
			if !saved {
				raced = true
				return newError(CodeConflict, "the draft changed or was published meanwhile; load it again")
			}
			// The base takes the draft's name, as an edit of the draft gives
			// it, locked after the draft as a publish locks them; a base
			// deleted meanwhile refuses it.
			if b, err = tx.RenameBase(ctx, b, src.Name, src.Description, now); err != nil {
				return changeErr(err, l.base)
			}
			if r, err = tx.Record(ctx, old.ID); err != nil {
				return unavailable(err)
			}
		} else {
			r, err = tx.CreateRecord(ctx, newDraft(p, k, b.ID, src, now))
			if err != nil {
				raced = errors.Is(err, storage.ErrConflict)
				return storeErr(err, "the base has a draft already")
			}
			if b, err = tx.AttachDraft(ctx, b, r.ID, now); err != nil {
				return changeErr(err, l.base)
			}
			// A draft of an older version than the latest has that
			// version's name.
			if b.Name != src.Name || b.Description != src.Description {
				if b, err = tx.RenameBase(ctx, b, src.Name, src.Description, now); err != nil {
					return changeErr(err, l.base)
				}
			}
		}
		out = target{base: b, record: r}
		return s.changed(ctx, tx, baseChange(b, r.ID), event{tenant: p.TenantID, action: auditevent.ActionEdited,
			kind: k.auditKind(), base: &b.ID, record: &r.ID, actor: p,
			details: map[string]any{"draftFromVersion": *src.Version, "replaced": replaced}})
	}
	for range maxReplaceAttempts {
		raced = false
		if err = s.inTx(ctx, replaceOnce); !raced || !replace {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// maxReplaceAttempts bounds how often a draft's replacement is done again
// over the drafts concurrent requests made meanwhile. Each attempt that
// fails does so because another request's replacement committed, so as
// many requests at once as this all succeed.
const maxReplaceAttempts = 8

// changeErr is the error of a change to b that the store refused: a base
// deleted since it was loaded, whose deletion the change waited for on
// PostgreSQL, is deleted, as loading it a moment later would say.
func changeErr(err error, b *ent.Base) error {
	if errors.Is(err, storage.ErrNotFound) {
		return errBaseDeleted(b)
	}
	return unavailable(err)
}

// remove soft-deletes a whole base.
func (s *Service) remove(ctx context.Context, k *kindRules, id uuid.UUID) error {
	p, err := principalOf(ctx)
	if err != nil {
		return err
	}
	l, err := s.load(ctx, p, k, id, authz.ActionDelete)
	if err != nil {
		return err
	}
	err = s.inTx(ctx, func(tx storage.Tx) error {
		now := s.timestamp()
		deleted, err := tx.DeleteBase(ctx, l.base, now)
		if err != nil {
			return unavailable(err)
		}
		if !deleted {
			return errBaseDeleted(l.base)
		}
		return s.changed(ctx, tx, baseChange(l.base, uuid.Nil), event{tenant: p.TenantID, action: auditevent.ActionDeleted,
			kind: k.auditKind(), base: &l.base.ID, actor: p, details: map[string]any{"name": l.base.Name}})
	})
	return err
}

// versionsOf returns a page of a base's history, each record shown by
// of: its draft, on the first page only, then at most o.Limit published
// versions, newest first, and the cursor of the next page ("" on the
// last). A base is published again and again without bound, each version
// up to the size limit of its content, so its history is paged as lists
// are, and each record on a page is charged to what the request may
// answer.
func versionsOf[T any](ctx context.Context, s *Service, k *kindRules, id uuid.UUID, o ListOptions,
	of func(*ent.Base, *ent.Record) *T) (baseID uuid.UUID, draft *T, versions []*T, next string, err error) {
	p, err := principalOf(ctx)
	if err != nil {
		return uuid.Nil, nil, nil, "", err
	}
	limit, err := o.limit()
	if err != nil {
		return uuid.Nil, nil, nil, "", err
	}
	l, err := s.load(ctx, p, k, id, authz.ActionView)
	if err != nil {
		return uuid.Nil, nil, nil, "", err
	}
	// Read once the base is known, whatever id named it: its cursors are
	// those of its own history only.
	history := historyList(k.kind, l.base.ID)
	before, err := history.decodeVersion(o.Cursor)
	if err != nil {
		return uuid.Nil, nil, nil, "", err
	}
	if o.Cursor == "" && l.base.DraftRecordID != nil {
		d := l.record
		if d.ID != *l.base.DraftRecordID {
			if d, err = s.store.Record(ctx, *l.base.DraftRecordID); err != nil {
				return uuid.Nil, nil, nil, "", lookupErr(err, "draft", *l.base.DraftRecordID)
			}
		}
		if err := s.spendAnswer(ctx, contentBytes(d)); err != nil {
			return uuid.Nil, nil, nil, "", err
		}
		draft = of(l.base, d)
	}
	// One more than the page tells whether another page follows.
	recs, err := s.store.Versions(ctx, l.base.ID, before, limit+1)
	if err != nil {
		return uuid.Nil, nil, nil, "", unavailable(err)
	}
	if len(recs) > limit {
		recs = recs[:limit]
		next = history.versionCursor(*recs[limit-1].Version)
	}
	versions = make([]*T, 0, len(recs))
	for _, r := range recs {
		if err := s.spendAnswer(ctx, contentBytes(r)); err != nil {
			return uuid.Nil, nil, nil, "", err
		}
		versions = append(versions, of(l.base, r))
	}
	return l.base.ID, draft, versions, next, nil
}

// rowAnswerBytes is what a stored row answers beside its texts: its ids,
// times, owner or actor, and their JSON names.
const rowAnswerBytes = 512

// testBytes is what a stored test costs beside its texts: held, its
// fields' headers and the rounding of their allocations, some 80 bytes; in
// an answer, its members' names.
const testBytes = 128

// contentBytes is about what a record answers, and what it holds cached:
// its content, name and description, and its ids, times and owner.
func contentBytes(r *ent.Record) int {
	n := rowAnswerBytes + engine.QuotedLength(r.Name) + engine.QuotedLength(r.Description) + engine.QuotedLength(r.Rule) +
		len(r.Definition) + len(r.Schema)
	for _, tc := range r.Tests {
		n += testBytes + engine.QuotedLength(tc.Name) + len(tc.Data) + len(tc.Expect)
	}
	return n
}
