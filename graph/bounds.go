package graph

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
)

// documentBounds refuses a document before gqlgen parses and validates it
// for itself: one with more tokens than maxTokens, one whose operations
// hold more than maxFields fields and fragments once every fragment spread
// is replaced by its fragment, one whose fields nest deeper than maxDepth, one where
// more than maxSameName fields answer under one key of the response, one
// that defines more than maxFragments fragments, and one that introspects
// the schema more than once (introspectionProblem).
//
// Validation is where an unbounded document costs most: checking that
// fields answering under the same key can merge compares them pairwise,
// expanding fragments as it goes, so a few kilobytes of aliases or of
// fragments spreading each other twice would take minutes and gigabytes.
// Counting the expanded fields first is linear in the document, since
// each fragment is counted once however often it is spread; once their
// number is bounded, expanding them is too, and with at most maxSameName
// fields under one key, validation compares fewer than
// maxFields*maxSameName pairs of fields. It also compares the fragments
// spread in a selection set pairwise, hence maxFragments.
//
// A document the query cache holds has passed already and is not looked
// at again.
type documentBounds struct {
	maxTokens, maxFields, maxDepth, maxSameName, maxFragments int
	cache                                                     graphql.Cache[*ast.QueryDocument]
	// schema tells the types of the selections, for repeats.
	schema *ast.Schema
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
} = documentBounds{}

func (documentBounds) ExtensionName() string { return "DocumentBounds" }

func (documentBounds) Validate(graphql.ExecutableSchema) error { return nil }

func (b documentBounds) MutateOperationParameters(ctx context.Context, params *graphql.RawParams) *gqlerror.Error {
	if _, ok := b.cache.Get(ctx, params.Query); ok {
		return nil
	}
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: params.Query}, b.maxTokens)
	if err != nil {
		// gqlgen parses the document again and reports the error in its
		// own words, as it does for any document that does not parse;
		// the token limit stops that parse at the same place.
		return nil
	}
	if err := unreadableNumber(doc); err != nil {
		return err
	}
	if n := len(doc.Fragments); n > b.maxFragments {
		return refusal(nil, "the document defines %d fragments, more than the limit of %d", n, b.maxFragments)
	}
	shape := newSelectionFold(doc.Fragments, fieldShape, addShapes)
	shape.fragment = fragmentShape
	var total documentShape
	for _, op := range doc.Operations {
		s := shape.set(op.SelectionSet)
		if s.depth > b.maxDepth {
			return refusal(op.Position, "the operation nests fields %d deep, more than the limit of %d", s.depth, b.maxDepth)
		}
		total = addShapes(total, s)
		total.depth = 0
	}
	if total.fields > b.maxFields {
		return refusal(nil, "the document selects %s fields and fragments once its fragments are expanded, more than the limit of %d",
			countText(total.fields), b.maxFields)
	}
	for _, op := range doc.Operations {
		keys := responseKeys{fields: newFieldWalk(doc.Fragments), count: map[string]int{}}
		keys.add("", op.SelectionSet)
		if key, n := keys.most(); n > b.maxSameName {
			return refusal(op.Position, "%d fields answer as %s, more than the limit of %d", n, key, b.maxSameName)
		}
		if err := introspectionProblem(doc.Fragments, op); err != nil {
			return err
		}
		if err := scansProblem(doc.Fragments, op); err != nil {
			return err
		}
		again := repeats{schema: b.schema, fields: newFieldWalk(doc.Fragments), first: map[string]string{}}
		again.add("", rootType(b.schema, op.Operation), false, op.SelectionSet)
		if f := again.found; f != nil {
			return refusal(f.Position, "%s is selected as both %s and %s: a field without arguments answers the same under each name; select it once",
				f.Name, again.before, f.Alias)
		}
	}
	return nil
}

// Introspection answers from the schema, which no complexity counts: one
// __schema answers the whole schema (GraphiQL's query, about 200 KB and
// 20 ms of CPU; at most about 500 KB at the depth the validator allows),
// and each __type one type of it. A client needs the schema once a
// request; more would answer megabytes at no cost to the document.
var introspectionLimits = map[string]int{"__schema": 1, "__type": 10}

// introspectionProblem refuses an operation that selects __schema under
// more keys of the response than introspectionLimits allows, or __type,
// whatever fragments put them there. Fields under one key
// answer once, merged.
func introspectionProblem(fragments ast.FragmentDefinitionList, op *ast.OperationDefinition) *gqlerror.Error {
	found := keyedFields(fragments, op, func(f *ast.Field, _ string) string {
		if _, ok := introspectionLimits[f.Name]; ok {
			return f.Name
		}
		return ""
	})
	for _, name := range []string{"__schema", "__type"} {
		if fields, limit := found[name], introspectionLimits[name]; len(fields) > limit {
			return refusal(fields[limit].Position, "the operation selects %s %d times, more than the limit of %d: each answers from the whole schema; "+
				"introspect it with one __schema, or at most %d __type, an operation", name, len(fields), limit, introspectionLimits["__type"])
		}
	}
	return nil
}

