package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// CodeNotInSchema is the warning of a name the rule reads that the JSON
// Schema of its data does not list.
const CodeNotInSchema = "not-in-schema"

// CheckWithSchema is Check, and, for a text that parses, also warns of
// each selector or property the rule reads that the JSON Schema of its
// data (a policy's schema) does not list, suggesting the closest names it
// does. A schema that is not an object (null, true, false, or not JSON)
// adds nothing.
//
// The check follows a name only through what a schema states plainly: an
// object schema with "properties". Where it composes schemas ($ref,
// allOf, anyOf, oneOf, not, if/then/else, dependentSchemas), matches
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
	return check(src, root)
}

// schemaWalk follows the paths of one text through one schema.
type schemaWalk struct {
	c *checker
	// listed is each object schema's names, built once per object: a text
	// may read names of one object thousands of times.
	listed map[uintptr]*listedNames
	warned map[int]bool // by the offset of the name warned about
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
	w := &schemaWalk{c: c, listed: map[uintptr]*listedNames{}, warned: map[int]bool{}}
	for _, r := range text.Rules {
		for _, cond := range r.Conditions {
			switch cd := cond.(type) {
			case *Comparison:
				w.path(cd.Left, r.Selector, schema)
				if cd.Right != nil {
					w.path(*cd.Right, r.Selector, schema)
				}
			case *Count:
				w.path(cd.Path, r.Selector, schema)
			case *PhraseRef:
				w.path(Path{Elements: []Element{{Name: cd.Selector, IsSelector: true}}}, r.Selector, schema)
			}
		}
	}
}

// path follows one written path from the root of the data, as evaluation
// looks it up: the root element first, a lone property inside the rule's
// header selector, and every name split at its dots.
func (w *schemaWalk) path(p Path, header Name, schema map[string]any) {
	els := p.Elements
	if len(els) == 1 && !els[0].IsSelector {
		els = []Element{els[0], {Name: header, IsSelector: true}}
	}
	at := "$"
	cur := schema
	for i := len(els) - 1; i >= 0; i-- {
		el := els[i]
		offset := int(el.Pos) + 2 // past the opening marker
		for text, more := el.Text, true; more; {
			var seg string
			seg, text, more = strings.Cut(text, ".")
			names := w.names(cur)
			if names == nil {
				return
			}
			key, found := names.find(seg)
			if !found {
				w.warn(offset, seg, at, el.IsSelector, names)
				return
			}
			next, ok := names.props[key].(map[string]any)
			if !ok {
				return // true, false or not a schema: nothing more to follow
			}
			cur = next
			at += "." + key
			offset += len(seg) + 1
		}
	}
}

// names are the names an object schema lists, or nil when the schema does
// not plainly say which names its object has.
func (w *schemaWalk) names(s map[string]any) *listedNames {
	for _, k := range [...]string{"$ref", "$dynamicRef", "$recursiveRef", "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
		"dependentSchemas", "dependencies", "patternProperties"} {
		if _, ok := s[k]; ok {
			return nil
		}
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
				names.suggestible = append(names.suggestible, suggestible{text: k, lower: canon(k)})
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
		w.c.closest(canon(seg), names.suggestible, -1)...)
}
