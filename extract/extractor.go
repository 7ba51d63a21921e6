package extract

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// RawLink is a link as the Extractor found it: the attribute value before
// resolution against the base URL. Its slices point into buffers owned by
// the Extractor and are valid only until the next call to Next or Reset;
// copy what must outlive that. A RawLink must not be shared between
// goroutines while its Extractor runs.
type RawLink struct {
	Href []byte // attribute value with character references decoded, unresolved
	Text []byte // anchor text (or alt/title), whitespace-collapsed, at most MaxLinkTextLen bytes
	Tag  string // "a", "area", "frame", "iframe", "link" or "meta"
	Rel  Rel
}

// Extractor is the zero-copy tier under Links: it scans one HTML document
// at a time over the golang.org/x/net/html tokenizer and yields its links
// one by one, and collects the page-level signals on the way. After the
// first documents have grown its buffers, the Extractor itself allocates
// nothing per link.
//
// The call sequence is Reset, then Next until it returns false, reading
// Link after each true; then Err, Truncated and the page-level accessors
// (Title, Robots, BaseHref, CanonicalHref, Lang, Text). Reset starts the
// next document and reuses every buffer.
//
// An Extractor is not safe for concurrent use; give each worker its own.
type Extractor struct {
	lim     limits
	botName string
	z       *html.Tokenizer

	tokens    int
	links     int
	done      bool
	err       error
	truncated bool

	cur              RawLink
	curHref, curText []byte

	// The open <a> element, whose text is still being collected.
	inA                        bool
	aHref, aText, aAlt, aTitle []byte
	aSep                       byte
	aRel                       Rel

	pendingRaw rawKind // how to treat the next text token
	foreign    int     // depth inside <svg> or <math>
	template   int     // depth inside <template>

	title     []byte
	titleDone bool
	base      []byte
	baseSeen  bool
	canonical []byte
	canonSeen bool
	lang      []byte
	langSeen  bool
	htmlSeen  bool
	robots    Robots
	text      []byte
	textSep   byte
	textFull  bool
	nameBuf   [16]byte
	at        attrs
	scratch   []byte // decoded attribute values of the current tag
}

type rawKind uint8

const (
	rawNone    rawKind = iota
	rawSkip            // script, style, noscript, iframe ...: not visible text
	rawTitle           // <title>
	rawVisible         // textarea, xmp, plaintext: visible text
)

// attrs holds the attributes the Extractor looks at; nil means absent.
type attrs struct {
	href, src, rel, alt, title, name, content, httpEquiv, lang []byte
}

// NewExtractor returns an Extractor with the bounds in opts (nil means
// defaults). Call Reset before the first Next.
func NewExtractor(opts *Options) *Extractor {
	e := &Extractor{lim: opts.limits(), done: true}
	if opts != nil {
		e.botName = opts.BotName
	}
	return e
}

// Reset starts scanning the document read from r, forgetting the previous
// one. The input is assumed to be UTF-8 (fetchers convert other charsets).
func (e *Extractor) Reset(r io.Reader) {
	e.z = html.NewTokenizer(r)
	e.z.SetMaxBuf(e.lim.maxTokenLen)
	e.tokens, e.links, e.done, e.err, e.truncated = 0, 0, false, nil, false
	e.cur = RawLink{}
	e.inA, e.aRel = false, 0
	e.pendingRaw, e.foreign, e.template = rawNone, 0, 0
	e.title, e.titleDone = e.title[:0], false
	e.base, e.baseSeen = e.base[:0], false
	e.canonical, e.canonSeen = e.canonical[:0], false
	e.lang, e.langSeen, e.htmlSeen = e.lang[:0], false, false
	e.robots = Robots{}
	e.text, e.textSep, e.textFull = e.text[:0], 0, false
}

