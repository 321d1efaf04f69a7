package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
	if err := checkDepth(raw, limits.MaxDataDepth); err != nil {
		return nil, err
	}
	trimmed := bytes.TrimLeft(raw, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, ErrDataNotObject
	}
	var data map[string]any
	if err := json.Unmarshal(raw, &data); err != nil {
		return nil, fmt.Errorf("data is not valid JSON: %w", err)
	}
	if data == nil {
		return nil, ErrDataNotObject
	}
	return data, nil
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
