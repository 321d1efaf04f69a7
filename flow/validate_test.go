package flow

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// fx1 is the minimal valid flow of FX 1: start → return true / false.
func fx1() *Definition {
	return &Definition{FormatVersion: 1, Nodes: []Node{
		{ID: "s", Type: "start", Policy: &PolicyRef{ID: "P-AGE"}, OnTrue: []string{"t"}, OnFalse: []string{"f"}},
		{ID: "t", Type: "return", ReturnValue: true},
		{ID: "f", Type: "return", ReturnValue: false},
	}}
}

// fx2 is the chained flow of FX 2.
func fx2() *Definition {
	return &Definition{FormatVersion: 1, Nodes: []Node{
		{ID: "s", Type: "start", Policy: &PolicyRef{ID: "P-AGE"}, OnTrue: []string{"p"}, OnFalse: []string{"no"}},
		{ID: "p", Type: "policy", Policy: &PolicyRef{BaseID: "B-INCOME"}, OnTrue: []string{"yes"}, OnFalse: []string{"review"}},
		{ID: "yes", Type: "return", ReturnValue: true},
		{ID: "review", Type: "custom", Outcome: strp("manual review")},
		{ID: "no", Type: "return", ReturnValue: false},
	}}
}

func withNodes(d *Definition, nodes ...Node) *Definition {
	d.Nodes = append(d.Nodes, nodes...)
	return d
}

