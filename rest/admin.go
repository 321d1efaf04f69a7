package rest

import (
	"net/http"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/service"
)

// memberRequest is the body of POST /admin/members: service.MemberInput
// named as docs/endpoints.md names it. An absent member is empty, which the service
// refuses where it needs one, as it refuses an unknown role.
type memberRequest struct {
	Email string     `json:"email"`
	Name  string     `json:"name"`
	Role  authz.Role `json:"role"`
}

// roleRequest is the body of PUT /admin/members/{userId}.
type roleRequest struct {
	Role authz.Role `json:"role"`
}

// keyRequest is the body of POST /admin/keys. The name and scope are the
// service's to check; the ids and the time arrive as strings and are
// parsed here, so a bad one is named in the error.
type keyRequest struct {
	Name      string      `json:"name"`
	Scope     authz.Scope `json:"scope"`
	UserID    *string     `json:"userId"`
	ExpiresAt *string     `json:"expiresAt"`
}

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
	m, err := s.svc.AddMember(r.Context(), service.MemberInput(req))
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
	m, err := s.svc.SetMemberRole(r.Context(), userID, req.Role)
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
	in := service.KeyRequest{Name: req.Name, Scope: req.Scope}
	if req.UserID != nil {
		id, err := service.ParseID("userId", *req.UserID)
		if err != nil {
			return in, err
		}
		in.UserID = &id
	}
	if req.ExpiresAt != nil {
		t, err := parseTime("expiresAt", *req.ExpiresAt)
		if err != nil {
			return in, err
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
