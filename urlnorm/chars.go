package urlnorm

// Byte classes as pairs of 64-bit masks: lo for bytes 0-63, hi for 64-127.
// Bytes >= 128 belong to no class. Being constants, they are not state.
const (
	loDigit = (1<<10 - 1) << '0'
	hiAlpha = (1<<26-1)<<('A'-64) | (1<<26-1)<<('a'-64)
	hiLower = (1<<26 - 1) << ('a' - 64)

	loUnreserved = loDigit | 1<<'-' | 1<<'.'
	hiUnreserved = hiAlpha | 1<<('_'-64) | 1<<('~'-64)

	loSubDelims = 1<<'!' | 1<<'$' | 1<<'&' | 1<<'\'' | 1<<'(' | 1<<')' |
		1<<'*' | 1<<'+' | 1<<',' | 1<<';' | 1<<'='

	// Bytes a normalized path keeps as they are: unreserved, sub-delims,
	// ':', '@', '/', and '[' ']' (which net/url also leaves alone).
	loPathKeep = loUnreserved | loSubDelims | 1<<':' | 1<<'/'
	hiPathKeep = hiUnreserved | 1<<('@'-64) | 1<<('['-64) | 1<<(']'-64)

	// Bytes net/url's path escaping leaves alone: unreserved and $&+,/:;=@.
	loNetPath = loUnreserved | 1<<'$' | 1<<'&' | 1<<'+' | 1<<',' | 1<<'/' | 1<<':' | 1<<';' | 1<<'='
	hiNetPath = hiUnreserved | 1<<('@'-64)

	// Bytes the WHATWG parser would percent-encode in a special URL's
	// query, besides controls, space and non-ASCII.
	loQueryEncode = 1<<'"' | 1<<'#' | 1<<'<' | 1<<'>' | 1<<'\''
	// Bytes kept raw in a query: printable ASCII ('!' to '~') but those.
	loQueryKeep = (1<<64 - 1) &^ (1<<('!') - 1) &^ loQueryEncode
	hiQueryKeep = 1<<('~'-64+1) - 1

	// Scheme bytes after the first: ALPHA DIGIT + - .
	loScheme = loDigit | 1<<'+' | 1<<'-' | 1<<'.'
	hiScheme = hiAlpha

	// Host bytes the fast path accepts: letters, digits, '-'.
	loHostLDH = loDigit | 1<<'-'
	hiHostLDH = hiAlpha
)

// in reports whether c is in the class given by lo and hi.
func in(c byte, lo, hi uint64) bool {
	if c < 64 {
		return lo>>c&1 != 0
	}
	if c < 128 {
		return hi>>(c-64)&1 != 0
	}
	return false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	default:
		return c - 'a' + 10
	}
}

const upperHex = "0123456789ABCDEF"

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

// appendEscaped appends s with percent-encoding normalized: an escape of an
// unreserved byte is decoded (%7E -> ~), other escapes get upper-case hex
// (%2f -> %2F), a '%' not followed by two hex digits becomes %25, and a
// byte outside the keep class (lo, hi) is percent-encoded.
func appendEscaped(dst []byte, s string, lo, hi uint64) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			if i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
				v := unhex(s[i+1])<<4 | unhex(s[i+2])
				if in(v, loUnreserved, hiUnreserved) {
					dst = append(dst, v)
				} else {
					dst = append(dst, '%', upperHex[v>>4], upperHex[v&15])
				}
				i += 2
			} else {
				dst = append(dst, "%25"...)
			}
		case in(c, lo, hi):
			dst = append(dst, c)
		default:
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		}
	}
	return dst
}

// appendQueryEscaped appends a query with percent-encoding normalized like
// appendEscaped. Bytes the WHATWG parser leaves raw in a query are kept
// raw; those it would encode (a raw ' from the fast path, or anything
// outside printable ASCII) are encoded.
func appendQueryEscaped(dst []byte, s string) []byte {
	return appendEscaped(dst, s, loQueryKeep, hiQueryKeep)
}

// isSingleDot and isDoubleDot recognise WHATWG dot segments, including
// their percent-encoded forms.
func isSingleDot(s string) bool {
	return s == "." || len(s) == 3 && s[0] == '%' && s[1] == '2' && lower(s[2]) == 'e'
}

func isDoubleDot(s string) bool {
	switch len(s) {
	case 2:
		return s == ".."
	case 4:
		return s[0] == '.' && isSingleDot(s[1:]) || s[3] == '.' && isSingleDot(s[:3])
	case 6:
		return isSingleDot(s[:3]) && isSingleDot(s[3:])
	}
	return false
}

// hasPrefixFold reports whether s begins with the lower-case ASCII prefix.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lower(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

// equalFold reports whether s equals the lower-case ASCII string t, ignoring
// ASCII case.
func equalFold(s, t string) bool { return len(s) == len(t) && hasPrefixFold(s, t) }
