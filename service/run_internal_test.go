package service

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/verdict/verdict/engine"
)

func TestRunResultAppendJSONWritesWhatEncodingJSONWrites(t *testing.T) {
	var e engine.Engine
	run := e.Run("A **Person** gets <senior> & \"discount\" if the __age__ of the **Person** is at least 65.",
		map[string]any{"Person": map[string]any{"age": 70.0}})
	run.Explain()
	run.Data = json.RawMessage(`{"Person": {"age": 70}}`)
	execution := Execution{Orchestrator: Orchestrator{Go: 12, Database: 0, Total: 12}, Engine: 3456, Total: 1234567890123}
	for name, res := range map[string]*RunResult{
		"a run":            {Result: run, Execution: execution},
		"timings only":     {Execution: execution},
		"a zero execution": {Result: run},
	} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(res); err != nil {
			t.Fatal(err)
		}
		got, err := res.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(append(got, '\n'), want.Bytes()) {
			t.Fatalf("%s:\n got %s\nwant %s", name, got, want.Bytes())
		}
	}
}
