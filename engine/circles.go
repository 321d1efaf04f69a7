package engine

import (
	"slices"
	"strings"
)

// A rule's result is worked out when a reference needs it, so rules whose
// references lead back to themselves can never finish: the evaluator
// stops with an evaluation error (an infinite loop). The check finds such
// circles among the references as the evaluator resolves them.

// reference is a condition that names a rule: the rule it resolves to and
// where it is written.
type reference struct {
	target   int
	from, to int
}

// circles reports each set of rules whose references lead around a
// circle, at the reference that leaves the set's first rule. refs are
// each rule's references. Every condition of a rule is evaluated, so a
// run whose golden rule reaches the set always stops with an error: that
// is an error of the text; a set reached only from labelled rules, or
// from no rule, is a warning.
func (c *checker) circles(text *RuleText, refs [][]reference, golden int) {
	reached := reachable(refs, golden)
	for _, set := range circularSets(refs) {
		path, first := shortestCircle(refs, set)
		names := make([]string, len(path))
		for i, r := range path {
			names[i] = "`" + fullPhrase(text.Rules[r]) + "`"
		}
		circle, them := "These rules refer to each other in a circle: "+strings.Join(names, " → ")+".", "them"
		if len(set) == 1 {
			circle, them = "This rule refers to itself: "+names[0]+".", "it"
		}
		const fix = " Break the circle, so that every chain of references ends in comparisons."
		if reached[set[0]] {
			c.add(SeverityError, CodeCircularReference, first.from, first.to,
				circle+" Evaluating "+them+" can never finish, so every run stops with an error."+fix)
			continue
		}
		c.add(SeverityWarning, CodeCircularReference, first.from, first.to,
			circle+" Evaluating "+them+" can never finish: the golden rule does not depend on "+them+
				", so runs still answer, but a label that depends on "+them+" is always false."+fix)
	}
}

// reachable marks the rules that evaluating rule from evaluates.
func reachable(refs [][]reference, from int) []bool {
	seen := make([]bool, len(refs))
	seen[from] = true
	for stack := []int{from}; len(stack) > 0; {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, ref := range refs[r] {
			if !seen[ref.target] {
				seen[ref.target] = true
				stack = append(stack, ref.target)
			}
		}
	}
	return seen
}

// circularSets are the strongly connected sets of rules that hold a
// circle (two rules or more, or one that refers to itself), each in text
// order, found by Tarjan's algorithm.
func circularSets(refs [][]reference) [][]int {
	n := len(refs)
	index, low := make([]int, n), make([]int, n)
	onStack := make([]bool, n)
	var stack []int
	var sets [][]int
	next := 1
	var visit func(r int)
	visit = func(r int) {
		index[r], low[r] = next, next
		next++
		stack = append(stack, r)
		onStack[r] = true
		self := false
		for _, ref := range refs[r] {
			t := ref.target
			switch {
			case t == r:
				self = true
			case index[t] == 0:
				visit(t)
				low[r] = min(low[r], low[t])
			case onStack[t]:
				low[r] = min(low[r], index[t])
			}
		}
		if low[r] != index[r] {
			return
		}
		i := len(stack) - 1
		for stack[i] != r {
			i--
		}
		set := append([]int(nil), stack[i:]...)
		for _, m := range set {
			onStack[m] = false
		}
		stack = stack[:i]
		if len(set) > 1 || self {
			slices.Sort(set)
			sets = append(sets, set)
		}
	}
	for r := range refs {
		if index[r] == 0 {
			visit(r)
		}
	}
	return sets
}

// shortestCircle is the shortest circle through the set's first rule,
// staying in the set, as the rules it passes (the first at both ends), and
// the first rule's reference it leaves by.
func shortestCircle(refs [][]reference, set []int) ([]int, reference) {
	start := set[0]
	in := map[int]bool{}
	for _, r := range set {
		in[r] = true
	}
	type step struct {
		from int
		ref  reference
	}
	came := map[int]step{}
	for queue := []int{start}; len(queue) > 0; queue = queue[1:] {
		r := queue[0]
		for _, ref := range refs[r] {
			t := ref.target
			if t == start {
				path := []int{start}
				last := ref
				for at := r; at != start; at = came[at].from {
					path = append(path, at)
					last = came[at].ref
				}
				path = append(path, start)
				for i, j := 1, len(path)-2; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path, last
			}
			if _, seen := came[t]; in[t] && !seen && t != start {
				came[t] = step{r, ref}
				queue = append(queue, t)
			}
		}
	}
	panic("a circular set without a circle")
}
