package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"github.com/verdict/verdict/service"
)

// errGone is the error of each field left unresolved by stopWhenGone. It
// is not logged: the client that would read it has gone.
var errGone = &service.Error{Code: service.CodeUnavailable, Message: "the request ended before this field was resolved"}

// stopWhenGone resolves no further field once the request's context has
// ended (the client went away, or the server is shutting down), so that
// an abandoned operation stops at the next field instead of running to
// its end for nobody. Each field left unresolved adds an error, which
// errorCap bounds.
type stopWhenGone struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.FieldInterceptor
} = stopWhenGone{}

func (stopWhenGone) ExtensionName() string { return "StopWhenGone" }

func (stopWhenGone) Validate(graphql.ExecutableSchema) error { return nil }

func (stopWhenGone) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	if ctx.Err() != nil {
		return nil, errGone
	}
	return next(ctx)
}
