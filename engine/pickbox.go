package engine

import "unsafe"

// Each value a condition reads is an interface, and putting a number or a
// text into one allocates: a float64 or a string header of its own, and
// for a text a copy of its bytes besides. An item of a batch reads a few
// of each, and an allocation for each would be most of what picking an
// item costs beyond reading its text. The picker instead writes short
// texts and numbers into chunks it owns and makes each interface point at
// its place there: one allocation for hundreds of values. A place is
// written once and never again until the decoder is recycled (a full
// chunk is left to the values that point into it, and a new one taken),
// so a value stays what it was for as long as anything may hold it, as
// with an allocation of its own. Recycling says that nothing does any
// longer: the chunks in use are then filled again from their start, so
// that a batch whose results are written out one by one, or a pooled
// decoder, allocates no chunk once warm. A value a result keeps from its
// trace keeps its chunk alive, and with a text's header the bytes of the
// texts beside it: some 70 KB at most, since a long text has an
// allocation of its own.

// valueBoxes holds the chunks the values picked so far were put in.
type valueBoxes struct {
	numbers []float64
	texts   []string
	bytes   []byte
}

// A decoder's first chunks are small, for a single run reads few values;
// each next one is twice the size of the one before, up to
// boxesPerChunk numbers or text headers and bytesPerChunk bytes of texts.
// A text longer than maxBoxedText is boxed on its own.
const (
	firstChunk    = 16
	boxesPerChunk = 256
	bytesPerChunk = 4 << 10
	maxBoxedText  = 256
)

// nextChunk is the capacity of the chunk after one of capacity now.
func nextChunk(now, most int) int {
	return min(max(2*now, firstChunk), most)
}

// eface is how Go lays out an interface holding a value of any type: the
// type's descriptor, then a pointer to the value, which for a float64 or
// a string is a copy made for the interface and never written again.
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

// float64Type and stringType are the descriptors an interface holding a
// float64, or a string, carries.
var float64Type, stringType = typeOf(float64(0)), typeOf("")

func typeOf(v any) unsafe.Pointer { return (*eface)(unsafe.Pointer(&v)).typ }

// boxAt is the interface of the given type whose value is at data.
func boxAt(typ, data unsafe.Pointer) any {
	var v any
	*(*eface)(unsafe.Pointer(&v)) = eface{typ: typ, data: data}
	return v
}

// recycle empties the chunks in use, to be filled again from their start.
func (b *valueBoxes) recycle() {
	b.numbers, b.texts, b.bytes = b.numbers[:0], b.texts[:0], b.bytes[:0]
}

func (b *valueBoxes) number(f float64) any {
	if len(b.numbers) == cap(b.numbers) {
		b.numbers = make([]float64, 0, nextChunk(cap(b.numbers), boxesPerChunk))
	}
	b.numbers = append(b.numbers, f)
	return boxAt(float64Type, unsafe.Pointer(&b.numbers[len(b.numbers)-1]))
}

// text boxes s, whose bytes are its own or a chunk's.
func (b *valueBoxes) text(s string) any {
	if len(s) > maxBoxedText {
		return s
	}
	if len(b.texts) == cap(b.texts) {
		b.texts = make([]string, 0, nextChunk(cap(b.texts), boxesPerChunk))
	}
	b.texts = append(b.texts, s)
	return boxAt(stringType, unsafe.Pointer(&b.texts[len(b.texts)-1]))
}

// copyText is a copy of raw, in the chunk when it is short.
func (b *valueBoxes) copyText(raw []byte) string {
	switch {
	case len(raw) == 0:
		return ""
	case len(raw) > maxBoxedText:
		return string(raw)
	}
	if cap(b.bytes)-len(b.bytes) < len(raw) {
		b.bytes = make([]byte, 0, max(nextChunk(cap(b.bytes), bytesPerChunk), maxBoxedText))
	}
	at := len(b.bytes)
	b.bytes = append(b.bytes, raw...)
	return unsafe.String(&b.bytes[at], len(raw))
}
