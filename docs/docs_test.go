package docs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/verdict/verdict/engine"
)

// today is the date the examples are evaluated on, so that `is within`,
// `is older than` and `is younger than` give the same answer every day.
// README.md states it to readers.
var today = time.Date(2025, time.June, 15, 12, 0, 0, 0, time.UTC)

// An example is one ```rule block and the cases that follow it.
type example struct {
	rule  string
	line  int // of the ```rule fence
	cases []exampleCase
}

// A case is data (`{}` when the document gives none) and what the run must
// answer: a result with no error, an error of a kind, or members of the
// run result.
type exampleCase struct {
	line      int
	data      string
	result    *bool
	errorKind string
	fields    map[string]json.RawMessage
}

var (
	resultLine = regexp.MustCompile(`^Result: (true|false)\s*$`)
	errorLine  = regexp.MustCompile(`^Error: (Parse error|Missing selector|Missing property|Unresolved reference|Type error|Evaluation error)\s*$`)
)

// parseExamples reads the examples of one Markdown document. It reports a
// problem for anything that looks like part of an example but does not fit
// the format, so a slip in a document cannot silently skip an example.
func parseExamples(doc string) ([]example, []string) {
	var (
		examples []example
		problems []string
		data     string // pending data block
		dataLine int
	)
	current := func() *example {
		if len(examples) == 0 {
			return nil
		}
		return &examples[len(examples)-1]
	}
	closeExample := func() {
		if ex := current(); ex != nil && len(ex.cases) == 0 {
			problems = append(problems, fmt.Sprintf("line %d: the rule has no stated result", ex.line))
		}
		if data != "" {
			problems = append(problems, fmt.Sprintf("line %d: data block without a result after it", dataLine))
			data = ""
		}
	}
	addCase := func(c exampleCase) {
		ex := current()
		if ex == nil {
			problems = append(problems, fmt.Sprintf("line %d: a result before any ```rule block", c.line))
			return
		}
		c.data = data
		if c.data == "" {
			c.data = "{}"
		}
		data = ""
		ex.cases = append(ex.cases, c)
	}

	onLine := func(n int, line string) {
		if m := resultLine.FindStringSubmatch(line); m != nil {
			b := m[1] == "true"
			addCase(exampleCase{line: n, result: &b})
			return
		}
		if m := errorLine.FindStringSubmatch(line); m != nil {
			addCase(exampleCase{line: n, errorKind: m[1]})
			return
		}
		if strings.HasPrefix(line, "Result:") || strings.HasPrefix(line, "Error:") {
			problems = append(problems, fmt.Sprintf("line %d: %q is neither \"Result: true|false\" nor \"Error: <kind>\"", n, line))
		}
	}
	onBlock := func(start int, info, body string) {
		switch info {
		case "rule":
			closeExample()
			examples = append(examples, example{rule: body, line: start})
		case "json data":
			if current() == nil {
				problems = append(problems, fmt.Sprintf("line %d: data before any ```rule block", start))
			} else if data != "" {
				problems = append(problems, fmt.Sprintf("line %d: data block without a result after it", dataLine))
			}
			data, dataLine = body, start
		case "json result":
			var fields map[string]json.RawMessage
			if err := json.Unmarshal([]byte(body), &fields); err != nil {
				problems = append(problems, fmt.Sprintf("line %d: the result block is not a JSON object: %v", start, err))
				return
			}
			addCase(exampleCase{line: start, fields: fields})
		}
	}
	if p := fences(doc, onBlock, onLine); p != "" {
		problems = append(problems, p)
	}
	closeExample()
	return examples, problems
}

// checkDocument runs every example of doc and returns what disagrees with
// the document.
func checkDocument(doc string) (int, []string) {
	examples, problems := parseExamples(doc)
	eng := engine.Engine{Now: func() time.Time { return today }}
	cases := 0
	for _, ex := range examples {
		for _, c := range ex.cases {
			cases++
			if p := checkCase(&eng, ex, c); p != "" {
				problems = append(problems, fmt.Sprintf("line %d (rule at line %d): %s", c.line, ex.line, p))
			}
		}
	}
	return cases, problems
}

