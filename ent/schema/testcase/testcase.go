// Package testcase holds the shape of the tests stored with a record. It lives
// apart from the schema so generated code can import it without importing the
// schema definitions.
package testcase

import "encoding/json"

// Case is one stored test: run the record on Data and expect Expect.
type Case struct {
	Name   string          `json:"name"`
	Data   json.RawMessage `json:"data"`
	Expect json.RawMessage `json:"expect"`
}
