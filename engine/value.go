package engine

import (
	"strconv"
	"unicode/utf8"
)

// Value type names as traces report them.
const (
	typeNumber   = "number"
	typeString   = "string"
	typeBoolean  = "boolean"
	typeDate     = "date"
	typeDuration = "duration"
	typeList     = "list"
	typeNull     = "null"
	typeObject   = "object"
)

type vkind uint8

const (
	vNumber vkind = iota
	vString
	vBool
	vDate
	vList
	vNull
	vObject
	vDuration
	vInvalidList // an array holding an object, array or null
)

var vkindNames = [...]string{
	vNumber: typeNumber, vString: typeString, vBool: typeBoolean, vDate: typeDate,
	vList: typeList, vNull: typeNull, vObject: typeObject, vDuration: typeDuration,
	vInvalidList: typeList,
}

// value is an operand during evaluation. Data values and compiled literals
// share it so that operators are written once.
type value struct {
	kind vkind
	num  float64     // vNumber; vDuration in days; vDate days since 1970-01-01; vBool 0 or 1; vObject key count
	str  string      // vString; the text of a vDate
	arr  []any       // data list
	set  *membership // written list
}

func boolValue(b bool) value {
	if b {
		return value{kind: vBool, num: 1}
	}
	return value{kind: vBool}
}

// fromJSON types a decoded JSON value (docs/rules.md, "What the data
// holds"). It never allocates.
func fromJSON(v any) value {
	switch x := v.(type) {
	case float64:
		return value{kind: vNumber, num: x}
	case string:
		if len(x) == 10 {
			if d, ok := parseDay(x); ok {
				return value{kind: vDate, str: x, num: float64(d)}
			}
		}
		return value{kind: vString, str: x}
	case bool:
		return boolValue(x)
	case []any:
		for _, it := range x {
			switch it.(type) {
			case float64, string, bool:
			default:
				return value{kind: vInvalidList, arr: x}
			}
		}
		return value{kind: vList, arr: x}
	case map[string]any:
		return value{kind: vObject, num: float64(len(x))}
	}
	return value{kind: vNull}
}

// fromItem types an item of a data list (fromJSON has checked that it is a
// number, string or boolean). Items keep their JSON type: a string item is
// text even when it reads as a date.
func fromItem(v any) value {
	if s, ok := v.(string); ok {
		return value{kind: vString, str: s}
	}
	return fromJSON(v)
}

// asDate coerces a value for the date operators: dates stay dates;
// strings holding a date or an ISO-8601 timestamp become their calendar
// date as written.
func (v value) asDate() (int, bool) {
	switch v.kind {
	case vDate:
		return int(v.num), true
	case vString:
		return timestampDay(v.str)
	}
	return 0, false
}

// durationUnit is a written unit and its length in days.
type durationUnit struct {
	word   string
	unit   string // canonical singular
	plural string
	days   float64
}

// durationUnits lists plural words first so that the longer word wins.
var durationUnits = func() []durationUnit {
	base := []durationUnit{
		{unit: "second", plural: "seconds", days: 1.0 / 86400},
		{unit: "minute", plural: "minutes", days: 1.0 / 1440},
		{unit: "hour", plural: "hours", days: 1.0 / 24},
		{unit: "day", plural: "days", days: 1},
		{unit: "week", plural: "weeks", days: 7},
		{unit: "month", plural: "months", days: 30.436875},
		{unit: "year", plural: "years", days: 365.2425},
		{unit: "decade", plural: "decades", days: 3652.425},
		{unit: "century", plural: "centuries", days: 36524.25},
	}
	var out []durationUnit
	for _, u := range base {
		p, s := u, u
		p.word, s.word = u.plural, u.unit
		out = append(out, p, s)
	}
	return out
}()

func unitByName(unit string) durationUnit {
	for _, u := range durationUnits {
		if u.unit == unit {
			return u
		}
	}
	panic("engine: unknown duration unit " + unit)
}

// durationText renders a duration: whole amounts without decimals, the
// singular unit for exactly 1.
func durationText(amount float64, unit string) string {
	u := unitByName(unit)
	name := u.plural
	if amount == 1 {
		name = u.unit
	}
	return strconv.FormatFloat(amount, 'f', -1, 64) + " " + name
}

// parseDay parses YYYY-MM-DD, a real calendar date, into days since
// 1970-01-01.
func parseDay(s string) (int, bool) {
	if !isDateShape(s) {
		return 0, false
	}
	y := int(s[0]-'0')*1000 + int(s[1]-'0')*100 + int(s[2]-'0')*10 + int(s[3]-'0')
	m := int(s[5]-'0')*10 + int(s[6]-'0')
	d := int(s[8]-'0')*10 + int(s[9]-'0')
	if m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m) {
		return 0, false
	}
	return daysFromCivil(y, m, d), true
}

func daysInMonth(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil is Howard Hinnant's days-from-civil algorithm.
func daysFromCivil(y, m, d int) int {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// timestampDay accepts YYYY-MM-DD alone or followed by `T` or a space and
// an ISO-8601 time (HH:MM[:SS[.fraction]][Z|±HH[:MM]]). RFC 3339 lets the
// `T` and `Z` be lower-case; hours, minutes and seconds must be in range
// (a second of 60 is a leap second).
func timestampDay(s string) (int, bool) {
	if len(s) < 10 {
		return 0, false
	}
	if len(s) > 10 && !(s[10] == 'T' || s[10] == 't' || s[10] == ' ') || len(s) > 10 && !isTime(s[11:]) {
		return 0, false
	}
	return parseDay(s[:10])
}

func isTime(s string) bool {
	// upTo reads two digits at i that make a number no greater than most.
	upTo := func(i, most int) bool {
		return len(s) >= i+2 && isDigit(s[i]) && isDigit(s[i+1]) && int(s[i]-'0')*10+int(s[i+1]-'0') <= most
	}
	if !upTo(0, 23) || len(s) < 5 || s[2] != ':' || !upTo(3, 59) {
		return false
	}
	i := 5
	if i < len(s) && s[i] == ':' {
		if !upTo(i+1, 60) {
			return false
		}
		i += 3
		if i < len(s) && (s[i] == '.' || s[i] == ',') {
			j := i + 1
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			if j == i+1 {
				return false
			}
			i = j
		}
	}
	switch {
	case i == len(s):
		return true
	case s[i] == 'Z' || s[i] == 'z':
		return i+1 == len(s)
	case s[i] == '+' || s[i] == '-':
		rest := s[i+1:]
		switch len(rest) {
		case 2:
			return upTo(i+1, 23)
		case 4:
			return upTo(i+1, 23) && upTo(i+3, 59)
		case 5:
			return upTo(i+1, 23) && rest[2] == ':' && upTo(i+4, 59)
		}
	}
	return false
}

func decodeRune(s string) (rune, int) { return utf8.DecodeRuneInString(s) }
