package extract

import (
	"io"
	"net/url"
	"sync"
	"unsafe"

	"github.com/trawl-dev/trawl/urlnorm"
)

// Default bounds, used where the matching Options field is zero.
const (
	DefaultMaxLinks       = 10_000  // links per document
	DefaultMaxTokens      = 1 << 20 // tokenizer tokens per document
	DefaultMaxTextLen     = 1 << 20 // bytes of Document.Text
	DefaultMaxLinkTextLen = 256     // bytes of each Link.Text
	DefaultMaxAttrLen     = 8 << 10 // bytes of an href, src or other attribute used
	DefaultMaxTokenLen    = 4 << 20 // bytes of one token
	DefaultMaxScriptLen   = 1 << 20 // bytes of one script read for URLs (Options.Scripts)
)

// Options configures Links and NewExtractor. A nil *Options is valid and
// means all defaults; a zero field means its default. Negative bounds are
// treated as zero. Calls only read Options, so one value may be shared by
// concurrent calls as long as nobody modifies it.
type Options struct {
	// Normalizer resolves and normalizes links. Nil means urlnorm.New().
	Normalizer *urlnorm.Normalizer

	// BotName is the crawler's robots product token: <meta name=BOTNAME>
	// applies to it, as do X-Robots-Tag and meta values prefixed "BOTNAME:".
	// Empty means only directives for all robots apply.
	BotName string

	// SkipText skips the visible page text: Document.Text and
	// Extractor.Text stay empty and never set Truncated. Links with their
	// anchor text, the title and the other page signals are unchanged.
	// For link discovery alone: it spares the Extractor the page text's
	// share of its work. Default false: the text is collected.
	SkipText bool

	// Speculative also reports URL-looking strings where the markup
	// promises no reference, as Kind Speculative (see the Kind and the
	// package doc for where it looks, and how strict it is). Default
	// false: the scan costs a little on every page, and such URLs may not
	// exist.
	Speculative bool

	// Scripts also reports the URLs a static reading of the page's
	// JavaScript finds (inline <script>, on* attributes, javascript:
	// URLs), as Kind Script. Nothing is executed. Default false.
	Scripts bool

	// MaxScriptLen caps the bytes of one script (an inline <script>, a
	// handler, a fetched .js file) read for URLs; the rest is ignored.
	// Default DefaultMaxScriptLen.
	MaxScriptLen int

	// MaxLinks caps the links of one document; further links are dropped
	// and Truncated is set. Default DefaultMaxLinks.
	MaxLinks int

	// MaxTokens caps the tokens scanned; the rest of the document is
	// ignored and Truncated is set. Default DefaultMaxTokens.
	MaxTokens int

	// MaxTextLen caps Document.Text in bytes; Truncated is set when it is
	// reached. Default DefaultMaxTextLen.
	MaxTextLen int

	// MaxLinkTextLen caps each link's text in bytes (cut at a UTF-8
	// boundary). Default DefaultMaxLinkTextLen.
	MaxLinkTextLen int

	// MaxAttrLen is the longest href, src, content or other attribute value
	// used; longer values are ignored (a link with a longer href is
	// dropped). Default DefaultMaxAttrLen.
	MaxAttrLen int

	// MaxTokenLen caps the bytes of a single token, such as a long inline
	// script: a token that needs more input than that (counting the byte
	// the tokenizer looks ahead past text) stops the scan and sets
	// Truncated. It bounds the tokenizer's buffer. Default
	// DefaultMaxTokenLen.
	MaxTokenLen int
}

type limits struct {
	maxLinks, maxTokens, maxTextLen, maxLinkTextLen, maxAttrLen, maxTokenLen, maxScriptLen int
}

func (o *Options) limits() limits {
	l := limits{DefaultMaxLinks, DefaultMaxTokens, DefaultMaxTextLen, DefaultMaxLinkTextLen, DefaultMaxAttrLen, DefaultMaxTokenLen, DefaultMaxScriptLen}
	if o == nil {
		return l
	}
	set := func(dst *int, v int) {
		if v > 0 {
			*dst = v
		}
	}
	set(&l.maxLinks, o.MaxLinks)
	set(&l.maxTokens, o.MaxTokens)
	set(&l.maxTextLen, o.MaxTextLen)
	set(&l.maxLinkTextLen, o.MaxLinkTextLen)
	set(&l.maxAttrLen, o.MaxAttrLen)
	set(&l.maxTokenLen, o.MaxTokenLen)
	set(&l.maxScriptLen, o.MaxScriptLen)
	return l
}

