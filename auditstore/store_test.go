package auditstore_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"

	"github.com/verdict/verdict/auditstore"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
)

// day0 is a midnight (UTC) far from today, so that no partition made
// ahead of today is involved.
var day0 = time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC)

func event(tenant uuid.UUID, at time.Time) auditstore.Event {
	return auditstore.Event{ID: audittest.IDAt(at), Tenant: tenant, At: at, Kind: "policy",
		BaseID: uuid.New(), RecordID: uuid.New(), ActorKind: "key", ActorID: uuid.New(), Result: true, Duration: 1500}
}

// series is n events of tenant, the i-th at day0 plus after(i).
func series(tenant uuid.UUID, n int, after func(i int) time.Duration) []auditstore.Event {
	events := make([]auditstore.Event, n)
	for i := range events {
		events[i] = event(tenant, day0.Add(after(i)))
	}
	return events
}

func everySecond(i int) time.Duration { return time.Duration(i) * time.Second }

func ids(events []auditstore.Event) []uuid.UUID {
	out := make([]uuid.UUID, len(events))
	for i, ev := range events {
		out[i] = ev.ID
	}
	return out
}

func TestEventsAreReadBackAsStored(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		s := auditstore.New(db)
		tenant, other := uuid.New(), uuid.New()
		version := 4
		full := event(tenant, day0.Add(90*time.Minute+123456*time.Microsecond))
		full.Kind, full.ActorKind, full.Result, full.Published, full.Version = "flow", "user", false, true, &version
		// What COPY's text format must escape survives it.
		full.Extra = map[string]any{"errors": []any{"node 2: no such policy", "tab\there, newline\nthere, backslash \\N, é"}}
		draft := event(tenant, day0.Add(2*time.Hour))
		theirs := event(other, day0.Add(2*time.Hour))
		if err := s.Insert(ctx, []auditstore.Event{full, draft, theirs}); err != nil {
			t.Fatal(err)
		}
		// A batch sent again stores nothing twice, and what it holds
		// that is new once.
		late := event(tenant, day0.Add(3*time.Hour))
		if err := s.Insert(ctx, []auditstore.Event{full, late, draft}); err != nil {
			t.Fatalf("inserting the batch again: %v", err)
		}
		got, _, err := s.List(ctx, auditstore.Filter{Tenant: tenant}, 10)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, []auditstore.Event{late, draft, full}) {
			t.Fatalf("listed\n%+v\nwant\n%+v", got, []auditstore.Event{late, draft, full})
		}
		one, err := s.Get(ctx, tenant, full.ID)
		if err != nil || !reflect.DeepEqual(one, &full) {
			t.Fatalf("Get: %+v, %v; want %+v", one, err, full)
		}
		if one, err := s.Get(ctx, other, full.ID); one != nil || err != nil {
			t.Fatalf("another tenant's Get: %+v, %v; want nothing", one, err)
		}
		if one, err := s.Get(ctx, tenant, uuid.Must(uuid.NewV7())); one != nil || err != nil {
			t.Fatalf("Get of an unknown id: %+v, %v; want nothing", one, err)
		}
	})
}

func TestListFiltersAndPagesNewestFirst(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		s := auditstore.New(db)
		tenant := uuid.New()
		// Over three days, two events at each instant.
		events := series(tenant, 12, func(i int) time.Duration { return time.Duration(i/2) * 13 * time.Hour })
		events[3].Kind = "flow"
		if err := s.Insert(ctx, events); err != nil {
			t.Fatal(err)
		}
		var want []uuid.UUID
		for i := len(events) - 1; i >= 0; i-- {
			want = append(want, events[i].ID)
		}
		// Two events share each instant; the larger id comes first.
		for i := 0; i+1 < len(want); i += 2 {
			if strings.Compare(want[i].String(), want[i+1].String()) < 0 {
				want[i], want[i+1] = want[i+1], want[i]
			}
		}
		var paged []uuid.UUID
		f := auditstore.Filter{Tenant: tenant}
		for {
			page, _, err := s.List(ctx, f, 5)
			if err != nil {
				t.Fatal(err)
			}
			paged = append(paged, ids(page)...)
			if len(page) < 5 {
				break
			}
			last := page[len(page)-1]
			f.Before = &auditstore.Position{At: last.At, ID: last.ID}
		}
		if !reflect.DeepEqual(paged, want) {
			t.Fatalf("pages hold\n%v\nwant\n%v", paged, want)
		}
		since, until := events[4].At, events[8].At
		filters := []struct {
			name string
			f    auditstore.Filter
			want []uuid.UUID
		}{
			{"kind", auditstore.Filter{Tenant: tenant, Kind: "flow"}, []uuid.UUID{events[3].ID}},
			{"base", auditstore.Filter{Tenant: tenant, BaseID: &events[5].BaseID}, []uuid.UUID{events[5].ID}},
			{"actor", auditstore.Filter{Tenant: tenant, Actor: &events[7].ActorID}, []uuid.UUID{events[7].ID}},
			{"since and until", auditstore.Filter{Tenant: tenant, Since: &since, Until: &until}, want[4:8]},
			{"another tenant", auditstore.Filter{Tenant: uuid.New()}, []uuid.UUID{}},
		}
		for _, c := range filters {
			got, _, err := s.List(ctx, c.f, 50)
			if err != nil || !reflect.DeepEqual(append(ids(got), []uuid.UUID{}...), c.want) {
				t.Errorf("%s: %v, %v; want %v", c.name, ids(got), err, c.want)
			}
			if n, err := s.Count(ctx, c.f); err != nil || n != len(c.want) {
				t.Errorf("%s: counted %d, %v; want %d", c.name, n, err, len(c.want))
			}
		}
	})
}

