// Package jsonltest reads the JSON Lines corpora that tests and benchmarks
// share: one JSON object a line, such as engine/testdata's conformance,
// reference and bench cases.
package jsonltest

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// maxLine is the longest line a corpus may hold; the longest rule text of
// the corpora is far below it.
const maxLine = 1 << 20

// Read decodes every line of the file at path into a T, failing t on any
// error.
func Read[T any](t testing.TB, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var items []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, maxLine), maxLine)
	for sc.Scan() {
		var item T
		if err := json.Unmarshal(sc.Bytes(), &item); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		items = append(items, item)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return items
}
