package dedup

import (
	"unicode"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"
)

// asciiClass classifies ASCII bytes: 0 other, 1 letter or digit, 2 space.
var asciiClass = func() (t [128]uint8) {
	for c := 0; c < 128; c++ {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			t[c] = 1
		case c == ' ', c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			t[c] = 2
		}
	}
	return t
}()

// fold maps r to a canonical case: lower case of its upper case, so that
// letters with several lower-case forms (σ, ς) fold together.
func fold(r rune) rune {
	return unicode.ToLower(unicode.ToUpper(r))
}

// isWordRune reports whether r belongs to a word: a letter, a digit or a
// combining mark (so that words in scripts with combining marks stay whole).
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// normalizer produces NormalizeText's output in pieces, so that long texts
// can be hashed through a fixed buffer.
type normalizer struct {
	text    string
	pending bool // white space seen since the last output rune
	started bool // some rune was output
}

// fill appends normalized output to dst until text is consumed or dst has
// fewer than utf8.UTFMax+1 bytes of spare capacity (when limited), and
// returns dst.
func (n *normalizer) fill(dst []byte, limited bool) []byte {
	text := n.text
	i := 0
	for i < len(text) && (!limited || cap(dst)-len(dst) > utf8.UTFMax) {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			if asciiClass[c] == 2 {
				n.pending = true
				continue
			}
			if n.pending && n.started {
				dst = append(dst, ' ')
			}
			n.pending, n.started = false, true
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if unicode.IsSpace(r) {
			n.pending = true
			continue
		}
		if n.pending && n.started {
			dst = append(dst, ' ')
		}
		n.pending, n.started = false, true
		dst = utf8.AppendRune(dst, fold(r))
	}
	n.text = text[i:]
	return dst
}

// appendNormalized appends NormalizeText(text) to dst.
func appendNormalized(dst []byte, text string) []byte {
	n := normalizer{text: text}
	return n.fill(dst, false)
}

// hashNormalized returns the XXH64 hash of NormalizeText(text) without
// allocating.
func hashNormalized(text string) uint64 {
	var d xxhash.Digest
	d.Reset()
	var buf [256]byte
	n := normalizer{text: text}
	for len(n.text) > 0 {
		d.Write(n.fill(buf[:0], true))
	}
	return d.Sum64()
}

// appendWordHashes appends the XXH64 hash of every word of text to dst and
// returns it. A word is a maximal run of letters, digits and combining marks,
// case-folded. buf is scratch space for one non-ASCII word; the possibly grown
// buffer is returned for reuse.
func appendWordHashes(dst []uint64, buf []byte, text string) ([]uint64, []byte) {
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf && asciiClass[c] != 1 {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(text[i:])
			if !isWordRune(r) {
				i += size
				continue
			}
		}
		// A word starts at i. Hash pure lower-case ASCII words in place.
		start, simple := i, true
		for i < len(text) {
			c := text[i]
			if c < utf8.RuneSelf {
				if asciiClass[c] != 1 {
					break
				}
				if 'A' <= c && c <= 'Z' {
					simple = false
				}
				i++
				continue
			}
			r, size := utf8.DecodeRuneInString(text[i:])
			if !isWordRune(r) {
				break
			}
			simple = false
			i += size
		}
		if simple {
			dst = append(dst, xxhash.Sum64String(text[start:i]))
			continue
		}
		buf = buf[:0]
		for j := start; j < i; {
			c := text[j]
			if c < utf8.RuneSelf {
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				buf = append(buf, c)
				j++
				continue
			}
			r, size := utf8.DecodeRuneInString(text[j:])
			buf = utf8.AppendRune(buf, fold(r))
			j += size
		}
		dst = append(dst, xxhash.Sum64(buf))
	}
	return dst, buf
}