// Link is one reference of a page, a style sheet or a response header:
// plain data, safe to share.
type Link struct {
	URL  string // absolute http(s) URL, resolved against Document.Base (or a codebase, see RawLink.Base) and normalized
	Text string // anchor text, or the alt/title attribute; whitespace-collapsed, bounded
	Tag  string // element: "a", "img", "link", "meta" ...; "style" for inline CSS, "css" (CSSLinks), a header name (HeaderLinks)
	Kind Kind   // what the reference is for: Navigation, Embed, Style ...
	Rel  Rel    // rel attribute values
}

// Document is what Links found in one page. Each call returns a new
// Document (its Base may be the pageURL passed in); it is plain data, safe
// to share once built.
type Document struct {
	Base      *url.URL // effective base: the first <base href> resolved against the page URL, else the page URL
	Title     string   // first <title>, whitespace-collapsed, at most 1024 bytes
	Robots    Robots   // <meta name=robots> and <meta name=BOTNAME>, merged
	Canonical string   // first <link rel=canonical>, resolved and normalized; "" if none or invalid
	Lang      string   // <html lang>, else <meta http-equiv=content-language>; "" if unknown
	Links     []Link   // every reference with its Kind, in document order, at most MaxLinks; duplicates kept
	Text      string   // visible text, see Extractor.Text; at most MaxTextLen bytes; empty with SkipText
	Truncated bool     // a document bound was hit (see Extractor.Truncated)
}

// Links reads an HTML document from r and returns its references, each
// with its Kind (pages, frames, redirects, GET forms, feeds, sitemaps,
// embedded resources, style sheets, pings: the package doc has the table),
// and its page-level signals. pageURL is the URL the document was fetched
// from, after redirects; relative references resolve against it or
// against the document's <base href> (or a codebase). A nil pageURL keeps
// only absolute references.
//
// References that cannot be followed are dropped silently: in-page
// fragments, empty values (except a form without action, which submits to
// pageURL), schemes other than http and https, and URLs the Normalizer
// rejects. References whose element comes before <base> still resolve
// against the base, as in browsers.
//
// Malformed HTML is never an error. The error is non-nil only when r
// fails; the Document then holds what was read before the failure.
func Links(r io.Reader, pageURL *url.URL, opts *Options) (*Document, error) {
	e := getExtractor(opts)
	defer putExtractor(e)
	e.Reset(r)
	if l, ok := r.(interface{ Len() int }); ok && !e.skipText {
		// Readers that know their size (bytes.Reader, strings.Reader,
		// bytes.Buffer) spare the page text its growth copies.
		if n := min(l.Len(), e.lim.maxTextLen); cap(e.text) < n {
			e.text = make([]byte, 0, n)
		}
	}

	// Collect raw links first: the base may come after some of them, and
	// one string for all texts and one for all hrefs cost two allocations
	// instead of two per link. (refs is the pooled Extractor's: nothing
	// returned points into it.)
	var (
		refs  = e.refs[:0]
		hrefs []byte
		texts []byte
		bases []byte // codebases and srcdoc bases, rare
	)
	defer func() { e.refs = refs[:0] }()
	for e.Next() {
		l := e.Link()
		hrefs = append(hrefs, l.Href...)
		texts = append(texts, l.Text...)
		bases = append(bases, l.Base...)
		refs = append(refs, rawRef{len(hrefs), len(texts), len(bases), l.Tag, l.Kind, l.Rel})
	}

	norm := normalizerOf(opts)
	doc := &Document{
		Base:      pageURL,
		Title:     string(e.Title()),
		Robots:    e.Robots(),
		Lang:      string(e.Lang()),
		Text:      string(e.Text()), // a copy: e goes back to the pool
		Truncated: e.Truncated(),
	}
	if b, ok := e.BaseHref(); ok {
		if s, err := norm.ResolveString(pageURL, string(b)); err == nil {
			if u, err := url.Parse(s); err == nil {
				doc.Base = u
			}
		}
	}
	if c, ok := e.CanonicalHref(); ok {
		if s, err := norm.ResolveString(doc.Base, string(c)); err == nil {
			doc.Canonical = s
		}
	}

	hrefStr, textStr := ownedString(hrefs), ownedString(texts)
	doc.Links = make([]Link, 0, len(refs))
	var prevRef, prevURL string
	hs, ts, bs := 0, 0, 0
	for _, r := range refs {
		ref, text, base := hrefStr[hs:r.hrefEnd], textStr[ts:r.textEnd], bases[bs:r.baseEnd]
		hs, ts, bs = r.hrefEnd, r.textEnd, r.baseEnd
		if r.kind == Speculative && r.tag == "base" {
			// The <base href> itself, against the page URL as the base is.
			if s, err := norm.ResolveString(pageURL, ref); err == nil {
				doc.Links = append(doc.Links, Link{URL: s, Text: text, Tag: r.tag, Kind: r.kind, Rel: r.rel})
			}
			continue
		}
		if len(base) > 0 || r.kind == Form && ref == "" {
			// A codebase, a srcdoc's <base href>, or a form without
			// action (the document's own URL, not the base).
			if u, ok := resolveSpecial(norm, pageURL, doc.Base, base, ref); ok {
				doc.Links = append(doc.Links, Link{URL: u, Text: text, Tag: r.tag, Kind: r.kind, Rel: r.rel})
			}
			continue
		}
		u := prevURL
		if ref != prevRef || prevURL == "" {
			// Adjacent duplicates (an image link and a text link to one
			// page) are common; resolve them once.
			s, err := norm.ResolveString(doc.Base, ref)
			if err != nil {
				continue
			}
			prevRef, prevURL, u = ref, s, s
		}
		doc.Links = append(doc.Links, Link{URL: u, Text: text, Tag: r.tag, Kind: r.kind, Rel: r.rel})
	}
	return doc, e.Err()
}

