package engine

import (
	"strings"
	"unicode/utf8"
)

// Token kinds, for syntax highlighting.
const (
	TokKeyword     = "keyword"
	TokSelector    = "selector"
	TokProperty    = "property"
	TokOperator    = "operator"
	TokNumber      = "number"
	TokString      = "string"
	TokBoolean     = "boolean"
	TokDate        = "date"
	TokDuration    = "duration"
	TokLabel       = "label"
	TokReference   = "reference"
	TokOutcome     = "outcome"
	TokComment     = "comment"
	TokHeading     = "heading"
	TokPunctuation = "punctuation"
	TokText        = "text"
)

// Token is a piece of a rule text with its kind.
type Token struct {
	Kind  string `json:"kind"`
	Range Range  `json:"range"`
}

// Range is a span of text; End is exclusive.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// lineIndex converts byte offsets into lines and columns without rescanning
// the text for every offset: a text of one long line has as many tokens
// as short ones, and counting each token's column from the start of its
// line would cost the square of the line's length.
type lineIndex struct {
	src    string
	starts []int // byte offset of each line's first character
	// marks are rune boundaries about every runeMarkBytes bytes, with the
	// runes before each, so that the runes before an offset are counted
	// from the nearest mark.
	marks []runeMark
}

type runeMark struct{ off, runes int }

const runeMarkBytes = 256

func newLineIndex(src string) *lineIndex {
	li := &lineIndex{src: src, starts: []int{0}}
	runes := 0
	for i := 0; i < len(src); runes++ {
		if i >= len(li.marks)*runeMarkBytes {
			li.marks = append(li.marks, runeMark{i, runes})
		}
		if src[i] == '\n' {
			li.starts = append(li.starts, i+1)
		}
		if src[i] < utf8.RuneSelf {
			i++
		} else {
			_, size := utf8.DecodeRuneInString(src[i:])
			i += size
		}
	}
	return li
}

// runesBefore counts the runes of src[:off], as utf8.RuneCountInString
// would, from the last mark at or before off.
func (li *lineIndex) runesBefore(off int) int {
	k := min(off/runeMarkBytes, len(li.marks)-1)
	for k > 0 && li.marks[k].off > off {
		k--
	}
	if k < 0 {
		return utf8.RuneCountInString(li.src[:off])
	}
	m := li.marks[k]
	return m.runes + utf8.RuneCountInString(li.src[m.off:off])
}

