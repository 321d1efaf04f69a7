package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/verdict/verdict/engine"
)

func TestAMissingNameSuggestsTheClosestNameOfTheData(t *testing.T) {
	const senior = `A **Person** gets senior discount if the __age__ of the **Person** is at least 65.`
	tests := []struct {
		name, rule, data, message, nearest string
	}{
		{"a selector misspelt in the data", senior, `{"Persn": {"age": 70}}`,
			"Missing selector: selector 'Person' not found in data", "Persn"},
		{"a property misspelt in the data", senior, `{"Person": {"agee": 70, "name": "Ada"}}`,
			"Missing property: property 'age' not found at $.Person", "agee"},
		{"a property misspelt in the rule, matched ignoring case, spaces and underscores",
			`A **Applicant** gets credit if the __montly income__ of the **Applicant** is at least 3000.`,
			`{"Applicant": {"monthlyIncome": 5200, "debt_ratio": 0.2}}`,
			"Missing property: property 'montly income' not found at $.Applicant", "monthlyIncome"},
		{"a selector named by a reference", `A **Person** gets senior discount if the **Persn** passes the age check.`,
			`{"Person": {"passes the age check": true}}`,
			"Missing selector: selector 'Persn' not found in data", "Person"},
		{"of equally close names, the first in byte order", senior, `{"Person": {"agee": 70, "ag": 1, "aged": 2}}`,
			"Missing property: property 'age' not found at $.Person", "ag"},
		{"no name close enough", senior, `{"Person": {"name": "Ada", "years": 70}}`,
			"Missing property: property 'age' not found at $.Person", ""},
		{"names of two letters have none", `A **P** is ok if the __id__ of the **P** is at least 1.`, `{"P": {"ix": 1}}`,
			"Missing property: property 'id' not found at $.P", ""},
		{"an accented letter is one change", `A **s** is ok if the __cafe__ of the **s** is at least 1.`,
			`{"s": {"café": 1}}`, "Missing property: property 'cafe' not found at $.s", "café"},
		{"case is ignored beyond ASCII", `A **s** is ok if the __café__ of the **s** is at least 1.`,
			`{"s": {"CAFÉ": 1, "other": 2}}`, "Missing property: property 'café' not found at $.s", "CAFÉ"},
		{"no object to search", `A **Person** is ok if the __x__ of the __name__ of the **Person** is at least 1.`,
			`{"Person": {"name": "x"}}`, "Missing property: property 'x' not found at $.Person.name", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 20 { // the data's keys come in a new order each time
				res := fixedEngine().Run(tt.rule, mustData(t, tt.data))
				res.Explain()
				if res.Error == nil || res.Error.Message != tt.message || res.Error.Nearest != tt.nearest {
					t.Fatalf("error %+v, want %q with the nearest name %q", res.Error, tt.message, tt.nearest)
				}
				suggestion := fmt.Sprintf(`. Did you mean %q? It is the closest name there.`, tt.nearest)
				if got := strings.HasSuffix(res.Explanation, tt.message+suggestion); got != (tt.nearest != "") {
					t.Fatalf("explanation %q", res.Explanation)
				}
				if tt.nearest == "" && !strings.HasSuffix(res.Explanation, tt.message+".") {
					t.Fatalf("explanation %q", res.Explanation)
				}
			}
		})
	}
}

func TestTheSearchForTheClosestNameIsBounded(t *testing.T) {
	const senior = `A **Person** gets senior discount if the __age__ of the **Person** is at least 65.`
	keys := []string{`"agee": 70`}
	for i := range 64 {
		keys = append(keys, fmt.Sprintf(`"k%d": %d`, i, i))
	}
	res := fixedEngine().Run(senior, mustData(t, `{"Person": {`+strings.Join(keys, ", ")+`}}`))
	if res.Error == nil || res.Error.Nearest != "" {
		t.Errorf("an object of 65 keys was searched: %+v", res.Error)
	}
	res = fixedEngine().Run(senior, mustData(t, `{"Person": {`+strings.Join(keys[:64], ", ")+`}}`))
	if res.Error == nil || res.Error.Nearest != "agee" {
		t.Errorf("an object of 64 keys was not searched: %+v", res.Error)
	}
	long := strings.Repeat("a", 32)
	rule := `A **Person** is ok if the __` + long + `__ of the **Person** is at least 1.`
	for data, want := range map[string]string{
		`{"Person": {"` + long + `b": 1}}`:     "",
		`{"Person": {"` + long[1:] + `b": 1}}`: long[1:] + "b",
	} {
		if res := fixedEngine().Run(rule, mustData(t, data)); res.Error == nil || res.Error.Nearest != want {
			t.Errorf("%s: %+v, want the nearest name %q", data, res.Error, want)
		}
	}
}

