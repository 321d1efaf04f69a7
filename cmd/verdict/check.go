package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/verdict/verdict/engine"
)

// exitProblems is the status of `verdict check` when a text has an error,
// and of `verdict test` when a test fails; all is well is 0, and bad usage
// exitUsage, as for every command.
const exitProblems = 1

func newCheckCommand() *cobra.Command {
	var schemaPath string
	cmd := &cobra.Command{
		Use:   "check [--schema SCHEMA.json] FILE...",
		Short: "Check rule files and print their diagnostics",
		Long: `Check rule files the way evaluation reads them and print each diagnostic as
file:line:column: severity: message, with the source line, a caret under the
place, and any suggested replacement. docs/errors.md explains every code.
With --schema, the names each rule reads, and the types of their values, are
also checked against that JSON Schema of its data, as a policy's stored
schema is (not-in-schema, schema-type-mismatch).

Exit status: 0 when no file has an error (warnings allowed), 1 when one has,
3 on bad usage (no file, a file that cannot be read).`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError("give one or more rule files: verdict check FILE...")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			// Decoded once, for every file.
			var schema any
			if schemaPath != "" {
				text, err := readInput(nil, schemaPath)
				if err != nil {
					return err
				}
				if err := json.Unmarshal(withoutBOM(text), &schema); err != nil {
					return usageError("%s is not JSON: %s", schemaPath, engine.JSONProblem(err))
				}
				if !engine.IsSchema(schema) {
					return usageError("%s is not a JSON Schema: an object, or true or false", schemaPath)
				}
			}
			failed := false
			for _, path := range args {
				b, err := readInput(nil, path)
				if err != nil {
					return err
				}
				src := ruleFileText(b)
				res := engine.CheckWithDecodedSchema(src, schema)
				printDiagnostics(cmd.OutOrStdout(), path, src, res.Diagnostics)
				failed = failed || res.HasErrors()
			}
			if failed {
				return &exitStatus{code: exitProblems}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&schemaPath, "schema", "", "a JSON Schema of the data to check the rules' names against")
	return cmd
}

// printDiagnostics writes diagnostics the way compilers do, with the line
// and a caret under the range.
func printDiagnostics(w io.Writer, path, src string, diags []engine.Diagnostic) {
	lines := strings.Split(src, "\n")
	for _, d := range diags {
		start, end := d.Range.Start, d.Range.End
		fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", path, start.Line, start.Column, d.Severity, d.Message, d.Code)
		if start.Line-1 < len(lines) {
			line := strings.TrimRight(lines[start.Line-1], "\r")
			width := 1
			if end.Line == start.Line && end.Column > start.Column {
				width = end.Column - start.Column
			}
			fmt.Fprintf(w, "  %s\n  %s%s\n", line, indentTo(line, start.Column), strings.Repeat("^", width))
		}
		for _, s := range d.Suggestions {
			fmt.Fprintf(w, "  suggestion: %s\n", s)
		}
	}
}

// indentTo is the blank space under a line up to a column, keeping tabs so
// the caret lines up.
func indentTo(line string, column int) string {
	var b strings.Builder
	col := 1
	for _, r := range line {
		if col >= column {
			break
		}
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		col++
	}
	for ; col < column; col++ {
		b.WriteByte(' ')
	}
	return b.String()
}

// ruleTest is one case of a NAME.tests.json file.
type ruleTest struct {
	Name   string          `json:"name"`
	Data   json.RawMessage `json:"data"`
	Expect *bool           `json:"expect"`
	// which names the case in messages: test 2 ("40 is senior").
	which string
}

func newTestCommand() *cobra.Command {
	var verbose bool
	cmd := &cobra.Command{
		Use:   "test PATH...",
		Short: "Run rule files against the test cases kept beside them",
		Long: `Run each NAME.rule file (given, or found under a given directory) against the
cases in NAME.tests.json beside it: a JSON list of {"name", "data", "expect"},
where expect is true or false, without quotes. A NAME.tests.json given runs NAME.rule. Each
failure is printed with its expected and actual result and the run's
explanation.

Exit status: 0 when every test passes, 1 when one fails, 3 on bad usage
(no rule file, a rule file without its NAME.tests.json, a test file that is
not such a list, or holds no case).`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError("give one or more rule files or directories: verdict test PATH...")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			files, err := ruleFiles(args)
			if err != nil {
				return err
			}
			// Every tests file is read and checked before any case runs, so
			// that bad usage prints no results before saying so.
			loaded := make([]*ruleFileTests, len(files))
			for i, f := range files {
				if loaded[i], err = loadRuleTests(f); err != nil {
					return err
				}
			}
			out := cmd.OutOrStdout()
			passed, total := 0, 0
			for _, l := range loaded {
				p, n := l.run(out, verbose)
				passed, total = passed+p, total+n
			}
			if total > passed {
				fmt.Fprintf(out, "FAIL: %d of %d tests failed\n", total-passed, total)
				return &exitStatus{code: exitProblems}
			}
			fmt.Fprintf(out, "PASS: %d/%d\n", passed, total)
			return nil
		},
	}
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "print passing tests too")
	return cmd
}

