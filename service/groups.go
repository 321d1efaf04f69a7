package service

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database/changefeed"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/groupmember"
	"github.com/verdict/verdict/storage"
)

// Group collects policy and flow bases of a tenant (docs/endpoints.md, "Groups").
type Group struct {
	ID          uuid.UUID `json:"id"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// GroupChanges are the fields a group create or update sets; nil leaves a
// field as it is. A create needs Name.
type GroupChanges struct {
	Name        *string
	Description *string
}

// GroupMember puts one base into one group; its ID is the API's memberId.
type GroupMember struct {
	ID        uuid.UUID  `json:"id"`
	GroupID   uuid.UUID  `json:"groupId"`
	Kind      authz.Kind `json:"kind"`
	BaseID    uuid.UUID  `json:"baseId"`
	CreatedAt time.Time  `json:"createdAt"`
}

// GroupMemberInput names the base to put into a group: Kind is policy or
// flow, and must be the base's.
type GroupMemberInput struct {
	Kind   authz.Kind
	BaseID uuid.UUID
}

func groupOf(g *ent.Group) *Group {
	return &Group{ID: g.ID, Name: g.Name, Description: g.Description, CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt}
}

func groupMemberOf(m *ent.GroupMember) *GroupMember {
	return &GroupMember{ID: m.ID, GroupID: m.GroupID, Kind: authz.Kind(m.Kind), BaseID: m.BaseID, CreatedAt: m.CreatedAt}
}

func (c *GroupChanges) check(creating bool) error {
	if creating && c.Name == nil || c.Name != nil && strings.TrimSpace(*c.Name) == "" {
		return Invalid("name is required")
	}
	if err := checkOptionalName("name", c.Name); err != nil {
		return err
	}
	return checkOptionalText("description", c.Description, MaxDescriptionLength)
}

// tenantGroup finds a group of the caller's tenant; another tenant's is
// not found.
func tenantGroup(ctx context.Context, in storage.Groups, p *Principal, id uuid.UUID) (*ent.Group, error) {
	g, err := in.Group(ctx, p.TenantID, id)
	if err != nil {
		return nil, lookupErr(err, "group", id)
	}
	return g, nil
}

// lockedGroup is tenantGroup in a transaction, holding the group until it
// ends (see storage.Tx.LockGroup).
func lockedGroup(ctx context.Context, tx storage.Tx, p *Principal, id uuid.UUID) (*ent.Group, error) {
	g, err := tx.LockGroup(ctx, p.TenantID, id)
	if err != nil {
		return nil, lookupErr(err, "group", id)
	}
	return g, nil
}

// tenantBase finds a base of the kind in the caller's tenant, deleted or
// not; another tenant's, or one of the other kind, is not found.
func (s *Service) tenantBase(ctx context.Context, p *Principal, kind base.Kind, id uuid.UUID) (*ent.Base, error) {
	b, err := s.store.Base(ctx, id)
	if err != nil || !p.owns(b.OrganizationID, kind, b.Kind) {
		return nil, notFoundOr(err, kind, id)
	}
	return b, nil
}

// manageGroup finds a group of the caller's tenant and then asks whether
// the caller may manage groups: like a policy, another tenant's or a
// missing group is not found whatever the caller's role.
func (s *Service) manageGroup(ctx context.Context, p *Principal, id uuid.UUID) error {
	if _, err := tenantGroup(ctx, s.store, p, id); err != nil {
		return err
	}
	return s.authorizeOnTenant(ctx, p, authz.ActionManageGroups, authz.KindGroup)
}

// viewGroup finds a group the caller may look at.
func (s *Service) viewGroup(ctx context.Context, p *Principal, id uuid.UUID) (*ent.Group, error) {
	if err := s.authorizeOnTenant(ctx, p, authz.ActionView, authz.KindGroup); err != nil {
		return nil, err
	}
	return tenantGroup(ctx, s.store, p, id)
}

// groupEvent is an event about a group itself.
func groupEvent(p *Principal, action auditevent.Action, g *ent.Group, details map[string]any) event {
	return event{tenant: p.TenantID, action: action, kind: auditevent.KindGroup, group: &g.ID, actor: p, details: details}
}

// assignment is the `assigned` event of a base entering or leaving a group.
func assignment(p *Principal, g *ent.Group, m *ent.GroupMember, direction string) event {
	return event{tenant: p.TenantID, action: auditevent.ActionAssigned, kind: auditevent.Kind(m.Kind),
		base: &m.BaseID, group: &g.ID, actor: p,
		details: map[string]any{"direction": direction, "memberId": m.ID, "group": g.Name}}
}

// CreateGroup creates a group (POST /group).
func (s *Service) CreateGroup(ctx context.Context, c GroupChanges) (*Group, error) {
	if err := c.check(true); err != nil {
		return nil, err
	}
	p, err := s.allowed(ctx, authz.ActionManageGroups, authz.KindGroup)
	if err != nil {
		return nil, err
	}
	var out *ent.Group
	err = s.inTx(ctx, func(tx storage.Tx) error {
		now := s.timestamp()
		g := &ent.Group{OrganizationID: p.TenantID, Name: *c.Name, CreatedAt: now, UpdatedAt: now}
		if c.Description != nil {
			g.Description = *c.Description
		}
		g, err := tx.CreateGroup(ctx, g)
		if err != nil {
			return storeErr(err, "the group could not be created")
		}
		out = g
		return s.changed(ctx, tx, groupChange(g), groupEvent(p, auditevent.ActionCreated, g, map[string]any{"name": g.Name}))
	})
	if err != nil {
		return nil, err
	}
	return groupOf(out), nil
}

// Group loads a group (GET /group/{groupId}).
func (s *Service) Group(ctx context.Context, id uuid.UUID) (*Group, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	g, err := s.viewGroup(ctx, p, id)
	if err != nil {
		return nil, err
	}
	return groupOf(g), nil
}

// UpdateGroup renames or redescribes a group (PUT /group/{groupId}). Its
// `edited` event gives each changed field's from and to; a request that
// changes nothing stores nothing.
func (s *Service) UpdateGroup(ctx context.Context, id uuid.UUID, c GroupChanges) (*Group, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := c.check(false); err != nil {
		return nil, err
	}
	if err := s.manageGroup(ctx, p, id); err != nil {
		return nil, err
	}
	var out *ent.Group
	err = s.inTx(ctx, func(tx storage.Tx) error {
		// Locked, so that edits at once take turns and each event's "from"
		// is what the edit before it left.
		g, err := lockedGroup(ctx, tx, p, id)
		if err != nil {
			return err
		}
		changed := map[string]any{}
		var name, description *string
		if c.Name != nil && *c.Name != g.Name {
			changed["name"] = map[string]any{"from": g.Name, "to": *c.Name}
			name = c.Name
		}
		if c.Description != nil && *c.Description != g.Description {
			changed["description"] = map[string]any{"from": g.Description, "to": *c.Description}
			description = c.Description
		}
		out = g
		if len(changed) == 0 {
			return nil
		}
		now := s.timestamp()
		if out, err = tx.UpdateGroup(ctx, g, name, description, now); err != nil {
			return lookupErr(err, "group", g.ID)
		}
		return s.changed(ctx, tx, groupChange(g), groupEvent(p, auditevent.ActionEdited, out, changed))
	})
	if err != nil {
		return nil, err
	}
	return groupOf(out), nil
}

// DeleteGroup deletes a group and, through the foreign key's cascade, its
// memberships in one transaction (DELETE /group/{groupId}); the bases
// stay. Each membership ends with an `assigned` event, so a base's history
// shows it leaving the group.
func (s *Service) DeleteGroup(ctx context.Context, id uuid.UUID) error {
	p, err := principalOf(ctx)
	if err != nil {
		return err
	}
	if err := s.manageGroup(ctx, p, id); err != nil {
		return err
	}
	return s.inTx(ctx, func(tx storage.Tx) error {
		// Locked, so that every member the cascade takes is read here and
		// ends with its event.
		g, err := lockedGroup(ctx, tx, p, id)
		if err != nil {
			return err
		}
		members, err := tx.GroupMembers(ctx, g.ID)
		if err != nil {
			return unavailable(err)
		}
		if err := tx.DeleteGroup(ctx, g); err != nil {
			return lookupErr(err, "group", id)
		}
		if err := s.announce(ctx, tx, groupChange(g)); err != nil {
			return err
		}
		events := make([]event, 0, len(members)+1)
		for _, m := range members {
			events = append(events, assignment(p, g, m, "removed"))
		}
		events = append(events, groupEvent(p, auditevent.ActionDeleted, g,
			map[string]any{"name": g.Name, "members": len(members)}))
		return s.appendEvents(ctx, tx, events...)
	})
}

// Groups lists the tenant's groups, newest first (GET /groups). Query
// filters by name; groups have no group to filter by.
func (s *Service) Groups(ctx context.Context, o ListOptions) (*Page[Group], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	limit, err := o.limit()
	if err != nil {
		return nil, err
	}
	if name := o.groupFilter(); name != "" {
		return nil, Invalid("%s does not filter groups", name)
	}
	if err := s.authorizeOnTenant(ctx, p, authz.ActionView, authz.KindGroup); err != nil {
		return nil, err
	}
	read := func(w storage.Window) ([]*ent.Group, *int, error) { return s.store.Groups(ctx, p.TenantID, o.Query, w) }
	return readPage(list{kind: groupList}, o, limit, read, func(g *ent.Group) Group { return *groupOf(g) }, func(g Group) uuid.UUID { return g.ID })
}

// AddGroupMember puts a base into a group (POST /group/{groupId}/member).
// The base must be one the caller may see, of the tenant (else not found)
// and not deleted; a base already in the group is a conflict.
func (s *Service) AddGroupMember(ctx context.Context, groupID uuid.UUID, in GroupMemberInput) (*GroupMember, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if in.Kind != authz.KindPolicy && in.Kind != authz.KindFlow {
		return nil, Invalid("kind must be %q or %q", authz.KindPolicy, authz.KindFlow)
	}
	if _, err := tenantGroup(ctx, s.store, p, groupID); err != nil {
		return nil, err
	}
	b, err := s.tenantBase(ctx, p, base.Kind(in.Kind), in.BaseID)
	if err != nil {
		return nil, s.misnamed(ctx, p, base.Kind(in.Kind), in.BaseID, false, err)
	}
	if b.DeletedAt != nil {
		return nil, errBaseDeleted(b)
	}
	// Looked up before asking, so that ids answer not found or deleted
	// alike for every role.
	if err := s.authorizeOnTenant(ctx, p, authz.ActionManageGroups, authz.KindGroup); err != nil {
		return nil, err
	}
	if err := s.authorize(ctx, p, authz.ActionView, resourceOf(b)); err != nil {
		return nil, err
	}
	var out *ent.GroupMember
	err = s.inTx(ctx, func(tx storage.Tx) error {
		// Locked, so that the event names the group as it is, and a delete
		// at once sees this member or none of it.
		g, err := lockedGroup(ctx, tx, p, groupID)
		if err != nil {
			return err
		}
		// The base may have been deleted since it was read; it stays live
		// until this commits.
		switch live, err := tx.KeepLive(ctx, b.ID); {
		case err != nil:
			return unavailable(err)
		case !live:
			return errBaseDeleted(b)
		}
		now := s.timestamp()
		m, err := tx.AddToGroup(ctx, &ent.GroupMember{GroupID: g.ID, BaseID: b.ID, Kind: groupmember.Kind(b.Kind), CreatedAt: now})
		if errors.Is(err, storage.ErrNotFound) {
			// The group's deletion, under way when it was read, came first.
			return lookupErr(err, "group", groupID)
		}
		if err != nil {
			return storeErr(err, "the "+string(b.Kind)+" "+b.ID.String()+" is in the group already")
		}
		out = m
		return s.changed(ctx, tx, groupChange(g), assignment(p, g, m, "added"))
	})
	if err != nil {
		return nil, err
	}
	return groupMemberOf(out), nil
}

// groupChange is the announcement of a change to a group or its members.
// No cache keeps groups today; the feed carries them for one that will.
func groupChange(g *ent.Group) changefeed.Change {
	return changefeed.Change{Kind: changefeed.KindGroup, Tenant: g.OrganizationID, ID: g.ID}
}

// RemoveGroupMember takes a base out of a group (DELETE
// /group/{groupId}/member/{memberId}).
func (s *Service) RemoveGroupMember(ctx context.Context, groupID, memberID uuid.UUID) error {
	p, err := principalOf(ctx)
	if err != nil {
		return err
	}
	g, err := tenantGroup(ctx, s.store, p, groupID)
	if err != nil {
		return err
	}
	if _, err := groupMember(ctx, s.store, g, memberID); err != nil {
		return err
	}
	if err := s.authorizeOnTenant(ctx, p, authz.ActionManageGroups, authz.KindGroup); err != nil {
		return err
	}
	return s.inTx(ctx, func(tx storage.Tx) error {
		// Locked, so that a delete of the group at once, which ends each
		// member it reads with an event, either comes first or reads this
		// member gone; and the event names the group as it is now.
		g, err := lockedGroup(ctx, tx, p, groupID)
		if err != nil {
			return err
		}
		m, err := groupMember(ctx, tx, g, memberID)
		if err != nil {
			return err
		}
		if err := tx.RemoveFromGroup(ctx, m); err != nil {
			return groupMemberErr(err, g, memberID)
		}
		return s.changed(ctx, tx, groupChange(g), assignment(p, g, m, "removed"))
	})
}

// groupMember finds a member of the group.
func groupMember(ctx context.Context, in storage.Groups, g *ent.Group, id uuid.UUID) (*ent.GroupMember, error) {
	m, err := in.MemberOfGroup(ctx, g.ID, id)
	if err != nil {
		return nil, groupMemberErr(err, g, id)
	}
	return m, nil
}

// groupMemberErr is the error of finding or removing member id of g: one
// that is not there (removed meanwhile) is not found.
func groupMemberErr(err error, g *ent.Group, id uuid.UUID) error {
	if errors.Is(err, storage.ErrNotFound) {
		return newError(CodeNotFound, "group %s has no member %s", g.ID, id)
	}
	return unavailable(err)
}

// GroupMember loads a membership by its id, as those who may look at the
// group may; another tenant's is not found.
func (s *Service) GroupMember(ctx context.Context, id uuid.UUID) (*GroupMember, error) {
	p, err := s.allowed(ctx, authz.ActionView, authz.KindGroup)
	if err != nil {
		return nil, err
	}
	m, err := s.store.GroupMember(ctx, p.TenantID, id)
	if err != nil {
		return nil, lookupErr(err, "group member", id)
	}
	return groupMemberOf(m), nil
}

// GroupMembership finds the membership of a base in a group, so that a
// client listing a group's policies and flows can take one out: lists give
// base ids, and removing needs the membership's id. A base that is not in
// the group answers nil, and so does one the caller may not see (another
// user's draft, a deleted base), as the group's lists leave it out, so that
// the answer tells nothing about it.
func (s *Service) GroupMembership(ctx context.Context, groupID uuid.UUID, in GroupMemberInput) (*GroupMember, error) {
	p, err := s.allowed(ctx, authz.ActionView, authz.KindGroup)
	if err != nil {
		return nil, err
	}
	if in.Kind != authz.KindPolicy && in.Kind != authz.KindFlow {
		return nil, Invalid("kind must be %q or %q", authz.KindPolicy, authz.KindFlow)
	}
	g, err := tenantGroup(ctx, s.store, p, groupID)
	if err != nil {
		return nil, err
	}
	if err := s.authorize(ctx, p, authz.ActionView, newBaseResource(p, base.Kind(in.Kind))); err != nil {
		return nil, err
	}
	// The member is found through its base as the lists find bases, so
	// that what they show is what this finds.
	m, err := s.store.GroupMembership(ctx, g, base.Kind(in.Kind), in.BaseID, p.UserID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return nil, nil
	case err != nil:
		return nil, unavailable(err)
	}
	return groupMemberOf(m), nil
}

// GroupPolicies lists the policies of a group the caller may see, like
// Policies (GET /group/{groupId}/policies).
func (s *Service) GroupPolicies(ctx context.Context, groupID uuid.UUID, o ListOptions) (*Page[Summary], error) {
	if err := inGroup(&o, groupID); err != nil {
		return nil, err
	}
	return s.listBases(ctx, s.policyKind, o)
}

// GroupFlows lists the flows of a group the caller may see, like Flows
// (GET /group/{groupId}/flows).
func (s *Service) GroupFlows(ctx context.Context, groupID uuid.UUID, o ListOptions) (*Page[FlowSummary], error) {
	if err := inGroup(&o, groupID); err != nil {
		return nil, err
	}
	return s.listBases(ctx, s.flowKind, o)
}

func inGroup(o *ListOptions, groupID uuid.UUID) error {
	if o.GroupID != nil && *o.GroupID != groupID {
		return Invalid("groupId %s contradicts the group %s of the path", *o.GroupID, groupID)
	}
	if o.NotInGroupID != nil && *o.NotInGroupID == groupID {
		return Invalid("notInGroupId %s is the group of the path: nothing is both in it and not", groupID)
	}
	o.GroupID = &groupID
	return nil
}
