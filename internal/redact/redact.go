// Package redact hides values in a text: every whole occurrence of any of
// them is replaced, in one pass over the text whatever their number. A
// text of n bytes and values of m bytes in all cost about n + m, not n × m:
// the values are matched together (Aho–Corasick) over the text's tokens.
package redact

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Whole replaces every whole occurrence of each value in text with with,
// a run of overlapping or adjacent occurrences by one with. An occurrence
// is whole when it neither starts nor ends inside a word or a number:
// hiding 6 leaves "65" and "6.5" alone and hides the 6 of "6, 7". Words
// are runs of letters, digits and '_', and a '.' followed by a digit
// belongs to its number.
//
// Values that meet text in ways only punctuation tells apart may make the
// search back off from a match; should that cost more than a few passes
// over the text and the values, the whole text is replaced with with, so
// that no text ever costs more and nothing hidden is ever left.
func Whole(text string, values []string, with string) string {
	m := newMatcher(values)
	if m == nil {
		return text
	}
	toks := tokenize(text)
	// cover[i] counts the matches that begin at token i, less those that
	// end just before it: a token is hidden where the running sum is
	// positive.
	cover := make([]int32, len(toks)+1)
	found := false
	budget := 4*(len(toks)+len(m.depth)) + 1024
	state := int32(0)
	for i, t := range toks {
		state = m.step(state, text[t.start:t.end])
		for c := m.longest(state); c >= 0; c = m.dict[c] {
			if budget--; budget < 0 {
				return with
			}
			first := i + 1 - int(m.depth[c])
			if !wordBefore(text[:toks[first].start], text[toks[first].start:]) && !wordAfter(text[t.end:]) {
				cover[first]++
				cover[i+1]--
				found = true
				break
			}
		}
	}
	if !found {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	hidden := int32(0)
	for i, t := range toks {
		was := hidden > 0
		hidden += cover[i]
		switch {
		case hidden == 0:
			b.WriteString(text[t.start:t.end])
		case !was:
			b.WriteString(with)
		}
	}
	return b.String()
}

// token is a word, or any other single rune, of a text.
type token struct{ start, end int }

func tokenize(s string) []token {
	var toks []token
	for i := 0; i < len(s); {
		j := i
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if !wordRune(r, s[j+n:]) {
				break
			}
			j += n
		}
		if j == i {
			_, n := utf8.DecodeRuneInString(s[i:])
			j = i + n
		}
		toks = append(toks, token{i, j})
		i = j
	}
	return toks
}

// wordRune says whether r, followed by rest, continues a word or number.
func wordRune(r rune, rest string) bool {
	if r == '.' {
		next, _ := utf8.DecodeRuneInString(rest)
		return rest != "" && unicode.IsDigit(next)
	}
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// wordBefore says whether the text before an occurrence, from on, ends in
// a word or a number that the occurrence continues.
func wordBefore(before, from string) bool {
	r, _ := utf8.DecodeLastRuneInString(before)
	return before != "" && wordRune(r, from)
}

// wordAfter says whether the text after an occurrence goes on with a word
// or a number.
func wordAfter(after string) bool {
	r, n := utf8.DecodeRuneInString(after)
	return after != "" && wordRune(r, after[n:])
}

// matcher is the automaton of the values, spelled in tokens: node 0 is
// the empty spelling, and a node is the spelling of the path to it.
type matcher struct {
	// words numbers the distinct tokens of the values; a token of the text
	// that no value has sends the automaton back to node 0.
	words map[string]int32
	// next is the edge from a node along a token: next[node<<32|word].
	next map[uint64]int32
	// depth is a node's length in tokens; fail the node of its longest
	// proper suffix that is also a node; ends whether a value ends at it;
	// dict the node of its longest proper suffix at which a value ends, or
	// -1.
	depth, fail, dict []int32
	ends              []bool
}

func newMatcher(values []string) *matcher {
	m := &matcher{words: map[string]int32{}, next: map[uint64]int32{}}
	m.addNode(0)
	// children lists each node's children, for the breadth-first pass.
	children := [][]int32{nil}
	seen := map[string]bool{}
	for _, v := range values {
		if v == "" || seen[v] {
			continue
		}
		seen[v] = true
		node := int32(0)
		for _, t := range tokenize(v) {
			w, ok := m.words[v[t.start:t.end]]
			if !ok {
				w = int32(len(m.words))
				m.words[v[t.start:t.end]] = w
			}
			key := edge(node, w)
			child, ok := m.next[key]
			if !ok {
				child = m.addNode(m.depth[node] + 1)
				m.next[key] = child
				children[node] = append(children[node], child)
				children = append(children, nil)
			}
			node = child
		}
		m.ends[node] = true
	}
	if len(m.depth) == 1 {
		return nil
	}
	// wordOf is the token on the edge into each node.
	wordOf := make([]int32, len(m.depth))
	for key, child := range m.next {
		wordOf[child] = int32(uint32(key))
	}
	queue := append([]int32(nil), children[0]...)
	for len(queue) > 0 {
		node := queue[0]
		queue = queue[1:]
		for _, child := range children[node] {
			queue = append(queue, child)
			// A child of node 0 fails to node 0, as its fail starts out.
			for f := m.fail[node]; node != 0; f = m.fail[f] {
				if to, ok := m.next[edge(f, wordOf[child])]; ok {
					m.fail[child] = to
					break
				}
				if f == 0 {
					break
				}
			}
			to := m.fail[child]
			if m.ends[to] {
				m.dict[child] = to
			} else {
				m.dict[child] = m.dict[to]
			}
		}
	}
	return m
}

func (m *matcher) addNode(depth int32) int32 {
	m.depth = append(m.depth, depth)
	m.fail = append(m.fail, 0)
	m.dict = append(m.dict, -1)
	m.ends = append(m.ends, false)
	return int32(len(m.depth) - 1)
}

func edge(node, word int32) uint64 { return uint64(node)<<32 | uint64(uint32(word)) }

// step moves the automaton from state along the text's next token.
func (m *matcher) step(state int32, tok string) int32 {
	w, ok := m.words[tok]
	if !ok {
		return 0
	}
	for {
		if to, ok := m.next[edge(state, w)]; ok {
			return to
		}
		if state == 0 {
			return 0
		}
		state = m.fail[state]
	}
}

// longest is the node of the longest value that ends at state, or -1.
func (m *matcher) longest(state int32) int32 {
	if m.ends[state] {
		return state
	}
	return m.dict[state]
}
