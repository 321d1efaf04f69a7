package main

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// retention is the value of --audit-retention and --decision-retention:
// whole days ("90d") or a Go duration ("36h"), at least an hour; 0 keeps
// forever where forever is allowed.
type retention struct {
	d time.Duration
	// forever says whether 0 may be given, to keep what is retained
	// forever; what names it in the errors.
	forever bool
	what    string
	// days is the flag's own example of days, its default: the errors
	// show it, not another flag's.
	days string
}

// newRetention is a retention of d unless set, which its errors show as
// their example of days.
func newRetention(d time.Duration, forever bool, what string) retention {
	r := retention{d: d, forever: forever, what: what}
	r.days = r.String()
	return r
}

const day = 24 * time.Hour

func (r *retention) String() string {
	if r.d%day == 0 {
		return strconv.FormatInt(int64(r.d/day), 10) + "d"
	}
	return r.d.String()
}

func (r *retention) Set(s string) error {
	d, err := parseRetention(s)
	switch {
	case err == errNotRetention && r.forever:
		return errors.New("want days (" + r.days + "), a duration (36h) or 0")
	case err == errNotRetention:
		return errors.New("want days (" + r.days + ") or a duration (36h)")
	case err == errDays:
		return errors.New("days must be a whole number up to 65535, as in " + r.days)
	case err == errDurationRange:
		return errors.New("a duration out of range: want one from 1h to " + maxDuration)
	case err != nil:
		return err
	case d < 0:
		return errors.New("must not be negative")
	case d == 0 && r.forever:
	case d < time.Hour && r.forever:
		return errors.New("must be at least an hour, or 0 to keep " + r.what + " forever")
	case d < time.Hour:
		return errors.New("must be at least an hour: " + r.what + " cannot be kept forever")
	}
	r.d = d
	return nil
}

var (
	// errNotRetention is a retention that is neither days nor a duration.
	errNotRetention = errors.New("neither days nor a duration")
	// errDays is days that are not a whole number up to 65535.
	errDays = errors.New("days out of range or not a whole number")
	// errDurationRange is a duration, as written, that time.Duration
	// cannot hold.
	errDurationRange = errors.New("a duration out of range")
)

// maxDuration is the longest duration, in whole hours.
const maxDuration = "2562047h"

// durationShaped is what time.ParseDuration reads, whatever its size:
// numbers, each with its unit.
var durationShaped = regexp.MustCompile(`^[-+]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:ns|us|µs|μs|ms|s|m|h))+$`)

// parseRetention reads whole days or a duration.
func parseRetention(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseUint(days, 10, 16)
		if err != nil {
			return 0, errDays
		}
		return time.Duration(n) * day, nil
	}
	d, err := time.ParseDuration(s)
	switch {
	case err == nil:
		return d, nil
	// time.ParseDuration says a duration too long is invalid, as it says
	// of what is no duration at all.
	case durationShaped.MatchString(s):
		return 0, errDurationRange
	}
	return 0, errNotRetention
}

func (r *retention) Type() string { return "retention" }
