// Package requestid carries the id of the request being served in its
// context, and writes it on every log line logged with that context, so
// that an operator can match a line, whichever layer wrote it, to the
// request and to the X-Request-Id its client was answered.
package requestid

import (
	"context"
	"log/slog"
)

// attrKey is the attribute the id is logged as.
const attrKey = "request_id"

type contextKey struct{}

// With returns ctx carrying id.
func With(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, contextKey{}, id)
}

// From returns the id ctx carries; empty when it carries none.
func From(ctx context.Context) string {
	id, _ := ctx.Value(contextKey{}).(string)
	return id
}

// handler adds the id of the record's context to the record.
type handler struct{ next slog.Handler }

// NewHandler wraps next so that a record logged with a context carrying an
// id has it as its last attribute, request_id; a record without one is
// passed on as it is. Under a group (WithGroup) the attribute is in the
// group, as any other would be.
func NewHandler(next slog.Handler) slog.Handler { return handler{next} }

func (h handler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.next.Enabled(ctx, level)
}

func (h handler) Handle(ctx context.Context, r slog.Record) error {
	if id := From(ctx); id != "" {
		r.AddAttrs(slog.String(attrKey, id))
	}
	return h.next.Handle(ctx, r)
}

func (h handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return handler{h.next.WithAttrs(attrs)}
}

func (h handler) WithGroup(name string) slog.Handler {
	return handler{h.next.WithGroup(name)}
}
