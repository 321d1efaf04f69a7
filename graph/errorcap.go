package graph

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"

	"github.com/verdict/verdict/engine"
)

// cappedRules are gqlgen's validation rules, intsWithin32Bits and
// customScalarLiterals, sharing one budget of errors: past max+1 they are
// dropped as they are found, so that a document with a conflict between
// every pair of its fields costs no memory for the conflicts nobody will
// read. One more than max is
// kept, for errorCap to tell that there were more. gqlgen calls this once
// per validation, so each document has a budget of its own.
//
// The errors of values say where the value stands and quote only the
// start of it (see placedValues), and no message is longer than
// maxMessage: a rule quotes what the document holds, which may
// be as long as a request body.
func cappedRules(max int) func() *rules.Rules {
	return func() *rules.Rules {
		kept := 0
		capped := &rules.Rules{}
		all := rules.NewDefaultRules()
		all.AddRule("IntsWithin32Bits", intsWithin32Bits)
		all.AddRule("CustomScalarLiterals", customScalarLiterals)
		for name, rule := range all.GetInner() {
			capped.AddRule(name, func(observers *core.Events, addError core.AddErrFunc) {
				add := func(options ...core.ErrorOption) {
					if kept > max {
						return
					}
					kept++
					addError(append(options, shortMessage)...)
				}
				if name == rules.ValuesOfCorrectTypeRule.Name || name == "CustomScalarLiterals" {
					add = placedValues(observers, add)
				}
				rule(observers, add)
			})
		}
		return capped
	}
}

// maxMessage is the longest message of an error, in characters: of a
// validation error here, and of any error the client sees in
// presentError, whatever made it.
const maxMessage = 500

func shortMessage(err *gqlerror.Error) {
	err.Message = capped(err.Message)
}

// capped is s cut, when longer than maxMessage characters, to fit them
// with the mark of the cut.
func capped(s string) string {
	if utf8.RuneCountInString(s) <= maxMessage {
		return s
	}
	return engine.Cut(s, maxMessage-1)
}

// errorCap keeps the first max errors of a response and replaces the rest
// with one that says some were left out, so that no operation answers with
// an unbounded list. Its code is that of the first error left out.
type errorCap struct {
	max int
}

var _ interface {
	graphql.HandlerExtension
	graphql.ResponseInterceptor
} = errorCap{}

func (errorCap) ExtensionName() string { return "ErrorCap" }

func (errorCap) Validate(graphql.ExecutableSchema) error { return nil }

func (c errorCap) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	res := next(ctx)
	if res == nil || len(res.Errors) <= c.max {
		return res
	}
	left := res.Errors[c.max:]
	more := &gqlerror.Error{
		Message:    fmt.Sprintf("more errors were found; only the first %d are shown", c.max),
		Extensions: map[string]any{"code": left[0].Extensions["code"]},
	}
	res.Errors = append(res.Errors[:c.max:c.max], more)
	return res
}
