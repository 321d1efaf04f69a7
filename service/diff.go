package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"
	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/flow"
)

// diffContext is how many unchanged lines a hunk shows around a change,
// as unified diffs do.
const diffContext = 3

// DiffSide names one of the two records a diff compares.
type DiffSide struct {
	ID      uuid.UUID `json:"id"`
	Status  string    `json:"status"`
	Version *int      `json:"version"`
}

// TextChange is a one-line field that differs between the two records.
type TextChange struct {
	Before string `json:"before"`
	After  string `json:"after"`
}

// Hunk is one stretch of changed lines with its context: lines fromLine
// to fromLine+fromCount-1 of the first text became lines toLine to
// toLine+toCount-1 of the second (1-based).
type Hunk struct {
	FromLine  int        `json:"fromLine"`
	FromCount int        `json:"fromCount"`
	ToLine    int        `json:"toLine"`
	ToCount   int        `json:"toCount"`
	Lines     []DiffLine `json:"lines"`
}

// DiffLine is a line of a hunk: kept (context), removed or added.
type DiffLine struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// The kinds of DiffLine.
const (
	LineContext = "context"
	LineRemoved = "removed"
	LineAdded   = "added"
)

// TestsDiff compares stored tests by name.
type TestsDiff struct {
	Added   []TestCase   `json:"added"`
	Removed []TestCase   `json:"removed"`
	Changed []TestChange `json:"changed"`
}

// TestChange is a test of one name whose data or expectation differs.
type TestChange struct {
	Name   string    `json:"name"`
	Before *TestCase `json:"before"`
	After  *TestCase `json:"after"`
}

// ValueChange is one place where two JSON documents differ: a member
// added (Before null), removed (After null) or changed. Arrays are
// compared whole.
type ValueChange struct {
	Path   string          `json:"path"`
	Change string          `json:"change"`
	Before json.RawMessage `json:"before"`
	After  json.RawMessage `json:"after"`
}

// The kinds of ValueChange.
const (
	ValueAdded   = "added"
	ValueRemoved = "removed"
	ValueChanged = "changed"
)

// PolicyDiff is what changed from one record of a policy to another
// (GET /policy/{policyId}/diff/{otherId}).
type PolicyDiff struct {
	BaseID      uuid.UUID     `json:"baseId"`
	From        DiffSide      `json:"from"`
	To          DiffSide      `json:"to"`
	Name        *TextChange   `json:"name"`
	Description *TextChange   `json:"description"`
	Rule        []Hunk        `json:"rule"`
	Tests       TestsDiff     `json:"tests"`
	Schema      []ValueChange `json:"schema"`
}

// FlowDiff is what changed from one record of a flow to another (GET
// /flow/{flowId}/diff/{otherId}).
type FlowDiff struct {
	BaseID      uuid.UUID   `json:"baseId"`
	From        DiffSide    `json:"from"`
	To          DiffSide    `json:"to"`
	Name        *TextChange `json:"name"`
	Description *TextChange `json:"description"`
	Start       *TextChange `json:"start"`
	Nodes       NodesDiff   `json:"nodes"`
	Edges       EdgesDiff   `json:"edges"`
	Tests       TestsDiff   `json:"tests"`
}

// NodesDiff compares flow nodes by id. A node is changed when anything
// but its branches differs, or when a branch runs the nodes both records
// lead it to in another order or another number of times (reordered);
// branches that lead elsewhere are edges.
type NodesDiff struct {
	Added   []flow.Node  `json:"added"`
	Removed []flow.Node  `json:"removed"`
	Changed []NodeChange `json:"changed"`
}

// NodeChange is a node of one id whose content differs.
type NodeChange struct {
	ID     string    `json:"id"`
	Before flow.Node `json:"before"`
	After  flow.Node `json:"after"`
}

// EdgesDiff lists the edges only one of the two records has.
type EdgesDiff struct {
	Added   []Edge `json:"added"`
	Removed []Edge `json:"removed"`
}

// Edge is one branch of a node to another: onTrue, onFalse or next.
type Edge struct {
	From   string `json:"from"`
	Branch string `json:"branch"`
	To     string `json:"to"`
}

