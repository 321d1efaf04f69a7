package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// rec is what the lifecycle tests read of a record of any kind.
type rec struct {
	ID, BaseID  uuid.UUID
	Status      string
	Version     *int
	Owner       service.Owner
	Revision    int
	Description string
}

func policyRec(p *service.Policy) rec {
	return rec{p.ID, p.BaseID, p.Status, p.Version, p.Owner, p.Revision, p.Description}
}

func flowRec(f *service.Flow) rec {
	return rec{f.ID, f.BaseID, f.Status, f.Version, f.Owner, f.Revision, f.Description}
}

// kindDriver drives one versioned kind through the service, so that one
// test states the lifecycle every kind shares.
type kindDriver struct {
	kind       string
	create     func(ctx context.Context, name string) (rec, error)
	describe   func(ctx context.Context, id uuid.UUID, description string) (rec, error)
	publish    func(ctx context.Context, id uuid.UUID) (rec, error)
	draftFrom  func(ctx context.Context, id uuid.UUID, replace bool) (rec, error)
	get        func(ctx context.Context, id uuid.UUID) (rec, error)
	versions   func(ctx context.Context, id uuid.UUID) (draft *rec, versions []rec, err error)
	list       func(ctx context.Context) ([]service.Summary, error)
	remove     func(ctx context.Context, id uuid.UUID) error
	run        func(ctx context.Context, baseID uuid.UUID) (bool, error)
	runVersion func(ctx context.Context, recordID uuid.UUID) (bool, error)
}

func ok[T any](v T, err error) (rec, error) {
	if err != nil {
		return rec{}, err
	}
	switch v := any(v).(type) {
	case *service.Policy:
		return policyRec(v), nil
	case *service.SavedPolicy:
		return policyRec(v.Policy), nil
	case *service.Flow:
		return flowRec(v), nil
	case *service.SavedFlow:
		return flowRec(v.Flow), nil
	}
	panic("not a record")
}

func policyDriver(svc *service.Service) kindDriver {
	data := json.RawMessage(`{"Person": {"age": 70}}`)
	run := func(res *service.RunResult, err error) (bool, error) {
		if err != nil {
			return false, err
		}
		defer res.Release()
		return res.Result.Result, nil
	}
	return kindDriver{
		kind: "policy",
		create: func(ctx context.Context, name string) (rec, error) {
			return ok(svc.CreatePolicy(ctx, service.Changes{Name: &name, Rule: ptr(seniorRule)}))
		},
		describe: func(ctx context.Context, id uuid.UUID, d string) (rec, error) {
			return ok(svc.UpdatePolicyDraft(ctx, id, service.Changes{Description: &d}))
		},
		publish: func(ctx context.Context, id uuid.UUID) (rec, error) {
			return ok(svc.PublishPolicy(ctx, id, service.Changes{}))
		},
		draftFrom: func(ctx context.Context, id uuid.UUID, replace bool) (rec, error) {
			return ok(svc.PolicyDraftFromVersion(ctx, id, replace))
		},
		get: func(ctx context.Context, id uuid.UUID) (rec, error) { return ok(svc.Policy(ctx, id)) },
		versions: func(ctx context.Context, id uuid.UUID) (*rec, []rec, error) {
			v, err := svc.PolicyVersions(ctx, id, service.ListOptions{})
			if err != nil {
				return nil, nil, err
			}
			var draft *rec
			if v.Draft != nil {
				draft = ptr(policyRec(v.Draft))
			}
			var out []rec
			for _, p := range v.Versions {
				out = append(out, policyRec(p))
			}
			return draft, out, nil
		},
		list: func(ctx context.Context) ([]service.Summary, error) {
			page, err := svc.Policies(ctx, service.ListOptions{Limit: 200})
			if err != nil {
				return nil, err
			}
			return page.Items, nil
		},
		remove:     func(ctx context.Context, id uuid.UUID) error { return svc.DeletePolicy(ctx, id) },
		run:        func(ctx context.Context, id uuid.UUID) (bool, error) { return run(svc.RunPolicy(ctx, id, data)) },
		runVersion: func(ctx context.Context, id uuid.UUID) (bool, error) { return run(svc.RunPolicyVersion(ctx, id, data)) },
	}
}

