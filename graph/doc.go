// Package graph serves Verdict's GraphQL API (api.md, "GraphQL"), built
// with gqlgen: the schema in *.graphqls, resolvers that call the service
// and nothing else, and the executable schema gqlgen generates from them
// into graph/generated (regenerate with `go generate ./graph`).
//
// Errors carry the API's codes in `extensions.code`, as REST carries them
// in its error body; operations are bounded in depth and complexity before
// anything runs.
package graph
