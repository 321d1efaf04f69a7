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