func TestValidateReportsEveryRowForEachStage(t *testing.T) {
	none := []string{}
	type want struct{ save, publish, run Problems }
	// same is a problem every stage reports as an error.
	same := func(errs ...string) want {
		p := Problems{Errors: append([]string{}, errs...), Warnings: none}
		return want{p, p, p}
	}
	// runIgnores is a problem of a node runs never reach.
	runIgnores := func(errs ...string) want {
		p := Problems{Errors: errs, Warnings: none}
		return want{p, p, Problems{Errors: errs[:len(errs)-1], Warnings: none}}
	}
	// reachableOnly is a content problem of a node runs never reach.
	reachableOnly := func(errs ...string) want {
		p := Problems{Errors: errs, Warnings: none}
		return want{p, p, Problems{Errors: none, Warnings: none}}
	}
	tests := []struct {
		name string
		def  *Definition
		want want
	}{
		{"a valid flow has no problems", fx2(), same()},
		{"no start node", &Definition{FormatVersion: 1, Nodes: []Node{{ID: "t", Type: "return", ReturnValue: true}}},
			same("No start node found in the flow")},
		{"no nodes at all", &Definition{FormatVersion: 1, Nodes: []Node{}}, same("No start node found in the flow")},
		{"two start nodes", withNodes(fx1(), Node{ID: "s2", Type: "start", Policy: &PolicyRef{ID: "P-AGE"}, OnTrue: []string{"t"}, OnFalse: []string{"f"}}),
			same("Flow must have exactly one start node")},
		{"start naming a policy node", func() *Definition {
			d := withNodes(fx1(), Node{ID: "p", Type: "policy", Policy: &PolicyRef{ID: "P-AGE"}, OnTrue: []string{"t"}, OnFalse: []string{"f"}})
			d.Start = "p"
			return d
		}(), runIgnores("start must reference a start node", `Node "s" is not connected to the flow`)},
		{"start naming no node", func() *Definition { d := fx1(); d.Start = "nope"; return d }(),
			same("start must reference a start node")},
		// t is the branch target it should be; only the member is wrong.
		{"start naming a return node", func() *Definition { d := fx1(); d.Start = "t"; return d }(), want{
			save: Problems{Errors: []string{"start must reference a start node",
				`Node "s" is not connected to the flow`, `Node "f" is not connected to the flow`}, Warnings: none},
			publish: Problems{Errors: []string{"start must reference a start node",
				`Node "s" is not connected to the flow`, `Node "f" is not connected to the flow`}, Warnings: none},
			run: Problems{Errors: []string{"start must reference a start node"}, Warnings: none},
		}},
		{"a duplicate id", withNodes(fx1(), Node{ID: "t", Type: "return", ReturnValue: false}),
			runIgnores(`Duplicate node id "t"`, `Node "t" is not connected to the flow`)},
		{"an empty id", withNodes(fx1(), Node{Type: "return", ReturnValue: false}),
			runIgnores("Node at index 3 has no id", `Node "" is not connected to the flow`)},
		{"an unknown node type", func() *Definition {
			d := fx1()
			d.Nodes[1] = Node{ID: "t", Type: "webhook"}
			return d
		}(), same(`unknown node type: webhook (node "t")`)},
		{"a node without a type", func() *Definition {
			d := fx1()
			d.Nodes[1] = Node{ID: "t"}
			return d
		}(), same(`Node "t" has no type`)},
		{"a branch to a missing id", func() *Definition { d := fx1(); d.Nodes[0].OnTrue = []string{"t", "gone"}; return d }(),
			same(`Referenced node "gone" not found`)},
		{"a branch to the start node", func() *Definition {
			d := fx2()
			d.Nodes[1].OnFalse = []string{"s"}
			d.Nodes = d.Nodes[:3]
			d.Nodes[0].OnFalse = nil
			return d
		}(), want{
			save:    Problems{Errors: []string{`Circular reference detected involving node "s"`, `Node "s" cannot be a branch target`}, Warnings: []string{`start node "s" is missing a FALSE path`}},
			publish: Problems{Errors: []string{`Circular reference detected involving node "s"`, `Node "s" cannot be a branch target`}, Warnings: []string{`start node "s" is missing a FALSE path`}},
			run:     Problems{Errors: []string{`Circular reference detected involving node "s"`, `Node "s" cannot be a branch target`}, Warnings: none},
		}},
		{"branches on a return node", func() *Definition { d := fx1(); d.Nodes[1].OnTrue = []string{"f"}; return d }(),
			same(`return node "t" cannot have branches`)},
		{"next on a return node", func() *Definition { d := fx1(); d.Nodes[1].Next = []string{"f"}; return d }(),
			same(`return node "t" cannot have branches`)},
		{"onTrue on a custom node", func() *Definition { d := fx2(); d.Nodes[3].OnTrue = []string{"yes"}; return d }(),
			same(`custom node "review" cannot have onTrue or onFalse (use next)`)},
		{"next on a policy node", func() *Definition { d := fx2(); d.Nodes[1].Next = []string{"yes"}; return d }(),
			same(`policy node "p" cannot have next`)},
		{"a cycle", withNodes(func() *Definition { d := fx1(); d.Nodes[0].OnTrue = []string{"a"}; return d }(),
			Node{ID: "a", Type: "policy", Policy: &PolicyRef{ID: "P-AGE"}, OnTrue: []string{"b"}, OnFalse: []string{"f"}},
			Node{ID: "b", Type: "policy", Policy: &PolicyRef{ID: "P-AGE"}, OnTrue: []string{"t"}, OnFalse: []string{"a"}},
		), same(`Circular reference detected involving node "a"`)},
		{"a custom node continuing into a cycle", withNodes(func() *Definition { d := fx1(); d.Nodes[0].OnTrue = []string{"c"}; return d }(),
			Node{ID: "c", Type: "custom", Outcome: strp("x"), Next: []string{"c"}},
		), want{
			save:    Problems{Errors: []string{`Node "t" is not connected to the flow`, `Circular reference detected involving node "c"`}, Warnings: none},
			publish: Problems{Errors: []string{`Node "t" is not connected to the flow`, `Circular reference detected involving node "c"`}, Warnings: none},
			run:     Problems{Errors: []string{`Circular reference detected involving node "c"`}, Warnings: none},
		}},
		{"a reachable policy node without a policy", func() *Definition { d := fx2(); d.Nodes[1].Policy = nil; return d }(),
			same(`policy node "p" must have a Policy ID`)},
		{"a start node with an empty policy reference", func() *Definition { d := fx1(); d.Nodes[0].Policy = &PolicyRef{}; return d }(),
			same(`start node "s" must have a Policy ID`)},
		{"an unreachable policy node without a policy", withNodes(fx1(),
			Node{ID: "p", Type: "policy", OnTrue: []string{"t"}, OnFalse: []string{"f"}}),
			reachableOnly(`policy node "p" must have a Policy ID`, `Node "p" is not connected to the flow`)},
		{"a policy reference of two kinds", func() *Definition { d := fx2(); d.Nodes[1].Policy.Ref = "P-INCOME"; return d }(),
			same(`policy node "p" must reference its policy by exactly one of id, baseId or ref`)},
		{"a legacy returnValue that is not a boolean", func() *Definition { d := fx1(); d.Nodes[0].ReturnValue = "false"; return d }(),
			same(`start node "s" returnValue must be a boolean`)},
		{"a reachable return node without a boolean", func() *Definition { d := fx1(); d.Nodes[1].ReturnValue = "undefined"; return d }(),
			same(`return node "t" must have a boolean returnValue`)},
		{"a reachable return node without a value", func() *Definition { d := fx1(); d.Nodes[2].ReturnValue = nil; return d }(),
			same(`return node "f" must have a boolean returnValue`)},
		{"an unreachable return node without a boolean", withNodes(fx1(), Node{ID: "r", Type: "return", ReturnValue: "undefined"}),
			reachableOnly(`return node "r" must have a boolean returnValue`, `Node "r" is not connected to the flow`)},
		{"a reachable custom node without an outcome", func() *Definition { d := fx2(); d.Nodes[3].Outcome = nil; return d }(),
			same(`custom node "review" must have an outcome`)},
		{"an unreachable custom node without an outcome", withNodes(fx1(), Node{ID: "c", Type: "custom"}),
			reachableOnly(`custom node "c" must have an outcome`, `Node "c" is not connected to the flow`)},
		{"an unreachable node", withNodes(fx1(), Node{ID: "o", Type: "return", ReturnValue: true}),
			reachableOnly(`Node "o" is not connected to the flow`)},
		{"missing TRUE and FALSE paths", func() *Definition {
			d := fx2()
			d.Nodes[0].OnFalse = nil
			d.Nodes[1].OnTrue = nil
			d.Nodes = append(d.Nodes[:2], d.Nodes[3])
			return d
		}(), want{
			save:    Problems{Errors: none, Warnings: []string{`start node "s" is missing a FALSE path`, `policy node "p" is missing a TRUE path`}},
			publish: Problems{Errors: none, Warnings: []string{`start node "s" is missing a FALSE path`, `policy node "p" is missing a TRUE path`}},
			run:     Problems{Errors: none, Warnings: none},
		}},
		{"several problems come out in node order, each once", &Definition{FormatVersion: 1, Nodes: []Node{
			{ID: "a", Type: "policy", OnTrue: []string{"x", "x"}},
			{ID: "s", Type: "start", Policy: &PolicyRef{Ref: "P-AGE"}, OnTrue: []string{"a"}, OnFalse: []string{"b"}},
			{ID: "b", Type: "return", ReturnValue: json.Number("1")},
			{ID: "a", Type: "loop"},
		}}, want{
			save: Problems{Errors: []string{
				`policy node "a" must have a Policy ID`, `Referenced node "x" not found`,
				`return node "b" must have a boolean returnValue`,
				`Duplicate node id "a"`, `unknown node type: loop (node "a")`, `Node "a" is not connected to the flow`,
			}, Warnings: []string{`policy node "a" is missing a FALSE path`}},
			publish: Problems{Errors: []string{
				`policy node "a" must have a Policy ID`, `Referenced node "x" not found`,
				`return node "b" must have a boolean returnValue`,
				`Duplicate node id "a"`, `unknown node type: loop (node "a")`, `Node "a" is not connected to the flow`,
			}, Warnings: []string{`policy node "a" is missing a FALSE path`}},
			run: Problems{Errors: []string{
				`policy node "a" must have a Policy ID`, `Referenced node "x" not found`,
				`return node "b" must have a boolean returnValue`,
				`Duplicate node id "a"`, `unknown node type: loop (node "a")`,
			}, Warnings: none},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for stage, want := range map[Stage]Problems{StageSave: tt.want.save, StagePublish: tt.want.publish, StageRun: tt.want.run} {
				if got := Validate(tt.def, stage); !reflect.DeepEqual(got, want) {
					t.Errorf("stage %d:\n got %#v\nwant %#v", stage, got, want)
				}
			}
			checkRoundTrip(t, tt.def)
		})
	}
}

