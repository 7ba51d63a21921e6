package extract

import (
	"bytes"
	"html"

	"github.com/trawl-dev/trawl/internal/ascii"
)

// This file holds what the Extractor does with Options.Speculative and
// Options.Scripts: the references it infers rather than reads.

// specText queues the URLs in a text token's raw bytes (Kind Speculative,
// Tag tag).
func (e *Extractor) specText(tag string, t []byte) {
	for i := 0; i < len(t); {
		u, next, ok := nextTextURL(t, i)
		if !ok {
			return
		}
		e.pushSpec(tag, u)
		i = next
	}
}

// pushSpec queues v, raw HTML, as a Speculative reference: the common
// character references are decoded; at any other '&' the URL is cut.
func (e *Extractor) pushSpec(tag string, v []byte) {
	if bytes.IndexByte(v, '&') >= 0 {
		dec, ok := appendDecodedAttr(e.specBuf[:0], v)
		if !ok {
			// "http://x.example/a.&#160;": cut, and trimmed again.
			dec = append(e.specBuf[:0], trimURLPunct(v[:bytes.IndexByte(v, '&')])...)
		}
		e.specBuf, v = dec, dec
	}
	e.push(tag, Speculative, 0, v, nil, nil)
}

// specMarkup handles a comment or a DOCTYPE token: URLs in a comment's
// text, the references of markup in it (IE conditional comments,
// commented-out code), and the DOCTYPE's system identifier.
func (e *Extractor) specMarkup(doctype bool) {
	data := e.z.Text()
	if doctype {
		// html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"
		for len(data) > 0 {
			q := bytes.IndexAny(data, `"'`)
			if q < 0 {
				return
			}
			end := bytes.IndexByte(data[q+1:], data[q])
			if end < 0 {
				end = len(data) - q - 1
			}
			if v := data[q+1 : q+1+end]; looksLikeURL(v, testValue) {
				e.push("!doctype", Speculative, 0, v, nil, nil)
			}
			data = data[min(q+2+end, len(data)):]
		}
		return
	}
	if bytes.IndexByte(data, '<') >= 0 {
		e.scanSub(data, subSpeculative)
		return
	}
	e.specText("!--", data)
}

// specMeta queues what the content of a meta element other than refresh,
// content-location, content-language and robots names: a
// Content-Security-Policy's report-uri values, a content that is a URL
// (og:image, msapplication-TileImage, msapplication-config ...), or URLs
// in a content that is prose.
func (e *Extractor) specMeta(httpEquiv, content []byte) {
	if ascii.EqualFold(httpEquiv, "content-security-policy") || ascii.EqualFold(httpEquiv, "content-security-policy-report-only") {
		for d := range bytes.SplitSeq(content, []byte(";")) {
			f := bytes.Fields(d) // allocates; CSP in a meta element is rare
			if len(f) > 1 && ascii.EqualFold(f[0], "report-uri") && len(f[0]) == len("report-uri") {
				for _, u := range f[1:] {
					e.push("meta", Speculative, 0, u, nil, nil)
				}
			}
		}
		return
	}
	if v := trimSpace(content); looksLikeURL(v, testValue) {
		e.push("meta", Speculative, 0, v, nil, nil)
		return
	}
	// Prose, or fields: "name=Home;action-uri=http://x.example/;icon-uri=...".
	for part := range bytes.SplitSeq(content, []byte(";")) {
		e.specText("meta", part)
	}
}

// urlParams are the param names whose value is a URL by convention.
var urlParams = []string{"movie", "src", "url", "filename", "href", "source", "data", "code", "codebase", "archive", "file"}

// param queues a <param value> that looks like a URL: strictly unless its
// name says it holds one.
func (e *Extractor) param(raw []byte, nameEnd int) {
	at := e.readAttrs(raw, nameEnd, wantName|wantValue)
	v := trimSpace(at.value)
	t := testValue
	for _, n := range urlParams {
		if len(at.name) == len(n) && ascii.EqualFold(at.name, n) {
			t = testSink
		}
	}
	if len(v) <= e.lim.maxAttrLen && looksLikeURL(v, t) {
		e.push("param", Speculative, 0, v, nil, nil)
	}
}

