package rest

import (
	"net/http"
	"time"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/service"
)

// memberRequest is the body of POST /admin/members.
type memberRequest struct {
	Email *string `json:"email"`
	Name  *string `json:"name"`
	Role  *string `json:"role"`
}

// roleRequest is the body of PUT /admin/members/{userId}.
type roleRequest struct {
	Role *string `json:"role"`
}

// keyRequest is the body of POST /admin/keys. The ids and the time arrive
// as strings and are parsed here, so a bad one is named in the error.
type keyRequest struct {
	Name      *string `json:"name"`
	Scope     *string `json:"scope"`
	UserID    *string `json:"userId"`
	ExpiresAt *string `json:"expiresAt"`
}

const roleNames = "viewer, editor, publisher, admin or auditor"

// members is GET /admin/members.
func (s *server) members(w http.ResponseWriter, r *http.Request) {
	o, err := listOptions(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	page, err := s.svc.Members(r.Context(), o)
	s.reply(w, r, http.StatusOK, page, err)
}

// addMember is POST /admin/members.
func (s *server) addMember(w http.ResponseWriter, r *http.Request) {
	var req memberRequest
	if err := s.decodeBody(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	switch {
	case req.Email == nil:
		s.writeError(w, r, invalid("email is required"))
		return
	case req.Role == nil:
		s.writeError(w, r, invalid("role is required: %s", roleNames))
		return
	}
	in := service.MemberInput{Email: *req.Email, Role: authz.Role(*req.Role)}
	if req.Name != nil {
		in.Name = *req.Name
	}
	m, err := s.svc.AddMember(r.Context(), in)
	s.reply(w, r, http.StatusCreated, m, err)
}

// setMemberRole is PUT /admin/members/{userId}.
func (s *server) setMemberRole(w http.ResponseWriter, r *http.Request) {
	userID, err := pathID(r, "userId")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req roleRequest
	if err := s.decodeBody(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Role == nil {
		s.writeError(w, r, invalid("role is required: %s", roleNames))
		return
	}
	m, err := s.svc.SetMemberRole(r.Context(), userID, authz.Role(*req.Role))
	s.reply(w, r, http.StatusOK, m, err)
}

// removeMember is DELETE /admin/members/{userId}.
func (s *server) removeMember(w http.ResponseWriter, r *http.Request) {
	userID, err := pathID(r, "userId")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.noContent(w, r, s.svc.RemoveMember(r.Context(), userID))
}

// keys is GET /admin/keys.
func (s *server) keys(w http.ResponseWriter, r *http.Request) {
	o, err := listOptions(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	page, err := s.svc.Keys(r.Context(), o)
	s.reply(w, r, http.StatusOK, page, err)
}

// createKey is POST /admin/keys: the key with its secret, shown this once.
func (s *server) createKey(w http.ResponseWriter, r *http.Request) {
	var req keyRequest
	if err := s.decodeBody(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	in, err := req.input()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	k, err := s.svc.CreateKey(r.Context(), in)
	s.reply(w, r, http.StatusCreated, k, err)
}

func (req *keyRequest) input() (service.KeyRequest, error) {
	var in service.KeyRequest
	switch {
	case req.Name == nil:
		return in, invalid("name is required")
	case req.Scope == nil:
		return in, invalid("scope is required: view, edit, publish or admin")
	}
	in.Name, in.Scope = *req.Name, authz.Scope(*req.Scope)
	if req.UserID != nil {
		id, err := parseID("userId", *req.UserID)
		if err != nil {
			return in, err
		}
		in.UserID = &id
	}
	if req.ExpiresAt != nil {
		t, err := time.Parse(time.RFC3339, *req.ExpiresAt)
		if err != nil {
			return in, invalid("expiresAt %q is not an RFC 3339 time such as 2027-01-31T00:00:00Z", *req.ExpiresAt)
		}
		in.ExpiresAt = &t
	}
	return in, nil
}

// revokeKey is DELETE /admin/keys/{keyId}: the key is revoked, not deleted.
func (s *server) revokeKey(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "keyId")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.noContent(w, r, s.svc.RevokeKey(r.Context(), id))
}
