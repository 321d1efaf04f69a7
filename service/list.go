package service

import (
	"context"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/storage"
)

// ListOptions page through a list: Limit 1–200 (0 is 50), Cursor from the
// previous page, Query a case-insensitive part of the name, GroupID a group
// the bases must belong to, NotInGroupID one they must not belong to (the
// candidates for adding to it). WithTotal asks for the page's Total too,
// which costs a second query, so only a caller that shows it asks.
type ListOptions struct {
	Limit        int
	Cursor       string
	Query        string
	GroupID      *uuid.UUID
	NotInGroupID *uuid.UUID
	WithTotal    bool
}

// groupFilter names the group filter o gives, "" for none: lists of
// anything but policies and flows refuse them.
func (o ListOptions) groupFilter() string {
	switch {
	case o.GroupID != nil:
		return "groupId"
	case o.NotInGroupID != nil:
		return "notInGroupId"
	}
	return ""
}

// Page is one page of a list; NextCursor is empty on the last page. Total
// is set when the options asked for it: how many items the list holds on
// all its pages, with the same filters and for the same caller. REST
// bodies are {items, nextCursor}, so it is never encoded.
type Page[T any] struct {
	Items      []T    `json:"items"`
	NextCursor string `json:"nextCursor"`
	Total      *int   `json:"-"`

	cursor func(T) string // the list's cursor of an item
}

// Cursor is the cursor of a list resuming after the page's item i, as a
// Relay edge carries one for each item.
func (p *Page[T]) Cursor(i int) string { return p.cursor(p.Items[i]) }

// Page sizes of every list, REST's limit and GraphQL's first alike
// (1–200, default 50).
const (
	DefaultPageSize = 50
	MaxPageSize     = 200
)

// CheckPageSize refuses a page size, given as name, outside
// 1–MaxPageSize. A list's front end checks a size it was given before it
// becomes ListOptions.Limit, whose 0 means "not given".
func CheckPageSize(name string, n int) error {
	if n < 1 || n > MaxPageSize {
		return Invalid("%s must be between 1 and %d, not %d", name, MaxPageSize, n)
	}
	return nil
}

// CheckQuery refuses the text filter of a list, named name, as the list
// itself would, for a caller that checks its arguments before it asks.
func CheckQuery(name, q string) error {
	return checkText(name, q, MaxQueryLength)
}

func (o ListOptions) limit() (int, error) {
	if err := CheckQuery("q", o.Query); err != nil {
		return 0, err
	}
	if o.Limit == 0 {
		return DefaultPageSize, nil
	}
	return o.Limit, CheckPageSize("limit", o.Limit)
}

// listBases lists the bases of a kind the caller may see, newest first:
// published ones (owned by the organization) and the caller's own
// never-published ones.
func (s *Service) listBases(ctx context.Context, k *kindRules, o ListOptions) (*Page[Summary], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	limit, err := o.limit()
	if err != nil {
		return nil, err
	}
	if err := s.authorize(ctx, p, authz.ActionView, newBaseResource(p, k.kind)); err != nil {
		return nil, err
	}
	f := storage.BaseFilter{Tenant: p.TenantID, Kind: k.kind, OwnedBy: p.UserID, Name: o.Query,
		Group: o.GroupID, NotInGroup: o.NotInGroupID}
	// An unknown group, or another tenant's, is not found rather than an
	// empty list or a whole one.
	for _, g := range []*uuid.UUID{o.GroupID, o.NotInGroupID} {
		if g == nil {
			continue
		}
		if _, err := s.viewGroup(ctx, p, *g); err != nil {
			return nil, err
		}
	}
	return readPage(baseList(k.kind, o), o, limit, func(w storage.Window) ([]*ent.Base, *int, error) { return s.store.Bases(ctx, f, w) },
		summaryOf, func(s Summary) uuid.UUID { return s.BaseID })
}

// readPage reads the page o asks for of l, a list ordered by id, newest
// first, through read, whose rows are shown as item; id is an item's row
// id, which the next page's cursor resumes after. Ids are time-ordered
// (UUIDv7), so a page never repeats or skips a row that existed when the
// first page was read, whatever is inserted meanwhile. The window read is
// one row longer than the page: an extra row only tells that there is a
// next page.
func readPage[E, T any](l list, o ListOptions, limit int, read func(storage.Window) ([]E, *int, error),
	item func(E) T, id func(T) uuid.UUID) (*Page[T], error) {
	w := storage.Window{Limit: limit + 1, Count: o.WithTotal}
	if o.Cursor != "" {
		after, err := l.decodeID(o.Cursor)
		if err != nil {
			return nil, err
		}
		w.After = &after
	}
	rows, n, err := read(w)
	if err != nil {
		return nil, unavailable(err)
	}
	return pageOf(rows, limit, n, item, func(t T) string { return l.idCursor(id(t)) }), nil
}

// pageOf makes a page of the rows of a query that asked for limit+1: an
// extra row only tells that there is a next page, which starts after the
// last item shown, at its cursor.
func pageOf[E, T any](rows []E, limit int, total *int, item func(E) T, cursor func(T) string) *Page[T] {
	page := &Page[T]{Items: make([]T, 0, min(len(rows), limit)), Total: total, cursor: cursor}
	for i, r := range rows {
		if i == limit {
			page.NextCursor = cursor(page.Items[i-1])
			break
		}
		page.Items = append(page.Items, item(r))
	}
	return page
}

// summary is a base as its kind's list shows it, found by the base's id
// (a record id is not_found), with the permissions of loading it by that
// id.
func (s *Service) summary(ctx context.Context, k *kindRules, id uuid.UUID) (*Summary, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	l, err := s.load(ctx, p, k, id, authz.ActionView)
	if err != nil {
		return nil, err
	}
	if l.base.ID != id {
		return nil, newError(CodeNotFound, "no %s base %s", k.kind, id)
	}
	sum := summaryOf(l.base)
	return &sum, nil
}

// PolicySummary is a policy base as the policies list shows it.
func (s *Service) PolicySummary(ctx context.Context, baseID uuid.UUID) (*Summary, error) {
	return s.summary(ctx, s.policyKind, baseID)
}

// FlowSummary is a flow base as the flows list shows it.
func (s *Service) FlowSummary(ctx context.Context, baseID uuid.UUID) (*FlowSummary, error) {
	return s.summary(ctx, s.flowKind, baseID)
}

// Policies lists the policies the caller may see (GET /policies).
func (s *Service) Policies(ctx context.Context, o ListOptions) (*Page[Summary], error) {
	return s.listBases(ctx, s.policyKind, o)
}
