package urlnorm

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	whatwg "github.com/nlnwa/whatwg-url/url"
	"golang.org/x/net/idna"
)

// ErrScheme is wrapped by the errors returned for URLs whose scheme is not
// http or https (mailto:, javascript:, ftp:, data:, ...).
var ErrScheme = errors.New("urlnorm: scheme is not http or https")

// ErrInvalid is wrapped by the errors returned for URLs that cannot be parsed
// or resolved, and for URLs whose host cannot be fetched.
var ErrInvalid = errors.New("urlnorm: invalid URL")

// Resolve resolves ref against base the way browsers do (WHATWG URL
// Standard) and returns the absolute URL, not normalized beyond what the
// standard itself does (the fragment, for one, is kept). A nil base means
// ref must be absolute. The result's String method returns exactly the
// WHATWG serialization (the href).
//
// Resolve returns an error wrapping ErrScheme when the result is not an http
// or https URL, and one wrapping ErrInvalid when ref (or base) cannot be
// parsed or ref is longer than MaxRefLength. base is not modified.
//
// A few WHATWG serializations cannot be held in the usual fields of a
// url.URL without net/url re-encoding them on output (a raw '|' or '^' or a
// lone '%' in the path, for example). For those, Resolve sets Opaque to
// "//" + authority + path so that String (and an HTTP request) reproduces
// the path byte for byte; Host and Path are still filled in. Use
// Normalizer.ResolveString when a canonical string is what you need.
//
// net/url cannot hold an empty fragment ("page#") nor a fragment whose
// bytes it would re-encode ('#', '\' or a lone '%' in the fragment): for
// those, String differs from the WHATWG href in the fragment only.
// ResolveHref returns the exact href.
func Resolve(base *url.URL, ref string) (*url.URL, error) {
	baseStr := ""
	if base != nil {
		baseStr = base.String()
	}
	w, err := parseWHATWG(baseStr, ref)
	if err != nil {
		return nil, err
	}
	if s := w.Scheme(); s != "http" && s != "https" {
		return nil, fmt.Errorf("%w: %q", ErrScheme, s)
	}
	return toURL(w)
}

// MaxRefLength is the length in bytes above which a ref (or a URL to
// normalize), or a normalized result, is rejected with an error wrapping
// ErrInvalid. Longer URLs are
// very rare in real pages, and the WHATWG parser's time grows faster than
// linearly with some inputs.
const MaxRefLength = 8192

// maxAtSigns bounds the '@' bytes in a ref: the WHATWG parser's time is
// quadratic in the '@' signs of an authority.
const maxAtSigns = 32

var errTooLong = fmt.Errorf("%w: longer than %d bytes", ErrInvalid, MaxRefLength)

// checkLimits returns an error for refs beyond MaxRefLength or maxAtSigns.
func checkLimits(ref string) error {
	if len(ref) > MaxRefLength {
		return errTooLong
	}
	if strings.Count(ref, "@") > maxAtSigns {
		return fmt.Errorf("%w: more than %d '@'", ErrInvalid, maxAtSigns)
	}
	return nil
}

// ResolveHref resolves ref against base like Resolve and returns the exact
// WHATWG serialization (href) of the result, fragment included, without
// the limits of net/url's URL type. A nil base means ref must be absolute.
// Errors are those of Resolve.
func ResolveHref(base *url.URL, ref string) (string, error) {
	baseStr := ""
	if base != nil {
		baseStr = base.String()
	}
	w, err := parseWHATWG(baseStr, ref)
	if err != nil {
		return "", err
	}
	if s := w.Scheme(); s != "http" && s != "https" {
		return "", fmt.Errorf("%w: %q", ErrScheme, s)
	}
	return w.Href(false), nil
}

// parseWHATWG parses ref against base (empty: no base) with the WHATWG
// parser, working around its rejection of ASCII "xn--" labels whose
// punycode decodes to code points that IDNA maps (see hostFix).
func parseWHATWG(base, ref string) (*whatwg.Url, error) {
	if err := checkLimits(ref); err != nil {
		return nil, err
	}
	var fix hostFix
	p := whatwg.NewParser(
		whatwg.WithPreParseHostFunc(fix.pre),
		whatwg.WithPostParseHostFunc(fix.post),
	)
	var (
		w   *whatwg.Url
		err error
	)
	if base == "" {
		w, err = p.Parse(ref)
	} else {
		w, err = p.ParseRef(base, ref)
	}
	if err != nil {
		return nil, fmt.Errorf("%w %q: %w", ErrInvalid, ref, err)
	}
	return w, nil
}

