package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/agnivade/levenshtein"

	"github.com/verdict/verdict/engine"
)

// didYouMean is ` (did you mean "x"?)` for the name of names closest to
// name, when one is near enough to be what the caller meant: the same but
// for case, underscores and dashes (baseID, base_id), or a slip of a
// letter or two in a name of some length (limt); "" otherwise.
func didYouMean(name string, names []string) string {
	fold := func(s string) string { return strings.ToLower(separators.Replace(s)) }
	folded := fold(name)
	best, bestDistance := "", 0
	for _, n := range names {
		d := levenshtein.ComputeDistance(folded, fold(n))
		if best == "" || d < bestDistance {
			best, bestDistance = n, d
		}
	}
	// A slip is at most a third of the name, so that short names (q) are
	// not suggested for anything.
	if best == "" || bestDistance > 2 || 3*bestDistance > len(best) {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// separators are what didYouMean ignores in names, besides case.
var separators = strings.NewReplacer("_", "", "-", "")

// listed is names as a sentence lists them: "a", "a and b", "a, b and c".
func listed(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// documentedQueries maps each route of openapi.json, as its pattern reads
// ("GET /decisions"), to the query parameters the document gives it.
var documentedQueries = queryParameters(openAPIDocument)

// queryParameters reads the query parameters of every operation of an
// OpenAPI document, following references to its shared parameters. The
// document is embedded and its tests check it, so a document that does not
// read is a fault of the build.
func queryParameters(doc []byte) map[string][]string {
	type parameter struct {
		Ref  string `json:"$ref"`
		Name string `json:"name"`
		In   string `json:"in"`
	}
	var d struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Parameters map[string]parameter `json:"parameters"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		panic("rest: openapi.json does not decode: " + err.Error())
	}
	out := map[string][]string{}
	for path, item := range d.Paths {
		for method, raw := range item {
			var op struct {
				Parameters []parameter `json:"parameters"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				panic(fmt.Sprintf("rest: openapi.json: %s %s: %v", method, path, err))
			}
			names := []string{}
			for _, p := range op.Parameters {
				if p.Ref != "" {
					p = d.Components.Parameters[strings.TrimPrefix(p.Ref, "#/components/parameters/")]
				}
				if p.In == "query" {
					names = append(names, p.Name)
				}
			}
			out[strings.ToUpper(method)+" "+path] = names
		}
	}
	return out
}

// knownQuery refuses a request whose query names a parameter the route
// does not read (400): a misspelt filter would otherwise be ignored, and a
// list answered whole as if it had been applied.
func (s *server) knownQuery(pattern string, names []string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery != "" {
			if err := onlyQueryNames(r.URL.Query(), pattern, names); err != nil {
				s.writeError(w, r, err)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// onlyQueryNames says which of q's parameters the route of pattern does
// not read, if any.
func onlyQueryNames(q url.Values, pattern string, names []string) error {
	var unknown []string
	for name := range q {
		if !slices.Contains(names, name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	reads := pattern + " reads no query parameters"
	if len(names) > 0 {
		reads = pattern + " reads " + listed(names)
	}
	if len(unknown) > 1 {
		return invalid("unknown query parameters %s; %s", listed(quoted(unknown)), reads)
	}
	return invalid("unknown query parameter %q%s; %s", engine.Quoted(unknown[0]), didYouMean(unknown[0], names), reads)
}

// quoted is each name in Go's quotes.
func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fmt.Sprintf("%q", engine.Quoted(n))
	}
	return out
}
