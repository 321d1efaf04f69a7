package bodies

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// gate is a body whose bytes arrive when the test says so: started is
// closed at its first Read, which Read makes only once the bound has let
// the body through, and the bytes come once open is closed.
type gate struct {
	data    []byte
	started chan struct{}
	open    chan struct{}
	once    sync.Once
	off     int
}

func newGate(data string) *gate {
	return &gate{data: []byte(data), started: make(chan struct{}), open: make(chan struct{})}
}

func (g *gate) Read(p []byte) (int, error) {
	g.once.Do(func() { close(g.started) })
	<-g.open
	if g.off == len(g.data) {
		return 0, io.EOF
	}
	n := copy(p, g.data[g.off:])
	g.off += n
	return n, nil
}

func (g *gate) Close() error { return nil }

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// waitUntil yields until cond holds: what it waits for is another
// goroutine's next step, which comes without any timer.
func waitUntil(cond func() bool) {
	for !cond() {
		runtime.Gosched()
	}
}

type read struct {
	body []byte
	err  error
}

func readAsync(ctx context.Context, body *Body, length int64) chan read {
	done := make(chan read, 1)
	go func() {
		b, err := Read(ctx, body, length)
		done <- read{b, err}
	}()
	return done
}

func TestASecondBodyWaitsUntilTheFirstIsReleased(t *testing.T) {
	bound := New(10, time.Hour)
	first, second := newGate("0123456789"), newGate("abcdefghij")
	close(second.open)
	firstBody, secondBody := bound.Body(first, 10), bound.Body(second, 10)

	firstRead := readAsync(context.Background(), firstBody, 10)
	<-first.started
	if got := bound.Held(); got != 10 {
		t.Fatalf("the first body holds %d bytes of the bound, want its length, 10", got)
	}
	secondRead := readAsync(context.Background(), secondBody, 10)
	waitUntil(func() bool { return bound.Waiting() == 1 })
	if isClosed(second.started) {
		t.Fatal("the second body was read while the first held the whole bound")
	}

	close(first.open)
	if r := <-firstRead; r.err != nil || string(r.body) != "0123456789" {
		t.Fatalf("the first body read %q, %v", r.body, r.err)
	}
	// Read, the first body is still held: what was decoded from it points
	// into it until its request ends.
	if isClosed(second.started) || bound.Waiting() != 1 {
		t.Fatal("the second body was let through before the first was released")
	}
	firstBody.Release()
	r := <-secondRead
	if r.err != nil || string(r.body) != "abcdefghij" {
		t.Fatalf("the second body read %q, %v", r.body, r.err)
	}
	if got := bound.Held(); got != 10 {
		t.Errorf("the bound holds %d bytes with the second body read, want 10", got)
	}
	secondBody.Release()
	secondBody.Release() // twice gives back nothing more
	if got := bound.Held(); got != 0 {
		t.Errorf("the bound holds %d bytes once both bodies are released, want 0", got)
	}
}

func TestABodyThatFindsNoRoomWithinTheWaitIsBusy(t *testing.T) {
	bound := New(10, 0) // no wait at all
	held := bound.Body(io.NopCloser(strings.NewReader("0123456789")), 10)
	if _, err := Read(context.Background(), held, 10); err != nil {
		t.Fatal(err)
	}
	refused := bound.Body(io.NopCloser(strings.NewReader("x")), 10)
	_, err := Read(context.Background(), refused, 1)
	var busy *Busy
	if !errors.As(err, &busy) || busy.Size != 10 || busy.Wanted != 1 {
		t.Fatalf("a body past a full bound: %v, want Busy of 10 wanting 1", err)
	}
	if !strings.Contains(err.Error(), "retry") {
		t.Errorf("the refusal %q does not say to retry", err)
	}
	refused.Release()
	if got := bound.Held(); got != 10 {
		t.Errorf("a refused body changed what the bound holds: %d, want 10", got)
	}
	held.Release()
	next := bound.Body(io.NopCloser(strings.NewReader("0123456789")), 10)
	if b, err := Read(context.Background(), next, 10); err != nil || string(b) != "0123456789" {
		t.Errorf("the body after the release read %q, %v", b, err)
	}
	next.Release()
}

func TestABodyWhoseRequestEndsWhileItWaitsIsGone(t *testing.T) {
	bound := New(10, time.Hour)
	held := bound.Body(io.NopCloser(strings.NewReader("0123456789")), 10)
	if _, err := Read(context.Background(), held, 10); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	waiting := readAsync(ctx, bound.Body(newGate("x"), 10), 1)
	waitUntil(func() bool { return bound.Waiting() == 1 })
	cancel()
	if r := <-waiting; !errors.Is(r.err, ErrGone) {
		t.Errorf("a body whose request ended while it waited: %v, want ErrGone", r.err)
	}
	held.Release()
	if got := bound.Held(); got != 0 {
		t.Errorf("the bound holds %d bytes, want 0", got)
	}
}

