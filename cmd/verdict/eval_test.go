package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runVerdict(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if len(args) > 1 && args[0] == "admin" {
		args = withTestDatabaseTimeout(args)
	}
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

type evalOutput struct {
	Result bool            `json:"result"`
	Error  *string         `json:"error"`
	Labels map[string]bool `json:"labels"`
	Rule   []string        `json:"rule"`
	Data   json.RawMessage `json:"data"`
	Trace  json.RawMessage `json:"trace"`
	Extra  map[string]any  `json:"-"`
}

func decodeOutput(t *testing.T, stdout string) evalOutput {
	t.Helper()
	var out evalOutput
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"result", "trace", "rule", "data", "error", "labels"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("output lacks %q", k)
		}
	}
	if _, ok := keys["execution"]; ok {
		t.Error("output has execution timings; eval prints none")
	}
	return out
}

func TestEvalExamples(t *testing.T) {
	tests := []struct {
		name   string
		code   int
		labels map[string]bool
		rules  int
	}{
		{"driving-licence", exitTrue, map[string]bool{"theory": true, "practical": true}, 3},
		{"senior-discount", exitFalse, nil, 1},
		{"loan", exitTrue, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name+" exits with its result", func(t *testing.T) {
			rule := filepath.Join("..", "..", "examples", tt.name+".rule")
			data := filepath.Join("..", "..", "examples", tt.name+".json")
			code, stdout, stderr := runVerdict(t, "", "eval", "--rule", rule, "--data", data)
			if code != tt.code || stderr != "" {
				t.Fatalf("exit %d, stderr %q; want exit %d and no stderr", code, stderr, tt.code)
			}
			out := decodeOutput(t, stdout)
			if out.Result != (tt.code == exitTrue) || out.Error != nil {
				t.Errorf("result %v, error %v", out.Result, out.Error)
			}
			if len(out.Rule) != tt.rules {
				t.Errorf("rule has %d entries, want one per rule (%d)", len(out.Rule), tt.rules)
			}
			if len(tt.labels) > 0 || out.Labels != nil {
				if len(out.Labels) != len(tt.labels) {
					t.Errorf("labels = %v, want %v", out.Labels, tt.labels)
				}
				for k, v := range tt.labels {
					if out.Labels[k] != v {
						t.Errorf("label %q = %v, want %v", k, out.Labels[k], v)
					}
				}
			}
			raw, err := os.ReadFile(data)
			if err != nil {
				t.Fatal(err)
			}
			var want, got any
			json.Unmarshal(raw, &want)
			json.Unmarshal(out.Data, &got)
			if !jsonSame(want, got) {
				t.Errorf("data = %s, want the input", out.Data)
			}
		})
	}
}

func jsonSame(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestEvalReadsStandardInput(t *testing.T) {
	code, stdout, _ := runVerdict(t, `{"user": {"age": 30}}`,
		"eval", "--rule-text", "A **user** is an adult if __age__ is at least 18.", "--data", "-")
	if code != exitTrue {
		t.Fatalf("exit %d, want %d", code, exitTrue)
	}
	if out := decodeOutput(t, stdout); string(out.Data) != `{"user":{"age":30}}` {
		t.Errorf("data = %s", out.Data)
	}

	code, _, _ = runVerdict(t, "A **user** is an adult if __age__ is at least 18.\n",
		"eval", "--rule", "-", "--data", filepath.Join("..", "..", "examples", "loan.json"))
	if code != 2 {
		t.Errorf("a rule read from stdin over data without **user**: exit %d, want 2 (missing selector)", code)
	}
}

func TestEvalReportsRuleErrorsWithStatusTwo(t *testing.T) {
	tests := []struct {
		name, rule, data, prefix string
	}{
		{"parse error", "A **x** is y if bad.", `{}`, "Parse error:  --> 1:17"},
		{"missing selector", "A **x** is y if __a__ is equal to 1.", `{"z": 1}`, "Missing selector: selector 'x' not found in data"},
		{"unresolved reference", "A **x** is y if the **x** passes the eye test.", `{"x": {}}`, "Unresolved reference:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runVerdict(t, tt.data, "eval", "--rule-text", tt.rule, "--data", "-")
			if code != 2 || stderr != "" {
				t.Fatalf("exit %d stderr %q, want exit 2 and no stderr", code, stderr)
			}
			out := decodeOutput(t, stdout)
			if out.Result || out.Error == nil || !strings.HasPrefix(*out.Error, tt.prefix) {
				t.Errorf("result %v error %v, want false and %q", out.Result, out.Error, tt.prefix)
			}
		})
	}
}

