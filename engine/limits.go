package engine

// Limits protect a service from rule texts and data that would cost too
// much. A zero field takes its default.
type Limits struct {
	MaxTextBytes      int // size of a rule text (default 256 KiB)
	MaxRules          int // rules in one text (default 1,000)
	MaxConditions     int // conditions in one text, all rules together (default 10,000)
	MaxListItems      int // items of one written list (default 1,000)
	MaxDataDepth      int // nesting of objects and arrays in data (default 64)
	MaxReferenceDepth int // rules evaluated inside one another through references (default 64)
	// MaxShownAnswerBytes bounds what the data values one run shows may
	// answer (Result.ShownAnswerBytes, default 64 MiB): past it the run
	// stops with an error rather than go on reading a large value in
	// condition after condition.
	MaxShownAnswerBytes int
	// MaxReadBytes bounds the data values the conditions of one run read,
	// counted as for MaxShownAnswerBytes but once a reading, whether shown
	// or not (default 64 MiB): each comparison of a list or a long text
	// reads all of it.
	MaxReadBytes int
}

// DefaultLimits are generous for any policy a person writes and small
// enough that one request cannot hold a core for long.
var DefaultLimits = Limits{
	MaxTextBytes:        256 << 10,
	MaxRules:            1000,
	MaxConditions:       10000,
	MaxListItems:        1000,
	MaxDataDepth:        64,
	MaxReferenceDepth:   64,
	MaxShownAnswerBytes: 64 << 20,
	MaxReadBytes:        64 << 20,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	pick := func(v, def int) int {
		if v > 0 {
			return v
		}
		return def
	}
	return Limits{
		MaxTextBytes:        pick(l.MaxTextBytes, d.MaxTextBytes),
		MaxRules:            pick(l.MaxRules, d.MaxRules),
		MaxConditions:       pick(l.MaxConditions, d.MaxConditions),
		MaxListItems:        pick(l.MaxListItems, d.MaxListItems),
		MaxDataDepth:        pick(l.MaxDataDepth, d.MaxDataDepth),
		MaxReferenceDepth:   pick(l.MaxReferenceDepth, d.MaxReferenceDepth),
		MaxShownAnswerBytes: pick(l.MaxShownAnswerBytes, d.MaxShownAnswerBytes),
		MaxReadBytes:        pick(l.MaxReadBytes, d.MaxReadBytes),
	}
}
