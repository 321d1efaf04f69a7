package service

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/verdict/verdict/engine"
)

// Bounds of a base's mask (docs/decisions.md, "Masking").
const (
	MaxMaskPaths      = 64
	MaxMaskPathLength = 256
	maxMaskSegments   = 32
)

// Masked is what a masked value becomes in a stored decision record, in
// its input and its explanation alike.
const Masked = "[masked]"

// maskPath is a parsed mask path: `$.Person.ssn` is [Person ssn], each
// step kept in the canonical form of a rule's name.
type maskPath []string

// checkMask parses a mask sent to be set, refusing besides what parseMask
// refuses a step that looks like a wildcard or names no member a rule can
// read: masks stored before these were refused still parse, and still
// hide what they hid.
func checkMask(paths []string) ([]maskPath, error) {
	for _, p := range paths {
		for _, step := range strings.Split(strings.TrimPrefix(p, "$."), ".") {
			if step == "*" || indexed(step) {
				return nil, Invalid("mask path %q has the step %q: paths have no wildcards or list positions; a step that meets a list applies to each element, so name the member, as in $.Person.cards.number", engine.Quoted(p), engine.Quoted(step))
			}
			if step != "" && engine.CanonicalName(step) == "" {
				return nil, Invalid("mask path %q has the step %q, which names no member a rule can read", engine.Quoted(p), engine.Quoted(step))
			}
		}
	}
	return parseMask(paths)
}

// indexed reports a step that ends in a list position or a wildcard in
// brackets (`cards[0]`, `cards[*]`), as other path languages write them:
// a member may be named so, but a mask meant to reach into a list would
// then hide nothing.
func indexed(step string) bool {
	open := strings.LastIndexByte(step, '[')
	if open < 0 || !strings.HasSuffix(step, "]") {
		return false
	}
	inside := step[open+1 : len(step)-1]
	return inside == "*" || inside != "" && strings.Trim(inside, "0123456789") == ""
}

// parseMask checks every path of a mask: `$` and then one or more
// `.name` steps, a name being any text without dots, control characters
// or spaces at its ends. Quotes and brackets are a name's like any other
// character, since a rule reads members so named (`__driver's licence__`).
func parseMask(paths []string) ([]maskPath, error) {
	if len(paths) > MaxMaskPaths {
		return nil, Invalid("mask may hold at most %d paths, not %d", MaxMaskPaths, len(paths))
	}
	out := make([]maskPath, 0, len(paths))
	for _, p := range paths {
		mp, err := parseMaskPath(p)
		if err != nil {
			return nil, err
		}
		out = append(out, mp)
	}
	return out, nil
}

func parseMaskPath(p string) (maskPath, error) {
	if len(p) > MaxMaskPathLength {
		return nil, Invalid("mask path %.40q... is longer than %d bytes", p, MaxMaskPathLength)
	}
	if !utf8.ValidString(p) {
		return nil, Invalid("mask path %q is not valid UTF-8", engine.Quoted(p))
	}
	if p == "" {
		return nil, Invalid("mask holds an empty path (or null): each path is $ and one or more .name steps, as in $.Person.ssn")
	}
	rest, ok := strings.CutPrefix(p, "$.")
	if !ok {
		return nil, Invalid("mask path %q must start with $. and name a member, as in $.Person.ssn", engine.Quoted(p))
	}
	steps := strings.Split(rest, ".")
	if len(steps) > maxMaskSegments {
		return nil, Invalid("mask path %q has more than %d steps", engine.Quoted(p), maxMaskSegments)
	}
	for i, step := range steps {
		if step == "" || strings.TrimSpace(step) != step || strings.IndexFunc(step, unicode.IsControl) >= 0 {
			return nil, Invalid("mask path %q has an empty or malformed step %q: steps are member names separated by dots", engine.Quoted(p), engine.Quoted(step))
		}
		steps[i] = engine.CanonicalName(step)
	}
	return steps, nil
}

// maskInput replaces the value at every path of the mask in raw, a JSON
// object, with Masked. A step hides every key a rule naming it may read,
// however it is spelled ($.Person.ssn hides "SSN" too), so that no
// spelling of the data lets a masked value through. A path that meets an
// array applies to each of its elements. It returns the masked JSON and
// the text of every value it replaced (each scalar within a replaced
// object or array too), for redact. A value with no text (null, {} or [])
// is replaced too. The answer is the masked data encoded again, never raw
// as sent, even when nothing was replaced: raw may repeat a member, of
// which a run reads the last, and an earlier one the mask did not reach in
// what the run read would be stored as sent.
func maskInput(raw json.RawMessage, mask []maskPath) (json.RawMessage, []string, error) {
	if len(mask) == 0 {
		return raw, nil, nil
	}
	data, err := decodeExact(raw)
	if err != nil {
		return nil, nil, err
	}
	var hidden []string
	data = maskAt(data, mask, &hidden)
	out, err := json.Marshal(data)
	return out, hidden, err
}

// maskAt applies the paths to v together, each object's members read once
// for them all: a list of many objects would otherwise be walked once per
// path. A member that one path hides whole is hidden, whatever the other
// paths reach within it.
func maskAt(v any, paths []maskPath, hidden *[]string) any {
	switch v := v.(type) {
	case map[string]any:
		var deeper []maskPath
		for key, child := range v {
			deeper = deeper[:0]
			whole := false
			for _, p := range paths {
				switch {
				case !engine.KeyAnswersTo(key, p[0]):
				case len(p) == 1:
					whole = true
				default:
					deeper = append(deeper, p[1:])
				}
			}
			switch {
			case whole:
				if s, isString := child.(string); !isString || s != Masked {
					collectText(child, hidden)
					v[key] = Masked
				}
			case len(deeper) > 0:
				v[key] = maskAt(child, deeper, hidden)
			}
		}
	case []any:
		for i := range v {
			v[i] = maskAt(v[i], paths, hidden)
		}
	}
	return v
}

// collectText adds the ways an explanation may show each scalar of v: as
// sent, and as the JSON an explanation writes it in. An object's keys go
// too: an error may quote the object, or suggest one of its keys as the
// closest name, and a key can be as telling as its value.
func collectText(v any, hidden *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, c := range v {
			collectString(k, hidden)
			collectText(c, hidden)
		}
	case []any:
		for _, c := range v {
			collectText(c, hidden)
		}
	case string:
		collectString(v, hidden)
	case json.Number:
		*hidden = append(*hidden, v.String())
		if f, err := v.Float64(); err == nil {
			plain, short := strconv.FormatFloat(f, 'f', -1, 64), strconv.FormatFloat(f, 'g', -1, 64)
			*hidden = append(*hidden, plain, short)
			// As JSON writes it, which the explanation does: an exponent
			// without a leading zero (1.5e-7), from 1e-6 down and 1e21 up.
			if b, err := json.Marshal(f); err == nil && string(b) != plain && string(b) != short {
				*hidden = append(*hidden, string(b))
			}
		}
	case bool:
		*hidden = append(*hidden, strconv.FormatBool(v))
	}
}

func collectString(v string, hidden *[]string) {
	*hidden = append(*hidden, v)
	// An explanation shows a text as JSON: quoted, with escapes.
	if quoted := engine.ValueText(v); quoted[1:len(quoted)-1] != v {
		*hidden = append(*hidden, quoted[1:len(quoted)-1])
	}
}
