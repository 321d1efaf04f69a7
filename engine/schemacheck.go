package engine

import (
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// The warnings of a check against the JSON Schema of the data: a name the
// rule reads that the schema does not list, and a value the schema types
// as something the condition cannot use.
const (
	CodeNotInSchema        = "not-in-schema"
	CodeSchemaTypeMismatch = "schema-type-mismatch"
)

// CheckWithSchema is Check, and, for a text that parses, also warns of
// each selector or property the rule reads that the JSON Schema of its
// data (a policy's schema) does not list, suggesting the closest names it
// does, and of each value whose "type" there the condition cannot use: a
// number comparison of what is never a number, the number of what is
// never a list, the length of what is never a text, a list or an object.
// A schema that is not an object (null, true, false, or not JSON) adds
// nothing.
//
// The check follows a name only through what a schema states plainly: an
// object schema with "properties", and "$ref" to a place in the same
// schema. Where it composes schemas (allOf, anyOf, oneOf, not,
// if/then/else, dependentSchemas), refers to another document, matches
// names by pattern (patternProperties) or lets other names in with a
// schema (additionalProperties or unevaluatedProperties other than
// false), the check cannot tell and stops following. A name matches a
// listed one as it matches a key of the data: spelled the same, else
// ignoring case, spaces and underscores.
func CheckWithSchema(src string, schema []byte) CheckResult {
	var root any
	if json.Unmarshal(schema, &root) != nil {
		root = nil
	}
	return CheckWithDecodedSchema(src, root)
}

// IsSchema tells whether a value, as encoding/json decodes JSON into an
// any, is a JSON Schema: an object, or a boolean (true admits every value,
// false none).
func IsSchema(v any) bool {
	switch v.(type) {
	case map[string]any, bool:
		return true
	}
	return false
}

// CheckWithDecodedSchema is CheckWithSchema for a schema decoded already,
// as encoding/json decodes JSON into an any: a caller that decoded it to
// validate it, or checks many texts against it, decodes it once.
func CheckWithDecodedSchema(src string, schema any) CheckResult {
	return check(src, schema)
}

// schemaWalk follows the paths of one text through one schema.
type schemaWalk struct {
	c    *checker
	root map[string]any
	// listed is each object schema's names, built once per object: a text
	// may read names of one object thousands of times.
	listed map[uintptr]*listedNames
	// reached is where deref led from each schema with a reference it
	// passed, nil where it led nowhere: every path through it would
	// follow it again.
	reached map[uintptr]map[string]any
	warned  map[int]bool // by the offset of the name warned about
}

// listedNames are the names an object schema lists: its properties, and
// for each canonical form the first of them in byte order that has it.
type listedNames struct {
	props   map[string]any
	byCanon map[string]string
	// suggestible are the names a suggestion may name, in byte order;
	// made for the first warning about a name the object lacks.
	suggestible []suggestible
}

// find returns the listed name a written one reads, as lookup finds a key.
func (l *listedNames) find(name string) (string, bool) {
	if _, ok := l.props[name]; ok {
		return name, true
	}
	key, ok := l.byCanon[canon(name)]
	return key, ok
}

// schemaPaths warns of the names of every path the text reads that the
// schema does not list.
func (c *checker) schemaPaths(text *RuleText, schema map[string]any) {
	w := &schemaWalk{c: c, root: schema, listed: map[uintptr]*listedNames{}, reached: map[uintptr]map[string]any{}, warned: map[int]bool{}}
	for _, r := range text.Rules {
		for _, cond := range r.Conditions {
			switch cd := cond.(type) {
			case *Comparison:
				numbers := cd.Op == OpGreaterThanOrEqual || cd.Op == OpLessThanOrEqual || cd.Op == OpGreaterThan || cd.Op == OpLessThan
				for _, p := range []*Path{&cd.Left, cd.Right} {
					if p == nil {
						continue
					}
					if found, at := w.path(*p, r.Selector, schema); found != nil && numbers {
						w.typed(*p, found, at, "this comparison needs a number", neverTrue, "integer", "number")
					}
				}
			case *Count:
				found, at := w.path(cd.Path, r.Selector, schema)
				switch {
				case found == nil:
				case cd.Length:
					w.typed(cd.Path, found, at, "the length of a value needs a text, a list or an object", stops, "string", "array", "object", "null")
				default:
					w.typed(cd.Path, found, at, "the number of a value needs a list", stops, "array", "null")
				}
			case *PhraseRef:
				// Only a reference no rule answers reads its selector, to
				// look for a property named after its phrase.
				if c.inferred[cd] {
					w.path(Path{Elements: []Element{{Name: cd.Selector, IsSelector: true}}}, r.Selector, schema)
				}
			}
		}
	}
}

// path follows one written path from the root of the data, as evaluation
// looks it up: the root element first, a lone property inside the rule's
// header selector, and every name split at its dots. It returns the
// schema of the value the path reads, and where it is, when the schema
// lists every name of it and that value's schema is an object.
func (w *schemaWalk) path(p Path, header Name, schema map[string]any) (map[string]any, string) {
	els := p.Elements
	if len(els) == 1 && !els[0].IsSelector {
		els = []Element{els[0], {Name: header, IsSelector: true}}
	}
	// The path so far, made a string only where it is said: a schema that
	// refers to itself lists a name at any depth, and a path of many
	// steps concatenated step by step took time in its square.
	at := []byte("$")
	cur := schema
	for i := len(els) - 1; i >= 0; i-- {
		el := els[i]
		offset := int(el.Pos) + 2 // past the opening marker
		for text, more := el.Text, true; more; {
			var seg string
			seg, text, more = strings.Cut(text, ".")
			if seg == "" {
				return nil, "" // "a..b" names no key a schema could list
			}
			if cur = w.deref(cur); cur == nil {
				return nil, ""
			}
			names := w.names(cur)
			if names == nil {
				return nil, ""
			}
			key, found := names.find(seg)
			if !found {
				w.warn(offset, seg, string(at), el.IsSelector, names)
				return nil, ""
			}
			next, ok := names.props[key].(map[string]any)
			if !ok {
				return nil, "" // true, false or not a schema: nothing more to follow
			}
			cur = next
			at = append(append(at, '.'), key...)
			offset += len(seg) + 1
		}
	}
	return w.deref(cur), string(at)
}

// deref follows "$ref" to a place in the same schema ("#/$defs/address"),
// through references to references, and returns the schema it reaches;
// nil where the check cannot tell what applies: a reference to another
// document, one that leads nowhere or in a circle, or one beside keywords
// that would apply together with it. Every schema on the way remembers
// where it leads, so each reference of the schema is followed once per
// check, however many paths and chains pass through it: a chain
// remembered from its start alone was followed again from each of its
// links, and a circle of long pointers cost a check tens of seconds.
func (w *schemaWalk) deref(s map[string]any) map[string]any {
	var chain []uintptr
	for s != nil {
		if _, ok := s["$ref"]; !ok {
			break
		}
		from := reflect.ValueOf(s).Pointer()
		if to, ok := w.reached[from]; ok {
			s = to
			break
		}
		// Until the chain ends, a way back here is a circle: it leads nowhere.
		w.reached[from] = nil
		chain = append(chain, from)
		s = w.hop(s)
	}
	for _, from := range chain {
		w.reached[from] = s
	}
	return s
}

// hop is the schema s's reference leads to, one step: nil where deref
// would stop.
func (w *schemaWalk) hop(s map[string]any) map[string]any {
	target, ok := s["$ref"].(string)
	if !ok || !strings.HasPrefix(target, "#") {
		return nil
	}
	for k := range s {
		if !refSiblings[k] {
			return nil
		}
	}
	to, _ := pointed(w.root, target[1:]).(map[string]any)
	return to
}

// refSiblings are the keywords that may stand beside "$ref" without
// changing what the reference says of the names an object has.
var refSiblings = map[string]bool{"$ref": true, "$comment": true, "title": true, "description": true,
	"examples": true, "default": true, "deprecated": true, "readOnly": true, "writeOnly": true}

// pointed is the value a JSON Pointer (RFC 6901), as written in a URI
// fragment, leads to from root, or nil.
func pointed(root any, fragment string) any {
	pointer, err := url.PathUnescape(fragment)
	if err != nil || pointer != "" && pointer[0] != '/' {
		return nil
	}
	if pointer == "" {
		return root
	}
	cur := root
	for _, token := range strings.Split(pointer[1:], "/") {
		token = strings.ReplaceAll(strings.ReplaceAll(token, "~1", "/"), "~0", "~")
		switch v := cur.(type) {
		case map[string]any:
			cur = v[token]
		case []any:
			i, err := strconv.Atoi(token)
			if err != nil || i < 0 || i >= len(v) {
				return nil
			}
			cur = v[i]
		default:
			return nil
		}
	}
	return cur
}

// typed warns when the schema of the value a path reads states its "type"
// and none of the types the condition can use is among them. A schema
// that also composes others, or names its values (enum, const), is not
// judged by its "type" alone.
func (w *schemaWalk) typed(p Path, s map[string]any, at, needs, consequence string, usable ...string) {
	if hasAny(s, composing...) || hasAny(s, "enum", "const") {
		return
	}
	var types []string
	switch t := s["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, v := range t {
			name, ok := v.(string)
			if !ok {
				return
			}
			types = append(types, name)
		}
	default:
		return
	}
	for _, t := range types {
		if slices.Contains(usable, t) {
			return
		}
	}
	name := p.Elements[0]
	from := int(name.Pos) + 2
	described := make([]string, len(types))
	for i, t := range types {
		described[i] = jsonTypeNames[t]
		if described[i] == "" {
			described[i] = strconv.Quote(t)
		}
	}
	w.c.add(SeverityWarning, CodeSchemaTypeMismatch, from, from+len(name.Text),
		fmt.Sprintf("The schema of the data says %s is %s, but %s: with data that follows the schema, %s.",
			at, strings.Join(described, " or "), needs, consequence))
}