func checkCase(eng *engine.Engine, ex example, c exampleCase) string {
	data, err := engine.DecodeData([]byte(c.data), engine.Limits{})
	if err != nil {
		return "the data: " + err.Error()
	}
	res := eng.Run(ex.rule, data)
	got, err := json.Marshal(res)
	if err != nil {
		return err.Error()
	}
	if c.errorKind != "" {
		if res.Error == nil || !strings.HasPrefix(res.Error.Message, c.errorKind+":") {
			return fmt.Sprintf("stated error %q, the run gives:\n%s", c.errorKind, got)
		}
		return ""
	}
	if c.result != nil {
		if res.Error != nil {
			return fmt.Sprintf("stated result %v, but the run failed: %s", *c.result, res.Error.Message)
		}
		if res.Result != *c.result {
			return fmt.Sprintf("stated result %v, the run gives %v:\n%s", *c.result, res.Result, got)
		}
		return ""
	}
	var actual map[string]any
	if err := json.Unmarshal(got, &actual); err != nil {
		return err.Error()
	}
	for name, raw := range c.fields {
		var want any
		if err := json.Unmarshal(raw, &want); err != nil {
			return err.Error()
		}
		if !Matches(want, actual[name]) {
			shown, _ := json.Marshal(actual[name])
			return fmt.Sprintf("%q: the document states %s, the run gives %s", name, compact(raw), shown)
		}
	}
	return ""
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// TestExamples runs the rule examples of every document in this directory,
// and checks the form of its shell examples, which the command's tests run.
func TestExamples(t *testing.T) {
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	total := map[string]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n, problems := checkDocument(string(b))
		_, stepProblems := Steps(string(b))
		problems = append(problems, stepProblems...)
		total[f] = n
		for _, p := range problems {
			t.Errorf("%s: %s", f, p)
		}
	}
	// The language guide is made of examples; finding none means the
	// format changed under the parser.
	if total["rules.md"] < 50 {
		t.Errorf("rules.md has %d checked examples; expected at least 50", total["rules.md"])
	}
}

// TestCheckerCatchesMistakes feeds the checker documents with wrong
// statements: each must be reported.
func TestCheckerCatchesMistakes(t *testing.T) {
	const rule = "```rule\nA **Person** is an adult if the __age__ of the **Person** is at least 18.\n```\n"
	const adult = "```json data\n{\"Person\": {\"age\": 30}}\n```\n"
	cases := map[string]struct {
		doc  string
		want string
		only bool // no other problem may be reported
	}{
		"wrong result": {
			doc:  rule + adult + "Result: false\n",
			want: "stated result false, the run gives true",
		},
		"an error stated as a plain result": {
			doc:  rule + "```json data\n{\"Person\": {}}\n```\nResult: false\n",
			want: "the run failed: Missing property",
		},
		"wrong member": {
			doc:  rule + "```json data\n{\"Person\": {}}\n```\n```json result\n{\"error\": \"Missing selector: selector 'Person' not found in data\"}\n```\n",
			want: `"error": the document states`,
		},
		"wrong nested member": {
			doc:  rule + adult + "```json result\n{\"trace\": {\"execution\": [{\"result\": false}]}}\n```\n",
			want: `"trace": the document states`,
		},
		"wrong error kind": {
			doc:  rule + "```json data\n{\"Person\": {}}\n```\nError: Missing selector\n",
			want: `stated error "Missing selector"`,
		},
		"error stated for a run without one": {
			doc:  rule + adult + "Error: Parse error\n",
			want: `stated error "Parse error"`,
		},
		"a statement out of format": {
			doc:  rule + adult + "Result: yes\n",
			want: `"Result: yes" is neither`,
		},
		"rule without result": {
			doc:  rule + "Some prose.\n" + rule + adult + "Result: true\n",
			want: "line 1: the rule has no stated result",
		},
		"data without result": {
			doc:  rule + adult + "Result: true\n" + adult,
			want: "data block without a result",
		},
		"result block that is not an object": {
			doc:  rule + "```json result\n[true]\n```\n",
			want: "not a JSON object",
		},
		"an example shown inside a longer fence is not run": {
			doc:  "````markdown\n" + rule + adult + "Result: false\n````\n" + rule + "Some prose.\n",
			want: "line 10: the rule has no stated result",
			only: true,
		},
		"unclosed block": {
			doc:  rule + "```json data\n{}\n",
			want: "never closed",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, problems := checkDocument(tc.doc)
			if !strings.Contains(strings.Join(problems, "\n"), tc.want) || tc.only && len(problems) != 1 {
				t.Errorf("problems %q do not mention %q (only: %v)", problems, tc.want, tc.only)
			}
		})
	}
	n, problems := checkDocument(rule + adult + "Result: true\n" + "```json data\n{\"Person\": {\"age\": 3}}\n```\n```json result\n{\"result\": false, \"error\": null, \"labels\": null}\n```\n" + "```json data\n{\"Person\": {}}\n```\nError: Missing property\n")
	if n != 3 || len(problems) != 0 {
		t.Errorf("a correct document: %d cases, problems %q; want 3 cases and none", n, problems)
	}
}

