package service_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// TestALoneExecutedEventIsStoredSoon: a batch that never fills is stored
// a few milliseconds after its first event, without waiting for Close.
func TestALoneExecutedEventIsStoredSoon(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		t.Cleanup(f.svc.Close)
		admin := f.as(t, adminKey, "")
		rule := seniorRule
		pol, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("senior"), Rule: &rule})
		if err != nil {
			t.Fatal(err)
		}
		// Idle first: the writer must still notice the event that follows.
		time.Sleep(20 * time.Millisecond)
		if _, err := f.svc.RunPolicy(admin, pol.BaseID, json.RawMessage(`{"Person": {"age": 70}}`)); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			n := audittest.Count(t, db, audittest.Filter{Action: auditevent.ActionExecuted})
			if n == 1 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d executed events stored 5s after the run, want 1", n)
			}
		}
	})
}
