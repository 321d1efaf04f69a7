package flow

import (
	"fmt"

	"github.com/verdict/verdict/engine"
)

// Stage says what a definition is validated for: saving, publishing or
// running (docs/flows.md, "Validation").
type Stage int

const (
	// StageSave reports everything; the draft is saved anyway.
	StageSave Stage = iota
	// StagePublish rejects on any error; missing branches only warn.
	StagePublish
	// StageRun rejects only what would break a run: structural problems
	// anywhere, content problems of nodes the run can reach.
	StageRun
)

// Problems found by Validate, in node order. Both lists are non-nil.
type Problems struct {
	Errors   []string `json:"errors"`
	Warnings []string `json:"warnings"`
}

// Validate checks a definition for a stage and returns every problem. Save
// and publish find the same problems (a save reports them, a publish
// rejects on errors); run leaves out unreachable nodes and missing
// branches, which can never break a run. Whether policy references resolve
// is the caller's to check (PolicyRefs).
func Validate(d *Definition, stage Stage) Problems {
	if d == nil {
		d = &Definition{}
	}
	g := newGraph(d)
	return g.validate(stage)
}

// graph is a definition's nodes connected by their branches.
type graph struct {
	d         *Definition
	index     map[string]int // the first node of each non-empty id
	starts    []int          // nodes of type start
	roots     []int          // where runs begin: the start member, else every start node
	edges     []int          // targets of node i: edges[offsets[i]:offsets[i+1]]
	offsets   []int
	reachable []bool
}

// newGraph returns the graph itself so that a Plan can hold it without an
// allocation of its own.
func newGraph(d *Definition) graph {
	n := len(d.Nodes)
	g := graph{d: d, index: make(map[string]int, n), offsets: make([]int, n+1), reachable: make([]bool, n)}
	branches := 0
	for i, node := range d.Nodes {
		if _, dup := g.index[node.ID]; !dup && node.ID != "" {
			g.index[node.ID] = i
		}
		if node.Type == TypeStart {
			g.starts = append(g.starts, i)
		}
		branches += len(node.OnTrue) + len(node.OnFalse) + len(node.Next)
	}
	g.edges = make([]int, 0, branches)
	for i := range d.Nodes {
		node := &d.Nodes[i]
		for _, list := range [...][]string{node.OnTrue, node.OnFalse, node.Next} {
			for _, id := range list {
				if j, ok := g.index[id]; ok {
					g.edges = append(g.edges, j)
				}
			}
		}
		g.offsets[i+1] = len(g.edges)
	}
	g.roots = g.starts
	if i, ok := g.index[d.Start]; ok {
		g.roots = []int{i}
	}
	stack := append(make([]int, 0, n), g.roots...)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !g.reachable[i] {
			g.reachable[i] = true
			stack = append(stack, g.targets(i)...)
		}
	}
	return g
}

// targets are the existing nodes node i branches to, in order.
func (g *graph) targets(i int) []int {
	return g.edges[g.offsets[i]:g.offsets[i+1]]
}

func (g *graph) validate(stage Stage) Problems {
	d := g.d
	v := validation{g: g, perNode: make([][]string, len(d.Nodes))}
	v.checkStart()
	for i := range d.Nodes {
		v.checkNode(i, stage)
	}
	v.checkCycles()
	if stage != StageRun && len(g.roots) > 0 {
		for i, n := range d.Nodes {
			if !g.reachable[i] {
				v.add(i, "Node %q is not connected to the flow", engine.Quoted(n.ID))
			}
		}
	}
	p := Problems{Errors: v.flatten(), Warnings: []string{}}
	if stage != StageRun {
		for _, n := range d.Nodes {
			if n.Type != TypeStart && n.Type != TypePolicy {
				continue
			}
			if len(n.OnTrue) == 0 {
				p.Warnings = append(p.Warnings, fmt.Sprintf("%s node %q is missing a TRUE path", n.Type, engine.Quoted(n.ID)))
			}
			if len(n.OnFalse) == 0 {
				p.Warnings = append(p.Warnings, fmt.Sprintf("%s node %q is missing a FALSE path", n.Type, engine.Quoted(n.ID)))
			}
		}
	}
	return p
}

// validation collects errors by node, so that they come out in node order
// whichever check found them.
type validation struct {
	g       *graph
	global  []string
	perNode [][]string
	state   []uint8 // per node, for checkCycles
}

func (v *validation) add(i int, format string, args ...any) {
	v.perNode[i] = append(v.perNode[i], fmt.Sprintf(format, args...))
}

