package graph

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/verdict/verdict/service"
)

func TestErrorsAreShownWithTheirAPICode(t *testing.T) {
	for _, tc := range []struct {
		name     string
		err      error
		code     service.Code
		message  string
		details  []string
		isLogged bool
	}{
		{"a service error keeps its code and message", service.Invalid("data must be a JSON object"),
			service.CodeInvalidArgument, "data must be a JSON object", nil, false},
		{"a service error listing problems keeps them as details",
			&service.Error{Code: service.CodeInvalidArgument, Message: "invalid flow definition", Details: []string{"a", "b"}},
			service.CodeInvalidArgument, "invalid flow definition", []string{"a", "b"}, false},
		{"a service error wrapped on a path is still one", gqlerror.WrapPath(nil, &service.Error{Code: service.CodePermissionDenied, Message: "no"}),
			service.CodePermissionDenied, "no", nil, false},
		{"a service internal error is logged", &service.Error{Code: service.CodeInternal, Message: "internal error"},
			service.CodeInternal, "internal error", nil, true},
		{"an error gqlgen made is a malformed request", gqlerror.Errorf("Cannot query field \"x\""),
			service.CodeInvalidArgument, "Cannot query field \"x\"", nil, false},
		{"any other error is internal, logged and not shown", errors.New("secret database detail"),
			service.CodeInternal, "internal error", nil, true},
		{"a panic is internal, logged and not shown", recoverPanic(context.Background(), "secret panic detail"),
			service.CodeInternal, "internal error", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log bytes.Buffer
			present := presentError(slog.New(slog.NewTextHandler(&log, nil)))
			got := present(context.Background(), tc.err)
			if got.Extensions["code"] != string(tc.code) || got.Message != tc.message {
				t.Errorf("got code %v message %q, want %s %q", got.Extensions["code"], got.Message, tc.code, tc.message)
			}
			if details, _ := got.Extensions["details"].([]string); !slices.Equal(details, tc.details) {
				t.Errorf("details %v, want %v", got.Extensions["details"], tc.details)
			}
			if logged := log.Len() > 0; logged != tc.isLogged {
				t.Errorf("logged %v, want %v: %s", logged, tc.isLogged, log.String())
			}
			if tc.isLogged && strings.Contains(got.Error(), "secret") {
				t.Errorf("the client sees %q", got.Error())
			}
		})
	}
}

// A message longer than maxMessage characters is cut to maxMessage with
// its mark, never one more; a message that fits is left whole.
func TestMessagesAreCappedAtMaxMessageCharacters(t *testing.T) {
	for _, n := range []int{maxMessage - 1, maxMessage, maxMessage + 1, 4 * maxMessage} {
		msg := strings.Repeat("é", n)
		got := capped(msg)
		want := min(n, maxMessage)
		if utf8.RuneCountInString(got) != want || n <= maxMessage && got != msg || n > maxMessage && !strings.HasSuffix(got, "…") {
			t.Errorf("a message of %d characters capped to %d characters, ending %q; want %d", n, utf8.RuneCountInString(got), got[len(got)-6:], want)
		}
	}
}

// The failures of the server are logged with REST's message and level for
// the same failure; the client's own mistakes, and fields left because the
// client went away, are not logged.
func TestServerFailuresAreLoggedWithRESTsMessageAndLevel(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"unavailable", &service.Error{Code: service.CodeUnavailable, Message: "the database is unavailable"},
			`level=WARN msg="service unavailable" path="" error="unavailable: the database is unavailable" cause="unavailable: the database is unavailable"` + "\n"},
		{"authorization unavailable", &service.Error{Code: service.CodeAuthorizationUnavailable, Message: "authorization is unavailable"},
			`level=WARN msg="service unavailable" path="" error="authorization_unavailable: authorization is unavailable" cause="authorization_unavailable: authorization is unavailable"` + "\n"},
		{"internal", &service.Error{Code: service.CodeInternal, Message: "internal error"},
			`level=ERROR msg="internal error" path="" error="internal: internal error" cause="internal: internal error"` + "\n"},
		{"not a service error", errors.New("disk on fire"),
			`level=ERROR msg="internal error" path="" error="disk on fire" cause="disk on fire"` + "\n"},
		{"the client's mistake", service.Invalid("no"), ""},
		{"the client went away", errGone, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log bytes.Buffer
			noTime := func(groups []string, a slog.Attr) slog.Attr {
				if len(groups) == 0 && a.Key == slog.TimeKey {
					return slog.Attr{}
				}
				return a
			}
			presentError(slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{ReplaceAttr: noTime})))(context.Background(), tc.err)
			if log.String() != tc.want {
				t.Errorf("logged\n%s\nwant\n%s", log.String(), tc.want)
			}
		})
	}
}
