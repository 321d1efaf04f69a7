// Package graph serves Verdict's GraphQL API (docs/endpoints.md, "GraphQL"), built
// with gqlgen: the schema in *.graphqls, resolvers that call the service
// and nothing else, and the executable schema gqlgen generates from them
// into graph/generated (regenerate with `go generate ./graph`).
//
// Errors carry the API's codes in `extensions.code`, as REST carries them
// in its error body. Documents are bounded before anything runs
// (docs/graphql.md): in tokens, in fields (fragments expanded) and depth
// before they are validated, in errors, in the arguments of lists (every
// connection's first, 1–200, its cursor and its text filter), and in
// complexity, where a connection costs its page size times what is
// selected in it. Variables are checked against their declared types
// before anything runs. node(id) finds objects through the service's own
// lookups, so it sees exactly what the queries of each kind see.
package graph