// Next advances to the next link and reports whether there is one. It
// returns false at the end of the document, on a read error, or when
// MaxTokens or MaxTokenLen stops the scan. An <a> link is reported when
// its element ends, so that its text is complete.
func (e *Extractor) Next() bool {
	for !e.done {
		if e.tokens >= e.lim.maxTokens {
			e.truncated = true
			e.done = true
			return e.closeAnchor()
		}
		e.tokens++
		switch e.z.Next() {
		case html.ErrorToken:
			e.done = true
			if err := e.z.Err(); err != io.EOF {
				if errors.Is(err, html.ErrBufferExceeded) {
					e.truncated = true
				} else {
					e.err = fmt.Errorf("extract: read: %w", err)
				}
			}
			return e.closeAnchor()
		case html.TextToken:
			e.textToken()
		case html.StartTagToken:
			if e.startTag(false) {
				return true
			}
		case html.SelfClosingTagToken:
			if e.startTag(true) {
				return true
			}
		case html.EndTagToken:
			if e.endTag() {
				return true
			}
		default: // comments and doctypes
			e.pendingRaw = rawNone
		}
	}
	return false
}

// Link returns the link found by the last call to Next that returned true.
// Its slices are valid until the next call to Next or Reset.
func (e *Extractor) Link() RawLink { return e.cur }

// Err returns the error that ended the scan early, other than io.EOF:
// an error from the reader. Malformed HTML is never an error.
func (e *Extractor) Err() error { return e.err }

// Truncated reports that a document bound was hit: MaxTokens or
// MaxTokenLen stopped the scan, MaxLinks links were reported and more were
// dropped, or the page text reached MaxTextLen. Per-item caps (link text,
// attribute length) do not count.
func (e *Extractor) Truncated() bool { return e.truncated }

// Title returns the text of the first <title> element, whitespace-collapsed
// and at most 1024 bytes. Like the other page-level accessors it is
// complete once Next has returned false, and valid until Reset.
func (e *Extractor) Title() []byte { return e.title }

// Robots returns the directives of <meta name="robots"> and of
// <meta name=BOTNAME> (Options.BotName), merged.
func (e *Extractor) Robots() Robots { return e.robots }

// BaseHref returns the href of the first <base href> element, unresolved,
// and whether there was one.
func (e *Extractor) BaseHref() ([]byte, bool) { return e.base, e.baseSeen }

// CanonicalHref returns the href of the first <link rel="canonical">,
// unresolved, and whether there was one.
func (e *Extractor) CanonicalHref() ([]byte, bool) { return e.canonical, e.canonSeen }

// Lang returns the document language: the lang (or xml:lang) attribute of
// <html>, else the first value of <meta http-equiv="content-language">;
// trimmed, at most 64 bytes, empty if unknown.
func (e *Extractor) Lang() []byte { return e.lang }

// Text returns the visible text of the document: text outside script,
// style, noscript, template, iframe and title elements, with runs of
// whitespace collapsed to one space and a '\n' between block-level
// elements; at most MaxTextLen bytes.
func (e *Extractor) Text() []byte { return e.text }

const (
	maxTitleLen = 1024
	maxLangLen  = 64
)

// closeAnchor ends the open <a> element and makes it the current link.
func (e *Extractor) closeAnchor() bool {
	if !e.inA {
		return false
	}
	e.inA = false
	if e.links >= e.lim.maxLinks {
		e.truncated = true
		return false
	}
	e.links++
	if len(e.aText) == 0 {
		var sep byte
		src := e.aAlt
		if len(src) == 0 {
			src = e.aTitle
		}
		e.aText, _ = appendCollapsed(e.aText, src, &sep, e.lim.maxLinkTextLen)
	}
	e.curHref, e.aHref = e.aHref, e.curHref[:0]
	e.curText, e.aText = e.aText, e.curText[:0]
	e.cur = RawLink{Href: e.curHref, Text: e.curText, Tag: "a", Rel: e.aRel}
	return true
}

