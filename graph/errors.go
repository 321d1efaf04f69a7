package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
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
//     request is malformed: invalid_argument, with its message (see
//     numberVariableMessage);
//   - anything else is a fault of the server: it is logged and shown as
//     internal, without details. So are the service's internal and
//     unavailable errors, whose causes the service keeps to itself.
func presentError(log *slog.Logger) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		shown := graphql.DefaultErrorPresenter(ctx, err)
		code, msg := service.CodeInternal, "internal error"
		var details []string
		var se *service.Error
		switch {
		case errors.As(err, &se):
			code, msg, details = se.Code, se.Message, se.Details
			if (code == service.CodeInternal || code == service.CodeUnavailable || code == service.CodeAuthorizationUnavailable) && se != errGone {
				log.ErrorContext(ctx, "graphql request failed", "path", shown.Path.String(), "error", err, "cause", errors.Unwrap(se))
			}
		case shown.Err == nil:
			code, msg = service.CodeInvalidArgument, numberVariableMessage(shown)
		default:
			log.ErrorContext(ctx, "graphql request failed", "path", shown.Path.String(), "error", err)
		}
		ext := map[string]any{"code": string(code)}
		if details != nil {
			ext["details"] = details
		}
		return &gqlerror.Error{
			Message:    msg,
			Path:       shown.Path,
			Locations:  shown.Locations,
			Extensions: ext,
		}
	}
}

// numberVariableMessage is the message of a validation error, except for
// a variable's number that is not an Int or a Float: the validator then
// names a value other than the one sent ("cannot use value 0 as Int" for
// 1.5), which says the number is not of the type.
func numberVariableMessage(e *gqlerror.Error) string {
	if len(e.Path) != 2 || e.Path[0] != ast.PathName("variable") || !strings.HasPrefix(e.Message, "cannot use value ") {
		return e.Message
	}
	switch {
	case strings.HasSuffix(e.Message, " as Int"):
		return fmt.Sprintf("variable $%v must be an Int: a whole number", e.Path[1])
	case strings.HasSuffix(e.Message, " as Float"):
		return fmt.Sprintf("variable $%v must be a Float: a number of at most about 1.8e308", e.Path[1])
	}
	return e.Message
}

// recoverPanic turns a panic in a resolver into an error for presentError,
// which logs it, stack included, and shows it as internal.
func recoverPanic(_ context.Context, v any) error {
	return fmt.Errorf("panic: %v\n%s", v, debug.Stack())
}