// flowDriver's flows run an adult check published by adult.
func flowDriver(svc *service.Service, adult uuid.UUID) kindDriver {
	definition := adultFlow(`{"baseId": "` + adult.String() + `"}`)
	data := json.RawMessage(`{"applicant": {"age": 20}}`)
	run := func(res *service.FlowResult, err error) (bool, error) {
		if err != nil {
			return false, err
		}
		return res.Result, nil
	}
	return kindDriver{
		kind: "flow",
		create: func(ctx context.Context, name string) (rec, error) {
			return ok(svc.CreateFlow(ctx, service.Changes{Name: &name, Definition: definition}))
		},
		describe: func(ctx context.Context, id uuid.UUID, d string) (rec, error) {
			return ok(svc.UpdateFlowDraft(ctx, id, service.Changes{Description: &d}))
		},
		publish: func(ctx context.Context, id uuid.UUID) (rec, error) {
			return ok(svc.PublishFlow(ctx, id, service.Changes{}))
		},
		draftFrom: func(ctx context.Context, id uuid.UUID, replace bool) (rec, error) {
			return ok(svc.FlowDraftFromVersion(ctx, id, replace))
		},
		get: func(ctx context.Context, id uuid.UUID) (rec, error) { return ok(svc.Flow(ctx, id)) },
		versions: func(ctx context.Context, id uuid.UUID) (*rec, []rec, error) {
			v, err := svc.FlowVersions(ctx, id, service.ListOptions{})
			if err != nil {
				return nil, nil, err
			}
			var draft *rec
			if v.Draft != nil {
				draft = ptr(flowRec(v.Draft))
			}
			var out []rec
			for _, f := range v.Versions {
				out = append(out, flowRec(f))
			}
			return draft, out, nil
		},
		list: func(ctx context.Context) ([]service.Summary, error) {
			page, err := svc.Flows(ctx, service.ListOptions{Limit: 200})
			if err != nil {
				return nil, err
			}
			return page.Items, nil
		},
		remove:     func(ctx context.Context, id uuid.UUID) error { return svc.DeleteFlow(ctx, id) },
		run:        func(ctx context.Context, id uuid.UUID) (bool, error) { return run(svc.RunFlow(ctx, id, data)) },
		runVersion: func(ctx context.Context, id uuid.UUID) (bool, error) { return run(svc.RunFlowVersion(ctx, id, data)) },
	}
}

