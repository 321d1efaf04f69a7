package graph_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
)

// A value of the wrong type in the document is refused saying where it
// stands and quoting only its start: the validator's own message quotes
// all of it, however long, and says only its line and column.
func TestValidationErrorsOfValuesSayWhereAndQuoteLittle(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		var keys strings.Builder
		for i := range 2000 {
			fmt.Fprintf(&keys, "k%d: %d, ", i, i)
		}
		for _, tc := range []struct{ name, query, want string }{
			{"a list for an input object", `mutation { runRule(input: [{rule: "x", data: {` + keys.String() + `}}]) { result } }`,
				`the argument input of runRule: Expected value of type "RunRuleInput!", found [{rule:"x",data:{k0:0,k1:1,k2:2,k3:3,k4:….`},
			{"null for a required field", `mutation { runRule(input: {rule: null, data: {}}) { result } }`,
				`the argument input of runRule, at rule: Expected value of type "String!", found null.`},
			{"in a list", `mutation { createPolicy(input: {name: "n", rule: "r", tests: [{name: "t", data: {}, expect: true}, {name: "u", data: {}, expect: "yes"}]}) { policy { id } } }`,
				`the argument input of createPolicy, at tests[1].expect: Boolean cannot represent a non boolean value: "yes"`},
			{"in a directive", `{ viewer @include(if: "` + strings.Repeat("x", 100) + `") { role } }`,
				`the argument if of @include: Boolean cannot represent a non boolean value: "` + strings.Repeat("x", 39) + `…`},
			{"in a variable's default value", `query($f: AuditFilter = {action: created}) { auditEvents(filter: $f) { totalCount } }`,
				`the default value of $f, at action: Value "created" does not exist in "AuditAction" enum. Did you mean the enum value "CREATED"?`},
			{"a long name", `{ ` + strings.Repeat("x", 2000) + ` }`, `Cannot query field "` + strings.Repeat("x", 479) + `…`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if e := f.post(t, adminKey, tc.query, nil).refused(t); e.Message != tc.want {
					t.Errorf("message %.600q,\nwant    %q", e.Message, tc.want)
				}
			})
		}
	})
}
