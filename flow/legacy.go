package flow

import (
	"fmt"
	"reflect"

	"github.com/verdict/verdict/engine"
)

// nested converts the reference's nested YAML form: flow.start holds
// the start node, whose branches hold nested copies of their targets.
// Nodes are listed depth-first, each before its children. A copy identical
// to an earlier node of the same id is the same node; a differing one is
// kept, so validation reports the duplicate id.
func (r *reader) nested(flow map[string]any, metadata any) *Definition {
	d := &Definition{FormatVersion: 1, Nodes: []Node{}}
	switch start := flow["start"].(type) {
	case nil:
	case []any:
		// The reference runs several entries one after another; v1 has
		// exactly one start node, so such a flow cannot be converted.
		if len(start) > 1 {
			r.errorf("flow.start has %d entries; a flow has exactly one start node", len(start))
			break
		}
		f := flattener{r: r, d: d, seen: map[string]int{}}
		for _, v := range start {
			f.add(v, "the node in flow.start")
		}
	default:
		r.errorf("flow.start must be a list of nodes")
	}
	d.Metadata = r.metadata(metadata)
	return d
}

type flattener struct {
	r    *reader
	d    *Definition
	seen map[string]int // index of the first node of each id
}

// add lists a nested node and its subtree; where names the node in
// messages until its id is known.
func (f *flattener) add(v any, where string) {
	m, ok := v.(map[string]any)
	if !ok {
		f.r.errorf("%s must be an object", where)
		return
	}
	id, _ := m["id"].(string) // graphNode reports an id of the wrong type
	if id != "" {
		where = fmt.Sprintf("node %q", engine.Quoted(id))
	} else if v := m["id"]; v == nil || v == "" {
		// Validation would name the node by its index in the list this
		// builds, which the sender never wrote, and the parent's branch by
		// the empty id: say here where it is.
		f.r.errorf("%s has no id", where)
	}
	n := graphNode(f.r, m, where)
	onTrue := f.r.children(m, "onTrue", where)
	onFalse := f.r.children(m, "onFalse", where)
	// next is v1's, nested as the branches are: a converted flow keeps it
	// rather than dropping the nodes it leads to.
	next := f.r.children(m, "next", where)
	n.OnTrue, n.OnFalse, n.Next = childIDs(onTrue), childIDs(onFalse), childIDs(next)
	n.customBranches()
	if i, dup := f.seen[id]; !dup || !reflect.DeepEqual(f.d.Nodes[i], n) {
		if id != "" && !dup {
			f.seen[id] = len(f.d.Nodes)
		}
		f.d.Nodes = append(f.d.Nodes, n)
	}
	// Children are named after their parent's id only, so that messages
	// stay short however deep the nesting.
	parent := "a node without an id"
	if id != "" {
		parent = where
	}
	for _, c := range onTrue {
		f.add(c, "a node in onTrue of "+parent)
	}
	for _, c := range onFalse {
		f.add(c, "a node in onFalse of "+parent)
	}
	for _, c := range next {
		f.add(c, "a node in next of "+parent)
	}
}

// children reads a nested branch: a list of nodes, a single node, or
// nothing (the serialiser writes an empty key for a converging branch).
func (r *reader) children(m map[string]any, key, where string) []any {
	switch v := m[key].(type) {
	case nil:
		return nil
	case []any:
		return v
	case map[string]any:
		return []any{v}
	}
	r.errorf("%s: %s must be a list of nodes", where, key)
	return nil
}

// childIDs peeks at the ids of nested children; add reports what is wrong
// with them.
func childIDs(children []any) []string {
	var ids []string
	for _, c := range children {
		id := ""
		if m, ok := c.(map[string]any); ok {
			id, _ = m["id"].(string)
		}
		ids = append(ids, id)
	}
	return ids
}

// graphNode reads the members a node has in every legacy form; branches
// come from nesting or from edges.
func graphNode(r *reader, m map[string]any, where string) Node {
	n := Node{
		ID:          r.str(m, "id", where),
		Type:        r.str(m, "type", where),
		Name:        r.str(m, "label", where),
		PolicyName:  r.str(m, "policyName", where),
		ReturnValue: m["returnValue"],
		Outcome:     r.optStr(m, "outcome", where),
	}
	if ref := r.str(m, "policyId", where); ref != "" {
		n.Policy = &PolicyRef{Ref: ref}
	}
	return n
}