// resolveSpecial resolves the references that do not resolve against the
// document's base alone: ref against base (a codebase or a srcdoc's base,
// itself resolved against docBase), or, for an empty ref, the page URL.
func resolveSpecial(norm *urlnorm.Normalizer, pageURL, docBase *url.URL, base []byte, ref string) (string, bool) {
	if len(base) == 0 {
		if pageURL == nil {
			return "", false
		}
		s, err := norm.ResolveString(pageURL, "")
		return s, err == nil
	}
	b, err := norm.ResolveString(docBase, string(base))
	if err != nil {
		return "", false
	}
	bu, err := url.Parse(b)
	if err != nil {
		return "", false
	}
	s, err := norm.ResolveString(bu, ref)
	return s, err == nil
}

// rawRef is a link Links has collected: where its href, text and base end
// in the call's buffers, and its tag, kind and rel.
type rawRef struct {
	hrefEnd, textEnd, baseEnd int
	tag                       string
	kind                      Kind
	rel                       Rel
}

// extractors keeps Links's Extractors between calls: a new one allocates
// its tokenizer (with a 4 KiB buffer) and a page-sized text buffer for
// every document, a kept one nothing once its buffers have grown. A
// sync.Pool, so it holds no more than the calls in flight need and the
// collector may empty it; nothing in it is visible to callers.
var extractors sync.Pool

// getExtractor returns an Extractor with the bounds in opts, as
// NewExtractor does, from the pool when it has one.
func getExtractor(opts *Options) *Extractor {
	e, ok := extractors.Get().(*Extractor)
	if !ok {
		return NewExtractor(opts)
	}
	e.lim, e.done = opts.limits(), true
	e.botName, e.skipText, e.spec, e.scripts = "", false, false, false
	if opts != nil {
		e.botName, e.skipText = opts.BotName, opts.SkipText
		e.spec, e.scripts = opts.Speculative, opts.Scripts
	}
	return e
}

// putExtractor returns e to the pool, without the reader it read, so that
// the pool keeps no document alive. Its own buffers are kept unless the
// page text outgrew maxPooledText.
func putExtractor(e *Extractor) {
	e.Reset(eofReader{})
	if cap(e.text) > maxPooledText {
		e.text = nil
	}
	if cap(e.refs) > maxPooledRefs {
		e.refs = nil
	}
	extractors.Put(e)
}

// maxPooledText is the largest page-text buffer a pooled Extractor keeps,
// maxPooledRefs the most links it keeps room for.
const (
	maxPooledText = 1 << 20
	maxPooledRefs = 4096
)

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// ownedString returns b as a string without copying. b must never be
// written again: Links uses it only for buffers of its own that it drops
// when it returns.
func ownedString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
