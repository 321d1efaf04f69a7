package rest

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/service"
)

// groupRequest is the body of POST /group and PUT /group/{groupId}; an
// absent (or null) member leaves its field as it is.
type groupRequest struct {
	Name        *string `json:"name"`
	Description *string `json:"description"`
}

// groupMemberRequest is the body of POST /group/{groupId}/member. The kind
// is the service's to check (absent is empty, which it refuses); the base
// id is read here, so a bad one is named in the error.
type groupMemberRequest struct {
	Kind   authz.Kind `json:"kind"`
	BaseID *string    `json:"baseId"`
}

// createGroup is POST /group.
func (s *server) createGroup(w http.ResponseWriter, r *http.Request) {
	var req groupRequest
	if err := s.decodeBody(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	g, err := s.svc.CreateGroup(r.Context(), service.GroupChanges{Name: req.Name, Description: req.Description})
	s.reply(w, r, http.StatusCreated, g, err)
}

// updateGroup is PUT /group/{groupId}.
func (s *server) updateGroup(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "groupId")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req groupRequest
	if err := s.decodeBody(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	g, err := s.svc.UpdateGroup(r.Context(), id, service.GroupChanges{Name: req.Name, Description: req.Description})
	s.reply(w, r, http.StatusOK, g, err)
}

// deleteGroup is DELETE /group/{groupId}: the group and its memberships,
// never the bases.
func (s *server) deleteGroup(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "groupId")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.noContent(w, r, s.svc.DeleteGroup(r.Context(), id))
}

// groups is GET /groups.
func (s *server) groups(w http.ResponseWriter, r *http.Request) {
	o, err := listOptions(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	page, err := s.svc.Groups(r.Context(), o)
	s.reply(w, r, http.StatusOK, page, err)
}

// addGroupMember is POST /group/{groupId}/member.
func (s *server) addGroupMember(w http.ResponseWriter, r *http.Request) {
	groupID, err := pathID(r, "groupId")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req groupMemberRequest
	if err := s.decodeBody(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.BaseID == nil {
		s.writeError(w, r, invalid("baseId is required: the id of the policy or flow to add"))
		return
	}
	baseID, err := service.ParseID("baseId", *req.BaseID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	m, err := s.svc.AddGroupMember(r.Context(), groupID, service.GroupMemberInput{Kind: req.Kind, BaseID: baseID})
	s.reply(w, r, http.StatusCreated, m, err)
}

// removeGroupMember is DELETE /group/{groupId}/member/{memberId}.
func (s *server) removeGroupMember(w http.ResponseWriter, r *http.Request) {
	groupID, err := pathID(r, "groupId")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	memberID, err := pathID(r, "memberId")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.noContent(w, r, s.svc.RemoveGroupMember(r.Context(), groupID, memberID))
}

// groupPolicies is GET /group/{groupId}/policies.
func (s *server) groupPolicies(w http.ResponseWriter, r *http.Request) {
	s.groupBases(w, r, s.svc.GroupPolicies)
}

// groupFlows is GET /group/{groupId}/flows.
func (s *server) groupFlows(w http.ResponseWriter, r *http.Request) {
	s.groupBases(w, r, s.svc.GroupFlows)
}

func (s *server) groupBases(w http.ResponseWriter, r *http.Request,
	list func(ctx context.Context, groupID uuid.UUID, o service.ListOptions) (*service.Page[service.Summary], error)) {
	groupID, err := pathID(r, "groupId")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	o, err := listOptions(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	page, err := list(r.Context(), groupID, o)
	s.reply(w, r, http.StatusOK, page, err)
}
