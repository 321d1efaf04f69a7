package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCheckPrintsDiagnosticsWithACaretAndFailsOnAnError(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"bad.rule":  "A **Person** gets senior discount\n  if the __age__ of the **Person** is more than 65.\n",
		"good.rule": "# Senior\nA **Person** gets senior discount if the __age__ of the **Person** is at least 65.\n",
	})
	bad, good := filepath.Join(dir, "bad.rule"), filepath.Join(dir, "good.rule")
	code, stdout, stderr := runVerdict(t, "", "check", bad, good)
	want := bad + ":2:36: error: `is more than` is not a comparison Verdict knows. Did you mean `is greater than`? [unknown-operator]\n" +
		"    if the __age__ of the **Person** is more than 65.\n" +
		"                                     ^^^^^^^^^^^^\n" +
		"  suggestion: is greater than\n"
	if code != exitProblems || stdout != want || stderr != "" {
		t.Errorf("check = %d\n%s\nstderr %q; want %d\n%s", code, stdout, stderr, exitProblems, want)
	}
	if code, stdout, _ := runVerdict(t, "", "check", good); code != 0 || stdout != "" {
		t.Errorf("check of a good file = %d %q, want 0 and nothing", code, stdout)
	}
}

func TestCheckFollowsTheNamesThroughASchema(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"credit.rule": "A **Applicant** gets credit if the __montly income__ of the **Applicant** is at least 3000.\n",
		"schema.json": `{"properties": {"Applicant": {"properties": {"monthlyIncome": {"type": "number"}}}}}`,
		"list.json":   `[]`,
		"broken.json": `{"properties"`,
		"comma.json":  `{"properties": {"a": {}, }}`,
	})
	rule := filepath.Join(dir, "credit.rule")
	code, stdout, stderr := runVerdict(t, "", "check", "--schema", filepath.Join(dir, "schema.json"), rule)
	want := rule + `:1:38: warning: The schema of the data lists no property "montly income" at $.Applicant: is the name misspelt, or is the schema missing it? [not-in-schema]` + "\n" +
		"  A **Applicant** gets credit if the __montly income__ of the **Applicant** is at least 3000.\n" +
		"                                       ^^^^^^^^^^^^^\n" +
		"  suggestion: monthlyIncome\n"
	if code != 0 || stdout != want || stderr != "" {
		t.Errorf("check = %d\n%s\nstderr %q; want 0\n%s", code, stdout, stderr, want)
	}
	if code, stdout, _ := runVerdict(t, "", "check", rule); code != 0 || stdout != "" {
		t.Errorf("check without a schema = %d %q, want 0 and nothing", code, stdout)
	}
	for schema, want := range map[string]string{
		"broken.json": "is not JSON: it ends too early",
		"comma.json":  "is not JSON: invalid character '}' looking for beginning of object key string (at byte 26)",
	} {
		path := filepath.Join(dir, schema)
		code, stdout, stderr := runVerdict(t, "", "check", "--schema", path, rule)
		if want := "verdict: " + path + " " + want + "\n"; code != exitUsage || stdout != "" || stderr != want {
			t.Errorf("--schema %s = %d %q %q, want %d and %q", schema, code, stdout, stderr, exitUsage, want)
		}
	}
	for _, schema := range []string{"list.json", "broken.json", "missing.json"} {
		code, stdout, stderr := runVerdict(t, "", "check", "--schema", filepath.Join(dir, schema), rule)
		if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, "verdict: ") {
			t.Errorf("--schema %s = %d %q %q, want %d and a message", schema, code, stdout, stderr, exitUsage)
		}
	}
}

func TestCheckAndTestRefuseBadUsage(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.rule": "A **x** is y if __z__ of **x** is 1.", "a.tests.json": `{"not": "a list"}`})
	for _, args := range [][]string{
		{"check"}, {"check", filepath.Join(dir, "missing.rule")}, {"check", "--bogus", filepath.Join(dir, "a.rule")},
		{"test"}, {"test", "--bogus", dir}, {"test", filepath.Join(dir, "missing.rule")}, {"test", filepath.Join(dir, "a.rule")},
	} {
		code, stdout, stderr := runVerdict(t, "", args...)
		if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, "verdict: ") {
			t.Errorf("%v = %d %q %q, want %d and a message", args, code, stdout, stderr, exitUsage)
		}
	}
}

