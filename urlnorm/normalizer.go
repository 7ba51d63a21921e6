package urlnorm

import (
	"bytes"
	"fmt"
	"net/url"
	"slices"
	"strings"

	whatwg "github.com/nlnwa/whatwg-url/url"
)

// Normalizer normalizes and resolves URLs with a fixed set of rules: the
// default rules listed in the package documentation plus the optional ones
// chosen with Options. The zero value applies the default rules. A
// Normalizer is immutable after New and safe for concurrent use.
type Normalizer struct {
	sortQuery      bool
	removeTracking bool
	removeSession  bool
	removeIndex    bool
	foldWWW        bool
}

// Option configures a Normalizer. Options are applied in order; the last
// one for a rule wins.
type Option func(*Normalizer)

// WithSortQuery sorts query parameters by name, keeping the order of
// parameters that share a name and dropping empty ones:
// "?b=2&a=1&&a=0" becomes "?a=1&a=0&b=2". Default: false (query order is
// significant to some servers).
func WithSortQuery(on bool) Option { return func(n *Normalizer) { n.sortQuery = on } }

// WithRemoveTracking removes query parameters that only track campaigns
// and clicks: utm_* and gclid, gclsrc, dclid, fbclid, msclkid, yclid,
// twclid, igshid, mc_cid, mc_eid, _ga, _gl, _hsenc, _hsmi and mkt_tok,
// matched without regard to case. "?id=7&utm_source=x" becomes "?id=7".
// Default: false.
func WithRemoveTracking(on bool) Option { return func(n *Normalizer) { n.removeTracking = on } }

// WithRemoveSessionIDs removes session identifiers: the query parameters
// PHPSESSID, jsessionid, ASPSESSIONID* (any suffix), sessionid,
// session_id, sid, CFID, CFTOKEN, zenid and osCsid, matched without regard
// to case, and ";jsessionid=..." path parameters (kept when removing one
// would leave a "." or ".." segment).
// "/a;jsessionid=F00?PHPSESSID=1&p=2" becomes "/a?p=2". Default: false.
func WithRemoveSessionIDs(on bool) Option { return func(n *Normalizer) { n.removeSession = on } }

// WithRemoveDirectoryIndex removes a final path segment that names a
// directory index file, matched without regard to case: index.html,
// index.htm, index.shtml, index.php, index.asp, index.aspx, index.jsp,
// index.cgi, default.htm, default.html, default.asp or default.aspx.
// "/a/index.html" becomes "/a/". Default: false (the server decides what
// "/a/" serves).
func WithRemoveDirectoryIndex(on bool) Option { return func(n *Normalizer) { n.removeIndex = on } }

// WithFoldWWW removes leading "www." labels from the host while something
// with a dot remains: "www.example.com" and "www.www.example.com" become
// "example.com", "www.com" stays.
// Default: false (www.example.com and example.com may be different sites).
func WithFoldWWW(on bool) Option { return func(n *Normalizer) { n.foldWWW = on } }

// isTrackingParam reports whether the query parameter name (any case) is
// removed by WithRemoveTracking.
func isTrackingParam(name string) bool {
	if hasPrefixFold(name, "utm_") {
		return true
	}
	var buf [16]byte
	if len(name) > len(buf) {
		return false
	}
	for i := 0; i < len(name); i++ {
		buf[i] = lower(name[i])
	}
	switch string(buf[:len(name)]) {
	case "gclid", "gclsrc", "dclid", "fbclid", "msclkid", "yclid", "twclid", "igshid",
		"mc_cid", "mc_eid", "_ga", "_gl", "_hsenc", "_hsmi", "mkt_tok":
		return true
	}
	return false
}

// isSessionParam reports whether the query parameter name (any case) is
// removed by WithRemoveSessionIDs.
func isSessionParam(name string) bool {
	var buf [16]byte
	if len(name) > len(buf) {
		return false
	}
	for i := 0; i < len(name); i++ {
		buf[i] = lower(name[i])
	}
	if hasPrefixFold(name, "aspsessionid") {
		return true
	}
	switch string(buf[:len(name)]) {
	case "phpsessid", "jsessionid", "sessionid", "session_id", "sid",
		"cfid", "cftoken", "zenid", "oscsid":
		return true
	}
	return false
}

// isIndexFile reports whether the path segment (any case) is removed by
// WithRemoveDirectoryIndex.
func isIndexFile(seg []byte) bool {
	var buf [16]byte
	if len(seg) > len(buf) {
		return false
	}
	for i := 0; i < len(seg); i++ {
		buf[i] = lower(seg[i])
	}
	switch string(buf[:len(seg)]) {
	case "index.html", "index.htm", "index.shtml", "index.php", "index.asp", "index.aspx",
		"index.jsp", "index.cgi", "default.htm", "default.html", "default.asp", "default.aspx":
		return true
	}
	return false
}

