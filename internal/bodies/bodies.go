// Package bodies bounds the bytes of request bodies the server holds in
// memory at once. The body limit caps one request; without a bound across
// requests, every connection sending a body as large as the limit, slowly
// or not, would hold that much at once, however many there are.
//
// A request's body is charged to a Bound before it is read: its declared
// length, or when none is declared (chunked) the most one body may hold,
// corrected to what was read once it is in. What is charged stays held
// until the request ends (Body.Release), since what is decoded from a
// body keeps pointing into it until then. A body the bound has no room
// for waits for room, up to the bound's wait, and is then refused as
// Busy, unread, to be retried. REST and GraphQL read their bodies through
// Read, so one bound covers both.
//
// A handler that knows nothing holds its body once its answer is sent
// may give the body's buffer back (Reusable): the bound keeps a few such
// buffers, and reads a later large body into one that fits, charged whole.
package bodies

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"golang.org/x/sync/semaphore"
)

// Bound is what the bodies of all requests under way may hold together,
// in bytes. It is safe for concurrent use.
type Bound struct {
	sem  *semaphore.Weighted
	size int64
	wait time.Duration
	// held is what the bodies under way hold, and waiting how many bodies
	// wait for room, for tests: the semaphore does not say.
	held, waiting atomic.Int64
	// spare holds the buffers of bodies whose handlers were done with
	// them (Body.Reusable), for later bodies of known length to be read
	// into: a batch's body is some hundreds of kilobytes, and allocating
	// each anew calls for collections that cost the batch more than
	// reading it does.
	spare chan []byte
}

// A Bound keeps at most spareBodies buffers, each of at most
// maxSpareBody bytes, the default body limit: what it keeps unused is
// bounded. A body of at least minSpareBody bytes is read into a spare
// whose capacity is at most twice its length: smaller bodies are cheap to
// allocate, and would take the spares the large ones need.
const (
	spareBodies  = 8
	maxSpareBody = 1 << 20
	minSpareBody = 4 << 10
)

// New bounds what bodies hold together to size bytes; a body that finds
// no room waits at most wait for it.
func New(size int64, wait time.Duration) *Bound {
	return &Bound{sem: semaphore.NewWeighted(size), size: size, wait: wait, spare: make(chan []byte, spareBodies)}
}

// spareFor is a spare buffer that fits a body of length bytes, or nil. A
// spare that does not fit stays among the spares.
func (b *Bound) spareFor(length int64) []byte {
	if length < minSpareBody {
		return nil
	}
	select {
	case spare := <-b.spare:
		if c := int64(cap(spare)); c >= length && c <= 2*length {
			return spare
		}
		b.keep(spare)
	default:
	}
	return nil
}

// keep keeps buf for a later body, when it is small enough and there is
// room among the spares.
func (b *Bound) keep(buf []byte) {
	if cap(buf) == 0 || cap(buf) > maxSpareBody {
		return
	}
	select {
	case b.spare <- buf:
	default:
	}
}

// Size is the bound, in bytes.
func (b *Bound) Size() int64 { return b.size }

// Held is what the bodies of the requests under way hold of the bound.
func (b *Bound) Held() int64 { return b.held.Load() }

// Waiting is how many bodies wait for room.
func (b *Bound) Waiting() int64 { return b.waiting.Load() }

// Busy refuses a body the bound had no room for within its wait: the
// request is not wrong, the server is busy, and a retry may find room.
type Busy struct {
	// Size is the bound, Wanted what the body asked of it.
	Size, Wanted int64
	// Waited is how long the body waited for room.
	Waited time.Duration
}

func (e *Busy) Error() string {
	return fmt.Sprintf("the server holds as many request bodies as it may at once (%s); retry in a moment", size(e.Size))
}

// RetryAfter is the wait a refused request is advised to make before it
// is sent again: bodies are read within a minute, most within far less.
const RetryAfter = time.Second

