package graph

import (
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator/core"

	"github.com/verdict/verdict/graph/model"
)

// unreadableNumber refuses a document that writes a number the executor
// cannot read: gqlparser reads a number of the document's text as an
// int64, or a float64 when it has a fraction or an exponent, and fails
// on one out of their range wherever it stands. Validation reports such
// a number only in an input object, quoting all of it; in a JSON value
// given as an argument or in a variable's default value, reading it would
// fail as the operation runs. A variable, read as JSON, may hold any
// number, as REST's bodies may.
func unreadableNumber(doc *ast.QueryDocument) *gqlerror.Error {
	var s numberScan
	for _, op := range doc.Operations {
		for _, v := range op.VariableDefinitions {
			s.value(v.DefaultValue)
			s.directives(v.Directives)
		}
		s.directives(op.Directives)
		s.selections(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		s.directives(f.Directives)
		s.selections(f.SelectionSet)
	}
	if s.found == nil {
		return nil
	}
	return refusal(s.found.Position,
		"the number %s cannot be written in the document, where a whole number is at most 9223372036854775807 in size and any other at most about 1.8e308; "+
			"send the value that holds it as a variable, whose numbers are read as JSON",
		model.Cut(s.found.Raw, model.MaxQuoted))
}

// numberScan looks through a document's values for the first number out
// of range.
type numberScan struct {
	found *ast.Value
}

func (s *numberScan) value(v *ast.Value) {
	if v == nil || s.found != nil {
		return
	}
	var err error
	switch v.Kind {
	case ast.IntValue:
		_, err = strconv.ParseInt(v.Raw, 10, 64)
	case ast.FloatValue:
		_, err = strconv.ParseFloat(v.Raw, 64)
	}
	if err != nil {
		s.found = v
		return
	}
	for _, c := range v.Children {
		s.value(c.Value)
	}
}

func (s *numberScan) directives(ds ast.DirectiveList) {
	for _, d := range ds {
		for _, a := range d.Arguments {
			s.value(a.Value)
		}
	}
}

func (s *numberScan) selections(set ast.SelectionSet) {
	for _, sel := range set {
		switch sel := sel.(type) {
		case *ast.Field:
			for _, a := range sel.Arguments {
				s.value(a.Value)
			}
			s.directives(sel.Directives)
			s.selections(sel.SelectionSet)
		case *ast.InlineFragment:
			s.directives(sel.Directives)
			s.selections(sel.SelectionSet)
		case *ast.FragmentSpread:
			s.directives(sel.Directives)
		}
	}
}

// intsWithin32Bits is a validation rule: an Int the document writes is
// within 32 bits, as the GraphQL specification has it. gqlparser's own
// rules refuse one only beyond 64.
func intsWithin32Bits(observers *core.Events, addError core.AddErrFunc) {
	observers.OnValue(func(_ *core.Walker, v *ast.Value) {
		if v.Kind != ast.IntValue || v.Definition == nil || v.Definition.Name != "Int" {
			return
		}
		if _, err := strconv.ParseInt(v.Raw, 10, 32); err != nil {
			addError(core.Message("the Int %s is out of range: an Int is a whole number from %d to %d", v.Raw, minInt32, maxInt32), core.At(v.Position))
		}
	})
}