func (li *lineIndex) pos(off int) Position {
	off = max(0, min(off, len(li.src)))
	lo, hi := 0, len(li.starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if li.starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return Position{Line: lo + 1, Column: li.runesBefore(off) - li.runesBefore(li.starts[lo]) + 1}
}

func (li *lineIndex) span(from, to int) Range { return Range{li.pos(from), li.pos(to)} }

// highlighter splits a text into tokens. It follows the grammar where the
// text follows it and carries on past mistakes, so that a text being typed
// is still coloured: what it cannot place becomes text.
type highlighter struct {
	p    parser
	li   *lineIndex
	toks []Token
}

func tokenize(src string, li *lineIndex) []Token {
	h := &highlighter{p: parser{scanner: scanner{src: src}, limits: DefaultLimits}, li: li}
	for {
		h.topLevel()
		if h.p.eof() {
			return h.toks
		}
		h.rule()
	}
}

func (h *highlighter) emit(kind string, from, to int) {
	if to > from {
		h.toks = append(h.toks, Token{Kind: kind, Range: h.li.span(from, to)})
	}
}

// topLevel skips blank space between rules; `#` lines there are headings.
func (h *highlighter) topLevel() {
	p := &h.p
	for !p.eof() {
		switch c := p.peek(); {
		case isSpace(c):
			p.pos++
		case c == '#':
			start := p.pos
			p.skipLine()
			h.emit(TokHeading, start, lineEnd(p.src, start))
		default:
			return
		}
	}
}

// space skips whitespace inside a rule; whole `#` lines there are comments.
func (h *highlighter) space() {
	p := &h.p
	for !p.eof() {
		switch c := p.peek(); {
		case isSpace(c):
			p.pos++
		case c == '#' && lineStartsAt(p.src, p.pos):
			start := p.pos
			p.skipLine()
			h.emit(TokComment, start, lineEnd(p.src, start))
		default:
			return
		}
	}
}

// lineEnd is the end of the line that from is on, without a trailing CR.
func lineEnd(src string, from int) int {
	end := len(src)
	if i := strings.IndexByte(src[from:], '\n'); i >= 0 {
		end = from + i
	}
	if end > from && src[end-1] == '\r' {
		end--
	}
	return end
}

// rule reads one rule: its header, then conditions up to the full stop.
func (h *highlighter) rule() {
	p := &h.p
	start := p.pos
	if !p.atArticle() && !h.lowerArticle() {
		if label, ok := p.label(); ok {
			dot := start + len(label)
			h.emit(TokLabel, start, dot)
			h.emit(TokPunctuation, dot, dot+1)
			p.pos = dot + 1
			h.space()
		}
	}
	if h.article() {
		h.space()
		if h.selector() {
			h.outcome()
		}
	}
	h.conditions()
}

// lowerArticle reports a rule that starts with a lower-case `a` or `an`;
// it is highlighted as a rule, and a diagnostic explains the mistake.
func (h *highlighter) lowerArticle() bool {
	_, ok := lowerArticleAt(h.p.src, h.p.pos)
	return ok
}

// lowerArticleAt reports whether `a **` or `an **` starts at pos, and how
// long the article is.
func lowerArticleAt(src string, pos int) (int, bool) {
	for _, a := range [...]string{"an", "a"} {
		if hasWordAt(src, pos, a) {
			i := pos + len(a)
			if i < len(src) && isSpace(src[i]) {
				for i < len(src) && isSpace(src[i]) {
					i++
				}
				return len(a), strings.HasPrefix(src[i:], "**")
			}
		}
	}
	return 0, false
}

func (h *highlighter) article() bool {
	p := &h.p
	for _, a := range [...]string{"An", "A", "an", "a"} {
		if p.hasWord(a) {
			h.emit(TokKeyword, p.pos, p.pos+len(a))
			p.pos += len(a)
			return true
		}
	}
	return false
}

func (h *highlighter) selector() bool {
	p := &h.p
	start := p.pos
	if _, ok := p.selector(); ok {
		h.emit(TokSelector, start, p.pos)
		return true
	}
	p.pos = start
	return false
}

// outcome reads the outcome phrase and `if`.
func (h *highlighter) outcome() {
	p := &h.p
	h.space()
	start := p.pos
	var r Rule
	if !p.outcome(&r) {
		p.pos = start
		return
	}
	ifPos := p.pos - 2
	piece := start
	for line := nextLine(p.src, start); line < ifPos; line = nextLine(p.src, line) {
		hash := line
		for hash < ifPos && (p.src[hash] == ' ' || p.src[hash] == '\t') {
			hash++
		}
		if hash < ifPos && p.src[hash] == '#' {
			h.emitTrimmed(TokOutcome, piece, line)
			h.emit(TokComment, hash, lineEnd(p.src, hash))
			piece = lineEnd(p.src, hash)
		}
	}
	h.emitTrimmed(TokOutcome, piece, ifPos)
	h.emit(TokKeyword, ifPos, p.pos)
}

// nextLine is where the line after the one at off starts, or the end of
// src.
func nextLine(src string, off int) int {
	if i := strings.IndexByte(src[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(src)
}

// emitTrimmed emits the text between from and to without the whitespace
// around it.
func (h *highlighter) emitTrimmed(kind string, from, to int) {
	for from < to && isSpace(h.p.src[from]) {
		from++
	}
	for to > from && isSpace(h.p.src[to-1]) {
		to--
	}
	h.emit(kind, from, to)
}

// conditions reads up to the rule's full stop, token by token.
func (h *highlighter) conditions() {
	p := &h.p
	valueNext, inList := false, false
	for {
		h.space()
		if p.eof() {
			return
		}
		start := p.pos
		rest := p.rest()
		switch {
		case strings.HasPrefix(rest, "**") || strings.HasPrefix(rest, "__"):
			n := len(h.toks)
			if h.path() {
				valueNext = false
				h.afterPath(start, len(h.toks) == n+1)
				continue
			}
			h.emit(TokText, start, start+2)
			p.pos = start + 2
		case strings.HasPrefix(rest, "§") || p.peek() == '$':
			if c, ok := p.labelRef(); ok {
				nameEnd := start + len(p.src[start:]) - len(strings.TrimPrefix(strings.TrimPrefix(p.src[start:], "$"), "§")) + len(c.Label)
				h.emit(TokReference, start, nameEnd)
				if p.pos > nameEnd {
					h.emit(TokKeyword, lastWordStart(p.src, nameEnd, p.pos), p.pos)
				}
			} else {
				_, size := utf8.DecodeRuneInString(p.src[start:])
				p.pos = start + size
				h.emit(TokText, start, p.pos)
			}
		case p.peek() == '.':
			p.pos++
			if !inList && (p.eof() || isSpace(p.peek())) {
				h.emit(TokPunctuation, start, p.pos)
				h.trailingComment()
				return
			}
			h.emit(TokText, start, p.pos)
		case p.peek() == '[':
			inList = true
			h.emit(TokPunctuation, start, start+1)
			p.pos++
		case p.peek() == ']' || p.peek() == ',':
			if p.peek() == ']' {
				inList = false
			}
			h.emit(TokPunctuation, start, start+1)
			p.pos++
		case h.operator():
			valueNext = true
		case valueNext || inList || isDigit(p.peek()) || p.peek() == '"':
			if !h.value(inList) {
				h.word(TokText)
			}
			valueNext = false
		default:
			h.keywordOrText()
		}
	}
}

// lastWordStart finds where the words after a label reference begin.
func lastWordStart(src string, from, to int) int {
	for from < to && isSpace(src[from]) {
		from++
	}
	return from
}

// path reads a chain of selectors and properties joined by of/in/the.
func (h *highlighter) path() bool {
	p := &h.p
	if !h.element() {
		return false
	}
	for {
		save, n := p.pos, len(h.toks)
		p.skipSpace()
		kw := p.pos
		if !p.acceptWord("of") && !p.acceptWord("in") {
			p.pos = save
			return true
		}
		if p.eof() || !isSpace(p.peek()) {
			p.pos = save
			return true
		}
		h.emit(TokKeyword, kw, p.pos)
		p.skipSpace()
		h.the()
		if !h.element() {
			p.pos, h.toks = save, h.toks[:n]
			return true
		}
	}
}

func (h *highlighter) element() bool {
	p := &h.p
	start := p.pos
	if strings.HasPrefix(p.rest(), "**") {
		return h.selector()
	}
	if _, ok := p.property(); ok {
		h.emit(TokProperty, start, p.pos)
		return true
	}
	p.pos = start
	return false
}

func (h *highlighter) the() {
	p := &h.p
	start := p.pos
	p.acceptThe()
	if p.pos > start {
		h.emit(TokKeyword, start, start+3)
	}
}

// afterPath decides what follows a path: an operator and its operand, or,
// after a lone selector, a reference phrase.
func (h *highlighter) afterPath(start int, lone bool) {
	p := &h.p
	save := p.pos
	p.skipSpace()
	if h.operator() {
		h.space()
		if p.atPath() {
			h.the()
			h.path()
		} else if p.peek() != '[' {
			h.value(false)
		}
		return
	}
	if lone && strings.HasPrefix(p.src[start:], "**") && !p.eof() && p.peek() != '.' && !connectiveAhead(p.src, p.pos) {
		p.pos = start
		if c, ok := p.phraseRef(); ok {
			from := save
			for from < len(p.src) && isSpace(p.src[from]) {
				from++
			}
			h.emit(TokReference, from, from+len(c.Phrase))
			return
		}
	}
	p.pos = save
}

func (h *highlighter) operator() bool {
	p := &h.p
	for _, ph := range operatorPhrases {
		if p.hasWord(ph.text) {
			h.emit(TokOperator, p.pos, p.pos+len(ph.text))
			p.pos += len(ph.text)
			return true
		}
	}
	return false
}

// value reads a literal and emits it with its kind.
func (h *highlighter) value(inList bool) (ok bool) {
	p := &h.p
	start := p.pos
	defer func() {
		// An invalid date ends the parser's rule; here it is only text.
		if recover() != nil {
			p.pos = start
			ok = false
		}
	}()
	lit, ok := p.value(inList)
	if !ok {
		p.pos = start
		return false
	}
	kind := TokString
	switch lit.Kind {
	case LitNumber:
		kind = TokNumber
	case LitBoolean:
		kind = TokBoolean
	case LitDate:
		kind = TokDate
	case LitDuration:
		kind = TokDuration
	}
	h.emit(kind, start, p.pos)
	return true
}

var conditionKeywords = []string{"the", "of", "in", "and", "or", "number", "length", "if"}

func (h *highlighter) keywordOrText() {
	p := &h.p
	for _, k := range conditionKeywords {
		if p.hasWord(k) {
			h.emit(TokKeyword, p.pos, p.pos+len(k))
			p.pos += len(k)
			return
		}
	}
	h.word(TokText)
}

// word emits the word at the offset, or a single character that starts
// none.
func (h *highlighter) word(kind string) {
	p := &h.p
	start := p.pos
	for !p.eof() {
		r, size := utf8.DecodeRuneInString(p.rest())
		if !isBareRune(r) {
			break
		}
		p.pos += size
	}
	if p.pos == start {
		_, size := utf8.DecodeRuneInString(p.rest())
		p.pos += size
	}
	h.emit(kind, start, p.pos)
}

// trailingComment reads a `#` comment after a rule's full stop.
func (h *highlighter) trailingComment() {
	p := &h.p
	p.skipBlanks()
	if p.peek() == '#' {
		start := p.pos
		p.skipLine()
		h.emit(TokComment, start, lineEnd(p.src, start))
	}
}
