package engine

// The syntax tree. Every node records where it starts so errors found after
// parsing can still point at the text.

// RuleText is a whole parsed text.
type RuleText struct {
	Rules []*Rule
}

// Rule is one rule: `[label. ]A **selector** outcome-phrase if conditions.`
type Rule struct {
	Pos      Pos
	End      Pos    // just after the full stop
	Label    string // "" when the rule has none
	Selector Name   // the header selector as written
	Verb     string // the outcome verb removed from the phrase, or ""
	Outcome  string // the phrase without its verb
	// Conditions are in text order; Or[i] tells whether the connective
	// before Conditions[i+1] is `or` (otherwise `and`).
	Conditions []Condition
	Or         []bool
}

// Name is a written selector or property name.
type Name struct {
	Pos  Pos
	Text string
}

// Element is one step of a path as written: `**x**` or `__x__`.
type Element struct {
	Name
	IsSelector bool
}

// Path is a chain such as `__a__ of the __b__ of the **c**`, kept in written
// order (the root is the last element).
type Path struct {
	Elements []Element
}

// Condition is one of the four condition forms.
type Condition interface{ conditionPos() Pos }

// Comparison compares a path with a literal, another path, or nothing
// (emptiness).
type Comparison struct {
	Pos   Pos
	Left  Path
	Op    Operator
	Right *Path   // a right-hand path, or nil
	Value Literal // the right-hand literal when there is neither a path nor an emptiness operator
}

// Count compares `the number of` / `the length of` a path with a literal.
type Count struct {
	Pos    Pos
	Length bool // `length of`; otherwise `number of`
	Path   Path
	Op     Operator
	Value  Literal
}

// LabelRef is `§label [predicate]` or `$label [predicate]`.
type LabelRef struct {
	Pos   Pos
	Label string
}

// PhraseRef is `[the] **selector** reference phrase`.
type PhraseRef struct {
	Pos      Pos
	Selector Name
	Phrase   string
}

func (c *Comparison) conditionPos() Pos { return c.Pos }
func (c *Count) conditionPos() Pos      { return c.Pos }
func (c *LabelRef) conditionPos() Pos   { return c.Pos }
func (c *PhraseRef) conditionPos() Pos  { return c.Pos }

// LiteralKind is the type of a written value.
type LiteralKind int

const (
	LitNumber LiteralKind = iota
	LitString
	LitBoolean
	LitDate
	LitDuration
	LitList
)

// Literal is a written value.
type Literal struct {
	Pos    Pos
	Kind   LiteralKind
	Bool   bool      // LitBoolean
	Number float64   // LitNumber; the amount of a LitDuration
	Text   string    // LitString; a LitDate as YYYY-MM-DD; a LitDuration's canonical singular unit
	Items  []Literal // LitList
}

// day is a LitDate's day number; the parser has checked the date.
func (l *Literal) day() int {
	d, _ := parseDay(l.Text)
	return d
}