// emit makes a link of an element without content the current link.
func (e *Extractor) emit(tag string, href []byte, rel Rel, text []byte) bool {
	if href == nil || len(href) > e.lim.maxAttrLen || skipHref(href) {
		return false
	}
	if e.links >= e.lim.maxLinks {
		e.truncated = true
		return false
	}
	e.links++
	var sep byte
	e.curHref = append(e.curHref[:0], href...)
	e.curText, _ = appendCollapsed(e.curText[:0], text, &sep, e.lim.maxLinkTextLen)
	e.cur = RawLink{Href: e.curHref, Text: e.curText, Tag: tag, Rel: rel}
	return true
}

// tagName lower-cases the tag name of raw, which starts at offset start, into
// e.nameBuf and returns it with the offset just after it. Names longer than
// the buffer come back empty: no tag the Extractor knows is that long.
func (e *Extractor) tagName(raw []byte, start int) (name []byte, end int) {
	end = start
	for end < len(raw) {
		c := raw[end]
		if isSpace(c) || c == '/' || c == '>' {
			break
		}
		end++
	}
	if end-start > len(e.nameBuf) {
		return nil, end
	}
	n := copy(e.nameBuf[:], raw[start:end])
	lowerASCII(e.nameBuf[:n])
	return e.nameBuf[:n], end
}

func (e *Extractor) textToken() {
	kind := e.pendingRaw
	e.pendingRaw = rawNone
	switch kind {
	case rawSkip:
		return
	case rawTitle:
		if !e.titleDone {
			var sep byte
			e.title, _ = appendCollapsed(e.title[:0], e.z.Text(), &sep, maxTitleLen)
			e.titleDone = len(e.title) > 0
		}
		return
	}
	if e.template > 0 {
		return
	}
	// The raw bytes are the text unless they hold something Text would
	// decode; IndexByte is much faster than Text's byte-by-byte CR scan.
	t := e.z.Raw()
	if bytes.IndexByte(t, '&') >= 0 || bytes.IndexByte(t, '\r') >= 0 || bytes.IndexByte(t, 0) >= 0 {
		t = e.z.Text()
	}
	if e.inA {
		e.aText, _ = appendCollapsed(e.aText, t, &e.aSep, e.lim.maxLinkTextLen)
	}
	if !e.textFull {
		var full bool
		e.text, full = appendCollapsed(e.text, t, &e.textSep, e.lim.maxTextLen)
		if full {
			e.textFull, e.truncated = true, true
		}
	}
}

// breakText records a block boundary (sep '\n') or an inline break
// (sep ' ') in the page text and the open anchor text.
func (e *Extractor) breakText(sep byte) {
	if sep == '\n' || e.textSep == 0 {
		e.textSep = sep
	}
	if e.inA {
		e.aSep = ' '
	}
}

