package main

import (
	"testing"
	"time"
)

func TestARetentionTakesDaysOrADuration(t *testing.T) {
	good := []struct {
		in      string
		forever bool
		want    time.Duration
		show    string
	}{
		{"90d", true, 90 * day, "90d"},
		{"1d", true, day, "1d"},
		{"36h", true, 36 * time.Hour, "36h0m0s"},
		{"0", true, 0, "0d"},
		{"0d", true, 0, "0d"},
		{"30d", false, 30 * day, "30d"},
		{"1h", false, time.Hour, "1h0m0s"},
		{"65535d", false, 65535 * day, "65535d"},
		{"2562047h", true, 2562047 * time.Hour, "2562047h0m0s"},
	}
	for _, c := range good {
		r := newRetention(7*day, c.forever, "things")
		if err := r.Set(c.in); err != nil || r.d != c.want || r.String() != c.show {
			t.Errorf("%q: %v (%s), %v; want %v (%s)", c.in, r.d, r.String(), err, c.want, c.show)
		}
	}
	// Each error names the example of its own flag: 90d where 0 keeps
	// forever (--audit-retention), 30d where it cannot (--decision-retention).
	bad := []struct {
		in      string
		forever bool
		err     string
	}{
		{"", true, "want days (90d), a duration (36h) or 0"},
		{"x", true, "want days (90d), a duration (36h) or 0"},
		{"ninety days", false, "want days (30d) or a duration (36h)"},
		{"-1d", true, "days must be a whole number up to 65535, as in 90d"},
		{"1.5d", false, "days must be a whole number up to 65535, as in 30d"},
		{" 30d", false, "days must be a whole number up to 65535, as in 30d"},
		{"+1d", false, "days must be a whole number up to 65535, as in 30d"},
		{"99999d", true, "days must be a whole number up to 65535, as in 90d"},
		{"9999999h", true, "a duration out of range: want one from 1h to 2562047h"},
		{"9999999h", false, "a duration out of range: want one from 1h to 2562047h"},
		{"-9999999h", true, "a duration out of range: want one from 1h to 2562047h"},
		{"2562047h47m17s", true, "a duration out of range: want one from 1h to 2562047h"},
		{"99999999999999999999ns", false, "a duration out of range: want one from 1h to 2562047h"},
		{"9999999x", true, "want days (90d), a duration (36h) or 0"},
		{"1h2", true, "want days (90d), a duration (36h) or 0"},
		{"-3h", true, "must not be negative"},
		{"-3h", false, "must not be negative"},
		{"30m", true, "must be at least an hour, or 0 to keep things forever"},
		{"30m", false, "must be at least an hour: things cannot be kept forever"},
		{"0", false, "must be at least an hour: things cannot be kept forever"},
		{"0d", false, "must be at least an hour: things cannot be kept forever"},
	}
	for _, c := range bad {
		def := 30 * day
		if c.forever {
			def = 90 * day
		}
		r := newRetention(def, c.forever, "things")
		if err := r.Set(c.in); err == nil || err.Error() != c.err || r.d != def {
			t.Errorf("%q (forever %v): %v, kept %v; want %q and %v kept", c.in, c.forever, err, r.d, c.err, def)
		}
	}
}
