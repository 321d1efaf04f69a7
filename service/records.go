package service

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/schema/testcase"
)

// Record statuses.
const (
	StatusDraft     = "draft"
	StatusPublished = "published"
)

// TestCase is a stored test: run the record on Data and expect Expect.
type TestCase = testcase.Case

// Policy is a policy record (docs/endpoints.md, "Policies").
type Policy struct {
	ID          uuid.UUID       `json:"id"`
	BaseID      uuid.UUID       `json:"baseId"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Rule        string          `json:"rule"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []TestCase      `json:"tests"`
	Status      string          `json:"status"`
	Version     *int            `json:"version"`
	Owner       Owner           `json:"owner"`
	CreatedBy   uuid.UUID       `json:"createdBy"`
	CreatedAt   time.Time       `json:"createdAt"`
	UpdatedAt   time.Time       `json:"updatedAt"`
	PublishedAt *time.Time      `json:"publishedAt"`
	// Revision changes with every draft update; clients may ignore it.
	Revision int `json:"revision"`
}

// Summary is a base in a list (docs/endpoints.md, "Policies").
type Summary struct {
	BaseID          uuid.UUID  `json:"baseId"`
	Name            string     `json:"name"`
	Owner           Owner      `json:"owner"`
	LatestVersion   *int       `json:"latestVersion"`
	LatestVersionID *uuid.UUID `json:"latestVersionId"`
	DraftID         *uuid.UUID `json:"draftId"`
	HasDraft        bool       `json:"hasDraft"`
	UpdatedAt       time.Time  `json:"updatedAt"`
}

// Versions is a page of a base's history: its draft, on the first page
// only, and its versions, newest first; NextCursor resumes after the
// page's oldest version, empty on the last page.
type Versions struct {
	BaseID     uuid.UUID `json:"baseId"`
	Draft      *Policy   `json:"draft"`
	Versions   []*Policy `json:"versions"`
	NextCursor string    `json:"nextCursor"`
}

func ownerOf(b *ent.Base) Owner {
	return Owner{Kind: authz.OwnerKind(b.OwnerKind), ID: b.OwnerID}
}

// testsOf is a record's tests as the API shows them: [] when it has none.
func testsOf(r *ent.Record) []TestCase {
	if r.Tests == nil {
		return []TestCase{}
	}
	return r.Tests
}

func policyOf(b *ent.Base, r *ent.Record) *Policy {
	schema := r.Schema
	if len(schema) == 0 {
		schema = json.RawMessage("null")
	}
	return &Policy{
		ID: r.ID, BaseID: r.BaseID, Name: r.Name, Description: r.Description, Rule: r.Rule,
		Schema: schema, Tests: testsOf(r), Status: string(r.Status), Version: r.Version,
		Owner: ownerOf(b), CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		PublishedAt: r.PublishedAt, Revision: r.Revision,
	}
}

func summaryOf(b *ent.Base) Summary {
	s := Summary{BaseID: b.ID, Name: b.Name, Owner: ownerOf(b), LatestVersionID: b.LatestRecordID,
		DraftID: b.DraftRecordID, HasDraft: b.DraftRecordID != nil, UpdatedAt: b.UpdatedAt}
	if b.LatestVersion > 0 {
		v := b.LatestVersion
		s.LatestVersion = &v
	}
	return s
}

// stateOf is a base's lifecycle state as the authorizer sees it.
func stateOf(b *ent.Base) authz.State {
	switch {
	case b.DeletedAt != nil:
		return authz.StateDeleted
	case b.LatestVersion == 0:
		return authz.StateDraftOnly
	}
	return authz.StateVersioned
}

func resourceOf(b *ent.Base) authz.Resource {
	return authz.Resource{
		Kind:      authz.Kind(b.Kind),
		TenantID:  b.OrganizationID.String(),
		OwnerKind: authz.OwnerKind(b.OwnerKind),
		OwnerID:   b.OwnerID.String(),
		State:     stateOf(b),
	}
}

// newBaseResource is the resource of creating a base of a kind.
func newBaseResource(p *Principal, kind base.Kind) authz.Resource {
	return authz.Resource{Kind: authz.Kind(kind), TenantID: p.TenantID.String()}
}