func TestTestRunsRuleFilesAgainstTheirCases(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"senior.rule": "A **Person** gets senior discount if the __age__ of the **Person** is at least 65.\n",
		"senior.tests.json": `[{"name": "70 is senior", "data": {"Person": {"age": 70}}, "expect": true},
			{"name": "40 is senior", "data": {"Person": {"age": 40}}, "expect": true}]`,
		"adult.rule":       "A **Person** is an adult if the __age__ of the **Person** is at least 18.\n",
		"adult.tests.json": `[{"name": "30 is adult", "data": {"Person": {"age": 30}}, "expect": true}]`,
	})
	code, stdout, _ := runVerdict(t, "", "test", dir)
	want := "FAIL " + filepath.Join(dir, "senior.rule") + ": 40 is senior\n" +
		"  expected: true\n  actual:   false\n" +
		"  explanation: Person gets senior discount: no — the age of the Person is 40, which is not at least 65.\n" +
		"FAIL: 1 of 3 tests failed\n"
	if code != exitProblems || stdout != want {
		t.Errorf("test = %d\n%s\nwant %d\n%s", code, stdout, exitProblems, want)
	}
	code, stdout, _ = runVerdict(t, "", "test", filepath.Join(dir, "adult.rule"))
	if code != 0 || stdout != "PASS: 1/1\n" {
		t.Errorf("test of passing cases = %d %q, want 0 and PASS: 1/1", code, stdout)
	}
}

func TestTestTakesATestsFileForTheRuleBesideIt(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"adult.rule":        "A **Person** is an adult if the __age__ of the **Person** is at least 18.\n",
		"adult.tests.json":  `[{"name": "30 is adult", "data": {"Person": {"age": 30}}, "expect": true}]`,
		"orphan.tests.json": `[]`,
	})
	tests := filepath.Join(dir, "adult.tests.json")
	for _, args := range [][]string{{"test", "-v", tests}, {"test", "-v", tests, filepath.Join(dir, "adult.rule")}} {
		code, stdout, stderr := runVerdict(t, "", args...)
		want := "PASS " + filepath.Join(dir, "adult.rule") + ": 30 is adult\nPASS: 1/1\n"
		if code != 0 || stdout != want || stderr != "" {
			t.Errorf("%v = %d %q %q, want 0 and %q", args, code, stdout, stderr, want)
		}
	}
	orphan := filepath.Join(dir, "orphan.tests.json")
	code, stdout, stderr := runVerdict(t, "", "test", orphan)
	want := "verdict: " + orphan + ": there is no " + filepath.Join(dir, "orphan.rule") +
		" beside it to test; verdict test runs NAME.rule against the cases in NAME.tests.json\n"
	if code != exitUsage || stdout != "" || stderr != want {
		t.Errorf("test of tests without a rule = %d %q %q, want %d and %q", code, stdout, stderr, exitUsage, want)
	}
}

func TestTestSaysWhereARuleFileLacksItsTests(t *testing.T) {
	dir := writeFiles(t, map[string]string{"untested.rule": "A **Person** is an adult if the __age__ of the **Person** is at least 18.\n"})
	code, stdout, stderr := runVerdict(t, "", "test", dir)
	want := "verdict: " + filepath.Join(dir, "untested.rule") + " has no tests: there is no " + filepath.Join(dir, "untested.tests.json") +
		`; write its cases there as a JSON list, [{"name": "...", "data": {...}, "expect": true}]` + "\n"
	if code != exitUsage || stdout != "" || stderr != want {
		t.Errorf("test = %d %q %q, want %d and %q", code, stdout, stderr, exitUsage, want)
	}
}

// The README suggests `verdict test examples/`.
func TestTestPassesTheExamples(t *testing.T) {
	code, stdout, stderr := runVerdict(t, "", "test", filepath.Join("..", "..", "examples"))
	if code != 0 || stdout != "PASS: 11/11\n" || stderr != "" {
		t.Errorf("test examples = %d %q %q, want 0 and PASS: 11/11", code, stdout, stderr)
	}
}

