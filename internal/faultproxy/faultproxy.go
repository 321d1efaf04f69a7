// Package faultproxy is a TCP proxy for tests that stands between Verdict and
// its database and fails on demand: it forwards, refuses (resets every
// connection, old and new), or black-holes (accepts and keeps connections
// open but passes no byte on, as a network partition does). Import it from
// _test.go files only.
package faultproxy

import (
	"net"
	"sync"
	"testing"
)

// Mode is what the proxy does with traffic.
type Mode int

const (
	// Forward passes bytes both ways.
	Forward Mode = iota
	// Refuse resets every open connection and every new one at once.
	Refuse
	// BlackHole accepts connections and holds every byte read from either
	// side; they are passed on if the proxy forwards again.
	BlackHole
)

// Proxy listens on 127.0.0.1 and relays to one target address.
type Proxy struct {
	ln     net.Listener
	target string

	mu      sync.Mutex
	mode    Mode
	changed chan struct{} // closed, and replaced, on every change of mode
	conns   map[net.Conn]struct{}
	closed  bool
	wg      sync.WaitGroup
}

// Start listens on a free port and relays to target until t ends.
func Start(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("faultproxy: %v", err)
	}
	p := &Proxy{ln: ln, target: target, changed: make(chan struct{}), conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.close)
	return p
}

// Addr is the host:port to connect to instead of the target.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Set switches the proxy to mode m. Switching to Refuse resets every open
// connection before it returns.
func (p *Proxy) Set(m Mode) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mode = m
	close(p.changed)
	p.changed = make(chan struct{})
	if m == Refuse {
		for c := range p.conns {
			reset(c)
		}
	}
}

func (p *Proxy) state() (Mode, <-chan struct{}, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mode, p.changed, p.closed
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		if mode, _, _ := p.state(); mode == Refuse {
			reset(client)
			continue
		}
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			reset(client)
			continue
		}
		if !p.track(client, server) {
			return
		}
		p.wg.Add(2)
		go p.pipe(client, server)
		go p.pipe(server, client)
	}
}

// track registers a connection pair, unless the proxy is closing.
func (p *Proxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		for _, c := range conns {
			c.Close()
		}
		return false
	}
	for _, c := range conns {
		p.conns[c] = struct{}{}
	}
	return true
}

// pipe copies src to dst, holding what it read while the proxy black-holes.
// Either side failing or closing ends both.
func (p *Proxy) pipe(src, dst net.Conn) {
	defer p.wg.Done()
	defer p.drop(src, dst)
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && !p.await() {
			return
		}
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// await blocks while the proxy black-holes and reports whether bytes may
// flow now (false: refusing or closing).
func (p *Proxy) await() bool {
	for {
		mode, changed, closed := p.state()
		switch {
		case closed || mode == Refuse:
			return false
		case mode == Forward:
			return true
		}
		<-changed
	}
}

func (p *Proxy) drop(conns ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range conns {
		if _, ok := p.conns[c]; ok {
			delete(p.conns, c)
			c.Close()
		}
	}
}

func (p *Proxy) close() {
	p.mu.Lock()
	p.closed = true
	close(p.changed)
	p.changed = make(chan struct{})
	for c := range p.conns {
		reset(c)
	}
	p.mu.Unlock()
	p.ln.Close()
	p.wg.Wait()
}

// reset closes c with a TCP reset rather than an orderly close, as a server
// that went away does.
func reset(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	c.Close()
}
