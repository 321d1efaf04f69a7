package engine

import "strings"

// resolver finds the rule a reference names: exact outcome, exact label,
// normalised, then loose matching. Resolution depends only
// on the text, so it runs once, at compile time. The normalised forms are
// worked out on first need: most texts have no phrase references. A text
// of a few rules resolves by scanning them; past maxScannedRules rules
// scanned, the resolver makes maps that find a rule at once, so that a
// reference costs the same in a text of a thousand rules as in one of ten.
type resolver struct {
	rules []*Rule
	norm  []ruleNorms
	// scannedRules counts the rules lookups have scanned, until maps.
	scannedRules int
	// maps, once made: lastOutcome and lastLabel find the last rule of an
	// outcome or a label; firstNormed and firstNormedLabel the first rule
	// whose normalised outcome or phrase, or label, is a normalised phrase.
	lastOutcome, lastLabel        map[string]int
	firstNormed, firstNormedLabel map[string]int
	// scanned counts the bytes of outcomes fuzzy has scanned; past
	// maxFuzzyScan it builds index and asks it instead.
	scanned int
	index   *fuzzyIndex
}

type ruleNorms struct {
	outcome, phrase, label, lowerOutcome string
}

func (r *resolver) norms() []ruleNorms {
	if r.norm != nil {
		return r.norm
	}
	r.norm = make([]ruleNorms, len(r.rules))
	for i, ru := range r.rules {
		full := ru.Outcome
		if ru.Verb != "" {
			full = ru.Verb + " " + ru.Outcome
		}
		r.norm[i] = ruleNorms{
			outcome:      normPhrase(ru.Outcome),
			phrase:       normPhrase(full),
			label:        normPhrase(ru.Label),
			lowerOutcome: strings.ToLower(ru.Outcome),
		}
	}
	return r.norm
}

// maxScannedRules is how many rules lookups scan before the resolver makes
// its maps: scanning is cheaper for the few references of a short text.
const maxScannedRules = 1024

// mapped reports whether lookups go through the maps, making them once
// scanning has cost enough.
func (r *resolver) mapped() bool {
	if r.lastOutcome != nil {
		return true
	}
	if r.scannedRules += len(r.rules); r.scannedRules <= maxScannedRules {
		return false
	}
	r.norms()
	n := len(r.rules)
	r.lastOutcome, r.lastLabel = make(map[string]int, n), make(map[string]int, n)
	r.firstNormed, r.firstNormedLabel = make(map[string]int, 2*n), make(map[string]int, n)
	first := func(m map[string]int, key string, i int) {
		if _, ok := m[key]; !ok {
			m[key] = i
		}
	}
	for i, ru := range r.rules {
		r.lastOutcome[ru.Outcome], r.lastLabel[ru.Label] = i, i
		first(r.firstNormed, r.norm[i].outcome, i)
		first(r.firstNormed, r.norm[i].phrase, i)
		first(r.firstNormedLabel, r.norm[i].label, i)
	}
	return true
}

// last is the last rule of m's key, -1 if none.
func last(m map[string]int, key string) int {
	if i, ok := m[key]; ok {
		return i
	}
	return -1
}