func TestEvalExplainsAndEvaluatesAnEmptyText(t *testing.T) {
	code, stdout, _ := runVerdict(t, `{"Person": {"age": "70"}}`, "eval", "--explain", "--data", "-",
		"--rule-text", "A **Person** gets senior discount if the __age__ of the **Person** is at least 65.")
	want := "Person gets senior discount: no — the age of the Person is \"70\", which cannot be compared with 65, so the condition is false.\n" +
		"warning: The age of the Person is the text \"70\", not a number, so it was not compared with 65 and the condition is false. " +
		"Send numbers without quotes. [text-compared-with-number]\n"
	if code != exitFalse || stdout != want {
		t.Errorf("eval --explain = %d %q, want %d %q", code, stdout, exitFalse, want)
	}
	code, stdout, _ = runVerdict(t, `{}`, "eval", "--data", "-", "--rule-text", "")
	out := decodeOutput(t, stdout)
	if code != exitFailed || out.Error == nil || *out.Error != "Parse error: No global rule found" {
		t.Errorf("eval of an empty text = %d %+v, want %d and its parse error", code, out, exitFailed)
	}
}

func TestVersionNamesTheBuild(t *testing.T) {
	code, stdout, _ := runVerdict(t, "", "--version")
	if code != 0 || !strings.HasPrefix(stdout, "verdict ") || !strings.Contains(stdout, "commit ") {
		t.Errorf("--version = %d %q, want the version and commit", code, stdout)
	}
}

// Windows Notepad saves UTF-8 with a byte-order mark in front: eval, check
// and test read the text after it, in rule files and JSON files alike.
func TestRuleFilesMayStartWithAByteOrderMark(t *testing.T) {
	const bom = "\uFEFF"
	dir := writeFiles(t, map[string]string{
		"senior.rule":       bom + "A **Person** gets senior discount if the __age__ of the **Person** is at least 65.\n",
		"senior.tests.json": bom + `[{"name": "70 is senior", "data": {"Person": {"age": 70}}, "expect": true}]`,
		"person.json":       bom + `{"Person": {"age": 70}}`,
		"schema.json":       bom + `{"type": "object"}`,
		"bad.rule":          bom + "A **Person** gets senior discount if the __age__ of the **Person** is more than 65.\n",
	})
	rule, data := filepath.Join(dir, "senior.rule"), filepath.Join(dir, "person.json")

	code, stdout, stderr := runVerdict(t, "", "eval", "--explain", "--rule", rule, "--data", data)
	want := "Person gets senior discount: yes — the age of the Person is 70, which is at least 65.\n"
	if code != exitTrue || stdout != want || stderr != "" {
		t.Errorf("eval --rule = %d %q %q, want %d %q", code, stdout, stderr, exitTrue, want)
	}
	text, err := os.ReadFile(rule)
	if err != nil {
		t.Fatal(err)
	}
	if code, stdout, _ := runVerdict(t, string(text), "eval", "--explain", "--rule", "-", "--data", data); code != exitTrue || stdout != want {
		t.Errorf("eval --rule - = %d %q, want %d %q", code, stdout, exitTrue, want)
	}

	if code, stdout, stderr := runVerdict(t, "", "check", rule); code != 0 || stdout != "" || stderr != "" {
		t.Errorf("check = %d %q %q, want 0 and nothing", code, stdout, stderr)
	}
	if code, stdout, stderr := runVerdict(t, "", "check", "--schema", filepath.Join(dir, "schema.json"), rule); code != 0 || stdout != "" || stderr != "" {
		t.Errorf("check --schema = %d %q %q, want 0 and nothing", code, stdout, stderr)
	}
	bad := filepath.Join(dir, "bad.rule")
	code, stdout, _ = runVerdict(t, "", "check", bad)
	// Columns count from the rule's first letter, as in the file without the mark.
	want = bad + ":1:68: error: `is more than` is not a comparison Verdict knows. Did you mean `is greater than`? [unknown-operator]\n" +
		"  A **Person** gets senior discount if the __age__ of the **Person** is more than 65.\n" +
		"  " + strings.Repeat(" ", 67) + "^^^^^^^^^^^^\n" +
		"  suggestion: is greater than\n"
	if code != exitProblems || stdout != want {
		t.Errorf("check of an error = %d\n%s\nwant %d\n%s", code, stdout, exitProblems, want)
	}

	if code, stdout, stderr := runVerdict(t, "", "test", rule); code != 0 || stdout != "PASS: 1/1\n" || stderr != "" {
		t.Errorf("test = %d %q %q, want 0 and PASS: 1/1", code, stdout, stderr)
	}
}

