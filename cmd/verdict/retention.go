package main

import (
	"errors"
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
		return errors.New("want days (90d), a duration (36h) or 0")
	case err == errNotRetention:
		return errors.New("want days (30d) or a duration (36h)")
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

// errNotRetention is a retention that is neither days nor a duration.
var errNotRetention = errors.New("neither days nor a duration")

// parseRetention reads whole days or a duration.
func parseRetention(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseUint(days, 10, 16)
		if err != nil {
			return 0, errors.New("days must be a whole number up to 65535, as in 90d")
		}
		return time.Duration(n) * day, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, errNotRetention
	}
	return d, nil
}

func (r *retention) Type() string { return "retention" }
