// Package model holds the Go side of the GraphQL schema that service and
// engine types do not cover: the scalars (JSON, UUID ids, times, timings
// written as strings), the run result and its trace as the schema shapes
// them (a union for conditions, plain strings for names), the policy inputs
// with their translation into service changes, and connections. gqlgen.yml
// binds the rest of the schema to service and engine types directly.
package model