// PolicyDiff compares two records of one policy; either id may also be
// the policy's base id, for its latest version, else its draft.
func (s *Service) PolicyDiff(ctx context.Context, id, otherID uuid.UUID) (*PolicyDiff, error) {
	from, to, err := s.loadPair(ctx, s.policyKind, id, otherID)
	if err != nil {
		return nil, err
	}
	a, b := from.record, to.record
	schema := diffJSON(orNull(a.Schema), orNull(b.Schema))
	if err := s.spendAnswer(ctx, schema.bytes); err != nil {
		return nil, err
	}
	return &PolicyDiff{
		BaseID: a.BaseID, From: sideOf(a), To: sideOf(b),
		Name: textChange(a.Name, b.Name), Description: textChange(a.Description, b.Description),
		Rule:   lineHunks(a.Rule, b.Rule),
		Tests:  diffTests(testsOf(a), testsOf(b)),
		Schema: schema.changes(),
	}, nil
}

// FlowDiff compares two records of one flow, as PolicyDiff does policies.
func (s *Service) FlowDiff(ctx context.Context, id, otherID uuid.UUID) (*FlowDiff, error) {
	from, to, err := s.loadPair(ctx, s.flowKind, id, otherID)
	if err != nil {
		return nil, err
	}
	a, b := from.record, to.record
	fa, fb := s.flow(a), s.flow(b)
	if fa.definition == nil {
		return nil, fa.parseErr
	}
	if fb.definition == nil {
		return nil, fb.parseErr
	}
	nodes, edges, err := diffNodes(fa.definition.Nodes, fb.definition.Nodes)
	if err != nil {
		return nil, err
	}
	if err := s.spendAnswer(ctx, edgesAnswerBytes(edges)); err != nil {
		return nil, err
	}
	return &FlowDiff{
		BaseID: a.BaseID, From: sideOf(a), To: sideOf(b),
		Name: textChange(a.Name, b.Name), Description: textChange(a.Description, b.Description),
		Start: textChange(fa.definition.StartNode(), fb.definition.StartNode()),
		Nodes: nodes, Edges: edges,
		Tests: diffTests(testsOf(a), testsOf(b)),
	}, nil
}

// loadPair loads the two records a diff compares, each as a read would:
// another tenant's id is not found, a deleted base gone. Records of two
// different bases have nothing to compare.
func (s *Service) loadPair(ctx context.Context, k *kindRules, id, otherID uuid.UUID) (*target, *target, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, nil, err
	}
	from, err := s.load(ctx, p, k, id, authz.ActionView)
	if err != nil {
		return nil, nil, err
	}
	to, err := s.load(ctx, p, k, otherID, authz.ActionView)
	if err != nil {
		return nil, nil, err
	}
	if from.base.ID != to.base.ID {
		return nil, nil, Invalid("%s and %s are records of two different %s; only records of one %s can be compared",
			id, otherID, pluralKinds[k.kind], k.kind)
	}
	// A diff answers both contents at most once, each line of the rule
	// texts in an entry of its own, and costs about as much to compute.
	// What it repeats, a schema change's path and an edge's node id, is
	// charged once the diff is known, before it is written out.
	if err := s.spendAnswer(ctx, diffAnswerBytes(ctx, from.record)+diffAnswerBytes(ctx, to.record)); err != nil {
		return nil, nil, err
	}
	return from, to, nil
}

// diffLineBytes is what a line of a diff's hunks answers beside its text:
// {"kind":"removed","text":""} and a comma.
const diffLineBytes = 32

// diffAnswerBytes is the most a diff answers of record r: its content,
// and the frame of each line of its rule text, which a diff of two texts
// that share no line answers whole, each an object that ctx's transport
// may spend more on building than the line's bytes (WithObjectBytes).
func diffAnswerBytes(ctx context.Context, r *ent.Record) int {
	n := contentBytes(r)
	if r.Rule != "" {
		n += (diffLineBytes + objectBytesOf(ctx)) * (strings.Count(r.Rule, "\n") + 1)
	}
	return n
}

// valueChangeBytes is what a change of a schema diff answers beside its
// path and values: {"path":"","change":"removed","before":,"after":} and
// a comma.
const valueChangeBytes = 56

// edgeBytes is what an edge answers beside its node ids:
// {"from":"","branch":"onFalse","to":""} and a comma.
const edgeBytes = 40

