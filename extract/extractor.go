package extract

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"unicode/utf8"

	"github.com/trawl-dev/trawl/internal/ascii"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// RawLink is a reference as the Extractor found it: the attribute value
// (or CSS URL) before resolution against the base URL. Its slices point
// into buffers owned by the Extractor (Text often into the page text) and
// are valid only until the next call to Next or Reset; read them, do not
// write them, and copy what must outlive that. A RawLink must not be shared
// between goroutines while its Extractor runs.
type RawLink struct {
	Href []byte // attribute value with character references decoded, unresolved; empty only for a Form (see below)
	Text []byte // anchor text (or alt/title), whitespace-collapsed, at most MaxLinkTextLen bytes
	Tag  string // the element: "a", "img", "link", "meta" ...; "style" for CSS in a <style> element or style attribute
	Kind Kind   // what the reference is for
	Rel  Rel

	// Base, when not empty, is the base Href resolves against, itself to
	// be resolved against the document's base first: an object's or
	// applet's codebase, or the <base href> of an iframe's srcdoc document.
	// (The one link that does not resolve against the document's base is
	// the <base href> itself, Kind Speculative and Tag "base": it resolves
	// against the page URL.)
	Base []byte
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
	lim      limits
	botName  string
	skipText bool
	spec     bool // Options.Speculative
	scripts  bool // Options.Scripts
	z        tokenizer

	tokens    int
	links     int
	done      bool
	err       error
	truncated bool

	// The current link, which Link returns. Its fields are kept apart so
	// that setting one writes no more than it must.
	curHref, curText []byte // reused buffers of the last <a> link
	linkHref         []byte // the link's href: curHref or a slice of qBuf
	linkText         []byte // the link's text: curText, a slice of text or of qBuf
	linkBase         []byte
	linkTag          string
	linkKind         Kind
	linkRel          Rel

	// Links found but not yet returned: every link but <a>'s goes through
	// this queue, since one element or style sheet may hold several. Next
	// returns them before it reads on. Their bytes are in qBuf.
	q       []queued
	qPos    int
	qBuf    []byte
	textBuf []byte // a queued link's text, collapsed

	// <form> state, for the method of form submissions.
	inForm  bool
	formGet bool

	// The token whose attributes tagAttrs read through TagAttr, which
	// yields them only once, and what it read.
	allAttrsTok int
	allAttrs    attrs

	css   cssScanner // for <style> content and style attributes
	depth int        // srcdoc nesting: 0 for the document itself
	sub   *Extractor // for iframe srcdoc documents, made when first needed
	subR  bytes.Reader

	// The open <a> element, whose text is still being collected. Its
	// text is what the page text gains while it is open, so while that
	// holds (aDerived) it is read from text[aFrom:] when the element ends
	// and costs no second collapse. It is collected in aText instead with
	// SkipText, once the page text is full, and once the anchor text
	// outgrows MaxLinkTextLen.
	inA                        bool
	aDerived                   bool
	aFrom                      int
	aHref, aText, aAlt, aTitle []byte
	aPing                      []byte // its ping attribute, reported after it
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
	textNL    int // offset of the last line break in text, 0 if none
	nameBuf   [16]byte
	scratch   []byte // decoded attribute values of the current tag

	// Options.Speculative and Options.Scripts (discover.go).
	specBuf  []byte // a decoded speculative URL or handler
	jsURLBuf []byte // a javascript: URL's script, percent-decoded
	js       *jsScanner
	jsEmit   func([]byte) // queues a URL of the script being scanned
	jsTag    string       // its Tag

	refs []rawRef // Links's working space, when the Extractor is Links's
}

type rawKind uint8

const (
	rawNone     rawKind = iota
	rawSkip             // script, style, noscript, iframe ...: not visible text
	rawTitle            // <title>
	rawVisible          // textarea, xmp, plaintext: visible text
	rawStyle            // <style>: CSS, scanned for references
	rawScript           // <script> with Options.Scripts: JavaScript, scanned for URLs
	rawNoscript         // <noscript> with Options.Speculative: markup, scanned for references
)

// queued is a link in the Extractor's queue: its href, text and base are
// qBuf[hrefStart:hrefEnd], qBuf[hrefEnd:textEnd] and
// qBuf[baseStart:baseEnd].
type queued struct {
	hrefStart, hrefEnd, textEnd, baseStart, baseEnd int
	tag                                             string
	kind                                            Kind
	rel                                             Rel
}

// attrs holds the attributes the Extractor looks at; nil means absent.
type attrs struct {
	href, src, rel, alt, title, name, content, httpEquiv, lang []byte

	srcset, lowsrc, dynsrc, longdesc, ping, poster, data, codebase, code, archive []byte
	action, formaction, method, formmethod, cite, background, style, typ          []byte
	xlinkHref, srcdoc, imagesrcset, form                                          []byte
	manifest, value, dataSrc, dataSrcset, dataOriginal, dataLazySrc               []byte

	seen attrSet
}

// NewExtractor returns an Extractor with the bounds in opts (nil means
// defaults). Call Reset before the first Next.
func NewExtractor(opts *Options) *Extractor {
	e := &Extractor{lim: opts.limits(), done: true}
	if opts != nil {
		e.botName, e.skipText = opts.BotName, opts.SkipText
		e.spec, e.scripts = opts.Speculative, opts.Scripts
	}
	return e
}

// Reset starts scanning the document read from r, forgetting the previous
// one. The input is assumed to be UTF-8 (fetchers convert other charsets).
func (e *Extractor) Reset(r io.Reader) {
	e.z.reset(r, e.lim.maxTokenLen)
	e.tokens, e.links, e.done, e.err, e.truncated = 0, 0, false, nil, false
	e.curHref, e.linkHref, e.linkText, e.linkBase, e.linkTag, e.linkKind, e.linkRel = e.curHref[:0], nil, nil, nil, "", 0, 0
	e.q, e.qPos, e.qBuf = e.q[:0], 0, e.qBuf[:0]
	e.inForm, e.formGet, e.allAttrsTok = false, false, -1
	e.inA, e.aDerived, e.aRel = false, false, 0
	e.pendingRaw, e.foreign, e.template = rawNone, 0, 0
	e.title, e.titleDone = e.title[:0], false
	e.base, e.baseSeen = e.base[:0], false
	e.canonical, e.canonSeen = e.canonical[:0], false
	e.lang, e.langSeen, e.htmlSeen = e.lang[:0], false, false
	e.robots = Robots{}
	e.text, e.textSep, e.textFull, e.textNL = e.text[:0], 0, false, 0
}

// Next advances to the next link and reports whether there is one. It
// returns false at the end of the document, on a read error, or when
// MaxTokens or MaxTokenLen stops the scan. An <a> link is reported when
// its element ends, so that its text is complete (after the references
// inside it), with its pings right after it; the others when their element
// starts.
func (e *Extractor) Next() bool {
	if e.qPos < len(e.q) {
		return e.pop()
	}
	if len(e.q) > 0 {
		e.q, e.qPos, e.qBuf = e.q[:0], 0, e.qBuf[:0]
	}
	for !e.done {
		if e.tokens >= e.lim.maxTokens {
			e.truncated = true
			e.done = true
			return e.closeAnchor()
		}
		e.tokens++
		switch tt := e.z.Next(); tt {
		case html.ErrorToken:
			e.done = true
			if err := e.z.Err(); err != io.EOF {
				if err == errTokenTooLong {
					e.truncated = true
				} else {
					e.err = fmt.Errorf("extract: read: %w", err)
				}
			}
			return e.closeAnchor()
		case html.TextToken:
			if e.spec && e.pendingRaw == rawNone && e.template == 0 {
				e.specText("#text", e.z.Raw())
			}
			if e.pendingRaw == rawNone && e.template == 0 && !e.skipText {
				// Visible text, as in textToken, without its calls.
				if t := e.z.Raw(); len(t) == 1 && spaceMask&(1<<t[0]) != 0 {
					e.space()
				} else {
					e.visibleText(t)
				}
			} else if e.pendingRaw != rawNone || !e.skipText || e.inA {
				e.textToken()
			}
		case html.StartTagToken:
			if e.startTag(false) {
				return true
			}
		case html.SelfClosingTagToken:
			if e.startTag(true) {
				return true
			}
		case html.EndTagToken:
			if e.skipText && !e.inA && e.template == 0 && e.foreign == 0 && !e.inForm {
				// Without page text, an end tag here changes nothing.
				e.pendingRaw = rawNone
			} else if e.endTag() {
				return true
			}
		default: // comments and doctypes
			e.pendingRaw = rawNone
			if e.spec && e.template == 0 {
				e.specMarkup(tt == html.DoctypeToken)
			}
		}
		if len(e.q) > 0 {
			return e.pop()
		}
	}
	return false
}

