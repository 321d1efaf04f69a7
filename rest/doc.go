// Package rest is Verdict's HTTP surface (docs/endpoints.md): it decodes a
// request, calls the service and encodes the answer. It holds no business
// rule; those live in package service.
//
// Every route runs behind the same middleware, outermost first: request id
// (X-Request-Id on every response: a sane incoming one is reused, else a
// UUIDv7 is made; the request's context holds it, internal/requestid, for
// the log lines), observation (metrics and the access log, placed here so
// that they see the status a recovered panic produces), panic recovery,
// body size limit (whose body, once read, is charged to the bound on what
// the bodies of all requests under way hold, internal/bodies, until the
// request ends), and for routes that need a key, authentication and the
// per-key rate limit.
//
// Routes that need no key: GET /healthz, GET /readyz, GET /metrics,
// GET /openapi.json (the API's own description, openapi.json beside this
// file), GET /playground and the files its page loads. An unknown or
// non-canonical path answers 404 not_found;
// a known path with another method answers 405 with the code
// invalid_argument (the API's list of codes has no entry of its own for it)
// and an Allow header. Neither asks for a key: the route table is public.
//
// Request bodies are decoded strictly: one JSON object in UTF-8, member
// names exactly as documented (case matters, none twice), nothing after it,
// and a Content-Type, when given, of application/json or a +json type.
//
// Metrics: verdict_http_requests_total{route,status} and
// verdict_http_request_duration_seconds{route}, where route is the matched
// ServeMux pattern ("POST /run") or "unmatched", never the raw path.
package rest
