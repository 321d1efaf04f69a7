package flow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/verdict/verdict/engine"
)

// Parse decodes a definition from JSON in any accepted form: a v1 object,
// one of the older forms (docs/flows.md), or a JSON string holding YAML or JSON
// text of any of those. Input that cannot be decoded gives a
// *DefinitionError; a decoded definition may still fail Validate.
func Parse(raw []byte) (*Definition, error) {
	d, _, err := ParseReporting(raw)
	return d, err
}

// ParseReporting is Parse that also says which members of v1 nodes it
// ignored: members no node type has, which the stored form leaves out.
func ParseReporting(raw []byte) (*Definition, []string, error) {
	var r reader
	d, err := r.parse(raw)
	return d, r.ignored, err
}

// ParseText decodes YAML or JSON text of any accepted form. Text whose
// first non-blank character is '{' is JSON, anything else YAML.
func ParseText(text string) (*Definition, error) {
	var r reader
	return r.parseText(text)
}

func (r *reader) parse(raw []byte) (*Definition, error) {
	v, err := decodeJSON(raw)
	if err != nil {
		return nil, &DefinitionError{Details: []string{err.Error()}}
	}
	if text, ok := v.(string); ok {
		return r.parseText(text)
	}
	return r.fromTree(v)
}

func (r *reader) parseText(text string) (*Definition, error) {
	var v any
	var err error
	if strings.HasPrefix(strings.TrimLeft(text, " \t\r\n"), "{") {
		v, err = decodeJSON([]byte(text))
	} else {
		v, err = decodeYAML(text)
	}
	if err != nil {
		return nil, &DefinitionError{Details: []string{err.Error()}}
	}
	return r.fromTree(v)
}

// decodeJSON reads one JSON value into maps, slices and json.Number, the
// tree every form is converted from. Numbers stay as written so that
// content kept for later validation round-trips exactly.
func decodeJSON(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not valid JSON: %s", engine.JSONProblem(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not valid JSON: unexpected data after the value")
	}
	return v, nil
}

// decodeYAML reads YAML into the same tree as decodeJSON.
// A text of several documents (parted by ---) is refused rather than read
// for its first alone: what follows would be dropped without a word. Empty
// documents, as a closing --- makes, hold nothing to drop.
func decodeYAML(text string) (any, error) {
	dec := yaml.NewDecoder(strings.NewReader(text))
	expanded := maxYAMLExpansion(len(text))
	var v any
	if err := decodeYAMLDocument(dec, expanded, &v); err != nil && err != io.EOF {
		return nil, err
	}
	if v == nil {
		return nil, errors.New("not valid YAML: the text holds no definition")
	}
	for {
		var next any
		switch err := decodeYAMLDocument(dec, expanded, &next); {
		case err == io.EOF:
			return jsonValue(v)
		case err != nil:
			return nil, err
		case next != nil:
			return nil, errors.New("not valid YAML: the text holds more than one document (parted by ---); send one definition")
		}
	}
}

// maxYAMLKeys bounds the keys of one YAML mapping. The YAML library looks
// for a repeated key by comparing each key of a mapping with every other,
// so a mapping of n keys costs n² (100,000 keys took 38 s of CPU), and it
// reports every pair of equal keys (1,000 equal keys made 27 MB of
// messages). A definition's mappings (a node, its metadata) hold tens.
const maxYAMLKeys = 1000

// maxYAMLExpansion bounds what a YAML text of size bytes may decode to,
// its aliases (*name) repeating what their anchors (&name) hold: the
// library bounds how many nodes aliases repeat, not their bytes, and a
// list of aliases of a list of aliases of a long text multiplies it (a
// 100 KB text decoded to 110 MB). A definition may repeat itself twice
// over, and a small one a little more.
func maxYAMLExpansion(size int) int64 { return 2*int64(size) + 64<<10 }

