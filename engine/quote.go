package engine

// MaxQuoted is how much of a value a message quotes, in characters: a
// message about a value a client sent (an id, a name, a number in data, a
// path) quotes at most its first MaxQuoted characters, marked as cut by
// Cut, so that a message stays short however long the value.
const MaxQuoted = 40

// Cut cuts s to its first n characters, marking the cut with "…".
func Cut(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i] + "…"
		}
		n--
	}
	return s
}

// Quoted is the start of s that a message quotes: its first MaxQuoted
// characters, marked as cut when there were more.
func Quoted(s string) string { return Cut(s, MaxQuoted) }
