package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/verdict/verdict/auditstore"
	"github.com/verdict/verdict/ent/membership"
	"github.com/verdict/verdict/internal/seed"
	"github.com/verdict/verdict/service"
)

// maxSeeded bounds each count, so that a typo cannot fill a disk.
const maxSeeded = 100_000_000

func (a *admin) seedCommand() *cobra.Command {
	var org string
	var policies, events int
	var span time.Duration
	cmd := &cobra.Command{
		Use:   "seed --org ORG --policies N --events M",
		Short: "Fill an organization with published policies and executed events, for measuring at scale",
		Long: `Fill an organization with N published policies (one version each, a
one-line rule) and M executed audit events of them, spread over --span
before now, as if an admin of the organization had published and run
them. Rows are written in multi-row inserts, not through the API: this is
for measuring what runs, lists and the audit log cost on a large database,
never for a database people use.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if policies < 0 || events < 0 || policies > maxSeeded || events > maxSeeded {
				return usageError("--policies and --events must be between 0 and %d", maxSeeded)
			}
			if events > 0 && policies == 0 {
				return usageError("--events needs --policies: events are runs of the seeded policies")
			}
			if span <= 0 {
				return usageError("--span must be positive")
			}
			return a.seed(cmd.Context(), cmd.OutOrStdout(), org, policies, events, span)
		},
	}
	f := cmd.Flags()
	f.StringVar(&org, "org", "", "the organization, by id or name (required)")
	f.IntVar(&policies, "policies", 0, "how many published policies to store")
	f.IntVar(&events, "events", 0, "how many executed events to store")
	f.DurationVar(&span, "span", 30*24*time.Hour, "how far back the events go")
	cmd.MarkFlagRequired("org")
	return cmd
}

func (a *admin) seed(ctx context.Context, w io.Writer, orgRef string, policies, events int, span time.Duration) error {
	dbURL := resolveDatabaseURL(a.dbURL)
	timeout, err := a.timeout()
	if err != nil {
		return err
	}
	db, err := openExistingDatabase(ctx, dbURL, timeout)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := requireMigrated(ctx, db, dbURL); err != nil {
		return err
	}
	svc, err := newOperatorService(db)
	if err != nil {
		return err
	}
	defer svc.Close()
	org, err := findOrganization(ctx, svc.Operator(), orgRef)
	if err != nil {
		return err
	}
	client := db.Client()
	admin, err := client.Membership.Query().
		Where(membership.OrganizationID(org.ID), membership.RoleEQ(membership.RoleAdmin)).
		Order(membership.ByCreatedAt()).First(ctx)
	if err != nil {
		return failuref("organization %s has no admin to seed as: %v", org.Name, err)
	}
	began := time.Now()
	report := func(what string, total int) func(int) {
		next := 0
		return func(done int) {
			if !a.json && (done >= next || done == total) {
				fmt.Fprintf(w, "%s: %d of %d (%s)\n", what, done, total, time.Since(began).Round(time.Second))
				next = done + max(total/10, 1)
			}
		}
	}
	seeded, err := seed.Policies(ctx, client, org.ID, admin.UserID, policies, report("policies", policies))
	if err != nil {
		return failure(err)
	}
	if err := seed.Events(ctx, auditstore.New(db), org.ID, admin.UserID, seeded, events, span, report("events", events)); err != nil {
		return failure(err)
	}
	result := struct {
		Organization *service.Organization `json:"organization"`
		Policies     int                   `json:"policies"`
		Events       int                   `json:"events"`
		Seconds      float64               `json:"seconds"`
	}{org, policies, events, time.Since(began).Seconds()}
	return a.show(w, result, func() {
		fmt.Fprintf(w, "seeded %s (%s) with %d policies and %d executed events in %s\n",
			org.Name, org.ID, policies, events, time.Since(began).Round(time.Millisecond))
	})
}