// yamlNodeBytes is what a node counts for in the decoded size besides its
// text: about the punctuation that JSON would give it.
const yamlNodeBytes = 4

// decodeYAMLDocument decodes the next document of dec into v, having
// refused, in time linear in its size, a mapping with more than
// maxYAMLKeys keys or a key given twice, so that the library's own check
// for repeated keys costs at most maxYAMLKeys comparisons a key and
// finds none, and a document that decodes to more than expanded bytes.
func decodeYAMLDocument(dec *yaml.Decoder, expanded int64, v *any) error {
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return err
		}
		return yamlProblem(err)
	}
	if err := checkYAMLKeys(&doc); err != nil {
		return err
	}
	if yamlSize(&doc, map[*yaml.Node]int64{}, expanded) > expanded {
		return fmt.Errorf("not valid YAML: its aliases (*name) repeat what their anchors (&name) hold into more than %d bytes; write the definition with fewer of them", expanded)
	}
	if err := doc.Decode(v); err != nil {
		return yamlProblem(err)
	}
	return nil
}

// checkYAMLKeys walks n as written: an alias is not followed, the node it
// names being checked where it is defined.
func checkYAMLKeys(n *yaml.Node) error {
	if n.Kind == yaml.MappingNode {
		if keys := len(n.Content) / 2; keys > maxYAMLKeys {
			return fmt.Errorf("not valid YAML: line %d: a mapping holds %d keys; the limit is %d", n.Line, keys, maxYAMLKeys)
		}
		type key struct {
			kind  yaml.Kind
			value string
		}
		lines := make(map[key]int, len(n.Content)/2)
		for i := 0; i < len(n.Content); i += 2 {
			k := n.Content[i]
			// The library tells keys apart by kind and text alone.
			if line, seen := lines[key{k.Kind, k.Value}]; seen {
				return fmt.Errorf("not valid YAML: line %d: mapping key %q already defined at line %d", k.Line, engine.Quoted(k.Value), line)
			}
			lines[key{k.Kind, k.Value}] = k.Line
		}
	}
	for _, c := range n.Content {
		if err := checkYAMLKeys(c); err != nil {
			return err
		}
	}
	return nil
}

// yamlSize is the size n decodes to, an alias counting what its anchor
// holds, each node measured once (sizes) and no sum past limit+1. A node
// that holds an alias of itself counts nothing for it: the library refuses
// it when it decodes.
func yamlSize(n *yaml.Node, sizes map[*yaml.Node]int64, limit int64) int64 {
	if n == nil {
		return 0
	}
	if size, measured := sizes[n]; measured {
		return size
	}
	sizes[n] = 0
	size := int64(len(n.Value)) + yamlNodeBytes
	if n.Kind == yaml.AliasNode {
		size += yamlSize(n.Alias, sizes, limit)
	}
	for _, c := range n.Content {
		if size > limit {
			break
		}
		size += yamlSize(c, sizes, limit)
	}
	size = min(size, limit+1)
	sizes[n] = size
	return size
}

func yamlProblem(err error) error {
	return fmt.Errorf("not valid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
}

// jsonValue converts a decoded YAML value into what decodeJSON would have
// produced for the equivalent JSON, refusing what JSON cannot hold.
func jsonValue(v any) (any, error) {
	switch v := v.(type) {
	case nil, bool, string:
		return v, nil
	case int:
		return json.Number(strconv.Itoa(v)), nil
	case int64:
		return json.Number(strconv.FormatInt(v, 10)), nil
	case uint64:
		return json.Number(strconv.FormatUint(v, 10)), nil
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, errors.New("not valid YAML: infinite and NaN numbers are not allowed")
		}
		return json.Number(strconv.FormatFloat(v, 'g', -1, 64)), nil
	case time.Time:
		return v.Format(time.RFC3339Nano), nil
	case []any:
		for i, x := range v {
			var err error
			if v[i], err = jsonValue(x); err != nil {
				return nil, err
			}
		}
		return v, nil
	case map[string]any:
		for k, x := range v {
			var err error
			if v[k], err = jsonValue(x); err != nil {
				return nil, err
			}
		}
		return v, nil
	case map[any]any:
		return nil, errors.New("not valid YAML: mapping keys must be strings")
	}
	return nil, fmt.Errorf("not valid YAML: unsupported value of type %T", v)
}