func TestABodyOfUnknownLengthIsChargedTheMostThenWhatItHolds(t *testing.T) {
	bound := New(100, 0)
	chunked := newGate(strings.Repeat("c", 30))
	body := bound.Body(chunked, 100)
	done := readAsync(context.Background(), body, -1)
	<-chunked.started
	if got := bound.Held(); got != 100 {
		t.Fatalf("a body of unknown length holds %d bytes while it is read, want the most a body may hold, 100", got)
	}
	close(chunked.open)
	r := <-done
	if r.err != nil || len(r.body) != 30 {
		t.Fatalf("read %d bytes, %v; want 30", len(r.body), r.err)
	}
	if cap(r.body) != 30 {
		t.Errorf("the body is kept in a buffer of %d bytes, want its length, 30", cap(r.body))
	}
	if got, of := bound.Held(), body.Held(); got != 30 || of != 30 {
		t.Errorf("once read, the bound holds %d bytes (the body %d), want 30", got, of)
	}
	// What the body gave back is room for another at once.
	other := bound.Body(io.NopCloser(strings.NewReader(strings.Repeat("o", 70))), 100)
	if _, err := Read(context.Background(), other, 70); err != nil {
		t.Errorf("a body of the 70 bytes given back: %v", err)
	}
	body.Release()
	other.Release()
	if got := bound.Held(); got != 0 {
		t.Errorf("the bound holds %d bytes once released, want 0", got)
	}
}

func TestABodyOfKnownLengthIsReadIntoABufferOfThatLength(t *testing.T) {
	bound := New(1<<20, 0)
	data := bytes.Repeat([]byte("k"), 100_000)
	body := bound.Body(io.NopCloser(bytes.NewReader(data)), 1<<20)
	b, err := Read(context.Background(), body, int64(len(data)))
	if err != nil || !bytes.Equal(b, data) {
		t.Fatalf("read %d bytes, %v", len(b), err)
	}
	if cap(b) != len(data) {
		t.Errorf("a body of %d bytes is kept in a buffer of %d", len(data), cap(b))
	}
	if got := bound.Held(); got != int64(len(data)) {
		t.Errorf("the bound holds %d bytes, want the body's %d", got, len(data))
	}
	body.Release()
}

func TestAFailedReadHoldsItsChargeUntilReleased(t *testing.T) {
	bound := New(100, 0)
	for _, c := range []struct {
		name   string
		body   io.ReadCloser
		length int64
		want   func(error) bool
	}{
		{"shorter than declared", io.NopCloser(strings.NewReader("short")), 50,
			func(err error) bool { return errors.Is(err, io.ErrUnexpectedEOF) }},
		{"longer than declared", io.NopCloser(strings.NewReader("longer")), 3,
			func(err error) bool { return errors.Is(err, ErrLonger) }},
		{"past the body limit, of unknown length", http.MaxBytesReader(httptest.NewRecorder(), io.NopCloser(strings.NewReader(strings.Repeat("x", 200))), 100), -1,
			func(err error) bool { var tooBig *http.MaxBytesError; return errors.As(err, &tooBig) }},
		{"broken", io.NopCloser(io.MultiReader(strings.NewReader("a"), errReader{})), 10,
			func(err error) bool { return errors.Is(err, errBroken) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := bound.Body(c.body, 100)
			_, err := Read(context.Background(), body, c.length)
			if !c.want(err) {
				t.Fatalf("error %v", err)
			}
			if bound.Held() == 0 {
				t.Error("a failed read gave back its charge before its request ended")
			}
			body.Release()
			if got := bound.Held(); got != 0 {
				t.Errorf("the bound holds %d bytes once released, want 0", got)
			}
		})
	}
}

var errBroken = errors.New("connection broken")

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errBroken }