// TestAPIDocumentsEveryRoute checks that docs/endpoints.md names every REST route the
// server mounts and every root field of the GraphQL schema, so a new route
// cannot go undocumented.
func TestAPIDocumentsEveryRoute(t *testing.T) {
	doc, err := os.ReadFile("endpoints.md")
	if err != nil {
		t.Fatal(err)
	}
	routes := sourceMatches(t, "rest", regexp.MustCompile(`\.handle\("([A-Z]+ /[^"]*)"`))
	for _, r := range routes {
		if !bytes.Contains(doc, []byte("`"+r+"`")) {
			t.Errorf("docs/endpoints.md does not document `%s`", r)
		}
	}
	if len(routes) < 40 {
		t.Errorf("found %d routes in rest/; the pattern no longer matches how routes are mounted", len(routes))
	}

	schemas, err := filepath.Glob(filepath.Join("..", "graph", "*.graphqls"))
	if err != nil {
		t.Fatal(err)
	}
	fields := 0
	for _, f := range schemas {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range rootFields(string(b)) {
			fields++
			if !bytes.Contains(doc, []byte("`"+name+"`")) {
				t.Errorf("docs/endpoints.md does not document the GraphQL field `%s` (%s)", name, filepath.Base(f))
			}
		}
	}
	if fields < 30 {
		t.Errorf("found %d root fields in graph/; the schema reader no longer matches the schema", fields)
	}
}

var (
	descriptions = regexp.MustCompile(`(?s)"""(.*?)"""|"[^"\n]*"|#[^\n]*`)
	rootType     = regexp.MustCompile(`(?s)(?:extend\s+)?type\s+(?:Query|Mutation)\s*\{(.*?)\}`)
	fieldName    = regexp.MustCompile(`(?m)^\s*([A-Za-z_][A-Za-z0-9_]*)\s*[(:]`)
)

// rootFields returns the names of the Query and Mutation fields a schema
// file declares. Arguments are on lines of their own or inside the
// parentheses, so only a name at the start of a line followed by ( or :
// at the top level of the type's braces counts.
func rootFields(schema string) []string {
	schema = descriptions.ReplaceAllString(schema, "")
	var names []string
	for _, m := range rootType.FindAllStringSubmatch(schema, -1) {
		depth := 0
		for _, line := range strings.Split(m[1], "\n") {
			if depth == 0 {
				if f := fieldName.FindStringSubmatch(line); f != nil {
					names = append(names, f[1])
				}
			}
			depth += strings.Count(line, "(") - strings.Count(line, ")")
		}
	}
	return names
}

