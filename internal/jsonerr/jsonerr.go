// Package jsonerr describes why encoding/json refused a text in words a
// person can act on: the byte where its syntax breaks, or that it ends too
// early.
package jsonerr

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Describe is err's message with the byte where the syntax breaks, or "it
// ends too early" for a text cut short, however encoding/json said so
// (json.Unmarshal and a json.Decoder say it differently).
func Describe(err error) string {
	var syntax *json.SyntaxError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF), err == io.EOF,
		errors.As(err, &syntax) && syntax.Error() == "unexpected end of JSON input":
		return "it ends too early"
	case syntax != nil:
		return fmt.Sprintf("%v (at byte %d)", err, syntax.Offset)
	}
	return err.Error()
}
