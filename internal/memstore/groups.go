package memstore

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/groupmember"
	"github.com/verdict/verdict/storage"
)

func (r reads) Group(ctx context.Context, tenant, id uuid.UUID) (*ent.Group, error) {
	g, ok := r.state().groups[id]
	if ok && g.OrganizationID != tenant {
		ok = false
	}
	return copyOf(g, ok)
}

func (r reads) Groups(ctx context.Context, tenant uuid.UUID, query string, w storage.Window) ([]*ent.Group, *int, error) {
	gs, n := window(r.state().groups, func(g *ent.Group) uuid.UUID { return g.ID }, func(g *ent.Group) bool {
		return g.OrganizationID == tenant && (query == "" || containsFold(g.Name, query))
	}, w)
	return gs, n, nil
}

func (r reads) GroupMember(ctx context.Context, tenant, id uuid.UUID) (*ent.GroupMember, error) {
	st := r.state()
	m, ok := st.groupMembers[id]
	if ok && st.groups[m.GroupID].OrganizationID != tenant {
		ok = false
	}
	return copyOf(m, ok)
}

func (r reads) MemberOfGroup(ctx context.Context, groupID, id uuid.UUID) (*ent.GroupMember, error) {
	m, ok := r.state().groupMembers[id]
	if ok && m.GroupID != groupID {
		ok = false
	}
	return copyOf(m, ok)
}

func (r reads) GroupMembers(ctx context.Context, groupID uuid.UUID) ([]*ent.GroupMember, error) {
	var out []*ent.GroupMember
	for _, m := range sorted(r.state().groupMembers, func(m *ent.GroupMember) uuid.UUID { return m.ID }) {
		if m.GroupID == groupID {
			out = append(out, m)
		}
	}
	return out, nil
}

func (r reads) GroupMembership(ctx context.Context, g *ent.Group, kind base.Kind, baseID, ownedBy uuid.UUID) (*ent.GroupMember, error) {
	st := r.state()
	return only(st.groupMembers, func(m *ent.GroupMember) bool {
		b := st.bases[m.BaseID]
		return m.GroupID == g.ID && m.Kind == groupmember.Kind(kind) && m.BaseID == baseID &&
			b.OrganizationID == g.OrganizationID && b.DeletedAt == nil && listed(b, ownedBy)
	})
}

func (t *tx) CreateGroup(ctx context.Context, g *ent.Group) (*ent.Group, error) {
	return store(t.st.groups, g, func(g *ent.Group) *uuid.UUID { return &g.ID })
}

func (t *tx) UpdateGroup(ctx context.Context, g *ent.Group, name, description *string, at time.Time) (*ent.Group, error) {
	old, ok := t.st.groups[g.ID]
	if !ok {
		return nil, storage.ErrNotFound
	}
	next := *old
	if name != nil {
		next.Name = *name
	}
	if description != nil {
		next.Description = *description
	}
	next.UpdatedAt = at
	t.st.groups[g.ID] = &next
	return copyOf(&next, true)
}

// DeleteGroup deletes the group's members with it, as the foreign key's
// cascade does.
func (t *tx) DeleteGroup(ctx context.Context, g *ent.Group) error {
	for id, m := range t.st.groupMembers {
		if m.GroupID == g.ID {
			delete(t.st.groupMembers, id)
		}
	}
	delete(t.st.groups, g.ID)
	return nil
}

// LockGroup is Group: transactions here run one at a time.
func (t *tx) LockGroup(ctx context.Context, tenant, id uuid.UUID) (*ent.Group, error) {
	return t.Group(ctx, tenant, id)
}

func (t *tx) AddToGroup(ctx context.Context, m *ent.GroupMember) (*ent.GroupMember, error) {
	if _, ok := t.st.groups[m.GroupID]; !ok {
		return nil, storage.ErrNotFound
	}
	if t.st.inGroup(m.GroupID, m.BaseID) {
		return nil, storage.ErrConflict
	}
	return store(t.st.groupMembers, m, func(m *ent.GroupMember) *uuid.UUID { return &m.ID })
}

func (t *tx) RemoveFromGroup(ctx context.Context, m *ent.GroupMember) error {
	delete(t.st.groupMembers, m.ID)
	return nil
}

// KeepLive needs no lock: transactions run one at a time.
func (t *tx) KeepLive(ctx context.Context, baseID uuid.UUID) (bool, error) {
	b, ok := t.st.bases[baseID]
	return ok && b.DeletedAt == nil, nil
}