func TestAReferenceNoOutcomeMatchesSuggestsTheClosestOutcome(t *testing.T) {
	const eye = "A **Person** passes the eye test if the __vision__ of the **Person** is at least 6.\n"
	tests := []struct {
		name, rule, nearest string
	}{
		{"a misspelt outcome", eye + "A **Person** gets a licence if the **Person** passes the eye tst.", "passes the eye test"},
		{"ignoring case", eye + "A **Person** gets a licence if the **Person** Passes The Eye Tset.", "passes the eye test"},
		{"of equally close outcomes, the first rule's", eye +
			"A **Person** passes the dye test if the __hearing__ of the **Person** is at least 6.\n" +
			"A **Person** gets a licence if the **Person** passes the bye test.", "passes the eye test"},
		{"ignoring articles", eye + "A **Person** is adult if the __vision__ of the **Person** is at least 1.\n" +
			"A **Person** gets a licence if the **Person** is an adlt.", "is adult"},
		{"no outcome close enough", eye + "A **Person** gets a licence if the **Person** passes the driving test.", ""},
		{"not the rule the reference stands in", "A **Person** passes the eye test if the **Person** passes the eye tst.", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := fixedEngine().Run(tt.rule, mustData(t, `{"Person": {"vision": 8, "hearing": 7}}`))
			res.Explain()
			if res.Error == nil || res.Error.Kind != engine.KindUnresolvedReference || res.Error.Nearest != tt.nearest {
				t.Fatalf("error %+v, want an unresolved reference with the nearest outcome %q", res.Error, tt.nearest)
			}
			suggestion := fmt.Sprintf(`. Did you mean %q? It is the closest outcome of a rule.`, tt.nearest)
			if got := strings.HasSuffix(res.Explanation, res.Error.Message+suggestion); got != (tt.nearest != "") {
				t.Fatalf("explanation %q", res.Explanation)
			}
		})
	}
}

func TestTheSearchForTheClosestOutcomeIsBounded(t *testing.T) {
	// Each of these phrases costs the search some 960 steps: the first 68
	// rules are compared, the rest not.
	rules := func(close int) string {
		var b strings.Builder
		for i := range 100 {
			outcome := fmt.Sprintf("passes the check number %08d", i)
			if i == close {
				outcome = "passes the vision examination"
			}
			fmt.Fprintf(&b, "A **P** %s if the __x__ of the **P** is at least %d.\n", outcome, i)
		}
		b.WriteString("A **P** gets a licence if the **P** passes the vision examinaton.")
		return b.String()
	}
	for close, want := range map[int]string{10: "passes the vision examination", 90: ""} {
		res := fixedEngine().Run(rules(close), mustData(t, `{"P": {"x": 1000}}`))
		if res.Error == nil || res.Error.Kind != engine.KindUnresolvedReference || res.Error.Nearest != want {
			t.Errorf("the close outcome in rule %d: %+v, want the nearest outcome %q", close+1, res.Error, want)
		}
	}
	long := "passes the " + strings.Repeat("very ", 9) + "long check"
	misspelt := strings.Replace(long, "long", "lung", 1)
	res := fixedEngine().Run("A **P** "+long+" if the __x__ of the **P** is at least 1.\nA **P** is ok if the **P** "+misspelt+".",
		mustData(t, `{"P": {"x": 1}}`))
	if res.Error == nil || res.Error.Kind != engine.KindUnresolvedReference || res.Error.Nearest != "" {
		t.Errorf("a phrase of %d bytes was compared: %+v", len(long), res.Error)
	}
	short := "passes the " + strings.Repeat("very ", 8) + "long check"
	res = fixedEngine().Run("A **P** "+short+" if the __x__ of the **P** is at least 1.\nA **P** is ok if the **P** "+strings.Replace(short, "long", "lung", 1)+".",
		mustData(t, `{"P": {"x": 1}}`))
	if res.Error == nil || res.Error.Nearest != short {
		t.Errorf("a phrase of %d bytes was not compared: %+v", len(short), res.Error)
	}
}

func TestALabelNoRuleHasSuggestsTheClosestLabel(t *testing.T) {
	const admin = "admin. A **user** is admin if the __role__ of the **user** is equal to \"admin\".\n" +
		"owner. A **user** is owner if the __role__ of the **user** is equal to \"owner\".\n"
	tests := []struct {
		name, rule, warning string
	}{
		{"a misspelt label", admin + "A **user** gets access if §admn is valid or §owner is valid.",
			"§admn names no rule, so that condition counted as false. Did you mean §admin?"},
		{"ignoring case", admin + "A **user** gets access if §Admn is valid or §owner is valid.",
			"§Admn names no rule, so that condition counted as false. Did you mean §admin?"},
		{"no label close enough", admin + "A **user** gets access if §editor is valid or §owner is valid.",
			"§editor names no rule, so that condition counted as false."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := fixedEngine().Run(tt.rule, mustData(t, `{"user": {"role": "owner"}}`))
			res.Explain()
			if len(res.Warnings) != 1 || res.Warnings[0].Code != "unresolved-label" || res.Warnings[0].Message != tt.warning {
				t.Errorf("warnings %+v, want %q", res.Warnings, tt.warning)
			}
		})
	}
}

func TestTheSearchForTheClosestLabelIsBounded(t *testing.T) {
	// Each label costs the search some 290 steps: about the first 225 are
	// compared, the rest not.
	rules := func(close int) string {
		var b strings.Builder
		for i := range 900 {
			label := fmt.Sprintf("check%011d", i)
			if i == close {
				label = "visionexamination"
			}
			fmt.Fprintf(&b, "%s. A **P** passes %s if the __x__ of the **P** is at least %d.\n", label, label, i)
		}
		b.WriteString("A **P** gets a licence if §visionexaminaton is valid.")
		return b.String()
	}
	for close, want := range map[int]string{10: " Did you mean §visionexamination?", 500: ""} {
		res := fixedEngine().Run(rules(close), mustData(t, `{"P": {"x": 1000}}`))
		res.Explain()
		if len(res.Warnings) != 1 || res.Warnings[0].Message != "§visionexaminaton names no rule, so that condition counted as false."+want {
			t.Errorf("the close label in rule %d: error %v, warnings %+v", close+1, res.Error, res.Warnings)
		}
	}
}
