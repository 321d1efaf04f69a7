package main

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// retention is the value of --audit-retention: whole days ("90d") or a
// Go duration ("36h"); 0 keeps events forever.
type retention time.Duration

const day = 24 * time.Hour

func (r *retention) String() string {
	d := time.Duration(*r)
	if d%day == 0 {
		return strconv.FormatInt(int64(d/day), 10) + "d"
	}
	return d.String()
}

func (r *retention) Set(s string) error {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseUint(days, 10, 16)
		if err != nil {
			return errors.New("days must be a whole number up to 65535, as in 90d")
		}
		*r = retention(time.Duration(n) * day)
		return nil
	}
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return errors.New("want days (90d), a duration (36h) or 0")
	case d < 0:
		return errors.New("must not be negative")
	case d > 0 && d < time.Hour:
		return errors.New("must be at least an hour, or 0 to keep events forever")
	}
	*r = retention(d)
	return nil
}

func (r *retention) Type() string { return "retention" }
