package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFuzzyIndexAnswersAsTheScan sets the index against scanning every
// outcome, on rule sets and phrases drawn from a few letters, so that
// outcomes contain one another and phrases often and in many ways.
func TestFuzzyIndexAnswersAsTheScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(max int) string {
		var b strings.Builder
		for range rng.IntN(max + 1) {
			b.WriteByte("abB "[rng.IntN(4)])
		}
		return b.String()
	}
	matched := 0
	for range 3000 {
		rules := make([]*Rule, 1+rng.IntN(8))
		for i := range rules {
			rules[i] = &Rule{Outcome: word(6)}
		}
		r := &resolver{rules: rules}
		for range 40 {
			phrase := word(9)
			if rng.IntN(3) == 0 {
				phrase = fuzzyPrefixes[rng.IntN(len(fuzzyPrefixes))] + " " + phrase
			}
			self := rng.IntN(len(rules)+1) - 1
			lp := strings.ToLower(phrase)
			c := lp
			for _, pre := range fuzzyPrefixes {
				if hasWordAt(lp, 0, pre) {
					c = strings.TrimSpace(lp[len(pre):])
					break
				}
			}
			want, got := r.fuzzyScan(lp, c, self), r.fuzzyIndexed(lp, c, self)
			if got != want {
				outcomes := make([]string, len(rules))
				for i, ru := range rules {
					outcomes[i] = ru.Outcome
				}
				t.Fatalf("phrase %q (self %d) among %q: the index finds rule %d, the scan %d", phrase, self, outcomes, got, want)
			}
			if want >= 0 {
				matched++
			}
		}
	}
	if matched < 30000 {
		t.Errorf("only %d of 120000 phrases matched a rule: the cases test too little", matched)
	}
}

// scanningResolver resolves as the resolver did before it kept maps and
// an index: every step scans the rules.
type scanningResolver struct{ r *resolver }

func (s scanningResolver) label(l string, self int) int {
	for i := len(s.r.rules) - 1; i >= 0; i-- {
		if s.r.rules[i].Label == l {
			return i
		}
	}
	if i := s.exactOutcome(l); i >= 0 {
		return i
	}
	if i := s.normalised(l); i >= 0 {
		return i
	}
	return s.fuzzy(l, self)
}

func (s scanningResolver) phrase(p string, self int) int {
	if i := s.exactOutcome(p); i >= 0 {
		return i
	}
	for i := len(s.r.rules) - 1; i >= 0; i-- {
		if s.r.rules[i].Label != "" && s.r.rules[i].Label == p {
			return i
		}
	}
	if i := s.normalised(p); i >= 0 {
		return i
	}
	return s.fuzzy(p, self)
}

func (s scanningResolver) exactOutcome(p string) int {
	for i := len(s.r.rules) - 1; i >= 0; i-- {
		if s.r.rules[i].Outcome == p {
			return i
		}
	}
	return -1
}

func (s scanningResolver) normalised(p string) int {
	n := normPhrase(p)
	if n == "" {
		return -1
	}
	for i, rn := range s.r.norms() {
		if rn.outcome == n || rn.phrase == n {
			return s.shadow(i)
		}
		if rn.label == n {
			return i
		}
	}
	return -1
}

func (s scanningResolver) fuzzy(p string, self int) int {
	lp := strings.ToLower(p)
	c := lp
	for _, pre := range fuzzyPrefixes {
		if hasWordAt(lp, 0, pre) {
			c = strings.TrimSpace(lp[len(pre):])
			break
		}
	}
	if i := s.r.fuzzyScan(lp, c, self); i >= 0 {
		return s.shadow(i)
	}
	return -1
}

func (s scanningResolver) shadow(i int) int {
	for j := len(s.r.rules) - 1; j > i; j-- {
		if s.r.rules[j].Outcome == s.r.rules[i].Outcome {
			return j
		}
	}
	return i
}

// TestResolverAnswersAsScanningTheRules sets the resolver's maps and index
// against scanning (as the resolver did before it had them), on rules whose outcomes, verbs and labels repeat and
// differ only in case and spacing, as written texts seldom do.
func TestResolverAnswersAsScanningTheRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func(words ...string) string { return words[rng.IntN(len(words))] }
	phrase := func() string {
		return pick("", "passes the ", "has ", "is ") + pick("a b", "A  b", "a", "b a", "ab", "", "a b c", " b ")
	}
	for range 2000 {
		rules := make([]*Rule, 1+rng.IntN(6))
		for i := range rules {
			rules[i] = &Rule{Outcome: pick("a b", "A b", "a  b", "b", "ab", "a b c"), Verb: pick("", "passes", "has"), Label: pick("", "", "a b", "b", "A b")}
		}
		// A fresh resolver scans until its lookups have cost enough, then
		// maps; one that has scanned enough maps and indexes at once.
		for _, indexed := range []bool{false, true} {
			r := &resolver{rules: rules}
			if indexed {
				r.scannedRules, r.scanned = maxScannedRules, maxFuzzyScan
			}
			scan := scanningResolver{&resolver{rules: rules}}
			for range 30 {
				p, self := phrase(), rng.IntN(len(rules)+1)-1
				if got, want := r.phrase(p, self), scan.phrase(p, self); got != want {
					t.Fatalf("phrase %q (self %d, indexed %v) in %s: rule %d, scanning finds %d", p, self, indexed, describeRules(rules), got, want)
				}
				if got, want := r.label(p, self), scan.label(p, self); got != want {
					t.Fatalf("label %q (self %d, indexed %v) in %s: rule %d, scanning finds %d", p, self, indexed, describeRules(rules), got, want)
				}
			}
		}
	}
}

func describeRules(rules []*Rule) string {
	var b strings.Builder
	for i, r := range rules {
		fmt.Fprintf(&b, "[%d verb %q outcome %q label %q] ", i, r.Verb, r.Outcome, r.Label)
	}
	return b.String()
}

func TestAResultHoldsNothingOfItsDataThroughItsError(t *testing.T) {
	var eng Engine
	prog, err := eng.Compile(`A **Person** gets senior discount if the __age__ of the **Person** is at least 65.`)
	if err != nil {
		t.Fatal(err)
	}
	res := prog.Evaluate(map[string]any{"Person": map[string]any{"agee": 70.0}})
	if res.Error == nil || res.Error.Nearest != "agee" || res.Error.scope != nil || res.Error.missing != "" {
		t.Errorf("error %+v", res.Error)
	}
}