// edgesAnswerBytes is what the edges of a flow diff answer: each repeats
// the id of the node it leaves, which a node with a long id and many
// branches would repeat far past the size of its record.
func edgesAnswerBytes(edges EdgesDiff) int {
	n := 0
	for _, e := range slices.Concat(edges.Added, edges.Removed) {
		n += edgeBytes + len(e.From) + len(e.To)
	}
	return n
}

func sideOf(r *ent.Record) DiffSide {
	return DiffSide{ID: r.ID, Status: string(r.Status), Version: r.Version}
}

// textChange is nil when nothing changed.
func textChange(before, after string) *TextChange {
	if before == after {
		return nil
	}
	return &TextChange{Before: before, After: after}
}

// lineHunks compares two texts line by line, as a unified diff shows them:
// each change with up to diffContext unchanged lines around it, changes
// that fewer than twice as many lines part in one hunk. The changes are a
// shortest edit script whose search is bounded (Myers' algorithm, as the
// Go tools diff): texts that differ in many places get a longer script
// rather than a search of the square of their length.
func lineHunks(before, after string) []Hunk {
	a, b := splitLines(before), splitLines(after)
	edits := lcs.DiffLines(a, b)
	hunks := []Hunk{}
	for i := 0; i < len(edits); {
		j := i + 1
		for j < len(edits) && edits[j].Start-edits[j-1].End <= 2*diffContext {
			j++
		}
		// The hunk spans lines from to to of a, and the lines of b they
		// became: the same context before the first change and after the
		// last.
		first, last := edits[i], edits[j-1]
		from, to := max(0, first.Start-diffContext), min(len(a), last.End+diffContext)
		bFrom, bTo := first.ReplStart-(first.Start-from), last.ReplEnd+(to-last.End)
		h := Hunk{FromLine: from + 1, FromCount: to - from, ToLine: bFrom + 1, ToCount: bTo - bFrom}
		at := from
		for _, e := range edits[i:j] {
			h.Lines = appendLines(h.Lines, LineContext, a[at:e.Start])
			h.Lines = appendLines(h.Lines, LineRemoved, a[e.Start:e.End])
			h.Lines = appendLines(h.Lines, LineAdded, b[e.ReplStart:e.ReplEnd])
			at = e.End
		}
		h.Lines = appendLines(h.Lines, LineContext, a[at:to])
		hunks = append(hunks, h)
		i = j
	}
	return hunks
}

// splitLines cuts a text into lines; an empty text has none, and a final
// line break ends the last line rather than starting an empty one.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// pluralKinds name many bases of a kind.
var pluralKinds = map[base.Kind]string{base.KindPolicy: "policies", base.KindFlow: "flows"}

func appendLines(out []DiffLine, kind string, lines []string) []DiffLine {
	for _, l := range lines {
		out = append(out, DiffLine{Kind: kind, Text: l})
	}
	return out
}

// diffTests compares tests by name: removed ones in the first record's
// order, added and changed ones in the second's.
func diffTests(before, after []TestCase) TestsDiff {
	out := TestsDiff{Added: []TestCase{}, Removed: []TestCase{}, Changed: []TestChange{}}
	old := map[string]TestCase{}
	for _, tc := range before {
		old[tc.Name] = tc
	}
	kept := map[string]bool{}
	for _, tc := range after {
		prev, ok := old[tc.Name]
		switch {
		case !ok:
			out.Added = append(out.Added, tc)
		case !sameJSON(prev.Data, tc.Data) || !sameJSON(prev.Expect, tc.Expect):
			out.Changed = append(out.Changed, TestChange{Name: tc.Name, Before: &prev, After: &tc})
		}
		kept[tc.Name] = true
	}
	for _, tc := range before {
		if !kept[tc.Name] {
			out.Removed = append(out.Removed, tc)
		}
	}
	return out
}

// sameJSON compares two JSON texts as values (sameValue): member order
// and spacing do not count.
func sameJSON(a, b json.RawMessage) bool {
	va, errA := decodeExact(a)
	vb, errB := decodeExact(b)
	if errA != nil || errB != nil {
		return bytes.Equal(a, b)
	}
	return sameValue(va, vb)
}

// decodeExact decodes a JSON text with its numbers as written
// (json.Number): stored records keep numbers exactly, and a float64 would
// take 9007199254740993 for 9007199254740992.
func decodeExact(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the value")
	}
	return v, nil
}

