package engine

import "strings"

// resolver finds the rule a reference names: exact outcome, exact label,
// normalised, then loose matching. Resolution depends only
// on the text, so it runs once, at compile time. The normalised forms are
// worked out on first need: most texts have no phrase references.
type resolver struct {
	rules []*Rule
	norm  []ruleNorms
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

// normPhrase lower-cases, collapses runs of whitespace and trims.
func normPhrase(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// label resolves `§L`: the rule labelled L (the last one if repeated), else
// the phrase steps on L. It returns -1 when nothing matches.
func (r *resolver) label(l string, self int) int {
	for i := len(r.rules) - 1; i >= 0; i-- {
		if r.rules[i].Label == l {
			return i
		}
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
	for i := len(r.rules) - 1; i >= 0; i-- {
		if r.rules[i].Label != "" && r.rules[i].Label == p {
			return i
		}
	}
	if i := r.normalised(p); i >= 0 {
		return i
	}
	return r.fuzzy(p, self)
}

func (r *resolver) exactOutcome(p string) int {
	for i := len(r.rules) - 1; i >= 0; i-- {
		if r.rules[i].Outcome == p {
			return i
		}
	}
	return -1
}

func (r *resolver) normalised(p string) int {
	n := normPhrase(p)
	if n == "" {
		return -1
	}
	for i, rn := range r.norms() {
		if rn.outcome == n || rn.phrase == n {
			return r.shadow(i)
		}
		if rn.label == n {
			return i
		}
	}
	return -1
}

var fuzzyPrefixes = []string{"passes the", "passes", "has the", "has", "gets the", "gets", "is"}

func (r *resolver) fuzzy(p string, self int) int {
	lp := strings.ToLower(p)
	c := lp
	for _, pre := range fuzzyPrefixes {
		if hasWordAt(lp, 0, pre) {
			c = strings.TrimSpace(lp[len(pre):])
			break
		}
	}
	for i, rn := range r.norms() {
		if i == self {
			continue
		}
		o := rn.lowerOutcome
		if c != "" && (o == c || strings.Contains(o, c) || strings.Contains(c, o)) ||
			o == lp || strings.Contains(o, lp) || strings.Contains(lp, o) {
			return r.shadow(i)
		}
	}
	return -1
}

// shadow applies "the last definition wins" to rules with the same outcome.
func (r *resolver) shadow(i int) int {
	for j := len(r.rules) - 1; j > i; j-- {
		if r.rules[j].Outcome == r.rules[i].Outcome {
			return j
		}
	}
	return i
}
