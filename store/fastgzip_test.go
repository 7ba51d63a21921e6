package store

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// gunzipOne decodes b, which must be exactly one gzip member.
func gunzipOne(t *testing.T, b []byte) []byte {
	t.Helper()
	br := bytes.NewReader(b)
	zr, err := gzip.NewReader(br)
	if err != nil {
		t.Fatalf("gzip header: %v", err)
	}
	zr.Multistream(false)
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("gzip member: %v", err)
	}
	if br.Len() != 0 {
		t.Fatalf("%d bytes after the member", br.Len())
	}
	return out
}

// FuzzFastGzip: whatever the input, and whatever the compressor saw
// before, the member decodes (with the standard library's reader,
// checksum and size checked) to the input.
func FuzzFastGzip(f *testing.F) {
	f.Add([]byte("<html><body><p>hello hello hello hello</p></body></html>"), []byte{})
	f.Add(bytes.Repeat([]byte("abcdefgh"), 100), []byte("abcdefgh"))
	f.Add([]byte(strings.Repeat("x", 300)+"y"+strings.Repeat("x", 300)), bytes.Repeat([]byte{0}, 70))
	var z fastGzip
	f.Fuzz(func(t *testing.T, a, b []byte) {
		for _, p := range [][]byte{a, b, append(a, b...)} {
			z.out = z.member(z.out[:0], p)
			if got := gunzipOne(t, z.out); !bytes.Equal(got, p) {
				t.Fatalf("round trip of %d bytes gave %d bytes, different", len(p), len(got))
			}
		}
	})
}

func TestFastGzip(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rnd.Uint32())
		}
		return b
	}
	periodic := func(period, n int) []byte {
		unit := random(period)
		return bytes.Repeat(unit, n/period+1)[:n]
	}
	var html strings.Builder
	for i := range 120 {
		fmt.Fprintf(&html, "<li><a href=\"/page/%d\">Page number %d</a> with some text</li>\n", i*7, i)
	}
	tests := []struct {
		name string
		in   []byte
		max  float64 // largest size allowed, as a fraction of the input (plus 23 bytes of framing)
	}{
		{name: "empty", in: nil, max: 1},
		{name: "one byte", in: []byte{'a'}, max: 6},
		{name: "under 64 bytes (stored)", in: []byte(strings.Repeat("ab", 31)), max: 1.1},
		{name: "64 bytes", in: []byte(strings.Repeat("ab", 32)), max: 1.1},
		{name: "html", in: []byte(html.String()), max: 0.35},
		{name: "random (stored)", in: random(100 << 10), max: 1.001},
		{name: "one byte repeated (longest matches)", in: bytes.Repeat([]byte{'a'}, 200<<10), max: 0.02},
		{name: "period 30000 (far matches)", in: periodic(30000, 100<<10), max: 0.35},
		{name: "period 32768 (the farthest)", in: periodic(32768, 100<<10), max: 0.35},
		{name: "period 40000 (beyond the window)", in: periodic(40000, 100<<10), max: 1.001},
		{name: "over 64 KiB stored (two stored blocks)", in: random(70000), max: 1.001},
	}
	var z fastGzip
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			z.out = z.member(z.out[:0], tt.in)
			if got := gunzipOne(t, z.out); !bytes.Equal(got, tt.in) {
				t.Fatalf("round trip gave %d bytes, want the %d given", len(got), len(tt.in))
			}
			if limit := int(tt.max*float64(len(tt.in))) + 23; len(z.out) > limit {
				t.Errorf("%d bytes gzipped to %d, want at most %d", len(tt.in), len(z.out), limit)
			}
			t.Logf("%d bytes gzipped to %d", len(tt.in), len(z.out))
		})
	}
}

// TestFastGzipTableWraps: the positions in the match table are offset by
// a base that grows with each record and wraps before int32 would; the
// records on either side of the wrap decode.
func TestFastGzipTableWraps(t *testing.T) {
	p := []byte(strings.Repeat("wrap the table around, ", 200))
	var z fastGzip
	z.base = 1<<30 - 3000
	for range 3 {
		z.out = z.member(z.out[:0], p)
		if got := gunzipOne(t, z.out); !bytes.Equal(got, p) {
			t.Fatalf("round trip at base %d failed", z.base)
		}
		if len(z.out) > len(p)/4 {
			t.Errorf("%d bytes gzipped to %d: matches were missed", len(p), len(z.out))
		}
	}
	if z.base > 1<<20 {
		t.Errorf("base %d: the table was not reset", z.base)
	}
}
