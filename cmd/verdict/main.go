// Command verdict is Verdict's one binary: it evaluates rules from the
// command line and, with later subcommands, serves and administers them.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
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

func usageError(format string, args ...any) error {
	return &exitStatus{code: exitUsage, msg: fmt.Sprintf(format, args...)}
}

// run executes the command line and returns the exit status, so tests can
// drive the binary's whole behaviour in-process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
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
	root.AddCommand(newEvalCommand())

	err := root.Execute()
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
