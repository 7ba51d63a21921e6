package dedup

import (
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"
)

func TestURLFingerprintIsXXHash(t *testing.T) {
	tests := []struct {
		url  string
		want Fingerprint
	}{
		{url: "", want: 0xef46db3751d8e999},
		{url: "https://example.com/", want: Fingerprint(xxhash.Sum64String("https://example.com/"))},
		{url: "http://example.com/a?b=c", want: Fingerprint(xxhash.Sum64String("http://example.com/a?b=c"))},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			if got := URLFingerprint(tt.url); got != tt.want {
				t.Errorf("URLFingerprint(%q) = %#x, want %#x", tt.url, got, tt.want)
			}
		})
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b Fingerprint
		want int
	}{
		{a: 0, b: 0, want: 0},
		{a: 0, b: ^Fingerprint(0), want: 64},
		{a: 0b1011, b: 0b0001, want: 2},
		{a: 1 << 63, b: 1, want: 2},
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%#x, %#x) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestNormalizeText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{name: "empty", in: "", want: ""},
		{name: "blank", in: " \t\n\u00a0", want: ""},
		{name: "spaces", in: "  Hello,\r\n\tWORLD!  ", want: "hello, world!"},
		{name: "unicode space", in: "a\u2003\u00a0b", want: "a b"},
		{name: "accents", in: "ÉCOLE Über", want: "école über"},
		{name: "sigma", in: "ΟΔΟΣ οδος", want: "οδοσ οδοσ"},
		{name: "cyrillic", in: "Москва", want: "москва"},
		{name: "cjk", in: "東京 タワー", want: "東京 タワー"},
		{name: "invalid utf8", in: "a\xffb", want: "a\ufffdb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NormalizeText(tt.in); got != tt.want {
				t.Errorf("NormalizeText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestContentFingerprint(t *testing.T) {
	base := "The quick brown fox jumps over the lazy dog."
	same := []string{
		"the quick brown fox jumps over the lazy dog.",
		"  THE QUICK BROWN FOX\njumps over\tthe lazy dog.\n",
		"The quick brown fox jumps over the lazy dog." + strings.Repeat(" ", 1000),
	}
	want := ContentFingerprint(base)
	if got := Fingerprint(xxhash.Sum64String(NormalizeText(base))); got != want {
		t.Errorf("ContentFingerprint(%q) = %#x, want xxhash of NormalizeText = %#x", base, want, got)
	}
	for _, s := range same {
		if got := ContentFingerprint(s); got != want {
			t.Errorf("ContentFingerprint(%q) = %#x, want %#x (same text)", s, got, want)
		}
	}
	different := []string{
		"The quick brown fox jumps over the lazy dog",
		"The quick brown fox jumped over the lazy dog.",
		"Thequick brown fox jumps over the lazy dog.",
	}
	for _, s := range different {
		if got := ContentFingerprint(s); got == want {
			t.Errorf("ContentFingerprint(%q) = %#x, same as %q", s, got, base)
		}
	}
}

// TestStableValues pins the values of every persisted hash, so that a change
// of algorithm cannot slip through unnoticed.
func TestStableValues(t *testing.T) {
	text := "Duplicate detection: a rose is a rose is a rose, said Gertrude Stein."
	if got, want := ContentFingerprint(text), Fingerprint(0x65e4006f9a6462bd); got != want {
		t.Errorf("ContentFingerprint(%q) = %#x, want %#x", text, got, want)
	}
	if got, want := Simhash(text), Fingerprint(0xc2456cf0280e625b); got != want {
		t.Errorf("Simhash(%q) = %#x, want %#x", text, got, want)
	}
	sk := MinHash(text)
	if got, want := sk[:4], (Sketch{0xe9279b1, 0x9c9bbd0, 0x2d25fcdc, 0x1c2183a}); !equalSketch(got, want) {
		t.Errorf("MinHash(%q)[:4] = %#x, want %#x", text, got, want)
	}
}

func equalSketch(a, b Sketch) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestWords(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{name: "empty", in: "", want: nil},
		{name: "punctuation only", in: "--- !!! ...", want: nil},
		{name: "ascii", in: "Hello, World! It's 2026.", want: []string{"hello", "world", "it", "s", "2026"}},
		{name: "underscore separates", in: "snake_case", want: []string{"snake", "case"}},
		{name: "german", in: "Grüße aus MÜNCHEN", want: []string{"grüße", "aus", "münchen"}},
		{name: "greek final sigma", in: "ΟΔΟΣ οδος", want: []string{"οδοσ", "οδοσ"}},
		{name: "combining mark", in: "cafe\u0301 noir", want: []string{"cafe\u0301", "noir"}},
		{name: "cjk run", in: "東京タワー、大阪", want: []string{"東京タワー", "大阪"}},
		{name: "hindi", in: "नमस्ते दुनिया", want: []string{"नमस्ते", "दुनिया"}},
		{name: "invalid utf8", in: "ab\xffcd", want: []string{"ab", "cd"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := appendWordHashes(nil, nil, tt.in)
			var want []uint64
			for _, w := range tt.want {
				want = append(want, xxhash.Sum64String(w))
			}
			if len(got) != len(want) {
				t.Fatalf("words of %q: got %d hashes, want %d (%q)", tt.in, len(got), len(want), tt.want)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("word %d of %q: hash %#x, want hash of %q", i, tt.in, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestFingerprintAllocs(t *testing.T) {
	text := strings.Repeat("Mixed Case words, Ünïcödé too; ", 8)
	s := NewSketcher()
	s.Sketch(text) // warm the buffers
	tests := []struct {
		name string
		max  float64
		f    func()
	}{
		{name: "ContentFingerprint", max: 0, f: func() { ContentFingerprint(text) }},
		{name: "URLFingerprint", max: 0, f: func() { URLFingerprint(text) }},
		{name: "Sketcher.Simhash", max: 0, f: func() { s.Simhash(text) }},
		{name: "Sketcher.Sketch", max: 1, f: func() { s.Sketch(text) }},
	}
	for _, tt := range tests {
		if got := testing.AllocsPerRun(20, tt.f); got > tt.max {
			t.Errorf("%s: %v allocations per run, want <= %v", tt.name, got, tt.max)
		}
	}
}
