package extract

import (
	"net/url"
	"unicode/utf8"

	"github.com/trawl-dev/trawl/internal/ascii"
	"github.com/trawl-dev/trawl/urlnorm"
)

// CSSLinks returns the references of a style sheet: url(...) values
// (Kind Embed: images, fonts ...) and @import targets (Kind Style), in
// order, duplicates kept, each resolved against base and normalized. For
// a fetched style sheet base is the style sheet's URL; for the content of
// a <style> element or a style attribute, the document's base URL (Links
// does that itself). A nil base keeps only absolute URLs.
//
// The scan follows the tokenizer of CSS Syntax Level 3 for what matters
// here: comments are skipped; strings and url() accept escapes ("\29",
// "\)") and url() unquoted, single- or double-quoted; a bad url() (a quote
// or '(' inside an unquoted one) or a string broken by a newline yields
// nothing; url( must be a whole identifier (myurl( and 1url( are not);
// the strings of image-set() are URLs too; @namespace URLs are not
// references and are skipped. An @import is reported wherever it appears
// (browsers ignore one after other rules). Nothing is evaluated.
//
// The work is linear in len(css) and the result has at most
// Options.MaxLinks links, each URL at most Options.MaxAttrLen bytes before
// resolution; data:, javascript: and other non-http(s) URLs are dropped.
// Link.Tag is "css", Link.Text is empty. CSSLinks is safe for concurrent
// use.
func CSSLinks(css []byte, base *url.URL, opts *Options) []Link {
	lim := opts.limits()
	norm := normalizerOf(opts)
	var (
		s   cssScanner
		out []Link
	)
	s.reset(css)
	for len(out) < lim.maxLinks {
		ref, kind, ok := s.next()
		if !ok {
			break
		}
		if len(ref) > lim.maxAttrLen || skipHref(ref) {
			continue
		}
		u, err := norm.ResolveString(base, string(ref))
		if err != nil {
			continue
		}
		out = append(out, Link{URL: u, Tag: "css", Kind: kind})
	}
	return out
}

// normalizerOf returns opts' Normalizer or a new default one.
func normalizerOf(opts *Options) *urlnorm.Normalizer {
	if opts != nil && opts.Normalizer != nil {
		return opts.Normalizer
	}
	return urlnorm.New()
}

// cssScanner finds the references in CSS: next returns them one by one.
// A reference comes back as a slice of the input when it holds no escape,
// else decoded into buf; either is valid until the next call. It
// allocates only to grow buf.
type cssScanner struct {
	b   []byte
	i   int
	buf []byte

	at       cssAt // the at-rule whose prelude is being read
	imageSet int   // parenthesis depth inside image-set(), 0 outside
}

type cssAt uint8

const (
	atNone      cssAt = iota
	atImport          // @import: the next string or url() is a style sheet
	atNamespace       // @namespace: the next string or url() is no reference
)

func (s *cssScanner) reset(b []byte) {
	s.b, s.i, s.buf, s.at, s.imageSet = b, 0, s.buf[:0], atNone, 0
}

// next returns the next reference and its kind; ok is false at the end.
func (s *cssScanner) next() (ref []byte, kind Kind, ok bool) {
	b := s.b
	n := len(b)
	for s.i < n {
		c := b[s.i]
		switch {
		case c == '/' && s.i+1 < n && b[s.i+1] == '*':
			s.skipComment()
			continue // a comment is no token: an @import prelude goes on
		case isCSSSpace(c):
			s.i++
			continue
		case c == '"' || c == '\'':
			v, good := s.str(c)
			at, inSet := s.at, s.imageSet == 1 // not in type("image/avif")
			s.at = atNone
			if !good {
				continue
			}
			switch {
			case at == atImport:
				return v, Style, true
			case at == atNamespace:
			case inSet:
				return v, Embed, true
			}
			continue
		case c == '@':
			s.i++
			s.at = atNone
			if s.i < n && s.identStart(s.i) {
				name, _ := s.name()
				switch {
				case cssNameIs(name, "import"):
					s.at = atImport
				case cssNameIs(name, "namespace"):
					s.at = atNamespace
				}
			}
			continue
		case c >= '0' && c <= '9' || (c == '.' || c == '+') && s.i+1 < n && isDigit(b[s.i+1]):
			// A number, and the unit of a dimension ("10url(" is no
			// url()).
			s.i++
			for s.i < n && (isDigit(b[s.i]) || b[s.i] == '.') {
				s.i++
			}
			if s.i < n && s.identStart(s.i) {
				s.name()
			}
		case c == '#':
			s.i++
			if s.i < n && (isNameByte(b[s.i]) || s.validEscape(s.i)) {
				s.name()
			}
		case s.identStart(s.i):
			name, escaped := s.name()
			if s.i >= n || b[s.i] != '(' {
				break
			}
			s.i++
			switch {
			case cssNameIs(name, "url") && !escaped || escaped && cssDecodedNameIs(name, "url"):
				at := s.at
				s.at = atNone
				v, good := s.url()
				if !good || at == atNamespace {
					continue
				}
				if at == atImport {
					return v, Style, true
				}
				return v, Embed, true
			case cssNameIs(name, "image-set") || cssNameIs(name, "-webkit-image-set"):
				s.imageSet++
			default:
				if s.imageSet > 0 {
					s.imageSet++
				}
			}
		case c == '\\':
			s.i++ // an invalid escape: a delimiter
		case c == '(':
			s.i++
			if s.imageSet > 0 {
				s.imageSet++
			}
		case c == ')':
			s.i++
			if s.imageSet > 0 {
				s.imageSet--
			}
		default:
			s.i++
		}
		// Any token but whitespace and comments ends an at-rule's prelude
		// as far as the scanner cares.
		s.at = atNone
	}
	return nil, 0, false
}

