package model

import "github.com/verdict/verdict/service"

// PageInfo tells where a page ends.
type PageInfo struct {
	HasNextPage bool
	// EndCursor is nil when the page is empty.
	EndCursor *string
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

// The connections of the schema. gqlgen binds schema types to named Go
// types only, so each instance has a name (gqlgen.yml).
type (
	// SummaryConnection is a page of policies or of flows, whose summaries
	// have one shape.
	SummaryConnection    = Connection[service.Summary]
	SummaryEdge          = Edge[service.Summary]
	GroupConnection      = Connection[service.Group]
	GroupEdge            = Edge[service.Group]
	AuditEventConnection = Connection[service.AuditEvent]
	AuditEventEdge       = Edge[service.AuditEvent]
	APIKeyConnection     = Connection[service.Key]
	APIKeyEdge           = Edge[service.Key]
	MemberConnection     = Connection[service.Member]
	MemberEdge           = Edge[service.Member]
)

// NewConnection shapes a page of the service, each edge with the cursor
// the service gives its item. The last item's cursor ends the page: it is
// the page's NextCursor when there is a next page.
func NewConnection[T any](page *service.Page[T]) *Connection[T] {
	c := &Connection[T]{
		Edges:      make([]Edge[T], len(page.Items)),
		PageInfo:   PageInfo{HasNextPage: page.NextCursor != ""},
		TotalCount: page.Total,
	}
	for i, item := range page.Items {
		c.Edges[i] = Edge[T]{Cursor: page.Cursor(i), Node: item}
	}
	if n := len(c.Edges); n > 0 {
		c.PageInfo.EndCursor = &c.Edges[n-1].Cursor
	}
	return c
}
