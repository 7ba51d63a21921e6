package extract

import (
	"bytes"

	"github.com/trawl-dev/trawl/internal/ascii"
)

// How strict looksLikeURL is, by where the string was found.
type urlTest uint8

const (
	// testText is for prose (page text, comments): absolute http(s) URLs,
	// and paths that start with '/', "./" or "../" and end in a page
	// extension (.html, .php ...). "and/or", "/usr/bin/python" and
	// "node.js" are not URLs here.
	testText urlTest = iota
	// testValue is for values that are often URLs (meta content, param
	// values, string literals of a script): absolute URLs, "//host/...",
	// paths that start with '/', "./" or "../", and relative paths whose
	// last segment has a known file extension ("img/logo.png"). MIME types
	// ("text/html"), dates ("1/2/2026") and words are not.
	testValue
	// testSink is for a value a URL must be (the argument of fetch, a
	// location assignment): any string of URL characters with a letter or
	// digit in it.
	testSink
)

// looksLikeURL reports whether v, trimmed, is a URL by test t.
func looksLikeURL(v []byte, t urlTest) bool {
	if len(v) == 0 || len(v) > 2048 {
		return false
	}
	if n := schemeLen(v); n > 0 {
		return (t != testText || v[n] != '[') && plausibleHost(v[n:]) // prose's IPv6 URLs are examples
	}
	if v[0] == '/' && len(v) > 1 && v[1] == '/' {
		return t != testText && plausibleHost(v[2:])
	}
	alnum := false
	for i, c := range v {
		if !urlByte(c) || c == '%' && !pctEscape(v[i:]) {
			return false // "%%endpoint%%": a template, not a URL
		}
		if c >= 0x80 || 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' {
			alnum = true
		}
	}
	if !alnum {
		return false
	}
	if t == testSink {
		return v[0] != ':' && !hasOtherScheme(v)
	}
	rooted := v[0] == '/' || bytes.HasPrefix(v, []byte("./")) || bytes.HasPrefix(v, []byte("../"))
	e := extension(v)
	if t == testText {
		return rooted && pageExt(e)
	}
	if bytes.ContainsAny(v, "()") {
		return false // "/Date(1700000000)/"; absolute URLs may have them
	}
	if rooted {
		return len(v) > 1 && v[0] == '/' || len(v) > 3 && v[0] == '.' && v[len(v)-1] != '.'
	}
	if !('a' <= v[0]|0x20 && v[0]|0x20 <= 'z' || '0' <= v[0] && v[0] <= '9' || v[0] == '_') {
		return false
	}
	return knownExt(e) && !hasOtherScheme(v)
}

// hostPath reports a relative URL that starts with a host name rather
// than a path: "static.example.com/js/x.js" (the first segment has a dot
// and ends in a label of 2 to 6 letters that is no file extension).
func hostPath(v []byte) bool {
	if len(v) == 0 || v[0] == '/' || v[0] == '.' || hasOtherScheme(v) {
		return false
	}
	i := bytes.IndexByte(v, '/')
	if i <= 0 {
		return false
	}
	host := v[:i]
	d := bytes.LastIndexByte(host, '.')
	if d <= 0 || len(host)-d-1 < 2 || len(host)-d-1 > 6 {
		return false
	}
	for _, c := range host[d+1:] {
		if !('a' <= c|0x20 && c|0x20 <= 'z') {
			return false
		}
	}
	return !knownExt(extension(host))
}

// pctEscape reports whether b starts with '%' and two hex digits.
func pctEscape(b []byte) bool { return len(b) >= 3 && isHex(b[1]) && isHex(b[2]) }

// schemeLen returns the length of an "http://" or "https://" prefix of
// v (any case), or 0.
func schemeLen(v []byte) int {
	switch {
	case len(v) > 7 && ascii.EqualFold(v[:7], "http://"):
		return 7
	case len(v) > 8 && ascii.EqualFold(v[:8], "https://"):
		return 8
	}
	return 0
}

// hasOtherScheme reports a scheme before the first '/', '?' or '#':
// "mailto:x", "javascript:x", "data:...". (http and https are checked
// before.)
func hasOtherScheme(v []byte) bool {
	for _, c := range v {
		switch c {
		case ':':
			return true
		case '/', '?', '#':
			return false
		}
	}
	return false
}

// plausibleHost reports whether rest (what follows "scheme://") starts
// with a host name that has a dot between two labels, "localhost" or a
// bracketed IPv6 address, optionally a port, and then the end, '/', '?'
// or '#'; and holds only URL bytes.
func plausibleHost(rest []byte) bool {
	i := 0
	if len(rest) > 0 && rest[0] == '[' {
		j := bytes.IndexByte(rest, ']')
		if j < 0 {
			return false
		}
		i = j + 1
	} else {
		dot, label := false, 0
		for ; i < len(rest); i++ {
			c := rest[i]
			switch {
			case c == '.':
				if label == 0 {
					return false
				}
				dot, label = true, 0
				continue
			case c >= 0x80 || '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z' || c == '-' || c == '_':
				label++
				continue
			}
			break
		}
		host := rest[:i]
		if !(dot && label > 0) || reservedHost(host) {
			return false
		}
	}
	if i < len(rest) && rest[i] == ':' {
		for i++; i < len(rest) && '0' <= rest[i] && rest[i] <= '9'; i++ {
		}
	}
	if i < len(rest) && rest[i] != '/' && rest[i] != '?' && rest[i] != '#' {
		return false
	}
	for j, c := range rest[i:] {
		if !urlByte(c) || c == '%' && !pctEscape(rest[i+j:]) {
			return false
		}
	}
	return true
}

