package engine_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/verdict/verdict/engine"
)

// diagnosticCases hold, for every diagnostic code, a text where it fires
// (with the range and suggestions it must give) and one where it does not.
var diagnosticCases = []struct {
	code        string
	fires       string
	severity    string
	rangeText   string // the text the range covers
	suggestions []string
	quiet       string
	schema      string // the JSON Schema of the data both texts are checked with, if any
}{
	{
		code:        engine.CodeParseError,
		fires:       "A **Person** gets a discount if the __age__ of the **Person** is at least 65 but.",
		severity:    engine.SeverityError,
		rangeText:   "but.",
		suggestions: []string{},
		quiet:       "A **Person** gets a discount if the __age__ of the **Person** is at least 65.",
	},
	{
		code:        engine.CodeUnknownOperator,
		fires:       "A **Person** gets senior discount if the __age__ of the **Person** is more than 65.",
		severity:    engine.SeverityError,
		rangeText:   "is more than",
		suggestions: []string{"is greater than"},
		quiet:       "A **Person** gets senior discount if the __age__ of the **Person** is greater than 65.",
	},
	{
		code:        engine.CodeThousandsSeparator,
		fires:       "A **Loan** is large if the __amount__ of the **Loan** is at least 1,000,000.",
		severity:    engine.SeverityError,
		rangeText:   "1,000,000",
		suggestions: []string{"1000000"},
		quiet:       "A **Loan** is large if the __amount__ of the **Loan** is at least 1000000.",
	},
	{
		code:        engine.CodeMissingFullStop,
		fires:       "A **Person** is an adult if the __age__ of the **Person** is at least 18\n\nA **Person** votes if the **Person** is an adult.",
		severity:    engine.SeverityError,
		rangeText:   "",
		suggestions: []string{"."},
		quiet:       "A **Person** is an adult if the __age__ of the **Person** is at least 18.\n\nA **Person** votes if the **Person** is an adult.",
	},
	{
		code:        engine.CodeLowercaseArticle,
		fires:       "an **Order** is free if the __total__ of the **Order** is equal to 0.",
		severity:    engine.SeverityError,
		rangeText:   "an",
		suggestions: []string{"An"},
		quiet:       "An **Order** is free if the __total__ of the **Order** is equal to 0.",
	},
	{
		code:        engine.CodeUnbalancedMarker,
		fires:       "A **Person** is an adult if the __age of the **Person** is at least 18.",
		severity:    engine.SeverityError,
		rangeText:   "__",
		suggestions: []string{},
		quiet:       "A **Person** is an adult if the __age__ of the **Person** is at least 18.",
	},
	{
		code:        engine.CodeInvalidDate,
		fires:       "A **Contract** is current if the __end__ of the **Contract** is later than 2024-02-30.",
		severity:    engine.SeverityError,
		rangeText:   "2024-02-30",
		suggestions: []string{},
		quiet:       "A **Contract** is current if the __end__ of the **Contract** is later than 2024-02-29.",
	},
	{
		code:        engine.CodeCountOperator,
		fires:       "A **Cart** is full if the number of __items__ of the **Cart** is in [1, 2].",
		severity:    engine.SeverityError,
		rangeText:   "is in",
		suggestions: []string{},
		quiet:       "A **Cart** is full if the number of __items__ of the **Cart** is at least 10.",
	},
	{
		code:        engine.CodeNoRules,
		fires:       "# Only a heading\n",
		severity:    engine.SeverityError,
		rangeText:   "",
		suggestions: []string{},
		quiet:       "# A heading\nA **Cart** is empty if the __items__ of the **Cart** is empty.",
	},
	{
		code:        engine.CodeLimit,
		fires:       strings.Repeat("# padding\n", 30000),
		severity:    engine.SeverityError,
		rangeText:   "",
		suggestions: []string{},
		quiet:       strings.Repeat("# padding\n", 100) + "A **Cart** is empty if the __items__ of the **Cart** is empty.",
	},
	{
		code:        engine.CodeUnknownLabel,
		fires:       "admin. A **user** is admin if the __role__ of the **user** is equal to \"admin\".\n\nA **user** gets access if §admn is valid.",
		severity:    engine.SeverityWarning,
		rangeText:   "§admn",
		suggestions: []string{"§admin"},
		quiet:       "admin. A **user** is admin if the __role__ of the **user** is equal to \"admin\".\n\nA **user** gets access if §admin is valid.",
	},
	{
		code:        engine.CodeUnresolvedReference,
		fires:       "A **P** passes the practical test if the __score__ of the **P** is at least 60.\n\nA **P** gets a licence if the **P** passes the practical tset.",
		severity:    engine.SeverityWarning,
		rangeText:   "passes the practical tset",
		suggestions: []string{"passes the practical test"},
		quiet:       "A **P** passes the practical test if the __score__ of the **P** is at least 60.\n\nA **P** gets a licence if the **P** passes the practical test.",
	},
	{
		code: engine.CodeDuplicateLabel,
		fires: "adult. A **P** is adult if the __age__ of the **P** is at least 18.\n\n" +
			"adult. A **P** is grown if the __age__ of the **P** is at least 21.\n\nA **P** is ok if §adult is valid.",
		severity:    engine.SeverityWarning,
		rangeText:   "adult",
		suggestions: []string{},
		quiet: "adult. A **P** is adult if the __age__ of the **P** is at least 18.\n\n" +
			"grown. A **P** is grown if the __age__ of the **P** is at least 21.\n\nA **P** is ok if §adult is valid.",
	},
	{
		code: engine.CodeNegatedReference,
		fires: "A **Applicant** is a smoker if the __cigarettes__ of the **Applicant** is greater than 0.\n\n" +
			"A **Applicant** gets the standard rate if the **Applicant** is not a smoker.",
		severity:    engine.SeverityError,
		rangeText:   "is not a smoker",
		suggestions: []string{},
		quiet: "A **Applicant** is a non-smoker if the __cigarettes__ of the **Applicant** is equal to 0.\n\n" +
			"A **Applicant** gets the standard rate if the **Applicant** is a non-smoker.",
	},
	{
		code: engine.CodeNegatedReference,
		fires: "A **P** passes the eye test if the __score__ of the **P** is at least 60.\n\n" +
			"A **P** gets glasses if the **P** fails the eye test.",
		severity:    engine.SeverityError,
		rangeText:   "fails the eye test",
		suggestions: []string{},
		quiet: "A **P** fails the eye test if the __score__ of the **P** is less than 60.\n\n" +
			"A **P** gets glasses if the **P** fails the eye test.",
	},
	{
		code: engine.CodeConditionInPhrase,
		fires: "A **Person** is eligible if the __age__ of the **Person** is at least 18.\n\n" +
			"A **Person** gets a loan if the **Person** is eligible and the score of the **Person** is at least 90.",
		severity:    engine.SeverityError,
		rangeText:   "score",
		suggestions: []string{"__score__"},
		quiet: "A **Person** is eligible if the __age__ of the **Person** is at least 18.\n\n" +
			"A **Person** gets a loan if the **Person** is eligible and the __score__ of the **Person** is at least 90.",
	},
	{
		code: engine.CodeConditionInPhrase,
		fires: "A **P** is eligible if the __age__ of the **P** is at least 18.\n\n" +
			"A **P** gets a loan if the **P** is eligible and has __guarantor__ of the **P**.",
		severity:    engine.SeverityError,
		rangeText:   "and has __guarantor__ of the **P**",
		suggestions: []string{},
		quiet: "A **P** is eligible if the __age__ of the **P** is at least 18.\n\n" +
			"A **P** gets a loan if the **P** is eligible and the __guarantor__ of the **P** is not empty.",
	},
	{
		code: engine.CodeWrongKeyword,
		fires: "A **P** is eligible if the __age__ of the **P** is at least 18.\n\n" +
			"A **P** gets a loan if the **P** is eligible AND the __score__ of the **P** is at least 90.",
		severity:    engine.SeverityError,
		rangeText:   "AND",
		suggestions: []string{"and"},
		quiet: "A **P** is eligible if the __age__ of the **P** is at least 18.\n\n" +
			"A **P** gets a loan if the **P** is eligible and the __score__ of the **P** is at least 90.",
	},
	{
		code:        engine.CodeWrongKeyword,
		fires:       "A **P** gets a loan if the __tier__ of the **P** is equal to gold Or the __score__ of the **P** is at least 90.",
		severity:    engine.SeverityError,
		rangeText:   "Or",
		suggestions: []string{"or"},
		quiet:       "A **P** gets a loan if the __tier__ of the **P** is equal to gold or the __score__ of the **P** is at least 90.",
	},
	{
		code: engine.CodeConditionInPhrase,
		fires: "A **P** passes the practical test if the __score__ of the **P** is at least 60.\n\n" +
			"A **P** gets a licence if the **P** passes the practical test and the age of the P is at least 17.",
		severity:    engine.SeverityError,
		rangeText:   "and the age of the P is at least 17",
		suggestions: []string{},
		quiet: "A **P** passes the practical test if the __score__ of the **P** is at least 60.\n\n" +
			"A **P** gets a licence if the **P** passes the practical test and the __age__ of the **P** is at least 17.",
	},
	{
		code: engine.CodeConditionInPhrase,
		fires: "A **P** is paid if the __paid__ of the **P** is equal to true.\n\n" +
			"A **P** ships if the **P** is paid and is at least 2 days old.",
		severity:    engine.SeverityError,
		rangeText:   "and is at least 2 days old",
		suggestions: []string{},
		// A phrase that names its rule exactly holds no condition.
		quiet: "A **P** is paid and is at least 2 days old if the __ready__ of the **P** is equal to true.\n\n" +
			"A **P** ships if the **P** is paid and is at least 2 days old.",
	},
	{
		code:        engine.CodeConnectiveInText,
		fires:       "A **x** is ok if the __state__ of the **x** is equal to OR WA.",
		severity:    engine.SeverityWarning,
		rangeText:   "is equal to OR WA",
		suggestions: []string{},
		// Oregon's code is a text of its own.
		quiet: "A **x** is ok if the __state__ of the **x** is equal to OR.",
	},
	{
		code:        engine.CodeWrongKeyword,
		fires:       "A **Person** gets a discount fi the __age__ of the **Person** is at least 65.",
		severity:    engine.SeverityError,
		rangeText:   "fi",
		suggestions: []string{"if"},
		quiet:       "A **Person** gets a discount if the __age__ of the **Person** is at least 65.",
	},
	{
		code:        engine.CodeParseError,
		fires:       "A *Person* gets a discount if the __age__ of the **Person** is at least 65.",
		severity:    engine.SeverityError,
		rangeText:   "*Person*",
		suggestions: []string{"**Person**"},
		quiet:       "A **Person** gets a discount if the __age__ of the **Person** is at least 65.",
	},
	{
		code: engine.CodeReferenceAsComparison,
		fires: "A **order** contains alcohol if the __categories__ of the **order** contains \"alcohol\".\n\n" +
			"A **order** needs age verification if the **order** contains alcohol.",
		severity:    engine.SeverityWarning,
		rangeText:   "contains alcohol",
		suggestions: []string{},
		quiet: "A **order** has alcohol if the __categories__ of the **order** contains \"alcohol\".\n\n" +
			"A **order** needs age verification if the **order** has alcohol.",
	},
	{
		code: engine.CodeNegatedReference,
		fires: "A **P** is ineligible if the __age__ of the **P** is less than 18.\n\n" +
			"A **P** gets a loan if the **P** is eligible.",
		severity:    engine.SeverityError,
		rangeText:   "is eligible",
		suggestions: []string{},
		quiet: "A **P** is eligible if the __age__ of the **P** is at least 18.\n\n" +
			"A **P** gets a loan if the **P** is eligible.",
	},
	{
		code: engine.CodeUnresolvedReference,
		// `lacks` names a data property here, as any verb may.
		fires:       "A **Doc** is rejected if the **Doc** lacks signature.",
		severity:    engine.SeverityWarning,
		rangeText:   "lacks signature",
		suggestions: []string{},
		quiet:       "A **Doc** is rejected if the __signature__ of the **Doc** is empty.",
	},
	{
		code: engine.CodeWrongKeyword,
		fires: "A **P** is eligible if the __age__ of the **P** is at least 18.\n\n" +
			"A **P** gets a loan if the **P** is eligible AND THE __score__ of the **P** is at least 90.",
		severity:    engine.SeverityError,
		rangeText:   "AND",
		suggestions: []string{"and"},
		quiet: "A **P** is eligible if the __age__ of the **P** is at least 18.\n\n" +
			"A **P** gets a loan if the **P** is eligible and the __score__ of the **P** is at least 90.",
	},
	{
		code: engine.CodeShadowedReference,
		fires: "A **Student** qualifies for a grant if the __income__ of the **Student** is less than 20000.\n\n" +
			"A **Student** gets a grant if the **Student** qualifies for a grant and the __applied__ of the **Student** is equal to true.",
		severity:    engine.SeverityError,
		rangeText:   "qualifies for a grant",
		suggestions: []string{},
		quiet: "A **Student** qualifies for a grant if the __income__ of the **Student** is less than 20000.\n\n" +
			"A **Student** gets the grant money if the **Student** qualifies for a grant and the __applied__ of the **Student** is equal to true.",
	},
	{
		code: engine.CodeLooseReference,
		fires: "A **Card** is revoked if the __status__ of the **Card** is equal to \"revoked\".\n\n" +
			"A **Card** is accepted if the **Card** is ok.",
		severity:    engine.SeverityWarning,
		rangeText:   "is ok",
		suggestions: []string{},
		quiet: "A **Card** is revoked if the __status__ of the **Card** is equal to \"revoked\".\n\n" +
			"A **Card** is accepted if the **Card** is revoked.",
	},
	{
		code: engine.CodeLooseReference,
		fires: "A **Card** is ok if the __status__ of the **Card** is equal to \"active\".\n\n" +
			"A **Card** is declined if the **Card** is broken.",
		severity:    engine.SeverityWarning,
		rangeText:   "is broken",
		suggestions: []string{},
		quiet: "A **Card** is ok if the __status__ of the **Card** is equal to \"active\".\n\n" +
			"A **Card** is declined if the **Card** is ok.",
	},
	{
		code:        engine.CodeBooleanCase,
		fires:       "A **user** is premium if the __is premium__ of the **user** is equal to True.",
		severity:    engine.SeverityWarning,
		rangeText:   "True",
		suggestions: []string{"true"},
		quiet:       "A **user** is premium if the __is premium__ of the **user** is equal to true.",
	},
	{
		code:        engine.CodeUnusedRule,
		fires:       "A **Person** is a minor if the __age__ of the **Person** is less than 18.\n\nA **Person** is an adult if the __age__ of the **Person** is at least 18.",
		severity:    engine.SeverityWarning,
		rangeText:   "A **Person**",
		suggestions: []string{},
		quiet:       "minor. A **Person** is a minor if the __age__ of the **Person** is less than 18.\n\nA **Person** is an adult if the __age__ of the **Person** is at least 18.",
	},
	{
		code:        engine.CodeTypeMismatch,
		fires:       "A **Person** is an adult if the __age__ of the **Person** is at least \"18\".",
		severity:    engine.SeverityWarning,
		rangeText:   `"18"`,
		suggestions: []string{"18"},
		quiet:       "A **Person** is an adult if the __age__ of the **Person** is at least 18.",
	},
	{
		code:        engine.CodeCircularReference,
		fires:       "A **x** passes the alpha check if the **x** passes the beta check.\n\nA **x** passes the beta check if the **x** passes the alpha check.",
		severity:    engine.SeverityError,
		rangeText:   "passes the beta check",
		suggestions: []string{},
		quiet:       "A **x** passes the alpha check if the **x** passes the beta check.\n\nA **x** passes the beta check if the __score__ of the **x** is at least 5.",
	},
	{
		code:        engine.CodeConnectiveInText,
		fires:       "A **Customer** is valued if the __tier__ of the **Customer** is equal to gold or silver.",
		severity:    engine.SeverityWarning,
		rangeText:   "is equal to gold or silver",
		suggestions: []string{"is in [gold, silver]"},
		quiet:       "A **Customer** is valued if the __tier__ of the **Customer** is in [gold, silver].",
	},
	{
		code:        engine.CodeWrongKeyword,
		fires:       "A **Person** is an adult If the __age__ of the **Person** is at least 18.",
		severity:    engine.SeverityError,
		rangeText:   "If",
		suggestions: []string{"if"},
		quiet:       "A **Person** is an adult if the __age__ of the **Person** is at least 18.",
	},
	{
		code:        engine.CodeUnknownCount,
		fires:       "A **Cart** is full if the count of __items__ of the **Cart** is at least 10.",
		severity:    engine.SeverityError,
		rangeText:   "count of",
		suggestions: []string{"number of"},
		quiet:       "A **Cart** is full if the number of __items__ of the **Cart** is at least 10.",
	},
	{
		code:        engine.CodeUnclosedQuote,
		fires:       "A **Person** is ada if the __name__ of the **Person** is equal to \"Ada.",
		severity:    engine.SeverityError,
		rangeText:   `"`,
		suggestions: []string{},
		quiet:       "A **Person** is ada if the __name__ of the **Person** is equal to \"Ada\".",
	},
	{
		code:        engine.CodeLabelWithSpaces,
		fires:       "Age Check. A **user** is old if the __age__ of the **user** is at least 80.\n\nA **user** gets access if §Age Check.",
		severity:    engine.SeverityError,
		rangeText:   "§Age Check",
		suggestions: []string{"the **user** is old"},
		quiet:       "Age Check. A **user** is old if the __age__ of the **user** is at least 80.\n\nA **user** gets access if the **user** is old.",
	},
	{
		code:        engine.CodeFullStopInOutcome,
		fires:       "A **user** gets Mr. Smith's approval if the __age__ of the **user** is at least 80.",
		severity:    engine.SeverityError,
		rangeText:   ".",
		suggestions: []string{},
		quiet:       "A **user** gets Mr Smith's approval if the __age__ of the **user** is at least 80.",
	},
	{
		code:        engine.CodeNotInSchema,
		fires:       "A **Applicant** gets credit if the __montly income__ of the **Applicant** is at least 3000.",
		severity:    engine.SeverityWarning,
		rangeText:   "montly income",
		suggestions: []string{"monthlyIncome"},
		quiet:       "A **Applicant** gets credit if the __monthly income__ of the **Applicant** is at least 3000.",
		schema: `{"type": "object", "properties": {"Applicant": {"type": "object",
			"properties": {"monthlyIncome": {"type": "number"}, "debtRatio": {"type": "number"}}}}}`,
	},
	{
		code:        engine.CodeSchemaTypeMismatch,
		fires:       "A **Person** is an adult if the __age__ of the **Person** is at least 18.",
		severity:    engine.SeverityWarning,
		rangeText:   "age",
		suggestions: []string{},
		quiet:       "A **Person** is an adult if the __years__ of the **Person** is at least 18.",
		schema: `{"type": "object", "properties": {"Person": {"type": "object",
			"properties": {"age": {"type": "string"}, "years": {"type": ["integer", "null"]}}}}}`,
	},
}

