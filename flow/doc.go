// Package flow decodes, validates and runs flow definitions: small acyclic
// decision graphs whose start and policy nodes evaluate stored policies
// against one input and branch on the result (docs/flows.md).
//
// Definitions arrive in several forms — the stored v1 JSON, and the
// reference's nested YAML, UI graph and flat YAML — and are all converted
// to one Definition on input, so that validation and the runner deal with
// a single shape. Validate lists every problem for a stage (save, publish,
// run); Prepare validates for running once and yields a Plan, which runs
// any number of inputs depth-first, stopping fail closed at the first node
// that cannot be evaluated. Run does both for a single run.
//
// The package knows nothing of storage, users or HTTP: a PolicyResolver
// supplied by the caller finds the compiled policies.
package flow