// reservedHost reports the names RFC 2606 and RFC 6761 reserve for
// documentation and for the local machine: example.com, .net and .org and
// their subdomains, .invalid, .localhost. Code samples in documentation
// are full of them; a crawl has nothing to fetch there.
func reservedHost(host []byte) bool {
	var b [253]byte
	if len(host) > len(b) {
		return false
	}
	h := b[:copy(b[:], host)]
	lowerASCII(h)
	for _, s := range []string{"example.com", "example.net", "example.org", "invalid", "localhost"} {
		if string(h) == s || bytes.HasSuffix(h, []byte("."+s)) {
			return true
		}
	}
	return false
}

// urlByte reports bytes that may stand in a URL as pages write them:
// not whitespace or controls, not quotes, angle brackets, braces,
// backslash, '|', '^', '`' or '*'; parentheses only in absolute URLs
// (checked by the caller's path: plausibleHost accepts them).
func urlByte(c byte) bool {
	if c >= 0x80 {
		return true
	}
	return urlBytes[c>>6]&(1<<(c&63)) != 0
}

// urlBytes is the bit set urlByte reads: ASCII letters, digits and
// -._~:/?#[]@!$&'()+,;=% less the quote "'" (a literal's delimiter).
var urlBytes = func() (s [2]uint64) {
	for _, c := range []byte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!$&()+,;=%") {
		s[c>>6] |= 1 << (c & 63)
	}
	return s
}()

// ext is a file extension, lower case, without its dot.
type ext struct {
	b [12]byte
	n uint8
}

// extension returns the extension of the last path segment of v, or an
// empty one.
func extension(v []byte) (e ext) {
	if i := bytes.IndexAny(v, "?#"); i >= 0 {
		v = v[:i]
	}
	if i := bytes.LastIndexByte(v, '/'); i >= 0 {
		v = v[i+1:]
	}
	i := bytes.LastIndexByte(v, '.')
	if i <= 0 || len(v)-i-1 > len(e.b) {
		return e
	}
	e.n = uint8(copy(e.b[:], v[i+1:]))
	lowerASCII(e.b[:e.n])
	return e
}

// pageExt reports the extensions of web pages: what prose may name as a
// relative URL.
func pageExt(e ext) bool {
	switch string(e.b[:e.n]) {
	case "html", "htm", "xhtml", "shtml", "php", "asp", "aspx", "jsp", "cfm":
		return true
	}
	return false
}

// knownExt reports the extensions of files a web server serves: pages,
// data, scripts, style sheets, images, media, fonts, documents, archives.
func knownExt(e ext) bool {
	if pageExt(e) {
		return true
	}
	switch string(e.b[:e.n]) {
	case "json", "xml", "rss", "atom", "js", "mjs", "css", "png", "jpg", "jpeg", "gif", "svg", "webp", "avif",
		"ico", "bmp", "pdf", "txt", "csv", "mp3", "mp4", "m4a", "webm", "ogg", "ogv", "wav", "mov", "swf", "flv",
		"woff", "woff2", "ttf", "otf", "eot", "zip", "gz", "dtd", "webmanifest", "appcache", "wasm", "vtt":
		return true
	}
	return false
}

// nextTextURL returns the next URL in the prose t at or after offset i,
// by testText: absolute http(s) URLs, and rooted paths to pages, each a
// whole word, with trailing punctuation (".,;:!?" and unbalanced ')' or
// ']') left out; and the offset to go on from. t may be raw HTML text;
// the caller decodes character references.
func nextTextURL(t []byte, i int) (u []byte, next int, ok bool) {
	if i == 0 && bytes.IndexByte(t, '/') < 0 {
		return nil, len(t), false // most text tokens: nothing to do
	}
	for i < len(t) {
		j := i
		for j < len(t) && !textURLEnd(t[j]) {
			j++
		}
		w := trimURLPunct(t[i:j])
		i = j + 1
		if len(w) == 0 || bytes.IndexByte(w, '/') < 0 {
			continue
		}
		if k := schemeStart(w); k >= 0 {
			w = trimURLPunct(w[k:]) // "library(http://x.example/)"
		}
		if looksLikeURL(w, testText) {
			return w, i, true
		}
	}
	return nil, len(t), false
}

// textURLEnd reports bytes that end a URL in prose.
func textURLEnd(c byte) bool {
	return c <= ' ' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`' || c == '{' || c == '}' || c == '|' || c == '\\' || c == '^'
}

// schemeStart returns the offset of "http://" or "https://" in w when w
// does not start with a URL but has one after a word-break byte such as
// '(' or '=' ("(see:http://x.example/)"); -1 if none.
func schemeStart(w []byte) int {
	if w[0] == '/' || w[0] == '.' || schemeLen(w) > 0 {
		return -1
	}
	i := bytes.Index(w, []byte("://"))
	for _, s := range []int{5, 4} { // "https", "http"
		if k := i - s; i > 0 && k >= 0 && schemeLen(w[k:]) > 0 && (k == 0 || !('a' <= w[k-1]|0x20 && w[k-1]|0x20 <= 'z')) {
			return k
		}
	}
	return -1
}

// trimURLPunct trims what prose puts around a URL: leading '(' '[' and
// trailing ".,;:!?" and closing brackets that open nowhere in w.
func trimURLPunct(w []byte) []byte {
	for len(w) > 0 && (w[0] == '(' || w[0] == '[') {
		w = w[1:]
	}
	for len(w) > 0 {
		switch c := w[len(w)-1]; c {
		case '.', ',', ';', ':', '!', '?':
			w = w[:len(w)-1]
			continue
		case ')', ']':
			open := byte('(')
			if c == ']' {
				open = '['
			}
			if bytes.Count(w, []byte{open}) < bytes.Count(w, []byte{c}) {
				w = w[:len(w)-1]
				continue
			}
		}
		break
	}
	return w
}
