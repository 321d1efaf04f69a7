package rest

import (
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/verdict/verdict/ent/apikey"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/group"
	"github.com/verdict/verdict/ent/groupmember"
	"github.com/verdict/verdict/ent/membership"
	"github.com/verdict/verdict/ent/record"
)

// idsIn returns the ids a text contains: UUIDs, anywhere in its words of
// URL-safe base64, and those a cursor holds (service/cursor.go): a whole
// such word that decodes to a cursor's length, a byte naming the list then
// an id (17), a base's id and a version (21), a time and an id (25), or a
// group's id and an id (33), holds ids right after its first byte and at
// its end. The matrix reads every response with it, so it is a scan, not
// regular expressions, which took a quarter of the test.
func idsIn(text string) []uuid.UUID {
	var ids []uuid.UUID
	for _, word := range strings.FieldsFunc(text, func(r rune) bool { return !isBase64URL(r) }) {
		for i := 0; i+36 <= len(word); i++ {
			// uuid.Parse takes 36 characters only as the hyphenated form.
			if id, err := uuid.Parse(word[i : i+36]); err == nil {
				ids = append(ids, id)
				i += 35
			}
		}
		if !slices.Contains([]int{17, 21, 25, 33}, base64.RawURLEncoding.DecodedLen(len(word))) {
			continue
		}
		if b, err := base64.RawURLEncoding.DecodeString(word); err == nil {
			ids = append(ids, uuid.UUID(b[1:17]))
			if len(b) > 21 {
				ids = append(ids, uuid.UUID(b[len(b)-16:]))
			}
		}
	}
	return ids
}

func isBase64URL(r rune) bool {
	return 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '-' || r == '_'
}

// checkNoLeaks checks every response of the matrix against every id the
// database holds, and every tenant's marker and key secrets: a response to
// a principal of one tenant must carry nothing of the other, and a
// response to a request without a valid key nothing of either. An id the
// request named itself may come back (a not_found message quotes it): the
// caller knew it already, and revealsExistence has checked that such an
// answer says nothing more than one for an id that exists nowhere.
func (m *matrix) checkNoLeaks(t *testing.T) {
	t.Helper()
	owners := m.idOwners(t)
	leaks := 0
	for _, ex := range m.responses {
		foreign := func(tn *matrixTenant) bool { return !ex.who.authenticated || tn != ex.who.tenant }
		var found []string
		for _, id := range idsIn(ex.body) {
			if tn := owners[id]; tn != nil && foreign(tn) && !strings.Contains(ex.sent, id.String()) {
				found = append(found, fmt.Sprintf("%s's id %s", tn.name, id))
			}
		}
		lower := strings.ToLower(ex.body)
		for _, tn := range m.tenants {
			if !foreign(tn) {
				continue
			}
			if strings.Contains(lower, tn.marker()) {
				found = append(found, fmt.Sprintf("%s's data (%q)", tn.name, tn.marker()))
			}
			for _, secret := range tn.secrets {
				if strings.Contains(ex.body, secret) {
					found = append(found, fmt.Sprintf("a key secret of %s", tn.name))
				}
			}
		}
		if len(found) > 0 {
			leaks++
			if leaks <= maxReported {
				t.Errorf("%s as %s: the response carries %s: %s", ex.what, ex.who.name, strings.Join(found, ", "), strings.TrimSpace(ex.body))
			}
		}
	}
	if leaks > maxReported {
		t.Errorf("%d more responses carry another tenant's ids or data", leaks-maxReported)
	}
}

// idOwners maps every id the database holds to its tenant: the
// organization, its users, memberships, keys, bases, records, groups, group
// members and audit events.
func (m *matrix) idOwners(t *testing.T) map[uuid.UUID]*matrixTenant {
	t.Helper()
	ctx := context.Background()
	c := m.db.Client()
	owners := map[uuid.UUID]*matrixTenant{}
	for _, tn := range m.tenants {
		owners[tn.org] = tn
		memberships, err := c.Membership.Query().Where(membership.OrganizationID(tn.org)).All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, ms := range memberships {
			owners[ms.ID], owners[ms.UserID] = tn, tn
		}
		for what, ids := range map[string]func(context.Context) ([]uuid.UUID, error){
			"keys":          c.APIKey.Query().Where(apikey.OrganizationID(tn.org)).IDs,
			"bases":         c.Base.Query().Where(base.OrganizationID(tn.org)).IDs,
			"records":       c.Record.Query().Where(record.OrganizationID(tn.org)).IDs,
			"groups":        c.Group.Query().Where(group.OrganizationID(tn.org)).IDs,
			"group members": c.GroupMember.Query().Where(groupmember.HasGroupWith(group.OrganizationID(tn.org))).IDs,
			"audit events":  c.AuditEvent.Query().Where(auditevent.OrganizationID(tn.org)).IDs,
		} {
			found, err := ids(ctx)
			if err != nil {
				t.Fatalf("reading the %s of %s: %v", what, tn.name, err)
			}
			for _, id := range found {
				owners[id] = tn
			}
		}
	}
	return owners
}

