package service

import (
	"testing"
	"time"

	"github.com/google/uuid"
)

func TestKeyUseIsWrittenOnceAMinuteAndForgottenAfter(t *testing.T) {
	r := newKeyUseRecorder()
	start := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	busy, idle := uuid.New(), uuid.New()
	if !r.due(busy, start) || !r.due(idle, start) {
		t.Fatal("a first use is not written")
	}
	if r.due(busy, start.Add(keyUseResolution-time.Second)) {
		t.Error("a use within the minute is written again")
	}
	later := start.Add(keyUseResolution)
	if !r.due(busy, later) {
		t.Error("a use a minute later is not written")
	}
	if _, kept := r.last[idle]; kept || len(r.last) != 1 {
		t.Errorf("after a minute the recorder keeps %d keys, the idle one too: %t; want only the busy one", len(r.last), kept)
	}
}
