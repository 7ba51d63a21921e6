// Package extract reads what a crawler needs out of fetched HTML: the
// outgoing links with their anchor text and rel values, the page-level
// signals that decide what to do with them (title, robots directives,
// canonical URL, language, base URL), the visible text, and the page's main
// content.
//
// # Links and page signals
//
// Links streams a document once over the golang.org/x/net/html tokenizer
// — no DOM is built — and returns a Document:
//
//	doc, err := extract.Links(resp.Body, finalURL, &extract.Options{BotName: "trawlbot"})
//	if err != nil { ... } // only a read error; malformed HTML never fails
//	robots := doc.Robots.Merge(extract.RobotsFromHeader(resp.Header, "trawlbot"))
//	if !robots.NoFollow {
//		for _, l := range doc.Links {
//			if l.Rel&extract.RelNofollow == 0 { enqueue(l.URL) }
//		}
//	}
//
// It finds links in <a href>, <area href>, <frame src>, <iframe src>,
// <link href> with rel canonical, alternate, next or prev (not style
// sheets, icons or preloads), and <meta http-equiv="refresh"
// content="5; url=...">. Every Link.URL is absolute, http or https,
// resolved against the effective base (the first <base href>, itself
// resolved against the page URL, else the page URL; it applies to links
// before the <base> element too, as in browsers) and normalized with
// urlnorm. Links that a crawler cannot follow are dropped silently: empty
// hrefs, in-page fragments ("#top"), other schemes (mailto:, javascript:,
// tel:, data:, ftp:) and hrefs the Normalizer rejects. Duplicates are kept,
// in document order, each with its own text and rel.
//
// Link.Text is the anchor's text with whitespace (including U+00A0)
// collapsed, without script or style content; for an image link it falls
// back to the image's alt, then to the anchor's title attribute. For area
// it is alt, for frames, iframes and link elements the title attribute.
//
// Page signals come from the same pass: the first <title>; <meta
// name="robots"> and <meta name=BOTNAME> parsed with ParseRobots and
// merged (X-Robots-Tag headers are parsed with RobotsFromHeader); the first
// <link rel="canonical">; the language from <html lang> or <meta
// http-equiv="content-language">. Document.Text is the visible text:
// everything outside script, style, noscript, template, iframe and title
// elements, whitespace collapsed, with a '\n' between block elements.
//
// Markup is interpreted as the HTML tokenizer and parser would: character
// references are decoded (with the attribute-value rules, so "?a=1&copy=2"
// stays as written), attribute names are case-insensitive and the first
// of a repeated attribute wins, the contents of script, style, noscript,
// iframe, textarea and title are text not markup (except inside <svg> and
// <math>, as in the parser), comments hide links, and an <a> ends at
// </a>, at the next <a> or at the end of input. The input must be UTF-8:
// fetchers convert other charsets first.
//
// # The zero-copy tier
//
// Extractor is the layer under Links, for callers that want to filter or
// resolve links themselves and keep allocation flat. It yields RawLink
// values whose Href and Text are byte slices into the Extractor's own
// buffers:
//
//	e := extract.NewExtractor(nil) // one per worker; reuse it
//	for page := range pages {
//		e.Reset(page.Body)
//		for e.Next() {
//			l := e.Link() // l.Href and l.Text valid until the next Next or Reset
//			...
//		}
//		if e.Err() != nil { ... }
//		title := e.Title() // page-level accessors: complete once Next returns false
//	}
//
// Slice lifetimes: RawLink.Href and RawLink.Text are valid until the next
// call to Next or Reset; Title, BaseHref, CanonicalHref, Lang and Text are
// valid until the next Reset and complete only after Next has returned
// false. Copy what must outlive that. Hrefs are not resolved: resolve them
// against BaseHref (resolved against the page URL) with urlnorm, as Links
// does.
//
// A reused Extractor allocates nothing per link beyond what the x/net/html
// tokenizer allocates itself: it reads tag names and attributes from the
// token's raw bytes, with the tokenizer's own attribute state machine,
// instead of through TagName and TagAttr, which copy; text tokens too are
// read raw when they hold nothing to decode. Attribute values with
// character references go through TagAttr, text with them through Text,
// for exact decoding. (The
// tokenizer itself copies each attribute name it scans, to drop duplicate
// attributes, so no tokenizer client reaches zero allocations per tag;
// TestExtractorAllocs checks that the Extractor adds none.)
//
// # Main content
//
// TODO(lead): main-content finders (MainText, BTE, DOM finder).
//
// # Bounds
//
// Every quantity has a hard cap, so a hostile page cannot make extraction
// allocate without limit or run forever: tokens scanned (MaxTokens), bytes
// in one token (MaxTokenLen, via the tokenizer's SetMaxBuf, which also caps
// its buffer), links (MaxLinks), page text (MaxTextLen), link text
// (MaxLinkTextLen) and attribute values used (MaxAttrLen). The first four
// set Document.Truncated when hit; the others cut silently. Zero Options
// fields mean the Default* constants. Memory for one document is then
// O(MaxTokenLen + MaxLinks × (MaxAttrLen + MaxLinkTextLen) + MaxTextLen)
// whatever the input length; with defaults the link and text parts stay far
// below their worst case on real pages.
//
// # Concurrency
//
// Links, ParseRobots, RobotsFromHeader and ParseRel are safe for
// concurrent use; Links shares nothing between calls but the Normalizer,
// which is safe for concurrent use. An Extractor is not: use one per
// goroutine. Options must not be modified while a call uses them.
//
// # Security considerations
//
// The input is untrusted. Beyond the bounds above: links never carry
// schemes other than http and https, so javascript: and data: URLs cannot
// reach a fetcher; URLs are normalized, so equal resources compare equal;
// robots directives are only ever restrictions (a page cannot lift a
// restriction from the headers); <base href> is taken once, so a later
// element cannot redirect links already seen; and nothing from the page is
// evaluated. A page can still point its links anywhere, including private
// addresses: that is for the fetcher's dial-time checks. FuzzLinks checks
// the bounds, the URL properties and determinism on arbitrary input, and
// that the raw attribute scanner agrees with the tokenizer;
// FuzzAppendCollapsed checks the word-at-a-time whitespace collapse
// against a byte-at-a-time reference.
//
// # Performance
//
// Links is the per-page hot path. BenchmarkLinks, BenchmarkExtractor and
// BenchmarkTokenizer (the tokenizer alone, the floor) run on synthetic
// 20–200 KB news pages; bench/extract_test.go compares Links with what
// Colly does per page (goquery document plus a[href] selection and
// net/url resolution).
package extract
