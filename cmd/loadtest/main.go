// Command loadtest drives POST /run/policy/{baseId} on a running Verdict
// server with the five-rule policy of the engine's bench cases, and reports
// throughput and latency percentiles.
//
//	go run ./cmd/verdict serve --database-url postgres://... --bootstrap-key "$KEY" --rate-limit -1
//	go run ./cmd/loadtest -url http://127.0.0.1:8080 -key "$KEY" -duration 30s
//
// It creates and publishes the policy first (so the run hits the published
// version through the caches), then attacks at -rate requests per second,
// or as fast as -workers connections allow when -rate is 0.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

type benchCase struct {
	Name string          `json:"name"`
	Rule string          `json:"rule"`
	Data json.RawMessage `json:"data"`
}

func main() {
	url := flag.String("url", "http://127.0.0.1:8080", "the server's base URL")
	key := flag.String("key", os.Getenv("VERDICT_KEY"), "an API key that may create, publish and run policies (default $VERDICT_KEY)")
	cases := flag.String("cases", "engine/testdata/bench_cases.jsonl", "the bench cases file")
	name := flag.String("case", "five_rule_policy_refs_labels", "the case to run")
	rate := flag.Int("rate", 0, "requests per second; 0 is as fast as the workers go")
	workers := flag.Uint64("workers", 64, "concurrent connections when -rate is 0")
	duration := flag.Duration("duration", 30*time.Second, "how long to attack")
	flag.Parse()
	if err := run(*url, *key, *cases, *name, *rate, *workers, *duration); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

func run(url, key, casesPath, name string, rate int, workers uint64, duration time.Duration) error {
	if key == "" {
		return errors.New("an API key is required (-key or VERDICT_KEY)")
	}
	c, err := findCase(casesPath, name)
	if err != nil {
		return err
	}
	baseID, err := publishPolicy(url, key, c)
	if err != nil {
		return err
	}
	body, _ := json.Marshal(map[string]json.RawMessage{"data": c.Data})
	header := http.Header{"X-Api-Key": {key}, "Content-Type": {"application/json"}}
	target := vegeta.Target{Method: "POST", URL: url + "/run/policy/" + baseID, Body: body, Header: header}

	pace := vegeta.Rate{Freq: rate, Per: time.Second}
	opts := []func(*vegeta.Attacker){vegeta.KeepAlive(true)}
	if rate == 0 {
		opts = append(opts, vegeta.Workers(workers), vegeta.MaxWorkers(workers))
	}
	attacker := vegeta.NewAttacker(opts...)
	var m vegeta.Metrics
	for res := range attacker.Attack(vegeta.NewStaticTargeter(target), pace, duration, name) {
		m.Add(res)
	}
	m.Close()
	fmt.Printf("case %s, %s, rate %s\n", name, duration, rateText(rate, workers))
	fmt.Printf("requests %d, throughput %.0f/s, success %.2f%%\n", m.Requests, m.Throughput, m.Success*100)
	// The exact count, for comparing with the executed events stored.
	fmt.Printf("acknowledged %d\n", m.StatusCodes["200"])
	fmt.Printf("latency p50 %s, p90 %s, p99 %s, max %s\n", m.Latencies.P50, m.Latencies.P90, m.Latencies.P99, m.Latencies.Max)
	if len(m.Errors) > 0 {
		fmt.Printf("errors: %v\n", m.Errors)
	}
	return nil
}

func rateText(rate int, workers uint64) string {
	if rate == 0 {
		return fmt.Sprintf("unlimited with %d workers", workers)
	}
	return fmt.Sprintf("%d/s", rate)
}

func findCase(path, name string) (*benchCase, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var c benchCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if c.Name == name {
			return &c, nil
		}
	}
	return nil, fmt.Errorf("%s has no case %q", path, name)
}

// publishPolicy stores the case's rule as a policy and publishes it,
// returning the base id.
func publishPolicy(url, key string, c *benchCase) (string, error) {
	var created struct {
		ID     string `json:"id"`
		BaseID string `json:"baseId"`
	}
	err := call("POST", url+"/policy", key, map[string]any{"name": "load test: " + c.Name, "rule": c.Rule}, http.StatusCreated, &created)
	if err != nil {
		return "", fmt.Errorf("creating the policy: %w", err)
	}
	err = call("PUT", url+"/policy/"+created.ID, key, map[string]any{"status": "published"}, http.StatusCreated, nil)
	if err != nil {
		return "", fmt.Errorf("publishing the policy: %w", err)
	}
	return created.BaseID, nil
}

func call(method, url, key string, body any, want int, out any) error {
	b, _ := json.Marshal(body)
	req, err := http.NewRequest(method, url, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("x-api-key", key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, raw)
	}
	if out != nil {
		return json.Unmarshal(raw, out)
	}
	return nil
}
