// Package graphqltest holds the GraphQL documents built to cost a server
// the most their size allows, for the graph package's tests and benchmarks
// and for cmd/graphqlload, which sends them to a running server.
package graphqltest

import (
	"fmt"
	"strings"

	"github.com/verdict/verdict/graph"
)

// Document is a document built to cost a GraphQL server as much as its
// size allows, at one stage or another. Errors is how many errors the
// response lists with the default limits.
type Document struct {
	Name, Query string
	Errors      int
}

// Refused are refused before they are validated, with one error.
func Refused() []Document {
	return []Document{
		// 28 KB: every pair of fields conflicts, so validation would
		// report millions of conflicts.
		{"2,000 pairs of conflicting aliases", "{" + strings.Repeat("x:__typename x:viewer{role} ", 2000) + "}", 1},
		{"16,000 fields of the same name", "{" + strings.Repeat("viewer{role} ", 16000) + "}", 1},
		{"9,000 fields of the same name, under the token limit", "{" + strings.Repeat("__typename ", 9000) + "}", 1},
		{"fragments spreading the next twice, 2^22 fields", fanOut(22), 1},
		{"fragments spreading the next twice, 2^30 fields", fanOut(30), 1},
		{"fragments spreading the next twice, 2^60 fields", fanOut(60), 1},
		{"fragments spreading the next twice in a cycle, no field", cyclicFanOut(60), 1},
		{"fields nested 900 deep", strings.Repeat("{a", 900) + strings.Repeat("}", 900), 1},
		{"a thousand operations", strings.Repeat("query{viewer{role}}", 1000), 1},
		{"333 pairs of conflicting aliases, under the field limit", "{" + strings.Repeat("x:__typename x:viewer{role} ", 333) + "}", 1},
		{"300 fragments conflicting with each other", "{" + numbered("...F%d ", 300) + "}" +
			numbered("fragment F%[1]d on Query{x:__typename x:viewer{role}}", 300), 1},
		{"900 fragments of distinct fields", distinctFragments(900), 1},
		// 12 KB answering 10 MB: introspection answers from the schema,
		// which complexity does not count.
		{"58 aliases of __schema", "{" + numbered("s%d:__schema{types{description fields{description args{description type{description}} "+
			"type{description ofType{description}}} inputFields{description} enumValues{description}}} ", 58) + "}", 1},
	}
}

// Costly pass the document bounds and are validated, and answered when
// valid. Each costs about the most a document of its kind may cost: most
// have close to the most fields allowed, and validation finds far more
// errors in them than are shown.
func Costly() []Document {
	shown := graph.DefaultMaxErrors + 1
	return []Document{
		{"conflicting aliases at the limits", conflictingAliases(), shown},
		// Introspection only, so that running it asks the service nothing;
		// fields under one key answer one __schema, which the limit of
		// introspection allows.
		{"fields of the same name at the limits", "{" + strings.Repeat("__schema{queryType{name}} ", 50) +
			numbered("s%d:__typename ", 849) + "}", 0},
		{"the whole schema, introspected as deep as allowed", deepestIntrospection(), 0},
		{"unknown fields at the field limit", "{" + numbered("f%d ", 999) + "}", shown},
		{"fragments conflicting with each other at the limits", conflictingFragments(), shown},
		{"200 fragments of distinct fields", distinctFragments(200), 0},
		{"a field with 2,000 arguments", "{viewer(" + strings.Repeat("a:1 ", 2000) + "){role}}", shown},
		{"a field with 1,400 directives", "{__typename" + strings.Repeat(" @skip(if:false)", 1400) + "}", shown},
		{"values nested 900 deep", "{viewer(a:" + strings.Repeat("[", 900) + strings.Repeat("]", 900) + "){role}}", 1},
	}
}

// deepestIntrospection selects every field of each type of the schema, and
// of the types their fields, arguments and input fields have, as deep as
// the validator allows lists of types to nest (fields, interfaces,
// possibleTypes and inputFields, two deep): about 500 KB answered.
func deepestIntrospection() string {
	ref := "name description ofType{name description ofType{name description ofType{name}}} enumValues{name description}"
	inner := "fields{name description deprecationReason args{name description defaultValue type{" + ref + "}} type{" + ref + "}} " +
		"interfaces{" + ref + "} possibleTypes{" + ref + "} inputFields{name description defaultValue type{" + ref + "}} enumValues{name description}"
	outer := "name description fields{name description args{name description defaultValue type{" + ref + " " + inner + "}} type{" + ref + " " + inner + "}} " +
		"interfaces{" + inner + "} possibleTypes{" + inner + "} inputFields{name description type{" + ref + " " + inner + "}} enumValues{name description}"
	return "{__schema{types{" + outer + "}}}"
}

// fanOut is a document of n fragments, each spreading the next twice:
// under 30 bytes a level, it selects 2^n fields once expanded.
func fanOut(n int) string {
	var b strings.Builder
	b.WriteString("{...F0}")
	for i := range n {
		fmt.Fprintf(&b, "fragment F%d on Query{...F%d ...F%d}", i, i+1, i+1)
	}
	fmt.Fprintf(&b, "fragment F%d on Query{__typename}", n)
	return b.String()
}

// numbered repeats format n times, with the numbers 0 to n-1.
func numbered(format string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

// All are the refused and the costly documents together.
func All() []Document {
	return append(Refused(), Costly()...)
}

// conflictingAliases has 25 pairs of conflicting fields under each of 13
// keys: 50 fields under each, 975 in all.
func conflictingAliases() string {
	var b strings.Builder
	b.WriteString("{")
	for k := range 13 {
		for range 25 {
			fmt.Fprintf(&b, "x%[1]d:__typename x%[1]d:viewer{role} ", k)
		}
	}
	b.WriteString("}")
	return b.String()
}

// conflictingFragments has 200 fragments, each a pair of conflicting
// fields, 25 under each of 8 keys, so that validation compares the
// fragments pairwise.
func conflictingFragments() string {
	var spreads, fragments strings.Builder
	for k := range 8 {
		for j := range 25 {
			fmt.Fprintf(&spreads, "...F%d_%d ", k, j)
			fmt.Fprintf(&fragments, "fragment F%[1]d_%[2]d on Query{x%[1]d:__typename x%[1]d:viewer{role}}", k, j)
		}
	}
	return "{" + spreads.String() + "}" + fragments.String()
}

// distinctFragments spreads n fragments, each selecting one field of its
// own, so that validation compares n*n/2 pairs of fragments.
func distinctFragments(n int) string {
	return "{" + numbered("...F%d ", n) + "}" + numbered("fragment F%[1]d on Query{a%[1]d:__typename}", n)
}

// cyclicFanOut is fanOut whose last fragment spreads the first, twice: it
// selects no field at all, and expanding it would never end.
func cyclicFanOut(n int) string {
	var b strings.Builder
	b.WriteString("{...F0}")
	for i := range n {
		fmt.Fprintf(&b, "fragment F%d on Query{...F%d ...F%d}", i, (i+1)%n, (i+1)%n)
	}
	return b.String()
}