// keyedFields walks op's selections, fragments expanded, and lists under
// each class that classify gives a field of parent's value ("" for none)
// the first field met under each key of the response: fields under one
// key answer once, merged.
func keyedFields(fragments ast.FragmentDefinitionList, op *ast.OperationDefinition, classify func(f *ast.Field, parent string) string) map[string][]*ast.Field {
	walk := newFieldWalk(fragments)
	found := map[string][]*ast.Field{}
	seen := map[[2]string]bool{}
	var add func(path, parent string, set ast.SelectionSet)
	add = func(path, parent string, set ast.SelectionSet) {
		walk.each(set, "", func(f *ast.Field, _ string) bool {
			key := responseKey(path, f)
			if class := classify(f, parent); class != "" && !seen[[2]string{class, key}] {
				seen[[2]string{class, key}] = true
				found[class] = append(found[class], f)
			}
			add(key, f.Name, f.SelectionSet)
			return true
		})
	}
	add("", "", op.SelectionSet)
	return found
}

// maxScans is how many lists an operation may search by name, or count
// or filter where they hold millions: each of those reads the whole list,
// or for a filtered page of the audit log up to 20,000 of its events,
// whatever the page size that complexity counts (a search among 100,000
// policies takes up to a second on SQLite, a count of the audit log more),
// and the fields of an operation run at once, holding the database's
// connections. A screen searches or counts two or three.
const maxScans = 5

// scansProblem refuses an operation that selects, under more keys of the
// response than maxScans, a list searched by name (a query argument that
// is not null), the totalCount of the audit log or of decisions, or the
// audit log filtered by action, kind or actor (which reads up to the
// service's ListScan events of each of its stores past those that do not
// match), whatever fragments put them there.
func scansProblem(fragments ast.FragmentDefinitionList, op *ast.OperationDefinition) *gqlerror.Error {
	scans := keyedFields(fragments, op, func(f *ast.Field, parent string) string {
		if readsWholeList(f, parent) {
			return "scan"
		}
		return ""
	})["scan"]
	if len(scans) > maxScans {
		return refusal(scans[maxScans].Position, "the operation searches by name, counts or filters the audit log or decisions under %d names, "+
			"more than the limit of %d: each reads a whole list; ask for the others in another request", len(scans), maxScans)
	}
	return nil
}

// readsWholeList tells whether f, a field of parent's value, is one of the
// fields scansProblem counts. An audit filter given as a variable counts,
// whatever it holds; one written out counts when it filters by action,
// kind or actor, not by base or time, which the log's indexes find.
func readsWholeList(f *ast.Field, parent string) bool {
	switch f.Name {
	case "totalCount":
		return parent == "auditEvents" || parent == "decisions"
	case "auditEvents":
		filter := f.Arguments.ForName("filter")
		if filter == nil || filter.Value.Kind == ast.NullValue {
			return false
		}
		if filter.Value.Kind != ast.ObjectValue {
			return true
		}
		for _, c := range filter.Value.Children {
			if c.Name == "action" || c.Name == "kind" || c.Name == "actor" {
				return true
			}
		}
		return false
	}
	query := f.Arguments.ForName("query")
	return query != nil && query.Value.Kind != ast.NullValue
}

// repeats looks, below a field with arguments, for a field without
// arguments selected under two names of one selection. Both would answer
// the same value, and below a run that value may be its whole answer (raw,
// trace, data): a few kilobytes of such names would answer gigabytes, each
// encoded anew. Fields at the top of an operation, which fetch nothing
// large, may be named twice. A selection's fragments count as the
// selection itself when they always apply to it (a fragment on its own
// type, or on an interface or a union its object type belongs to); those
// on a narrower type apart from it, as a type condition tells which of
// them apply. The document is not validated yet: a field the schema does
// not know has no type, and the fragments below it count apart.
type repeats struct {
	schema *ast.Schema
	fields fieldWalk
	// first is the first name of each field in each selection: keyed by
	// the selection's path, type condition and the field's name.
	first  map[string]string
	found  *ast.Field // the first field found selected again
	before string     // the name it was selected under before
}

