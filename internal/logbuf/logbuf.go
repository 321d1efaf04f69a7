// Package logbuf hands log lines to their destination in few system calls.
package logbuf

import (
	"io"
	"sync"
)

// Writer passes what is written to it on to another writer from a
// goroutine of its own, so that logging a line costs its caller a copy
// rather than a system call. Lines written while a write is under way go
// out together in the next one; none waits for a timer, so a crash loses
// only the lines written during the last write. Writes keep their order.
//
// At most about maxPending bytes wait: beyond that a write waits for the
// destination, so a slow one slows the loggers instead of growing memory.
//
// Close writes what waits and stops the goroutine; later writes go to the
// destination directly.
type Writer struct {
	out        io.Writer
	maxPending int

	mu      sync.Mutex
	room    sync.Cond // broadcast when the pending bytes are taken
	pending []byte
	closed  bool

	wake chan struct{}
	done chan struct{}
}

// New starts a Writer in front of out.
func New(out io.Writer, maxPending int) *Writer {
	w := &Writer{out: out, maxPending: maxPending, wake: make(chan struct{}, 1), done: make(chan struct{})}
	w.room.L = &w.mu
	go w.run()
	return w
}

// Write queues a copy of p, or writes it directly once w is closed. The
// destination's errors are not reported: a logger has nowhere to report
// them.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	for !w.closed && len(w.pending) > 0 && len(w.pending)+len(p) > w.maxPending {
		w.room.Wait()
	}
	if w.closed {
		w.mu.Unlock()
		<-w.done
		w.out.Write(p)
		return len(p), nil
	}
	w.pending = append(w.pending, p...)
	w.mu.Unlock()
	w.signal()
	return len(p), nil
}

// Close writes what waits and returns once it is written.
func (w *Writer) Close() error {
	w.mu.Lock()
	already := w.closed
	w.closed = true
	w.room.Broadcast()
	w.mu.Unlock()
	if !already {
		w.signal()
	}
	<-w.done
	return nil
}

func (w *Writer) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// run writes the pending bytes whenever there are some, swapping buffers
// so that loggers append to one while the other is written.
func (w *Writer) run() {
	var spare []byte
	for range w.wake {
		w.mu.Lock()
		batch := w.pending
		w.pending = spare[:0]
		closed := w.closed
		w.room.Broadcast()
		w.mu.Unlock()
		if len(batch) > 0 {
			w.out.Write(batch)
		}
		spare = batch
		if closed {
			close(w.done)
			return
		}
	}
}