func TestValidateTreatsNilAsEmpty(t *testing.T) {
	want := Problems{Errors: []string{"No start node found in the flow"}, Warnings: []string{}}
	if got := Validate(nil, StageSave); !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v", got)
	}
}

func TestPolicyRefsListsStartAndPolicyNodesInOrder(t *testing.T) {
	d := withNodes(fx2(),
		Node{ID: "q", Type: "policy", Policy: &PolicyRef{Ref: "R"}},
		Node{ID: "n", Type: "policy"},
		Node{ID: "c", Type: "custom", Policy: &PolicyRef{ID: "ignored"}},
	)
	want := []NodePolicy{
		{NodeID: "s", Ref: PolicyRef{ID: "P-AGE"}},
		{NodeID: "p", Ref: PolicyRef{BaseID: "B-INCOME"}},
		{NodeID: "q", Ref: PolicyRef{Ref: "R"}},
	}
	if got := d.PolicyRefs(); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v", got)
	}
	for ref, want := range map[PolicyRef]string{{ID: "a"}: "a", {BaseID: "b"}: "b", {Ref: "c"}: "c", {}: ""} {
		if got := ref.String(); got != want {
			t.Errorf("%#v.String() = %q, want %q", ref, got, want)
		}
	}
}

// TestStartNodeIsWhereARunBegins: the start member when it names a node,
// else the one start node; for a valid definition, the node its plan
// starts at.
func TestStartNodeIsWhereARunBegins(t *testing.T) {
	withStart := func(start string, nodes ...Node) *Definition {
		d := fx1()
		d.Start = start
		d.Nodes = append(d.Nodes, nodes...)
		return d
	}
	second := Node{ID: "s2", Type: "start", Policy: &PolicyRef{ID: "P-AGE"}, OnTrue: []string{"t"}, OnFalse: []string{"f"}}
	for _, c := range []struct {
		name string
		d    *Definition
		want string
	}{
		{"no member", withStart(""), "s"},
		{"a member naming the start node", withStart("s"), "s"},
		{"a member naming one of two start nodes", withStart("s2", second), "s2"},
		{"a member naming no node", withStart("x"), "s"},
		{"two start nodes and no member", withStart("", second), ""},
		{"no nodes", &Definition{FormatVersion: 1}, ""},
	} {
		if got := c.d.StartNode(); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		if _, p := Check(c.d, StageRun); p != nil && c.d.Nodes[p.start].ID != c.want {
			t.Errorf("%s: the plan starts at %q, StartNode says %q", c.name, c.d.Nodes[p.start].ID, c.want)
		}
	}
}

