package graph_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/internal/dbtest"
)

// A long value a client sends is quoted by its first engine.MaxQuoted
// characters in each error that names it, so that a document that uses it
// in 50 fields answers 50 short errors rather than 50 copies of it.
func TestErrorsQuoteOnlyTheStartOfALongValue(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		long := strings.Repeat("z", 1_000_000)
		digits := strings.Repeat("9", 1_000_000)
		var ids, runs strings.Builder
		for i := range 50 {
			ids.WriteString(" a" + strconv.Itoa(i) + ": policy(id: $x) { id }")
		}
		for i := range 60 {
			runs.WriteString(" r" + strconv.Itoa(i) + `: runRule(input: {rule: \"x\", data: $d}) { result }`)
		}
		for _, tc := range []struct {
			name, body, quoted string
		}{
			{"an id", `{"query": "query($x: ID!) {` + ids.String() + ` }", "variables": {"x": "` + long + `"}}`,
				`id "` + strings.Repeat("z", engine.MaxQuoted) + `…" is not a valid id`},
			{"a number in data", `{"query": "mutation($d: JSON!) {` + runs.String() + ` }", "variables": {"d": {"n": ` + digits + `}}}`,
				"data holds the number " + strings.Repeat("9", engine.MaxQuoted) + "… (at byte"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := jsonRequest(tc.body)
				r.Header.Set("x-api-key", adminKey)
				w := httptest.NewRecorder()
				f.graph.ServeHTTP(w, r)
				if w.Code != http.StatusOK || w.Body.Len() > 64<<10 {
					t.Fatalf("status %d, %d bytes; want 200 and at most 64 KiB: %.300s", w.Code, w.Body.Len(), w.Body)
				}
				var res response
				if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil {
					t.Fatal(err)
				}
				if len(res.Errors) < 50 {
					t.Fatalf("%d errors, want one a field: %.300v", len(res.Errors), res.Errors)
				}
				for _, e := range res.Errors[:50] {
					if !strings.Contains(e.Message, tc.quoted) || utf8.RuneCountInString(e.Message) > 500 {
						t.Fatalf("message %.300q, want one of at most 500 characters quoting %q", e.Message, tc.quoted)
					}
				}
			})
		}
	})
}

// An error in an argument's value is on the path of the field whose
// argument it is: a path names a field of the response.
func TestAnErrorInAnArgumentIsOnItsFieldsPath(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		for _, query := range []string{
			`{ decisions(filter: {baseId: "nope"}) { totalCount } }`,
			`{ policy(id: "nope") { id } }`,
		} {
			r := f.post(t, adminKey, query, nil)
			field := strings.Fields(query)[1]
			field = field[:strings.IndexByte(field, '(')]
			if len(r.Errors) != 1 || !slices.Equal(r.Errors[0].Path, []any{field}) {
				t.Errorf("%s: errors %+v, want one on the path [%s]", query, r.Errors, field)
			}
		}
	})
}
