// Package jsonenc appends JSON strings to byte slices without reflection
// or allocation, for the hand-written JSON encoders of the decision log
// (trawl.Decision.AppendJSON) and the WARC store's CDXJ index.
//
// AppendString writes exactly the bytes encoding/json's Marshal writes for
// a Go string, so that a hand-written encoder built on it can promise
// "what encoding/json would write" and test it byte for byte:
//
//   - '"' and '\\' are escaped with a backslash; '\b', '\f', '\n', '\r' and
//     '\t' as those short escapes; the other control characters below
//     U+0020 as \u00XX (lower-case hex). DEL (U+007F) is kept.
//   - '<', '>' and '&' are escaped as \u003c, \u003e and \u0026, and U+2028
//     and U+2029 as \u2028 and \u2029, so that the output can be embedded
//     in an HTML <script> element or evaluated as JavaScript (the decision
//     log ends up in HTML reports; encoding/json does the same by default).
//   - Each byte of invalid UTF-8 becomes \ufffd, the replacement character,
//     as encoding/json does (strings.ToValidUTF8 would instead replace a
//     run of invalid bytes by one).
//
// Everything else, non-ASCII text included, is copied as it is. The output
// is valid JSON (RFC 8259) and valid UTF-8, and decodes to s with its
// invalid bytes replaced.
//
// # Concurrency
//
// AppendString is a pure function, safe for concurrent use.
//
// # Performance
//
// AppendString allocates only when b must grow; ASCII text without
// characters to escape is copied in runs. Measure with
//
//	go test -run='^$' -bench=AppendString ./internal/jsonenc
package jsonenc

import "unicode/utf8"

const hex = "0123456789abcdef"

// safe holds, for each ASCII byte, whether AppendString copies it as it
// is: printable ASCII and DEL, except '"', '\\', '<', '>' and '&'. It is
// read-only; a lookup scans about three times as fast as the comparisons
// would (BenchmarkAppendString/long-ascii).
var safe = func() (set [utf8.RuneSelf]bool) {
	for c := byte(' '); c < utf8.RuneSelf; c++ {
		set[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return set
}()

// AppendString appends s to b as a quoted JSON string, escaped the way
// encoding/json escapes strings (see the package doc), and returns the
// extended buffer.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0 // s[start:i] is pending, to be copied as it is
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if safe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default: // other controls, '<', '>', '&'
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
