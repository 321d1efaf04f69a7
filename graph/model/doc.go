// Package model holds the Go side of the GraphQL schema that service and
// engine types do not cover: the JSON scalar, timings written as strings,
// and the run result and its trace as the schema shapes them (a union for
// conditions, plain strings for names). gqlgen.yml binds the rest of the
// schema to service and engine types directly.
package model
