// Command barehttp is the yardstick of scripts/compare-stack: a plain
// net/http server that does what any JSON API must do for a run, and
// nothing more. It reads and decodes each POST body as JSON and answers a
// fixed response, the bytes a Verdict run answered for the same body, so
// that the comparison measures what Verdict adds to the HTTP stack.
//
//	go run ./cmd/barehttp -addr 127.0.0.1:8081 -response run.json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8081", "the address to listen on")
	responseFile := flag.String("response", "", "the file whose bytes every run answers")
	flag.Parse()
	if err := serve(*addr, *responseFile); err != nil {
		fmt.Fprintln(os.Stderr, "barehttp:", err)
		os.Exit(1)
	}
}

func serve(addr, responseFile string) error {
	if responseFile == "" {
		return fmt.Errorf("-response is required")
	}
	response, err := os.ReadFile(responseFile)
	if err != nil {
		return err
	}
	return http.ListenAndServe(addr, handler(response))
}

// handler answers every POST whose body is a JSON object with response,
// and anything else with 400.
func handler(response []byte) http.Handler {
	length := strconv.Itoa(len(response))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		var decoded map[string]any
		if err != nil || r.Method != http.MethodPost || json.Unmarshal(body, &decoded) != nil {
			http.Error(w, "a POST with a JSON object body is required", http.StatusBadRequest)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Content-Length", length)
		w.Write(response)
	})
}