// ErrGone is the error of a body whose request ended (the client went
// away) while it waited for room.
var ErrGone = errors.New("the request ended before its body could be read")

// ErrLonger is the error of a body longer than its declared length,
// which the HTTP server never passes on; another reader might.
var ErrLonger = errors.New("the request body is longer than its Content-Length")

// Body is a request's body whose reading is charged to a Bound. Read
// reads it through the bound; Release gives back what it holds once the
// request ends. Reading it directly (its Read method) bypasses the bound.
type Body struct {
	io.ReadCloser
	bound *Bound
	// max is the most one body may hold: the body limit, which the reader
	// enforces; what a body of unknown length is charged before it is
	// read.
	max int64

	mu       sync.Mutex
	held     int64
	read     bool
	released bool
	// buf is the buffer a body of known length was read into, and
	// reusable says that nothing holds any of it once the request ends.
	buf      []byte
	reusable bool
}

// Reusable says that nothing holds any part of what Read returned once
// the request ends, neither the handler nor anything it handed the bytes
// to: Release then keeps the buffer for a later body, whose bytes will
// replace these. A handler calls it once its answer is written, and only
// when it knows this of every path the body took. It does nothing for a
// body that is not a *Body.
func Reusable(r io.Reader) {
	if body, ok := r.(*Body); ok {
		body.mu.Lock()
		body.reusable = true
		body.mu.Unlock()
	}
}

// Body wraps rc, a request body that the body limit, max, caps already
// (http.MaxBytesReader), so that Read charges it to b.
func (b *Bound) Body(rc io.ReadCloser, max int64) *Body {
	return &Body{ReadCloser: rc, bound: b, max: max}
}

// Held is what the body holds of its bound.
func (body *Body) Held() int64 {
	body.mu.Lock()
	defer body.mu.Unlock()
	return body.held
}

// Release gives back what the body holds of its bound; later reads
// through Read are refused. The request's outermost layer that wrapped the
// body calls it once the request ends, whichever way it ends.
func (body *Body) Release() {
	body.mu.Lock()
	defer body.mu.Unlock()
	body.released = true
	body.give(body.held)
	if body.reusable {
		body.bound.keep(body.buf)
	}
	body.buf = nil
}

// give returns n bytes of what the body holds to the bound; body.mu held.
func (body *Body) give(n int64) {
	if n <= 0 {
		return
	}
	body.held -= n
	body.bound.held.Add(-n)
	body.bound.sem.Release(n)
}

// take charges n bytes to the bound, waiting for room at most the
// bound's wait, or until ctx ends.
func (body *Body) take(ctx context.Context, n int64) error {
	if n <= 0 {
		return nil
	}
	b := body.bound
	if n > b.size {
		// Never fits: refused at once rather than after a wait. A bound
		// below the body limit is refused where it is configured.
		return &Busy{Size: b.size, Wanted: n}
	}
	if !b.sem.TryAcquire(n) {
		start := time.Now()
		wait, cancel := context.WithTimeout(ctx, b.wait)
		b.waiting.Add(1)
		err := b.sem.Acquire(wait, n)
		b.waiting.Add(-1)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return ErrGone
			}
			return &Busy{Size: b.size, Wanted: n, Waited: time.Since(start)}
		}
	}
	body.charged(n)
	return nil
}

// charged counts n bytes the bound's semaphore let the body have; body.mu
// held. give takes them back.
func (body *Body) charged(n int64) {
	body.held += n
	body.bound.held.Add(n)
}

// spareFor is a spare buffer for the body's length bytes, with what its
// capacity holds beyond them charged to the bound too, so that the bound
// counts every byte the body holds; nil when none fits, or the bound has
// no room at once for the rest of a spare (which then stays a spare).
func (body *Body) spareFor(length int64) []byte {
	spare := body.bound.spareFor(length)
	if spare == nil {
		return nil
	}
	if extra := int64(cap(spare)) - length; extra > 0 {
		if !body.bound.sem.TryAcquire(extra) {
			body.bound.keep(spare)
			return nil
		}
		body.charged(extra)
	}
	return spare
}