func (s *cssScanner) skipComment() {
	b := s.b
	for j := s.i + 2; j+1 < len(b); j++ {
		if b[j] == '*' && b[j+1] == '/' {
			s.i = j + 2
			return
		}
	}
	s.i = len(b)
}

func isCSSSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// isNameByte reports a byte of an identifier: letters, digits, '_', '-'
// and every byte of a non-ASCII character.
func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c >= 0x80
}

func isNameStartByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c >= 0x80
}

// validEscape reports that b[i:] starts with a valid escape: a backslash
// not followed by a newline or the end.
func (s *cssScanner) validEscape(i int) bool {
	b := s.b
	return i+1 < len(b) && b[i] == '\\' && b[i+1] != '\n' && b[i+1] != '\r' && b[i+1] != '\f'
}

// identStart reports that b[i:] starts an identifier.
func (s *cssScanner) identStart(i int) bool {
	b := s.b
	c := b[i]
	switch {
	case isNameStartByte(c):
		return true
	case c == '\\':
		return s.validEscape(i)
	case c == '-':
		return i+1 < len(b) && (isNameStartByte(b[i+1]) || b[i+1] == '-' || s.validEscape(i+1))
	}
	return false
}

// name consumes an identifier's characters and returns them raw, with
// whether they hold an escape.
func (s *cssScanner) name() (name []byte, escaped bool) {
	b := s.b
	start := s.i
	for s.i < len(b) {
		c := b[s.i]
		if isNameByte(c) {
			s.i++
			continue
		}
		if s.validEscape(s.i) {
			escaped = true
			s.i++
			s.skipEscape()
			continue
		}
		break
	}
	return b[start:s.i], escaped
}

// skipEscape consumes an escape after its backslash.
func (s *cssScanner) skipEscape() {
	b := s.b
	if s.i >= len(b) {
		return
	}
	if !isHexDigit(b[s.i]) {
		s.i++
		return
	}
	for k := 0; k < 6 && s.i < len(b) && isHexDigit(b[s.i]); k++ {
		s.i++
	}
	s.skipOneSpace()
}

func (s *cssScanner) skipOneSpace() {
	b := s.b
	if s.i < len(b) && isCSSSpace(b[s.i]) {
		if b[s.i] == '\r' && s.i+1 < len(b) && b[s.i+1] == '\n' {
			s.i++
		}
		s.i++
	}
}

// appendEscape decodes an escape after its backslash into dst.
func (s *cssScanner) appendEscape(dst []byte) []byte {
	b := s.b
	if s.i >= len(b) {
		return utf8.AppendRune(dst, utf8.RuneError)
	}
	if !isHexDigit(b[s.i]) {
		_, size := utf8.DecodeRune(b[s.i:])
		dst = append(dst, b[s.i:s.i+size]...)
		s.i += size
		return dst
	}
	var r rune
	for k := 0; k < 6 && s.i < len(b) && isHexDigit(b[s.i]); k++ {
		r = r<<4 | rune(unhexByte(b[s.i]))
		s.i++
	}
	s.skipOneSpace()
	if r == 0 || r > utf8.MaxRune || 0xD800 <= r && r <= 0xDFFF {
		r = utf8.RuneError
	}
	return utf8.AppendRune(dst, r)
}

