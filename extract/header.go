package extract

import (
	"net/http"
	"net/url"

	"github.com/trawl-dev/trawl/internal/ascii"
)

// HeaderLinks returns the references in an HTTP response's header, each
// resolved against base (the response URL) and normalized, in this order:
//
//   - Location, for a 3xx status or 201 Created (Kind Redirect, Tag
//     "location"); the first Location field only;
//   - Content-Location (Kind Redirect, Tag "content-location");
//   - Refresh, "5; url=/next" as in <meta http-equiv=refresh> (Kind
//     Redirect, Tag "refresh");
//   - Link (RFC 8288; Tag "link"): every link-value of every Link field, in
//     order. A field may hold several comma-separated values; a URI inside
//     <...> and quoted parameter values may contain commas and
//     semicolons; parameter names are case-insensitive, the first rel
//     and type parameters count. The Kind follows the rel values as for
//     <link> elements: stylesheet is Style; icon, preload, prefetch,
//     modulepreload and manifest are Embed; sitemap is Sitemap; alternate
//     with a feed type is Feed; dns-prefetch and preconnect (origins) and a
//     value without rel are skipped; any other rel is Navigation.
//     Link.Rel holds the recognised rel values and Link.Text the title
//     parameter.
//
// URLs that are empty, in-page fragments or not http(s) are dropped, as in
// Links; duplicates are kept. At most Options.MaxLinks links are returned,
// each URL at most Options.MaxAttrLen bytes before resolution; the work is
// linear in the header's size. A nil base keeps only absolute URLs.
// HeaderLinks is safe for concurrent use.
func HeaderLinks(h http.Header, status int, base *url.URL, opts *Options) []Link {
	lim := opts.limits()
	norm := normalizerOf(opts)
	var out []Link
	add := func(tag string, kind Kind, ref []byte, rel Rel, text string) {
		if len(out) >= lim.maxLinks || len(ref) > lim.maxAttrLen || skipHref(ref) {
			return
		}
		u, err := norm.ResolveString(base, string(ref))
		if err != nil {
			return
		}
		out = append(out, Link{URL: u, Text: text, Tag: tag, Kind: kind, Rel: rel})
	}
	if status == http.StatusCreated || 300 <= status && status < 400 {
		if v := h.Values("Location"); len(v) > 0 {
			add("location", Redirect, []byte(v[0]), 0, "")
		}
	}
	if v := h.Values("Content-Location"); len(v) > 0 {
		add("content-location", Redirect, []byte(v[0]), 0, "")
	}
	if v := h.Values("Refresh"); len(v) > 0 {
		if ref, ok := refreshURL([]byte(v[0])); ok {
			add("refresh", Redirect, ref, 0, "")
		}
	}
	for _, field := range h.Values("Link") {
		p := linkHeaderParser{b: []byte(field)}
		for len(out) < lim.maxLinks {
			lv, ok := p.next()
			if !ok {
				break
			}
			rel, class := parseRel(lv.rel)
			kind, ok := linkKind(lv.rel, class, rel, lv.typ)
			if !ok {
				continue
			}
			var title string
			if len(lv.title) > 0 {
				var sep byte
				t, _ := appendCollapsed(nil, lv.title, &sep, lim.maxLinkTextLen)
				title = string(t)
			}
			add("link", kind, lv.target, rel, title)
		}
	}
	return out
}

// linkValue is one link-value of a Link header field: the target URI
// reference and the parameters HeaderLinks uses, unescaped.
type linkValue struct {
	target, rel, typ, title []byte
}

// linkHeaderParser reads the link-values of one Link field value (RFC 8288
// section 3):
//
//	Link       = #link-value
//	link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )
//	link-param = token BWS [ "=" BWS ( token / quoted-string ) ]
//
// Malformed values are skipped up to the next comma outside quotes and
// angle brackets. Every byte is looked at a bounded number of times.
type linkHeaderParser struct {
	b []byte
	i int
}

func (p *linkHeaderParser) skipOWS() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t') {
		p.i++
	}
}

// skipToComma moves past the rest of a malformed link-value.
func (p *linkHeaderParser) skipToComma() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ',':
			return
		case '"':
			p.quoted()
			continue
		case '<':
			if k := indexByteFrom(p.b, p.i+1, '>'); k >= 0 {
				p.i = k + 1
				continue
			}
			p.i = len(p.b)
			return
		}
		p.i++
	}
}

func indexByteFrom(b []byte, from int, c byte) int {
	for j := from; j < len(b); j++ {
		if b[j] == c {
			return j
		}
	}
	return -1
}

func (p *linkHeaderParser) next() (lv linkValue, ok bool) {
	for {
		for p.i < len(p.b) && (p.b[p.i] == ',' || p.b[p.i] == ' ' || p.b[p.i] == '\t') {
			p.i++
		}
		if p.i >= len(p.b) {
			return lv, false
		}
		if p.b[p.i] != '<' {
			p.skipToComma()
			continue
		}
		end := indexByteFrom(p.b, p.i+1, '>')
		if end < 0 {
			p.i = len(p.b)
			return lv, false
		}
		lv = linkValue{target: p.b[p.i+1 : end]}
		p.i = end + 1
		var seenRel, seenType, seenTitle bool
		for {
			p.skipOWS()
			if p.i >= len(p.b) || p.b[p.i] == ',' {
				return lv, true
			}
			if p.b[p.i] != ';' {
				// Garbage after the target or a parameter: skip to the
				// next parameter or value.
				for p.i < len(p.b) && p.b[p.i] != ';' && p.b[p.i] != ',' {
					if p.b[p.i] == '"' {
						p.quoted()
						continue
					}
					p.i++
				}
				continue
			}
			p.i++
			p.skipOWS()
			ns := p.i
			for p.i < len(p.b) && isTokenByte(p.b[p.i]) {
				p.i++
			}
			name := p.b[ns:p.i]
			p.skipOWS()
			var val []byte
			if p.i < len(p.b) && p.b[p.i] == '=' {
				p.i++
				p.skipOWS()
				if p.i < len(p.b) && p.b[p.i] == '"' {
					val = p.quoted()
				} else {
					vs := p.i
					for p.i < len(p.b) && isTokenByte(p.b[p.i]) {
						p.i++
					}
					val = p.b[vs:p.i]
				}
			}
			switch {
			case ascii.EqualFold(name, "rel") && !seenRel:
				lv.rel, seenRel = val, true
			case ascii.EqualFold(name, "type") && !seenType:
				lv.typ, seenType = val, true
			case ascii.EqualFold(name, "title") && !seenTitle:
				lv.title, seenTitle = val, true
			}
		}
	}
}

// quoted consumes a quoted-string at p.i and returns its value with
// quoted-pairs unescaped (in place: the parser owns a copy of the field).
// An unterminated string runs to the end.
func (p *linkHeaderParser) quoted() []byte {
	p.i++ // the opening quote
	start, w := p.i, p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		if c == '"' {
			p.i++
			return p.b[start:w:w]
		}
		if c == '\\' && p.i+1 < len(p.b) {
			p.i++
			c = p.b[p.i]
		}
		p.b[w] = c
		w++
		p.i++
	}
	return p.b[start:w:w]
}

// isTokenByte reports the tchar of RFC 9110: the bytes of a token.
func isTokenByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}
