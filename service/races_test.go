package service_test

import (
	"context"
	"database/sql"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/apikey"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/user"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// The tests here hold a change uncommitted on PostgreSQL and check what
// a service call that meets it does. SQLite runs write transactions one
// at a time, so the two cannot overlap there.

// duringHeldChange runs do while stmt, a change that do must wait for, is
// held uncommitted in a transaction of its own; once a statement of do
// that holds waitsIn (a table's quoted name, or the lock function it
// calls) waits on a lock, it commits the change and returns what do
// returned. do ending before it waited fails t.
func duringHeldChange(t *testing.T, db *database.DB, waitsIn, stmt string, args []any, do func() error) error {
	t.Helper()
	return duringHeldChangeThen(t, db, waitsIn, stmt, args, do, func() {})
}

// duringHeldChangeThen is duringHeldChange that calls beforeCommit once do
// waits, just before the change commits.
func duringHeldChangeThen(t *testing.T, db *database.DB, waitsIn, stmt string, args []any, do func() error, beforeCommit func()) error {
	t.Helper()
	return duringHeldChangeEnded(t, db, waitsIn, stmt, args, do, func(change *sql.Tx) error {
		beforeCommit()
		return change.Commit()
	})
}

// duringHeldChangeUndone is duringHeldChange that rolls the change back,
// instead of committing it, once do waits.
func duringHeldChangeUndone(t *testing.T, db *database.DB, waitsIn, stmt string, args []any, do func() error) error {
	t.Helper()
	return duringHeldChangeEnded(t, db, waitsIn, stmt, args, do, func(change *sql.Tx) error { return change.Rollback() })
}

// duringHeldChangeEnded is duringHeldChange that ends the change with end
// once do waits.
func duringHeldChangeEnded(t *testing.T, db *database.DB, waitsIn, stmt string, args []any, do func() error, end func(*sql.Tx) error) error {
	t.Helper()
	ctx := context.Background()
	change, err := db.SQL().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer change.Rollback()
	if _, err := change.ExecContext(ctx, stmt, args...); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- do() }()
	untilWaiting(t, db, waitsIn, done)
	if err := end(change); err != nil {
		t.Fatal(err)
	}
	return <-done
}

// untilWaiting returns once a statement holding waitsIn waits on a lock;
// what ends on done before that fails t.
func untilWaiting(t *testing.T, db *database.DB, waitsIn string, done <-chan error) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for waiting := false; !waiting; {
		select {
		case err := <-done:
			t.Fatalf("it ended without waiting in %s: %v", waitsIn, err)
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("it neither ended nor waited in %s within a minute", waitsIn)
		}
		if err := db.SQL().QueryRowContext(context.Background(), `SELECT count(*) > 0 FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock' AND strpos(query, $1) > 0`,
			waitsIn).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
	}
}

// group is a new group of the caller's organization.
func (f *fixture) group(t *testing.T, ctx context.Context, name string) *service.Group {
	t.Helper()
	g, err := f.svc.CreateGroup(ctx, service.GroupChanges{Name: &name})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// onPostgres runs fn on PostgreSQL alone, with a fixture and its admin.
func onPostgres(t *testing.T, fn func(t *testing.T, db *database.DB, f *fixture, admin context.Context)) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		if db.Dialect() != dialect.Postgres {
			t.Skip("SQLite runs write transactions one at a time")
		}
		f := newFixture(t, db)
		fn(t, db, f, f.as(t, adminKey, ""))
	})
}

// A key made for a member while the member's removal is under way waits
// for the removal and finds no member: it is never left active for a
// member who is gone, where adding the member again would bring it back to
// work.
func TestAKeyMadeAsItsMemberIsRemovedIsNotLeftActive(t *testing.T) {
	onPostgres(t, func(t *testing.T, db *database.DB, f *fixture, admin context.Context) {
		_, ed := f.member(t, "ed@acme.test", authz.RoleEditor)
		err := duringHeldChange(t, db, `"memberships"`, `DELETE FROM memberships WHERE user_id = $1 AND organization_id = $2`,
			[]any{ed, f.acme.Organization.ID}, func() error {
				_, err := f.svc.CreateKey(admin, service.KeyRequest{Name: "raced", Scope: authz.ScopeView, UserID: &ed})
				return err
			})
		wantCode(t, err, service.CodeNotFound)
		if n := db.Client().APIKey.Query().Where(apikey.Name("raced")).CountX(context.Background()); n != 0 {
			t.Errorf("%d keys named raced stored", n)
		}
	})
}

