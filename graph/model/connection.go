package model

import (
	"github.com/google/uuid"

	"github.com/verdict/verdict/service"
)

// PageInfo tells where a page starts and ends.
type PageInfo struct {
	HasNextPage bool
	// HasPreviousPage is whether the page was asked for after a cursor:
	// pages go forward only, so that is all a page knows of what precedes
	// it.
	HasPreviousPage bool
	// StartCursor is nil when the page is empty; EndCursor too, unless
	// the list goes on after it.
	StartCursor *string
	EndCursor   *string
}

// Connection is a page of a list. TotalCount is nil unless the list was
// asked for its total, which it is when totalCount is selected: a nil one
// that is selected anyway is an error, not a zero.
type Connection[T any] struct {
	Edges      []Edge[T]
	PageInfo   PageInfo
	TotalCount *int
}

// Edge is an item of a page and the cursor to resume after it.
type Edge[T any] struct {
	Cursor string
	Node   T
}

// PolicySummary and FlowSummary are the service's summaries of the two
// kinds of base. They are Nodes of two schema types, which the executor
// tells apart by Go type, so each kind has a type of its own.
type (
	PolicySummary service.Summary
	FlowSummary   service.Summary
)

// ID is the summary's Node id: its base's id.
func (s PolicySummary) ID() uuid.UUID { return s.BaseID }

// ID is the summary's Node id: its base's id.
func (s FlowSummary) ID() uuid.UUID { return s.BaseID }

// The connections of the schema. gqlgen binds schema types to named Go
// types only, so each instance has a name (gqlgen.yml).
type (
	PolicyConnection     = Connection[PolicySummary]
	PolicyEdge           = Edge[PolicySummary]
	FlowConnection       = Connection[FlowSummary]
	FlowEdge             = Edge[FlowSummary]
	GroupConnection      = Connection[service.Group]
	GroupEdge            = Edge[service.Group]
	AuditEventConnection = Connection[service.AuditEvent]
	AuditEventEdge       = Edge[service.AuditEvent]
	DecisionConnection   = Connection[service.Decision]
	DecisionEdge         = Edge[service.Decision]
	APIKeyConnection     = Connection[service.Key]
	APIKeyEdge           = Edge[service.Key]
	MemberConnection     = Connection[service.Member]
	MemberEdge           = Edge[service.Member]
)

// NewConnection shapes a page of the service that was asked for after the
// cursor after (nil or empty for a first page).
func NewConnection[T any](page *service.Page[T], after *string) *Connection[T] {
	return mapConnection(page, after, func(item T) T { return item })
}

// PolicySummaries shapes a page of policy summaries, as NewConnection does.
func PolicySummaries(page *service.Page[service.Summary], after *string) *PolicyConnection {
	return mapConnection(page, after, func(s service.Summary) PolicySummary { return PolicySummary(s) })
}

// FlowSummaries shapes a page of flow summaries, as NewConnection does.
func FlowSummaries(page *service.Page[service.Summary], after *string) *FlowConnection {
	return mapConnection(page, after, func(s service.Summary) FlowSummary { return FlowSummary(s) })
}

// mapConnection shapes a page of the service, each edge with the cursor
// the service gives its item and the item as the schema shows it. The
// page's NextCursor ends it when there is a next page: mostly the last
// item's cursor, but a page of the audit log that stopped its walk short
// ends where the walk stopped, after its last item or with none at all.
func mapConnection[T, U any](page *service.Page[T], after *string, item func(T) U) *Connection[U] {
	c := &Connection[U]{
		Edges: make([]Edge[U], len(page.Items)),
		PageInfo: PageInfo{
			HasNextPage:     page.NextCursor != "",
			HasPreviousPage: after != nil && *after != "",
		},
		TotalCount: page.Total,
	}
	for i, it := range page.Items {
		c.Edges[i] = Edge[U]{Cursor: page.Cursor(i), Node: item(it)}
	}
	if n := len(c.Edges); n > 0 {
		c.PageInfo.StartCursor = &c.Edges[0].Cursor
		c.PageInfo.EndCursor = &c.Edges[n-1].Cursor
	}
	if page.NextCursor != "" {
		c.PageInfo.EndCursor = &page.NextCursor
	}
	return c
}
