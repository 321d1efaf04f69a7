package engine

import (
	"fmt"
	"unicode/utf8"
)

// Pos is a byte offset into a rule text.
type Pos int

// Position is a human-readable location: 1-based line and column, the
// column counted in characters.
type Position struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

func (p Position) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Column) }

// position converts an offset into a line and column. It is only called when
// an error is reported, so it scans instead of keeping a line table.
func position(src string, off Pos) Position {
	if int(off) > len(src) {
		off = Pos(len(src))
	}
	line, lineStart := 1, 0
	for i := 0; i < int(off); i++ {
		if src[i] == '\n' {
			line++
			lineStart = i + 1
		}
	}
	return Position{Line: line, Column: utf8.RuneCountInString(src[lineStart:off]) + 1}
}