// A change to a policy whose deletion is under way waits for it and is
// refused as deleted, with nothing stored: none is acknowledged on a base
// deleted beside it.
func TestAChangeMadeAsItsBaseIsDeletedIsRefused(t *testing.T) {
	onPostgres(t, func(t *testing.T, db *database.DB, f *fixture, admin context.Context) {
		svc := f.svc
		for _, c := range []struct {
			name      string
			withDraft bool
			change    func(version, draft uuid.UUID) error
		}{
			{"an edit of the draft", true, func(_, draft uuid.UUID) error {
				_, err := svc.UpdatePolicyDraft(admin, draft, service.Changes{Description: ptr("edited")})
				return err
			}},
			{"a publish", true, func(_, draft uuid.UUID) error {
				_, err := svc.PublishPolicy(admin, draft, service.Changes{})
				return err
			}},
			{"decision records turned on", false, func(version, _ uuid.UUID) error {
				_, err := svc.SetPolicyDecisionSettings(admin, version, service.DecisionSettingsInput{Enabled: true})
				return err
			}},
			{"a draft from a version", false, func(version, _ uuid.UUID) error {
				_, err := svc.PolicyDraftFromVersion(admin, version, false)
				return err
			}},
			{"a draft from a version replacing the draft", true, func(version, _ uuid.UUID) error {
				_, err := svc.PolicyDraftFromVersion(admin, version, true)
				return err
			}},
			{"a rollback", false, func(version, _ uuid.UUID) error {
				_, err := svc.RollbackPolicy(admin, version)
				return err
			}},
		} {
			t.Run(c.name, func(t *testing.T) {
				version := f.publishedPolicy(t, c.name, seniorRule)
				var draft uuid.UUID
				if c.withDraft {
					d, err := svc.PolicyDraftFromVersion(admin, version.ID, false)
					if err != nil {
						t.Fatal(err)
					}
					draft = d.ID
				}
				before := f.auditActions(t, version.BaseID)
				err := duringHeldChange(t, db, `"bases"`, `UPDATE bases SET deleted_at = now() WHERE id = $1`, []any{version.BaseID},
					func() error { return c.change(version.ID, draft) })
				wantCode(t, err, service.CodeDeleted)
				if after := f.auditActions(t, version.BaseID); !slices.Equal(after, before) {
					t.Errorf("events %v after the refused change, %v before", after, before)
				}
			})
		}
	})
}

// A policy added to a group whose deletion is under way waits for it and
// finds no group.
func TestABaseAddedToAGroupAsItIsDeletedFindsNoGroup(t *testing.T) {
	onPostgres(t, func(t *testing.T, db *database.DB, f *fixture, admin context.Context) {
		policy, g := f.publishedPolicy(t, "p", seniorRule), f.group(t, admin, "g")
		err := duringHeldChange(t, db, `"groups"`, `DELETE FROM groups WHERE id = $1`, []any{g.ID}, func() error {
			_, err := f.svc.AddGroupMember(admin, g.ID, service.GroupMemberInput{Kind: authz.KindPolicy, BaseID: policy.BaseID})
			return err
		})
		wantCode(t, err, service.CodeNotFound)
		if n := db.Client().GroupMember.Query().CountX(context.Background()); n != 0 {
			t.Errorf("%d group members stored", n)
		}
	})
}

// A group deleted while a policy is being added to it waits for the
// addition, and ends that membership with its event too: the cascade
// takes no member the deletion did not see.
func TestAGroupDeletedAsAPolicyIsAddedEndsThatMembershipToo(t *testing.T) {
	onPostgres(t, func(t *testing.T, db *database.DB, f *fixture, admin context.Context) {
		policy, g := f.publishedPolicy(t, "p", seniorRule), f.group(t, admin, "g")
		member := uuid.New()
		err := duringHeldChange(t, db, `"groups"`, `INSERT INTO group_members (id, created_at, kind, base_id, group_id) VALUES ($1, now(), 'policy', $2, $3)`,
			[]any{member, policy.BaseID, g.ID}, func() error { return f.svc.DeleteGroup(admin, g.ID) })
		if err != nil {
			t.Fatal(err)
		}
		evs := audittest.Events(t, db, audittest.Filter{Base: &policy.BaseID, Action: auditevent.ActionAssigned})
		if len(evs) != 1 || evs[0].Details["direction"] != "removed" || evs[0].Details["memberId"] != member.String() {
			t.Errorf("the policy's assignment events: %+v; want its removal from the group", evs)
		}
	})
}