// sameValue compares two values decodeExact decoded: numbers by their
// exact value (exactNumber), objects member by member whatever their
// order, arrays item by item.
func sameValue(a, b any) bool {
	switch a := a.(type) {
	case json.Number:
		b, ok := b.(json.Number)
		return ok && exactNumber(a) == exactNumber(b)
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for name, va := range a {
			if vb, ok := b[name]; !ok || !sameValue(va, vb) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !sameValue(a[i], b[i]) {
				return false
			}
		}
		return true
	default:
		return a == b
	}
}

// exactNumber spells a JSON number's value one way, its significant
// digits and their power of ten: 1, 1.0 and 10e-1 alike, 9007199254740993
// and 9007199254740992 not. An exponent past 2⁶², too large to add to,
// keeps the number as written: two spellings of it then differ, but two
// values never match.
func exactNumber(n json.Number) string {
	s, sign := string(n), ""
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		s, sign = rest, "-"
	}
	mantissa, exponent := s, int64(0)
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.ParseInt(s[i+1:], 10, 64)
		if err != nil || e > 1<<62 || e < -1<<62 {
			return string(n)
		}
		mantissa, exponent = s[:i], e
	}
	whole, fraction, _ := strings.Cut(mantissa, ".")
	digits := strings.TrimLeft(whole+fraction, "0")
	if digits == "" {
		return "0"
	}
	significant := strings.TrimRight(digits, "0")
	exponent += int64(len(digits) - len(significant) - len(fraction))
	return sign + significant + "e" + strconv.FormatInt(exponent, 10)
}

func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

// diffJSON compares two JSON documents, member by member of the objects
// they share, in path order.
func diffJSON(before, after json.RawMessage) *jsonDiff {
	d := &jsonDiff{}
	root := &jsonPlace{segment: "$", bytes: 1}
	a, errA := decodeExact(before)
	b, errB := decodeExact(after)
	if errA != nil || errB != nil {
		if !bytes.Equal(before, after) {
			d.add(root, ValueChanged, before, after)
		}
		return d
	}
	d.compare(root, a, b)
	return d
}

// jsonDiff is what two JSON documents' comparison found: the changes,
// each at its place, and what they answer. A change answers its whole
// path, which repeats the names of the members it is within: a long name
// over many changes would answer far more than the documents hold, so
// the paths are written out (changes) only once that is charged.
type jsonDiff struct {
	found []placedChange
	bytes int
}

// placedChange is a change found whose path is not yet written out.
type placedChange struct {
	at     *jsonPlace
	change ValueChange
}

// jsonPlace is where a value is in a JSON document: a member of the
// place up, or the document itself ($).
type jsonPlace struct {
	up      *jsonPlace
	segment string
	// bytes is the length of the whole path to here.
	bytes int
}

func (p *jsonPlace) member(name string) *jsonPlace {
	segment := memberSegment(name)
	return &jsonPlace{up: p, segment: segment, bytes: p.bytes + len(segment)}
}

func (p *jsonPlace) path() string {
	path := make([]byte, p.bytes)
	for at := p; at != nil; at = at.up {
		copy(path[at.bytes-len(at.segment):], at.segment)
	}
	return string(path)
}

func (d *jsonDiff) add(at *jsonPlace, change string, before, after json.RawMessage) {
	d.found = append(d.found, placedChange{at, ValueChange{Change: change, Before: before, After: after}})
	d.bytes += valueChangeBytes + at.bytes + len(before) + len(after)
}

// changes are the changes found, with their paths.
func (d *jsonDiff) changes() []ValueChange {
	out := make([]ValueChange, len(d.found))
	for i, c := range d.found {
		out[i] = c.change
		out[i].Path = c.at.path()
	}
	return out
}

func (d *jsonDiff) compare(at *jsonPlace, a, b any) {
	oa, aIsObject := a.(map[string]any)
	ob, bIsObject := b.(map[string]any)
	if !aIsObject || !bIsObject {
		if !sameValue(a, b) {
			d.add(at, ValueChanged, rawOf(a), rawOf(b))
		}
		return
	}
	names := make([]string, 0, len(oa)+len(ob))
	for name := range oa {
		names = append(names, name)
	}
	for name := range ob {
		if _, ok := oa[name]; !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		va, inA := oa[name]
		vb, inB := ob[name]
		member := at.member(name)
		switch {
		case !inA:
			d.add(member, ValueAdded, json.RawMessage("null"), rawOf(vb))
		case !inB:
			d.add(member, ValueRemoved, rawOf(va), json.RawMessage("null"))
		default:
			d.compare(member, va, vb)
		}
	}
}

