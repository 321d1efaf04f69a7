package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"github.com/verdict/verdict/service"
)

// reauthenticate looks the caller's key up again before each mutation of
// a document. The key is checked once when the request arrives, and the
// mutations of one document run in turn: without this, one that revokes
// the caller's key, removes them from the organization or lowers their
// role would leave the mutations after it acting with what the key could
// do before, as a removed admin creating an organization key that outlives
// them. Queries change nothing, so what a document's queries may do
// cannot change while it runs.
type reauthenticate struct{ svc *service.Service }

var _ interface {
	graphql.HandlerExtension
	graphql.FieldInterceptor
} = reauthenticate{}

func (reauthenticate) ExtensionName() string { return "Reauthenticate" }

func (reauthenticate) Validate(graphql.ExecutableSchema) error { return nil }

func (r reauthenticate) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	if fc := graphql.GetFieldContext(ctx); fc != nil && fc.Object == "Mutation" {
		var err error
		if ctx, err = r.svc.Reauthenticate(ctx); err != nil {
			return nil, err
		}
	}
	return next(ctx)
}