// A change that meets the removal, under way, of what it changes waits
// for it and answers not found, as it would a moment later, rather than
// taking the vanished row for a failing database.
func TestAChangeOfWhatIsBeingRemovedIsNotFound(t *testing.T) {
	onPostgres(t, func(t *testing.T, db *database.DB, f *fixture, admin context.Context) {
		svc := f.svc
		policy := f.publishedPolicy(t, "p", seniorRule)
		for i, c := range []struct {
			name, table, stmt string
			change            func(user, group, member uuid.UUID) error
		}{
			{"a member's role", "memberships", `DELETE FROM memberships WHERE user_id = $1`, func(user, _, _ uuid.UUID) error {
				_, err := svc.SetMemberRole(admin, user, authz.RoleViewer)
				return err
			}},
			{"a member's removal", "memberships", `DELETE FROM memberships WHERE user_id = $1`, func(user, _, _ uuid.UUID) error {
				return svc.RemoveMember(admin, user)
			}},
			{"a group's name", "groups", `DELETE FROM groups WHERE id = $2`, func(_, group, _ uuid.UUID) error {
				_, err := svc.UpdateGroup(admin, group, service.GroupChanges{Name: ptr("renamed")})
				return err
			}},
			{"a group's deletion", "groups", `DELETE FROM groups WHERE id = $2`, func(_, group, _ uuid.UUID) error {
				return svc.DeleteGroup(admin, group)
			}},
			{"a group member's removal", "group_members", `DELETE FROM group_members WHERE id = $3`, func(_, group, member uuid.UUID) error {
				return svc.RemoveGroupMember(admin, group, member)
			}},
		} {
			t.Run(c.name, func(t *testing.T) {
				_, user := f.member(t, fmt.Sprintf("member%d@acme.test", i), authz.RoleEditor)
				g := f.group(t, admin, c.name)
				m, err := svc.AddGroupMember(admin, g.ID, service.GroupMemberInput{Kind: authz.KindPolicy, BaseID: policy.BaseID})
				if err != nil {
					t.Fatal(err)
				}
				// Each statement names what it removes by its own argument;
				// PostgreSQL asks that every argument be used.
				stmt := c.stmt + ` AND $1::uuid IS NOT NULL AND $2::uuid IS NOT NULL AND $3::uuid IS NOT NULL`
				err = duringHeldChange(t, db, `"`+c.table+`"`, stmt, []any{user, g.ID, m.ID}, func() error { return c.change(user, g.ID, m.ID) })
				wantCode(t, err, service.CodeNotFound)
			})
		}
	})
}

// A change that waited for another to commit is logged after it: its
// events are timed once its statements have waited for the rows they
// lock, not when it began. A clock that moves a microsecond at every
// reading tells the two apart: the deletion began before the held change
// committed, and its event is timed after that.
func TestAnEventIsTimedAfterTheChangesItsChangeWaitedFor(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		if db.Dialect() != dialect.Postgres {
			t.Skip("SQLite runs write transactions one at a time")
		}
		var ticks atomic.Int64
		began := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
		tick := func() time.Time { return began.Add(time.Duration(ticks.Add(1)) * time.Microsecond) }
		f := newFixtureWith(t, db, func(c *service.Config) { c.Now = tick })
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "senior", seniorRule)
		var committed time.Time
		err := duringHeldChangeThen(t, db, `"bases"`, `UPDATE bases SET description = 'held' WHERE id = $1`, []any{pol.BaseID},
			func() error { return f.svc.DeletePolicy(admin, pol.BaseID) },
			func() { committed = tick() })
		if err != nil {
			t.Fatal(err)
		}
		deleted := audittest.Events(t, db, audittest.Filter{Tenant: &f.acme.Organization.ID, Action: auditevent.ActionDeleted})
		if len(deleted) != 1 || !deleted[0].At.After(committed) {
			t.Errorf("the deletion is logged at %v, want after %v, when the change it waited for committed", deleted, committed)
		}
	})
}

