// Command opaserver runs OPA's own server (the runtime behind `opa run
// --server`) on the policy files given, built from the OPA module Verdict
// uses for authorization, so that scripts/compare-stack can put an OPA
// server beside Verdict without downloading a binary.
//
//	go run ./cmd/opaserver -addr 127.0.0.1:8181 engine/testdata/bench_policy.rego
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/open-policy-agent/opa/v1/runtime"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8181", "the address to listen on")
	logLevel := flag.String("log-level", "error", "OPA's log level: debug, info, warn or error (info logs every request)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "opaserver: give the policy files to load")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	params := runtime.NewParams()
	params.Addrs = &[]string{*addr}
	params.Paths = flag.Args()
	params.Logging = runtime.LoggingConfig{Level: *logLevel, Format: "text"}
	rt, err := runtime.NewRuntime(ctx, params)
	if err != nil {
		fmt.Fprintln(os.Stderr, "opaserver:", err)
		os.Exit(1)
	}
	if err := rt.Serve(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "opaserver:", err)
		os.Exit(1)
	}
}
