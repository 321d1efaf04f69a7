package rest

import (
	"net/http"
	"net/url"
	"time"

	"github.com/verdict/verdict/service"
)

// auditLog is GET /audit: the tenant's audit log, newest first, for admins
// and auditors.
func (s *server) auditLog(w http.ResponseWriter, r *http.Request) {
	o, err := listOptions(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	f, err := auditFilter(r.URL.Query())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	page, err := s.svc.AuditEvents(r.Context(), f, o)
	s.reply(w, r, http.StatusOK, page, err)
}

// auditFilter reads the audit log's filters from the query, each at most
// once. Which actions and kinds exist is the service's to say.
func auditFilter(q url.Values) (service.AuditFilter, error) {
	var f service.AuditFilter
	for _, name := range []string{"action", "kind", "baseId", "actor", "since", "until"} {
		if n := len(q[name]); n > 1 {
			return f, invalid("%s is given %d times; give it once", name, n)
		}
	}
	f.Action, f.Kind = service.AuditAction(q.Get("action")), service.AuditKind(q.Get("kind"))
	if v := q.Get("baseId"); v != "" {
		id, err := parseID("baseId", v)
		if err != nil {
			return f, err
		}
		f.BaseID = &id
	}
	if v := q.Get("actor"); v != "" {
		id, err := parseID("actor", v)
		if err != nil {
			return f, err
		}
		f.Actor = &id
	}
	var err error
	if f.Since, err = queryTime(q, "since"); err != nil {
		return f, err
	}
	if f.Until, err = queryTime(q, "until"); err != nil {
		return f, err
	}
	return f, nil
}

// queryTime reads an RFC 3339 time from the query; absent is nil.
func queryTime(q url.Values, name string) (*time.Time, error) {
	v := q.Get(name)
	if v == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return nil, invalid("%s %q is not an RFC 3339 time such as 2027-01-31T00:00:00Z", name, v)
	}
	return &t, nil
}
