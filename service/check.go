package service

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/engine"
)

// CheckRule reports a rule text's tokens and diagnostics (POST /check),
// following its names through schema, the JSON Schema of its data, when
// one is given (engine.CheckWithSchema). Anyone who may view in the
// organization may check; nothing is read or stored. A check is charged
// to what the request may answer, like a run, twice: before it, for the
// work of checking, 16 bytes for each byte of its text and the schema's
// bytes, which it reads; after it, exactly what its tokens and diagnostics
// answer (checkAnswerBytes), which the text's size does not bound: a text
// of short numbers in lists answers some 96 bytes of JSON for every
// 1 byte of text, and over GraphQL costs far more to build. A request
// that checks one text with one schema several times, as a GraphQL
// document of many checkRule fields on one variable does, checks it once
// to learn its answer: the fields past the bound are refused without
// checking it again. With tokens false the result leaves the tokens out,
// uncharged, for a GraphQL field that asks for the diagnostics alone: a
// text the editor may not highlight can still be checked.
func (s *Service) CheckRule(ctx context.Context, rule string, schema json.RawMessage, tokens bool) (*engine.CheckResult, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.authorizeOnTenant(ctx, p, authz.ActionView, authz.KindOrganization); err != nil {
		return nil, err
	}
	if err := checkNoNUL("rule", rule); err != nil {
		return nil, err
	}
	decoded, err := checkSchema(schema)
	if err != nil {
		return nil, err
	}
	if err := s.spendAnswer(ctx, checkAnswerPerByte*len(rule)+len(schema)); err != nil {
		return nil, err
	}
	check := func() engine.CheckResult {
		r := engine.CheckWithDecodedSchema(rule, decoded)
		if !tokens {
			r.Tokens = nil
		}
		return r
	}
	seen := checkedOf(ctx, rule, schema, tokens)
	var res *engine.CheckResult
	if seen != nil {
		seen.once.Do(func() {
			r := check()
			res, seen.answer = &r, checkAnswerBytes(ctx, r)
		})
		if err := s.spendAnswer(ctx, seen.answer); err != nil {
			return nil, err
		}
		if res != nil {
			return res, nil
		}
	}
	r := check()
	if seen == nil {
		if err := s.spendAnswer(ctx, checkAnswerBytes(ctx, r)); err != nil {
			return nil, err
		}
	}
	return &r, nil
}

// checkAnswerPerByte is what a check is charged for each byte of its text
// before it is made, for the work of checking it, and what a save is for
// each byte of the content it checks (chargeContent), whose answer carries
// the diagnostics only.
const checkAnswerPerByte = 16

// tokenFrameBytes is what a token answers in JSON beside its kind and the
// digits of its range: {"kind":"","range":{"start":{"line":,"column":},
// "end":{"line":,"column":}}} and a comma.
const tokenFrameBytes = 76

// checkObjects is how many objects a token or a diagnostic is made of in
// an answer: itself, its range and the range's two positions.
const checkObjects = 4

// checkAnswerBytes is exactly what check answers in JSON, its tokens
// counted one by one and its diagnostics encoded, and what the request's
// transport spends building the objects they are made of beyond their
// bytes (WithObjectBytes). It takes a small part of what the check took.
func checkAnswerBytes(ctx context.Context, check engine.CheckResult) int {
	n := len(`{"tokens":[],"diagnostics":[]}`)
	for _, t := range check.Tokens {
		n += tokenFrameBytes + len(t.Kind) + digits(t.Range.Start.Line) + digits(t.Range.Start.Column) +
			digits(t.Range.End.Line) + digits(t.Range.End.Column)
	}
	for _, d := range check.Diagnostics {
		b, err := json.Marshal(d)
		if err != nil {
			return n + len(d.Message)
		}
		n += len(b) + 1
	}
	return n + checkObjects*(len(check.Tokens)+len(check.Diagnostics))*objectBytesOf(ctx)
}

// digits is how many characters n takes in JSON.
func digits(n int) int {
	d := 1
	if n < 0 {
		d, n = 2, -n
	}
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

// checkedTexts are the checks one request made, by text and schema, each
// with what it answers, so that the request checks a text once however
// many fields ask for it: a field past the bound is refused from what the
// first check answered. Only the answer's size is kept, and only for as
// many texts as add up to maxCompiledTextBytes; all come from the
// request's body.
type checkedTexts struct {
	mu     sync.Mutex
	bytes  int
	byText map[string]*checkedText
}

// checkedText is one check of a request: once makes it, answer is what it
// answers.
type checkedText struct {
	once   sync.Once
	answer int
}

// checkedOf is the request's check of rule against schema, made or to be
// made; nil when ctx has no call, or the request has checked too many
// texts to keep more.
func checkedOf(ctx context.Context, rule string, schema json.RawMessage, tokens bool) *checkedText {
	c := callOf(ctx)
	if c == nil || c.checks == nil {
		return nil
	}
	key := rule + "\x00" + string(schema) + "\x00" + strconv.FormatBool(tokens)
	checks := c.checks
	checks.mu.Lock()
	defer checks.mu.Unlock()
	if seen, ok := checks.byText[key]; ok {
		return seen
	}
	if checks.bytes+len(key) > maxCompiledTextBytes {
		return nil
	}
	if checks.byText == nil {
		checks.byText = map[string]*checkedText{}
	}
	seen := new(checkedText)
	checks.byText[key] = seen
	checks.bytes += len(key)
	return seen
}