func TestTestSaysWhichCaseOfATestsFileIsWrong(t *testing.T) {
	tests := []struct{ cases, want string }{
		{`[{"name": "30 is adult", "data": {"Person": {"age": 30}}, "expect": "false"}]`,
			`test 1 ("30 is adult"): expect must be true or false, without quotes, not "false"`},
		{`[{"name": "a", "data": {}, "expect": true}, {"data": {}, "expect": 1}]`,
			`test 2: expect must be true or false, without quotes, not 1`},
		{`[{"name": 7, "data": {}, "expect": true}]`, `test 1: name must be text in quotes, not 7`},
		{`[{"name": "40 is not", "data": {"Person": {"age": 40}}, "expect": null}]`,
			`test 1 ("40 is not"): expect must be true or false, without quotes, not null`},
		{`[{"name": "a", "data": {}, "expect": true}, {"name": "a", "data": {}, "expect": false}]`, `test 2 ("a"): two tests are named "a"`},
		{`[{"name": "a", "data": {}, "expect": false, "expect": true}]`,
			`test 1 has "expect" more than once; want a list of {"name", "data", "expect"}`},
		{`[{"name": "a", "data": {}, "expcet": false, "expect": true}]`,
			`test 1 has an unknown member "expcet"; want a list of {"name", "data", "expect"}`},
		{`[{"name": "a", "expect": true}]`, `test 1 ("a") needs a name, data and expect (true or false)`},
		{`[true]`, `test 1 is not an object; want a list of {"name", "data", "expect"}`},
		{`{"name": "a"}`, `want a list of {"name", "data", "expect"}, not a JSON object`},
		{`[]`, ` has no tests: the list is empty; write the rule's cases in it, [{"name": "...", "data": {...}, "expect": true}]`},
		{`[{"name": "a" "data": {}, "expect": true}]`,
			`want a list of {"name", "data", "expect"}: invalid character '"' after object key:value pair (at byte 15)`},
		{`[{"name": "a", "data": {}, "expect": true}`, `want a list of {"name", "data", "expect"}: it ends too early`},
		{`[{"name": "a", "data": {}, "expect": true}, {"name": "b", "data": [1], "expect": true}]`,
			`test 2 ("b"): data must be a JSON object`},
		{`null`, `want a list of {"name", "data", "expect"}, not null`},
		{" null\n", `want a list of {"name", "data", "expect"}, not null`},
		{`"cases"`, `want a list of {"name", "data", "expect"}, not a JSON string`},
	}
	for _, tt := range tests {
		dir := writeFiles(t, map[string]string{
			"adult.rule":       "A **Person** is an adult if the __age__ of the **Person** is at least 18.\n",
			"adult.tests.json": tt.cases,
		})
		code, stdout, stderr := runVerdict(t, "", "test", filepath.Join(dir, "adult.rule"))
		want := "verdict: " + filepath.Join(dir, "adult.tests.json") + ": " + tt.want + "\n"
		if strings.HasPrefix(tt.want, " ") {
			want = "verdict: " + filepath.Join(dir, "adult.tests.json") + tt.want + "\n"
		}
		if code != exitUsage || stdout != "" || stderr != want {
			t.Errorf("%s: test = %d %q %q, want %d and %q", tt.cases, code, stdout, stderr, exitUsage, want)
		}
	}
}

// Every tests file is checked before any case runs: a bad one in a
// directory prints no results of the files before it.
func TestTestChecksEveryTestsFileBeforeRunningAny(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.rule":       "A **Person** is an adult if the __age__ of the **Person** is at least 18.\n",
		"a.tests.json": `[{"name": "fails", "data": {"Person": {"age": 3}}, "expect": true}]`,
		"b.rule":       "A **Person** is an adult if the __age__ of the **Person** is at least 18.\n",
		"b.tests.json": `[{"name": "x", "data": {"Person": {"age": 30}}, "expect": "no"}]`,
	})
	code, stdout, stderr := runVerdict(t, "", "test", dir)
	want := "verdict: " + filepath.Join(dir, "b.tests.json") + `: test 1 ("x"): expect must be true or false, without quotes, not "no"` + "\n"
	if code != exitUsage || stdout != "" || stderr != want {
		t.Errorf("test = %d %q %q, want %d, nothing and %q", code, stdout, stderr, exitUsage, want)
	}
}

