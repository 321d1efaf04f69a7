package graph

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator/core"

	"github.com/verdict/verdict/engine"
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
	var found *ast.Value
	var scan func(v *ast.Value)
	scan = func(v *ast.Value) {
		var err error
		switch v.Kind {
		case ast.IntValue:
			_, err = strconv.ParseInt(v.Raw, 10, 64)
		case ast.FloatValue:
			_, err = strconv.ParseFloat(v.Raw, 64)
		}
		if err != nil && found == nil {
			found = v
		}
		for _, c := range v.Children {
			scan(c.Value)
		}
	}
	documentArguments(doc, func(_ func() string, v *ast.Value) { scan(v) })
	if found == nil {
		return nil
	}
	return refusal(found.Position,
		"the number %s cannot be written in the document, where a whole number is at most 9223372036854775807 in size and any other at most about 1.8e308; "+
			"send the value that holds it as a variable, whose numbers are read as JSON",
		engine.Quoted(found.Raw))
}

// documentArguments calls visit with each value the document gives an
// argument of a field or of a directive, or a variable as its default,
// and what it is given to ("the argument input of runRule", made when
// asked for).
func documentArguments(doc *ast.QueryDocument, visit func(in func() string, v *ast.Value)) {
	directives := func(ds ast.DirectiveList) {
		for _, d := range ds {
			for _, a := range d.Arguments {
				visit(func() string { return fmt.Sprintf("the argument %s of @%s", a.Name, d.Name) }, a.Value)
			}
		}
	}
	var selections func(set ast.SelectionSet)
	selections = func(set ast.SelectionSet) {
		for _, sel := range set {
			switch sel := sel.(type) {
			case *ast.Field:
				for _, a := range sel.Arguments {
					visit(func() string { return fmt.Sprintf("the argument %s of %s", a.Name, sel.Name) }, a.Value)
				}
				directives(sel.Directives)
				selections(sel.SelectionSet)
			case *ast.InlineFragment:
				directives(sel.Directives)
				selections(sel.SelectionSet)
			case *ast.FragmentSpread:
				directives(sel.Directives)
			}
		}
	}
	for _, op := range doc.Operations {
		for _, v := range op.VariableDefinitions {
			if v.DefaultValue != nil {
				visit(func() string { return "the default value of $" + v.Variable }, v.DefaultValue)
			}
			directives(v.Directives)
		}
		directives(op.Directives)
		selections(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		directives(f.Directives)
		selections(f.SelectionSet)
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

// placedValues has the errors that the rule observing observers adds about
// a value say where the value stands (the argument input of runRule, at
// data.P) and quote only the start of it: gqlparser quotes all of it,
// which may be as long as a request body, and says only its line and
// column. It observes the values before the rule does, to know which
// one the rule reports on.
func placedValues(observers *core.Events, addError core.AddErrFunc) core.AddErrFunc {
	var (
		walker  *core.Walker
		current *ast.Value
		places  map[*ast.Value]string
	)
	observers.OnValue(func(w *core.Walker, v *ast.Value) { walker, current = w, v })
	return func(options ...core.ErrorOption) {
		if current == nil {
			addError(options...)
			return
		}
		if places == nil {
			places = valuePlaces(walker.Document)
		}
		v, place := current, places[current]
		addError(append(options, func(err *gqlerror.Error) {
			if whole := v.String(); len(whole) > engine.MaxQuoted {
				err.Message = strings.Replace(err.Message, whole, engine.Quoted(whole), 1)
			}
			if place != "" {
				err.Message = place + ": " + err.Message
			}
		})...)
	}
}

// valuePlaces names where each value of doc stands: in which argument of
// which field or directive, or in which variable's default value, and at
// which path inside it.
func valuePlaces(doc *ast.QueryDocument) map[*ast.Value]string {
	places := map[*ast.Value]string{}
	var place func(v *ast.Value, in, at string)
	place = func(v *ast.Value, in, at string) {
		places[v] = in
		if at != "" {
			places[v] = in + ", at " + at
		}
		for i, c := range v.Children {
			switch {
			case v.Kind == ast.ListValue:
				place(c.Value, in, fmt.Sprintf("%s[%d]", at, i))
			case at == "":
				place(c.Value, in, c.Name)
			default:
				place(c.Value, in, at+"."+c.Name)
			}
		}
	}
	documentArguments(doc, func(in func() string, v *ast.Value) { place(v, in(), "") })
	return places
}
