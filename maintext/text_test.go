package maintext

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// refText is the character loop of mcWalker.text without its fast path
// for runs of plain ASCII, which must change nothing.
func refText(w *mcWalker, s string) {
	for i := 0; i < len(s); {
		c := s[i]
		var r rune
		n := 1
		if c < utf8.RuneSelf {
			r = rune(c)
		} else {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		i += n
		if r < utf8.RuneSelf && (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v') || r >= utf8.RuneSelf && unicode.IsSpace(r) {
			w.inWord = false
			w.space = len(w.buf) > w.curStart
			continue
		}
		if w.space {
			if last := w.buf[len(w.buf)-1]; last != '\n' {
				w.buf = append(w.buf, ' ')
			}
			w.space = false
		}
		if r < utf8.RuneSelf {
			w.buf = append(w.buf, c)
		} else {
			w.buf = utf8.AppendRune(w.buf, r) // also turns invalid bytes into U+FFFD
			w.nonASCII = true
		}
		switch {
		case r >= 0x2E80 && mcIsCJK(r):
			w.cjk++
			w.negCJK += min(w.inNeg, 1)
			if w.inLink > 0 {
				w.linkCJK++
			}
			w.inWord = false
		case !w.inWord:
			w.inWord = true
			w.words++
			w.negWords += min(w.inNeg, 1)
			if w.inLink > 0 {
				w.link++
				if w.linkAt == 0 {
					w.linkAt = w.words
				}
			}
		}
		// A full stop inside a number or a date ("3.5", "11.04.2020")
		// ends no sentence.
		if w.dot && '0' <= r && r <= '9' {
			w.stops--
		}
		w.dot = false
		if mcIsStop(r) {
			w.stops++
			w.dot = r == '.' && len(w.buf) >= 2 && '0' <= w.buf[len(w.buf)-2] && w.buf[len(w.buf)-2] <= '9'
		}
	}
}

// TestTextFastPath feeds the same text pieces to text and to refText, in
// several calls per block (as text nodes come), and compares the block
// being built and all its counts.
func TestTextFastPath(t *testing.T) {
	pieces := []string{"", " ", "word", "Word.", "3.5", "11.04.2020", "end. ", "a.b", "!?", "x\ty", "\n\n", "\v\f\r",
		"\x01ctl", "\x7f", "caf\u00e9", "\u00a0nbsp", "\u4e2d\u6587", "\u3002", "\xff", "1.", "2", " .5", "ok!Next", "e.g. x",
		"\u0661.\u0662", "long-hyphenated_word/with:punct;", strings.Repeat("abc", 50)}
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 20000 {
		var parts []string
		for range 1 + rng.IntN(6) {
			parts = append(parts, pieces[rng.IntN(len(pieces))])
		}
		got := &mcWalker{inLink: n % 2, inNeg: n % 3 % 2}
		want := &mcWalker{inLink: n % 2, inNeg: n % 3 % 2}
		for _, p := range parts {
			got.text(p)
			refText(want, p)
		}
		if !slices.Equal(got.buf, want.buf) || got.words != want.words || got.link != want.link || got.cjk != want.cjk ||
			got.linkCJK != want.linkCJK || got.linkAt != want.linkAt || got.stops != want.stops || got.inWord != want.inWord ||
			got.space != want.space || got.dot != want.dot || got.negWords != want.negWords || got.negCJK != want.negCJK ||
			got.nonASCII != want.nonASCII {
			t.Fatalf("text(%q):\n got %q words=%d stops=%d dot=%v inWord=%v\nwant %q words=%d stops=%d dot=%v inWord=%v",
				parts, got.buf, got.words, got.stops, got.dot, got.inWord, want.buf, want.words, want.stops, want.dot, want.inWord)
		}
	}
}
