package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator/core"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/graph/model"
)

// Variables are checked here against the types the operation declares
// for them, as strictly as the GraphQL specification reads them, before
// anything runs: gqlgen's own coercion compares enum names regardless of
// case (and the generated code then finds no value of that name, as if
// none had been given), takes strings of digits for an Int or a Float and
// any int64 for an Int, and words its refusals in Go's types.
//
// gqlgen coerces the variables before any extension sees them, and keeps
// only what it coerced; checkedTransport keeps the variables as the
// request decoded them (JSON numbers as json.Number) in the context, for
// strictVariables to check once gqlgen has coerced them, and replaces the
// refusals of gqlgen's coercion with the check's own.

type rawVariablesKey struct{}

// strictVariables refuses an operation whose variables do not hold values
// of their types, before any other extension reads them.
type strictVariables struct {
	schema *ast.Schema
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = strictVariables{}

func (strictVariables) ExtensionName() string { return "StrictVariables" }

func (strictVariables) Validate(graphql.ExecutableSchema) error { return nil }

func (s strictVariables) MutateOperationContext(ctx context.Context, op *graphql.OperationContext) *gqlerror.Error {
	raw, _ := ctx.Value(rawVariablesKey{}).(map[string]any)
	return checkVariables(s.schema, op.Operation, raw)
}

// checkVariables refuses the first variable of op whose value in vars is
// not of its type, as the request's JSON holds it.
func checkVariables(schema *ast.Schema, op *ast.OperationDefinition, vars map[string]any) *gqlerror.Error {
	for _, def := range op.VariableDefinitions {
		v, given := vars[def.Variable]
		if !given {
			if def.Type.NonNull && def.DefaultValue == nil {
				return refusal(def.Position, "variable $%s of type %s is not given", def.Variable, def.Type)
			}
			continue
		}
		if p := checkValue(schema, def.Type, v, ""); p != nil {
			return refusal(def.Position, "variable $%s%s %s", def.Variable, p.at, p.problem)
		}
	}
	return nil
}

// valueProblem is what is wrong with a variable's value, and where in it:
// "" for the value itself, else a path such as ".tests[0].expect".
type valueProblem struct {
	at, problem string
}

func checkValue(schema *ast.Schema, t *ast.Type, v any, at string) *valueProblem {
	if v == nil {
		if t.NonNull {
			return &valueProblem{at, fmt.Sprintf("must not be null: its type is %s", t)}
		}
		return nil
	}
	if t.Elem != nil {
		list, ok := v.([]any)
		if !ok {
			// A single value stands for a list of one.
			return checkValue(schema, t.Elem, v, at)
		}
		for i, e := range list {
			if p := checkValue(schema, t.Elem, e, fmt.Sprintf("%s[%d]", at, i)); p != nil {
				return p
			}
		}
		return nil
	}
	// Validation has refused a variable of an unknown type already.
	def := schema.Types[t.NamedType]
	var problem string
	switch def.Kind {
	case ast.Scalar:
		problem = scalarProblem(def.Name, v)
		if s, ok := customScalars[def.Name]; ok && s.takes != nil && !s.takes(v) {
			problem = "must be " + s.expected + ", not " + model.Describe(v)
		}
	case ast.Enum:
		problem = enumProblem(def, v)
	case ast.InputObject:
		return inputObjectProblem(schema, def, v, at)
	}
	if problem == "" {
		return nil
	}
	return &valueProblem{at, problem}
}

// customScalar is what a scalar the schema declares itself takes: the
// values its model reads without error (any value when takes is nil), and
// in words.
type customScalar struct {
	takes    func(v any) bool
	expected string
}

// customScalars are the scalars the schema declares itself, each judged as
// its model reads it, so that a value it would refuse only as its field
// runs, after the fields before had run (a mutation's among them), is
// refused before anything runs. NewHandler refuses a schema with a scalar
// missing here.
var customScalars = map[string]customScalar{
	"JSON": {expected: "any JSON value"},
	"Time": {
		takes: func(v any) bool {
			_, err := model.UnmarshalTime(v)
			return err == nil
		},
		expected: "a Time, an RFC 3339 string such as 2027-01-31T00:00:00Z",
	},
}

// builtInScalars are the scalars of the GraphQL specification, which
// scalarProblem and validation judge.
var builtInScalars = []string{"Int", "Float", "String", "Boolean", "ID"}

// uncheckedScalars lists the scalars of schema that neither the
// specification defines nor customScalars judges.
func uncheckedScalars(schema *ast.Schema) []string {
	var missing []string
	for name, def := range schema.Types {
		if def.Kind != ast.Scalar || slices.Contains(builtInScalars, name) {
			continue
		}
		if _, ok := customScalars[name]; !ok {
			missing = append(missing, name)
		}
	}
	slices.Sort(missing)
	return missing
}

// customScalarLiterals is a validation rule: a value the document writes
// for a scalar the schema declares itself is one customScalars takes. A
// variable's value is checked with the variables.
func customScalarLiterals(observers *core.Events, addError core.AddErrFunc) {
	observers.OnValue(func(_ *core.Walker, v *ast.Value) {
		if v.Definition == nil || v.Kind == ast.Variable || v.Kind == ast.NullValue {
			return
		}
		// A list where a list goes: its values are observed each.
		if v.Kind == ast.ListValue && v.ExpectedType != nil && v.ExpectedType.Elem != nil {
			return
		}
		s, ok := customScalars[v.Definition.Name]
		if !ok || s.takes == nil {
			return
		}
		// A variable inside the value (a JSON object's member) reads as
		// null here; customScalars judges it with the variables.
		value, err := v.Value(nil)
		if err == nil && s.takes(value) {
			return
		}
		described := model.Describe(value)
		if v.Kind == ast.EnumValue {
			described = "the enum value " + engine.Quoted(v.Raw)
		}
		addError(core.Message("the value must be %s, not %s", s.expected, described), core.At(v.Position))
	})
}

// scalarProblem says what is wrong with v as a value of the built-in
// scalar name; customScalars judges the API's own.
func scalarProblem(name string, v any) string {
	n, isNumber := v.(json.Number)
	switch name {
	case "Int":
		if !isNumber {
			return "must be an Int, a whole number, not " + model.Describe(v)
		}
		if _, err := strconv.ParseInt(string(n), 10, 32); err != nil {
			return fmt.Sprintf("must be an Int, a whole number from %d to %d written without a fraction or exponent, not %s",
				minInt32, maxInt32, model.Describe(v))
		}
	case "Float":
		if !isNumber {
			return "must be a Float, a number, not " + model.Describe(v)
		}
		if _, err := strconv.ParseFloat(string(n), 64); err != nil {
			return "must be a Float, a number of at most about 1.8e308 in size, not " + model.Describe(v)
		}
	case "String":
		if _, ok := v.(string); !ok {
			return "must be a String, not " + model.Describe(v)
		}
	case "Boolean":
		if _, ok := v.(bool); !ok {
			return "must be a Boolean, true or false, not " + model.Describe(v)
		}
	case "ID":
		if _, ok := v.(string); !ok {
			if _, err := strconv.ParseInt(string(n), 10, 64); !isNumber || err != nil {
				return "must be an ID, a string, not " + model.Describe(v)
			}
		}
	}
	return ""
}

const (
	minInt32 = -1 << 31
	maxInt32 = 1<<31 - 1
)

// enumProblem says what is wrong with v as a value of the enum def: only
// the exact name of one of its values is one.
func enumProblem(def *ast.Definition, v any) string {
	s, isString := v.(string)
	if isString && def.EnumValues.ForName(s) != nil {
		return ""
	}
	names := make([]string, len(def.EnumValues))
	for i, e := range def.EnumValues {
		names[i] = e.Name
	}
	problem := fmt.Sprintf("must be one of the %s values %s, not %s", def.Name, strings.Join(names, ", "), model.Describe(v))
	if i := slices.IndexFunc(names, func(n string) bool { return strings.EqualFold(n, s) }); isString && i >= 0 {
		problem += fmt.Sprintf(" (enum values are written exactly as the schema has them: %s)", names[i])
	}
	return problem
}

// inputObjectProblem says what is wrong with v as a value of the input
// object def: it must be a JSON object with a value of its type for each
// of def's required fields, and no member def lacks.
func inputObjectProblem(schema *ast.Schema, def *ast.Definition, v any, at string) *valueProblem {
	obj, ok := v.(map[string]any)
	if !ok {
		return &valueProblem{at, fmt.Sprintf("must be an object (%s), not %s", def.Name, model.Describe(v))}
	}
	fields := make([]string, len(def.Fields))
	for i, f := range def.Fields {
		fields[i] = f.Name
	}
	var unknown []string
	for name := range obj {
		if def.Fields.ForName(name) == nil {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return &valueProblem{at, fmt.Sprintf("holds the field %q, which %s does not have (its fields are %s)",
			engine.Quoted(unknown[0]), def.Name, strings.Join(fields, ", "))}
	}
	for _, f := range def.Fields {
		fv, given := obj[f.Name]
		if !given {
			if f.Type.NonNull && f.DefaultValue == nil {
				return &valueProblem{at, fmt.Sprintf("lacks the field %s (%s), which %s requires", f.Name, f.Type, def.Name)}
			}
			continue
		}
		if p := checkValue(schema, f.Type, fv, at+"."+f.Name); p != nil {
			return p
		}
	}
	return nil
}