// lazyAttrs queues the URLs of lazy-loading attributes (data-src,
// data-srcset, data-original, data-lazy-src), which a script moves into
// src or srcset: a placeholder (often a data: URL) stands in src.
func (e *Extractor) lazyAttrs(tag string, raw []byte, nameEnd int) {
	at := e.readAttrs(raw, nameEnd, wantDataSrc|wantDataSrcset|wantDataOriginal|wantDataLazySrc)
	if at.seen == 0 {
		return
	}
	e.push(tag, Speculative, 0, trimSpace(at.dataSrc), nil, nil)
	e.push(tag, Speculative, 0, trimSpace(at.dataOriginal), nil, nil)
	e.push(tag, Speculative, 0, trimSpace(at.dataLazySrc), nil, nil)
	if v := at.dataSrcset; v != nil && len(v) <= e.lim.maxAttrLen {
		for i := 0; ; {
			u, next, ok := srcsetNext(v, i)
			if !ok {
				break
			}
			e.push(tag, Speculative, 0, u, nil, nil)
			i = next
		}
	}
}

// scriptTypeJS reports a <script type> whose content is JavaScript or
// JSON (JSON-LD, import maps): absent, empty, a JavaScript MIME type,
// "module", or a JSON type.
func scriptTypeJS(typ []byte) bool {
	typ = trimSpace(typ)
	if len(typ) == 0 {
		return true
	}
	for _, t := range []string{"text/javascript", "application/javascript", "module", "application/ecmascript", "text/ecmascript",
		"application/x-javascript", "text/jscript", "application/ld+json", "application/json", "importmap", "speculationrules"} {
		if len(typ) == len(t) && ascii.EqualFold(typ, t) {
			return true
		}
	}
	return false
}

// scanScript queues the URLs the JavaScript src names (Kind Script, Tag
// tag).
func (e *Extractor) scanScript(tag string, src []byte) {
	if e.js == nil {
		e.js = new(jsScanner)
		e.jsEmit = func(v []byte) { e.push(e.jsTag, Script, 0, v, nil, nil) }
	}
	e.jsTag = tag
	e.js.scan(src, e.lim, e.jsEmit)
}

// handlers scans the on* attributes of a tag (onclick, onload ...) as
// scripts. A quick look at the attribute names spares the attribute
// scanner on most tags.
func (e *Extractor) handlers(raw []byte, nameEnd int) {
	if !hasOnAttr(raw, nameEnd) {
		return
	}
	s := attrScanner{raw: raw, i: nameEnd}
	for {
		k, v, ok := s.next()
		if !ok {
			return
		}
		if len(k) <= 2 || k[0]|0x20 != 'o' || k[1]|0x20 != 'n' || len(v) == 0 || len(v) > e.lim.maxAttrLen {
			continue
		}
		if !s.plain {
			dec, ok := appendDecodedAttr(e.specBuf[:0], v)
			if !ok {
				dec = append(e.specBuf[:0], html.UnescapeString(string(v))...)
			}
			e.specBuf, v = dec, dec
		}
		e.scanScript("handler", v)
	}
}

// hasOnAttr reports whether a start tag raw may have an attribute whose
// name starts with "on", in any case, at or after offset i: an 'o' or
// 'O' after whitespace or '/' and before an 'n' or 'N'. It may say yes
// where there is none ("x on" in a value); the attribute scanner decides
// then. Of the tests tried, looking for the 'o' with bytes.IndexByte costs
// least (BenchmarkLinksNoScript, in instructions).
func hasOnAttr(raw []byte, i int) bool {
	if i < 1 {
		i = 1
	}
	for _, o := range [2]byte{'o', 'O'} {
		for k := i; k+1 < len(raw); {
			j := bytes.IndexByte(raw[k:len(raw)-1], o)
			if j < 0 {
				break
			}
			k += j
			if c := raw[k-1]; raw[k+1]|0x20 == 'n' && (isSpace(c) || c == '/') {
				return true
			}
			k++
		}
	}
	return false
}

// javascriptURL scans the script of a javascript: URL, percent-decoded as
// a browser does before running it, and reports whether h was one.
func (e *Extractor) javascriptURL(h []byte) bool {
	h = trimURLSpace(h)
	const scheme = "javascript:"
	if len(h) <= len(scheme) || !ascii.EqualFold(h[:len(scheme)], scheme) {
		return false
	}
	src := e.jsURLBuf[:0]
	b := h[len(scheme):]
	for i := 0; i < len(b); i++ {
		if b[i] == '%' && i+2 < len(b) && isHex(b[i+1]) && isHex(b[i+2]) {
			src = append(src, unhex(b[i+1])<<4|unhex(b[i+2]))
			i += 2
			continue
		}
		src = append(src, b[i])
	}
	e.jsURLBuf = src
	e.scanScript("javascript:", src)
	return true
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f' }

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c | 0x20 - 'a' + 10
}

// What scanSub does with the references of an embedded document.
type subMode uint8

const (
	subSrcdoc      subMode = iota // an iframe's srcdoc: a document of its own
	subSpeculative                // a comment's or <noscript>'s markup: every reference Speculative
)
