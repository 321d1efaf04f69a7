package service

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/verdict/verdict/storage"
)

func TestMaskInputHidesWhatItsPathsReach(t *testing.T) {
	cases := []struct {
		name, input string
		mask        []string
		want        string
		hidden      []string
	}{{
		name:   "a member as spelled",
		input:  `{"Person":{"ssn":"123","age":70}}`,
		mask:   []string{"$.Person.ssn"},
		want:   `{"Person":{"age":70,"ssn":"[masked]"}}`,
		hidden: []string{"123"},
	}, {
		name:   "every spelling a rule reads, at every step",
		input:  `{"person":{"SSN":"1","s_s_n":"2","Ssn ":"3","ssn2":"4"}}`,
		mask:   []string{"$.Person.ssn"},
		want:   `{"person":{"SSN":"[masked]","Ssn ":"[masked]","s_s_n":"[masked]","ssn2":"4"}}`,
		hidden: []string{"1", "2", "3"},
	}, {
		name:   "each element of a list",
		input:  `{"P":{"cards":[{"number":11},{"number":22},{"other":33}]}}`,
		mask:   []string{"$.P.cards.number"},
		want:   `{"P":{"cards":[{"number":"[masked]"},{"number":"[masked]"},{"other":33}]}}`,
		hidden: []string{"11", "11", "11", "22", "22", "22"},
	}, {
		name:   "a whole member hides what another path reaches within it, keys too",
		input:  `{"P":{"a":{"b":"x","c":true}}}`,
		mask:   []string{"$.P.a.b", "$.P.a"},
		want:   `{"P":{"a":"[masked]"}}`,
		hidden: []string{"b", "c", "true", "x"},
	}, {
		name:   "names with quotes and brackets, as rules read them",
		input:  `{"Applicant":{"driver's licence":"D1","a\"b":"q","x[a]":"z","x":["k"]}}`,
		mask:   []string{"$.Applicant.driver's licence", `$.Applicant.a"b`, "$.Applicant.x[a]"},
		want:   `{"Applicant":{"a\"b":"[masked]","driver's licence":"[masked]","x":["k"],"x[a]":"[masked]"}}`,
		hidden: []string{"D1", "q", "z"},
	}, {
		name:  "a path the input does not have",
		input: `{"P":{"a":1}}`,
		mask:  []string{"$.Q.a", "$.P.a.b"},
		want:  `{"P":{"a":1}}`,
	}, {
		name:   "a value without text, and each element of a list",
		input:  `{"P":{"a":null,"b":{},"c":[],"l":[{"a":null},{"a":[]}]}}`,
		mask:   []string{"$.P.a", "$.P.b", "$.P.c", "$.P.l.a"},
		want:   `{"P":{"a":"[masked]","b":"[masked]","c":"[masked]","l":[{"a":"[masked]"},{"a":"[masked]"}]}}`,
		hidden: nil,
	}, {
		// A run reads the last of repeated members; the earlier ones, as
		// sent, are stored nowhere.
		name:   "a member repeated, the last without text",
		input:  `{"Person":{"ssn":"123","ssn":null}}`,
		mask:   []string{"$.Person.ssn"},
		want:   `{"Person":{"ssn":"[masked]"}}`,
		hidden: nil,
	}, {
		name:  "an object repeated, the last without the path",
		input: `{"Person":{"ssn":"123"},"Person":{"age":3}}`,
		mask:  []string{"$.Person.ssn"},
		want:  `{"Person":{"age":3}}`,
	}, {
		name:  "a value already masked",
		input: `{"P":{"a":"[masked]"}}`,
		mask:  []string{"$.P.a"},
		want:  `{"P":{"a":"[masked]"}}`,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mask, err := parseMask(c.mask)
			if err != nil {
				t.Fatal(err)
			}
			out, hidden, err := maskInput(json.RawMessage(c.input), mask)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != c.want {
				t.Errorf("masked %s, want %s", out, c.want)
			}
			slices.Sort(hidden)
			if !slices.Equal(hidden, c.hidden) {
				t.Errorf("hidden %q, want %q", hidden, c.hidden)
			}
		})
	}
}