// fromTree recognises the form of a decoded definition and converts it to
// v1. The members that tell the forms apart do not overlap: formatVersion
// (v1), flow (legacy nested or flat, possibly as text), a start list (the
// nested form without its wrapper), nodes with edges (UI graph).
func (r *reader) fromTree(v any) (*Definition, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, &DefinitionError{Details: []string{"a flow definition must be an object"}}
	}
	var d *Definition
	switch {
	case has(obj, "formatVersion"):
		d = r.v1(obj)
	case has(obj, "flow"):
		switch f := obj["flow"].(type) {
		case string:
			return r.parseText(f)
		case map[string]any:
			switch {
			case has(f, "formatVersion"):
				d = r.v1(f)
			case has(f, "start"):
				d = r.nested(f, obj["metadata"])
			case has(f, "nodes"):
				d = r.flat(f, obj["metadata"])
			default:
				r.errorf("flow must hold start or nodes")
			}
		default:
			r.errorf("flow must be an object or a string")
		}
	case isList(obj["start"]):
		d = r.nested(obj, nil)
	case has(obj, "nodes") && has(obj, "edges"):
		d = r.graph(obj)
	default:
		r.errorf("formatVersion is required")
	}
	if err := r.err(); err != nil {
		return nil, err
	}
	return d, nil
}

func has(obj map[string]any, key string) bool {
	_, ok := obj[key]
	return ok
}

func isList(v any) bool {
	_, ok := v.([]any)
	return ok
}

// reader converts decoded trees into definitions and collects every
// problem, so one answer lists them all, and every member it ignored.
type reader struct {
	problems []string
	ignored  []string
}

func (r *reader) errorf(format string, args ...any) {
	r.problems = append(r.problems, fmt.Sprintf(format, args...))
}

func (r *reader) err() error {
	if len(r.problems) == 0 {
		return nil
	}
	return &DefinitionError{Details: r.problems}
}

// v1 reads the stored form, format version 1.
func (r *reader) v1(obj map[string]any) *Definition {
	d := &Definition{Nodes: []Node{}}
	switch fv := obj["formatVersion"].(type) {
	case nil:
		r.errorf("formatVersion is required")
	case json.Number:
		if n, err := fv.Int64(); err != nil {
			r.errorf("formatVersion must be an integer")
		} else if n != 1 {
			r.errorf("unsupported formatVersion %d", n)
		} else {
			d.FormatVersion = 1
		}
	default:
		r.errorf("formatVersion must be an integer")
	}
	d.Start = r.str(obj, "start", "definition")
	switch nodes := obj["nodes"].(type) {
	case nil:
		if !has(obj, "nodes") {
			r.errorf("nodes is required")
		}
	case []any:
		for i, v := range nodes {
			d.Nodes = append(d.Nodes, r.node(v, fmt.Sprintf("node at index %d", i)))
		}
	default:
		r.errorf("nodes must be an array")
	}
	d.Metadata = r.metadata(obj["metadata"])
	for _, k := range unknownMembers(obj, definitionMembers) {
		r.errorf("unknown member %q; a definition of format version 1 has %s", engine.Quoted(k), strings.Join(definitionMembers, ", "))
	}
	return d
}

// The members of format version 1. A newer version would add to them, so
// the definition's are all it takes; a node's other members are ignored,
// as the members its type does not use are, and so are its policy
// reference's.
var (
	definitionMembers = []string{"formatVersion", "start", "nodes", "metadata"}
	nodeMembers       = []string{"id", "type", "name", "policy", "policyName", "policyId", "onTrue", "onFalse", "next", "returnValue", "outcome"}
	policyMembers     = []string{"id", "baseId", "ref"}
)