func unhexByte(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// str consumes a string token that starts at the quote q and returns its
// value; good is false for a bad string (an unescaped newline).
func (s *cssScanner) str(q byte) (v []byte, good bool) {
	b := s.b
	s.i++
	start := s.i
	decoded := false
	for s.i < len(b) {
		c := b[s.i]
		switch {
		case c == q:
			s.i++
			if decoded {
				return s.buf, true
			}
			return b[start : s.i-1 : s.i-1], true
		case c == '\n' || c == '\r' || c == '\f':
			// Reconsumed: the newline is whitespace after the bad string.
			return nil, false
		case c == '\\':
			if !decoded {
				s.buf = append(s.buf[:0], b[start:s.i]...)
				decoded = true
			}
			s.i++
			if s.i < len(b) && (b[s.i] == '\n' || b[s.i] == '\r' || b[s.i] == '\f') {
				s.skipOneSpace() // a line continuation
				continue
			}
			if s.i < len(b) {
				s.buf = s.appendEscape(s.buf)
			}
		default:
			if decoded {
				s.buf = append(s.buf, c)
			}
			s.i++
		}
	}
	if decoded { // unterminated at the end: still a string
		return s.buf, true
	}
	return b[start:], true
}

// url consumes the rest of url( and returns its URL, quoted or not; good
// is false for a bad URL.
func (s *cssScanner) url() (v []byte, good bool) {
	b := s.b
	for s.i < len(b) && isCSSSpace(b[s.i]) {
		s.i++
	}
	if s.i < len(b) && (b[s.i] == '"' || b[s.i] == '\'') {
		v, good = s.str(b[s.i])
		// The function's arguments end at ')'; anything else before it
		// makes the url() invalid.
		for s.i < len(b) && isCSSSpace(b[s.i]) {
			s.i++
		}
		if s.i < len(b) && b[s.i] != ')' {
			s.badURL()
			return nil, false
		}
		if s.i < len(b) {
			s.i++
		}
		return v, good
	}
	start := s.i
	decoded := false
	for s.i < len(b) {
		c := b[s.i]
		switch {
		case c == ')':
			s.i++
			if decoded {
				return s.buf, true
			}
			return b[start : s.i-1 : s.i-1], true
		case isCSSSpace(c):
			end := s.i
			for s.i < len(b) && isCSSSpace(b[s.i]) {
				s.i++
			}
			if s.i < len(b) && b[s.i] != ')' {
				s.badURL()
				return nil, false
			}
			if s.i < len(b) {
				s.i++
			}
			if decoded {
				return s.buf, true
			}
			return b[start:end:end], true
		case c == '"' || c == '\'' || c == '(' || c <= 0x08 || c == 0x0B || 0x0E <= c && c <= 0x1F || c == 0x7F:
			s.badURL()
			return nil, false
		case c == '\\':
			if !s.validEscape(s.i) {
				s.badURL()
				return nil, false
			}
			if !decoded {
				s.buf = append(s.buf[:0], b[start:s.i]...)
				decoded = true
			}
			s.i++
			s.buf = s.appendEscape(s.buf)
		default:
			if decoded {
				s.buf = append(s.buf, c)
			}
			s.i++
		}
	}
	if decoded {
		return s.buf, true
	}
	return b[start:], true
}

// badURL consumes the remnants of a bad url(): up to ')' or the end,
// stepping over escapes.
func (s *cssScanner) badURL() {
	b := s.b
	for s.i < len(b) {
		switch {
		case b[s.i] == ')':
			s.i++
			return
		case s.validEscape(s.i):
			s.i++
			s.skipEscape()
		default:
			s.i++
		}
	}
}

// cssNameIs compares an identifier without escapes with the lower-case
// ASCII name, ignoring ASCII case.
func cssNameIs(name []byte, s string) bool { return ascii.EqualFold(name, s) }

// cssDecodedNameIs compares an identifier that holds escapes ("u\rl",
// "\75 rl") with the lower-case ASCII name s.
func cssDecodedNameIs(name []byte, s string) bool {
	if len(name) > 64 {
		return false
	}
	var buf [64]byte
	d := cssScanner{b: name}
	out := buf[:0]
	for d.i < len(name) {
		if name[d.i] == '\\' {
			d.i++
			out = d.appendEscape(out)
			continue
		}
		out = append(out, name[d.i])
		d.i++
	}
	return ascii.EqualFold(out, s)
}
