package rest

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/service"
)

// decisionSettingsRequest is the body of PUT
// /policy/{policyId}/decision-records and its flow twin.
type decisionSettingsRequest struct {
	Enabled    *bool     `json:"enabled"`
	SampleRate *float64  `json:"sampleRate"`
	Mask       *[]string `json:"mask"`
}

// setDecisionSettings sets a base's decision-record settings (PUT
// /policy/{policyId}/decision-records, PUT /flow/{flowId}/decision-records).
func (s *server) setDecisionSettings(idName string,
	set func(context.Context, uuid.UUID, service.DecisionSettingsInput) (*service.DecisionSettings, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := pathID(r, idName)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		var req decisionSettingsRequest
		if err := s.decodeBody(r, &req); err != nil {
			s.writeError(w, r, err)
			return
		}
		if req.Enabled == nil {
			s.writeError(w, r, invalid("enabled is required: true or false"))
			return
		}
		in := service.DecisionSettingsInput{Enabled: *req.Enabled, SampleRate: req.SampleRate}
		if req.Mask != nil {
			in.Mask = *req.Mask
		}
		out, err := set(r.Context(), id, in)
		s.reply(w, r, http.StatusOK, out, err)
	}
}

// decisions is GET /decisions: the tenant's decision records, newest
// first, for admins and auditors.
func (s *server) decisions(w http.ResponseWriter, r *http.Request) {
	o, err := listOptions(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	f, err := decisionFilter(r.URL.Query())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	page, err := s.svc.Decisions(r.Context(), f, o)
	s.reply(w, r, http.StatusOK, page, err)
}

func decisionFilter(q url.Values) (service.DecisionFilter, error) {
	var f service.DecisionFilter
	if err := givenOnce(q, "baseId", "result", "since", "until"); err != nil {
		return f, err
	}
	var err error
	if f.BaseID, err = queryID(q, "baseId"); err != nil {
		return f, err
	}
	if v := q.Get("result"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil || (v != "true" && v != "false") {
			return f, invalid("result must be true or false, not %q", engine.Quoted(v))
		}
		f.Result = &b
	}
	if f.Since, err = queryTime(q, "since"); err != nil {
		return f, err
	}
	if f.Until, err = queryTime(q, "until"); err != nil {
		return f, err
	}
	return f, nil
}

// replayRequest is the optional body of POST /policy/{policyId}/replay and
// POST /flow/{flowId}/replay.
type replayRequest struct {
	Since *string `json:"since"`
	Until *string `json:"until"`
	Limit *int    `json:"limit"`
}

// replay runs a record on its base's recorded inputs.
func (s *server) replay(idName string,
	replay func(context.Context, uuid.UUID, service.ReplayInput) (*service.Replay, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req replayRequest
		id, err := s.idAndOptionalBody(r, idName, &req)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		in, err := replayInput(req)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		out, err := replay(r.Context(), id, in)
		s.reply(w, r, http.StatusOK, out, err)
	}
}

func replayInput(req replayRequest) (service.ReplayInput, error) {
	var in service.ReplayInput
	for _, t := range []struct {
		name string
		text *string
		into **time.Time
	}{{"since", req.Since, &in.Since}, {"until", req.Until, &in.Until}} {
		if t.text == nil {
			continue
		}
		v, err := parseTime(t.name, *t.text)
		if err != nil {
			return in, err
		}
		*t.into = &v
	}
	if req.Limit != nil {
		if *req.Limit < 1 || *req.Limit > service.MaxReplayLimit {
			return in, invalid("limit must be between 1 and %d, not %d", service.MaxReplayLimit, *req.Limit)
		}
		in.Limit = *req.Limit
	}
	return in, nil
}
