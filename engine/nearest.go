package engine

import (
	"strconv"
	"strings"
)

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
// reference's phrase: phrases longer than maxNearestPhrase bytes are not
// compared, and the comparisons stop past this many steps (some 0.1 ms),
// the rules compared in text order.
const (
	maxNearestOutcome = 1 << 16
	maxNearestPhrase  = 64
)

// nearestOutcome returns the phrase (verb and outcome) of the rule closest
// to a reference's, ignoring case, when at most a quarter of the longer
// one's letters set them apart (phrases share words such as "passes the",
// which a third would let through); ties go to the first rule. The rule the
// reference stands in is passed over. "" when none is.
func (p *Program) nearestOutcome(phrase string, self int) string {
	written := strings.ToLower(phrase)
	if len(written) > maxNearestPhrase {
		return ""
	}
	best, bestDistance, work := "", 0, maxNearestOutcome
	for i := range p.rules {
		if i == self {
			continue
		}
		// Passing over a rule is a step too: a text may hold thousands.
		if work--; work < 0 {
			break
		}
		r := &p.rules[i]
		n := len(r.outcome)
		if r.verb != "" {
			n += len(r.verb) + 1
		}
		near := max(n, len(written)) / 4
		if n > maxNearestPhrase || near == 0 || n-len(written) > near || len(written)-n > near {
			continue
		}
		if work -= (n + 1) * (len(written) + 1); work < 0 {
			break
		}
		full := r.outcome
		if r.verb != "" {
			full = r.verb + " " + r.outcome
		}
		lower := strings.ToLower(full)
		if d := editDistance(lower, written); d <= near && (best == "" || d < bestDistance) {
			best, bestDistance = full, d
		}
	}
	return best
}

// nearestKey returns the key of obj whose canonical form (see canon) is
// closest to the canonical name c in edits, when at most a third of the
// longer one's length sets them apart (so names of one or two letters,
// which any edit turns into another, have none); ties go to the first key
// in byte order. "" when none is that close.
func nearestKey(obj map[string]any, c string) string {
	if len(obj) > maxNearestKeys || len(c) > maxNearestName {
		return ""
	}
	var buf [maxNearestName]byte
	best, bestDistance := "", 0
	for k := range obj {
		if len(k) > maxNearestName {
			continue
		}
		kc := canonInto(buf[:0], k)
		near := max(len(kc), len(c)) / 3
		if near == 0 || len(kc)-len(c) > near || len(c)-len(kc) > near {
			continue
		}
		d := editDistance(kc, c)
		if d > near || best != "" && (d > bestDistance || d == bestDistance && k > best) {
			continue
		}
		best, bestDistance = k, d
	}
	return best
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