// A change of role or a removal of a member waits for the change of
// roles under way in its organization and then reads the member as that
// change left it. Reading the member first let a promotion of it commit
// unseen: a demotion then took it for a non-admin without counting the
// admins, while a third request demoting the other admin had counted it,
// and the organization was left without one; the audit log named the
// role it had before the promotion.
func TestChangesOfRoleInOneOrganizationTakeTurns(t *testing.T) {
	onPostgres(t, func(t *testing.T, db *database.DB, f *fixture, admin context.Context) {
		for _, c := range []struct {
			name   string
			change func(bo uuid.UUID) error
			action string
			role   string
		}{
			{"a demotion", func(bo uuid.UUID) error {
				_, err := f.svc.SetMemberRole(admin, bo, authz.RoleEditor)
				return err
			}, "role", "from"},
			{"a removal", func(bo uuid.UUID) error { return f.svc.RemoveMember(admin, bo) }, "removed", "role"},
		} {
			t.Run(c.name, func(t *testing.T) {
				email := strings.ReplaceAll(c.name, " ", "-") + "@acme.test"
				_, bo := f.member(t, email, authz.RoleViewer)
				// Holding the tenant's roles as the store does (see rolesKey).
				promotion := `WITH roles AS (SELECT pg_advisory_xact_lock($2, $3))
					UPDATE memberships SET role = 'admin' WHERE user_id = $1 AND EXISTS (SELECT 1 FROM roles)`
				class, key := rolesKey(f.acme.Organization.ID)
				if err := duringHeldChange(t, db, "pg_advisory_xact_lock(", promotion, []any{bo, class, key},
					func() error { return c.change(bo) }); err != nil {
					t.Fatal(err)
				}
				var seen []any
				for _, ev := range audittest.Events(t, db, audittest.Filter{Tenant: &f.acme.Organization.ID, Action: auditevent.ActionEdited}) {
					if ev.Details["email"] == email && ev.Details["change"] == c.action {
						seen = append(seen, ev.Details[c.role])
					}
				}
				if !slices.Equal(seen, []any{"admin"}) {
					t.Errorf("the events of %s name the member's role before it as %v, want [admin]", c.name, seen)
				}
			})
		}
	})
}

// A member added by an email whose user another request is creating at
// that moment (an admin of another organization adding the same new
// person) waits for that user and joins it; when that creation is undone,
// the addition creates the user itself. The unique violation of creating
// the user a second time aborted the transaction on PostgreSQL, and the
// admin was answered a conflict, with no member added.
func TestAMemberAddedAsItsUserIsCreatedJoinsThatUser(t *testing.T) {
	onPostgres(t, func(t *testing.T, db *database.DB, f *fixture, admin context.Context) {
		for _, c := range []struct {
			name      string
			committed bool
			hold      func(t *testing.T, db *database.DB, table, stmt string, args []any, do func() error) error
		}{
			{"the creation committed", true, duringHeldChange},
			{"the creation undone", false, duringHeldChangeUndone},
		} {
			t.Run(c.name, func(t *testing.T) {
				email := strings.ReplaceAll(c.name, " ", "-") + "@acme.test"
				held := uuid.New()
				var m *service.Member
				err := c.hold(t, db, "users", `INSERT INTO users (id, created_at, email, name) VALUES ($1, now(), $2, 'Held')`,
					[]any{held, email}, func() (err error) {
						m, err = f.svc.AddMember(admin, service.MemberInput{Email: email, Name: "Added", Role: authz.RoleViewer})
						return err
					})
				if err != nil {
					t.Fatal(err)
				}
				users := db.Client().User.Query().Where(user.Email(email)).AllX(context.Background())
				if len(users) != 1 || m.User.ID != users[0].ID || (users[0].ID == held) != c.committed {
					t.Fatalf("users %+v, the member's %s; want one, the held one %s: %v", users, m.User.ID, held, c.committed)
				}
				if role := f.role(t, m.User.ID); role != "viewer" || m.User.Name != "Added" {
					t.Errorf("the member %+v stored as %q; want a viewer named Added", m, role)
				}
			})
		}
	})
}

// rolesKey is the advisory lock the store holds a tenant's roles by
// (storage's rolesLock), for a test to take it by hand.
func rolesKey(tenant uuid.UUID) (class, key int32) {
	h := fnv.New32a()
	h.Write(tenant[:])
	return 0x76647263, int32(h.Sum32())
}