func (e *Extractor) startTag(selfClosing bool) bool {
	e.pendingRaw = rawNone
	raw := e.z.Raw()
	name, nameEnd := e.tagName(raw, 1)
	switch string(name) {
	case "a":
		ready := e.closeAnchor()
		e.readAttrs(raw, nameEnd)
		if h := e.at.href; h != nil && len(h) <= e.lim.maxAttrLen && !skipHref(h) {
			e.inA = true
			e.aHref = append(e.aHref[:0], h...)
			e.aText, e.aSep = e.aText[:0], 0
			e.aAlt = e.aAlt[:0]
			e.aTitle = e.aTitle[:0]
			if len(e.at.title) <= e.lim.maxAttrLen {
				e.aTitle = append(e.aTitle, e.at.title...)
			}
			e.aRel, _ = parseRel(e.at.rel)
		}
		return ready
	case "area":
		e.readAttrs(raw, nameEnd)
		rel, _ := parseRel(e.at.rel)
		return e.emit("area", e.at.href, rel, e.boundedAttr(e.at.alt))
	case "frame", "iframe":
		tag := "frame"
		if name[0] == 'i' {
			tag = "iframe"
			e.rawElement(rawSkip)
		}
		e.readAttrs(raw, nameEnd)
		return e.emit(tag, e.at.src, 0, e.boundedAttr(e.at.title))
	case "link":
		e.readAttrs(raw, nameEnd)
		rel, resource := parseRel(e.at.rel)
		if resource || rel&(RelCanonical|RelAlternate|RelNext|RelPrev) == 0 {
			return false
		}
		if rel&RelCanonical != 0 && !e.canonSeen && e.at.href != nil && len(e.at.href) <= e.lim.maxAttrLen {
			e.canonSeen = true
			e.canonical = append(e.canonical[:0], e.at.href...)
		}
		return e.emit("link", e.at.href, rel, e.boundedAttr(e.at.title))
	case "meta":
		return e.meta(raw, nameEnd)
	case "base":
		e.readAttrs(raw, nameEnd)
		if !e.baseSeen && e.at.href != nil && len(e.at.href) <= e.lim.maxAttrLen {
			e.baseSeen = true
			e.base = append(e.base[:0], e.at.href...)
		}
	case "html":
		if !e.htmlSeen {
			e.htmlSeen = true
			e.readAttrs(raw, nameEnd)
			if e.at.lang != nil {
				e.setLang(e.at.lang)
			}
		}
	case "img":
		if e.inA && len(e.aAlt) == 0 {
			e.readAttrs(raw, nameEnd)
			if len(e.at.alt) <= e.lim.maxAttrLen {
				e.aAlt = append(e.aAlt, e.at.alt...)
			}
		}
	case "title":
		e.rawElement(rawTitle)
	case "script", "style", "noscript", "noembed", "noframes":
		e.rawElement(rawSkip)
	case "textarea", "xmp", "plaintext":
		e.rawElement(rawVisible)
	case "template":
		if !selfClosing {
			e.template++
		}
	case "svg", "math":
		if !selfClosing {
			e.foreign++
		}
	case "br", "td", "th", "wbr":
		e.breakText(' ')
	default:
		if isBlock(name) {
			e.breakText('\n')
		}
	}
	return false
}

// rawElement notes that the tokenizer will return the element's content as
// one raw text token — except inside SVG or MathML, where, as in the HTML
// parser, the content is markup.
func (e *Extractor) rawElement(kind rawKind) {
	if e.foreign > 0 {
		e.z.NextIsNotRawText()
		return
	}
	e.pendingRaw = kind
}

func (e *Extractor) endTag() bool {
	e.pendingRaw = rawNone
	name, _ := e.tagName(e.z.Raw(), 2)
	switch string(name) {
	case "a":
		return e.closeAnchor()
	case "template":
		if e.template > 0 {
			e.template--
		}
	case "svg", "math":
		if e.foreign > 0 {
			e.foreign--
		}
	case "br", "td", "th":
		e.breakText(' ')
	default:
		if isBlock(name) {
			e.breakText('\n')
		}
	}
	return false
}

func (e *Extractor) meta(raw []byte, nameEnd int) bool {
	e.readAttrs(raw, nameEnd)
	at := &e.at
	if at.content == nil || len(at.content) > e.lim.maxAttrLen {
		return false
	}
	switch {
	case equalFoldASCII(at.httpEquiv, "refresh"):
		if ref, ok := refreshURL(at.content); ok {
			return e.emit("meta", ref, 0, nil)
		}
	case equalFoldASCII(at.httpEquiv, "content-language"):
		if !e.langSeen {
			v := at.content
			for i, c := range v {
				if c == ',' {
					v = v[:i]
					break
				}
			}
			e.setLang(v)
		}
	case equalFoldASCII(at.name, "robots") ||
		e.botName != "" && len(at.name) == len(e.botName) && equalFoldString(at.name, e.botName):
		// One string per robots meta element, not per link.
		e.robots = e.robots.Merge(ParseRobots(string(at.content), e.botName))
	}
	return false
}

func (e *Extractor) setLang(v []byte) {
	v = trimSpace(v)
	if len(v) == 0 {
		return
	}
	if len(v) > maxLangLen {
		v = v[:maxLangLen]
	}
	e.langSeen = true
	e.lang = append(e.lang[:0], v...)
}

