package robots

import "strings"

// rule is one compiled allow or disallow line. The pattern is split at '*'
// into literal segments when the file is parsed, so matching is a prefix
// test plus one left-to-right substring search per segment: linear in the
// path length, whatever the number of wildcards.
type rule struct {
	prefix string   // literal text before the first '*' (the whole pattern if there is none)
	segs   []string // non-empty literal segments after the first '*'
	prio   int32    // length of the (escaped) pattern: the longest match wins
	allow  bool
	star   bool // the pattern has at least one '*'
	anchor bool // the pattern ends with '$' (and the text before it does not end with '*')
}

// compile builds a rule from an escaped pattern.
func compile(pat string, allow bool) rule {
	r := rule{prio: int32(len(pat)), allow: allow}
	body := pat
	if strings.HasSuffix(body, "$") {
		body = body[:len(body)-1]
		r.anchor = true
	}
	i := strings.IndexByte(body, '*')
	if i < 0 {
		r.prefix = body
		return r
	}
	r.prefix, r.star = body[:i], true
	rest := body[i+1:]
	if strings.HasSuffix(rest, "*") || rest == "" {
		r.anchor = false // "...*$" ends anywhere
	}
	for rest != "" {
		j := strings.IndexByte(rest, '*')
		if j < 0 {
			r.segs = append(r.segs, rest)
			break
		}
		if j > 0 {
			r.segs = append(r.segs, rest[:j])
		}
		rest = rest[j+1:]
	}
	return r
}

// match reports whether the rule matches path (path, params and query).
//
// Greedy leftmost matching is exact for patterns whose only wildcard is '*':
// taking the earliest occurrence of each segment leaves the longest remainder
// for the following ones.
func (r *rule) match(path string) bool {
	if !strings.HasPrefix(path, r.prefix) {
		return false
	}
	rest := path[len(r.prefix):]
	if !r.star {
		return !r.anchor || rest == ""
	}
	segs := r.segs
	if r.anchor {
		// The last segment must end the path.
		last := segs[len(segs)-1]
		segs = segs[:len(segs)-1]
		for _, s := range segs {
			j := strings.Index(rest, s)
			if j < 0 {
				return false
			}
			rest = rest[j+len(s):]
		}
		return strings.HasSuffix(rest, last)
	}
	for _, s := range segs {
		j := strings.Index(rest, s)
		if j < 0 {
			return false
		}
		rest = rest[j+len(s):]
	}
	return true
}

func isHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

func upperHex(c byte) byte {
	if 'a' <= c && c <= 'f' {
		return c - 'a' + 'A'
	}
	return c
}

// escapePattern percent-encodes the bytes >= 0x80 of a rule value and
// upper-cases the hex digits of existing %XX escapes, as Google's parser
// does, so "/ツ" and "/%e3%83%84" both become "/%E3%83%84". Other bytes, and
// escapes of unreserved characters such as "%62", are kept as written (see
// "Percent-encoding" in the package documentation).
func escapePattern(v []byte) string {
	need := false
	for i := 0; i < len(v); i++ {
		if v[i] >= 0x80 {
			need = true
			break
		}
		if v[i] == '%' && i+2 < len(v) && isHex(v[i+1]) && isHex(v[i+2]) &&
			(upperHex(v[i+1]) != v[i+1] || upperHex(v[i+2]) != v[i+2]) {
			need = true
			break
		}
	}
	if !need {
		return string(v)
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(v) + 8)
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '%' && i+2 < len(v) && isHex(v[i+1]) && isHex(v[i+2]):
			b.WriteByte('%')
			b.WriteByte(upperHex(v[i+1]))
			b.WriteByte(upperHex(v[i+2]))
			i += 2
		case c >= 0x80:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// pathOf returns the path, params and query of rawURL, without the fragment,
// as Google's GetPathParamsQuery does: the scheme and authority of an
// absolute URL are skipped, a result not starting with '/' gets one, and an
// empty path is "/".
func pathOf(rawURL string) string {
	if len(rawURL) > 0 && rawURL[0] == '/' && (len(rawURL) == 1 || rawURL[1] != '/') {
		// Fast path for "/path?query": only the fragment goes.
		if h := strings.IndexByte(rawURL, '#'); h >= 0 {
			return rawURL[:h]
		}
		return rawURL
	}
	start := 0
	if strings.HasPrefix(rawURL, "//") {
		start = 2
	}
	early := indexAnyFrom(rawURL, start)
	proto := strings.Index(rawURL[start:], "://")
	if proto >= 0 {
		proto += start
	}
	if early >= 0 && (proto < 0 || early < proto) {
		proto = -1 // a path, param or query starts before "://"
	}
	from := start
	if proto >= 0 {
		from = proto + 3
	}
	ps := indexAnyFrom(rawURL, from)
	if ps < 0 {
		return "/"
	}
	end := len(rawURL)
	if h := strings.IndexByte(rawURL[start:], '#'); h >= 0 {
		h += start
		if h < ps {
			return "/"
		}
		end = h
	}
	if rawURL[ps] != '/' {
		return "/" + rawURL[ps:end]
	}
	return rawURL[ps:end]
}

// indexAnyFrom returns the index of the first '/', '?' or ';' of s at or after
// from, or -1.
func indexAnyFrom(s string, from int) int {
	for i := from; i < len(s); i++ {
		if c := s[i]; c == '/' || c == '?' || c == ';' {
			return i
		}
	}
	return -1
}