// A file saved as Latin-1 (or any encoding but UTF-8) is refused, naming
// the first byte that is not UTF-8, rather than read with that letter
// replaced, where it never equals the data.
func TestFilesThatAreNotUTF8AreRefused(t *testing.T) {
	const rule = "A **Person** gets x if the __city__ of the **Person** is equal to \"Bogot\xe1\".\n"
	const good = "A **Person** gets x if the __age__ of the **Person** is at least 65.\n"
	files := map[string]string{
		"latin1.rule":       rule,
		"good.rule":         good,
		"good.tests.json":   "[{\"name\": \"x\",\n  \"data\": {\"Person\": {\"age\": 70, \"n\": \"\xff\xfe\"}}, \"expect\": true}]",
		"latin1.tests.json": `[{"name": "x", "data": {"Person": {"city": "Bogotá"}}, "expect": true}]`,
		"city.json":         `{"Person": {"city": "Bogotá"}}`,
		"bad.json":          "{\"Person\":{\"age\":70,\"n\":\"\xff\xfe\"}}",
		"schema.json":       "{\"description\": \"\xe9\"}",
	}
	dir := writeFiles(t, files)
	in := func(name string) string { return filepath.Join(dir, name) }
	refusal := func(name string, line int, b byte) string {
		return fmt.Sprintf("verdict: %s is not UTF-8 text: the byte 0x%02X at offset %d (line %d) is not valid UTF-8; save the file as UTF-8\n",
			in(name), b, strings.IndexByte(files[name], b), line)
	}
	latin1 := refusal("latin1.rule", 1, 0xe1)
	badData := refusal("bad.json", 1, 0xff)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"check", in("latin1.rule")}, latin1},
		{[]string{"check", "--schema", in("schema.json"), in("good.rule")}, refusal("schema.json", 1, 0xe9)},
		{[]string{"eval", "--explain", "--rule", in("latin1.rule"), "--data", in("city.json")}, latin1},
		{[]string{"eval", "--rule", in("good.rule"), "--data", in("bad.json")}, badData},
		{[]string{"test", in("latin1.rule")}, latin1},
		{[]string{"test", in("good.rule")}, refusal("good.tests.json", 2, 0xff)},
	} {
		code, stdout, stderr := runVerdict(t, "", tt.args...)
		if code != exitUsage || stdout != "" || stderr != tt.want {
			t.Errorf("%v = %d %q %q, want %d and %q", tt.args, code, stdout, stderr, exitUsage, tt.want)
		}
	}
	raw, err := os.ReadFile(in("bad.json"))
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runVerdict(t, string(raw), "eval", "--rule", in("good.rule"), "--data", "-")
	if want := strings.Replace(badData, in("bad.json"), "-", 1); code != exitUsage || stdout != "" || stderr != want {
		t.Errorf("eval --data - = %d %q %q, want %d and %q", code, stdout, stderr, exitUsage, want)
	}
}

// Rules linked into a folder are tested with it, and a link back up the
// tree is followed once.
func TestTestFollowsLinksToFolders(t *testing.T) {
	rules := writeFiles(t, map[string]string{
		"adult.rule":       "A **Person** is an adult if the __age__ of the **Person** is at least 18.\n",
		"adult.tests.json": `[{"name": "30 is adult", "data": {"Person": {"age": 30}}, "expect": true}]`,
	})
	dir := t.TempDir()
	for link, target := range map[string]string{
		filepath.Join(dir, "rules"):         rules,
		filepath.Join(rules, "loop"):        rules,
		filepath.Join(dir, "rules-nowhere"): filepath.Join(dir, "missing"),
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Skip(err)
		}
	}
	want := "PASS " + filepath.Join(dir, "rules", "adult.rule") + ": 30 is adult\nPASS: 1/1\n"
	code, stdout, stderr := runVerdict(t, "", "test", "-v", dir)
	if code != 0 || stdout != want || stderr != "" {
		t.Errorf("test of a folder holding a link = %d %q %q, want 0 and %q", code, stdout, stderr, want)
	}
	code, stdout, stderr = runVerdict(t, "", "test", "-v", filepath.Join(dir, "rules"))
	if code != 0 || stdout != want || stderr != "" {
		t.Errorf("test of a link to a folder = %d %q %q, want 0 and %q", code, stdout, stderr, want)
	}
}

func TestTestSaysAFileGivenMustBeARuleFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{"loan.json": `{"Applicant": {}}`, "loan.rule": "A **x** is y if __z__ of **x** is 1."})
	data := filepath.Join(dir, "loan.json")
	code, stdout, stderr := runVerdict(t, "", "test", data)
	want := "verdict: " + data + " is not a NAME.rule file; verdict test runs NAME.rule against the cases in NAME.tests.json: give it one, its tests file or a folder of them\n"
	if code != exitUsage || stdout != "" || stderr != want {
		t.Errorf("test of a data file = %d %q %q, want %d and %q", code, stdout, stderr, exitUsage, want)
	}
}
