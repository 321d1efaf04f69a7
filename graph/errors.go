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
//     (logFailure).
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
				logFailure(ctx, log, code, shown.Path.String(), err, errors.Unwrap(se))
			}
		case shown.Err == nil:
			code, msg = service.CodeInvalidArgument, shown.Message
		default:
			logFailure(ctx, log, service.CodeInternal, shown.Path.String(), err, nil)
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

// logFailure logs a failure of the server, which the client sees only by
// its code, as REST logs the same failure (rest's writeError): the same
// message, level and cause, so that one search of the log finds a failure
// whichever API met it. path, the field's, stands where REST has the
// route. cause is what the service error wraps; when nil, err is its own
// cause, as in REST. Other codes are the client's doing and are not
// logged.
func logFailure(ctx context.Context, log *slog.Logger, code service.Code, path string, err, cause error) {
	var level slog.Level
	var msg string
	switch code {
	case service.CodeInternal:
		level, msg = slog.LevelError, "internal error"
	case service.CodeUnavailable, service.CodeAuthorizationUnavailable:
		level, msg = slog.LevelWarn, "service unavailable"
	default:
		return
	}
	if cause == nil {
		cause = err
	}
	log.LogAttrs(ctx, level, msg, slog.String("path", path), slog.Any("error", err), slog.Any("cause", cause))
}

// recoverPanic turns a panic in a resolver into an error for presentError,
// which logs it, stack included, and shows it as internal.
func recoverPanic(_ context.Context, v any) error {
	return fmt.Errorf("panic: %v\n%s", v, debug.Stack())
}