// add walks the selection set at path, of the type typ, below a field
// with arguments or not, and reports whether it found no field selected
// again.
func (r *repeats) add(path, typ string, below bool, set ast.SelectionSet) bool {
	return r.fields.each(set, "", func(f *ast.Field, typeCondition string) bool {
		in, scope := typ, ""
		if typeCondition != "" {
			in = typeCondition
			if !alwaysApplies(r.schema, typ, typeCondition) {
				scope = typeCondition
			}
		}
		if below && len(f.Arguments) == 0 {
			at := typeScope(path, scope) + "\x00" + f.Name
			if first, ok := r.first[at]; !ok {
				r.first[at] = f.Alias
			} else if first != f.Alias {
				r.found, r.before = f, first
				return false
			}
		}
		return r.add(responseKey(path, f), fieldType(r.schema, in, f.Name), below || len(f.Arguments) > 0, f.SelectionSet)
	})
}

// rootType is the name of the type an operation selects from.
func rootType(schema *ast.Schema, op ast.Operation) string {
	root := schema.Query
	switch op {
	case ast.Mutation:
		root = schema.Mutation
	case ast.Subscription:
		root = schema.Subscription
	}
	if root == nil {
		return ""
	}
	return root.Name
}

// fieldType is the name of the type of the field name of the type typ;
// "" when the schema has no such field.
func fieldType(schema *ast.Schema, typ, name string) string {
	def := schema.Types[typ]
	if def == nil {
		return ""
	}
	f := def.Fields.ForName(name)
	if f == nil {
		return ""
	}
	return f.Type.Name()
}

// alwaysApplies reports whether a fragment on typeCondition applies to
// every value of the type typ.
func alwaysApplies(schema *ast.Schema, typ, typeCondition string) bool {
	if typ == typeCondition {
		return true
	}
	def, cond := schema.Types[typ], schema.Types[typeCondition]
	if def == nil || cond == nil || def.Kind != ast.Object {
		return false
	}
	return slices.ContainsFunc(schema.GetPossibleTypes(cond), func(d *ast.Definition) bool { return d.Name == typ })
}

// typeScope is the selection at path as a type condition narrows it.
func typeScope(path, typeCondition string) string {
	if typeCondition == "" {
		return path
	}
	return path + "|" + typeCondition
}

// responseKey is the path of response names to f, a field of the
// selection at path.
func responseKey(path string, f *ast.Field) string {
	if path == "" {
		return f.Alias
	}
	return path + "." + f.Alias
}

// responseKeys counts the fields that answer under each key of an
// operation's response, as validation merges them: fragments expanded, and
// the selections of fields under one key together. A key is the path of
// response names from the operation down, such as viewer.role.
type responseKeys struct {
	fields fieldWalk
	count  map[string]int
}

func (k *responseKeys) add(path string, set ast.SelectionSet) {
	k.fields.each(set, "", func(f *ast.Field, _ string) bool {
		key := responseKey(path, f)
		k.count[key]++
		k.add(key, f.SelectionSet)
		return true
	})
}

// most is the key most fields answer under, and their number.
func (k *responseKeys) most() (string, int) {
	var key string
	n := 0
	for kk, c := range k.count {
		if c > n || c == n && kk < key {
			key, n = kk, c
		}
	}
	return key, n
}

// documentShape is what documentBounds measures of a selection set.
type documentShape struct {
	fields int // fields and fragments selected, fragments expanded, saturating at maxCount
	depth  int // deepest nesting of fields
}

// maxCount is where field counts stop growing: a document that spreads
// fragments exponentially would overflow an int.
const maxCount = 1 << 40

// fieldShape is a field and those nested in it. The introspection fields
// __schema and __type count one level: below them the validator's own
// introspection depth rule applies.
func fieldShape(f *ast.Field, inner func() documentShape) documentShape {
	s := inner()
	if strings.HasPrefix(f.Name, "__") {
		return documentShape{fields: min(1+s.fields, maxCount), depth: 1}
	}
	return documentShape{fields: min(1+s.fields, maxCount), depth: 1 + s.depth}
}

// fragmentShape is an inline fragment or a fragment spread: it counts as a
// field, so that a document of fragments spreading each other without a
// field of their own (in a cycle, which validation refuses later) is
// bounded when expanded too.
func fragmentShape(inner documentShape) documentShape {
	return documentShape{fields: min(1+inner.fields, maxCount), depth: inner.depth}
}

func addShapes(a, b documentShape) documentShape {
	return documentShape{fields: min(a.fields+b.fields, maxCount), depth: max(a.depth, b.depth)}
}

func countText(n int) string {
	if n >= maxCount {
		return "more than a trillion"
	}
	return strconv.Itoa(n)
}

// refusal is an error for a document refused before it is validated. It
// is marked as a validation failure, so that it is answered with the
// status of one; presentError gives it the code invalid_argument.
func refusal(pos *ast.Position, format string, args ...any) *gqlerror.Error {
	err := gqlerror.Errorf(format, args...)
	if pos != nil {
		err = gqlerror.ErrorPosf(pos, format, args...)
	}
	errcode.Set(err, errcode.ValidationFailed)
	return err
}
