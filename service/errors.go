package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
)

// Code is an error code of the API (docs/endpoints.md, "Errors").
type Code string

const (
	CodeInvalidArgument          Code = "invalid_argument"
	CodeUnauthenticated          Code = "unauthenticated"
	CodePermissionDenied         Code = "permission_denied"
	CodeNotFound                 Code = "not_found"
	CodeConflict                 Code = "conflict"
	CodeDeleted                  Code = "deleted"
	CodePayloadTooLarge          Code = "payload_too_large"
	CodeRateLimited              Code = "rate_limited"
	CodeAuthorizationUnavailable Code = "authorization_unavailable"
	CodeUnavailable              Code = "unavailable"
	CodeInternal                 Code = "internal"
)

// Error is an error meant for the caller: its Code decides the status and
// its Message is safe to show.
type Error struct {
	Code    Code
	Message string
	// Details lists every problem when there are several to report at once
	// (an invalid flow definition); nil otherwise.
	Details []string
	cause   error
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

func (e *Error) Unwrap() error { return e.cause }

func newError(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalid reports a malformed request.
func Invalid(format string, args ...any) *Error {
	return newError(CodeInvalidArgument, format, args...)
}

// internal wraps an unexpected failure; its cause is logged, never shown.
func internal(cause error) *Error {
	return &Error{Code: CodeInternal, Message: "internal error", cause: cause}
}

// unavailable wraps a failure of the database.
func unavailable(cause error) *Error {
	return &Error{Code: CodeUnavailable, Message: "the database is unavailable", cause: cause}
}

// CodeOf returns the code of err, CodeInternal when it carries none.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// LogFailure logs a failure of the server, which a client sees only by its
// code, as every API logs it: an internal error at ERROR as "internal
// error", an unavailable database or authorizer at WARN as "service
// unavailable", each with the error and its cause (what err wraps; err
// itself when cause is nil), so that one search of the log finds a failure
// whichever API met it. where names the route or field. Other codes are
// the client's doing and are not logged.
func LogFailure(ctx context.Context, log *slog.Logger, code Code, err, cause error, where slog.Attr) {
	var level slog.Level
	var msg string
	switch code {
	case CodeInternal:
		level, msg = slog.LevelError, "internal error"
	case CodeUnavailable, CodeAuthorizationUnavailable:
		level, msg = slog.LevelWarn, "service unavailable"
	default:
		return
	}
	if cause == nil {
		cause = err
	}
	log.LogAttrs(ctx, level, msg, where, slog.Any("error", err), slog.Any("cause", cause))
}
