package docs

import (
	"bufio"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// A Step is a shell example of a document: a ```sh run block, to be run in
// order with the document's other steps in one shell, and the answer the
// document states for it in a ```json answer block after it, if any.
type Step struct {
	Line   int // of the ```sh run fence
	Script string
	Answer json.RawMessage // nil when the document states none
}

// Steps returns the shell steps of a document, and a problem for each
// answer that belongs to no step or is not JSON.
func Steps(doc string) ([]Step, []string) {
	var steps []Step
	var problems []string
	answered := false
	err := fences(doc, func(line int, info, body string) {
		switch info {
		case "sh run":
			steps = append(steps, Step{Line: line, Script: body})
			answered = false
		case "json answer":
			switch {
			case len(steps) == 0 || answered:
				problems = append(problems, fmt.Sprintf("line %d: an answer without a ```sh run block before it", line))
			case !json.Valid([]byte(body)):
				problems = append(problems, fmt.Sprintf("line %d: the answer is not JSON", line))
			default:
				steps[len(steps)-1].Answer = json.RawMessage(body)
				answered = true
			}
		}
	}, nil)
	if err != "" {
		problems = append(problems, err)
	}
	return steps, problems
}

// fences calls block for every fenced code block of doc, with the line of
// its opening fence, its info string and its body, and line (when not nil)
// for every line outside blocks. It returns a problem for a block that is
// never closed.
func fences(doc string, block func(line int, info, body string), line func(n int, text string)) string {
	sc := bufio.NewScanner(strings.NewReader(doc))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		ticks, info := FenceOf(sc.Text())
		if ticks == 0 {
			if line != nil {
				line(n, sc.Text())
			}
			continue
		}
		start := n
		var body strings.Builder
		closed := false
		for sc.Scan() {
			n++
			if t, rest := FenceOf(sc.Text()); t >= ticks && rest == "" {
				closed = true
				break
			}
			body.WriteString(sc.Text())
			body.WriteByte('\n')
		}
		if !closed {
			return fmt.Sprintf("line %d: the block is never closed", start)
		}
		block(start, info, body.String())
	}
	return ""
}

// FenceOf reads a line as a code fence: the number of backticks it opens
// with (0 when it is not a fence, at least 3 when it is) and its info
// string. A block ends at a fence of at least as many backticks and no info,
// so a four-backtick block can show a three-backtick example untouched.
func FenceOf(line string) (int, string) {
	t := strings.TrimSpace(line)
	n := len(t) - len(strings.TrimLeft(t, "`"))
	if n < 3 {
		return 0, ""
	}
	return n, strings.Join(strings.Fields(t[n:]), " ")
}

// Matches compares a value a document states with the actual one, both
// decoded from JSON: an object states only the members it lists, a list
// states each of its items, anything else must be equal.
func Matches(want, got any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range w {
			gv, present := g[k]
			if !present || !Matches(v, gv) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !Matches(w[i], g[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(want, got)
}
