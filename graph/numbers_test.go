package graph_test

import (
	"net/http"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// A JSON value sent as a variable keeps its numbers as written, and the
// service judges them as it judges REST's: a number larger than a rule
// can compare is refused in run data, and a long integer is kept whole.
func TestJSONVariablesKeepTheirNumbersAsWritten(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		const run = `mutation($d: JSON!) { runRule(input: {rule: "A **P** is ok if the __age__ of the **P** is at least 1.", data: $d}) { result data } }`
		res := f.send(t, adminKey, jsonRequest(`{"query": `+quote(run)+`, "variables": {"d": {"P": {"age": 1e400}}}}`))
		if e := res.nullFailure(t, "runRule", service.CodeInvalidArgument); e.Message != "data holds the number 1e400 (at byte 13), larger than any number a rule can compare (about 1.8e308)" {
			t.Errorf("1e400 in run data: %q", e.Message)
		}
		res = f.send(t, adminKey, jsonRequest(`{"query": `+quote(run)+`, "variables": {"d": {"P": {"age": 12345678901234567890123}}}}`))
		if string(res.Data) != `{"runRule":{"result":true,"data":{"P":{"age":12345678901234567890123}}}}` {
			t.Errorf("a long integer in run data: %s %+v", res.Data, res.Errors)
		}
		const create = `mutation($i: CreatePolicyInput!) { createPolicy(input: $i) { policy { tests { data } } } }`
		res = f.send(t, adminKey, jsonRequest(`{"query": `+quote(create)+`, "variables": {"i": {"name": "long", "rule": "A **P** is ok if the __age__ of the **P** is at least 1.",
			"tests": [{"name": "t", "data": {"P": {"age": 12345678901234567890123, "weight": 1.50}}, "expect": true}]}}}`))
		if string(res.Data) != `{"createPolicy":{"policy":{"tests":[{"data":{"P":{"age":12345678901234567890123,"weight":1.50}}}]}}}` {
			t.Errorf("stored test data: %s %+v", res.Data, res.Errors)
		}
	})
}

// A number the document itself writes is read as a 64-bit integer or
// floating-point number; one beyond their range is refused before
// anything runs, wherever it stands, with a pointer to variables.
func TestNumbersOutOfRangeInTheDocumentAreRefused(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		const hint = " cannot be written in the document, where a whole number is at most 9223372036854775807 in size and any other at most about 1.8e308; " +
			"send the value that holds it as a variable, whose numbers are read as JSON"
		for _, tc := range []struct{ name, query, want string }{
			{"in a JSON argument", `{ checkRule(rule: "x", schema: {maximum: 1e400}) { diagnostics { message } } }`, "the number 1e400" + hint},
			{"a long integer in a JSON argument", `{ checkRule(rule: "x", schema: {maximum: 123456789012345678901234}) { diagnostics { message } } }`,
				"the number 123456789012345678901234" + hint},
			{"in a variable's default value", `query($s: JSON = {maximum: -1e400}) { checkRule(rule: "x", schema: $s) { diagnostics { message } } }`, "the number -1e400" + hint},
			{"in an input object", `mutation { runRule(input: {rule: "x", data: {P: {age: 1e400}}}) { result } }`, "the number 1e400" + hint},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if e := f.post(t, adminKey, tc.query, nil).refused(t); e.Message != tc.want {
					t.Errorf("message %q,\nwant    %q", e.Message, tc.want)
				}
			})
		}
		res := f.post(t, adminKey, `mutation { runRule(input: {rule: "A **P** is ok if the __age__ of the **P** is at least 1.", data: {P: {age: 9223372036854775807, size: 1e308}}}) { data } }`, nil)
		if res.Status != http.StatusOK || string(res.Data) != `{"runRule":{"data":{"P":{"age":9223372036854775807,"size":1e+308}}}}` {
			t.Errorf("numbers within range: %d %s %+v", res.Status, res.Data, res.Errors)
		}
	})
}
