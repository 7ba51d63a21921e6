package wire

import (
	"encoding/binary"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	var b []byte
	b = append(b, 7)
	b = binary.BigEndian.AppendUint64(b, 1<<63|5)
	b = binary.AppendUvarint(b, 300)
	b = binary.AppendVarint(b, -70000)
	b = AppendString(b, "")
	b = AppendString(b, "héllo\x00")
	r := NewReader(b)
	if got := r.Byte(); got != 7 {
		t.Errorf("Byte() = %d", got)
	}
	if got := r.Uint64(); got != 1<<63|5 {
		t.Errorf("Uint64() = %d", got)
	}
	if got := r.Uvarint(); got != 300 {
		t.Errorf("Uvarint() = %d", got)
	}
	if got := r.Varint(); got != -70000 {
		t.Errorf("Varint() = %d", got)
	}
	if got := r.String(); got != "" {
		t.Errorf("String() = %q", got)
	}
	if got := r.String(); got != "héllo\x00" {
		t.Errorf("String() = %q", got)
	}
	if r.Bad() || r.Len() != 0 {
		t.Errorf("Bad() = %v, Len() = %d after reading everything", r.Bad(), r.Len())
	}
}

// TestShort checks that every read past the end, or of a malformed varint,
// marks the Reader bad and returns zero values from then on.
func TestShort(t *testing.T) {
	full := AppendString(binary.BigEndian.AppendUint64([]byte{9}, 42), "abcdef")
	for n := range len(full) {
		r := NewReader(full[:n])
		r.Byte()
		r.Uint64()
		if s := r.String(); !r.Bad() {
			t.Errorf("%d of %d bytes: not Bad after reading past the end (String() = %q)", n, len(full), s)
		}
		if r.Byte() != 0 || r.Uvarint() != 0 || r.Varint() != 0 || r.String() != "" || r.Uint64() != 0 {
			t.Errorf("%d bytes: a read after Bad returned a value", n)
		}
	}
	r := NewReader([]byte{0x80, 0x80})
	if r.Uvarint(); !r.Bad() {
		t.Error("unterminated varint: not Bad")
	}
	r = NewReader(AppendString(nil, "abc")[:2])
	if s := r.String(); s != "" || !r.Bad() {
		t.Errorf("short string: %q, Bad() = %v", s, r.Bad())
	}
}