// Read reads a request body whole into memory, declared to be length
// bytes long (negative when not declared, as http.Request.ContentLength
// says). When body is a *Body, what it reads is charged to its bound
// first: its length, else its maximum, corrected to what was read; a
// bound without room within its wait refuses the body with *Busy, and
// ErrGone when ctx ends first. A body of declared length is read into a
// buffer of exactly that length, never grown (a spare one, its capacity
// cut to that length and charged as well, when the bound keeps one that
// fits: see Reusable); one of unknown length is read as it comes and then
// kept in a buffer of its own length.
//
// The reader's own errors (*http.MaxBytesError past the body limit, a
// broken connection) are returned as they are, with what was charged
// still held until Release.
func Read(ctx context.Context, r io.Reader, length int64) ([]byte, error) {
	body, bounded := r.(*Body)
	if !bounded {
		return readUnbounded(r, length, 0)
	}
	body.mu.Lock()
	defer body.mu.Unlock()
	if body.released || body.read {
		return nil, errors.New("bodies: the body was read already, or released")
	}
	body.read = true
	if length > body.max {
		// The reader refuses it past the maximum: a buffer of its length
		// would hold more than it is charged.
		length = -1
	}
	charge := body.max
	if length >= 0 {
		charge = length
	}
	if err := body.take(ctx, charge); err != nil {
		return nil, err
	}
	if length >= 0 {
		body.buf = body.spareFor(length)
		if body.buf == nil {
			body.buf = make([]byte, length)
		}
		b, err := readKnown(body.ReadCloser, body.buf[:length:length])
		if err != nil {
			body.buf = nil
		}
		return b, err
	}
	b, err := readUnbounded(body.ReadCloser, -1, body.max)
	if err == nil {
		// What was charged and not used goes back at once.
		body.give(body.held - int64(len(b)))
	}
	return b, err
}

// readKnown reads a body that fills b exactly, and checks that nothing
// follows.
func readKnown(r io.Reader, b []byte) ([]byte, error) {
	if _, err := io.ReadFull(r, b); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	var one [1]byte
	for {
		n, err := r.Read(one[:])
		if n > 0 {
			return nil, ErrLonger
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// readUnbounded reads r to its end: into a buffer of the declared length
// when there is one, else growing one that is then trimmed to the length
// read. limit, when positive, caps how far the buffer grows (the reader
// refuses to go past it anyway).
func readUnbounded(r io.Reader, length, limit int64) ([]byte, error) {
	if length >= 0 {
		return readKnown(r, make([]byte, length))
	}
	b := make([]byte, 0, 512)
	for {
		if len(b) == cap(b) {
			grow := cap(b)
			if limit > 0 {
				grow = max(1, int(min(int64(grow), limit+1-int64(cap(b)))))
			}
			b = append(b, make([]byte, grow)...)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			if cap(b) > len(b) {
				exact := make([]byte, len(b))
				copy(exact, b)
				b = exact
			}
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// size words a number of bytes in KiB below a MiB, else in MiB.
func size(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// TextProblem says what is wrong with a body as text, as REST and GraphQL
// refuse it alike; it is "" for a body of UTF-8 without a byte order mark.
// Bytes that are not UTF-8 would be decoded as U+FFFD, and stored so. JSON
// sent between systems must not begin with a byte order mark, which a JSON
// decoder reads as a stray character ("invalid character 'ï'").
func TextProblem(body []byte) string {
	if !utf8.Valid(body) {
		return "the request body is not valid UTF-8"
	}
	if !bytes.HasPrefix(body, []byte("\xEF\xBB\xBF")) {
		return ""
	}
	return "the request body begins with a byte order mark (U+FEFF), which JSON over HTTP must not have; send the JSON without it"
}