// pop makes the next queued link the current one.
func (e *Extractor) pop() bool {
	q := &e.q[e.qPos]
	e.qPos++
	e.linkHref = e.qBuf[q.hrefStart:q.hrefEnd:q.hrefEnd]
	e.linkText = e.qBuf[q.hrefEnd:q.textEnd:q.textEnd]
	e.linkBase = e.qBuf[q.baseStart:q.baseEnd:q.baseEnd]
	e.linkTag, e.linkKind, e.linkRel = q.tag, q.kind, q.rel
	return true
}

// errTokenTooLong is tokenReader's error for a token longer than
// MaxTokenLen bytes.
var errTokenTooLong = errors.New("extract: token too long")

// Link returns the link found by the last call to Next that returned true.
// Its slices are valid until the next call to Next or Reset.
func (e *Extractor) Link() RawLink {
	return RawLink{Href: e.linkHref, Text: e.linkText, Tag: e.linkTag, Kind: e.linkKind, Rel: e.linkRel, Base: e.linkBase}
}

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
// style, noscript, noembed, noframes, template, iframe and title elements
// (trawl's one rule for visible text, internal/htmltext), with runs of
// whitespace collapsed to one space and a '\n' between block-level
// elements; at most MaxTextLen bytes. It is empty with Options.SkipText.
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
	derived := e.aDerived
	e.aDerived = false
	if e.links >= e.lim.maxLinks {
		e.truncated = true
		return false
	}
	e.links++
	text := e.aText
	if derived {
		text, _ = e.derivedAnchorText(len(e.text))
	}
	if len(text) == 0 {
		var sep byte
		src := e.aAlt
		if len(src) == 0 {
			src = e.aTitle
		}
		e.aText, _ = appendCollapsed(e.aText[:0], src, &sep, e.lim.maxLinkTextLen)
		text = e.aText
	}
	// Swap buffers: the next <a> reuses aHref and aText before the caller
	// reads this link.
	e.curHref, e.aHref = e.aHref, e.curHref[:0]
	e.curText, e.aText = e.aText, e.curText[:0]
	e.linkHref, e.linkText, e.linkBase, e.linkTag, e.linkKind, e.linkRel = e.curHref, text, nil, "a", Navigation, e.aRel
	if len(e.aPing) > 0 {
		e.pushList("a", Ping, e.aPing, false, nil) // returned by the next calls to Next
	}
	return true
}

// derivedAnchorText returns the open anchor's text while it is derived
// from the page text: text[aFrom:end] without the separator that may lead
// it, and with the line breaks between blocks as spaces, as the anchor
// text has them. It returns a slice of the page text (inText), capped so
// that appending to it cannot write there, or, if there were line breaks,
// a copy in aText.
func (e *Extractor) derivedAnchorText(end int) (v []byte, inText bool) {
	v = e.text[e.aFrom:end:end]
	if len(v) > 0 && (v[0] == ' ' || v[0] == '\n') {
		v = v[1:]
	}
	if e.textNL <= e.aFrom || bytes.IndexByte(v, '\n') < 0 {
		// The last line break, if any, is before v or is its separator.
		return v, true
	}
	e.aText = append(e.aText[:0], v...)
	for i, c := range e.aText {
		if c == '\n' {
			e.aText[i] = ' '
		}
	}
	return e.aText, false
}

// materializeAnchor stops deriving the open anchor's text from the page
// text, which stood at length end with separator sep before the current
// text token: the anchor text collected so far goes to aText, and the
// caller adds the token to it.
func (e *Extractor) materializeAnchor(end int, sep byte) {
	v, inText := e.derivedAnchorText(end)
	if inText {
		e.aText = append(e.aText[:0], v...)
	}
	// Once the anchor text is not empty, its separator is pending exactly
	// when the page text's is (and is ' ' in anchor text). Before that,
	// aSep has been kept up to date.
	if len(v) > 0 {
		e.aSep = 0
		if sep != 0 {
			e.aSep = ' '
		}
	}
	e.aDerived = false
}

// push queues a link of an element without content (or of CSS). href nil
// means absent; an empty href is kept for a Form only, where it stands for
// the document's URL. base is a codebase (see RawLink.Base), nil if none.
func (e *Extractor) push(tag string, kind Kind, rel Rel, href, text, base []byte) {
	if href == nil || len(href) > e.lim.maxAttrLen {
		return
	}
	if skipHref(href) && (kind != Form || len(trimURLSpace(href)) > 0) {
		return
	}
	if len(trimURLSpace(base)) > 0 && (len(base) > e.lim.maxAttrLen || skipHref(base)) {
		return // a codebase that is no http(s) URL: no http(s) link either
	}
	if e.links >= e.lim.maxLinks {
		e.truncated = true
		return
	}
	e.links++
	q := queued{hrefStart: len(e.qBuf), tag: tag, kind: kind, rel: rel}
	e.qBuf = append(e.qBuf, href...)
	q.hrefEnd = len(e.qBuf)
	if len(text) > 0 {
		// Collapsed apart: appendCollapsed puts no separator first only
		// into an empty buffer.
		var sep byte
		e.textBuf, _ = appendCollapsed(e.textBuf[:0], text, &sep, e.lim.maxLinkTextLen)
		e.qBuf = append(e.qBuf, e.textBuf...)
	}
	q.textEnd = len(e.qBuf)
	q.baseStart = q.textEnd
	if base = trimURLSpace(base); len(base) > 0 {
		e.qBuf = append(e.qBuf, base...)
	}
	q.baseEnd = len(e.qBuf)
	e.q = append(e.q, q)
}

// pushList queues each item of a list of URLs: separated by ASCII
// whitespace (a[ping]) or by commas (applet[archive]).
func (e *Extractor) pushList(tag string, kind Kind, v []byte, commas bool, base []byte) {
	if len(v) > e.lim.maxAttrLen {
		return
	}
	for len(v) > 0 {
		i := 0
		for i < len(v) && (isSpace(v[i]) || commas && v[i] == ',') {
			i++
		}
		j := i
		for j < len(v) && !(commas && v[j] == ',') && (commas || !isSpace(v[j])) {
			j++
		}
		if item := trimSpace(v[i:j]); len(item) > 0 {
			e.push(tag, kind, 0, item, nil, base)
		}
		v = v[j:]
	}
}

// pushSrcset queues the candidate URLs of a srcset attribute.
func (e *Extractor) pushSrcset(tag string, v, text []byte) {
	if len(v) > e.lim.maxAttrLen {
		return
	}
	for i := 0; ; {
		u, next, ok := srcsetNext(v, i)
		if !ok {
			return
		}
		e.push(tag, Embed, 0, u, text, nil)
		i = next
	}
}

// pushCSS queues the references in CSS: the content of a <style> element
// or a style attribute.
func (e *Extractor) pushCSS(css []byte) {
	e.css.reset(css)
	for {
		ref, kind, ok := e.css.next()
		if !ok {
			break
		}
		e.push("style", kind, 0, ref, nil, nil)
	}
	e.css.b = nil
}