func TestCheckGivesTheStagesProblemsAndAPlanWhenTheDefinitionCanRun(t *testing.T) {
	unreachable := Node{ID: "lost", Type: "return"} // no returnValue, and nothing leads to it
	cycle := fx1()
	cycle.Nodes[1] = Node{ID: "t", Type: "policy", Policy: &PolicyRef{ID: "P-AGE"}, OnTrue: []string{"t"}, OnFalse: []string{"f"}}
	for _, tc := range []struct {
		name    string
		d       *Definition
		stage   Stage
		runs    bool
		invalid bool
	}{
		{"a valid flow at publish", fx2(), StagePublish, true, false},
		{"a valid flow at run", fx1(), StageRun, true, false},
		{"an unreachable broken node at save", withNodes(fx1(), unreachable), StageSave, true, true},
		{"an unreachable broken node at publish", withNodes(fx1(), unreachable), StagePublish, true, true},
		{"a cycle at save", cycle, StageSave, false, true},
		{"a cycle at run", cycle, StageRun, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			problems, plan := Check(tc.d, tc.stage)
			if want := Validate(tc.d, tc.stage); !reflect.DeepEqual(problems, want) {
				t.Errorf("problems %+v, Validate gives %+v", problems, want)
			}
			if (len(problems.Errors) > 0) != tc.invalid {
				t.Errorf("errors %v", problems.Errors)
			}
			if _, err := Prepare(tc.d); (plan != nil) != tc.runs || (err == nil) != tc.runs {
				t.Errorf("plan %v, Prepare's error %v, want a plan: %v", plan != nil, err, tc.runs)
			}
		})
	}
}

func TestCheckSizeRefusesMoreThanAFlowMayHold(t *testing.T) {
	// chain is a start node and n-1 policy nodes, each branching true to
	// the next and false to the first: two targets a node.
	chain := func(n int) *Definition {
		d := &Definition{FormatVersion: 1}
		for i := range n {
			d.Nodes = append(d.Nodes, Node{ID: fmt.Sprint("n", i), Type: TypePolicy, OnTrue: []string{fmt.Sprint("n", i+1)}, OnFalse: []string{"n0"}})
		}
		d.Nodes[0].Type = TypeStart
		return d
	}
	wide := chain(3)
	for i := range MaxBranchTargets - 5 {
		wide.Nodes[0].OnTrue = append(wide.Nodes[0].OnTrue, fmt.Sprint("t", i))
	}
	for _, c := range []struct {
		name string
		d    *Definition
		want []string
	}{
		{"as many nodes and targets as a flow may hold", chain(MaxNodes), nil},
		{"a node too many", chain(MaxNodes + 1), []string{
			"the definition holds 1001 nodes; a flow may hold at most 1000",
			"the definition's branches name 2002 targets; a flow may name at most 2000"}},
		{"a branch of too many targets", wide, []string{"the definition's branches name 2001 targets; a flow may name at most 2000"}},
	} {
		err := CheckSize(c.d)
		var de *DefinitionError
		switch {
		case c.want == nil && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != nil && (!errors.As(err, &de) || !reflect.DeepEqual(de.Details, c.want)):
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}
}