// flatten lists the errors, each once.
func (v *validation) flatten() []string {
	out := []string{}
	var seen map[string]bool
	add := func(list []string) {
		for _, msg := range list {
			if seen == nil {
				seen = map[string]bool{}
			}
			if !seen[msg] {
				seen[msg] = true
				out = append(out, msg)
			}
		}
	}
	add(v.global)
	for _, list := range v.perNode {
		add(list)
	}
	return out
}

func (v *validation) checkStart() {
	g := v.g
	switch len(g.starts) {
	case 0:
		v.global = append(v.global, "No start node found in the flow")
	case 1:
	default:
		v.global = append(v.global, "Flow must have exactly one start node")
	}
	if s := g.d.Start; s != "" {
		if i, ok := g.index[s]; !ok || g.d.Nodes[i].Type != TypeStart {
			v.global = append(v.global, "start must reference a start node")
		}
	}
}

func (v *validation) checkNode(i int, stage Stage) {
	g := v.g
	n := &g.d.Nodes[i]
	if n.ID == "" {
		v.add(i, "Node at index %d has no id", i)
	} else if g.index[n.ID] != i {
		v.add(i, "Duplicate node id %q", engine.Quoted(n.ID))
	}
	switch n.Type {
	case TypeStart, TypePolicy, TypeReturn, TypeCustom:
	case "":
		v.add(i, "Node %q has no type", engine.Quoted(n.ID))
	default:
		v.add(i, "unknown node type: %s (node %q)", engine.Quoted(string(n.Type)), engine.Quoted(n.ID))
	}
	// Content only matters to a run if the run can get there.
	if stage != StageRun || g.reachable[i] {
		v.checkContent(i)
	}
	v.checkBranches(i)
}

func (v *validation) checkContent(i int) {
	n := &v.g.d.Nodes[i]
	switch n.Type {
	case TypeStart, TypePolicy:
		switch {
		case n.Policy == nil || n.Policy.kinds() == 0:
			v.add(i, "%s node %q must have a Policy ID", n.Type, engine.Quoted(n.ID))
		case n.Policy.kinds() > 1:
			v.add(i, "%s node %q must reference its policy by exactly one of id, baseId or ref", n.Type, engine.Quoted(n.ID))
		}
		if _, ok := n.ReturnValue.(bool); n.ReturnValue != nil && !ok {
			v.add(i, "%s node %q returnValue must be a boolean", n.Type, engine.Quoted(n.ID))
		}
	case TypeReturn:
		if _, ok := n.ReturnValue.(bool); !ok {
			v.add(i, "return node %q must have a boolean returnValue", engine.Quoted(n.ID))
		}
	case TypeCustom:
		if n.Outcome == nil {
			v.add(i, "custom node %q must have an outcome", engine.Quoted(n.ID))
		}
	}
}

// checkBranches reports branch lists a node type does not follow (a run
// would silently ignore them) and targets that cannot be branched to.
func (v *validation) checkBranches(i int) {
	g := v.g
	n := &g.d.Nodes[i]
	switch n.Type {
	case TypeReturn:
		if len(n.OnTrue)+len(n.OnFalse)+len(n.Next) > 0 {
			v.add(i, "return node %q cannot have branches", engine.Quoted(n.ID))
		}
	case TypeCustom:
		if len(n.OnTrue)+len(n.OnFalse) > 0 {
			v.add(i, "custom node %q cannot have onTrue or onFalse (use next)", engine.Quoted(n.ID))
		}
	case TypeStart, TypePolicy:
		if len(n.Next) > 0 {
			v.add(i, "%s node %q cannot have next", n.Type, engine.Quoted(n.ID))
		}
	}
	for _, list := range [...][]string{n.OnTrue, n.OnFalse, n.Next} {
		for _, id := range list {
			j, ok := g.index[id]
			switch {
			case !ok:
				v.add(i, "Referenced node %q not found", engine.Quoted(id))
			// A start member naming a node of another type is checkStart's
			// problem alone: once it is put right, that node is a target
			// like any other.
			case g.d.Nodes[j].Type == TypeStart:
				v.add(i, "Node %q cannot be a branch target", engine.Quoted(id))
			}
		}
	}
}

// checkCycles reports each node that closes a cycle, once, at that node.
func (v *validation) checkCycles() {
	v.state = make([]uint8, len(v.g.d.Nodes))
	for i := range v.state {
		if v.state[i] == unvisited {
			v.visit(i)
		}
	}
}

// Depth-first search states of checkCycles.
const (
	unvisited uint8 = iota
	visiting
	visited
)

func (v *validation) visit(i int) {
	v.state[i] = visiting
	for _, j := range v.g.targets(i) {
		switch v.state[j] {
		case unvisited:
			v.visit(j)
		case visiting:
			v.add(j, "Circular reference detected involving node %q", engine.Quoted(v.g.d.Nodes[j].ID))
		}
	}
	v.state[i] = visited
}