// tagName returns the tag name of raw, which starts at offset start,
// lower-cased, with the offset just after it. A name that is already lower
// case (nearly all) is a slice of raw; others are lower-cased into
// e.nameBuf, and come back empty if longer: no tag the Extractor knows is
// that long.
func (e *Extractor) tagName(raw []byte, start int) (name []byte, end int) {
	end = start
	upper := false
	for end < len(raw) {
		c := raw[end]
		if c <= '>' && (c == '>' || c == '/' || isSpace(c)) {
			break
		}
		if c-'A' < 26 {
			upper = true
		}
		end++
	}
	name = raw[start:end]
	if !upper {
		return name, end
	}
	if len(name) > len(e.nameBuf) {
		return nil, end
	}
	n := copy(e.nameBuf[:], name)
	lowerASCII(e.nameBuf[:n])
	return e.nameBuf[:n], end
}

func (e *Extractor) textToken() {
	if e.pendingRaw != rawNone && e.rawText() {
		return
	}
	if e.template > 0 || e.skipText && !e.inA { // see also Next
		return
	}
	// The raw bytes are the text unless they hold something Text would
	// decode; the collapse scan spots those and starts again from Text.
	t := e.z.Raw()
	if len(t) == 1 && spaceMask&(1<<t[0]) != 0 {
		e.space() // the line break between two tags, most often
		return
	}
	e.visibleText(t)
}

// rawText handles the text token after the start tag of an element whose
// content is raw text, and reports whether it is done with it: only the
// visible content of textarea, xmp and plaintext goes on as text.
func (e *Extractor) rawText() bool {
	kind := e.pendingRaw
	e.pendingRaw = rawNone
	switch kind {
	case rawSkip:
		return true
	case rawStyle:
		e.pushCSS(e.z.Raw())
		return true
	case rawScript:
		e.scanScript("script", e.z.Raw())
		return true
	case rawNoscript:
		e.scanSub(e.z.Raw(), subSpeculative)
		return true
	case rawTitle:
		if !e.titleDone {
			var sep byte
			e.title, _ = appendCollapsed(e.title[:0], e.z.Text(), &sep, maxTitleLen)
			e.titleDone = len(e.title) > 0
		}
		return true
	}
	return false
}

// space notes a text token of one whitespace byte: only a pending
// separator, as collapse would note it.
func (e *Extractor) space() {
	if e.textSep == 0 && !e.textFull && !e.skipText {
		e.textSep = ' '
	}
	if e.inA && e.aSep == 0 && (!e.aDerived || len(e.text) == e.aFrom) {
		e.aSep = ' '
	}
}