// boundedAttr drops attribute values longer than MaxAttrLen.
func (e *Extractor) boundedAttr(v []byte) []byte {
	if len(v) > e.lim.maxAttrLen {
		return nil
	}
	return v
}

// readAttrs fills e.at from the attributes of the tag token raw. The fast
// path slices the raw token in place; values that need decoding (character
// references, CR, NUL) send the whole tag through the tokenizer's TagAttr,
// which allocates but is exact.
func (e *Extractor) readAttrs(raw []byte, nameEnd int) {
	e.at = attrs{}
	e.scratch = e.scratch[:0]
	s := attrScanner{raw: raw, i: nameEnd}
	for {
		k, v, ok := s.next()
		if !ok {
			return
		}
		p := e.setAttr(k, v)
		if p == nil || !needsDecode(v) {
			continue
		}
		// "&amp;" and the like are common in hrefs: decode them into
		// scratch. Earlier values stay valid if append moves scratch.
		start := len(e.scratch)
		var ok2 bool
		e.scratch, ok2 = appendDecodedAttr(e.scratch, v)
		if !ok2 {
			break
		}
		*p = e.scratch[start:len(e.scratch):len(e.scratch)]
	}
	e.at = attrs{}
	for {
		k, v, more := e.z.TagAttr()
		if k != nil {
			e.setAttr(k, v)
		}
		if !more {
			return
		}
	}
}

// appendDecodedAttr appends the attribute value v to dst decoded as the
// tokenizer's TagAttr would, for the common cases only: CR and CRLF become
// LF, NUL becomes U+FFFD, and the five character references &amp; &lt;
// &gt; &quot; &apos; (with their semicolon) are decoded. ok is false for
// any other '&', which needs the full entity table.
func appendDecodedAttr(dst, v []byte) (out []byte, ok bool) {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\r':
			dst = append(dst, '\n')
			if i+1 < len(v) && v[i+1] == '\n' {
				i++
			}
		case 0:
			dst = append(dst, "\uFFFD"...)
		case '&':
			var r byte
			n := 0
			switch rest := v[i+1:]; {
			case bytes.HasPrefix(rest, []byte("amp;")):
				r, n = '&', 4
			case bytes.HasPrefix(rest, []byte("quot;")):
				r, n = '"', 5
			case bytes.HasPrefix(rest, []byte("apos;")):
				r, n = '\'', 5
			case bytes.HasPrefix(rest, []byte("lt;")):
				r, n = '<', 3
			case bytes.HasPrefix(rest, []byte("gt;")):
				r, n = '>', 3
			default:
				return dst, false
			}
			dst = append(dst, r)
			i += n
		default:
			dst = append(dst, c)
		}
	}
	return dst, true
}

// setAttr stores v if k is an attribute the Extractor wants and the first
// of its name, and returns the field it stored it in, or nil.
func (e *Extractor) setAttr(k, v []byte) *[]byte {
	var p *[]byte
	switch {
	case equalFoldASCII(k, "href"):
		p = &e.at.href
	case equalFoldASCII(k, "src"):
		p = &e.at.src
	case equalFoldASCII(k, "rel"):
		p = &e.at.rel
	case equalFoldASCII(k, "alt"):
		p = &e.at.alt
	case equalFoldASCII(k, "title"):
		p = &e.at.title
	case equalFoldASCII(k, "name"):
		p = &e.at.name
	case equalFoldASCII(k, "content"):
		p = &e.at.content
	case equalFoldASCII(k, "http-equiv"):
		p = &e.at.httpEquiv
	case equalFoldASCII(k, "lang"):
		p = &e.at.lang
	case equalFoldASCII(k, "xml:lang"):
		if e.at.lang != nil {
			return nil
		}
		p = &e.at.lang
	default:
		return nil
	}
	if *p != nil {
		return nil
	}
	if v == nil {
		v = e.nameBuf[:0] // present but empty, as in <a href>
	}
	*p = v
	return p
}

