package dedup

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzNormalize checks the properties the exact fingerprint and the
// tokenizer promise on arbitrary (untrusted) text: normalization is
// idempotent, produces valid UTF-8 with single inner spaces only, and
// preserves the fingerprint, the words and the simhash.
func FuzzNormalize(f *testing.F) {
	f.Add("Hello,   World!")
	f.Add("  ΟΔΟΣ\u00a0οδος\t\n")
	f.Add("a\xffb\xc3")
	f.Add("東京タワー、大阪 cafe\u0301")
	s := NewSketcher()
	f.Fuzz(func(t *testing.T, text string) {
		n := NormalizeText(text)
		if again := NormalizeText(n); again != n {
			t.Fatalf("NormalizeText(NormalizeText(%q)) = %q, want %q", text, again, n)
		}
		if !utf8.ValidString(n) {
			t.Fatalf("NormalizeText(%q) = %q, not valid UTF-8", text, n)
		}
		if strings.HasPrefix(n, " ") || strings.HasSuffix(n, " ") || strings.Contains(n, "  ") {
			t.Fatalf("NormalizeText(%q) = %q: stray spaces", text, n)
		}
		if strings.ContainsFunc(n, func(r rune) bool { return r != ' ' && unicode.IsSpace(r) }) {
			t.Fatalf("NormalizeText(%q) = %q: white space other than ' '", text, n)
		}
		if a, b := ContentFingerprint(text), ContentFingerprint(n); a != b {
			t.Fatalf("ContentFingerprint(%q) = %#x, ContentFingerprint(normalized) = %#x", text, a, b)
		}
		wa, _ := appendWordHashes(nil, nil, text)
		wb, _ := appendWordHashes(nil, nil, n)
		if !slices.Equal(wa, wb) {
			t.Fatalf("words of %q (%d) differ from words of NormalizeText = %q (%d)", text, len(wa), n, len(wb))
		}
		sa, sb := s.Sketch(text), s.Sketch(n)
		if sa.Simhash != sb.Simhash || sa.Words != sb.Words || sa.MinHash.Jaccard(sb.MinHash) != min(1, float64(len(sa.MinHash))) {
			t.Fatalf("Sketch(%q) = %+v, Sketch(normalized) = %+v", text, sa, sb)
		}
	})
}