// testsSuffix ends the name of the file that holds a rule file's tests,
// beside it: NAME.tests.json for NAME.rule.
const testsSuffix = ".tests.json"

// ruleFiles lists the rule files the paths name, each once: files as
// given, but the rule file beside a NAME.tests.json, and directories
// searched for *.rule.
func ruleFiles(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, usageError("%v", err)
		}
		if name, ok := strings.CutSuffix(p, testsSuffix); ok && !info.IsDir() {
			rule := name + ".rule"
			if _, err := os.Stat(rule); errors.Is(err, fs.ErrNotExist) {
				return nil, usageError("%s: there is no %s beside it to test; verdict test runs NAME.rule against the cases in NAME%s", p, rule, testsSuffix)
			}
			out = append(out, rule)
			continue
		}
		if !info.IsDir() {
			if !strings.HasSuffix(p, ".rule") {
				return nil, usageError("%s is not a NAME.rule file; verdict test runs NAME.rule against the cases in NAME%s: give it one, its tests file or a folder of them", p, testsSuffix)
			}
			out = append(out, p)
			continue
		}
		found, err := ruleFilesUnder(p, map[string]bool{})
		if err != nil {
			return nil, usageError("%v", err)
		}
		out = append(out, found...)
	}
	if len(out) == 0 {
		return nil, usageError("no .rule files in %s", strings.Join(paths, ", "))
	}
	sort.Strings(out)
	return slices.Compact(out), nil
}

// ruleFilesUnder lists the *.rule files under dir, following symbolic links
// to folders as to files, as a folder of rules linked into place is meant
// to be tested. visited holds the real paths of the folders already
// searched, so a link back up the tree is searched once, not forever.
func ruleFilesUnder(dir string, visited map[string]bool) ([]string, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	if real, err = filepath.Abs(real); err != nil {
		return nil, err
	}
	if visited[real] {
		return nil, nil
	}
	visited[real] = true
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			// A link that leads nowhere is taken as a file: named *.rule,
			// it is reported when it cannot be read.
			info, err := os.Stat(path)
			isDir = err == nil && info.IsDir()
		}
		if isDir {
			found, err := ruleFilesUnder(path, visited)
			if err != nil {
				return nil, err
			}
			out = append(out, found...)
		} else if strings.HasSuffix(path, ".rule") {
			out = append(out, path)
		}
	}
	return out, nil
}

// readTests reads a tests file's cases. What is wrong with one is said in
// plain words, naming the case, rather than as a decoder's message about
// Go types.
func readTests(path string, raw []byte) ([]ruleTest, error) {
	const want = `want a list of {"name", "data", "expect"}`
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			return nil, usageError("%s: %s, not a JSON %s", path, want, typ.Value)
		}
		return nil, usageError("%s: %s: %s", path, want, engine.JSONProblem(err))
	}
	switch {
	case items == nil:
		// JSON's null decodes to no list at all, without an error.
		return nil, usageError("%s: %s, not null", path, want)
	case len(items) == 0:
		return nil, usageError(`%s has no tests: the list is empty; write the rule's cases in it, [{"name": "...", "data": {...}, "expect": true}]`, path)
	}
	tests := make([]ruleTest, len(items))
	named := make(map[string]bool, len(items))
	for i, item := range items {
		fields, err := testFields(item)
		if err != nil {
			return nil, usageError("%s: test %d %s; %s", path, i+1, err, want)
		}
		tc := &tests[i]
		which := fmt.Sprintf("test %d", i+1)
		if name, ok := fields["name"]; ok {
			if json.Unmarshal(name, &tc.Name) != nil {
				return nil, usageError("%s: %s: name must be text in quotes, not %s", path, which, name)
			}
			if tc.Name != "" {
				which += fmt.Sprintf(" (%q)", tc.Name)
			}
		}
		if expect, ok := fields["expect"]; ok {
			// Decoded as any, since a bool takes JSON's null, as false,
			// without an error; the value is valid JSON, read from the list.
			var v any
			json.Unmarshal(expect, &v)
			b, isBool := v.(bool)
			if !isBool {
				return nil, usageError("%s: %s: expect must be true or false, without quotes, not %s", path, which, expect)
			}
			tc.Expect = &b
		}
		if data, ok := fields["data"]; ok {
			tc.Data = data
		}
		if tc.Name == "" || tc.Expect == nil || len(tc.Data) == 0 {
			return nil, usageError("%s: %s needs a name, data and expect (true or false)", path, which)
		}
		// Failures are told by name, so no two cases share one.
		if named[tc.Name] {
			return nil, usageError("%s: %s: two tests are named %q", path, which, tc.Name)
		}
		named[tc.Name] = true
		tc.which = which
	}
	return tests, nil
}