func TestEvalRejectsBadUsageWithStatusThree(t *testing.T) {
	dir := t.TempDir()
	rule := filepath.Join(dir, "p.rule")
	os.WriteFile(rule, []byte("A **x** is y if __a__ is equal to 1.\n"), 0o600)
	array := filepath.Join(dir, "array.json")
	os.WriteFile(array, []byte(`[1, 2]`), 0o600)
	broken := filepath.Join(dir, "broken.json")
	os.WriteFile(broken, []byte(`{"x": `), 0o600)
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no rule", []string{"eval", "--data", array}, "give the rule"},
		{"rule twice", []string{"eval", "--rule", rule, "--rule-text", "x", "--data", array}, "not both"},
		{"no data", []string{"eval", "--rule", rule}, "give the data"},
		{"both on stdin", []string{"eval", "--rule", "-", "--data", "-"}, "standard input"},
		{"unreadable rule file", []string{"eval", "--rule", filepath.Join(dir, "absent"), "--data", array}, "no such file"},
		{"data not an object", []string{"eval", "--rule", rule, "--data", array}, "data must be a JSON object"},
		{"data not JSON", []string{"eval", "--rule", rule, "--data", broken}, "not valid JSON"},
		{"unknown flag", []string{"eval", "--nope"}, "unknown flag"},
		{"unknown command", []string{"evaluate"}, "unknown command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runVerdict(t, "", tt.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr %q, want one line containing %q", stderr, tt.stderr)
			}
		})
	}
}

func TestEvalPrettyPrintsTheSameObject(t *testing.T) {
	args := []string{"eval", "--rule", filepath.Join("..", "..", "examples", "driving-licence.rule"),
		"--data", filepath.Join("..", "..", "examples", "driving-licence.json")}
	_, compact, _ := runVerdict(t, "", args...)
	_, pretty, _ := runVerdict(t, "", append(args, "--pretty")...)
	if !strings.Contains(pretty, "\n  \"trace\": {") {
		t.Errorf("--pretty output is not indented:\n%.200s", pretty)
	}
	var a, b any
	json.Unmarshal([]byte(compact), &a)
	json.Unmarshal([]byte(pretty), &b)
	if !jsonSame(a, b) {
		t.Error("--pretty changes the object")
	}
}

// TestEvalAnswersWhatPostRunAnswers: eval prints the object POST /run
// answers for the same text and data, timings aside, and so echoes the
// data as it was sent: numbers as written, however long, strings with
// their escapes, and characters HTML would escape as they are.
func TestEvalAnswersWhatPostRunAnswers(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	const key = "eval-parity-bootstrap-key-0123456789"
	s := startServer(t, serveArgs("sqlite://"+filepath.Join(t.TempDir(), "v.db"), "--bootstrap-key", key)...)
	rule := "A **P** is ok if the __a__ of the **P** is at least 1."
	for _, data := range []string{
		`{"P":{"a":1.50,"big":9007199254740993,"e":1E2}}`,
		`{"P": {"a": 2, "s": "\u00e9\/<b>&` + "\u2028" + `", "n": [1.0e-7, -0, 123456789012345678901234567890]}}`,
		`{"P": {"b": 1}}`,
	} {
		dataFile := filepath.Join(t.TempDir(), "data.json")
		if err := os.WriteFile(dataFile, []byte(data+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, stdout, stderr := runVerdict(t, "", "eval", "--rule-text", rule, "--data", dataFile)
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if got := decodeOutput(t, stdout).Data; string(got) != compact.String() {
			t.Errorf("eval echoes data %s as %s", data, got)
		}
		status, answer := s.do(t, "POST", "/run", key, `{"rule": "`+rule+`", "data": `+data+`}`)
		if status != 200 {
			t.Fatalf("POST /run of %s: %d %s", data, status, answer)
		}
		// The answer ends with the timings, which eval leaves out.
		at := bytes.LastIndex(answer, []byte(`,"execution":`))
		if at < 0 {
			t.Fatalf("POST /run answers no timings: %s", answer)
		}
		if want := string(answer[:at]) + "}\n"; stdout != want {
			t.Errorf("data %s: eval prints\n%s\nPOST /run answers, without its timings,\n%s\n(stderr %s)", data, stdout, want, stderr)
		}
	}
}