// A kind is held by no index: its list reads at most Scan of the tenant's
// events from the cursor, and says where it stopped when it found fewer
// than asked. A base's list follows its index and is not bounded.
func TestAListByKindReadsABoundedPartOfTheLog(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		s := auditstore.New(db)
		tenant := uuid.New()
		events := series(tenant, 10, func(i int) time.Duration { return time.Duration(i) * time.Minute })
		events[1].Kind, events[8].Kind = "flow", "flow"
		if err := s.Insert(ctx, events); err != nil {
			t.Fatal(err)
		}
		at := func(i int) *auditstore.Position { return &auditstore.Position{At: events[i].At, ID: events[i].ID} }
		for _, c := range []struct {
			name    string
			f       auditstore.Filter
			limit   int
			want    []uuid.UUID
			scanned *auditstore.Position
		}{
			// Newest first: events 9, 8, 7 are read, 8 matches.
			{"short", auditstore.Filter{Tenant: tenant, Kind: "flow", Scan: 3}, 5, []uuid.UUID{events[8].ID}, at(7)},
			{"on from there", auditstore.Filter{Tenant: tenant, Kind: "flow", Scan: 3, Before: at(7)}, 5, []uuid.UUID{}, at(4)},
			{"to the end", auditstore.Filter{Tenant: tenant, Kind: "flow", Scan: 3, Before: at(4)}, 5, []uuid.UUID{events[1].ID}, at(1)},
			{"past the end", auditstore.Filter{Tenant: tenant, Kind: "flow", Scan: 3, Before: at(1)}, 5, []uuid.UUID{}, nil},
			{"full", auditstore.Filter{Tenant: tenant, Kind: "policy", Scan: 3}, 2, []uuid.UUID{events[9].ID, events[7].ID}, nil},
			{"unbounded", auditstore.Filter{Tenant: tenant, Kind: "flow"}, 5, []uuid.UUID{events[8].ID, events[1].ID}, nil},
			{"by base", auditstore.Filter{Tenant: tenant, Kind: "flow", BaseID: &events[1].BaseID, Scan: 3}, 5, []uuid.UUID{events[1].ID}, nil},
		} {
			got, scanned, err := s.List(ctx, c.f, c.limit)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(append(ids(got), []uuid.UUID{}...), c.want) || !reflect.DeepEqual(scanned, c.scanned) {
				t.Errorf("%s: %v, stopped at %+v; want %v, stopped at %+v", c.name, ids(got), scanned, c.want, c.scanned)
			}
		}
	})
}

func TestAnInsertIntoADayWithoutPartitionCreatesIt(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		s := auditstore.New(db)
		tenant := uuid.New()
		far := day0.AddDate(0, 0, 400).Add(5 * time.Hour)
		if db.Dialect() == dialect.Postgres {
			if days, err := s.Partitions(ctx); err != nil || len(days) != 0 {
				t.Fatalf("partitions before the insert: %v, %v; want none", days, err)
			}
		}
		batch := []auditstore.Event{event(tenant, day0.Add(time.Hour)), event(tenant, far)}
		if err := s.Insert(ctx, batch); err != nil {
			t.Fatalf("inserting into days without a partition: %v", err)
		}
		if n, err := s.Count(ctx, auditstore.Filter{Tenant: tenant}); err != nil || n != 2 {
			t.Fatalf("%d events stored, %v; want 2", n, err)
		}
		days, err := s.Partitions(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if db.Dialect() == dialect.Postgres && !reflect.DeepEqual(days, []time.Time{day0, day0.AddDate(0, 0, 400)}) {
			t.Fatalf("partitions %v, want the two days inserted into", days)
		}
	})
}

func TestPrepareCreatesTodayAndTheDaysAhead(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		if db.Dialect() != dialect.Postgres {
			t.Skip("SQLite has no partitions")
		}
		ctx := context.Background()
		s := auditstore.New(db)
		now := day0.Add(23 * time.Hour)
		for range 2 { // preparing again changes nothing
			if err := s.Prepare(ctx, now); err != nil {
				t.Fatal(err)
			}
		}
		days, err := s.Partitions(ctx)
		want := []time.Time{day0, day0.AddDate(0, 0, 1), day0.AddDate(0, 0, 2), day0.AddDate(0, 0, 3)}
		if err != nil || !reflect.DeepEqual(days, want) {
			t.Fatalf("partitions %v, %v; want %v", days, err, want)
		}
	})
}

func TestABatchOfAnySizeIsStoredWholeOrNotAtAll(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		s := auditstore.New(db)
		tenant := uuid.New()
		// 64 + 8 + 3 events: on SQLite a statement of each size.
		events := series(tenant, 75, everySecond)
		if err := s.Insert(ctx, events[:70]); err != nil {
			t.Fatal(err)
		}
		// A retry that overlaps what is stored adds only the rest.
		if err := s.Insert(ctx, events[60:]); err != nil {
			t.Fatal(err)
		}
		if n, err := s.Count(ctx, auditstore.Filter{Tenant: tenant}); err != nil || n != 75 {
			t.Fatalf("%d events stored, %v; want 75", n, err)
		}
		// An event that cannot be stored fails the batch, and none of it
		// is stored.
		other := uuid.New()
		bad := series(other, 73, everySecond)
		bad[72].Kind = "query"
		if err := s.Insert(ctx, bad); err == nil {
			t.Fatal("a batch with an event of an unknown kind was stored")
		}
		if n, err := s.Count(ctx, auditstore.Filter{Tenant: other}); err != nil || n != 0 {
			t.Fatalf("%d events of the failed batch stored, %v; want none", n, err)
		}
	})
}