// unknownMembers are m's members that members does not list, in order.
func unknownMembers(m map[string]any, members []string) []string {
	var unknown []string
	for k := range m {
		if !slices.Contains(members, k) {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	return unknown
}

// node reads a v1 node; where names it in messages.
func (r *reader) node(v any, where string) Node {
	m, ok := v.(map[string]any)
	if !ok {
		r.errorf("%s must be an object", where)
		return Node{}
	}
	n := Node{
		ID:          r.str(m, "id", where),
		Type:        r.str(m, "type", where),
		Name:        r.str(m, "name", where),
		Policy:      r.policy(m, where),
		PolicyName:  r.str(m, "policyName", where),
		OnTrue:      r.ids(m, "onTrue", where),
		OnFalse:     r.ids(m, "onFalse", where),
		Next:        r.ids(m, "next", where),
		ReturnValue: m["returnValue"],
		Outcome:     r.optStr(m, "outcome", where),
	}
	for _, k := range unknownMembers(m, nodeMembers) {
		r.ignored = append(r.ignored, fmt.Sprintf("node %q has a member %q that no node has; it is ignored and not stored", engine.Quoted(n.ID), engine.Quoted(k)))
	}
	if p, ok := m["policy"].(map[string]any); ok {
		for _, k := range unknownMembers(p, policyMembers) {
			r.ignored = append(r.ignored, fmt.Sprintf("node %q has a policy member %q that no policy reference has; it is ignored and not stored", engine.Quoted(n.ID), engine.Quoted(k)))
		}
	}
	return n
}

// str reads an optional string member; null counts as absent.
func (r *reader) str(m map[string]any, key, where string) string {
	if s := r.optStr(m, key, where); s != nil {
		return *s
	}
	return ""
}

func (r *reader) optStr(m map[string]any, key, where string) *string {
	switch v := m[key].(type) {
	case nil:
		return nil
	case string:
		return &v
	}
	r.errorf("%s: %s must be a string", where, key)
	return nil
}

// ids reads a branch: a node id, an array of node ids, or nothing.
func (r *reader) ids(m map[string]any, key, where string) []string {
	switch v := m[key].(type) {
	case nil:
		return nil
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			s, ok := x.(string)
			if !ok {
				r.errorf("%s: %s must be a node id or an array of node ids", where, key)
				return nil
			}
			out = append(out, s)
		}
		return out
	}
	r.errorf("%s: %s must be a node id or an array of node ids", where, key)
	return nil
}

// policy reads the policy object, or the legacy policyId shorthand for
// {ref: ...}.
func (r *reader) policy(m map[string]any, where string) *PolicyRef {
	var ref *PolicyRef
	switch p := m["policy"].(type) {
	case nil:
	case map[string]any:
		ref = &PolicyRef{
			ID:     r.str(p, "id", where+": policy"),
			BaseID: r.str(p, "baseId", where+": policy"),
			Ref:    r.str(p, "ref", where+": policy"),
		}
	default:
		r.errorf("%s: policy must be an object", where)
	}
	legacy := r.str(m, "policyId", where)
	switch {
	case legacy == "":
	case ref == nil:
		ref = &PolicyRef{Ref: legacy}
	case ref.Ref == "":
		ref.Ref = legacy
	case ref.Ref != legacy:
		r.errorf("%s: policyId and policy.ref differ", where)
	}
	return ref
}

// metadata keeps any object as compact JSON; the runner never reads it.
func (r *reader) metadata(v any) json.RawMessage {
	switch v.(type) {
	case nil:
		return nil
	case map[string]any:
		b, err := json.Marshal(v)
		if err != nil {
			r.errorf("metadata: %v", err)
		}
		return b
	}
	r.errorf("metadata must be an object")
	return nil
}