// BenchmarkMaskManyPathsOverALongList masks with 64 paths a list of
// 120,000 objects, 1 MB: each object's members are read once for all the
// paths.
func BenchmarkMaskManyPathsOverALongList(b *testing.B) {
	var in strings.Builder
	in.WriteString(`{"P":{"l":[`)
	for i := range 120_000 {
		if i > 0 {
			in.WriteByte(',')
		}
		in.WriteString(`{"ab":1}`)
	}
	in.WriteString(`]}}`)
	paths := []string{"$.P.l.ab"}
	for i := 1; i < MaxMaskPaths; i++ {
		paths = append(paths, fmt.Sprintf("$.P.l.x%d", i))
	}
	mask, err := parseMask(paths)
	if err != nil {
		b.Fatal(err)
	}
	raw := json.RawMessage(in.String())
	for b.Loop() {
		if _, hidden, err := maskInput(raw, mask); err != nil || len(hidden) != 3*120_000 {
			b.Fatalf("%d hidden, %v", len(hidden), err)
		}
	}
}

// FuzzMaskInput masks any JSON object with any mask path: the answer is
// JSON, and masking it again hides nothing more.
func FuzzMaskInput(f *testing.F) {
	f.Add(`{"Person":{"ssn":"1","SSN":[2,{"x":3}]}}`, "$.Person.ssn")
	f.Add(`{"a":[{"b":{"c":true}},{"B":null}]}`, "$.a.b.c")
	f.Add(`{"first name":"Ann","firstName":"Bo"}`, "$.First_Name")
	f.Fuzz(func(t *testing.T, input, path string) {
		if !json.Valid([]byte(input)) || !strings.HasPrefix(strings.TrimSpace(input), "{") {
			return
		}
		mask, err := parseMask([]string{path})
		if err != nil {
			return
		}
		once, _, err := maskInput(json.RawMessage(input), mask)
		if err != nil {
			t.Fatalf("%s: %v", input, err)
		}
		if !json.Valid(once) {
			t.Fatalf("masked %s into %s, not JSON", input, once)
		}
		if _, hidden, err := maskInput(once, mask); err != nil || len(hidden) != 0 {
			t.Fatalf("masking %s again hid %q (%v)", once, hidden, err)
		}
	})
}

func TestARecordMaskedAgainHidesWhatTheNewMaskReaches(t *testing.T) {
	row := func(explanation string, cut bool) *decisionRow {
		return &decisionRow{input: `{"Person":{"age":70,"pin":"4711","ssn":"[masked]"}}`, explanation: explanation, cut: cut}
	}
	d := row(`Person gets flagged: no — the pin of the Person is "4711", which is not "0000"`, false)
	extra := map[string]any{"error": `pin "4711" unread`, "errors": []string{"node 1: 4711", "node 2: 70"}}
	if !d.remask([]string{"$.Person.ssn", "$.Person.pin"}, extra) {
		t.Fatal("a mask that parses is refused")
	}
	if want := `{"Person":{"age":70,"pin":"[masked]","ssn":"[masked]"}}`; d.input != want {
		t.Errorf("input %s, want %s", d.input, want)
	}
	if want := `Person gets flagged: no — the pin of the Person is "[masked]", which is not "0000"`; d.explanation != want {
		t.Errorf("explanation %q, want %q", d.explanation, want)
	}
	if got := fmt.Sprint(extra); got != `map[error:pin "[masked]" unread errors:[node 1: [masked] node 2: 70]]` {
		t.Errorf("the event's errors: %s", got)
	}

	cut := row(strings.Repeat("x", 100)+cutExplanation, true)
	if !cut.remask([]string{"$.Person.pin"}, nil) || cut.explanation != strings.TrimPrefix(cutExplanation, " ") {
		t.Errorf("a cut explanation masked again is %q, want the note of the cut alone", cut.explanation)
	}
	// An error cut where a value now masked begins keeps nothing of it.
	failed := row("x", false)
	cutError := strings.Repeat("y", MaxStoredExplanation-len(cutExplanation)-2) + `"4711"` + cutExplanation
	failed.err, failed.errCut = &cutError, true
	if !failed.remask([]string{"$.Person.pin"}, nil) || *failed.err != strings.TrimPrefix(cutExplanation, " ") {
		t.Errorf("a cut error masked again is %q, want the note of the cut alone", (*failed.err)[len(*failed.err)-100:])
	}
	// So does an event's error cut there.
	cutEvent := map[string]any{"error": eventErrorText(strings.Repeat("y", MaxStoredExplanation) + `"4711"`)}
	if !row("x", false).remask([]string{"$.Person.pin"}, cutEvent) || cutEvent["error"] != "… (cut at 16 KiB)" {
		t.Errorf("an event's cut error masked again is %.60q, want the note of the cut alone", cutEvent["error"])
	}
	whole, text := row("x", false), `pin "4711" unread`
	whole.err = &text
	if !whole.remask([]string{"$.Person.pin"}, nil) || *whole.err != `pin "[masked]" unread` {
		t.Errorf("an error masked again is %q", *whole.err)
	}
	if bad := row("", false); bad.remask([]string{"Person.pin"}, nil) {
		t.Error("a mask that does not parse masks the record again")
	}
}

