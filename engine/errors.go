package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
)

// Kind classifies an error of the rule language. Its text is the prefix of
// every message of that kind.
type Kind int

const (
	KindParse Kind = iota
	KindMissingSelector
	KindMissingProperty
	KindUnresolvedReference
	KindType
	KindEvaluation
)

var kindNames = [...]string{
	KindParse:               "Parse error",
	KindMissingSelector:     "Missing selector",
	KindMissingProperty:     "Missing property",
	KindUnresolvedReference: "Unresolved reference",
	KindType:                "Type error",
	KindEvaluation:          "Evaluation error",
}

func (k Kind) String() string { return kindNames[k] }

// Error is a parse or evaluation error as it appears in a run result: its
// JSON form is the message string.
type Error struct {
	Kind    Kind
	Message string // the full text, beginning with the kind
	// Nearest is, for a missing selector or property, the data's name
	// closest to it when one is close enough to be a misspelling of it
	// (see nearestKey); the explanation suggests it. Empty otherwise.
	Nearest string
	// scope and missing are where a run that stops on this error looks
	// for Nearest: the object searched and the canonical name it lacks, or
	// (without scope) the phrase of a reference no rule's outcome matches.
	// EvaluateInto drops them, so that no result holds on to its data.
	scope   map[string]any
	missing string
	// self is the rule whose reference names missing: it is not suggested.
	self int
}

func (e *Error) Error() string { return e.Message }

// MarshalJSON writes the message, the form the API documents. It leaves
// `<`, `>` and `&` alone so that ` --> 1:5` stays readable; an encoder that
// escapes HTML still escapes them.
func (e *Error) MarshalJSON() ([]byte, error) {
	return []byte(ValueText(e.Message)), nil
}

func newError(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Message: k.String() + ": " + fmt.Sprintf(format, args...)}
}

// SyntaxError is one problem found by the parser. Located is false for
// problems that have no meaningful position (an invalid date, a misused
// count expression, a text without rules, a limit).
type SyntaxError struct {
	Pos      Position
	Located  bool
	Expected string

	off    int      // byte offset of Pos (0 for problems of the whole text)
	wanted []string // what the parser expected there, one item per alternative
	// rule and cond are where the rule, and the condition, being read
	// began (cond is -1 before the conditions), for diagnostics to read
	// them again.
	rule, cond int
}

// Message renders the error the way run results carry it.
func (e SyntaxError) Message() string {
	if !e.Located {
		return "Parse error: " + e.Expected
	}
	return fmt.Sprintf("Parse error:  --> %s\n  = %s", e.Pos, e.Expected)
}

func (e SyntaxError) Error() string { return e.Message() }

// ParseErrors lists every problem the parser found, in text order. Its
// message is the first one's, as run results report only one.
type ParseErrors []SyntaxError

func (l ParseErrors) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Message()
	}
	return fmt.Sprintf("%s (and %d more)", l[0].Message(), len(l)-1)
}

// Messages returns every problem's message.
func (l ParseErrors) Messages() []string {
	out := make([]string, len(l))
	for i, e := range l {
		out[i] = e.Message()
	}
	return out
}

func (l ParseErrors) sorted() ParseErrors {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	return l
}

// asError converts the parser's list into the run-result error.
func (l ParseErrors) asError() *Error {
	return &Error{Kind: KindParse, Message: l[0].Message()}
}

// failedLine extracts the line of the first located error, for the
// synthetic parse-error trace.
func (l ParseErrors) failedLine() (int, bool) {
	if len(l) == 0 || !l[0].Located {
		return 0, false
	}
	return l[0].Pos.Line, true
}

// ValueText is how explanations and error messages show a data value:
// compact JSON with sorted object keys, as encoding/json writes a decoded
// value, but with <, > and & left as written. A message is read as text;
// escaping them (\u003c) showed a reader, and the console, other
// characters than the data held. Answers that embed it still escape them.
func ValueText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}
