package engine

import (
	"math/bits"
	"strings"
	"unsafe"
)

// A program reads its data only through the paths its conditions name. A
// batch runs one program on many items, so instead of building each item's
// maps and then finding every name among their keys, the item's text is
// read once for just those paths: the values the conditions read are
// decoded and every other value is only stepped over. What a run answers
// is the same either way; whenever the text holds something the paths
// cannot take alone (a name with no key, a value on the way that is not an
// object) the item is decoded whole and evaluated as any run is, so that
// its error and its suggestions are those of a single run.

// dataPlan is the tree of a program's paths, built once at compilation.
type dataPlan struct {
	root pickNode
	// paths holds one path per slot, whose keyed rendering a slot's path
	// takes; paths of the same names share a slot.
	paths []*cpath
	nodes int // how many nodes the tree has
}

// pickNode is an object on the way of some paths.
type pickNode struct {
	index    int // the node's place among the plan's nodes
	children []pickChild
}

// pickChild is one name looked up in a node's object: the value a path ends
// at (slot), or the object more names are looked up in (next).
type pickChild struct {
	step step
	slot int
	next *pickNode
}

// pickedValue is the value of one slot and the path of the keys that found
// it, as resolve would return them.
type pickedValue struct {
	value any
	path  string
}

// keyChoice is the key a name has taken so far while its object is read:
// the key spelled as the name, else the first in byte order of the same
// canonical form (lookup's rule); a key given twice takes its last value,
// as the map of the object would.
type keyChoice struct {
	key   string
	found bool
	exact bool
	read  bool // the key's value was read as the name needs it
}

// newDataPlan returns the plan of p's paths, or nil when some condition
// reads the data otherwise (an inferred reference looks among an object's
// keys) or when a path ends where another goes on.
func newDataPlan(p *Program) *dataPlan {
	plan := &dataPlan{}
	for i := range p.rules {
		for j := range p.rules[i].conds {
			c := &p.rules[i].conds[j]
			switch c.kind {
			case condInference:
				return nil
			case condComparison, condCount:
				if !plan.add(&c.left) || c.right != nil && !plan.add(c.right) {
					return nil
				}
			}
		}
	}
	plan.number(&plan.root)
	return plan
}

// add puts path into the tree, giving it the slot of the same names if
// they are already there.
func (plan *dataPlan) add(path *cpath) bool {
	if len(path.steps) == 0 {
		return false
	}
	n := &plan.root
	for i, s := range path.steps {
		last := i == len(path.steps)-1
		var child *pickChild
		for k := range n.children {
			if n.children[k].step.name == s.name {
				child = &n.children[k]
				break
			}
		}
		if child == nil {
			if len(n.children) == maxPickedNames {
				return false
			}
			n.children = append(n.children, pickChild{step: s, slot: -1})
			child = &n.children[len(n.children)-1]
		}
		switch {
		case last && child.next != nil, !last && child.slot >= 0:
			return false
		case last:
			if child.slot < 0 {
				child.slot = len(plan.paths)
				plan.paths = append(plan.paths, path)
			}
			path.slot = child.slot
		default:
			if child.next == nil {
				child.next = &pickNode{}
			}
			n = child.next
		}
	}
	return true
}

// number gives each node its place among the plan's nodes.
func (plan *dataPlan) number(n *pickNode) {
	n.index = plan.nodes
	plan.nodes++
	for _, c := range n.children {
		if c.next != nil {
			plan.number(c.next)
		}
	}
}

// picker reads items' values for a plan, reusing its memory from one item
// to the next.
type picker struct {
	keys   []string
	values []pickedValue
	boxes  valueBoxes
	// plan is the plan nodes are of.
	plan  *dataPlan
	nodes []nodeReading
	ids   uint64 // the last keyEntry.id given
}

// nodeReading is what the picker keeps of a node: the keys its names have
// taken in the object being read, and its memo.
type nodeReading struct {
	choices []keyChoice
	memo    keyMemo
}