func needsDecode(v []byte) bool {
	for _, c := range v {
		if c == '&' || c == '\r' || c == 0 {
			return true
		}
	}
	return false
}

// attrScanner walks the attributes of a start-tag token's raw bytes with
// exactly the state machine of the x/net/html tokenizer's readTag, so that
// it finds the same key and value spans without the tokenizer's per-attribute
// copies. Values come back undecoded.
type attrScanner struct {
	raw []byte
	i   int
}

func (s *attrScanner) skipSpace() {
	for s.i < len(s.raw) && isSpace(s.raw[s.i]) {
		s.i++
	}
}

// next returns the next attribute with a non-empty key.
func (s *attrScanner) next() (key, val []byte, ok bool) {
	for {
		s.skipSpace()
		if s.i >= len(s.raw) || s.raw[s.i] == '>' {
			return nil, nil, false
		}
		// Attribute key: up to whitespace, '/', '>' or an '=' that is not
		// the key's first byte.
		ks := s.i
		s.i++
		if s.raw[ks] == '/' || isSpace(s.raw[ks]) {
			s.i = ks // empty key; the value step consumes the '/'
		} else {
			for s.i < len(s.raw) {
				c := s.raw[s.i]
				if c == '=' || c == '/' || c == '>' || isSpace(c) {
					break
				}
				s.i++
			}
		}
		key = s.raw[ks:s.i]
		val = s.value()
		if len(key) > 0 {
			return key, val, true
		}
	}
}

// value reads an optional "= value" after a key.
func (s *attrScanner) value() []byte {
	s.skipSpace()
	if s.i >= len(s.raw) {
		return nil
	}
	c := s.raw[s.i]
	s.i++
	if c == '/' {
		return nil
	}
	if c != '=' {
		s.i--
		return nil
	}
	s.skipSpace()
	if s.i >= len(s.raw) {
		return nil
	}
	q := s.raw[s.i]
	s.i++
	switch q {
	case '>':
		s.i--
		return nil
	case '\'', '"':
		vs := s.i
		for s.i < len(s.raw) {
			if s.raw[s.i] == q {
				s.i++
				return s.raw[vs : s.i-1]
			}
			s.i++
		}
		return s.raw[vs:]
	default:
		vs := s.i - 1
		for s.i < len(s.raw) {
			c := s.raw[s.i]
			if isSpace(c) {
				s.i++
				return s.raw[vs : s.i-1]
			}
			if c == '>' {
				return s.raw[vs:s.i]
			}
			s.i++
		}
		return s.raw[vs:]
	}
}

// skipHref reports hrefs that can never yield a crawlable link, so that
// they neither use MaxLinks nor reach the resolver: empty ones, in-page
// fragments ("#top") and URLs with a scheme other than http or https
// (mailto:, javascript:, tel:, data: ...).
func skipHref(h []byte) bool {
	h = trimURLSpace(h)
	if len(h) == 0 || h[0] == '#' {
		return true
	}
	c := h[0]
	if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
		return false
	}
	for i := 1; i < len(h); i++ {
		c := h[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '+', c == '-', c == '.':
			continue
		case c == ':':
			return !equalFoldASCII(h[:i], "http") && !equalFoldASCII(h[:i], "https")
		}
		return false
	}
	return false
}