// waitForEvents waits until base has n events of an action: executed
// events are stored a few milliseconds after the run.
func (f *fixture) waitForEvents(t *testing.T, base uuid.UUID, action auditevent.Action, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := audittest.Count(t, f.db, audittest.Filter{Base: &base, Action: action})
		if got == n {
			return
		}
		if got > n || time.Now().After(deadline) {
			t.Fatalf("%d %s events of %s, want %d", got, action, base, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestEveryKindHasTheSameLifecycle(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		adult := f.publishedPolicy(t, "adult", adultRule)
		for _, k := range []kindDriver{policyDriver(f.svc), flowDriver(f.svc, adult.BaseID)} {
			t.Run(k.kind, func(t *testing.T) {
				editor, publisher, viewer, admin := as["editor"], as["publisher"], as["viewer"], as["admin"]
				listed := func(who string, base uuid.UUID) bool {
					t.Helper()
					items, err := k.list(as[who])
					if err != nil {
						t.Fatalf("%s lists: %v", who, err)
					}
					for _, s := range items {
						if s.BaseID == base {
							return true
						}
					}
					return false
				}

				own, err := k.create(editor, "own")
				if err != nil {
					t.Fatal(err)
				}
				_, err = k.publish(editor, own.ID)
				wantCode(t, err, service.CodePermissionDenied)
				_, err = k.publish(publisher, own.ID)
				wantCode(t, err, service.CodePermissionDenied) // a never-published draft is its creator's

				created, err := k.create(publisher, "shared")
				if err != nil {
					t.Fatal(err)
				}
				if created.Status != "draft" || created.Version != nil || created.Owner.Kind != authz.OwnerUser || created.Revision != 1 {
					t.Fatalf("created %+v", created)
				}
				if !listed("publisher", created.BaseID) || listed("editor", created.BaseID) || listed("viewer", created.BaseID) {
					t.Error("a never-published base must be listed to its creator only")
				}
				if _, err := k.get(editor, created.ID); err != nil {
					t.Errorf("another editor loads it by id: %v", err)
				}
				_, err = k.describe(editor, created.ID, "taken")
				wantCode(t, err, service.CodePermissionDenied)
				_, err = k.get(as["other tenant"], created.ID)
				wantCode(t, err, service.CodeNotFound)
				_, err = k.run(as["other tenant"], created.BaseID)
				wantCode(t, err, service.CodeNotFound)

				edited, err := k.describe(publisher, created.ID, "described")
				if err != nil || edited.Revision != 2 || edited.Description != "described" || edited.ID != created.ID {
					t.Fatalf("edited %+v, %v", edited, err)
				}
				v1, err := k.publish(publisher, created.ID)
				if err != nil {
					t.Fatal(err)
				}
				if v1.Status != "published" || *v1.Version != 1 || v1.Owner != (service.Owner{Kind: authz.OwnerOrganization, ID: f.acme.Organization.ID}) {
					t.Fatalf("v1 %+v", v1)
				}
				if !listed("viewer", created.BaseID) || !listed("editor", created.BaseID) {
					t.Error("a published base must be listed to the organization")
				}
				_, err = k.describe(publisher, v1.ID, "x")
				wantCode(t, err, service.CodeConflict)
				_, err = k.publish(publisher, v1.ID)
				wantCode(t, err, service.CodeConflict)

				draft, err := k.draftFrom(editor, created.BaseID, false)
				if err != nil || draft.Status != "draft" || draft.ID == v1.ID {
					t.Fatalf("draft from a version: %+v, %v", draft, err)
				}
				_, err = k.draftFrom(editor, created.BaseID, false)
				wantCode(t, err, service.CodeConflict)
				again, err := k.draftFrom(editor, created.BaseID, true)
				if err != nil || again.ID != draft.ID {
					t.Fatalf("replacing the draft: %+v, %v", again, err)
				}
				v2, err := k.publish(publisher, draft.ID)
				if err != nil || *v2.Version != 2 {
					t.Fatalf("version 2: %+v, %v", v2, err)
				}
				hist, versions, err := k.versions(viewer, created.BaseID)
				if err != nil || hist != nil || len(versions) != 2 || *versions[0].Version != 2 || *versions[1].Version != 1 {
					t.Fatalf("versions: draft %+v, versions %+v, %v", hist, versions, err)
				}
				if got, err := k.get(viewer, created.BaseID); err != nil || got.ID != v2.ID {
					t.Errorf("by base: %+v, %v; want version 2", got, err)
				}

				if res, err := k.run(viewer, created.BaseID); err != nil || !res {
					t.Errorf("run by base: %v, %v", res, err)
				}
				if res, err := k.runVersion(viewer, v1.ID); err != nil || !res {
					t.Errorf("run of version 1: %v, %v", res, err)
				}
				f.waitForEvents(t, created.BaseID, auditevent.ActionExecuted, 2)

				wantCode(t, k.remove(editor, created.BaseID), service.CodePermissionDenied)
				if err := k.remove(admin, v1.ID); err != nil {
					t.Fatal(err)
				}
				if listed("admin", created.BaseID) {
					t.Error("a deleted base is listed")
				}
				for name, call := range map[string]func() error{
					"get by base":   func() error { _, err := k.get(admin, created.BaseID); return err },
					"get by record": func() error { _, err := k.get(admin, v1.ID); return err },
					"versions":      func() error { _, _, err := k.versions(admin, created.BaseID); return err },
					"run":           func() error { _, err := k.run(admin, created.BaseID); return err },
					"run a version": func() error { _, err := k.runVersion(admin, v2.ID); return err },
					"delete again":  func() error { return k.remove(admin, created.BaseID) },
					"a new draft":   func() error { _, err := k.draftFrom(admin, v2.ID, true); return err },
				} {
					if err := call(); service.CodeOf(err) != service.CodeDeleted {
						t.Errorf("%s after delete: %v, want deleted", name, err)
					}
				}

				want := "created,edited,published,edited,edited,published,executed,executed,deleted"
				if got := strings.Join(f.auditActions(t, created.BaseID), ","); got != want {
					t.Errorf("audit %s, want %s", got, want)
				}
				for _, ev := range audittest.Events(t, db, audittest.Filter{Base: &created.BaseID}) {
					if string(ev.Kind) != k.kind {
						t.Errorf("%s event of kind %s, want %s", ev.Action, ev.Kind, k.kind)
					}
				}
			})
		}
	})
}

func TestAnEditOrPublishOfAStaleRevisionIsAConflict(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		for _, k := range []struct {
			kind          string
			create        func() (rec, error)
			edit, publish func(id uuid.UUID, c service.Changes) (rec, error)
			get           func(id uuid.UUID) (rec, error)
		}{{
			kind: "policy",
			create: func() (rec, error) {
				return ok(f.svc.CreatePolicy(admin, service.Changes{Name: ptr("senior"), Rule: ptr(seniorRule)}))
			},
			edit:    func(id uuid.UUID, c service.Changes) (rec, error) { return ok(f.svc.UpdatePolicyDraft(admin, id, c)) },
			publish: func(id uuid.UUID, c service.Changes) (rec, error) { return ok(f.svc.PublishPolicy(admin, id, c)) },
			get:     func(id uuid.UUID) (rec, error) { return ok(f.svc.Policy(admin, id)) },
		}, {
			kind: "flow",
			create: func() (rec, error) {
				return ok(f.svc.CreateFlow(admin, service.Changes{Name: ptr("adults"), Definition: adultFlow(byBaseID(adult.BaseID))}))
			},
			edit:    func(id uuid.UUID, c service.Changes) (rec, error) { return ok(f.svc.UpdateFlowDraft(admin, id, c)) },
			publish: func(id uuid.UUID, c service.Changes) (rec, error) { return ok(f.svc.PublishFlow(admin, id, c)) },
			get:     func(id uuid.UUID) (rec, error) { return ok(f.svc.Flow(admin, id)) },
		}} {
			t.Run(k.kind, func(t *testing.T) {
				draft, err := k.create()
				if err != nil {
					t.Fatal(err)
				}
				edited, err := k.edit(draft.ID, service.Changes{Description: ptr("first"), Revision: ptr(1)})
				if err != nil || edited.Revision != 2 {
					t.Fatalf("an edit at the draft's revision: %+v, %v", edited, err)
				}
				const stale = "conflict: the draft is at revision 2, not 1: it changed since you read it; load it again"
				_, err = k.edit(draft.ID, service.Changes{Description: ptr("second"), Revision: ptr(1)})
				if err == nil || err.Error() != stale {
					t.Errorf("an edit of a stale revision: %v, want %q", err, stale)
				}
				_, err = k.publish(draft.ID, service.Changes{Revision: ptr(1)})
				if err == nil || err.Error() != stale {
					t.Errorf("a publish of a stale revision: %v, want %q", err, stale)
				}
				if got, err := k.get(draft.ID); err != nil || got.Status != "draft" || got.Revision != 2 || got.Description != "first" {
					t.Errorf("after the refusals the draft is %+v (%v); want it as the first edit left it", got, err)
				}
				if v, err := k.publish(draft.ID, service.Changes{Revision: ptr(2)}); err != nil || *v.Version != 1 {
					t.Errorf("a publish at the draft's revision: %+v, %v", v, err)
				}
			})
		}
	})
}

