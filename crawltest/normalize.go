package crawltest

import (
	"net/url"
	"strings"
)

// normalizeURL returns the form in which the web names its URLs: lower-case
// scheme and host, no default port, dot segments removed, percent-escapes of
// unreserved characters decoded and the others in upper case, no empty
// query, no fragment. It reports false for URLs that are not absolute http
// or https URLs.
func normalizeURL(rawURL string) (string, bool) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", false
	}
	host := strings.ToLower(u.Host)
	if scheme == "http" {
		host = strings.TrimSuffix(host, ":80")
	} else {
		host = strings.TrimSuffix(host, ":443")
	}
	host = strings.TrimSuffix(host, ":")
	if host == "" {
		return "", false
	}
	path := removeDotSegments(normEscapes(u.EscapedPath()))
	if path == "" {
		path = "/"
	}
	s := scheme + "://" + host + path
	if u.RawQuery != "" {
		s += "?" + normEscapes(u.RawQuery)
	}
	return s, true
}

func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// normEscapes decodes %XX of unreserved characters and upper-cases the hex
// digits of the others.
func normEscapes(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				c := hi<<4 | lo
				if unreserved(c) {
					b.WriteByte(c)
				} else {
					b.WriteByte('%')
					b.WriteByte(hexDigits[hi])
					b.WriteByte(hexDigits[lo])
				}
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// removeDotSegments implements RFC 3986 §5.2.4.
func removeDotSegments(p string) string {
	if !strings.Contains(p, ".") {
		return p
	}
	var out []string
	segs := strings.Split(p, "/")
	for i, s := range segs {
		last := i == len(segs)-1
		switch s {
		case ".":
			if last {
				out = append(out, "")
			}
		case "..":
			if len(out) > 1 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	r := strings.Join(out, "/")
	if strings.HasPrefix(p, "/") && !strings.HasPrefix(r, "/") {
		r = "/" + r
	}
	return r
}
