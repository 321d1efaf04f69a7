package service

import (
	"context"
	"errors"
	"strings"
	"testing"

	"golang.org/x/sync/singleflight"
)

func TestASharedLoadThatPanicsFailsItsCallersAndNotTheProcess(t *testing.T) {
	var g singleflight.Group
	_, err := shared(context.Background(), &g, "base/1/0", func(context.Context) (int, error) { panic("broken") })
	if err == nil || !strings.Contains(err.Error(), "broken") {
		t.Fatalf("error %v, want the panic", err)
	}
}

func TestACallerThatGoesAwayStopsWaitingWhileTheLoadGoesOn(t *testing.T) {
	var g singleflight.Group
	loading, release := make(chan context.Context, 1), make(chan struct{})
	load := func(ctx context.Context) (int, error) {
		loading <- ctx
		<-release
		return 7, ctx.Err()
	}
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 1)
	go func() {
		_, err := shared(ctx, &g, "base/1/0", load)
		errs <- err
	}()
	loadCtx := <-loading
	cancel()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Errorf("the caller that went away got %v, want context.Canceled", err)
	}
	if err := loadCtx.Err(); err != nil {
		t.Errorf("the load's context ended with its caller's: %v", err)
	}
	// Another caller asking meanwhile gets the answer.
	answers := make(chan int, 1)
	go func() {
		v, _ := shared(context.Background(), &g, "base/1/0", load)
		answers <- v
	}()
	close(release)
	if v := <-answers; v != 7 {
		t.Errorf("another caller got %d, want 7", v)
	}
}