// keyMemo is what the names of a node took of the keys of the last object
// read for it: the items of a batch tend to have one shape, and the names
// that take a key depend on that key and the keys before it alone. So
// while an object's keys are those of the last one, their takers are known,
// and so are the paths of the values they read when the keys on the way
// to the object are those of the last one too.
type keyMemo struct {
	// chain identifies the keys on the way to the object the memo is of.
	chain   uint64
	entries []keyEntry
	n       int // how many entries hold
}

// keyEntry is what the memo holds of one key.
type keyEntry struct {
	key string
	// takers holds the node's names that took it, one bit per child.
	takers uint64
	// id identifies this key at this place after the keys on the way to
	// it: the chain of the object a taker reads in its value.
	id uint64
	// path is the path of the keys to the value its takers read, once
	// read: a path is its keys whatever the names that found them.
	path string
}

// maxMemoKeys is how many keys of an object a memo holds: a decoder lives
// on from one run to the next, and what it keeps should not grow with the
// largest object it ever read.
const maxMemoKeys = 256

// maxPickedNames is how many names one object of a plan may have: one bit
// each in keyMemo.takers. A program with more reads its data whole.
const maxPickedNames = 64

// pick fills p.values with the value of every slot of plan in raw, which
// the one-pass decoder accepts (CheckData said so), or reports false when
// raw must be decoded whole. Every byte of raw is read, so that text the
// decoder would refuse is never evaluated.
func (p *picker) pick(plan *dataPlan, raw []byte, maxDepth int) bool {
	// Without a copy of the text to share, a picked text is copied into
	// the picker's boxes: the values a program reads are few, and a key is
	// read as a view.
	d := dataDecoder{raw: raw, maxDepth: maxDepth, boxes: &p.boxes}
	if cap(p.values) < len(plan.paths) {
		p.values = make([]pickedValue, len(plan.paths))
	}
	if p.plan != plan {
		p.plan, p.nodes = plan, make([]nodeReading, plan.nodes)
	}
	p.values, p.keys = p.values[:len(plan.paths)], p.keys[:0]
	d.space()
	if d.pos >= len(raw) || raw[d.pos] != '{' || !p.object(&d, plan, &plan.root, 1, 0) {
		return false
	}
	d.space()
	return d.pos == len(raw)
}

// object reads the object at d.pos, at depth, for the names of n, and
// leaves d.pos past it. A value is read as soon as a name takes its key,
// so that each is read once: a later key that a name prefers (the key
// spelled as the name, a key given again) is read then and overwrites it.
func (p *picker) object(d *dataDecoder, plan *dataPlan, n *pickNode, depth int, chain uint64) bool {
	if depth > d.maxDepth {
		return false
	}
	r := &p.nodes[n.index]
	if r.choices == nil {
		r.choices = make([]keyChoice, len(n.children))
	}
	choices, memo := r.choices, &r.memo
	clear(choices)
	// same holds while the keys read are those the memo holds.
	same := memo.chain == chain
	d.pos++ // {
	d.space()
	if d.pos < len(d.raw) && d.raw[d.pos] == '}' {
		return false // every node has a name to find
	}
	var formBuf [maxPickedForm]byte
	for k := 0; ; k++ {
		d.space()
		if d.pos >= len(d.raw) || d.raw[d.pos] != '"' {
			return false
		}
		key, ok := d.key()
		if !ok {
			return false
		}
		d.space()
		if d.pos >= len(d.raw) || d.raw[d.pos] != ':' {
			return false
		}
		d.pos++
		d.space()
		var entry *keyEntry
		if same = same && k < memo.n && memo.entries[k].key == key; same {
			entry = &memo.entries[k]
			for t := entry.takers; t != 0; t &= t - 1 {
				i := bits.TrailingZeros64(t)
				choices[i] = keyChoice{key: key, found: true, exact: key == n.children[i].step.name}
			}
		} else {
			var takers uint64
			form, fits := canonForm(formBuf[:0], key)
			for i := range n.children {
				if choose(&choices[i], n.children[i].step, key, form, fits) {
					takers |= 1 << i
				}
			}
			entry = p.remember(memo, chain, k, key, takers)
		}
		at, end := d.pos, -1
		for t := entry.takers; t != 0; t &= t - 1 {
			i := bits.TrailingZeros64(t)
			c := &n.children[i]
			d.pos = at
			if c.next != nil {
				p.keys = append(p.keys, key)
				ok = d.raw[at] == '{' && p.object(d, plan, c.next, depth+1, entry.id)
				p.keys = p.keys[:len(p.keys)-1]
			} else {
				var v any
				if v, ok = d.value(depth); ok {
					if entry.path == "" {
						p.keys = append(p.keys, key)
						entry.path = plan.paths[c.slot].keyed(p.keys)
						p.keys = p.keys[:len(p.keys)-1]
					}
					p.values[c.slot] = pickedValue{value: v, path: entry.path}
				}
			}
			if choices[i].read = ok; ok {
				end = d.pos
			}
		}
		if end >= 0 {
			d.pos = end
		} else {
			d.pos = at
			if !d.valid(depth) {
				return false
			}
		}
		d.space()
		if d.pos >= len(d.raw) {
			return false
		}
		if d.raw[d.pos] == '}' {
			d.pos++
			memo.n = min(k+1, maxMemoKeys)
			break
		}
		if d.raw[d.pos] != ',' {
			return false
		}
		d.pos++
	}
	for _, choice := range choices {
		if !choice.read {
			return false
		}
	}
	return true
}

