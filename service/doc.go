// Package service is Verdict's application layer. Every entry point, REST,
// GraphQL and the command line, calls it; it holds the business rules:
// who the caller is and in which tenant, what they may do (asked of the
// authorizer, failing closed), what is stored and in which transaction
// (through the storage package, which owns the queries), and evaluation.
//
// Errors leave the package as *Error values with a Code from the list in
// docs/endpoints.md; the adapters turn them into HTTP statuses and GraphQL error codes.
package service