// textOf returns the text a range covers.
func textOf(src string, r engine.Range) string {
	lines := strings.SplitAfter(src, "\n")
	offset := func(p engine.Position) int {
		off := 0
		for i := 0; i < p.Line-1; i++ {
			off += len(lines[i])
		}
		line := lines[p.Line-1]
		col := 1
		for i := range line {
			if col == p.Column {
				return off + i
			}
			col++
		}
		return off + len(line)
	}
	return src[offset(r.Start):offset(r.End)]
}

func TestEveryDiagnosticCodeFiresAndStaysQuiet(t *testing.T) {
	for _, tc := range diagnosticCases {
		t.Run(tc.code, func(t *testing.T) {
			check := engine.Check
			if tc.schema != "" {
				check = func(src string) engine.CheckResult { return engine.CheckWithSchema(src, []byte(tc.schema)) }
			}
			got := check(tc.fires)
			found := withCode(got.Diagnostics, tc.code)
			if found == nil {
				t.Fatalf("Check(%q) = %+v, want a %s diagnostic", tc.fires, got.Diagnostics, tc.code)
			}
			if found.Severity != tc.severity {
				t.Errorf("severity %q, want %q", found.Severity, tc.severity)
			}
			if tc.code != engine.CodeLimit && tc.code != engine.CodeNoRules {
				if text := textOf(tc.fires, found.Range); text != tc.rangeText {
					t.Errorf("range %+v covers %q, want %q", found.Range, text, tc.rangeText)
				}
			}
			if !reflect.DeepEqual(found.Suggestions, tc.suggestions) {
				t.Errorf("suggestions %q, want %q", found.Suggestions, tc.suggestions)
			}
			if strings.Contains(found.Message, "-->") || strings.Contains(found.Message, "expected predicate") {
				t.Errorf("message %q speaks grammar", found.Message)
			}
			if quiet := check(tc.quiet); len(quiet.Diagnostics) != 0 {
				t.Errorf("Check(%q) = %+v, want no diagnostics", tc.quiet, quiet.Diagnostics)
			}
		})
	}
}