// What a condition does with a value of a type it cannot use.
const (
	neverTrue = "the condition is never true"
	stops     = "the run stops with an error"
)

// jsonTypeNames say the types of JSON Schema in words.
var jsonTypeNames = map[string]string{
	"string": "a text", "number": "a number", "integer": "a whole number", "boolean": "true or false",
	"array": "a list", "object": "an object", "null": "null",
}

// composing are the keywords by which a schema applies others with its
// own, which the check does not follow ($ref it follows, see deref).
var composing = []string{"$dynamicRef", "$recursiveRef", "allOf", "anyOf", "oneOf", "not", "if"}

// hasAny reports whether the schema holds any of the keywords.
func hasAny(s map[string]any, keywords ...string) bool {
	for _, k := range keywords {
		if _, ok := s[k]; ok {
			return true
		}
	}
	return false
}

// names are the names an object schema lists, or nil when the schema does
// not plainly say which names its object has.
func (w *schemaWalk) names(s map[string]any) *listedNames {
	if hasAny(s, composing...) || hasAny(s, "then", "else", "dependentSchemas", "dependencies", "patternProperties") {
		return nil
	}
	for _, k := range [...]string{"additionalProperties", "unevaluatedProperties"} {
		if v, ok := s[k]; ok && v != false {
			return nil
		}
	}
	props, ok := s["properties"].(map[string]any)
	if !ok {
		return nil
	}
	at := reflect.ValueOf(props).Pointer()
	if l, ok := w.listed[at]; ok {
		return l
	}
	l := &listedNames{props: props, byCanon: make(map[string]string, len(props))}
	for k := range props {
		if c := canon(k); l.byCanon[c] == "" || k < l.byCanon[c] {
			l.byCanon[c] = k
		}
	}
	w.listed[at] = l
	return l
}

// warn reports a name the schema does not list, once per written name,
// with the closest names it lists as suggestions.
func (w *schemaWalk) warn(offset int, seg, at string, selector bool, names *listedNames) {
	if w.warned[offset] {
		return
	}
	w.warned[offset] = true
	if names.suggestible == nil && w.c.suggestionWork > 0 {
		names.suggestible = make([]suggestible, 0, len(names.props))
		for k := range names.props {
			if !strings.Contains(k, ".") { // a name with a dot reads two steps
				names.suggestible = append(names.suggestible, newSuggestible(k, canon(k), 0))
			}
		}
		sort.Slice(names.suggestible, func(i, j int) bool { return names.suggestible[i].text < names.suggestible[j].text })
	}
	what, where := "property", "at "+at
	if selector {
		what = "member"
	}
	if at == "$" {
		where = "at the top level"
	}
	w.c.add(SeverityWarning, CodeNotInSchema, offset, offset+len(seg),
		fmt.Sprintf("The schema of the data lists no %s %q %s: is the name misspelt, or is the schema missing it?", what, seg, where),
		closest(canon(seg), names.suggestible, -1, nearSuggestion, &w.c.suggestionWork)...)
}
