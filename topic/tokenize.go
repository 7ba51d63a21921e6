package topic

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// FNV-1a, 64 bits: term identities. Terms are never stored as strings, so
// tokenizing allocates nothing.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// eachTerm calls fn with the hash of every term of s, in order. A term is a
// maximal run of letters, digits and combining marks, case-folded with
// unicode.ToLower; a Han, Hiragana or Katakana character is a term on its
// own (those scripts do not separate words with spaces).
func eachTerm(s string, fn func(h uint64)) {
	var h uint64 = fnvOffset
	in := false
	flush := func() {
		if in {
			fn(h)
			h, in = fnvOffset, false
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			default:
				flush()
				continue
			}
			h = (h ^ uint64(c)) * fnvPrime
			in = true
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r >= 0x2E80 && isIdeographic(r):
			flush()
			fn(hashRune(fnvOffset, r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || in && unicode.IsMark(r):
			h = hashRune(h, unicode.ToLower(r))
			in = true
		default:
			flush()
		}
	}
	flush()
}

func isIdeographic(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

func hashRune(h uint64, r rune) uint64 {
	var b [utf8.UTFMax]byte
	n := utf8.EncodeRune(b[:], r)
	for _, c := range b[:n] {
		h = (h ^ uint64(c)) * fnvPrime
	}
	return h
}

// urlWords returns the part of rawURL whose words describe it: host and
// path, without the scheme, query and fragment.
func urlWords(rawURL string) string {
	if i := strings.Index(rawURL, "://"); i >= 0 {
		rawURL = rawURL[i+3:]
	}
	if i := strings.IndexAny(rawURL, "?#"); i >= 0 {
		rawURL = rawURL[:i]
	}
	return rawURL
}

// termCount is a term with its count in one text.
type termCount struct {
	h  uint64
	tf int
}

// bag is a text's terms with their counts, sorted by hash.
type bag struct {
	hashes []uint64
	terms  []termCount
}

// bags pools bags: get one with get, give it back with put.
type bags struct{ pool sync.Pool }

// get tokenizes s into a pooled bag.
func (p *bags) get(s string) *bag {
	b, _ := p.pool.Get().(*bag)
	if b == nil {
		b = new(bag)
	}
	b.hashes = b.hashes[:0]
	b.terms = b.terms[:0]
	eachTerm(s, func(h uint64) { b.hashes = append(b.hashes, h) })
	slices.Sort(b.hashes)
	for i, h := range b.hashes {
		if i > 0 && h == b.hashes[i-1] {
			b.terms[len(b.terms)-1].tf++
			continue
		}
		b.terms = append(b.terms, termCount{h: h, tf: 1})
	}
	return b
}

// maxPooled caps the capacity of the slices a pooled bag keeps, so one huge
// page does not pin its buffers.
const maxPooled = 1 << 16

func (p *bags) put(b *bag) {
	if cap(b.hashes) > maxPooled || cap(b.terms) > maxPooled {
		return
	}
	p.pool.Put(b)
}
