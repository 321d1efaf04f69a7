package flow

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Node types.
const (
	TypeStart  = "start"
	TypePolicy = "policy"
	TypeReturn = "return"
	TypeCustom = "custom"
)

// Definition is a v1 flow definition (docs/flows.md). Marshalling it with
// encoding/json gives the normalized v1 JSON that is stored; parsing that
// JSON back gives an equal Definition with the same validation problems.
type Definition struct {
	FormatVersion int             `json:"formatVersion"`
	Start         string          `json:"start,omitempty"`
	Nodes         []Node          `json:"nodes"`
	Metadata      json.RawMessage `json:"metadata,omitempty"`
}

// UnmarshalJSON accepts every form Parse does, so a stored definition can
// be loaded by anything that decodes JSON.
func (d *Definition) UnmarshalJSON(b []byte) error {
	parsed, err := Parse(b)
	if err != nil {
		return err
	}
	*d = *parsed
	return nil
}

// StartNode is the id of the node a run of d begins at: the node the
// start member names, else d's one start node (the graph's roots). It is
// "" when there is no such node: the member names none and d has no start
// node, or several, which validation refuses.
func (d *Definition) StartNode() string {
	g := newGraph(d)
	if len(g.roots) != 1 {
		return ""
	}
	return d.Nodes[g.roots[0]].ID
}

// Node is one node of a definition. Content that validation rejects (a
// non-boolean returnValue, a missing outcome, branches where none belong)
// is kept as it came, so that a draft can be saved and its problems
// reported later.
type Node struct {
	ID         string
	Type       string
	Name       string
	Policy     *PolicyRef
	PolicyName string
	OnTrue     []string
	OnFalse    []string
	Next       []string
	// ReturnValue is any JSON value (nil when absent): required and boolean
	// on return nodes; on start/policy nodes a legacy false forces the
	// false branch.
	ReturnValue any
	// Outcome is the custom node's outcome; nil when absent.
	Outcome *string
}

// nodeJSON fixes the member order of the stored form.
type nodeJSON struct {
	ID          string     `json:"id"`
	Type        string     `json:"type"`
	Name        string     `json:"name,omitempty"`
	Policy      *PolicyRef `json:"policy,omitempty"`
	PolicyName  string     `json:"policyName,omitempty"`
	OnTrue      any        `json:"onTrue,omitempty"`
	OnFalse     any        `json:"onFalse,omitempty"`
	Next        any        `json:"next,omitempty"`
	ReturnValue any        `json:"returnValue,omitempty"`
	Outcome     *string    `json:"outcome,omitempty"`
}

// MarshalJSON writes a branch of one id as a string and longer ones as
// arrays, the form the UI and people read most easily.
func (n Node) MarshalJSON() ([]byte, error) {
	return json.Marshal(nodeJSON{
		ID: n.ID, Type: n.Type, Name: n.Name, Policy: n.Policy, PolicyName: n.PolicyName,
		OnTrue: branchJSON(n.OnTrue), OnFalse: branchJSON(n.OnFalse), Next: branchJSON(n.Next),
		ReturnValue: n.ReturnValue, Outcome: n.Outcome,
	})
}

func branchJSON(ids []string) any {
	switch len(ids) {
	case 0:
		return nil
	case 1:
		return ids[0]
	}
	return ids
}

// UnmarshalJSON reads a node of the v1 form, with the same rules as Parse.
func (n *Node) UnmarshalJSON(b []byte) error {
	v, err := decodeJSON(b)
	if err != nil {
		return &DefinitionError{Details: []string{err.Error()}}
	}
	var r reader
	node := r.node(v, "node")
	if err := r.err(); err != nil {
		return err
	}
	*n = node
	return nil
}

// PolicyRef names the policy a start or policy node evaluates; exactly one
// member is set.
type PolicyRef struct {
	ID     string `json:"id,omitempty"`     // exact record (pinned)
	BaseID string `json:"baseId,omitempty"` // latest version, else draft
	Ref    string `json:"ref,omitempty"`    // legacy: record id first, then base id
}

// String is the reference as messages quote it.
func (r PolicyRef) String() string {
	switch {
	case r.ID != "":
		return r.ID
	case r.BaseID != "":
		return r.BaseID
	}
	return r.Ref
}

// kinds counts the members that are set; a valid reference has one.
func (r PolicyRef) kinds() int {
	n := 0
	for _, s := range [...]string{r.ID, r.BaseID, r.Ref} {
		if s != "" {
			n++
		}
	}
	return n
}

// NodePolicy is the policy reference of one node.
type NodePolicy struct {
	NodeID string
	Ref    PolicyRef
}

// PolicyRefs lists the policy references of start and policy nodes, in node
// order, for the caller to check that each resolves. Nodes without a
// reference are left to Validate.
func (d *Definition) PolicyRefs() []NodePolicy {
	var out []NodePolicy
	for _, n := range d.Nodes {
		if (n.Type == TypeStart || n.Type == TypePolicy) && n.Policy != nil && n.Policy.String() != "" {
			out = append(out, NodePolicy{NodeID: n.ID, Ref: *n.Policy})
		}
	}
	return out
}

// MaxNodes and MaxBranchTargets bound a definition sent to be saved or
// tested: far beyond a flow people draw and read (a true and a false
// branch for each node), and within what the console lays out in a few
// seconds.
const (
	MaxNodes         = 1000
	MaxBranchTargets = 2 * MaxNodes
)

// CheckSize refuses, with a *DefinitionError, a definition of more nodes
// or branch targets than MaxNodes and MaxBranchTargets.
func CheckSize(d *Definition) error {
	var problems []string
	if len(d.Nodes) > MaxNodes {
		problems = append(problems, fmt.Sprintf("the definition holds %d nodes; a flow may hold at most %d", len(d.Nodes), MaxNodes))
	}
	targets := 0
	for _, n := range d.Nodes {
		targets += len(n.OnTrue) + len(n.OnFalse) + len(n.Next)
	}
	if targets > MaxBranchTargets {
		problems = append(problems, fmt.Sprintf("the definition's branches name %d targets; a flow may name at most %d", targets, MaxBranchTargets))
	}
	if problems != nil {
		return &DefinitionError{Details: problems}
	}
	return nil
}

// DefinitionError means a definition cannot be decoded or is invalid for
// what it is used for; Details lists every problem.
type DefinitionError struct {
	Details []string
}

// Message is the API error message that accompanies the details.
func (e *DefinitionError) Message() string { return "invalid flow definition" }

func (e *DefinitionError) Error() string {
	return e.Message() + ": " + strings.Join(e.Details, "; ")
}
