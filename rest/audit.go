package rest

import (
	"net/http"
	"net/url"

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
	if err := givenOnce(q, "action", "kind", "baseId", "actor", "since", "until"); err != nil {
		return f, err
	}
	f.Action, f.Kind = service.AuditAction(q.Get("action")), service.AuditKind(q.Get("kind"))
	var err error
	if f.BaseID, err = queryID(q, "baseId"); err != nil {
		return f, err
	}
	if f.Actor, err = queryID(q, "actor"); err != nil {
		return f, err
	}
	if f.Since, err = queryTime(q, "since"); err != nil {
		return f, err
	}
	if f.Until, err = queryTime(q, "until"); err != nil {
		return f, err
	}
	return f, nil
}
