package requestid

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

// textLogger writes lines of level info and above to b, without their
// time, through NewHandler.
func textLogger(b *bytes.Buffer) *slog.Logger {
	return slog.New(NewHandler(slog.NewTextHandler(b, &slog.HandlerOptions{
		Level: slog.LevelInfo,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	})))
}

func TestLinesLoggedWithAnIDCarryItAsRequestID(t *testing.T) {
	var b bytes.Buffer
	log := textLogger(&b)
	ctx := With(context.Background(), "req-7")
	log.WarnContext(ctx, "service unavailable", "route", "GET /policies")
	log.With("component", "x").InfoContext(ctx, "with attributes")
	log.WithGroup("g").InfoContext(ctx, "in a group", "a", 1)
	log.InfoContext(context.Background(), "no request")
	log.Info("no context")
	log.DebugContext(ctx, "below the level")
	want := `level=WARN msg="service unavailable" route="GET /policies" request_id=req-7
level=INFO msg="with attributes" component=x request_id=req-7
level=INFO msg="in a group" g.a=1 g.request_id=req-7
level=INFO msg="no request"
level=INFO msg="no context"
`
	if b.String() != want {
		t.Errorf("logged\n%s\nwant\n%s", b.String(), want)
	}
}

func TestFromReadsTheInnermostIDOrNone(t *testing.T) {
	if id := From(context.Background()); id != "" {
		t.Errorf("From(Background) = %q, want empty", id)
	}
	inner := With(With(context.Background(), "outer"), "inner")
	if id := From(inner); id != "inner" {
		t.Errorf("From = %q, want inner", id)
	}
}

func TestTheWrappedHandlerDecidesTheLevel(t *testing.T) {
	var b bytes.Buffer
	h := NewHandler(slog.NewTextHandler(&b, &slog.HandlerOptions{Level: slog.LevelError}))
	ctx := With(context.Background(), "req-8")
	if h.Enabled(ctx, slog.LevelWarn) || !h.Enabled(ctx, slog.LevelError) {
		t.Error("the wrapper enables other levels than its handler")
	}
	slog.New(h).WarnContext(ctx, "left out")
	if strings.Contains(b.String(), "left out") {
		t.Errorf("a line below the level was written: %s", b.String())
	}
}