// rawOf encodes a value decodeExact decoded again, its numbers as
// written.
func rawOf(v any) json.RawMessage {
	raw, _ := json.Marshal(v)
	return raw
}

var plainName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// memberSegment is what a member adds to a JSON path: its name, quoted
// when it is not a plain identifier.
func memberSegment(name string) string {
	if plainName.MatchString(name) {
		return "." + name
	}
	quoted, _ := json.Marshal(name)
	return "[" + string(quoted) + "]"
}

// diffNodes compares nodes by id, and the edges their branches make.
func diffNodes(before, after []flow.Node) (NodesDiff, EdgesDiff, error) {
	nodes := NodesDiff{Added: []flow.Node{}, Removed: []flow.Node{}, Changed: []NodeChange{}}
	old := map[string]flow.Node{}
	for _, n := range before {
		old[n.ID] = n
	}
	kept := map[string]bool{}
	for _, n := range after {
		prev, ok := old[n.ID]
		kept[n.ID] = true
		if !ok {
			nodes.Added = append(nodes.Added, n)
			continue
		}
		same, err := sameContent(prev, n)
		if err != nil {
			return nodes, EdgesDiff{}, err
		}
		if !same || reordered(prev, n) {
			nodes.Changed = append(nodes.Changed, NodeChange{ID: n.ID, Before: prev, After: n})
		}
	}
	for _, n := range before {
		if !kept[n.ID] {
			nodes.Removed = append(nodes.Removed, n)
		}
	}
	ea, eb := edgesOf(before), edgesOf(after)
	return nodes, EdgesDiff{Added: missingFrom(eb, ea), Removed: missingFrom(ea, eb)}, nil
}

// sameContent says whether two nodes agree in everything but their
// branches, compared in their stored form.
func sameContent(a, b flow.Node) (bool, error) {
	a.OnTrue, a.OnFalse, a.Next = nil, nil, nil
	b.OnTrue, b.OnFalse, b.Next = nil, nil, nil
	ra, err := json.Marshal(a)
	if err != nil {
		return false, internal(err)
	}
	rb, err := json.Marshal(b)
	if err != nil {
		return false, internal(err)
	}
	return bytes.Equal(ra, rb), nil
}

// reordered says whether a branch of node a and the same branch of b run
// the nodes both lead it to in another order or another number of times.
// Edges say only where a branch leads, but its last node's value is the
// branch's, and a node named twice runs twice.
func reordered(a, b flow.Node) bool {
	for _, branch := range [][2][]string{{a.OnTrue, b.OnTrue}, {a.OnFalse, b.OnFalse}, {a.Next, b.Next}} {
		before, after := branch[0], branch[1]
		if !slices.Equal(before, after) && !slices.Equal(within(before, after), within(after, before)) {
			return true
		}
	}
	return false
}

// within keeps the ids of list that other holds too, in list's order.
func within(list, other []string) []string {
	in := make(map[string]bool, len(other))
	for _, id := range other {
		in[id] = true
	}
	kept := make([]string, 0, len(list))
	for _, id := range list {
		if in[id] {
			kept = append(kept, id)
		}
	}
	return kept
}

// edgeSet is the edges of a definition, once each, in node and branch
// order.
type edgeSet struct {
	order []Edge
	has   map[Edge]bool
}

func edgesOf(nodes []flow.Node) edgeSet {
	set := edgeSet{has: map[Edge]bool{}}
	for _, n := range nodes {
		for _, branch := range []struct {
			name string
			to   []string
		}{{"onTrue", n.OnTrue}, {"onFalse", n.OnFalse}, {"next", n.Next}} {
			for _, to := range branch.to {
				if e := (Edge{From: n.ID, Branch: branch.name, To: to}); !set.has[e] {
					set.has[e] = true
					set.order = append(set.order, e)
				}
			}
		}
	}
	return set
}

// missingFrom lists the edges of set that other lacks.
func missingFrom(set, other edgeSet) []Edge {
	out := []Edge{}
	for _, e := range set.order {
		if !other.has[e] {
			out = append(out, e)
		}
	}
	return out
}
