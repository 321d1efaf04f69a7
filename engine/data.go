package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrDataNotObject means the data of a run is not a JSON object; the
// request is malformed, not a run that evaluates to false.
var ErrDataNotObject = errors.New("data must be a JSON object")

// DataText is the text of a run's data that DecodeData accepted, for a
// result to echo: valid JSON, so that writing it compacted needs no second
// check of every byte. It marshals as the JSON it holds.
type DataText []byte

// MarshalJSON returns the text; encoding/json compacts it.
func (t DataText) MarshalJSON() ([]byte, error) {
	if t == nil {
		return []byte("null"), nil
	}
	return t, nil
}

// DecodeData decodes a run's data. It refuses anything but a JSON object
// and nesting deeper than the limit, before decoding, so a hostile document
// costs one pass over its bytes.
func DecodeData(raw []byte, limits Limits) (map[string]any, error) {
	limits = limits.withDefaults()
	if data, ok := decodeObject(raw, limits.MaxDataDepth); ok {
		return data, nil
	}
	return decodeDoubtful(raw, limits)
}

// decodeDoubtful decodes data the one-pass decoder gave up on (limits
// with their defaults): its errors are encoding/json's, in plain words.
func decodeDoubtful(raw []byte, limits Limits) (map[string]any, error) {
	if err := checkDepth(raw, limits.MaxDataDepth); err != nil {
		return nil, err
	}
	trimmed := bytes.TrimLeft(raw, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, ErrDataNotObject
	}
	var data map[string]any
	if err := json.Unmarshal(raw, &data); err != nil {
		return nil, dataError(err)
	}
	if data == nil {
		return nil, ErrDataNotObject
	}
	return data, nil
}

// dataError says in plain words why encoding/json refused data: which
// number is too large for a float64, the one value a map of any refuses,
// or where its syntax breaks.
func dataError(err error) error {
	var number *json.UnmarshalTypeError
	if errors.As(err, &number) && strings.HasPrefix(number.Value, "number ") {
		text := strings.TrimPrefix(number.Value, "number ")
		// The offset counts the byte that ends the number.
		beyond, bound := "larger", "1.8e308"
		if strings.HasPrefix(text, "-") {
			beyond, bound = "smaller", "-1.8e308"
		}
		return fmt.Errorf("data holds the number %s (at byte %d), %s than any number a rule can compare (about %s)",
			Quoted(text), number.Offset-int64(len(text)), beyond, bound)
	}
	return fmt.Errorf("data is not valid JSON: %s", JSONProblem(err))
}

// JSONProblem says where a JSON text that encoding/json refused breaks:
// err's message with the byte where the syntax fails, or "it ends too
// early" for a text cut short, however encoding/json said so (json.Unmarshal
// and a json.Decoder say it differently). Flow definitions word their JSON
// errors with it too.
func JSONProblem(err error) string {
	var syntax *json.SyntaxError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF), err == io.EOF,
		errors.As(err, &syntax) && syntax.Error() == "unexpected end of JSON input":
		return "it ends too early"
	case syntax != nil && strings.HasSuffix(syntax.Error(), "exceeded max depth"):
		// encoding/json's own bound, of 10,000 levels, is worded for Go.
		return fmt.Sprintf("it nests deeper than %d levels (at byte %d)", jsonMaxNesting, syntax.Offset)
	case syntax != nil:
		return fmt.Sprintf("%v (at byte %d)", err, syntax.Offset)
	}
	return err.Error()
}

// jsonMaxNesting is the depth encoding/json refuses to go beyond.
const jsonMaxNesting = 10000

// CheckData returns the error DecodeData would return for raw, building no
// values when the one-pass decoder accepts it: a batch checks every item
// before it runs any, then decodes each only when it runs it.
func CheckData(raw []byte, limits Limits) error {
	limits = limits.withDefaults()
	if validObject(raw, limits.MaxDataDepth) {
		return nil
	}
	_, err := decodeDoubtful(raw, limits)
	return err
}