// A change on its way while its caller is demoted waits for the demotion
// and then refuses, changing nothing: the demotion holds the tenant's
// roles, which every change shares. Here the demotion is made by hand in a
// transaction that takes the lock the store takes for it.
func TestAChangeOnItsWayAsItsCallerIsDemotedIsRefused(t *testing.T) {
	onPostgres(t, func(t *testing.T, db *database.DB, f *fixture, admin context.Context) {
		editor := f.team(t)["editor"]
		v, err := f.svc.Viewer(editor)
		if err != nil {
			t.Fatal(err)
		}
		class, key := rolesKey(f.acme.Organization.ID)
		err = duringHeldChangeEnded(t, db, "pg_advisory_xact_lock_shared", `SELECT pg_advisory_xact_lock($1, $2)`, []any{class, key},
			func() error {
				_, err := f.svc.CreateGroup(editor, service.GroupChanges{Name: ptr("by a viewer")})
				return err
			}, func(demotion *sql.Tx) error {
				if _, err := demotion.Exec(`UPDATE memberships SET role = 'viewer' WHERE user_id = $1`, v.User.ID); err != nil {
					return err
				}
				return demotion.Commit()
			})
		wantCode(t, err, service.CodeConflict)
		if n := db.Client().Group.Query().CountX(context.Background()); n != 0 {
			t.Errorf("%d groups stored by a caller demoted as they sent it", n)
		}
	})
}

// A change of role waits for the changes under way, and the changes that
// come after it wait for it: a stream of writes cannot hold it off.
func TestAChangeOfRoleIsNotHeldOffByTheWritesAfterIt(t *testing.T) {
	onPostgres(t, func(t *testing.T, db *database.DB, f *fixture, admin context.Context) {
		ctx := context.Background()
		as := f.team(t)
		v, err := f.svc.Viewer(as["viewer"])
		if err != nil {
			t.Fatal(err)
		}
		// A write under way, held by hand.
		first, err := db.SQL().BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer first.Rollback()
		class, key := rolesKey(f.acme.Organization.ID)
		if _, err := first.ExecContext(ctx, `SELECT pg_advisory_xact_lock_shared($1, $2)`, class, key); err != nil {
			t.Fatal(err)
		}
		changed := make(chan error, 1)
		go func() {
			_, err := f.svc.SetMemberRole(admin, v.User.ID, authz.RoleEditor)
			changed <- err
		}()
		untilWaiting(t, db, "pg_advisory_xact_lock(", changed)
		// A write that comes after the change of role waits behind it.
		wrote := make(chan error, 1)
		go func() {
			_, err := f.svc.CreateGroup(as["editor"], service.GroupChanges{Name: ptr("after")})
			wrote <- err
		}()
		untilWaiting(t, db, "pg_advisory_xact_lock_shared(", wrote)
		if err := first.Commit(); err != nil {
			t.Fatal(err)
		}
		if err := <-changed; err != nil {
			t.Fatalf("the change of role: %v", err)
		}
		if err := <-wrote; err != nil {
			t.Fatalf("the write after it: %v", err)
		}
	})
}

// An edit that sends no revision, made while another save of the draft is
// under way, waits for it and goes onto the draft that save left; one that
// sends the revision it read is refused then, changing nothing, as is a
// publish, whose stored tests ran on the draft before that save.
func TestAnEditWithoutARevisionGoesOntoTheSaveItWaitedFor(t *testing.T) {
	onPostgres(t, func(t *testing.T, db *database.DB, f *fixture, admin context.Context) {
		for _, c := range []struct {
			name     string
			revision *int
		}{{"without a revision", nil}, {"at the revision it read", ptr(1)}} {
			t.Run(c.name, func(t *testing.T) {
				draft, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("senior"), Rule: ptr(seniorRule)})
				if err != nil {
					t.Fatal(err)
				}
				err = duringHeldChange(t, db, `"records"`, `UPDATE records SET name = 'held', revision = revision + 1 WHERE id = $1`,
					[]any{draft.ID}, func() error {
						_, err := f.svc.UpdatePolicyDraft(admin, draft.ID, service.Changes{Description: ptr("edited"), Revision: c.revision})
						return err
					})
				got, gerr := f.svc.Policy(admin, draft.ID)
				if gerr != nil {
					t.Fatal(gerr)
				}
				if c.revision != nil {
					published := duringHeldChange(t, db, `"records"`, `UPDATE records SET revision = revision + 1 WHERE id = $1`,
						[]any{draft.ID}, func() error {
							_, err := f.svc.PublishPolicy(admin, draft.ID, service.Changes{})
							return err
						})
					if want := "conflict: the draft was published or changed meanwhile"; published == nil || published.Error() != want {
						t.Errorf("a publish during a save: %v, want %q", published, want)
					}
					wantCode(t, err, service.CodeConflict)
					if got.Revision != 2 || got.Description != "" {
						t.Errorf("after the refused edit the draft is at revision %d, described %q", got.Revision, got.Description)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if got.Revision != 3 || got.Name != "held" || got.Description != "edited" {
					t.Errorf("the draft is %q, %q at revision %d; want held, edited at 3", got.Name, got.Description, got.Revision)
				}
			})
		}
	})
}
