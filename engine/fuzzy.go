package engine

// The loose match of a reference (resolver.fuzzy) takes the first rule
// whose lower-cased outcome contains the reference's phrase (less a leading
// "passes the", "has" and the like), or is contained in the whole phrase.
// Scanning every outcome for every reference costs the number of
// references times the size of all outcomes: seconds for a text of
// thousands of references to a thousand long outcomes. Past a fixed amount
// of scanning, the resolver builds fuzzyIndex, which answers both
// questions in the length of the phrase: a generalized suffix automaton of
// the outcomes for "which outcomes contain it" and an Aho-Corasick
// automaton of the outcomes for "which outcomes it contains", each state
// knowing the first two rules it leads to (two, so that the rule the
// reference stands in can be passed over).

// maxFuzzyScan is how many bytes of outcomes the resolver scans, all
// references together, before it builds a fuzzyIndex: more than any text
// a person writes needs, a millisecond or so.
const maxFuzzyScan = 1 << 20

// firstRules are the two lowest rule indexes of a set, -1 where absent.
type firstRules [2]int32

var noRules = firstRules{-1, -1}

// with adds rule i to the set.
func (f firstRules) with(i int32) firstRules {
	switch {
	case i < 0 || i == f[0] || i == f[1]:
		return f
	case f[0] < 0 || i < f[0]:
		return firstRules{i, f[0]}
	case f[1] < 0 || i < f[1]:
		return firstRules{f[0], i}
	}
	return f
}

func (f firstRules) union(g firstRules) firstRules { return f.with(g[0]).with(g[1]) }

// except is the lowest rule of the set other than self, -1 if none.
func (f firstRules) except(self int) int {
	if int(f[0]) == self {
		return int(f[1])
	}
	return int(f[0])
}

// automaton is the states and byte-labelled transitions both automata are
// made of; a state's transitions are few (the letters that follow), so a
// list serves better than a map.
type automaton struct {
	edges [][]edge
	rules []firstRules
}

type edge struct {
	b  byte
	to int32
}

func (a *automaton) add() int32 {
	a.edges = append(a.edges, nil)
	a.rules = append(a.rules, noRules)
	return int32(len(a.edges) - 1)
}

func (a *automaton) next(s int32, b byte) int32 {
	for _, e := range a.edges[s] {
		if e.b == b {
			return e.to
		}
	}
	return -1
}

func (a *automaton) set(s int32, b byte, to int32) {
	for i, e := range a.edges[s] {
		if e.b == b {
			a.edges[s][i].to = to
			return
		}
	}
	a.edges[s] = append(a.edges[s], edge{b, to})
}

// fuzzyIndex answers the loose match for every reference of one text.
type fuzzyIndex struct {
	// within is the generalized suffix automaton: the state a string
	// leads to knows the first rules whose outcome contains it.
	within automaton
	length []int32 // the longest string of each state
	link   []int32 // suffix links
	// among is the Aho-Corasick automaton: the state after a prefix of
	// the phrase knows the first rules whose outcome ends that prefix.
	among automaton
	fail  []int32
}

func newFuzzyIndex(outcomes []string) *fuzzyIndex {
	x := &fuzzyIndex{}
	x.buildWithin(outcomes)
	x.buildAmong(outcomes)
	return x
}

func (x *fuzzyIndex) buildWithin(outcomes []string) {
	a := &x.within
	a.add()
	x.length, x.link = append(x.length, 0), append(x.link, -1)
	state := func(length, link int32) int32 {
		x.length, x.link = append(x.length, length), append(x.link, link)
		return a.add()
	}
	clone := func(p, q int32, b byte) int32 {
		c := state(x.length[p]+1, x.link[q])
		a.edges[c] = append([]edge(nil), a.edges[q]...)
		for ; p >= 0 && a.next(p, b) == q; p = x.link[p] {
			a.set(p, b, c)
		}
		x.link[q] = c
		return c
	}
	for _, o := range outcomes {
		last := int32(0)
		for i := 0; i < len(o); i++ {
			b := o[i]
			if q := a.next(last, b); q >= 0 {
				// The string so far is a substring of an earlier outcome.
				if x.length[q] == x.length[last]+1 {
					last = q
				} else {
					last = clone(last, q, b)
				}
				continue
			}
			cur := state(x.length[last]+1, 0)
			p := last
			for ; p >= 0 && a.next(p, b) < 0; p = x.link[p] {
				a.set(p, b, cur)
			}
			if p >= 0 {
				if q := a.next(p, b); x.length[q] == x.length[p]+1 {
					x.link[cur] = q
				} else {
					x.link[cur] = clone(p, q, b)
				}
			}
			last = cur
		}
	}
	// Each prefix of an outcome leads to a state whose suffix links lead
	// through every other substring of the outcome: the rule goes to the
	// prefix's state, then up the links, longest states first.
	for i, o := range outcomes {
		s := int32(0)
		a.rules[0] = a.rules[0].with(int32(i))
		for j := 0; j < len(o); j++ {
			s = a.next(s, o[j])
			a.rules[s] = a.rules[s].with(int32(i))
		}
	}
	byLength := make([][]int32, 0)
	for s, l := range x.length {
		for int(l) >= len(byLength) {
			byLength = append(byLength, nil)
		}
		byLength[l] = append(byLength[l], int32(s))
	}
	for l := len(byLength) - 1; l > 0; l-- {
		for _, s := range byLength[l] {
			a.rules[x.link[s]] = a.rules[x.link[s]].union(a.rules[s])
		}
	}
}

func (x *fuzzyIndex) buildAmong(outcomes []string) {
	a := &x.among
	a.add()
	for i, o := range outcomes {
		s := int32(0)
		for j := 0; j < len(o); j++ {
			t := a.next(s, o[j])
			if t < 0 {
				t = a.add()
				a.set(s, o[j], t)
			}
			s = t
		}
		a.rules[s] = a.rules[s].with(int32(i))
	}
	// Breadth first, each state's failure is the longest proper suffix of
	// its string that is a state; it inherits the rules that end there.
	x.fail = make([]int32, len(a.edges))
	queue := []int32{0}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, e := range a.edges[s] {
			f := int32(0)
			if s != 0 {
				for f = x.fail[s]; f != 0 && a.next(f, e.b) < 0; f = x.fail[f] {
				}
				if t := a.next(f, e.b); t >= 0 {
					f = t
				}
			}
			x.fail[e.to] = f
			a.rules[e.to] = a.rules[e.to].union(a.rules[f])
			queue = append(queue, e.to)
		}
	}
}

// containing are the first rules whose outcome contains s.
func (x *fuzzyIndex) containing(s string) firstRules {
	state := int32(0)
	for i := 0; i < len(s); i++ {
		if state = x.within.next(state, s[i]); state < 0 {
			return noRules
		}
	}
	return x.within.rules[state]
}

// contained are the first rules whose outcome s contains.
func (x *fuzzyIndex) contained(s string) firstRules {
	a := &x.among
	state := int32(0)
	found := a.rules[0]
	for i := 0; i < len(s); i++ {
		for state != 0 && a.next(state, s[i]) < 0 {
			state = x.fail[state]
		}
		if t := a.next(state, s[i]); t >= 0 {
			state = t
		}
		found = found.union(a.rules[state])
	}
	return found
}