// New returns a Normalizer with the default rules plus opts.
func New(opts ...Option) *Normalizer {
	n := &Normalizer{}
	for _, opt := range opts {
		opt(n)
	}
	return n
}

// Normalize returns the normalized form of the absolute URL rawURL under
// the default rules. It is New().Normalize(rawURL).
func Normalize(rawURL string) (string, error) {
	var n Normalizer
	return n.Normalize(rawURL)
}

// Normalize returns the normalized form of the absolute URL rawURL. rawURL
// is parsed the way browsers parse it (WHATWG URL Standard). The error
// wraps ErrScheme when rawURL is not http or https, and ErrInvalid when it
// cannot be parsed or its host cannot be fetched.
func (n *Normalizer) Normalize(rawURL string) (string, error) {
	return n.ResolveString(nil, rawURL)
}

// NormalizeURL returns the normalized form of u as a new URL. u is never
// modified. Errors are those of Normalize.
func (n *Normalizer) NormalizeURL(u *url.URL) (*url.URL, error) {
	s, err := n.Normalize(u.String())
	if err != nil {
		return nil, err
	}
	v, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("%w %q: %w", ErrInvalid, s, err)
	}
	return v, nil
}

// ResolveString resolves ref (an href as found in a page) against base (the
// page URL, or its <base href>) the way browsers do, and returns the
// normalized absolute URL. A nil base means ref must be absolute. The error
// wraps ErrScheme for refs that resolve to a scheme other than http or
// https (mailto:, javascript:, ...), and ErrInvalid for refs that cannot be
// resolved. base is not modified.
//
// This is the crawler's hot path (one call per extracted link). Plain ASCII
// refs against a plain http(s) base take a fast path that allocates only
// the result; everything else goes through the WHATWG parser. Both give the
// same result (see the package documentation).
func (n *Normalizer) ResolveString(base *url.URL, ref string) (string, error) {
	if s, ok, err := n.resolveFast(base, ref); ok {
		return s, err
	}
	return n.resolveSlow(base, ref)
}

// resolveSlow is ResolveString through the WHATWG parser.
func (n *Normalizer) resolveSlow(base *url.URL, ref string) (string, error) {
	baseStr := ""
	if base != nil {
		baseStr = base.String()
	}
	w, err := parseWHATWG(baseStr, ref)
	if err != nil {
		return "", err
	}
	var buf [256]byte
	dst, err := n.appendWHATWG(buf[:0], w)
	if err != nil {
		return "", err
	}
	if len(dst) > MaxRefLength {
		return "", errTooLong
	}
	return string(dst), nil
}

// appendWHATWG appends the normalized form of w.
func (n *Normalizer) appendWHATWG(dst []byte, w *whatwg.Url) ([]byte, error) {
	scheme := w.Scheme()
	if scheme != "http" && scheme != "https" {
		return dst, fmt.Errorf("%w: %q", ErrScheme, scheme)
	}
	dst = append(dst, scheme...)
	dst = append(dst, "://"...)
	// Userinfo is dropped: credentials do not identify a resource, and
	// no spelling of them survives both net/url and WHATWG re-parsing.
	host := w.Hostname()
	if !validHost(host) {
		return dst, fmt.Errorf("%w %q: host %q is not a DNS name or IP address", ErrInvalid, w.Href(true), host)
	}
	hostStart := len(dst)
	dst = append(dst, host...)
	dst = n.finishHost(dst, hostStart)
	if port := w.Port(); port != "" {
		dst = append(dst, ':')
		dst = append(dst, port...)
	}
	pathStart := len(dst)
	dst = appendEscaped(dst, w.Pathname(), loPathKeep, hiPathKeep)
	if len(dst) == pathStart {
		dst = append(dst, '/')
	}
	dst = n.finishPath(dst, pathStart)
	return n.appendQuery(dst, w.Query()), nil
}

// validHost reports whether a host produced by the WHATWG parser is one a
// crawler can fetch: an IPv6 literal, or labels of letters, digits, '-' and
// '_' with an optional trailing dot (IPv4 addresses are in this form),
// within DNS's limits of 63 bytes a label and 253 a name.
func validHost(h string) bool {
	if h == "" {
		return false
	}
	if h[0] == '[' {
		return true
	}
	h = strings.TrimSuffix(h, ".")
	if h == "" || len(h) > maxHostLen {
		return false
	}
	prevDot := true
	labelStart := 0
	for i := 0; i < len(h); i++ {
		c := h[i]
		switch {
		case c == '.':
			if prevDot || i-labelStart > maxLabelLen {
				return false
			}
			prevDot = true
			labelStart = i + 1
			continue
		case 'a' <= c && c <= 'z', isDigit(c), c == '-', c == '_':
		default:
			return false
		}
		prevDot = false
	}
	return !prevDot && len(h)-labelStart <= maxLabelLen
}