// remember keeps key as the k-th key of an object on the way chain, read
// by takers; the keys after it are forgotten, as their takers depended on
// the keys before them. Past maxMemoKeys a key's entry serves this
// reading alone.
func (p *picker) remember(m *keyMemo, chain uint64, k int, key string, takers uint64) *keyEntry {
	p.ids++
	if k >= maxMemoKeys {
		return &keyEntry{key: key, takers: takers, id: p.ids}
	}
	// The memo outlives the text key may be a view of.
	e := keyEntry{key: strings.Clone(key), takers: takers, id: p.ids}
	if k < len(m.entries) {
		m.entries[k] = e
	} else {
		m.entries = append(m.entries, e)
	}
	m.chain, m.n = chain, k+1
	return &m.entries[k]
}

// key reads an object's key at d.pos. One without escapes is a view of
// d.raw, not a copy: a key is only compared and, in a path, copied, so
// reading one allocates nothing.
func (d *dataDecoder) key() (string, bool) {
	start := d.pos + 1
	if end := plainEnd(d.raw, start, false); end < len(d.raw) && d.raw[end] == '"' {
		d.pos = end + 1
		return unsafe.String(unsafe.SliceData(d.raw[start:]), end-start), true
	}
	return d.string()
}

// maxPickedForm bounds the canonical form of a key that is worked out once
// for all of a node's names; a longer key is compared with each.
const maxPickedForm = 64

// canonForm appends the canonical form of key to buf (see canonEqual), or
// reports false when it would not fit.
func canonForm(buf []byte, key string) ([]byte, bool) {
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == ' ' || c == '_':
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		if len(buf) == cap(buf) {
			return nil, false
		}
		buf = append(buf, c)
	}
	return buf, true
}

// choose weighs key, of canonical form form when it fits, for the name s,
// and reports whether s takes it.
func choose(c *keyChoice, s step, key string, form []byte, fits bool) bool {
	switch {
	case key == s.name:
		*c = keyChoice{key: key, found: true, exact: true}
		return true
	case c.exact:
		return false
	case fits && string(form) == s.canon, !fits && canonEqual(key, s.canon):
		if c.found && key > c.key {
			return false
		}
		*c = keyChoice{key: key, found: true}
		return true
	}
	return false
}

// keyed is the path resolve returns for the keys that found p's value.
func (p *cpath) keyed(keys []string) string {
	for i, k := range keys {
		if k != p.steps[i].name {
			return p.keyedPath(keys)
		}
	}
	return p.exact
}
