package engine

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Suggestions name what a misspelt word most likely meant: the checker's
// for labels, outcome phrases and a schema's names, and a run's for the
// name, reference or label it did not find. All of them come from closest.

// A suggestible is a word a suggestion may name: as written, as compared
// (lower-cased, or canonical for the keys of data), and the rule it
// belongs to, if any.
type suggestible struct {
	text, lower string
	rule        int
	// The letters of text and lower, counted once: a search compares
	// every candidate's with each name written, which may be thousands.
	textLetters, lowerLetters int
}

func newSuggestible(text, lower string, rule int) suggestible {
	return suggestible{text: text, lower: lower, rule: rule, textLetters: letters(text), lowerLetters: letters(lower)}
}

// closest returns up to three candidates near the written text, nearest
// first and in the candidates' order among equals, leaving out the one of
// rule skip. near says how many edits a candidate may be from the written
// text; one whose length differs more cannot be, and is not compared. Each
// candidate passed over costs a step of work and each comparison the
// product of the two lengths; the search stops when work is spent.
func closest(written string, candidates []suggestible, skip int, near func(cand suggestible, writtenLetters int) int, work *int) []string {
	type scored struct {
		s string
		d int
	}
	var list []scored
	w := strings.ToLower(written)
	wn := letters(w)
	for _, cand := range candidates {
		if *work <= 0 {
			break
		}
		*work--
		n := near(cand, wn)
		if diff := wn - cand.lowerLetters; n <= 0 || cand.rule == skip || diff > n || -diff > n {
			continue
		}
		cost := (len(w) + 1) * (len(cand.lower) + 1)
		if cost > *work {
			break
		}
		*work -= cost
		if d := editDistance(w, cand.lower); d <= n {
			list = append(list, scored{cand.text, d})
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].d < list[j].d })
	out := []string{}
	for _, s := range list {
		if len(out) == 3 {
			break
		}
		dup := false
		for _, o := range out {
			dup = dup || o == s.s
		}
		if !dup {
			out = append(out, s.s)
		}
	}
	return out
}

// nearSuggestion is how far a label, a phrase or a schema's name may be
// from the word written: a third of its length, and 2 for short ones.
func nearSuggestion(cand suggestible, _ int) int { return max(2, cand.textLetters/3) }

// nearKey is how far a key of the data may be from a missing name, both
// canonical: a third of the longer one, so that names of one or two
// letters, which any edit turns into another, have none.
func nearKey(cand suggestible, writtenLetters int) int {
	return max(cand.lowerLetters, writtenLetters) / 3
}

// letters counts a name's letters (runes), as distances are measured.
func letters(s string) int { return utf8.RuneCountInString(s) }

// first is the nearest of closest's answer, or "".
func first(suggestions []string) string {
	if len(suggestions) == 0 {
		return ""
	}
	return suggestions[0]
}

// A missing selector or property is most often a misspelling, in the rule
// or in the data, as is a reference no rule's outcome matches. The run that
// stops on one names the data's closest name (or the closest outcome) in
// its explanation. Only the error a run stops on is searched, once, on
// the way out, and the search is bounded: an object of more than
// maxNearestKeys keys, and names longer than maxNearestName bytes, are
// not compared, so that a failed run costs at most some 70,000 steps of
// comparison more than it did (about a tenth of a millisecond).
const (
	maxNearestKeys = 64
	maxNearestName = 32
)

// missingIn is err, noting where a run that stops on it looks for the
// name closest to the one missing.
func missingIn(err *Error, scope map[string]any, s step) *Error {
	err.scope, err.missing = scope, s.canon
	return err
}

// missingOutcome is err, noting the phrase of a reference that no rule's
// outcome matches, for a run that stops on it to suggest the closest.
func missingOutcome(err *Error, phrase string, self int) *Error {
	err.missing, err.self = phrase, self
	return err
}

// suggest fills Nearest and lets go of the data.
func (e *Error) suggest(p *Program) {
	switch {
	case e.scope != nil:
		e.Nearest = nearestKey(e.scope, e.missing)
	case e.Kind == KindUnresolvedReference && e.missing != "":
		e.Nearest = p.nearestOutcome(e.missing, e.self)
	default:
		return // shared errors, such as errAlreadyReported, are never written
	}
	e.scope, e.missing = nil, ""
}

// maxNearestOutcome bounds the search for the outcome closest to a
// reference's phrase, or the label closest to a §label (some 0.1 ms), the
// rules compared in text order; a phrase longer than maxNearestPhrase
// bytes is not searched for.
const (
	maxNearestOutcome = 1 << 16
	maxNearestPhrase  = 64
)

// nearestOutcome returns the phrase (verb and outcome) of the rule closest
// to a reference's, as the checker suggests one (nearSuggestion, ignoring
// case, ties to the first rule), passing over the rule the reference
// stands in. "" when none is.
func (p *Program) nearestOutcome(phrase string, self int) string {
	if len(phrase) > maxNearestPhrase {
		return ""
	}
	work := maxNearestOutcome
	return first(closestPhrases(phrase, p.about.outcomes(p), self, &work))
}

// closestPhrases are the rules' phrases closest to a reference's phrase,
// as suggestions for it, leaving out those it says the opposite of: `has
// an invalid licence` is close to `has a valid licence` in letters, and
// far from it in meaning.
func closestPhrases(phrase string, rules []suggestible, self int, work *int) []string {
	return slices.DeleteFunc(closest(phraseWords(phrase), rules, self, nearSuggestion, work),
		func(s string) bool { return negationOf(phrase, s) != "" || negationOf(s, phrase) != "" })
}

// nearestKey returns the key of obj whose canonical form (see canon) is
// closest to the canonical name c (nearKey), ties to the first key in
// byte order. "" when none is that close.
func nearestKey(obj map[string]any, c string) string {
	if len(obj) > maxNearestKeys || len(c) > maxNearestName {
		return ""
	}
	keys := make([]suggestible, 0, len(obj))
	for k := range obj {
		if len(k) <= maxNearestName {
			keys = append(keys, newSuggestible(k, strings.ToLower(canon(k)), 0))
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].text < keys[j].text })
	work := maxNearestKeys * (1 + (maxNearestName+1)*(maxNearestName+1)) // enough for every key
	return first(closest(c, keys, -1, nearKey, &work))
}

// ruleWords are a program's outcome phrases as suggestions compare them,
// made by the first run that needs them.
type ruleWords struct {
	once    sync.Once
	phrases []suggestible
}

// outcomes are the phrases (verb and outcome) of p's rules.
func (info *explainInfo) outcomes(p *Program) []suggestible {
	info.words.once.Do(func() {
		info.words.phrases = make([]suggestible, len(p.rules))
		for i := range p.rules {
			r := &p.rules[i]
			phrase := r.outcome
			if r.verb != "" {
				phrase = r.verb + " " + r.outcome
			}
			info.words.phrases[i] = newSuggestible(phrase, phraseWords(phrase), i)
		}
	})
	return info.words.phrases
}

// explained is the message as an explanation ends with it, suggesting
// the nearest name when there is one; the full stop is the caller's.
func (e *Error) explained() string {
	switch {
	case e.Nearest == "":
		return e.Message
	case e.Kind == KindUnresolvedReference:
		return e.Message + ". Did you mean " + strconv.Quote(e.Nearest) + "? It is the closest outcome of a rule"
	}
	return e.Message + ". Did you mean " + strconv.Quote(e.Nearest) + "? It is the closest name there"
}
