// Package model holds the Go side of the GraphQL schema that service and
// engine types do not cover: the scalars (JSON, UUID ids, times, timings
// written as strings), the run result and its trace as the schema shapes
// them (a union for conditions, plain strings for names), the flow run
// result with its node responses, the inputs with their translation into
// the service's forms, connections, and the Node interface. gqlgen.yml
// binds the rest of the schema to service, engine and flow types directly.
package model