// testFields are the members of one test case, which is a JSON object of
// name, data and expect, each at most once: a repeated member, of which
// decoding would keep the last, and an unknown one, likely a misspelt
// expect, are refused as the server refuses them.
func testFields(item json.RawMessage) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(item))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("is not an object")
	}
	fields := map[string]json.RawMessage{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, errors.New("is not an object")
		}
		name, _ := t.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, errors.New("is not an object")
		}
		switch _, seen := fields[name]; {
		case name != "name" && name != "data" && name != "expect":
			return nil, fmt.Errorf("has an unknown member %q", name)
		case seen:
			return nil, fmt.Errorf("has %q more than once", name)
		}
		fields[name] = value
	}
	return fields, nil
}

// ruleFileTests is a rule file with its tests, read and checked, each
// case's data decoded.
type ruleFileTests struct {
	path, src string
	tests     []ruleTest
	datas     []map[string]any
}

// loadRuleTests reads a rule file and the tests beside it, refusing as bad
// usage a tests file that is not a list of cases or a case whose data does
// not decode.
func loadRuleTests(path string) (*ruleFileTests, error) {
	b, err := readInput(nil, path)
	if err != nil {
		return nil, err
	}
	testsPath := strings.TrimSuffix(path, ".rule") + testsSuffix
	if _, err := os.Stat(testsPath); errors.Is(err, fs.ErrNotExist) {
		return nil, usageError(`%s has no tests: there is no %s; write its cases there as a JSON list, [{"name": "...", "data": {...}, "expect": true}]`, path, testsPath)
	}
	raw, err := readInput(nil, testsPath)
	if err != nil {
		return nil, err
	}
	tests, err := readTests(testsPath, withoutBOM(raw))
	if err != nil {
		return nil, err
	}
	l := &ruleFileTests{path: path, src: ruleFileText(b), tests: tests, datas: make([]map[string]any, len(tests))}
	for i, tc := range tests {
		data, derr := engine.DecodeData(tc.Data, engine.Limits{})
		if derr != nil {
			// The decoder's message starts with "data".
			return nil, usageError("%s: %s: %v", testsPath, tc.which, derr)
		}
		l.datas[i] = data
	}
	return l, nil
}

// run runs the file's tests and prints what failed.
func (l *ruleFileTests) run(w io.Writer, verbose bool) (passed, total int) {
	path, src, tests, datas := l.path, l.src, l.tests, l.datas
	var eng engine.Engine
	prog, cerr := eng.Compile(src)
	for i, tc := range tests {
		data := datas[i]
		var res *engine.Result
		if cerr != nil {
			res = engine.ParseFailure(src, cerr.(engine.ParseErrors), tc.Data, engine.Lines(src))
		} else {
			res = prog.Evaluate(data)
		}
		res.Explain()
		ok := res.Error == nil && res.Result == *tc.Expect
		actual := fmt.Sprint(res.Result)
		if res.Error != nil {
			actual = "error: " + res.Error.Message
		}
		switch {
		case ok && verbose:
			fmt.Fprintf(w, "PASS %s: %s\n", path, tc.Name)
		case !ok:
			fmt.Fprintf(w, "FAIL %s: %s\n  expected: %v\n  actual:   %s\n  explanation: %s\n",
				path, tc.Name, *tc.Expect, strings.ReplaceAll(actual, "\n", " "), res.Explanation)
			for _, wn := range res.Warnings {
				fmt.Fprintf(w, "  warning: %s\n", wn.Message)
			}
		}
		if ok {
			passed++
		}
		total++
	}
	return passed, total
}
