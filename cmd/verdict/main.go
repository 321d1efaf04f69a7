// Command verdict is Verdict's one binary: it serves the API (serve),
// evaluates rules from the command line (eval), migrates the database
// (migrate) and administers organizations, users and keys (admin).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/verdict/verdict/service"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// exitStatus carries a process exit status; its message, if any, is printed
// as one line on standard error.
type exitStatus struct {
	code int
	msg  string
}

func (e *exitStatus) Error() string { return e.msg }

// exitFailure is the status of a command other than eval whose operation
// failed: a conflict, something not found, an invalid value, a database that
// cannot be reached. Bad usage exits with exitUsage.
const exitFailure = 1

func usageError(format string, args ...any) error {
	return &exitStatus{code: exitUsage, msg: fmt.Sprintf(format, args...)}
}

// run executes the command line and returns the exit status, so tests can
// drive the binary's whole behaviour in-process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdin, stdout, stderr)
}

// runContext is run under a context: cancelling it stops `verdict serve`
// as SIGINT or SIGTERM would.
func runContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := &cobra.Command{
		Use:           "verdict",
		Short:         "Verdict evaluates plain-English business rules against JSON",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetArgs(args)
	root.Version = version()
	root.SetVersionTemplate("verdict {{.Version}}\n")
	root.AddCommand(newEvalCommand(), newCheckCommand(), newTestCommand(), newMigrateCommand(), newAdminCommand(), newServeCommand())

	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	var ee *exitStatus
	if !errors.As(err, &ee) {
		// Cobra's own errors: unknown commands and flags.
		ee = &exitStatus{code: exitUsage, msg: err.Error()}
	}
	if ee.msg != "" {
		fmt.Fprintln(stderr, "verdict:", ee.msg)
	}
	return ee.code
}

// failure is the exit status of an operation that failed. A service error
// shows its message, and the cause of an unavailable database or an internal
// failure, which an operator at the console may see.
func failure(err error) error {
	msg := err.Error()
	var se *service.Error
	if errors.As(err, &se) {
		msg = se.Message
		if cause := errors.Unwrap(se); cause != nil {
			msg += ": " + cause.Error()
		}
	}
	return &exitStatus{code: exitFailure, msg: oneLine(msg)}
}

func failuref(format string, args ...any) error {
	return &exitStatus{code: exitFailure, msg: oneLine(fmt.Sprintf(format, args...))}
}

// oneLine keeps an error message to the one line on standard error that
// scripts expect.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// untilStopped is ctx until SIGINT or SIGTERM arrives, the signals that
// stop every command that waits on something (serve, migrate, admin).
func untilStopped(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}