// normPhrase lower-cases, collapses runs of whitespace and trims.
func normPhrase(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// label resolves `§L`: the rule labelled L (the last one if repeated), else
// the phrase steps on L. It returns -1 when nothing matches.
func (r *resolver) label(l string, self int) int {
	if i := r.lastLabelled(l); i >= 0 {
		return i
	}
	if i := r.exactOutcome(l); i >= 0 {
		return i
	}
	if i := r.normalised(l); i >= 0 {
		return i
	}
	return r.fuzzy(l, self)
}

// phrase resolves a reference phrase: exact outcome, exact label,
// normalised phrase, then the reference-compatible fuzzy match.
func (r *resolver) phrase(p string, self int) int {
	if i := r.exactOutcome(p); i >= 0 {
		return i
	}
	if i := r.lastLabelled(p); p != "" && i >= 0 {
		return i
	}
	if i := r.normalised(p); i >= 0 {
		return i
	}
	return r.fuzzy(p, self)
}

func (r *resolver) exactOutcome(p string) int {
	if r.mapped() {
		return last(r.lastOutcome, p)
	}
	for i := len(r.rules) - 1; i >= 0; i-- {
		if r.rules[i].Outcome == p {
			return i
		}
	}
	return -1
}

// lastLabelled is the last rule labelled l, -1 if none.
func (r *resolver) lastLabelled(l string) int {
	if r.mapped() {
		return last(r.lastLabel, l)
	}
	for i := len(r.rules) - 1; i >= 0; i-- {
		if r.rules[i].Label == l {
			return i
		}
	}
	return -1
}

// normalised is the first rule whose normalised outcome or phrase (then
// shadowed), or label, is p normalised.
func (r *resolver) normalised(p string) int {
	i, label := r.named(p)
	if i < 0 || label {
		return i
	}
	return r.shadow(i)
}

// named is the first rule whose normalised outcome, phrase or label is p
// normalised, before shadowing, and whether it was the label; -1 if none.
func (r *resolver) named(p string) (int, bool) {
	n := normPhrase(p)
	if n == "" {
		return -1, false
	}
	if !r.mapped() {
		for i, rn := range r.norms() {
			if rn.outcome == n || rn.phrase == n {
				return i, false
			}
			if rn.label == n {
				return i, true
			}
		}
		return -1, false
	}
	named, ok := r.firstNormed[n]
	labelled, labelOK := r.firstNormedLabel[n]
	switch {
	case ok && (!labelOK || named <= labelled):
		return named, false
	case labelOK:
		return labelled, true
	}
	return -1, false
}

var fuzzyPrefixes = []string{"passes the", "passes", "has the", "has", "gets the", "gets", "is"}

// fuzzy is the loose match: the first rule other than self whose
// lower-cased outcome contains the phrase less a leading fuzzyPrefixes
// word (c), or the whole phrase (lp), or is contained in either.
func (r *resolver) fuzzy(p string, self int) int {
	lp := strings.ToLower(p)
	c := lp
	for _, pre := range fuzzyPrefixes {
		if hasWordAt(lp, 0, pre) {
			c = strings.TrimSpace(lp[len(pre):])
			break
		}
	}
	var i int
	if r.index == nil && r.scanned < maxFuzzyScan {
		i = r.fuzzyScan(lp, c, self)
	} else {
		i = r.fuzzyIndexed(lp, c, self)
	}
	if i < 0 {
		return -1
	}
	return r.shadow(i)
}

// fuzzyScan compares the phrase with every outcome in turn.
func (r *resolver) fuzzyScan(lp, c string, self int) int {
	for i, rn := range r.norms() {
		if i == self {
			continue
		}
		o := rn.lowerOutcome
		r.scanned += len(o) + len(lp)
		if c != "" && (o == c || strings.Contains(o, c) || strings.Contains(c, o)) ||
			o == lp || strings.Contains(o, lp) || strings.Contains(lp, o) {
			return i
		}
	}
	return -1
}

// fuzzyIndexed answers as fuzzyScan does, from the index. c is part of
// lp, so an outcome that contains lp contains c, and one that c contains,
// lp contains: the match is an outcome that contains c (lp when c is
// empty) or that lp contains.
func (r *resolver) fuzzyIndexed(lp, c string, self int) int {
	if r.index == nil {
		outcomes := make([]string, len(r.rules))
		for i, rn := range r.norms() {
			outcomes[i] = rn.lowerOutcome
		}
		r.index = newFuzzyIndex(outcomes)
	}
	needle := c
	if needle == "" {
		needle = lp
	}
	within, among := r.index.containing(needle).except(self), r.index.contained(lp).except(self)
	if within < 0 || among >= 0 && among < within {
		return among
	}
	return within
}

// shadow applies "the last definition wins" to rules with the same outcome.
func (r *resolver) shadow(i int) int {
	if r.mapped() {
		return r.lastOutcome[r.rules[i].Outcome]
	}
	for j := len(r.rules) - 1; j > i; j-- {
		if r.rules[j].Outcome == r.rules[i].Outcome {
			return j
		}
	}
	return i
}
