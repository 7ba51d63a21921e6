// Package ascii compares bytes with lower-case ASCII strings, ignoring
// ASCII case and nothing else (no Unicode folding): the comparisons HTML
// tag and attribute names, charset labels and robots.txt keys need, on
// bytes, with no allocation. Used by extract, fetch and robots.
package ascii

// EqualFold reports whether b equals s, ignoring ASCII case in b; s must
// be lower case.
func EqualFold(b []byte, s string) bool {
	return len(b) == len(s) && HasPrefixFold(b, s)
}

// HasPrefixFold reports whether b starts with prefix, ignoring ASCII case
// in b; prefix must be lower case.
func HasPrefixFold(b []byte, prefix string) bool {
	if len(b) < len(prefix) {
		return false
	}
	for i := range len(prefix) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}