// snapshot describes what the database holds of the shared resources and
// of the fixture's people and keys, to show that the requests the matrix
// sent them, which all failed or only read, changed nothing.
func (m *matrix) snapshot(t *testing.T) []string {
	t.Helper()
	ctx := context.Background()
	c := m.db.Client()
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	for _, tn := range m.tenants {
		for _, k := range versionedKinds {
			for _, st := range lifecycle {
				id := tn.shared[k][st].base
				b, err := c.Base.Get(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				add("%s %s %s: owner %s %s, latest %d, draft %v, deleted %v, updated %s, decisions %v %v %v",
					tn.name, st, k.name, b.OwnerKind, b.OwnerID, b.LatestVersion, b.DraftRecordID != nil, b.DeletedAt != nil, b.UpdatedAt,
					b.DecisionsEnabled, b.DecisionsSampleRate, b.DecisionsMask)
				recs, err := c.Record.Query().Where(record.BaseID(id)).Order(record.ByID()).All(ctx)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range recs {
					add("%s %s %s: record %s %s, revision %d, updated %s, description %q",
						tn.name, st, k.name, r.ID, r.Status, r.Revision, r.UpdatedAt, r.Description)
				}
			}
		}
		for _, g := range []resource{tn.shared[groups][present], tn.shared[groupMembers][present]} {
			id := g.base
			if g.group != uuid.Nil {
				id = g.group
			}
			found, err := c.Group.Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			n, err := c.GroupMember.Query().Where(groupmember.GroupID(id)).Count(ctx)
			if err != nil {
				t.Fatal(err)
			}
			add("%s group %s: %q, %q, updated %s, %d members", tn.name, id, found.Name, found.Description, found.UpdatedAt, n)
		}
		spare, err := c.APIKey.Get(ctx, tn.shared[keys][present].base)
		if err != nil {
			t.Fatal(err)
		}
		add("%s spare key: revoked %v", tn.name, spare.RevokedAt != nil)
	}
	for _, p := range m.principals {
		if p.key == uuid.Nil {
			continue
		}
		k, err := c.APIKey.Get(ctx, p.key)
		if err != nil {
			t.Fatal(err)
		}
		add("key of %s: revoked %v", p.name, k.RevokedAt != nil)
		if p.user == uuid.Nil {
			continue
		}
		ms, err := c.Membership.Query().Where(membership.OrganizationID(p.tenant.org), membership.UserID(p.user)).Only(ctx)
		if err != nil {
			t.Fatal(err)
		}
		add("role of %s: %s", p.name, ms.Role)
	}
	return out
}

func TestIdsInFindsUUIDsAndCursors(t *testing.T) {
	a, b, c, d, e, g := uuid.New(), uuid.New(), uuid.New(), uuid.New(), uuid.New(), uuid.New()
	cursor := func(parts ...[]byte) string {
		return base64.RawURLEncoding.EncodeToString(slices.Concat(append([][]byte{{1}}, parts...)...))
	}
	at := []byte("\x00\x06\x1f\x00\x00\x00\x00\x01")
	version := []byte{0, 0, 0, 2}
	// Any word of 23 letters reads as a cursor: it decodes to whatever id
	// it spells, which no tenant owns.
	word := "abcdefghijklmnopqrstuvw"
	spelled, err := base64.RawURLEncoding.DecodeString(word)
	if err != nil {
		t.Fatal(err)
	}
	text := fmt.Sprintf(`{"id":"%s","note":"x%sy","next":"%s","history":"%s","audit":"%s","group":"%s","upper":"%s","é%sé":1,"no":"0123-4567","word":"%s"}`,
		a, b, cursor(c[:]), cursor(d[:], version), cursor(at, e[:]), cursor(g[:], c[:]), strings.ToUpper(a.String()), b, word)
	want := []uuid.UUID{a, b, c, d, uuid.UUID(slices.Concat(at, e[:8])), e, g, c, a, b, uuid.UUID(spelled[1:])}
	if got := idsIn(text); !slices.Equal(got, want) {
		t.Errorf("idsIn found %v, want %v", got, want)
	}
}