func TestStepsAreReadAsWritten(t *testing.T) {
	doc := "```sh\nnot run\n```\n```sh run\necho '{\"a\": 1}'\n```\nprose\n```json answer\n{\"a\": 1}\n```\n```sh run\nX=1\n```\n"
	steps, problems := Steps(doc)
	if len(problems) != 0 || len(steps) != 2 || steps[0].Line != 4 || string(steps[0].Answer) != "{\"a\": 1}\n" || steps[1].Answer != nil || steps[1].Script != "X=1\n" {
		t.Errorf("steps %+v, problems %q", steps, problems)
	}
	for doc, want := range map[string]string{
		"```json answer\n{}\n```\n": "an answer without a ```sh run block",
		"```sh run\ntrue\n```\n```json answer\n{}\n```\n```json answer\n{}\n```\n": "an answer without a ```sh run block",
		"```sh run\ntrue\n```\n```json answer\n{oops}\n```\n":                      "not JSON",
	} {
		if _, problems := Steps(doc); !strings.Contains(strings.Join(problems, "\n"), want) {
			t.Errorf("%q: problems %q do not mention %q", doc, problems, want)
		}
	}
}

// TestEveryOperatorHasAnExample checks that the language guide has a rule
// example for each operator phrase the engine knows, so a new phrase cannot
// go undocumented.
func TestEveryOperatorHasAnExample(t *testing.T) {
	phrases := sourceMatches(t, "engine", regexp.MustCompile(`\{"([a-z ]+)", Op[A-Za-z]+\}`))
	if len(phrases) < 20 {
		t.Fatalf("found %d operator phrases in engine/; the pattern no longer matches how they are listed", len(phrases))
	}
	guide, err := os.ReadFile("rules.md")
	if err != nil {
		t.Fatal(err)
	}
	examples, _ := parseExamples(string(guide))
	for _, p := range phrases {
		found := false
		for _, ex := range examples {
			if len(ex.cases) > 0 && usesPhrase(ex.rule, p, phrases) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("rules.md has no example of %q", p)
		}
	}
}

// usesPhrase reports whether text uses the operator phrase p itself, not
// only a longer phrase that starts with it (`is less than` in
// `is less than or equal to`).
func usesPhrase(text, p string, phrases []string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], " "+p)
		if j < 0 {
			return false
		}
		at := text[i+j+1:]
		i += j + 1
		if next := at[len(p):]; next != "" && (next[0] >= 'a' && next[0] <= 'z' || next[0] == '_') {
			continue // a longer word
		}
		longer := false
		for _, q := range phrases {
			if len(q) > len(p) && strings.HasPrefix(q, p) && strings.HasPrefix(at, q) {
				longer = true
			}
		}
		if !longer {
			return true
		}
	}
}

// sourceMatches returns the first group of every match of re in the
// non-test Go files of the repository's directory dir.
func sourceMatches(t *testing.T, dir string, re *regexp.Regexp) []string {
	t.Helper()
	sources, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range sources {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// TestLinksReachTheirHeadings checks the links between the documents: a
// link to a heading of a document that exists must name a heading it has.
// (A document another part of the project is still writing may be linked
// before it exists.)
func TestLinksReachTheirHeadings(t *testing.T) {
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]map[string]bool{}
	texts := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[f] = string(b)
		anchors[f] = map[string]bool{}
		fences(string(b), func(int, string, string) {}, func(_ int, line string) {
			if h := strings.TrimLeft(line, "#"); h != line && strings.HasPrefix(h, " ") {
				anchors[f][slug(h)] = true
			}
		})
	}
	link := regexp.MustCompile(`\]\(([a-z-]*\.md)?#([^)]+)\)`)
	checked := 0
	for f, text := range texts {
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if target == "" {
				target = f
			}
			if _, exists := anchors[target]; !exists {
				continue
			}
			checked++
			if !anchors[target][m[2]] {
				t.Errorf("%s links to %s#%s, which has no such heading", f, target, m[2])
			}
		}
	}
	if checked < 10 {
		t.Errorf("checked %d links; the link pattern no longer matches the documents", checked)
	}
}

// slug is the anchor a heading gets on GitHub: lower case, punctuation
// dropped, spaces turned into hyphens.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}