// DNS limits on names (RFC 1035 §2.3.4), without the trailing dot.
const (
	maxLabelLen = 63
	maxHostLen  = 253
)

// finishHost applies the host rules to the lower-case host at
// dst[hostStart:]: the trailing dot goes, and a leading "www." too when
// the Normalizer folds it.
func (n *Normalizer) finishHost(dst []byte, hostStart int) []byte {
	if len(dst) > hostStart && dst[len(dst)-1] == '.' {
		dst = dst[:len(dst)-1]
	}
	if n.foldWWW {
		for h := dst[hostStart:]; len(h) > 4 && string(h[:4]) == "www." && slices.Contains(h[4:], '.'); h = dst[hostStart:] {
			dst = append(dst[:hostStart], h[4:]...)
		}
	}
	return dst
}

// finishPath applies the optional path rules to the normalized path at
// dst[pathStart:].
func (n *Normalizer) finishPath(dst []byte, pathStart int) []byte {
	if n.removeSession {
		dst = removeJSessionID(dst, pathStart)
	}
	if n.removeIndex {
		i := bytes.LastIndexByte(dst[pathStart:], '/') + 1
		if isIndexFile(dst[pathStart+i:]) {
			dst = dst[:pathStart+i]
		}
	}
	return dst
}

// removeJSessionID removes ";jsessionid=..." path parameters (up to the
// next ';' or '/') from the path at dst[pathStart:].
func removeJSessionID(dst []byte, pathStart int) []byte {
	const param = ";jsessionid="
	for i := pathStart; i+len(param) <= len(dst); i++ {
		if dst[i] != ';' || !bytes.EqualFold(dst[i:i+len(param)], []byte(param)) {
			continue
		}
		seg := string(dst[lastSlash(dst[:i], pathStart)+1 : i])
		if isSingleDot(seg) || isDoubleDot(seg) {
			continue
		}
		j := i + 1
		for j < len(dst) && dst[j] != ';' && dst[j] != '/' {
			j++
		}
		dst = append(dst[:i], dst[j:]...)
		i--
	}
	return dst
}

// appendQuery appends "?" and the normalized query q, applying the optional
// query rules, or nothing when the query ends up empty.
func (n *Normalizer) appendQuery(dst []byte, q string) []byte {
	if q == "" {
		return dst
	}
	start := len(dst)
	dst = append(dst, '?')
	dst = appendQueryEscaped(dst, q)
	if n.sortQuery || n.removeTracking || n.removeSession {
		params := strings.Split(string(dst[start+1:]), "&")
		params = slices.DeleteFunc(params, func(p string) bool { return p == "" || n.dropParam(p) })
		if n.sortQuery {
			slices.SortStableFunc(params, func(a, b string) int {
				return strings.Compare(paramName(a), paramName(b))
			})
		}
		dst = dst[:start+1]
		for i, p := range params {
			if i > 0 {
				dst = append(dst, '&')
			}
			dst = append(dst, p...)
		}
	}
	if len(dst) == start+1 {
		dst = dst[:start]
	}
	return dst
}

func paramName(p string) string {
	if i := strings.IndexByte(p, '='); i >= 0 {
		return p[:i]
	}
	return p
}

// dropParam reports whether the optional rules remove query parameter p.
func (n *Normalizer) dropParam(p string) bool {
	name := paramName(p)
	return n.removeTracking && isTrackingParam(name) || n.removeSession && isSessionParam(name)
}

// Key returns the politeness key of u: its host in lower case, followed by
// ":port" when the port is not the scheme's default. IPv6 hosts keep their
// brackets. For a URL returned by Normalize, Key is its host[:port] as
// written and does not allocate.
func Key(u *url.URL) string {
	h := u.Host
	clean := true
	for i := 0; i < len(h); i++ {
		if 'A' <= h[i] && h[i] <= 'Z' {
			clean = false
			break
		}
	}
	port := u.Port()
	if clean && (port == "" || !isDefaultPort(u.Scheme, port)) && !strings.HasSuffix(h, ":") {
		return h
	}
	host := strings.ToLower(u.Hostname())
	if strings.IndexByte(host, ':') >= 0 {
		host = "[" + host + "]"
	}
	if port == "" || isDefaultPort(u.Scheme, port) {
		return host
	}
	return host + ":" + port
}

// KeyString returns the politeness key of the normalized form of rawURL.
// Errors are those of Normalize.
func KeyString(rawURL string) (string, error) {
	s, err := Normalize(rawURL)
	if err != nil {
		return "", err
	}
	s = s[strings.Index(s, "://")+3:]
	if i := strings.IndexAny(s, "/?"); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		s = s[i+1:]
	}
	return s, nil
}

func isDefaultPort(scheme, port string) bool {
	switch {
	case equalFold(scheme, "http"):
		return port == "80"
	case equalFold(scheme, "https"):
		return port == "443"
	}
	return false
}
