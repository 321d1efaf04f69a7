package engine_test

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/verdict/verdict/engine"
)

// docBlock is a fenced block of docs/errors.md, with the data block and
// the `Result:` line that follow a rule block.
type docBlock struct {
	lang, text string
	data       string
	result     string
	errorKind  string
	// explanation, when the document shows it, is the run's explanation.
	explanation string
}

// docSection is a `###` section of docs/errors.md and its blocks.
type docSection struct {
	title  string
	blocks []*docBlock
}

var (
	resultLine = regexp.MustCompile(`^Result: (true|false)$`)
	errorLine  = regexp.MustCompile(`^Error: (.+)$`)
	explained  = regexp.MustCompile(`^Explanation: (.+)$`)
)

func readErrorsDoc(t *testing.T) []*docSection {
	t.Helper()
	raw, err := os.ReadFile("../docs/errors.md")
	if err != nil {
		t.Fatal(err)
	}
	var sections []*docSection
	var cur *docSection
	var last *docBlock
	lines := strings.Split(string(raw), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.HasPrefix(line, "### "):
			cur = &docSection{title: strings.Trim(strings.TrimPrefix(line, "### "), "`")}
			sections = append(sections, cur)
			last = nil
		case strings.HasPrefix(line, "```") && cur != nil:
			lang := strings.TrimPrefix(line, "```")
			var body []string
			for i++; i < len(lines) && lines[i] != "```"; i++ {
				body = append(body, lines[i])
			}
			text := strings.Join(body, "\n")
			if lang == "json data" && last != nil && last.lang == "rule" {
				last.data = text
				continue
			}
			last = &docBlock{lang: lang, text: text}
			cur.blocks = append(cur.blocks, last)
		case resultLine.MatchString(line) && last != nil:
			last.result = resultLine.FindStringSubmatch(line)[1]
		case errorLine.MatchString(line) && last != nil:
			last.errorKind = errorLine.FindStringSubmatch(line)[1]
		case explained.MatchString(line) && last != nil:
			last.explanation = explained.FindStringSubmatch(line)[1]
		}
	}
	return sections
}

// run evaluates a rule block against its data and checks the stated result.
func (b *docBlock) run(t *testing.T) *engine.Result {
	t.Helper()
	var data map[string]any
	if err := json.Unmarshal([]byte(b.data), &data); err != nil {
		t.Fatalf("data of %q: %v", b.text, err)
	}
	var eng engine.Engine
	res := eng.Run(b.text, data)
	res.Explain()
	if b.explanation != "" && res.Explanation != b.explanation {
		t.Errorf("%q on %s is explained\n%s\nthe document says\n%s", b.text, b.data, res.Explanation, b.explanation)
	}
	if b.errorKind != "" {
		if res.Error == nil || !strings.HasPrefix(res.Error.Message, b.errorKind+":") {
			t.Errorf("%q on %s gives error %v, the document says %s", b.text, b.data, res.Error, b.errorKind)
		}
		return res
	}
	if b.result == "" || (b.result == "true") != res.Result {
		t.Errorf("%q on %s = %v (error %v), the document says %q", b.text, b.data, res.Result, res.Error, b.result)
	}
	return res
}

func hasWarning(res *engine.Result, code string) bool {
	for _, w := range res.Warnings {
		if w.Code == code {
			return true
		}
	}
	return false
}

func hasDiagnostic(res engine.CheckResult, code string) bool {
	for _, d := range res.Diagnostics {
		if d.Code == code {
			return true
		}
	}
	return false
}

func TestErrorsDocumentEveryKindAndCodeWithWorkingExamples(t *testing.T) {
	sections := map[string]*docSection{}
	for _, s := range readErrorsDoc(t) {
		sections[s.title] = s
	}
	kinds := []string{"Parse error", "Missing selector", "Missing property", "Unresolved reference", "Type error", "Evaluation error"}
	for _, kind := range kinds {
		s := sections[kind]
		if s == nil || len(s.blocks) == 0 || s.blocks[0].data == "" {
			t.Errorf("docs/errors.md has no example for %s", kind)
			continue
		}
		for _, b := range s.blocks {
			if b.data == "" {
				continue
			}
			if res := b.run(t); res.Error == nil || !strings.HasPrefix(res.Error.Message, kind+":") {
				t.Errorf("%s example gives error %v", kind, res.Error)
			}
		}
	}
	for _, code := range engine.DiagnosticCodes {
		s := sections[code]
		if s == nil {
			t.Errorf("docs/errors.md does not document diagnostic %s", code)
			continue
		}
		if code == engine.CodeLimit {
			continue // an example would be 256 KiB long
		}
		var texts []*docBlock
		for _, b := range s.blocks {
			if b.lang == "text" {
				texts = append(texts, b)
			}
		}
		if len(texts) < 2 {
			t.Errorf("%s: want a text block with the mistake and one with the fix", code)
			continue
		}
		check := engine.Check
		for _, b := range s.blocks {
			if b.lang == "json schema" {
				check = func(src string) engine.CheckResult { return engine.CheckWithSchema(src, []byte(b.text)) }
			}
		}
		mistake, fix := texts[0], texts[1]
		if !hasDiagnostic(check(mistake.text), code) {
			t.Errorf("%s: the mistake %q does not give it: %+v", code, mistake.text, check(mistake.text).Diagnostics)
		}
		if d := check(fix.text).Diagnostics; len(d) != 0 {
			t.Errorf("%s: the fix %q still has diagnostics %+v", code, fix.text, d)
		}
	}
	for _, code := range engine.WarningCodes {
		s := sections[code]
		if s == nil || len(s.blocks) < 2 || s.blocks[0].data == "" || s.blocks[1].data == "" {
			t.Errorf("docs/errors.md needs a run giving warning %s and its fix", code)
			continue
		}
		if res := s.blocks[0].run(t); !hasWarning(res, code) {
			t.Errorf("%s: the example gives warnings %+v", code, res.Warnings)
		}
		if res := s.blocks[1].run(t); len(res.Warnings) != 0 {
			t.Errorf("%s: the fix still gives warnings %+v", code, res.Warnings)
		}
	}
}