// Edits that send no revision apply to the draft as it is when they are
// saved: edits made at once are each saved, none refused and none lost.
func TestEditsWithoutARevisionApplyToTheDraftAsItIs(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		draft, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("senior"), Rule: ptr(seniorRule)})
		if err != nil {
			t.Fatal(err)
		}
		const edits = 12
		revisions := make(chan int, edits)
		errs := make(chan error, edits)
		for i := range edits {
			c := service.Changes{Description: ptr(fmt.Sprintf("d%d", i))}
			if i%2 == 1 {
				c = service.Changes{Name: ptr(fmt.Sprintf("n%d", i))}
			}
			go func() {
				p, err := f.svc.UpdatePolicyDraft(admin, draft.ID, c)
				if err != nil {
					errs <- err
					return
				}
				revisions <- p.Revision
			}()
		}
		var got []int
		for range edits {
			select {
			case err := <-errs:
				t.Errorf("an edit without a revision: %v", err)
			case r := <-revisions:
				got = append(got, r)
			}
		}
		slices.Sort(got)
		if want := []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}; !slices.Equal(got, want) {
			t.Errorf("edits answered revisions %v, want %v", got, want)
		}
		p, err := f.svc.Policy(admin, draft.ID)
		if err != nil || p.Revision != edits+1 || !strings.HasPrefix(p.Name, "n") || !strings.HasPrefix(p.Description, "d") {
			t.Errorf("after the edits the draft is %+v (%v)", p, err)
		}
	})
}
