package urlnorm

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// resolveFast resolves and normalizes ref against base without the WHATWG
// parser, for the common case: a ref in valid UTF-8 without tabs, newlines
// or backslashes, with a plain LDH host if it has one, and a base that
// net/url holds in its plain form. It produces exactly what
// resolveSlow produces; ok is false when it cannot decide, and the caller
// must then use resolveSlow. The conformance table and FuzzResolve check
// the equivalence.
func (n *Normalizer) resolveFast(base *url.URL, ref string) (s string, ok bool, err error) {
	if err := checkLimits(ref); err != nil {
		return "", true, err
	}
	// The WHATWG parser first strips leading and trailing C0 controls and
	// spaces, then removes tabs and newlines anywhere.
	for len(ref) > 0 && ref[0] <= ' ' {
		ref = ref[1:]
	}
	scheme := ""
	if k := schemeEnd(ref); k < 0 {
		return "", false, nil
	} else if k > 0 {
		switch {
		case equalFold(ref[:k], "http"):
			scheme = "http"
		case equalFold(ref[:k], "https"):
			scheme = "https"
		default:
			return "", true, fmt.Errorf("%w: %q", ErrScheme, strings.ToLower(ref[:k]))
		}
		ref = ref[k+1:]
		// Only "scheme://host" here; "http:path" and "http:///host" have
		// special meanings.
		if len(ref) < 3 || ref[0] != '/' || ref[1] != '/' || ref[2] == '/' {
			return "", false, nil
		}
	}
	// Cut the fragment (dropped) or else trailing whitespace (stripped).
	if i := strings.IndexByte(ref, '#'); i >= 0 {
		ref = ref[:i]
	} else {
		for len(ref) > 0 && ref[len(ref)-1] <= ' ' {
			ref = ref[:len(ref)-1]
		}
	}
	// Tabs and newlines (removed by the parser), backslashes (slashes in
	// http URLs) and invalid UTF-8 (replaced by U+FFFD) need the full
	// parser. Other bytes are percent-encoded the same way by both paths.
	ascii := true
	for i := 0; i < len(ref); i++ {
		switch c := ref[i]; {
		case c == '\\' || c == '\t' || c == '\n' || c == '\r':
			return "", false, nil
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	if !ascii && !utf8.ValidString(ref) {
		return "", false, nil
	}

	var buf [256]byte
	dst := buf[:0]

	if scheme == "" || base != nil {
		// Whatever the ref, the WHATWG parser parses base first: it must
		// be one the fast path understands.
		if base == nil || base.Opaque != "" || base.User != nil || base.RawPath != "" ||
			(base.Scheme != "http" && base.Scheme != "https") {
			return "", false, nil
		}
		if scheme == "" {
			scheme = base.Scheme
		}
		dst = append(dst, scheme...)
		dst = append(dst, "://"...)
		if dst, ok = n.appendFastHost(dst, base.Host, base.Scheme); !ok {
			return "", false, nil
		}
		if len(ref) < 2 || ref[0] != '/' || ref[1] != '/' {
			return n.fastRelative(dst, base, ref)
		}
		// A network-path reference ("//host/path") keeps only the scheme.
		dst = dst[:len(scheme)+3]
	} else {
		dst = append(dst, scheme...)
		dst = append(dst, "://"...)
	}

	// ref is "//authority[path][?query]".
	ref = ref[2:]
	if len(ref) > 0 && ref[0] == '/' {
		return "", false, nil
	}
	end := strings.IndexAny(ref, "/?")
	if end < 0 {
		end = len(ref)
	}
	auth := ref[:end]
	ref = ref[end:]
	if strings.IndexByte(auth, '@') >= 0 {
		return "", false, nil
	}
	if dst, ok = n.appendFastHost(dst, auth, scheme); !ok {
		return "", false, nil
	}
	p, q, hasQ := strings.Cut(ref, "?")
	pathStart := len(dst)
	if p == "" {
		dst = append(dst, '/')
	} else {
		dst = appendSegments(dst, pathStart, p[1:])
	}
	dst = n.finishPath(dst, pathStart)
	if hasQ {
		dst = n.appendQuery(dst, q)
	}
	return finish(dst)
}

// fastRelative finishes resolveFast for a ref that is not network-path:
// dst holds "scheme://host[:port]" of base.
func (n *Normalizer) fastRelative(dst []byte, base *url.URL, ref string) (string, bool, error) {
	pathStart := len(dst)
	bp := base.Path
	if bp == "" {
		bp = "/"
	}
	if bp[0] != '/' || hasDotSegment(bp) {
		return "", false, nil
	}
	p, q, hasQ := strings.Cut(ref, "?")
	switch {
	case p != "" && p[0] == '/':
		dst = appendSegments(dst, pathStart, p[1:])
	case p != "":
		// Merge: base path without its last segment, then ref's segments.
		dst = appendBasePath(dst, bp[:strings.LastIndexByte(bp, '/')])
		dst = appendSegments(dst, pathStart, p)
	default:
		// "", "?query" or "#fragment": base path, and base query unless
		// ref has its own.
		dst = appendBasePath(dst, bp)
		if !hasQ {
			q = base.RawQuery
			for i := 0; i < len(q); i++ {
				if c := q[i]; c <= ' ' || c >= 0x7f || c == '"' || c == '#' || c == '<' || c == '>' {
					return "", false, nil
				}
			}
			hasQ = true
		}
	}
	if len(dst) == pathStart {
		dst = append(dst, '/')
	}
	dst = n.finishPath(dst, pathStart)
	if hasQ {
		dst = n.appendQuery(dst, q)
	}
	return finish(dst)
}

// schemeEnd returns the index of the ':' ending ref's scheme, 0 when ref has
// no scheme, and -1 when a tab or newline makes that undecidable here.
func schemeEnd(ref string) int {
	if len(ref) == 0 || !in(ref[0], 0, hiAlpha) {
		return 0
	}
	for i := 1; i < len(ref); i++ {
		c := ref[i]
		switch {
		case in(c, loScheme, hiScheme):
		case c == ':':
			return i
		case c == '\t' || c == '\n' || c == '\r':
			return -1
		default:
			return 0
		}
	}
	return 0
}

// appendFastHost appends the normalized form of hostport ("host[:port]")
// and reports whether the fast path may handle it: the host must be LDH
// labels (any case) with an optional trailing dot, no "xn--" label, and a
// last label beginning with a letter (so it is no IPv4 address), or an
// IPv4 address already in the canonical dotted-decimal form the WHATWG
// serializer writes (four numbers 0-255 without leading zeros, no trailing
// dot); the port, if any, decimal without leading zeros.
func (n *Normalizer) appendFastHost(dst []byte, hostport, scheme string) ([]byte, bool) {
	host, port := hostport, ""
	if i := strings.LastIndexByte(hostport, ':'); i >= 0 {
		host, port = hostport[:i], hostport[i+1:]
	}
	if len(host) == 0 || len(port) > 5 || len(port) > 1 && port[0] == '0' {
		return dst, false
	}
	v := 0
	for i := 0; i < len(port); i++ {
		if !isDigit(port[i]) {
			return dst, false
		}
		v = v*10 + int(port[i]-'0')
	}
	if v > 65535 {
		return dst, false
	}
	if len(strings.TrimSuffix(host, ".")) > maxHostLen {
		return dst, false
	}
	if isCanonicalIPv4(host) {
		dst = append(dst, host...)
		if port != "" && !isDefaultPort(scheme, port) {
			dst = append(dst, ':')
			dst = append(dst, port...)
		}
		return dst, true
	}
	hostStart := len(dst)
	labelStart := 0
	for i := 0; i <= len(host); i++ {
		if i < len(host) && host[i] != '.' {
			if !in(host[i], loHostLDH, hiHostLDH) {
				return dst, false
			}
			continue
		}
		if i == labelStart {
			// An empty label is only allowed as the trailing dot.
			if i != len(host) || i == 0 {
				return dst, false
			}
			break
		}
		label := host[labelStart:i]
		if hasPrefixFold(label, "xn--") || len(label) > maxLabelLen {
			return dst, false
		}
		if i >= len(host)-1 && isDigit(label[0]) {
			return dst, false
		}
		labelStart = i + 1
	}
	for i := 0; i < len(host); i++ {
		dst = append(dst, lower(host[i]))
	}
	dst = n.finishHost(dst, hostStart)
	if port != "" && !isDefaultPort(scheme, port) {
		dst = append(dst, ':')
		dst = append(dst, port...)
	}
	return dst, true
}

// hasDotSegment reports whether path p has a "." or ".." segment, which
// the WHATWG parser would remove. (net/url escapes '%' in a decoded path,
// so the %2e forms cannot appear in p's serialization.)
func hasDotSegment(p string) bool {
	for {
		seg, rest, more := strings.Cut(p, "/")
		if seg == "." || seg == ".." {
			return true
		}
		if !more {
			return false
		}
		p = rest
	}
}

// appendBasePath appends base path p as net/url serializes it, escaping the
// bytes it escapes.
func appendBasePath(dst []byte, p string) []byte {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if in(c, loNetPath, hiNetPath) {
			dst = append(dst, c)
		} else {
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		}
	}
	return dst
}

// appendSegments appends the '/'-separated path segments of p to the path
// at dst[pathStart:], applying dot segments the WHATWG way ("." and ".."
// and their %2e forms; ".." never climbs above the root; a final "." or
// ".." leaves a trailing slash) and normalizing percent-encoding.
func appendSegments(dst []byte, pathStart int, p string) []byte {
	for {
		seg, rest, more := strings.Cut(p, "/")
		switch {
		case isDoubleDot(seg):
			if i := lastSlash(dst, pathStart); i >= 0 {
				dst = dst[:i]
			}
			if !more {
				dst = append(dst, '/')
			}
		case isSingleDot(seg):
			if !more {
				dst = append(dst, '/')
			}
		default:
			dst = append(dst, '/')
			dst = appendEscaped(dst, seg, loPathKeep, hiPathKeep)
		}
		if !more {
			return dst
		}
		p = rest
	}
}

func lastSlash(dst []byte, from int) int {
	for i := len(dst) - 1; i >= from; i-- {
		if dst[i] == '/' {
			return i
		}
	}
	return -1
}

// finish returns dst as the fast path's result, or an error when the
// normalized URL is longer than MaxRefLength (so that it can be normalized
// again).
func finish(dst []byte) (string, bool, error) {
	if len(dst) > MaxRefLength {
		return "", true, errTooLong
	}
	return string(dst), true, nil
}

// isCanonicalIPv4 reports whether host is an IPv4 address written exactly as
// the WHATWG URL serializer writes one: four decimal numbers 0-255 without
// leading zeros, separated by dots. Other IPv4 spellings (hex, octal, fewer
// parts, a trailing dot) are left to the full parser.
func isCanonicalIPv4(host string) bool {
	parts := 0
	for len(host) > 0 {
		i := strings.IndexByte(host, '.')
		part := host
		if i >= 0 {
			part, host = host[:i], host[i+1:]
			if host == "" {
				return false // trailing dot
			}
		} else {
			host = ""
		}
		if len(part) == 0 || len(part) > 3 || len(part) > 1 && part[0] == '0' {
			return false
		}
		v := 0
		for j := 0; j < len(part); j++ {
			if !isDigit(part[j]) {
				return false
			}
			v = v*10 + int(part[j]-'0')
		}
		if v > 255 {
			return false
		}
		parts++
	}
	return parts == 4
}
