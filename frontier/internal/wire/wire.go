// Package wire reads and writes the byte encodings the frontiers keep
// outside the Go heap: the in-memory frontier's spill file and the
// persistent frontier's store. Strings are length-prefixed (uvarint),
// integers are varints, fixed-width values big-endian.
//
// A Reader never panics on short or damaged input: the first read past the
// end (or a malformed varint) marks it Bad, and every later read returns a
// zero value, so a decoder reads all its fields and checks Bad once.
//
// # Concurrency
//
// A Reader belongs to one goroutine.
package wire

import "encoding/binary"

// AppendString appends s, length-prefixed, to b.
func AppendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// Reader decodes b from the front.
type Reader struct {
	b   []byte
	bad bool
}

// NewReader returns a Reader of b.
func NewReader(b []byte) Reader { return Reader{b: b} }

// fail marks r bad and drops what is left, so that every later read
// returns a zero value.
func (r *Reader) fail() {
	r.bad = true
	r.b = nil
}

// Bad reports whether a read went past the end or met a malformed varint.
func (r *Reader) Bad() bool { return r.bad }

// Len returns the number of bytes not yet read.
func (r *Reader) Len() int { return len(r.b) }

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if len(r.b) < 1 {
		r.fail()
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

// Uint64 reads 8 bytes, big-endian.
func (r *Reader) Uint64() uint64 {
	if len(r.b) < 8 {
		r.fail()
		return 0
	}
	v := binary.BigEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

// Uvarint reads an unsigned varint.
func (r *Reader) Uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

// Varint reads a signed varint.
func (r *Reader) Varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

// String reads a length-prefixed string (a copy).
func (r *Reader) String() string {
	n := r.Uvarint()
	if n > uint64(len(r.b)) {
		r.fail()
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}