// withCode is the last of the diagnostics with the code, or nil.
func withCode(ds []engine.Diagnostic, code string) *engine.Diagnostic {
	var found *engine.Diagnostic
	for i := range ds {
		if ds[i].Code == code {
			found = &ds[i]
		}
	}
	return found
}

func TestCheckHasACaseForEveryCode(t *testing.T) {
	codes := map[string]bool{}
	for _, tc := range diagnosticCases {
		codes[tc.code] = true
	}
	for _, c := range engine.DiagnosticCodes {
		if !codes[c] {
			t.Errorf("code %s has no case", c)
		}
	}
	if len(codes) != len(engine.DiagnosticCodes) {
		t.Errorf("%d cases for %d codes", len(codes), len(engine.DiagnosticCodes))
	}
}

func TestCheckTokensColourARule(t *testing.T) {
	src := "# Loans\nsmall. A **loan** is approved\n  if the __amount__ of the **loan** is no more than 10000\n" +
		"  and the __start__ of the **loan** is later than 2024-01-01\n  and §other is valid\n" +
		"  and the **loan** passes the review. # checked\n"
	type tok struct{ kind, text string }
	var got []tok
	for _, tk := range engine.Check(src).Tokens {
		got = append(got, tok{tk.Kind, textOf(src, tk.Range)})
	}
	want := []tok{
		{"heading", "# Loans"}, {"label", "small"}, {"punctuation", "."}, {"keyword", "A"},
		{"selector", "**loan**"}, {"outcome", "is approved"}, {"keyword", "if"},
		{"keyword", "the"}, {"property", "__amount__"}, {"keyword", "of"}, {"keyword", "the"},
		{"selector", "**loan**"}, {"operator", "is no more than"}, {"number", "10000"},
		{"keyword", "and"}, {"keyword", "the"}, {"property", "__start__"}, {"keyword", "of"}, {"keyword", "the"},
		{"selector", "**loan**"}, {"operator", "is later than"}, {"date", "2024-01-01"},
		{"keyword", "and"}, {"reference", "§other"}, {"keyword", "is valid"},
		{"keyword", "and"}, {"keyword", "the"}, {"selector", "**loan**"}, {"reference", "passes the review"},
		{"punctuation", "."}, {"comment", "# checked"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tokens\n got %v\nwant %v", got, want)
	}
}

func TestCheckTokensColourCommentLinesInsideARule(t *testing.T) {
	src := "small.\n# a heading. A **x**\nA **loan** is\r\n  # only if new\r\n  approved\n  # see 12.3\n  if the **loan** passes the review."
	type tok struct{ kind, text string }
	var got []tok
	for _, tk := range engine.Check(src).Tokens {
		got = append(got, tok{tk.Kind, textOf(src, tk.Range)})
	}
	want := []tok{
		{"label", "small"}, {"punctuation", "."}, {"comment", "# a heading. A **x**"}, {"keyword", "A"},
		{"selector", "**loan**"}, {"outcome", "is"}, {"comment", "# only if new"}, {"outcome", "approved"},
		{"comment", "# see 12.3"}, {"keyword", "if"},
		{"keyword", "the"}, {"selector", "**loan**"}, {"reference", "passes the review"}, {"punctuation", "."},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tokens\n got %v\nwant %v", got, want)
	}
}

func TestCheckColumnsCountCodePoints(t *testing.T) {
	src := "A **Cafe** is open if the __état__ of the **Cafe** is more than 1."
	d := engine.Check(src).Diagnostics
	if len(d) != 1 {
		t.Fatalf("diagnostics %+v, want one", d)
	}
	want := engine.Range{Start: engine.Position{Line: 1, Column: 52}, End: engine.Position{Line: 1, Column: 64}}
	if d[0].Range != want {
		t.Errorf("range %+v, want %+v", d[0].Range, want)
	}
}

func TestCheckKeepsTheRunErrorText(t *testing.T) {
	var eng engine.Engine
	src := "A **Person** gets senior discount if the __age__ of the **Person** is more than 65."
	res := eng.Run(src, map[string]any{})
	if want := "Parse error:  --> 1:68\n  = expected predicate"; res.Error == nil || res.Error.Message != want {
		t.Errorf("run error %v, want %q", res.Error, want)
	}
}

// A misspelt comparison is suggested whole, before a synonym that covers
// fewer of its words (a bare `is` reads as `is equal to`).
func TestCheckSuggestsTheComparisonThatCoversMostOfTheWords(t *testing.T) {
	for _, c := range []struct {
		src, rangeText string
		suggestions    []string
	}{
		{"A **Person** gets senior discount if the __age__ of the **Person** is at lest 65.", "is at lest", []string{"is at least"}},
		{"A **Person** gets senior discount if the __age__ of the **Person** is grater than 65.", "is grater than", []string{"is greater than", "is later than"}},
		// A synonym of as many words still wins.
		{"A **Person** gets senior discount if the __age__ of the **Person** is more than 65.", "is more than", []string{"is greater than"}},
		// A bare `is` is not a comparison.
		{"A **Person** gets senior discount if the __name__ of the **Person** is \"Ada\".", "is", []string{"is equal to"}},
	} {
		got := engine.Check(c.src)
		found := withCode(got.Diagnostics, engine.CodeUnknownOperator)
		if found == nil {
			t.Errorf("%s: %+v, want an unknown-operator diagnostic", c.src, got.Diagnostics)
			continue
		}
		if text := textOf(c.src, found.Range); text != c.rangeText || !reflect.DeepEqual(found.Suggestions, c.suggestions) {
			t.Errorf("%s: range %q, suggestions %q; want %q, %q", c.src, text, found.Suggestions, c.rangeText, c.suggestions)
		}
	}
}