// placeholderHost stands in for a host that hostFix handles itself. It
// passes IDNA unchanged and does not end in a number, so the parser always
// calls the post-parse hook for it.
const placeholderHost = "urlnorm-placeholder.invalid"

// hostFix handles all-ASCII hosts with "xn--" labels. The WHATWG standard
// (UTS #46 as the URL Standard calls it today, and the web-platform-tests)
// accepts such labels when their punycode decodes, and the result is the
// host lower-cased; nlnwa/whatwg-url runs full IDNA validation on the
// decoded label and rejects, for example, "xn--pokxncvks" and "xn--". The
// pre-parse hook swaps such a host for a placeholder and remembers it; the
// post-parse hook puts it back. A hostFix serves one parse at a time.
type hostFix struct {
	saved  string
	active bool
}

func (f *hostFix) pre(_ *whatwg.Url, host string) string {
	f.active = false
	if !asciiPunycodeHost(host) {
		return host
	}
	f.saved = strings.ToLower(host)
	f.active = true
	return placeholderHost
}

func (f *hostFix) post(_ *whatwg.Url, host string) string {
	if f.active && host == placeholderHost {
		f.active = false
		return f.saved
	}
	return host
}

// asciiPunycodeHost reports whether host is all ASCII, free of forbidden
// domain code points and percent signs, has at least one "xn--" label (any
// case) whose punycode decodes, and does not end in a number (so it is not
// an IPv4 candidate).
func asciiPunycodeHost(host string) bool {
	if host == "" {
		return false
	}
	for i := 0; i < len(host); i++ {
		c := host[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("#%/:<>?@[\\]^|", c) >= 0 {
			return false
		}
	}
	h := strings.TrimSuffix(host, ".")
	last := h[strings.LastIndexByte(h, '.')+1:]
	if last == "" || isDigit(last[0]) {
		return false
	}
	found := false
	for label := range strings.SplitSeq(h, ".") {
		if len(label) < 4 || !strings.EqualFold(label[:4], "xn--") {
			continue
		}
		if _, err := idna.Punycode.ToUnicode(strings.ToLower(label)); err != nil {
			return false
		}
		found = true
	}
	return found
}

// toURL converts a parsed WHATWG URL into a net/url URL whose String method
// returns w's href exactly whenever net/url can represent it.
func toURL(w *whatwg.Url) (*url.URL, error) {
	href := w.Href(false)
	if u, err := url.Parse(href); err == nil && u.String() == href {
		return u, nil
	}
	noFrag := w.Href(true)
	u, err := url.Parse(noFrag)
	if err != nil || u.String() != noFrag {
		// Keep authority and path verbatim in Opaque.
		rest := noFrag[len(w.Scheme())+1:]
		u = &url.URL{Scheme: w.Scheme(), Host: w.Host()}
		if i := strings.IndexByte(rest, '?'); i >= 0 {
			u.RawQuery = rest[i+1:]
			u.ForceQuery = u.RawQuery == ""
			rest = rest[:i]
		}
		u.Opaque = rest
		p := w.Pathname()
		u.Path = p
		if dp, err := url.PathUnescape(p); err == nil {
			u.Path = dp
		}
		if w.Username() != "" || w.Password() != "" {
			user, _ := url.PathUnescape(w.Username())
			if w.Password() != "" {
				pass, _ := url.PathUnescape(w.Password())
				u.User = url.UserPassword(user, pass)
			} else {
				u.User = url.User(user)
			}
		}
	}
	if len(href) > len(noFrag) {
		frag := href[len(noFrag)+1:]
		u.Fragment = frag
		if f, err := url.PathUnescape(frag); err == nil {
			u.Fragment = f
		}
		u.RawFragment = frag
	}
	return u, nil
}
