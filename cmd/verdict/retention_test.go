package main

import (
	"testing"
	"time"
)

func TestAuditRetentionTakesDaysOrADuration(t *testing.T) {
	good := []struct {
		in   string
		want time.Duration
		show string
	}{
		{"90d", 90 * day, "90d"},
		{"1d", day, "1d"},
		{"36h", 36 * time.Hour, "36h0m0s"},
		{"0", 0, "0d"},
		{"0d", 0, "0d"},
	}
	for _, c := range good {
		var r retention
		if err := r.Set(c.in); err != nil || time.Duration(r) != c.want || r.String() != c.show {
			t.Errorf("%q: %v (%s), %v; want %v (%s)", c.in, time.Duration(r), r.String(), err, c.want, c.show)
		}
	}
	for _, bad := range []string{"", "x", "ninety days", "-1d", "1.5d", "-3h", "30m", "99999d"} {
		r := retention(7 * day)
		if err := r.Set(bad); err == nil || time.Duration(r) != 7*day {
			t.Errorf("%q: accepted as %v", bad, time.Duration(r))
		}
	}
}
