package rest

import (
	_ "embed"
	"net/http"
	"strconv"
)

// openAPIDocument is the OpenAPI 3.1 description of every route, request
// and response of this package. It is written by hand; the package's tests
// check it is a valid document, that it lists exactly the routes mounted,
// and that every response they produce matches it.
//
//go:embed openapi.json
var openAPIDocument []byte

// openAPI is GET /openapi.json. It needs no key: the document describes the
// API, not anything of a tenant.
func (s *server) openAPI(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(openAPIDocument)))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	w.Write(openAPIDocument)
}
