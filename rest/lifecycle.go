package rest

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/service"
)

// versionedKind is what the handlers shared by policies and flows need to know
// of a kind: the path parameter that names a record, how the bodies of
// POST and PUT read, and the service's operations. Both kinds are drafted,
// published, versioned and deleted alike; only their bodies and the
// service's result types (the type parameters) differ.
type versionedKind[Saved, Record, Versions, Summary any] struct {
	s      *server
	idName string
	// decodeCreate reads the body of POST; decodeUpdate that of PUT, whose
	// status says what the changes make.
	decodeCreate func(*http.Request) (service.Changes, error)
	decodeUpdate func(*http.Request) (status *string, c service.Changes, err error)

	create     func(context.Context, service.Changes) (*Saved, error)
	saveDraft  func(context.Context, uuid.UUID, service.Changes) (*Saved, error)
	publish    func(context.Context, uuid.UUID, service.Changes) (*Record, error)
	record     func(context.Context, uuid.UUID) (*Record, error)
	versions   func(context.Context, uuid.UUID, service.ListOptions) (*Versions, error)
	draftFrom  func(ctx context.Context, id uuid.UUID, replace bool) (*Record, error)
	rollback   func(context.Context, uuid.UUID) (*Record, error)
	list       func(context.Context, service.ListOptions) (*service.Page[Summary], error)
	deleteBase func(context.Context, uuid.UUID) error
}

// handleCreate is POST /policy and POST /flow.
func (k *versionedKind[S, R, V, L]) handleCreate(w http.ResponseWriter, r *http.Request) {
	c, err := k.decodeCreate(r)
	if err != nil {
		k.s.writeError(w, r, err)
		return
	}
	saved, err := k.create(r.Context(), c)
	k.s.reply(w, r, http.StatusCreated, saved, err)
}

// handleUpdate is PUT /policy/{policyId} and PUT /flow/{flowId}: status
// draft saves the draft, status published makes it the next version.
func (k *versionedKind[S, R, V, L]) handleUpdate(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, k.idName)
	if err != nil {
		k.s.writeError(w, r, err)
		return
	}
	status, c, err := k.decodeUpdate(r)
	if err != nil {
		k.s.writeError(w, r, err)
		return
	}
	switch {
	case status == nil:
		k.s.writeError(w, r, invalid("status is required: %q or %q", service.StatusDraft, service.StatusPublished))
	case *status == service.StatusDraft:
		saved, err := k.saveDraft(r.Context(), id, c)
		k.s.reply(w, r, http.StatusOK, saved, err)
	case *status == service.StatusPublished:
		rec, err := k.publish(r.Context(), id, c)
		k.s.reply(w, r, http.StatusCreated, rec, err)
	default:
		k.s.writeError(w, r, invalid("status must be %q or %q, not %q", service.StatusDraft, service.StatusPublished, engine.Quoted(*status)))
	}
}

// handleGet is GET /policy/{policyId} and GET /flow/{flowId}: a record, or
// a base's latest version.
func (k *versionedKind[S, R, V, L]) handleGet(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, k.idName)
	if err != nil {
		k.s.writeError(w, r, err)
		return
	}
	rec, err := k.record(r.Context(), id)
	k.s.reply(w, r, http.StatusOK, rec, err)
}

// handleVersions is GET /policy/{policyId}/versions and its flow twin.
func (k *versionedKind[S, R, V, L]) handleVersions(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, k.idName)
	if err != nil {
		k.s.writeError(w, r, err)
		return
	}
	o, err := pageOptions(r)
	if err != nil {
		k.s.writeError(w, r, err)
		return
	}
	v, err := k.versions(r.Context(), id, o)
	k.s.reply(w, r, http.StatusOK, v, err)
}

// handleDraft is GET /policy/{policyId}/draft[?replace=true] and its flow
// twin: a new draft from a published record.
func (k *versionedKind[S, R, V, L]) handleDraft(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, k.idName)
	if err != nil {
		k.s.writeError(w, r, err)
		return
	}
	replace, err := replaceParam(r)
	if err != nil {
		k.s.writeError(w, r, err)
		return
	}
	rec, err := k.draftFrom(r.Context(), id, replace)
	k.s.reply(w, r, http.StatusCreated, rec, err)
}

// replaceParam reads ?replace: absent or false keeps an existing draft
// (a conflict), true overwrites it.
// handleRollback is POST /policy/{policyId}/rollback and POST
// /flow/{flowId}/rollback: the version named, published again as the
// newest. The path names the version, so the body is empty or {}.
func (k *versionedKind[S, R, V, L]) handleRollback(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, k.idName)
	if err != nil {
		k.s.writeError(w, r, err)
		return
	}
	if err := k.s.decodeNoFields(r); err != nil {
		k.s.writeError(w, r, err)
		return
	}
	rec, err := k.rollback(r.Context(), id)
	k.s.reply(w, r, http.StatusCreated, rec, err)
}

func replaceParam(r *http.Request) (bool, error) {
	switch values := r.URL.Query()["replace"]; {
	case len(values) == 0:
		return false, nil
	case len(values) > 1:
		return false, invalid("replace is given %d times; give it once", len(values))
	case values[0] == "true":
		return true, nil
	case values[0] == "false":
		return false, nil
	default:
		return false, invalid("replace must be true or false, not %q", engine.Quoted(values[0]))
	}
}

// handleList is GET /policies and GET /flows.
func (k *versionedKind[S, R, V, L]) handleList(w http.ResponseWriter, r *http.Request) {
	o, err := listOptions(r)
	if err != nil {
		k.s.writeError(w, r, err)
		return
	}
	page, err := k.list(r.Context(), o)
	k.s.reply(w, r, http.StatusOK, page, err)
}

// handleDelete is DELETE /policy/{policyId} and DELETE /flow/{flowId}: the
// whole base goes.
func (k *versionedKind[S, R, V, L]) handleDelete(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, k.idName)
	if err != nil {
		k.s.writeError(w, r, err)
		return
	}
	k.s.noContent(w, r, k.deleteBase(r.Context(), id))
}
