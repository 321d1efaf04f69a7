package engine_test

import (
	"fmt"
	"strings"
	"testing"
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
