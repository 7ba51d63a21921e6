package extract

import "strings"

// Rel is a set of link relation types from a rel attribute, one bit per
// recognised value. Values the package does not know are ignored. The zero
// Rel is the empty set. A Rel is a plain value, safe to share.
type Rel uint16

// Recognised rel values. Matching is ASCII case-insensitive, as HTML requires.
const (
	RelNofollow   Rel = 1 << iota // rel=nofollow: do not follow or pass ranking
	RelSponsored                  // rel=sponsored: paid or advertising link
	RelUGC                        // rel=ugc: user-generated content
	RelCanonical                  // rel=canonical: preferred URL of this page
	RelAlternate                  // rel=alternate: translation, feed or other version
	RelNext                       // rel=next: next page of a series
	RelPrev                       // rel=prev (or its synonym "previous")
	RelNoopener                   // rel=noopener
	RelNoreferrer                 // rel=noreferrer
	RelExternal                   // rel=external: leads off the site
)

var relNames = [...]string{"nofollow", "sponsored", "ugc", "canonical", "alternate", "next", "prev", "noopener", "noreferrer", "external"}

// String returns the set as space-separated rel values in bit order, as they
// could appear in a rel attribute, for example "nofollow ugc".
func (r Rel) String() string {
	var b strings.Builder
	for i, name := range relNames {
		if r&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(name)
		}
	}
	return b.String()
}

// ParseRel returns the set of recognised values in a rel attribute value,
// a list of tokens separated by ASCII whitespace.
func ParseRel(value string) Rel {
	r, _ := parseRel([]byte(value))
	return r
}

// parseRel parses a rel attribute without allocating. resource reports a
// value that makes a <link> element a subresource rather than a page link
// (stylesheet, icon, preload ...): <link rel="alternate stylesheet"> is a
// style sheet, not an alternate version of the page.
func parseRel(b []byte) (r Rel, resource bool) {
	for len(b) > 0 {
		i := 0
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		j := i
		for j < len(b) && !isSpace(b[j]) {
			j++
		}
		tok := b[i:j]
		b = b[j:]
		if len(tok) == 0 || len(tok) > 16 {
			continue
		}
		var low [16]byte
		n := copy(low[:], tok)
		lowerASCII(low[:n])
		switch string(low[:n]) {
		case "nofollow":
			r |= RelNofollow
		case "sponsored":
			r |= RelSponsored
		case "ugc":
			r |= RelUGC
		case "canonical":
			r |= RelCanonical
		case "alternate":
			r |= RelAlternate
		case "next":
			r |= RelNext
		case "prev", "previous":
			r |= RelPrev
		case "noopener":
			r |= RelNoopener
		case "noreferrer":
			r |= RelNoreferrer
		case "external":
			r |= RelExternal
		case "stylesheet", "icon", "preload", "prefetch", "modulepreload", "manifest",
			"apple-touch-icon", "mask-icon", "dns-prefetch", "preconnect":
			resource = true
		}
	}
	return r, resource
}

// isSpace reports ASCII whitespace as HTML defines it.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

func lowerASCII(b []byte) {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
}

// equalFoldASCII reports whether b equals the lower-case ASCII string s,
// ignoring ASCII case in b.
func equalFoldASCII(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}