// visibleText adds the raw bytes t of a visible text token to the page
// text and the open anchor's text.
func (e *Extractor) visibleText(t []byte) {
	raw := true
	if e.inA && !e.aDerived {
		n, sep := len(e.aText), e.aSep
		var ok bool
		if e.aText, _, ok = appendRawText(e.aText, t, &e.aSep, e.lim.maxLinkTextLen); !ok {
			t, raw = e.z.Text(), false
			e.aText, e.aSep = e.aText[:n], sep
			e.aText, _ = appendCollapsed(e.aText, t, &e.aSep, e.lim.maxLinkTextLen)
		}
	}
	if e.textFull || e.skipText {
		return
	}
	n, sep := len(e.text), e.textSep
	full, ok := false, false
	if e.text, full, ok = collapse(e.text, t, &e.textSep, e.lim.maxTextLen, raw); !ok {
		t = e.z.Text()
		e.text, e.textSep = e.text[:n], sep
		e.text, full = appendCollapsed(e.text, t, &e.textSep, e.lim.maxTextLen)
	}
	if sep == '\n' && len(e.text) > n && e.text[n] == '\n' {
		e.textNL = n // the only place a line break can be
	}
	if full {
		e.textFull, e.truncated = true, true
	}
	if e.aDerived && len(e.text) == e.aFrom && len(t) > 0 {
		// A token that adds nothing is whitespace: note it for an
		// anchor text still empty, as appendCollapsed would.
		e.aSep = ' '
	}
	if e.aDerived && (full || len(e.text)-e.aFrom > e.lim.maxLinkTextLen) {
		// The page text is cut in this token or the anchor text may be:
		// from here on the anchor text is collected on its own, with its
		// own bound.
		e.materializeAnchor(n, sep)
		e.aText, _ = appendCollapsed(e.aText, t, &e.aSep, e.lim.maxLinkTextLen)
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
	k, nameEnd := e.tagKindAt(raw, 1)
	// The common kinds first, in a small function; the rest apart.
	ready := false
	switch k {
	case tagBlock:
		e.breakText('\n')
	case tagBreak, tagWbr:
		e.breakText(' ')
	case tagOther:
	case tagA:
		if h := onlyHref(raw, nameEnd); h != nil {
			// <a href="..."> has no style attribute.
			return e.startA(h, nil, nil, nil)
		}
		ready = e.startAAttrs(raw, nameEnd)
	default:
		ready = e.startOther(k, raw, nameEnd, selfClosing)
	}
	// A style attribute with a url() needs a '(' somewhere in the tag:
	// one IndexByte (none for a tag without attributes, "<p>") spares the
	// attribute scan on nearly every tag.
	if nameEnd+2 < len(raw) && bytes.IndexByte(raw[nameEnd:], '(') >= 0 {
		e.styleAttr(raw, nameEnd)
	}
	if e.scripts && nameEnd+4 < len(raw) {
		e.handlers(raw, nameEnd)
	}
	return ready
}

// styleAttr queues the references of the tag's style attribute.
func (e *Extractor) styleAttr(raw []byte, nameEnd int) {
	at := e.readAttrs(raw, nameEnd, wantStyle)
	if at.style != nil && len(at.style) <= e.lim.maxAttrLen {
		e.pushCSS(at.style)
	}
}

// startAAttrs is startA for an <a> tag with attributes other than one
// plain href.
func (e *Extractor) startAAttrs(raw []byte, nameEnd int) bool {
	want := wantHref | wantTitle | wantRel | wantPing
	if e.foreign > 0 {
		want |= wantXlinkHref // SVG's <a>
	}
	at := e.readAttrs(raw, nameEnd, want)
	h := at.href
	if h == nil {
		h = at.xlinkHref
	}
	return e.startA(h, at.title, at.rel, at.ping)
}

// startA opens an <a> element with attributes href (nil if absent), title,
// rel and ping, ending the one open before, which it reports as startTag
// does. The link and then its pings come when the element ends.
func (e *Extractor) startA(h, title, rel, ping []byte) bool {
	ready := e.closeAnchor()
	if e.scripts && h != nil && len(h) <= e.lim.maxAttrLen && e.javascriptURL(h) {
		return ready
	}
	if h != nil && len(h) <= e.lim.maxAttrLen && !skipHref(h) {
		// Pings go with following the link: none for an anchor that is
		// not reported; they come right after it.
		e.aPing = e.aPing[:0]
		if len(ping) > 0 && len(ping) <= e.lim.maxAttrLen {
			e.aPing = append(e.aPing, ping...)
		}
		e.inA = true
		e.aDerived, e.aFrom = !e.textFull && !e.skipText, len(e.text)
		e.aHref = append(e.aHref[:0], h...)
		e.aText, e.aSep = e.aText[:0], 0
		e.aAlt = e.aAlt[:0]
		e.aTitle = e.aTitle[:0]
		if len(title) > 0 && len(title) <= e.lim.maxAttrLen {
			e.aTitle = append(e.aTitle, title...)
		}
		e.aRel = 0
		if len(rel) > 0 {
			e.aRel, _ = parseRel(rel)
		}
	}
	return ready
}

// startOther handles the start tags of kind k other than a, blocks and
// breaks.
func (e *Extractor) startOther(k tagKind, raw []byte, nameEnd int, selfClosing bool) bool {
	switch k {
	case tagArea:
		at := e.readAttrs(raw, nameEnd, wantHref|wantRel|wantAlt|wantPing)
		if e.scripts && at.href != nil && len(at.href) <= e.lim.maxAttrLen && e.javascriptURL(at.href) {
			break
		}
		rel, _ := parseRel(at.rel)
		e.push("area", Navigation, rel, at.href, e.boundedAttr(at.alt), nil)
		if at.ping != nil && at.href != nil {
			e.pushList("area", Ping, at.ping, false, nil)
		}
	case tagFrame:
		at := e.readAttrs(raw, nameEnd, wantSrc|wantTitle)
		e.push("frame", Frame, 0, at.src, e.boundedAttr(at.title), nil)
	case tagIframe:
		e.rawElement(rawSkip)
		at := e.readAttrs(raw, nameEnd, wantSrc|wantTitle|wantSrcdoc)
		e.push("iframe", Frame, 0, at.src, e.boundedAttr(at.title), nil)
		if at.srcdoc != nil {
			e.scanSub(at.srcdoc, subSrcdoc)
		}
		if e.spec {
			e.lazyAttrs("iframe", raw, nameEnd)
		}
	case tagLink:
		at := e.readAttrs(raw, nameEnd, wantHref|wantRel|wantTitle|wantType|wantImagesrcset)
		rel, class := parseRel(at.rel)
		kind, ok := linkKind(at.rel, class, rel, at.typ)
		if !ok {
			return false
		}
		if kind == Navigation && rel&RelCanonical != 0 && !e.canonSeen && at.href != nil && len(at.href) <= e.lim.maxAttrLen {
			e.canonSeen = true
			e.canonical = append(e.canonical[:0], at.href...)
		}
		e.push("link", kind, rel, at.href, e.boundedAttr(at.title), nil)
		if kind == Embed && at.imagesrcset != nil {
			// <link rel=preload as=image imagesrcset=...>
			e.pushSrcset("link", at.imagesrcset, nil)
		}
	case tagMeta:
		e.meta(raw, nameEnd)
	case tagBase:
		if !e.baseSeen {
			at := e.readAttrs(raw, nameEnd, wantHref)
			if at.href != nil && len(at.href) <= e.lim.maxAttrLen {
				e.baseSeen = true
				e.base = append(e.base[:0], at.href...)
				if e.spec {
					e.push("base", Speculative, 0, at.href, nil, nil)
				}
			}
		}
	case tagHTML:
		if !e.htmlSeen {
			e.htmlSeen = true
			at := e.readAttrs(raw, nameEnd, wantLang|wantManifest)
			if at.lang != nil {
				e.setLang(at.lang)
			}
			e.push("html", Embed, 0, at.manifest, nil, nil)
		}
	case tagImg:
		e.img(raw, nameEnd)
	case tagImage:
		if e.foreign > 0 {
			e.svgRef("image", raw, nameEnd)
		} else {
			e.img(raw, nameEnd) // the HTML parser reads <image> as <img>
		}
	case tagUse:
		if e.foreign > 0 {
			e.svgRef("use", raw, nameEnd)
		}
	case tagSource:
		at := e.readAttrs(raw, nameEnd, wantSrc|wantSrcset)
		e.push("source", Embed, 0, at.src, nil, nil)
		e.pushSrcset("source", at.srcset, nil)
		if e.spec {
			e.lazyAttrs("source", raw, nameEnd)
		}
	case tagAudio:
		e.push("audio", Embed, 0, e.readAttrs(raw, nameEnd, wantSrc).src, nil, nil)
	case tagTrack:
		e.push("track", Embed, 0, e.readAttrs(raw, nameEnd, wantSrc).src, nil, nil)
	case tagEmbed:
		e.push("embed", Embed, 0, e.readAttrs(raw, nameEnd, wantSrc).src, nil, nil)
	case tagVideo:
		at := e.readAttrs(raw, nameEnd, wantSrc|wantPoster)
		e.push("video", Embed, 0, at.src, nil, nil)
		e.push("video", Embed, 0, at.poster, nil, nil)
	case tagObject:
		at := e.readAttrs(raw, nameEnd, wantData|wantCodebase)
		e.push("object", Embed, 0, at.data, nil, at.codebase)
		e.push("object", Embed, 0, at.codebase, nil, nil)
	case tagApplet:
		at := e.readAttrs(raw, nameEnd, wantCode|wantCodebase|wantArchive)
		e.push("applet", Embed, 0, at.code, nil, at.codebase)
		if at.archive != nil {
			e.pushList("applet", Embed, at.archive, true, at.codebase)
		}
		e.push("applet", Embed, 0, at.codebase, nil, nil)
	case tagScript:
		e.rawElement(rawSkip)
		switch {
		case e.foreign > 0:
			// SVG's <script href>: content is markup here, see rawElement.
			e.svgRef("script", raw, nameEnd)
		case e.scripts:
			at := e.readAttrs(raw, nameEnd, wantSrc|wantType)
			e.push("script", Embed, 0, at.src, nil, nil)
			if at.src == nil && scriptTypeJS(at.typ) {
				e.rawElement(rawScript) // a script with src ignores its content
			}
		default:
			e.push("script", Embed, 0, e.readAttrs(raw, nameEnd, wantSrc).src, nil, nil)
		}
	case tagStyle:
		e.rawElement(rawStyle)
	case tagInput:
		at := e.readAttrs(raw, nameEnd, wantSrc|wantFormaction|wantFormmethod|wantForm)
		e.push("input", Embed, 0, at.src, nil, nil)
		e.formAction("input", at)
	case tagButton:
		e.formAction("button", e.readAttrs(raw, nameEnd, wantFormaction|wantFormmethod|wantForm))
	case tagForm:
		e.breakText('\n')
		if !e.inForm && !selfClosing {
			// The parser ignores a <form> inside a form.
			e.inForm = true
			at := e.readAttrs(raw, nameEnd, wantAction|wantMethod)
			e.formGet = isGetMethod(at.method)
			if e.formGet {
				e.push("form", Form, 0, orEmpty(at.action), nil, nil)
			}
		}
	case tagIsindex:
		e.push("isindex", Form, 0, orEmpty(e.readAttrs(raw, nameEnd, wantAction).action), nil, nil)
	case tagBlockquote:
		e.breakText('\n')
		e.push("blockquote", Navigation, 0, e.readAttrs(raw, nameEnd, wantCite).cite, nil, nil)
	case tagQ, tagDel, tagIns:
		e.push(citeTags[k-tagQ], Navigation, 0, e.readAttrs(raw, nameEnd, wantCite).cite, nil, nil)
	case tagBody, tagTable:
		e.breakText('\n')
		e.push(blockTags[k-tagBody], Embed, 0, e.readAttrs(raw, nameEnd, wantBackground).background, nil, nil)
	case tagTd, tagTh:
		e.breakText(' ')
		e.push(cellTags[k-tagTd], Embed, 0, e.readAttrs(raw, nameEnd, wantBackground).background, nil, nil)
	case tagTitle:
		e.rawElement(rawTitle)
	case tagRawSkip:
		e.rawElement(rawSkip)
	case tagNoscript:
		if e.spec {
			e.rawElement(rawNoscript)
		} else {
			e.rawElement(rawSkip)
		}
	case tagParam:
		if e.spec {
			e.param(raw, nameEnd)
		}
	case tagRawVisible:
		e.rawElement(rawVisible)
	case tagTemplate:
		if !selfClosing {
			e.template++
		}
	case tagForeign:
		if !selfClosing {
			e.foreign++
		}
	}
	return false
}

var (
	citeTags  = [...]string{"q", "del", "ins"}
	blockTags = [...]string{"body", "table"}
	cellTags  = [...]string{"td", "th"}
)

// orEmpty returns v, or an empty slice for an absent attribute: a form
// without action submits to the document's URL.
func orEmpty(v []byte) []byte {
	if v == nil {
		return []byte{}
	}
	return v
}

// isGetMethod reports a form method that submits with GET: "get", an
// absent method, or an invalid one (the attribute's default); not "post"
// or "dialog".
func isGetMethod(m []byte) bool {
	m = trimSpace(m)
	return !ascii.EqualFold(m, "post") && !ascii.EqualFold(m, "dialog")
}

// formAction queues the formaction of a submit button (button or input)
// when the submission it makes is a GET: its formmethod, else its form's
// method. A button outside a form submits nothing, unless a form attribute
// names a form elsewhere, whose method is unknown here: GET, the default.
func (e *Extractor) formAction(tag string, at attrs) {
	if at.formaction == nil || !e.inForm && at.form == nil {
		return
	}
	get := !e.inForm || e.formGet
	if at.formmethod != nil {
		get = isGetMethod(at.formmethod)
	}
	if get {
		e.push(tag, Form, 0, at.formaction, nil, nil)
	}
}

// img queues the references of an <img>: src, srcset, lowsrc and dynsrc
// (Embed, with the alt text) and longdesc (Navigation); and notes its alt
// for the text of an image link.
func (e *Extractor) img(raw []byte, nameEnd int) {
	at := e.readAttrs(raw, nameEnd, wantSrc|wantSrcset|wantLowsrc|wantDynsrc|wantLongdesc|wantAlt)
	if e.inA && len(e.aAlt) == 0 && len(at.alt) <= e.lim.maxAttrLen {
		e.aAlt = append(e.aAlt, at.alt...)
	}
	alt := e.boundedAttr(at.alt)
	e.push("img", Embed, 0, at.src, alt, nil)
	e.pushSrcset("img", at.srcset, alt)
	e.push("img", Embed, 0, at.lowsrc, alt, nil)
	e.push("img", Embed, 0, at.dynsrc, alt, nil)
	e.push("img", Navigation, 0, at.longdesc, alt, nil)
	if e.spec {
		e.lazyAttrs("img", raw, nameEnd)
	}
}

// svgRef queues the href (or, failing that, xlink:href) of an SVG image,
// use or script element.
func (e *Extractor) svgRef(tag string, raw []byte, nameEnd int) {
	at := e.readAttrs(raw, nameEnd, wantHref|wantXlinkHref)
	h := at.href
	if h == nil {
		h = at.xlinkHref
	}
	e.push(tag, Embed, 0, h, nil, nil)
}

// maxSrcdocDepth bounds the nesting of documents scanned: the document,
// a srcdoc (or a comment's or <noscript>'s markup) in it and one in that,
// no deeper.
const maxSrcdocDepth = 3

// scanSub queues the references of a document inside the document,
// scanned by a second Extractor; its tokens and links count against the
// document's bounds.
//
// An iframe's srcdoc (subSrcdoc): relative URLs in it resolve against the
// document's base (or the srcdoc's own <base href>, which goes in
// RawLink.Base), as a srcdoc document's do; a meta refresh in it navigates
// the frame: Kind Frame.
//
// The markup in a comment or a <noscript> (subSpeculative): every
// reference is Speculative, with the tag that made it; a <base> there
// changes nothing.
func (e *Extractor) scanSub(doc []byte, mode subMode) {
	if e.depth+1 >= maxSrcdocDepth || len(doc) > e.lim.maxAttrLen && mode == subSrcdoc || len(doc) > e.lim.maxTokenLen {
		return
	}
	if e.sub == nil {
		e.sub = &Extractor{botName: e.botName, skipText: true, depth: e.depth + 1}
	}
	sub := e.sub
	sub.lim = e.lim
	sub.lim.maxLinks = max(e.lim.maxLinks-e.links, 1)
	sub.lim.maxTokens = max(e.lim.maxTokens-e.tokens, 1)
	sub.spec, sub.scripts = e.spec, e.scripts && mode == subSrcdoc
	e.subR.Reset(doc)
	sub.Reset(&e.subR)
	first := len(e.q)
	for sub.Next() {
		l := sub.Link()
		if l.Kind == Form && len(trimURLSpace(l.Href)) == 0 {
			continue // the document's URL: about:srcdoc
		}
		kind := l.Kind
		switch {
		case mode == subSpeculative:
			if !looksLikeURL(trimURLSpace(l.Href), testSink) {
				continue // "http://x/ad?ord='+rnd+'": markup a script writes out
			}
			kind = Speculative
		case kind == Redirect:
			kind = Frame
		}
		e.push(l.Tag, kind, l.Rel, l.Href, l.Text, l.Base)
	}
	e.tokens += sub.tokens
	if sub.truncated {
		e.truncated = true
	}
	if b, ok := sub.BaseHref(); ok && mode == subSrcdoc && len(e.q) > first && !skipHref(b) {
		start := len(e.qBuf)
		e.qBuf = append(e.qBuf, trimURLSpace(b)...)
		for i := first; i < len(e.q); i++ {
			if q := &e.q[i]; q.baseEnd == q.baseStart {
				q.baseStart, q.baseEnd = start, len(e.qBuf)
			}
		}
	}
	e.subR.Reset(nil)
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
	raw := e.z.Raw()
	if len(raw) == 4 && raw[3] == '>' {
		// </a> and </p>, the commonest end tags, without the name lookup.
		switch raw[2] | 0x20 { // exact for letters
		case 'a':
			return e.closeAnchor()
		case 'p':
			e.breakText('\n')
			return false
		}
	}
	k, _ := e.tagKindAt(raw, 2)
	switch k {
	case tagA:
		return e.closeAnchor()
	case tagForm:
		e.inForm, e.formGet = false, false
		e.breakText('\n')
	case tagBlockquote, tagBody, tagTable:
		e.breakText('\n')
	case tagTd, tagTh:
		e.breakText(' ')
	case tagTemplate:
		if e.template > 0 {
			e.template--
		}
	case tagForeign:
		if e.foreign > 0 {
			e.foreign--
		}
	case tagBreak:
		e.breakText(' ')
	case tagBlock, tagHTML:
		e.breakText('\n')
	}
	return false
}

func (e *Extractor) meta(raw []byte, nameEnd int) {
	at := e.readAttrs(raw, nameEnd, wantName|wantContent|wantHTTPEquiv)
	if at.content == nil || len(at.content) > e.lim.maxAttrLen {
		return
	}
	switch {
	case ascii.EqualFold(at.httpEquiv, "refresh"):
		if ref, ok := refreshURL(at.content); ok {
			e.push("meta", Redirect, 0, ref, nil, nil)
		}
	case ascii.EqualFold(at.httpEquiv, "content-location"):
		e.push("meta", Navigation, 0, trimSpace(at.content), nil, nil)
	case ascii.EqualFold(at.httpEquiv, "content-language"):
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
	case ascii.EqualFold(at.name, "robots") ||
		e.botName != "" && len(at.name) == len(e.botName) && equalFoldString(at.name, e.botName):
		// One string per robots meta element, not per link.
		e.robots = e.robots.Merge(ParseRobots(string(at.content), e.botName))
	case e.spec:
		e.specMeta(at.httpEquiv, at.content)
	}
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

// readAttrs returns the attributes in want of the tag token raw. The fast
// path slices the raw token in place and stops once every wanted attribute
// is found; values that need decoding (character references, CR, NUL) are
// decoded into e.scratch for the common references, else the whole tag
// goes through the tokenizer's TagAttr, which allocates but is exact.
func (e *Extractor) readAttrs(raw []byte, nameEnd int, want attrSet) (at attrs) {
	e.scratch = e.scratch[:0]
	s := attrScanner{raw: raw, i: nameEnd}
	for at.seen != want {
		k, v, ok := s.next()
		if !ok {
			return at
		}
		p := at.set(k, v, want)
		if p == nil || s.plain {
			continue
		}
		// "&amp;" and the like are common in hrefs: decode them into
		// scratch. Earlier values stay valid if append moves scratch.
		start := len(e.scratch)
		var ok2 bool
		e.scratch, ok2 = appendDecodedAttr(e.scratch, v)
		if !ok2 {
			return e.tagAttrs(want)
		}
		*p = e.scratch[start:len(e.scratch):len(e.scratch)]
	}
	return at
}

// onlyHref returns the href of the start tag raw if the tag is exactly
// <name href="...">, the usual shape of a link, with nothing to decode in
// the value, and nil otherwise. The attribute scanner would find the same.
func onlyHref(raw []byte, nameEnd int) []byte {
	i := nameEnd + len(` href="`)
	end := len(raw) - len(`">`)
	if end < i || string(raw[nameEnd:i]) != ` href="` || raw[end] != '"' || raw[end+1] != '>' || !plainValue(raw[i:end]) {
		return nil
	}
	return raw[i:end:end]
}

// plainValue reports that v holds no '"', no '&' and no byte below ' ':
// that it is the whole of a double-quoted attribute value with nothing to
// decode. It looks at eight bytes at a time, the last eight overlapping
// the ones before; a borrow trick flags a byte only if some byte is a
// true match.
func plainValue(v []byte) bool {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	if len(v) < 8 {
		for _, c := range v {
			if c < ' ' || c == '"' || c == '&' {
				return false
			}
		}
		return true
	}
	bad := func(x uint64) uint64 {
		q := x ^ 0x02*ones // '"' becomes ' ', bytes below ' ' stay below it
		a := x ^ '&'*ones
		return ((q-0x21*ones)&^q | (a-ones)&^a) & highs
	}
	m := bad(binary.LittleEndian.Uint64(v[len(v)-8:]))
	for i := 0; i+8 < len(v); i += 8 {
		m |= bad(binary.LittleEndian.Uint64(v[i:]))
	}
	return m == 0
}

// tagAttrs is readAttrs through the tokenizer's TagAttr. TagAttr yields a
// token's attributes once, so it reads all the Extractor may want and
// keeps them for a second call on the same token (a tag's own attributes,
// then its style attribute).
func (e *Extractor) tagAttrs(want attrSet) attrs {
	if e.allAttrsTok != e.tokens {
		e.allAttrsTok = e.tokens
		e.allAttrs = attrs{}
		for {
			k, v, more := e.z.TagAttr()
			if k != nil {
				e.allAttrs.set(k, v, wantAll)
			}
			if !more {
				break
			}
		}
	}
	at := e.allAttrs
	at.seen &= want
	return at
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

// attrSet is a set of the attributes the Extractor reads, one bit each.
type attrSet uint64

const (
	wantHref attrSet = 1 << iota
	wantSrc
	wantRel
	wantAlt
	wantTitle
	wantName
	wantContent
	wantHTTPEquiv
	wantLang
	wantSrcset
	wantLowsrc
	wantDynsrc
	wantLongdesc
	wantPing
	wantPoster
	wantData
	wantCodebase
	wantCode
	wantArchive
	wantAction
	wantFormaction
	wantMethod
	wantFormmethod
	wantCite
	wantBackground
	wantStyle
	wantType
	wantXlinkHref
	wantSrcdoc
	wantImagesrcset
	wantForm
	wantManifest
	wantValue
	wantDataSrc
	wantDataSrcset
	wantDataOriginal
	wantDataLazySrc
	wantAll = 1<<iota - 1
)

// set stores v if k names an attribute in want that is not yet seen, and
// returns the field it stored it in, or nil. k may be in any case; a
// present but empty value is stored as a non-nil empty slice.
func (at *attrs) set(k, v []byte, want attrSet) *[]byte {
	var (
		p   *[]byte
		bit attrSet
	)
	switch len(k) {
	case 3:
		switch {
		case ascii.EqualFold(k, "src"):
			p, bit = &at.src, wantSrc
		case ascii.EqualFold(k, "rel"):
			p, bit = &at.rel, wantRel
		case ascii.EqualFold(k, "alt"):
			p, bit = &at.alt, wantAlt
		}
	case 4:
		switch {
		case ascii.EqualFold(k, "href"):
			p, bit = &at.href, wantHref
		case ascii.EqualFold(k, "name"):
			p, bit = &at.name, wantName
		case ascii.EqualFold(k, "lang"):
			p, bit = &at.lang, wantLang
		case ascii.EqualFold(k, "ping"):
			p, bit = &at.ping, wantPing
		case ascii.EqualFold(k, "data"):
			p, bit = &at.data, wantData
		case ascii.EqualFold(k, "code"):
			p, bit = &at.code, wantCode
		case ascii.EqualFold(k, "cite"):
			p, bit = &at.cite, wantCite
		case ascii.EqualFold(k, "type"):
			p, bit = &at.typ, wantType
		case ascii.EqualFold(k, "form"):
			p, bit = &at.form, wantForm
		}
	case 5:
		switch {
		case ascii.EqualFold(k, "title"):
			p, bit = &at.title, wantTitle
		case ascii.EqualFold(k, "style"):
			p, bit = &at.style, wantStyle
		case ascii.EqualFold(k, "value"):
			p, bit = &at.value, wantValue
		}
	case 6:
		switch {
		case ascii.EqualFold(k, "srcset"):
			p, bit = &at.srcset, wantSrcset
		case ascii.EqualFold(k, "lowsrc"):
			p, bit = &at.lowsrc, wantLowsrc
		case ascii.EqualFold(k, "dynsrc"):
			p, bit = &at.dynsrc, wantDynsrc
		case ascii.EqualFold(k, "poster"):
			p, bit = &at.poster, wantPoster
		case ascii.EqualFold(k, "action"):
			p, bit = &at.action, wantAction
		case ascii.EqualFold(k, "method"):
			p, bit = &at.method, wantMethod
		case ascii.EqualFold(k, "srcdoc"):
			p, bit = &at.srcdoc, wantSrcdoc
		}
	case 7:
		switch {
		case ascii.EqualFold(k, "content"):
			p, bit = &at.content, wantContent
		case ascii.EqualFold(k, "archive"):
			p, bit = &at.archive, wantArchive
		}
	case 8:
		switch {
		case ascii.EqualFold(k, "xml:lang"):
			// The first of lang and xml:lang wins.
			p, bit = &at.lang, wantLang
		case ascii.EqualFold(k, "longdesc"):
			p, bit = &at.longdesc, wantLongdesc
		case ascii.EqualFold(k, "codebase"):
			p, bit = &at.codebase, wantCodebase
		case ascii.EqualFold(k, "manifest"):
			p, bit = &at.manifest, wantManifest
		case ascii.EqualFold(k, "data-src"):
			p, bit = &at.dataSrc, wantDataSrc
		}
	case 10:
		switch {
		case ascii.EqualFold(k, "http-equiv"):
			p, bit = &at.httpEquiv, wantHTTPEquiv
		case ascii.EqualFold(k, "formaction"):
			p, bit = &at.formaction, wantFormaction
		case ascii.EqualFold(k, "formmethod"):
			p, bit = &at.formmethod, wantFormmethod
		case ascii.EqualFold(k, "background"):
			p, bit = &at.background, wantBackground
		case ascii.EqualFold(k, "xlink:href"):
			p, bit = &at.xlinkHref, wantXlinkHref
		}
	case 11:
		switch {
		case ascii.EqualFold(k, "imagesrcset"):
			p, bit = &at.imagesrcset, wantImagesrcset
		case ascii.EqualFold(k, "data-srcset"):
			p, bit = &at.dataSrcset, wantDataSrcset
		}
	case 13:
		switch {
		case ascii.EqualFold(k, "data-original"):
			p, bit = &at.dataOriginal, wantDataOriginal
		case ascii.EqualFold(k, "data-lazy-src"):
			p, bit = &at.dataLazySrc, wantDataLazySrc
		}
	}
	if want&bit == 0 || at.seen&bit != 0 {
		return nil
	}
	at.seen |= bit
	if v == nil {
		v = []byte{} // present but empty, as in <a href>
	}
	*p = v
	return p
}

// needsDecode reports whether v holds a byte that TagAttr would decode:
// '&', '\r' or NUL.
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
// copies. Values come back undecoded; plain says the last one has no byte
// that decoding could change.
type attrScanner struct {
	raw   []byte
	i     int
	plain bool // the value next returned holds no '&' and no byte below ' '
}

// next returns the next attribute with a non-empty key.
func (s *attrScanner) next() (key, val []byte, ok bool) {
	raw, i := s.raw, s.i
	for {
		i = skipSpace(raw, i)
		if i >= len(raw) || raw[i] == '>' {
			s.i = i
			return nil, nil, false
		}
		// Attribute key: up to whitespace, '/', '>' or an '=' that is not
		// the key's first byte. A '/' is an empty key; the value step
		// consumes it.
		ks := i
		if raw[i] != '/' {
			for i++; i < len(raw); i++ {
				if c := raw[i]; c <= '>' && (c == '=' || c == '/' || c == '>' || isSpace(c)) {
					break
				}
			}
		}
		key = raw[ks:i]
		val, i = s.value(i)
		if len(key) > 0 {
			s.i = i
			return key, val, true
		}
	}
}

// value reads an optional "= value" at raw[i:] after a key and returns it
// with the offset after it.
func (s *attrScanner) value(i int) ([]byte, int) {
	raw := s.raw
	s.plain = true
	i = skipSpace(raw, i)
	if i >= len(raw) {
		return nil, i
	}
	switch raw[i] {
	case '/':
		return nil, i + 1
	case '=':
	default:
		return nil, i
	}
	i = skipSpace(raw, i+1)
	if i >= len(raw) {
		return nil, i
	}
	switch q := raw[i]; q {
	case '>':
		return nil, i
	case '\'', '"':
		vs := i + 1
		k, plain := quotedEnd(raw[vs:], q)
		s.plain = plain
		if k >= 0 {
			return raw[vs : vs+k], vs + k + 1
		}
		return raw[vs:], len(raw)
	default:
		vs := i
		for i++; i < len(raw); i++ {
			if c := raw[i]; c == '>' {
				break
			} else if isSpace(c) {
				v := raw[vs:i]
				s.plain = !needsDecode(v)
				return v, i + 1
			}
		}
		v := raw[vs:i]
		s.plain = !needsDecode(v)
		return v, i
	}
}

// skipSpace returns the offset of the first byte at or after i in raw that
// is not whitespace.
func skipSpace(raw []byte, i int) int {
	for i < len(raw) && raw[i] <= ' ' && isSpace(raw[i]) {
		i++
	}
	return i
}

// quotedEnd returns the index of the first q in b, or -1, and whether the
// bytes before it are plain: no '&' and no byte below ' ' (a superset of
// what TagAttr decodes). It looks at eight bytes at a time; the lowest
// byte each borrow trick flags is a true match.
func quotedEnd(b []byte, q byte) (k int, plain bool) {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	qs := uint64(q) * ones
	n := len(b)
	j := 0
	for n >= 8 && j < n {
		// The next eight bytes, or the last ones shifted down so that the
		// bytes before j drop out.
		var x, valid uint64 = 0, highs
		if j+8 <= n {
			x = binary.LittleEndian.Uint64(b[j:])
		} else {
			shift := 8 * uint(8-(n-j))
			x = binary.LittleEndian.Uint64(b[n-8:]) >> shift
			valid >>= shift
		}
		y, a := x^qs, x^'&'*ones
		mq := (y - ones) &^ y & valid
		md := ((x-' '*ones)&^x | (a-ones)&^a) & valid
		if mq|md == 0 {
			if valid != highs {
				return -1, true
			}
			j += 8
			continue
		}
		if mq != 0 && bits.TrailingZeros64(mq) < bits.TrailingZeros64(md) {
			return j + bits.TrailingZeros64(mq)>>3, true
		}
		break // a byte to decode comes first
	}
	for ; j < n; j++ {
		c := b[j]
		if c == q {
			return j, true
		}
		if c < ' ' || c == '&' {
			if k := bytes.IndexByte(b[j:], q); k >= 0 {
				return j + k, false
			}
			return -1, false
		}
	}
	return -1, true
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
			return !ascii.EqualFold(h[:i], "http") && !ascii.EqualFold(h[:i], "https")
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

// tagKind is what the Extractor does with an element, by tag name.
type tagKind uint8

const (
	tagOther      tagKind = iota
	tagA                  // a link with text
	tagArea               // a link without content, as are frame, iframe and link
	tagFrame              // src
	tagIframe             // src; raw text content
	tagLink               // rel and href
	tagMeta               // refresh, robots, content-language
	tagBase               // base href
	tagHTML               // lang; a block at its end tag
	tagImg                // alt, for the text of an image link
	tagTitle              // the title
	tagRawSkip            // noembed, noframes: raw text, not visible
	tagNoscript           // raw text, not visible; markup with Options.Speculative
	tagParam              // value, with Options.Speculative
	tagRawVisible         // textarea, xmp, plaintext: raw text, visible
	tagTemplate           // inert content
	tagForeign            // svg, math
	tagBreak              // br: a space in the text
	tagWbr                // a space, at its start tag only
	tagBlock              // starts a new line of page text

	// Elements with references beyond the link elements above.
	tagImage      // SVG image (href); img outside SVG, as the parser reads it
	tagUse        // SVG use (href)
	tagSource     // src, srcset
	tagAudio      // src
	tagTrack      // src
	tagEmbed      // src
	tagVideo      // src, poster
	tagObject     // data, codebase
	tagApplet     // code, codebase, archive
	tagScript     // src (href in SVG); raw text, not visible
	tagStyle      // raw text: CSS
	tagInput      // src, formaction
	tagButton     // formaction
	tagForm       // action, method; a block
	tagIsindex    // action
	tagBlockquote // cite; a block
	tagQ          // cite; q, del and ins in this order
	tagDel
	tagIns
	tagBody // background; a block, as is table
	tagTable
	tagTd // background; a space in the text, as is th
	tagTh
)

// tagKindAt returns the kind of the tag whose name starts at raw[start],
// with the offset just after the name: tagKindOf its name, lower-cased.
//
// The name is read eight bytes at a time when raw's capacity allows (raw
// is a slice of the tokenizer's buffer; the bytes after it are masked
// out): the first byte at or below ' ', '/' or '>' ends it if it is
// whitespace or one of those two, and names holding other bytes below ' '
// take the byte-wise path, as do names longer than eight bytes.
func (e *Extractor) tagKindAt(raw []byte, start int) (tagKind, int) {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
		low7  = 0x7F7F7F7F7F7F7F7F
	)
	if start+8 <= cap(raw) && start < len(raw) {
		x := binary.LittleEndian.Uint64(raw[start : start+8 : start+8])
		if n := len(raw) - start; n < 8 {
			x |= ^uint64(0) << (8 * uint(n)) // past the end: bytes that end the name
		}
		s, gt := x^'/'*ones, x^'>'*ones
		if d := ((x-'!'*ones)&^x | (s-ones)&^s | (gt-ones)&^gt) & highs; d != 0 {
			n := bits.TrailingZeros64(d) >> 3
			if c := raw[start : start+8][n]; n > 0 && (c >= ' ' || isSpace(c) || start+n == len(raw)) {
				h := x & low7
				upper := (h + (0x80-'A')*ones) &^ (h + (0x80-'Z'-1)*ones) &^ x & highs
				var lower [8]byte
				binary.LittleEndian.PutUint64(lower[:], x|upper>>2)
				return tagKindOf(lower[:n]), start + n
			}
		}
	}
	name, end := e.tagName(raw, start)
	return tagKindOf(name), end
}

// tagKindOf returns the kind of the element with the lower-case name.
// It is the Extractor's one table of tag names.
func tagKindOf(name []byte) tagKind {
	switch atom.Lookup(name) {
	case atom.A:
		return tagA
	case atom.P, atom.Div, atom.Li, atom.Ul, atom.Ol, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6,
		atom.Tr, atom.Dd, atom.Dl, atom.Dt, atom.Hr, atom.Nav, atom.Pre, atom.Head, atom.Main, atom.Aside,
		atom.Header, atom.Footer, atom.Option, atom.Figure, atom.Dialog, atom.Hgroup, atom.Address,
		atom.Article, atom.Caption, atom.Details, atom.Section, atom.Summary, atom.Fieldset, atom.Figcaption:
		return tagBlock
	case atom.Html:
		return tagHTML
	case atom.Br:
		return tagBreak
	case atom.Td:
		return tagTd
	case atom.Th:
		return tagTh
	case atom.Body:
		return tagBody
	case atom.Table:
		return tagTable
	case atom.Form:
		return tagForm
	case atom.Blockquote:
		return tagBlockquote
	case atom.Q:
		return tagQ
	case atom.Del:
		return tagDel
	case atom.Ins:
		return tagIns
	case atom.Image:
		return tagImage
	case atom.Source:
		return tagSource
	case atom.Audio:
		return tagAudio
	case atom.Track:
		return tagTrack
	case atom.Embed:
		return tagEmbed
	case atom.Video:
		return tagVideo
	case atom.Object:
		return tagObject
	case atom.Applet:
		return tagApplet
	case atom.Script:
		return tagScript
	case atom.Style:
		return tagStyle
	case atom.Input:
		return tagInput
	case atom.Button:
		return tagButton
	case atom.Isindex:
		return tagIsindex
	case atom.Wbr:
		return tagWbr
	case atom.Img:
		return tagImg
	case atom.Area:
		return tagArea
	case atom.Frame:
		return tagFrame
	case atom.Iframe:
		return tagIframe
	case atom.Link:
		return tagLink
	case atom.Meta:
		return tagMeta
	case atom.Base:
		return tagBase
	case atom.Title:
		return tagTitle
	case atom.Noembed, atom.Noframes:
		return tagRawSkip
	case atom.Noscript:
		return tagNoscript
	case atom.Param:
		return tagParam
	case atom.Textarea, atom.Xmp, atom.Plaintext:
		return tagRawVisible
	case atom.Template:
		return tagTemplate
	case atom.Svg, atom.Math:
		return tagForeign
	case 0:
		if string(name) == "use" { // SVG's <use>, which package atom lacks
			return tagUse
		}
	}
	return tagOther
}

// appendCollapsed appends src to dst with runs of whitespace (ASCII and
// U+00A0) collapsed. *sep carries a pending separator across calls: 0 none,
// ' ' a space, '\n' a line break; it is written only between two non-space
// runs, so dst never starts or ends with one. At most limit bytes are kept,
// cut at a UTF-8 boundary; full reports that the limit was reached.
func appendCollapsed(dst, src []byte, sep *byte, limit int) (out []byte, full bool) {
	out, full, _ = collapse(dst, src, sep, limit, false)
	return out, full
}

// appendRawText is appendCollapsed for the raw bytes of a text token: it
// gives up, with ok false, at the first byte that the tokenizer's Text
// would rewrite ('&', '\r' or NUL), so that the caller can truncate dst,
// restore *sep and start again from Text. Spotting them in the collapse
// scan spares the text a pass of its own.
func appendRawText(dst, src []byte, sep *byte, limit int) (out []byte, full, ok bool) {
	return collapse(dst, src, sep, limit, true)
}

// collapse is appendCollapsed and, with raw set, appendRawText.
//
// Text is mostly words separated by single spaces, which need no
// rewriting, so each segment between other whitespace is copied with one
// append; segmentEnd finds its end eight bytes at a time.
func collapse(dst, src []byte, sep *byte, limit int, raw bool) (out []byte, full, ok bool) {
	s := *sep
	n := len(src)
	i := 0
	for i < n {
		c := src[i]
		if c <= ' ' || c == 0xC2 || c == '&' {
			if raw && (c == '&' || c == '\r' || c == 0) {
				*sep = s
				return dst, false, false
			}
			if isSpace(c) {
				if s == 0 {
					s = ' '
				}
				i++
				continue
			}
			if c == 0xC2 && i+1 < n && src[i+1] == 0xA0 {
				if s == 0 {
					s = ' '
				}
				i += 2
				continue
			}
		}
		j, ok := segmentEnd(src, i+1, raw)
		if !ok {
			*sep = s
			return dst, false, false
		}
		need := 0
		if s != 0 && len(dst) > 0 {
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
					dst = append(dst, s)
				}
				dst = append(dst, cut...)
			}
			*sep = s
			return dst, true, true
		}
		if need == 1 {
			dst = append(dst, s)
		}
		s = 0
		dst = append(dst, run...)
		i = j
	}
	*sep = s
	return dst, false, true
}

// segmentEnd returns the end of the segment of src that starts before j
// (src[j-1] belongs to it and is not whitespace): the first whitespace
// byte other than a single space between two segment bytes, or the first
// U+00A0. With raw set it gives up, ok false, at '&' or NUL; '\r' ends the
// segment, and collapse gives up there.
//
// Eight bytes at a time it looks for the bytes that may end the segment:
// bytes below ' ', 0xC2, '&', and a space after a space (carrying the
// word's last byte into the next word). The borrow tricks never miss such
// a byte but may flag others after a true match; the byte-wise step sorts
// them out.
func segmentEnd(src []byte, j int, raw bool) (end int, ok bool) {
	const highs = 0x8080808080808080
	n := len(src)
	var prevSpace uint64 // 0x80 if src[j-1] may be a space
	for j < n {
		if n >= 8 {
			var m uint64
			for ; j+8 <= n; j += 8 {
				var sp uint64
				if m, sp = segmentWord(binary.LittleEndian.Uint64(src[j:j+8]), prevSpace); m != 0 {
					break
				}
				prevSpace = sp >> 56
			}
			if m == 0 {
				if j >= n {
					break
				}
				// The last bytes, shifted down so that the bytes before
				// j drop out.
				shift := 8 * uint(8-(n-j))
				m, _ = segmentWord(binary.LittleEndian.Uint64(src[n-8:])>>shift, prevSpace)
				if m &= highs >> shift; m == 0 {
					break
				}
			}
			j += bits.TrailingZeros64(m) >> 3
		}
		switch c := src[j]; {
		case c > ' ' && c != 0xC2 && c != '&':
			prevSpace = 0
		case c == ' ':
			if src[j-1] == ' ' {
				return j - 1, true
			}
			prevSpace = 0x80
		case c == 0xC2:
			if j+1 < n && src[j+1] == 0xA0 {
				return trimSpaceEnd(src, j), true
			}
			prevSpace = 0
		case spaceMask&(1<<c) != 0:
			return trimSpaceEnd(src, j), true
		case raw && (c == '&' || c == 0):
			return j, false
		default: // '&' when not raw, control characters
			prevSpace = 0
		}
		j++
	}
	return trimSpaceEnd(src, n), true
}

// segmentWord flags, with 0x80 in m, the bytes of x that segmentEnd must
// look at, and returns with sp the bytes that may be spaces. prevSpace is
// 0x80 if the byte before x may be a space.
func segmentWord(x, prevSpace uint64) (m, sp uint64) {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	v := x ^ 0x06*ones // '&' becomes ' ', bytes below ' ' stay below it
	y := x ^ 0xC2*ones
	z := x ^ ' '*ones
	sp = (z - ones) &^ z & highs
	m = ((v-0x21*ones)&^v|(y-ones)&^y)&highs | sp&(sp<<8|prevSpace)
	return m, sp
}

// trimSpaceEnd returns end, less one if src[end-1] is a space.
func trimSpaceEnd(src []byte, end int) int {
	if src[end-1] == ' ' {
		return end - 1
	}
	return end
}

// spaceMask has bit c set for each ASCII whitespace byte c.
const spaceMask = 1<<' ' | 1<<'\t' | 1<<'\n' | 1<<'\f' | 1<<'\r'
