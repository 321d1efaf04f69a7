package database

import (
	"context"
	"net"
	"strconv"
	"time"
)

// lib/pq does not abort a blocked read when a query's context ends: it sends
// PostgreSQL a cancel request on a new connection and keeps waiting for the
// answer. A server that stops answering without closing the connection (a
// network partition, a frozen host, a firewall dropping packets) would then
// hold every request for as long as the partition lasts. Connections are
// therefore opened by a dialer that bounds connecting, and every read and
// write on them carries a deadline of its own.

// Defaults for PostgreSQL connections. DefaultIOTimeout bounds one read or
// one write: since the server sends nothing while it executes a statement,
// it also bounds how long one statement may run.
const (
	DefaultIOTimeout = 2 * time.Second
	dialTimeout      = 2 * time.Second
	// minConnectTimeout is the least of lib/pq's connect_timeout: the TCP
	// connection and the start-up handshake together.
	minConnectTimeout = 2 * time.Second
	// TCP keepalives find a peer that vanished while a connection was
	// idle in the pool: after 10 s of silence, then 3 probes 5 s apart.
	keepAliveIdle     = 10 * time.Second
	keepAliveInterval = 5 * time.Second
	keepAliveCount    = 3
)

// connectTimeoutFor is lib/pq's connect_timeout (whole seconds) for
// connections whose reads and writes may each stall for ioTimeout: a
// handshake is reads and writes too, so it is allowed as long as one of
// them, and never less than minConnectTimeout, even where reads have no
// limit (0), so that a server that never answers cannot hang the start.
func connectTimeoutFor(ioTimeout time.Duration) string {
	d := max(ioTimeout, minConnectTimeout)
	return strconv.FormatInt(int64((d+time.Second-1)/time.Second), 10)
}

// boundedDialer opens TCP connections for lib/pq with a connect timeout and
// keepalives, and wraps them in deadlineConn.
type boundedDialer struct {
	net       net.Dialer
	ioTimeout time.Duration
}

func newBoundedDialer(ioTimeout time.Duration) *boundedDialer {
	return &boundedDialer{
		net: net.Dialer{
			Timeout: dialTimeout,
			KeepAliveConfig: net.KeepAliveConfig{
				Enable: true, Idle: keepAliveIdle, Interval: keepAliveInterval, Count: keepAliveCount,
			},
		},
		ioTimeout: ioTimeout,
	}
}

func (d *boundedDialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	c, err := d.net.DialContext(ctx, network, address)
	if err != nil || d.ioTimeout <= 0 {
		return c, err
	}
	return &deadlineConn{Conn: c, timeout: d.ioTimeout}, nil
}

func (d *boundedDialer) Dial(network, address string) (net.Conn, error) {
	return d.DialContext(context.Background(), network, address)
}

func (d *boundedDialer) DialTimeout(network, address string, timeout time.Duration) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return d.DialContext(ctx, network, address)
}

// deadlineConn gives every Read and Write a deadline of timeout from its
// start, never later than one the driver set itself (lib/pq sets one for
// the start-up handshake). A timed-out operation fails with a net.Error;
// lib/pq then marks the connection bad and the pool drops it.
type deadlineConn struct {
	net.Conn
	timeout time.Duration
	// outer is the deadline the driver set, zero for none. Only lib/pq's
	// goroutine that owns the connection touches it.
	readOuter, writeOuter time.Time
}

func (c *deadlineConn) Read(b []byte) (int, error) {
	if err := c.Conn.SetReadDeadline(c.deadline(c.readOuter)); err != nil {
		return 0, err
	}
	return c.Conn.Read(b)
}

func (c *deadlineConn) Write(b []byte) (int, error) {
	if err := c.Conn.SetWriteDeadline(c.deadline(c.writeOuter)); err != nil {
		return 0, err
	}
	return c.Conn.Write(b)
}

func (c *deadlineConn) deadline(outer time.Time) time.Time {
	d := time.Now().Add(c.timeout)
	if !outer.IsZero() && outer.Before(d) {
		return outer
	}
	return d
}

func (c *deadlineConn) SetDeadline(t time.Time) error {
	c.readOuter, c.writeOuter = t, t
	return c.Conn.SetDeadline(t)
}

func (c *deadlineConn) SetReadDeadline(t time.Time) error {
	c.readOuter = t
	return c.Conn.SetReadDeadline(t)
}

func (c *deadlineConn) SetWriteDeadline(t time.Time) error {
	c.writeOuter = t
	return c.Conn.SetWriteDeadline(t)
}