// CheckedObjects splits the JSON array of objects at the start of text
// into its objects, each checked as CheckData checks a run's data, in one
// pass over each: a batch's items. end is where the array ends. It reports
// false for an array that holds anything else, or an object CheckData
// would refuse, which then says nothing of the rest: split off, each
// object's own CheckData does.
func CheckedObjects(text []byte, limits Limits) (objects []json.RawMessage, end int, ok bool) {
	d := dataDecoder{raw: text, maxDepth: limits.withDefaults().MaxDataDepth}
	d.space()
	if d.pos >= len(text) || text[d.pos] != '[' {
		return nil, 0, false
	}
	d.pos++
	for more := true; more; {
		d.space()
		start := d.pos
		if start >= len(text) || text[start] != '{' || !d.valid(0) {
			return nil, 0, false
		}
		if objects == nil {
			// Most items are alike: the first one's size guesses how many
			// follow.
			objects = make([]json.RawMessage, 0, len(text)/(d.pos-start+1)+1)
		}
		objects = append(objects, text[start:d.pos])
		if more, ok = d.separator(']'); !ok {
			return nil, 0, false
		}
	}
	return objects, d.pos, true
}

// A DataDecoder decodes the data of one run after another as DecodeData
// does. Decoded into the maps of the data before it, once its caller has
// recycled them, each run costs its values but not its objects' maps.
type DataDecoder struct {
	limits Limits
	maps   mapStore
	picker picker
}

// NewDataDecoder returns a decoder with the limits of DecodeData.
func NewDataDecoder(limits Limits) *DataDecoder {
	return &DataDecoder{limits: limits.withDefaults()}
}

// Decode decodes a run's data as DecodeData does.
func (d *DataDecoder) Decode(raw []byte) (map[string]any, error) {
	dec := dataDecoder{raw: raw, maxDepth: d.limits.MaxDataDepth, maps: &d.maps}
	if data, ok := dec.decode(); ok {
		return data, nil
	}
	return decodeDoubtful(raw, d.limits)
}

// EvaluateInto evaluates p on the data raw holds, which CheckData has
// accepted, into res as Decode and then p.EvaluateInto would, except that
// res.Data is left for the caller to set. Most data is never decoded
// whole: only the values p's conditions read are (see dataPlan).
func (d *DataDecoder) EvaluateInto(res *Result, p *Program, raw []byte) error {
	if p.plan != nil && d.picker.pick(p.plan, raw, d.limits.MaxDataDepth) {
		p.evaluateInto(res, evaluator{prog: p, picked: d.picker.values})
		return nil
	}
	data, err := d.Decode(raw)
	if err != nil {
		return err
	}
	p.evaluateInto(res, evaluator{prog: p, data: data})
	return nil
}

// Recycle empties every map Decode has returned, at any depth, and every
// box a picked value was put in, for the next data to fill: the caller
// must hold nothing of that data any longer.
func (d *DataDecoder) Recycle() {
	d.maps.recycle()
	d.picker.boxes.recycle()
}

// mapStore lends maps and takes them back emptied.
type mapStore struct {
	spare, lent []map[string]any
}

// maxRecycledEntries bounds the maps kept for reuse: an emptied map keeps
// its capacity, and ranging over it costs that capacity, not its length.
// maxSpareMaps bounds how many are kept: a decoder lives on from one run
// to the next, and what it keeps should not grow with the largest data it
// ever read.
const (
	maxRecycledEntries = 64
	maxSpareMaps       = 256
)

func (s *mapStore) lend() map[string]any {
	var m map[string]any
	if n := len(s.spare); n > 0 {
		m, s.spare = s.spare[n-1], s.spare[:n-1]
	} else {
		m = map[string]any{}
	}
	s.lent = append(s.lent, m)
	return m
}

func (s *mapStore) recycle() {
	for i, m := range s.lent {
		if len(m) <= maxRecycledEntries && len(s.spare) < maxSpareMaps {
			clear(m)
			s.spare = append(s.spare, m)
		}
		s.lent[i] = nil
	}
	s.lent = s.lent[:0]
}

// CheckDepth reports data nested deeper than max.
func checkDepth(raw []byte, max int) error {
	depth, inString, escaped := 0, false, false
	for _, c := range raw {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > max {
				return fmt.Errorf("data nests deeper than %d levels", max)
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return nil
}