// recordingsOf is a store of decision records whose bases' settings are
// now as given; it keeps the bases it was asked about.
type recordingsOf struct {
	storage.DecisionWrites
	now   map[uuid.UUID]storage.Recording
	asked []uuid.UUID
}

func (r *recordingsOf) Recordings(ctx context.Context, bases []uuid.UUID) (map[uuid.UUID]storage.Recording, error) {
	r.asked = append(r.asked, bases...)
	return r.now, nil
}

func TestEventsAreHeldToTheSettingsOfTheirBasesWhenStored(t *testing.T) {
	off, plain, masked, gone, quiet := uuid.New(), uuid.New(), uuid.New(), uuid.New(), uuid.New()
	store := &recordingsOf{now: map[uuid.UUID]storage.Recording{
		off: {}, plain: {Enabled: true, Mask: []string{}}, masked: {Enabled: true, Mask: []string{"$.Person.pin"}}}}
	event := func(base uuid.UUID, decided bool, extra map[string]any) queued {
		q := queued{Execution: storage.Execution{BaseID: base, Extra: extra}}
		if decided {
			q.decision = &decisionRow{input: `{"Person":{"pin":"4711"}}`, explanation: `the pin is "4711"`}
			q.Extra["decisionId"] = "d"
		}
		return q
	}
	batch := []queued{
		event(off, true, map[string]any{"error": "pin 4711"}),
		event(plain, true, map[string]any{"error": "pin 4711"}),
		event(masked, true, map[string]any{"error": "pin 4711"}),
		event(masked, false, map[string]any{"errors": []string{"node 1: pin 4711", "node 2"}}),
		event(plain, false, map[string]any{"error": "pin 4711"}),
		event(gone, true, map[string]any{}),
		event(quiet, false, nil),
	}
	if err := underCurrentSettings(context.Background(), store, batch); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(store.asked, quiet) || len(store.asked) != 4 {
		t.Errorf("bases read %v: want each of the four with a record or an error once, and no other", store.asked)
	}
	for i, want := range []struct {
		decided     bool
		extra       string
		input, expl string
	}{
		{false, "map[error:pin 4711]", "", ""},
		{true, "map[decisionId:d error:pin 4711]", `{"Person":{"pin":"4711"}}`, `the pin is "4711"`},
		{true, "map[decisionId:d error:pin [masked]]", `{"Person":{"pin":"[masked]"}}`, `the pin is "[masked]"`},
		{false, "map[errors:[[masked] [masked]]]", "", ""},
		{false, "map[error:pin 4711]", "", ""},
		{false, "map[]", "", ""},
		{false, "map[]", "", ""},
	} {
		ev := batch[i]
		if got := fmt.Sprint(ev.Extra); (ev.decision != nil) != want.decided || got != want.extra {
			t.Errorf("event %d: recorded %v, extra %s; want %v, %s", i, ev.decision != nil, got, want.decided, want.extra)
		}
		if ev.decision != nil && (ev.decision.input != want.input || ev.decision.explanation != want.expl) {
			t.Errorf("event %d's record: %s, %q; want %s, %q", i, ev.decision.input, ev.decision.explanation, want.input, want.expl)
		}
	}
}

// A mask stored before steps such as * were refused when set still parses,
// and a base that has one goes on recording.
func TestAMaskStoredBeforeStricterChecksStillParses(t *testing.T) {
	for _, mask := range []string{"$.*", "$.Person._"} {
		if _, err := checkMask([]string{mask}); err == nil {
			t.Errorf("setting the mask %s is not refused", mask)
		}
		if _, err := parseMask([]string{mask}); err != nil {
			t.Errorf("the stored mask %s does not parse: %v", mask, err)
		}
	}
}

func TestAnEmptyMaskPathSaysSo(t *testing.T) {
	_, err := parseMask([]string{"$.a", ""})
	if want := "mask holds an empty path (or null): each path is $ and one or more .name steps, as in $.Person.ssn"; messageOf(err) != want {
		t.Errorf("error %v, want %q", err, want)
	}
}
