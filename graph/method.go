package graph

import (
	"context"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// queriesByGet refuses a mutation sent by GET before anything runs, as a
// document over a limit is refused: 422 with the code invalid_argument.
// gqlgen's own refusal of it (406) carries no code, which every error of
// the API has. A GET is only ever a read: a link or a prefetch must not
// change anything.
type queriesByGet struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = queriesByGet{}

func (queriesByGet) ExtensionName() string { return "QueriesByGet" }

func (queriesByGet) Validate(graphql.ExecutableSchema) error { return nil }

func (queriesByGet) MutateOperationContext(ctx context.Context, op *graphql.OperationContext) *gqlerror.Error {
	if sentByGet(ctx) && op.Operation != nil && op.Operation.Operation != ast.Query {
		return refusal(nil, "a %s must be sent by POST: GET /graphql runs queries only", op.Operation.Operation)
	}
	return nil
}

type getKey struct{}

// markGet notes in a GET request's context that it came by GET, which the
// operation context does not tell.
func markGet(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			r = r.WithContext(context.WithValue(r.Context(), getKey{}, true))
		}
		next.ServeHTTP(w, r)
	})
}

func sentByGet(ctx context.Context) bool {
	get, _ := ctx.Value(getKey{}).(bool)
	return get
}