// edge is a true or false connection of a legacy graph.
type edge struct {
	from, to string
	branch   bool
}

// edgeForm is how a legacy form writes its edges: the member names, and
// what messages add after an edge's index to name its list.
type edgeForm struct {
	from, to, branch string
	in               string
}

// graph converts the UI's graph: nodes with labels and positions,
// edges with source handles "true" and "false".
func (r *reader) graph(obj map[string]any) *Definition {
	d := &Definition{FormatVersion: 1}
	d.Nodes = r.graphNodes(obj["nodes"], "nodes")
	connect(d.Nodes, r.edges(obj["edges"], "edges", edgeForm{from: "source", to: "target", branch: "sourceHandle"}))
	return d
}

// flat converts the alternative serialisation (flowToFlatYaml): flow.nodes
// and flow.edges with from, to and condition true, false or default.
func (r *reader) flat(flow map[string]any, metadata any) *Definition {
	d := &Definition{FormatVersion: 1}
	d.Nodes = r.graphNodes(flow["nodes"], "flow.nodes")
	connect(d.Nodes, r.edges(flow["edges"], "flow.edges", edgeForm{from: "from", to: "to", branch: "condition", in: " of flow.edges"}))
	d.Metadata = r.metadata(metadata)
	return d
}

// edges reads the true and false edges of a legacy edge list; what names
// the list in messages.
func (r *reader) edges(v any, what string, form edgeForm) []edge {
	var edges []edge
	for i, x := range r.list(v, what) {
		where := fmt.Sprintf("edge at index %d%s", i, form.in)
		m, ok := x.(map[string]any)
		if !ok {
			r.errorf("%s must be an object", where)
			continue
		}
		e := edge{from: r.str(m, form.from, where), to: r.str(m, form.to, where)}
		if branch, ok := handle(m[form.branch]); ok {
			e.branch = branch
			edges = append(edges, e)
		}
	}
	return edges
}

func (r *reader) list(v any, what string) []any {
	switch v := v.(type) {
	case nil:
		return nil
	case []any:
		return v
	}
	r.errorf("%s must be an array", what)
	return nil
}

// graphNodes reads the node list of the UI graph or the flat form. A
// custom node without an outcome gets the empty one, as the reference
// serialiser writes it.
func (r *reader) graphNodes(v any, what string) []Node {
	nodes := []Node{}
	for i, x := range r.list(v, what) {
		where := fmt.Sprintf("node at index %d of %s", i, what)
		m, ok := x.(map[string]any)
		if !ok {
			r.errorf("%s must be an object", where)
			continue
		}
		n := graphNode(r, m, where)
		if n.Type == TypeCustom && n.Outcome == nil {
			n.Outcome = new(string)
		}
		nodes = append(nodes, n)
	}
	return nodes
}

// handle reads which branch an edge belongs to. The UI writes the strings
// "true" and "false"; the flat YAML writes them unquoted, so they arrive as
// booleans. Anything else ("default", a missing handle) is not a branch.
func handle(v any) (branch, ok bool) {
	switch v {
	case "true", true:
		return true, true
	case "false", false:
		return false, true
	}
	return false, false
}

// connect turns edges into branches: a later edge for the same source and
// branch replaces an earlier one, as in the reference serialiser; a custom
// node's edges become its next list.
func connect(nodes []Node, edges []edge) {
	type targets struct{ onTrue, onFalse string }
	adj := map[string]*targets{}
	for _, e := range edges {
		t := adj[e.from]
		if t == nil {
			t = &targets{}
			adj[e.from] = t
		}
		if e.branch {
			t.onTrue = e.to
		} else {
			t.onFalse = e.to
		}
	}
	for i := range nodes {
		n := &nodes[i]
		t := adj[n.ID]
		if t == nil {
			continue
		}
		if t.onTrue != "" {
			n.OnTrue = []string{t.onTrue}
		}
		if t.onFalse != "" {
			n.OnFalse = []string{t.onFalse}
		}
		n.customBranches()
	}
}

// customBranches moves a legacy custom node's onTrue and onFalse to its
// next list, after any it has: the reference continues after a custom node
// with both.
func (n *Node) customBranches() {
	if n.Type == TypeCustom {
		n.Next = append(append(n.Next, n.OnTrue...), n.OnFalse...)
		n.OnTrue, n.OnFalse = nil, nil
	}
}