func TestABodyIsReadOnce(t *testing.T) {
	bound := New(100, 0)
	body := bound.Body(io.NopCloser(strings.NewReader("{}")), 100)
	if _, err := Read(context.Background(), body, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(context.Background(), body, 2); err == nil {
		t.Error("a body was read twice")
	}
	body.Release()
	if got := bound.Held(); got != 0 {
		t.Errorf("the bound holds %d bytes, want 0", got)
	}
}

func TestAPlainReaderIsReadUnbounded(t *testing.T) {
	for _, length := range []int64{5, -1} {
		b, err := Read(context.Background(), strings.NewReader("plain"), length)
		if err != nil || string(b) != "plain" {
			t.Errorf("length %d: read %q, %v", length, b, err)
		}
	}
}

// readReleased reads data as a body of known length through bound, marks
// it reusable when asked, and releases it, as a request that ends does;
// held is what the bound held while the body was read.
func readReleased(t *testing.T, bound *Bound, data []byte, reusable bool) (b []byte, held int64) {
	t.Helper()
	body := bound.Body(io.NopCloser(bytes.NewReader(data)), 1<<21)
	b, err := Read(context.Background(), body, int64(len(data)))
	if err != nil || !bytes.Equal(b, data) {
		t.Fatalf("read %d bytes, %v", len(b), err)
	}
	if cap(b) != len(data) {
		t.Errorf("a body of %d bytes is read with a capacity of %d: the rest of a spare buffer shows", len(data), cap(b))
	}
	held = bound.Held()
	if reusable {
		Reusable(body)
	}
	body.Release()
	return b, held
}

// bodyOf is a body of n bytes.
func bodyOf(n int, c byte) []byte { return bytes.Repeat([]byte{c}, n) }

func TestTheBufferOfAReusableBodyReadsTheNextOne(t *testing.T) {
	bound := New(1<<22, 0)
	first, _ := readReleased(t, bound, bodyOf(6000, 'a'), true)
	second, held := readReleased(t, bound, bodyOf(5000, 'b'), true)
	if &second[0] != &first[0] {
		t.Fatal("the second body was not read into the first one's buffer")
	}
	if held != 6000 {
		t.Errorf("a body of 5000 bytes in a buffer of 6000 was charged %d bytes", held)
	}
	if bound.Held() != 0 {
		t.Errorf("the bound holds %d bytes once the bodies are released", bound.Held())
	}
	third, _ := readReleased(t, bound, bodyOf(5500, 'c'), false)
	if &third[0] != &first[0] {
		t.Fatal("the third body was not read into the first one's buffer")
	}
	if fourth, _ := readReleased(t, bound, bodyOf(5500, 'd'), false); &fourth[0] == &first[0] {
		t.Error("a body not marked reusable lent its buffer")
	}
}

func TestABufferIsReusedOnlyWhenItFits(t *testing.T) {
	bound := New(1<<22, 0)
	spare, _ := readReleased(t, bound, bodyOf(10_000, 's'), true)
	for _, n := range []int{minSpareBody - 1, 4999, 10_001} {
		if b, held := readReleased(t, bound, bodyOf(n, 'x'), false); &b[0] == &spare[0] || held != int64(n) {
			t.Errorf("a body of %d bytes was read into a spare of 10000 bytes (charged %d)", n, held)
		}
		if len(bound.spare) != 1 {
			t.Fatalf("a spare that did not fit a body of %d bytes was dropped", n)
		}
	}
	huge, _ := readReleased(t, bound, bodyOf(maxSpareBody+1, 'h'), true)
	for len(bound.spare) > 0 {
		if s := <-bound.spare; &s[:1][0] == &huge[0] {
			t.Error("a buffer larger than maxSpareBody was kept")
		}
	}
}

// TestASpareIsTakenOnlyWithRoomForAllOfIt fills the bound but for less
// than a spare holds beyond the body it would read: the body is read into
// a buffer of its own, and the bound still counts every byte held.
func TestASpareIsTakenOnlyWithRoomForAllOfIt(t *testing.T) {
	bound := New(8000, 0)
	spare, _ := readReleased(t, bound, bodyOf(6000, 's'), true)
	other := bound.Body(io.NopCloser(bytes.NewReader(bodyOf(3000, 'o'))), 1<<20)
	if _, err := Read(context.Background(), other, 3000); err != nil {
		t.Fatal(err)
	}
	defer other.Release()
	body := bound.Body(io.NopCloser(bytes.NewReader(bodyOf(4500, 'b'))), 1<<20)
	b, err := Read(context.Background(), body, 4500)
	if err != nil {
		t.Fatal(err)
	}
	if &b[0] == &spare[0] {
		t.Error("the body was read into a spare the bound had no room for")
	}
	if got := bound.Held(); got != 7500 {
		t.Errorf("the bound holds %d bytes, want the two bodies' 7500", got)
	}
	body.Release()
	if len(bound.spare) != 1 {
		t.Error("the spare the bound had no room for was dropped")
	}
}

func TestAFailedReadLendsNoBuffer(t *testing.T) {
	bound := New(1<<20, 0)
	body := bound.Body(io.NopCloser(bytes.NewReader(bodyOf(5000, 'a'))), 1<<20)
	if _, err := Read(context.Background(), body, 6000); err == nil {
		t.Fatal("a body shorter than its length was read")
	}
	Reusable(body)
	body.Release()
	if n := len(bound.spare); n != 0 {
		t.Errorf("the bound keeps %d buffers of failed reads", n)
	}
}

func TestABoundKeepsFewBuffers(t *testing.T) {
	bound := New(1<<22, 0)
	var under []*Body // bodies of requests under way at once
	for range spareBodies + 2 {
		body := bound.Body(io.NopCloser(bytes.NewReader(bodyOf(minSpareBody, 'a'))), 1<<20)
		if _, err := Read(context.Background(), body, minSpareBody); err != nil {
			t.Fatal(err)
		}
		under = append(under, body)
	}
	for _, body := range under {
		Reusable(body)
		body.Release()
	}
	if n := len(bound.spare); n != spareBodies {
		t.Errorf("the bound keeps %d buffers, want %d", n, spareBodies)
	}
}
