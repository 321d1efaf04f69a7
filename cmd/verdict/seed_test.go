package main

import (
	"context"
	"strings"
	"testing"

	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/record"
	"github.com/verdict/verdict/internal/audittest"
)

func TestAdminSeed(t *testing.T) {
	eachDatabaseURL(t, func(t *testing.T, dbURL string) {
		admin := func(args ...string) (int, string, string) {
			return runVerdict(t, "", append(append([]string{"admin"}, args...), "--database-url", dbURL)...)
		}
		if code, _, stderr := admin("bootstrap", "--org", "Acme", "--email", "admin@acme.test"); code != 0 {
			t.Fatalf("bootstrap: exit %d, stderr %q", code, stderr)
		}
		code, stdout, stderr := admin("seed", "--org", "Acme", "--policies", "1203", "--events", "2500")
		if code != 0 || stderr != "" {
			t.Fatalf("seed: exit %d, stderr %q", code, stderr)
		}
		if !strings.Contains(stdout, "with 1203 policies and 2500 executed events") {
			t.Errorf("the output does not say what was seeded:\n%s", stdout)
		}
		ctx := context.Background()
		db := openTestDatabase(t, dbURL)
		client := db.Client()
		org := readStored(t, db).org(t, "Acme")
		bases := client.Base.Query().Where(base.OrganizationID(org.ID), base.KindEQ(base.KindPolicy),
			base.LatestVersion(1), base.LatestRecordIDNotNil(), base.OwnerKindEQ(base.OwnerKindOrganization)).CountX(ctx)
		records := client.Record.Query().Where(record.OrganizationID(org.ID), record.StatusEQ(record.StatusPublished),
			record.Version(1)).CountX(ctx)
		events := audittest.Count(t, db, audittest.Filter{Tenant: &org.ID, Action: auditevent.ActionExecuted})
		if bases != 1203 || records != 1203 || events != 2500 {
			t.Fatalf("stored %d published bases, %d versions and %d executed events; want 1203, 1203 and 2500", bases, records, events)
		}

		for _, bad := range [][]string{
			{"seed", "--org", "Acme", "--policies", "-1"},
			{"seed", "--org", "Acme", "--events", "10"},
			{"seed", "--org", "Acme", "--policies", "1", "--span", "0s"},
			{"seed", "--policies", "1"},
		} {
			if code, _, _ := admin(bad...); code != 3 {
				t.Errorf("%v: exit %d, want 3", bad, code)
			}
		}
		if code, _, _ := admin("seed", "--org", "Nowhere", "--policies", "1"); code != 1 {
			t.Errorf("an unknown organization: exit %d, want 1", code)
		}
		after := client.Base.Query().Where(base.OrganizationID(org.ID)).CountX(ctx)
		if after != 1203 {
			t.Errorf("refused seeds stored something: %d bases", after)
		}
	})
}
