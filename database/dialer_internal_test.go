package database

import (
	"testing"
	"time"
)

func TestTheHandshakeMayTakeAsLongAsOneReadButNeverLessThanTwoSeconds(t *testing.T) {
	tests := []struct {
		ioTimeout time.Duration
		want      string
	}{
		{0, "2"}, // reads without a limit: the handshake keeps its own
		{500 * time.Millisecond, "2"},
		{DefaultIOTimeout, "2"},
		{2500 * time.Millisecond, "3"}, // whole seconds, rounded up
		{time.Minute, "60"},
	}
	for _, tt := range tests {
		if got := connectTimeoutFor(tt.ioTimeout); got != tt.want {
			t.Errorf("connectTimeoutFor(%v) = %s, want %s", tt.ioTimeout, got, tt.want)
		}
	}
}
