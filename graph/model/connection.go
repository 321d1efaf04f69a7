package model

import "github.com/verdict/verdict/service"

// PageInfo tells where a page ends.
type PageInfo struct {
	HasNextPage bool
	// EndCursor is nil when the page is empty.
	EndCursor *string
}

// SummaryConnection is a page of policies or of flows, whose summaries
// have one shape. TotalCount, here and in every connection, is nil unless
// the list was asked for its total, which it is when totalCount is
// selected: a nil one that is selected anyway is an error, not a zero.
type SummaryConnection struct {
	Edges      []SummaryEdge
	PageInfo   PageInfo
	TotalCount *int
}

// SummaryEdge is a policy or a flow of a page and the cursor to resume
// after it.
type SummaryEdge struct {
	Cursor string
	Node   service.Summary
}

// GroupConnection is a page of groups.
type GroupConnection struct {
	Edges      []GroupEdge
	PageInfo   PageInfo
	TotalCount *int
}

// GroupEdge is a group of a page and the cursor to resume after it.
type GroupEdge struct {
	Cursor string
	Node   service.Group
}

// AuditEventConnection is a page of the audit log.
type AuditEventConnection struct {
	Edges      []AuditEventEdge
	PageInfo   PageInfo
	TotalCount *int
}

// AuditEventEdge is an audit event of a page and the cursor to resume
// after it.
type AuditEventEdge struct {
	Cursor string
	Node   service.AuditEvent
}

// APIKeyConnection is a page of API keys.
type APIKeyConnection struct {
	Edges      []APIKeyEdge
	PageInfo   PageInfo
	TotalCount *int
}

// APIKeyEdge is a key of a page and the cursor to resume after it.
type APIKeyEdge struct {
	Cursor string
	Node   service.Key
}

// MemberConnection is a page of members.
type MemberConnection struct {
	Edges      []MemberEdge
	PageInfo   PageInfo
	TotalCount *int
}

// MemberEdge is a member of a page and the cursor to resume after it.
type MemberEdge struct {
	Cursor string
	Node   service.Member
}

// NewSummaryConnection shapes a page of policies or flows.
func NewSummaryConnection(page *service.Page[service.Summary]) *SummaryConnection {
	edges, info := connection(page, func(s service.Summary) string { return service.CursorAfter(s.BaseID) },
		func(cursor string, s service.Summary) SummaryEdge { return SummaryEdge{Cursor: cursor, Node: s} })
	return &SummaryConnection{Edges: edges, PageInfo: info, TotalCount: page.Total}
}

// NewGroupConnection shapes a page of groups.
func NewGroupConnection(page *service.Page[service.Group]) *GroupConnection {
	edges, info := connection(page, func(g service.Group) string { return service.CursorAfter(g.ID) },
		func(cursor string, g service.Group) GroupEdge { return GroupEdge{Cursor: cursor, Node: g} })
	return &GroupConnection{Edges: edges, PageInfo: info, TotalCount: page.Total}
}

// NewAuditEventConnection shapes a page of the audit log.
func NewAuditEventConnection(page *service.Page[service.AuditEvent]) *AuditEventConnection {
	edges, info := connection(page, service.AuditCursor,
		func(cursor string, ev service.AuditEvent) AuditEventEdge {
			return AuditEventEdge{Cursor: cursor, Node: ev}
		})
	return &AuditEventConnection{Edges: edges, PageInfo: info, TotalCount: page.Total}
}

// NewAPIKeyConnection shapes a page of keys.
func NewAPIKeyConnection(page *service.Page[service.Key]) *APIKeyConnection {
	edges, info := connection(page, func(k service.Key) string { return service.CursorAfter(k.ID) },
		func(cursor string, k service.Key) APIKeyEdge { return APIKeyEdge{Cursor: cursor, Node: k} })
	return &APIKeyConnection{Edges: edges, PageInfo: info, TotalCount: page.Total}
}

// NewMemberConnection shapes a page of members.
func NewMemberConnection(page *service.Page[service.Member]) *MemberConnection {
	edges, info := connection(page, func(m service.Member) string { return service.CursorAfter(m.ID) },
		func(cursor string, m service.Member) MemberEdge { return MemberEdge{Cursor: cursor, Node: m} })
	return &MemberConnection{Edges: edges, PageInfo: info, TotalCount: page.Total}
}

// connection makes the edges of a page, each with the cursor that resumes
// after its item, and the page's info. The page's NextCursor, when there
// is one, is its end cursor: the service resumes after the last item
// shown.
func connection[T, E any](page *service.Page[T], cursorOf func(T) string, edge func(string, T) E) ([]E, PageInfo) {
	edges := make([]E, len(page.Items))
	info := PageInfo{HasNextPage: page.NextCursor != ""}
	var last string
	for i, item := range page.Items {
		last = cursorOf(item)
		edges[i] = edge(last, item)
	}
	switch {
	case page.NextCursor != "":
		info.EndCursor = &page.NextCursor
	case len(edges) > 0:
		info.EndCursor = &last
	}
	return edges, info
}

// ListOptions are the service's form of a list's arguments. The handler
// has refused a first outside 1–200 before any resolver runs, so a
// present first is a valid limit (an absent one is the service's
// default).
func ListOptions(first *int, after, query *string) service.ListOptions {
	var o service.ListOptions
	if first != nil {
		o.Limit = *first
	}
	if after != nil {
		o.Cursor = *after
	}
	if query != nil {
		o.Query = *query
	}
	return o
}
