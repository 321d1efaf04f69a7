package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/verdict/verdict/engine"
)

// Exit statuses of `verdict eval`.
const (
	exitTrue   = 0
	exitFalse  = 1
	exitFailed = 2 // the text does not parse, or evaluation failed
	exitUsage  = 3 // bad flags, unreadable files, data that is not a JSON object
)

func newEvalCommand() *cobra.Command {
	var rulePath, ruleText, dataPath string
	var pretty, explain bool
	cmd := &cobra.Command{
		Use:   "eval --rule FILE|- --data FILE|-",
		Short: "Evaluate a rule text against JSON data and print the run result",
		Long: `Evaluate a rule text against a JSON object and print the policy run result,
the object POST /run returns for the same text and data, without timings.

Exit status: 0 when the result is true, 1 when it is false, 2 when the text
does not parse or evaluation fails, 3 on bad usage.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			src, raw, err := readEvalInput(cmd.InOrStdin(), rulePath, ruleText, cmd.Flags().Changed("rule-text"), dataPath)
			if err != nil {
				return err
			}
			data, err := engine.DecodeData(raw, engine.Limits{})
			if err != nil {
				return usageError("%s: %v", dataPath, err)
			}
			var eng engine.Engine
			res := eng.Run(src, data)
			// Echoed as the service echoes a run's data: as sent, compacted.
			res.Data = engine.DataText(raw)
			res.Explain()
			if explain {
				printExplanation(cmd.OutOrStdout(), res)
			} else if err := writeJSON(cmd.OutOrStdout(), res, pretty); err != nil {
				return &exitStatus{code: exitUsage, msg: err.Error()}
			}
			switch {
			case res.Error != nil:
				return &exitStatus{code: exitFailed}
			case !res.Result:
				return &exitStatus{code: exitFalse}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&rulePath, "rule", "", "file holding the rule text, or - for standard input")
	f.StringVar(&ruleText, "rule-text", "", "the rule text itself")
	f.StringVar(&dataPath, "data", "", "file holding the data (a JSON object), or - for standard input")
	f.BoolVar(&pretty, "pretty", false, "indent the JSON output")
	f.BoolVar(&explain, "explain", false, "print the result's explanation and warnings in plain English instead of JSON")
	return cmd
}

// readEvalInput reads the rule and the data. An empty --rule-text is a
// text like any other (which does not parse), not a missing flag.
func readEvalInput(stdin io.Reader, rulePath, ruleText string, textGiven bool, dataPath string) (string, []byte, error) {
	switch {
	case rulePath == "" && !textGiven:
		return "", nil, usageError("give the rule with --rule FILE or --rule-text TEXT")
	case rulePath != "" && textGiven:
		return "", nil, usageError("give the rule with --rule or --rule-text, not both")
	case dataPath == "":
		return "", nil, usageError("give the data with --data FILE")
	case rulePath == "-" && dataPath == "-":
		return "", nil, usageError("only one of --rule and --data can read standard input")
	}
	src := ruleText
	if rulePath != "" {
		b, err := readInput(stdin, rulePath)
		if err != nil {
			return "", nil, err
		}
		src = ruleFileText(b)
	}
	raw, err := readInput(stdin, dataPath)
	return src, withoutBOM(raw), err
}

// printExplanation writes the explanation, then each warning on a line.
func printExplanation(w io.Writer, res *engine.Result) {
	fmt.Fprintln(w, res.Explanation)
	for _, wn := range res.Warnings {
		fmt.Fprintf(w, "warning: %s [%s]\n", wn.Message, wn.Code)
	}
}

// utf8BOM is the byte-order mark some editors, Windows Notepad among
// them, write at the start of a UTF-8 file.
var utf8BOM = []byte("\uFEFF")

// ruleFileText is the rule text a file holds: without a leading
// byte-order mark, which is no part of the text, and which the language
// would read as the rule's first character.
func ruleFileText(b []byte) string {
	return string(withoutBOM(b))
}

// withoutBOM is a file's bytes without a leading byte-order mark, which
// JSON would refuse as a stray character.
func withoutBOM(b []byte) []byte {
	return bytes.TrimPrefix(b, utf8BOM)
}

// readInput reads a file eval, check or test was given, or standard
// input for -, and refuses it unless it is UTF-8 text: a file saved in
// another encoding would otherwise be read with its accented letters
// replaced, and never equal the data, or echoed as bytes no JSON reader
// accepts.
func readInput(stdin io.Reader, path string) ([]byte, error) {
	var b []byte
	var err error
	if path == "-" {
		b, err = io.ReadAll(stdin)
	} else {
		b, err = os.ReadFile(path)
	}
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, usageError("%s: %v", path, pe.Err)
		}
		return nil, usageError("%s: %v", path, err)
	}
	if err := checkUTF8(path, b); err != nil {
		return nil, err
	}
	return b, nil
}

// checkUTF8 refuses a file's bytes unless they are UTF-8, naming the first
// byte that is not by its offset from the start of the file (counted from
// 0, as hex editors show it) and its line.
func checkUTF8(path string, b []byte) error {
	if utf8.Valid(b) {
		return nil
	}
	at := 0
	for at < len(b) {
		r, size := utf8.DecodeRune(b[at:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		at += size
	}
	line := 1 + bytes.Count(b[:at], []byte("\n"))
	return usageError("%s is not UTF-8 text: the byte 0x%02X at offset %d (line %d) is not valid UTF-8; save the file as UTF-8", path, b[at], at, line)
}

// writeJSON writes v without HTML escaping, so parse errors read ` --> 1:5`
// rather than ` --\u003e 1:5`.
func writeJSON(w io.Writer, v any, pretty bool) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if pretty {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}
