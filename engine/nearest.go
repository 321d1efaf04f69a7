package engine

import "strconv"

// A missing selector or property is most often a misspelling, in the rule
// or in the data. The run that stops on one names the data's closest name
// in its explanation. Only the error a run stops on is searched, once, on
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

// suggest fills Nearest and lets go of the data.
func (e *Error) suggest() {
	if e.scope == nil {
		return // shared errors, such as errAlreadyReported, are never written
	}
	e.Nearest = nearestKey(e.scope, e.missing)
	e.scope, e.missing = nil, ""
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
	if e.Nearest == "" {
		return e.Message
	}
	return e.Message + ". Did you mean " + strconv.Quote(e.Nearest) + "? It is the closest name there"
}
