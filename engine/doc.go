// Package engine parses, compiles and evaluates Verdict's plain-English rule
// language (docs/rules.md teaches it).
//
// The stages follow Go's own front end: a scanner that knows line and column
// positions, a recursive-descent parser that produces an AST, a compile step
// that resolves everything that does not depend on data (reference targets,
// the golden rule, key-name canonical forms, typed literals), and an
// evaluator that runs a compiled Program against a JSON object.
//
// A Program is immutable: compile it once and evaluate it from many
// goroutines. The package does no I/O and keeps no mutable globals.
package engine
