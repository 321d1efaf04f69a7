package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/verdict/verdict/service"
)

// presentError gives every error the client sees an `extensions.code` from
// the API's list (docs/endpoints.md, "Errors"):
//
//   - a service error keeps its code and message, and its details, when it
//     lists several problems (an invalid flow definition), under
//     `extensions.details`, as REST lists them under `error.details`;
//   - an error gqlgen or the validator made itself (a document that does not
//     parse or validate, a limit exceeded, an unreadable body) means the
//     request is malformed: invalid_argument, with its message;
//   - anything else is a fault of the server: it is logged and shown as
//     internal, without details. The service's internal and unavailable
//     errors, whose causes the service keeps to itself, are logged too
//     (service.LogFailure).
//
// No message or detail is longer than maxMessage characters: a message
// quotes only the start of a value the client sent, and should one not,
// the cut here keeps a response of many errors from repeating it whole.
func presentError(log *slog.Logger) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		shown := graphql.DefaultErrorPresenter(ctx, err)
		code, msg := service.CodeInternal, "internal error"
		var details []string
		var se *service.Error
		switch {
		case errors.As(err, &se):
			code, msg, details = se.Code, se.Message, se.Details
			// A field left unresolved because the client went away is
			// no failure of the server.
			if se != errGone {
				service.LogFailure(ctx, log, code, err, errors.Unwrap(se), slog.String("path", shown.Path.String()))
			}
		case shown.Err == nil:
			code, msg = service.CodeInvalidArgument, shown.Message
		default:
			service.LogFailure(ctx, log, service.CodeInternal, err, nil, slog.String("path", shown.Path.String()))
		}
		ext := map[string]any{"code": string(code)}
		if details != nil {
			cut := make([]string, len(details))
			for i, d := range details {
				cut[i] = capped(d)
			}
			ext["details"] = cut
		}
		// An error found in an argument (an invalid id in a filter) is on
		// the path of the argument's value; a path names a field of the
		// response, the one whose arguments it was.
		path := shown.Path
		if fc := graphql.GetFieldContext(ctx); fc != nil && len(path) > 0 {
			path = fc.Path()
		}
		return &gqlerror.Error{
			Message:    capped(msg),
			Path:       path,
			Locations:  shown.Locations,
			Extensions: ext,
		}
	}
}

// recoverPanic turns a panic in a resolver into an error for presentError,
// which logs it, stack included, and shows it as internal.
func recoverPanic(_ context.Context, v any) error {
	return fmt.Errorf("panic: %v\n%s", v, debug.Stack())
}