// trimURLSpace strips what the URL parser strips from both ends: C0
// controls and spaces.
func trimURLSpace(b []byte) []byte {
	for len(b) > 0 && b[0] <= ' ' {
		b = b[1:]
	}
	for len(b) > 0 && b[len(b)-1] <= ' ' {
		b = b[:len(b)-1]
	}
	return b
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// equalFoldString compares ASCII case-insensitively.
func equalFoldString(b []byte, s string) bool {
	for i := range len(b) {
		x, y := b[i], s[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// isBlock reports elements that start a new line of page text.
func isBlock(name []byte) bool {
	switch string(name) {
	case "address", "article", "aside", "blockquote", "body", "caption", "dd", "details",
		"dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form",
		"h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "li", "main", "nav",
		"ol", "option", "p", "pre", "section", "summary", "table", "tr", "ul", "head", "html":
		return true
	}
	return false
}

// appendCollapsed appends src to dst with runs of whitespace (ASCII and
// U+00A0) collapsed. *sep carries a pending separator across calls: 0 none,
// ' ' a space, '\n' a line break; it is written only between two non-space
// runs, so dst never starts or ends with one. At most limit bytes are kept,
// cut at a UTF-8 boundary; full reports that the limit was reached.
//
// Text is mostly words separated by single spaces, so the scan extends a
// segment over those and copies each segment with one append, skipping
// eight bytes at a time where no byte is below '!' or equal to 0xC2.
func appendCollapsed(dst, src []byte, sep *byte, limit int) (out []byte, full bool) {
	n := len(src)
	i := 0
	for i < n {
		c := src[i]
		if isSpace(c) {
			if *sep == 0 {
				*sep = ' '
			}
			i++
			continue
		}
		if c == 0xC2 && i+1 < n && src[i+1] == 0xA0 {
			if *sep == 0 {
				*sep = ' '
			}
			i += 2
			continue
		}
		j := i + 1
	scan:
		for j < n {
			for j+8 <= n && plainWord(binary.LittleEndian.Uint64(src[j:])) {
				j += 8
			}
			if j >= n {
				break
			}
			c := src[j]
			switch {
			case c > ' ' && c != 0xC2:
				j++
			case c == ' ' && j+1 < n && src[j+1] > ' ' && src[j+1] != 0xC2:
				j += 2 // a single space between words stays in the segment
			case c == 0xC2:
				if j+1 < n && src[j+1] == 0xA0 {
					break scan
				}
				j++
			case spaceMask&(1<<c) != 0:
				break scan
			default: // a control character that is not whitespace
				j++
			}
		}
		need := 0
		if *sep != 0 && len(dst) > 0 {
			need = 1
		}
		run := src[i:j]
		if len(dst)+need+len(run) > limit {
			// Cut before a rune start; in valid UTF-8 one is at most
			// UTFMax-1 bytes back, invalid input is cut anywhere.
			k := max(limit-len(dst)-need, 0)
			for lo := k - (utf8.UTFMax - 1); k > 0 && k > lo && !utf8.RuneStart(run[k]); {
				k--
			}
			cut := run[:k]
			if len(cut) > 0 && cut[len(cut)-1] == ' ' {
				cut = cut[:len(cut)-1] // never end on a separator
			}
			if len(cut) > 0 {
				if need == 1 {
					dst = append(dst, *sep)
				}
				dst = append(dst, cut...)
			}
			return dst, true
		}
		if need == 1 {
			dst = append(dst, *sep)
		}
		*sep = 0
		dst = append(dst, run...)
		i = j
	}
	return dst, false
}

// plainWord reports whether the eight bytes in x can be copied as they
// are: no control character or whitespace other than ' ', no 0xC2 (which
// may start U+00A0), no two adjacent spaces, and no space in the last byte
// (which the next byte might double). It may say false for a plain word,
// never true for another.
func plainWord(x uint64) bool {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
		lows  = 0x7F7F7F7F7F7F7F7F
	)
	y := x ^ 0xC2C2C2C2C2C2C2C2
	if ((x-0x20*ones)&^x|(y-ones)&^y)&highs != 0 {
		return false // some byte < 0x20 or == 0xC2 (may err towards false)
	}
	z := x ^ 0x20*ones
	sp := ^((z&lows + lows) | z | lows) // 0x80 exactly at the space bytes
	return sp&(sp>>8) == 0 && sp>>56 == 0
}

// spaceMask has bit c set for each ASCII whitespace byte c.
const spaceMask = 1<<' ' | 1<<'\t' | 1<<'\n' | 1<<'\f' | 1<<'\r'
