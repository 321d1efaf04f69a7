// Package service is Verdict's application layer. Every entry point, REST,
// GraphQL and the command line, calls it; it holds the business rules:
// who the caller is and in which tenant, what they may do (asked of the
// authorizer, failing closed), what is stored and in which transaction
// (through the storage package, which owns the queries), and evaluation.
//
// Its files go by area: identity and administration (principal, keys,
// identity, admin, operator); the lifecycle of policies and flows
// (lifecycle, reach, records, policies, flows, list, cursor, diff); runs (run,
// policy_runs, policy_tests, flow_runs, batch, flow_batch, cache, replay,
// budget, answers); groups; audit (audit, auditlog, execlog, retention,
// decisions, decisionmask). What they share: service, call, store,
// changes, authorize, errors, check, text, ids, metrics.
//
// Errors leave the package as *Error values with a Code from the list in
// docs/endpoints.md; the adapters turn them into HTTP statuses and GraphQL error codes.
package service
