package engine

import "fmt"

// Pos is a byte offset into a rule text.
type Pos int

// Position is a human-readable location: 1-based line and column, the
// column counted in characters.
type Position struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

func (p Position) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Column) }
