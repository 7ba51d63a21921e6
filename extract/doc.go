// Package extract reads what a crawler needs out of fetched HTML: every URL
// the page references, each tagged with a Kind (a page to follow, a frame,
// a redirect, a GET form, a feed, a sitemap, an embedded resource, a style
// sheet, a ping), with anchor text and rel values; the page-level signals
// that decide what to do with them (title, robots directives, canonical
// URL, language, base URL); the visible text; and the page's main content.
// It also reads the references of style sheets (CSSLinks), of response
// headers (HeaderLinks) and of srcset attributes (ParseSrcset).
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
//			switch l.Kind {
//			case extract.Navigation, extract.Frame, extract.Redirect:
//				if l.Rel&extract.RelNofollow == 0 { enqueue(l.URL) }
//			}
//		}
//	}
//
// Links returns every reference of the document, in document order, each
// with its Kind (the table below): a crawler that wants pages only keeps
// Navigation, Frame and Redirect (and perhaps Form); an archiving crawler
// also fetches Embed and Style, and parses style sheets with CSSLinks.
// Every Link.URL is absolute, http or https, resolved against the
// effective base (the first <base href>, itself resolved against the page
// URL, else the page URL; it applies to links before the <base> element
// too, as in browsers) and normalized with urlnorm. References that a
// crawler cannot follow are dropped silently: empty values, in-page
// fragments ("#top", an SVG <use href="#icon">), other schemes (mailto:,
// javascript:, tel:, data:, ftp:) and URLs the Normalizer rejects.
// Duplicates are kept, in document order, each with its own text and rel
// (the crawler's frontier drops URLs it has seen). An <a> link is reported
// when its element ends, so after the references inside it (an image in
// a link comes first), and its pings right after it; the other references
// when their element starts.
//
// Link.Text is the anchor's text with whitespace (including U+00A0)
// collapsed, without script or style content; for an image link it falls
// back to the image's alt, then to the anchor's title attribute. For area
// and img it is alt, for frames, iframes and link elements the title
// attribute; other references have none.
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
// # References and their kinds
//
// Every construct below is covered, and TestConstructs shows each one
// found, tagged and resolved (Link.Tag is the element's name).
//
//	construct                                         Kind        notes
//	a[href], area[href]                               Navigation  rel kept; SVG a[href|xlink:href] too
//	a[ping], area[ping]                               Ping        space-separated list, one Link each
//	link[href] rel=canonical, next, prev, author ...  Navigation  any rel not listed below
//	link rel=alternate type=application/rss+xml       Feed        also atom+xml, rdf+xml, feed+json
//	link rel=stylesheet (also "alternate stylesheet") Style
//	link rel=icon, apple-touch-icon, mask-icon,       Embed       and the URLs of imagesrcset
//	  preload, prefetch, modulepreload, manifest
//	link rel=sitemap                                  Sitemap
//	link rel=dns-prefetch, preconnect; no rel         -           origins, not resources: skipped
//	base[href]                                        -           the base of every other reference
//	frame[src], iframe[src]                           Frame
//	iframe[srcdoc]                                    (inner)     parsed as HTML; its references resolve against
//	                                                              the document's base (or the srcdoc's own <base>);
//	                                                              a refresh inside is Frame; nested 2 deep at most
//	img[src|srcset|lowsrc|dynsrc]                     Embed       srcset by ParseSrcset; <image> outside SVG is img
//	img[longdesc]                                     Navigation
//	picture/source[src|srcset]                        Embed
//	audio[src], video[src|poster], track[src]         Embed
//	embed[src]                                        Embed
//	object[data|codebase]                             Embed       data resolved against codebase when given
//	applet[code|codebase|archive]                     Embed       code and archive (comma-separated) against codebase
//	script[src]                                       Embed       SVG script[href|xlink:href] too
//	input[src]                                        Embed
//	form[action]                                      Form        method GET, absent or invalid only (not post, dialog);
//	                                                              no action: the document URL (not the base)
//	button[formaction], input[formaction]             Form        when formmethod, else the form's method, is GET;
//	                                                              outside a form only with a form attribute
//	isindex[action]                                   Form
//	blockquote/q/del/ins[cite]                        Navigation
//	body/table/td/th[background]                      Embed
//	meta http-equiv=refresh                           Redirect    "5; url=..." per the HTML standard
//	meta http-equiv=content-location                  Navigation
//	SVG image/use[href|xlink:href]                    Embed       href wins over xlink:href
//	<style> content, style="" attributes              Embed/Style CSS url() is Embed, @import is Style (Tag "style")
//
// Outside HTML:
//
//	CSSLinks(css, base, opts)   url(...) Embed, @import Style, image-set() strings Embed; against the style sheet's URL
//	HeaderLinks(h, status, ...) Location (3xx, 201), Content-Location, Refresh: Redirect; Link (RFC 8288): kind by rel
//	                            as for <link>; against the response URL
//	ParseSrcset(s)              the candidate URLs of a srcset value, unresolved
//
// The Extractor reports the same references as RawLink values with their
// Kind; RawLink.Base carries a codebase (or a srcdoc's <base href>) to
// resolve Href against, and an empty Href on a Form stands for the
// document's URL.
//
// Left out on purpose: links inside <noscript> (scripting is assumed on, as
// by the tokenizer, so its content is text); CSS inside SVG <style> (its
// content is markup there); other SVG references (filter, pattern,
// textPath ...), which nearly always point into the document itself. The
// content of <template> is scanned like the rest.
//
// # What JavaScript does is out of reach
//
// Nothing on the page is executed. References that exist only when a
// script runs are not found: URLs built in scripts (string concatenation,
// template literals, location.href = ...), inline event handlers (onclick,
// onmouseover) and javascript: URLs, fetch, XMLHttpRequest, WebSocket and
// EventSource requests, dynamic import() and importScripts, client-side
// routers (history.pushState, hash routing) and the pages of single-page
// applications, elements that scripts insert or rewrite (lazy-loading
// libraries that move data-src into src, infinite scroll), and service
// workers. Such references need a rendering crawler (a headless browser);
// string literals inside <script> are not guessed at.
//
// # Sitemaps and feeds
//
// ReadSitemap reads one sitemap file as the sitemaps.org protocol defines
// it — a <urlset>, a <sitemapindex> or a text file of one URL per line —
// and returns its entries with their lastmod, changefreq and priority:
//
//	sm, err := extract.ReadSitemap(resp.Body, nil)
//	// err != nil: sm still holds what was read before it
//	for _, s := range sm.Sitemaps { enqueueSitemap(s.Loc) } // an index
//	for _, u := range sm.URLs { enqueue(u.Loc) }             // a urlset or a text file
//
// The bytes decide the form, not the headers: gzip is recognised by its
// magic bytes (so a .xml.gz served as application/gzip with
// Content-Encoding: identity is read, as is one gzipped twice), a BOM and
// leading white space are skipped, '<' starts XML and anything else is
// text. XML is streamed over encoding/xml's Decoder.RawToken with
// ReadSitemap's own element stack, leniently: unescaped '&' and HTML
// entities are accepted, a stray or mismatched end tag closes only what it
// names, a missing </url> is implied by the next <url>. Elements count by
// local name in the root's namespace or none, so image:, video:, news: and
// xhtml:link alternates are skipped. Locs are trimmed and kept as written
// (not normalized); those that are not absolute http(s) URLs are dropped
// and counted in SitemapFile.Skipped. lastmod takes every W3C Datetime
// form (YYYY to YYYY-MM-DDThh:mm:ss.sTZD, and a missing zone as UTC); a
// priority outside [0, 1] leaves HasPriority false. The protocol's limits
// hold by default (50,000 entries, 50 MiB uncompressed; SitemapOptions
// changes them), and fixed bounds on token size (1 MiB) and nesting (64):
// past one, ReadSitemap returns the entries read, Truncated, and an error
// wrapping ErrSitemapTooLarge. Malformed input gives the entries before
// the fault and one error wrapping ErrSitemapSyntax. The *SitemapFile is
// never nil.
//
// ReadFeed reads an RSS (0.9x, 1.0/RDF, 2.0) or Atom (0.3, 1.0) feed with
// github.com/mmcdole/gofeed and returns its title and its items' links,
// resolved against xml:base and the feed URL and normalized as Links'
// are:
//
//	feed, err := extract.ReadFeed(resp.Body, feedURL, nil)
//	for _, it := range feed.Items { enqueue(it.URL) } // it.Title, it.Published too
//
// gofeed is maintained, covers every RSS and Atom version with one model
// and is lenient with broken feeds, but has no bounds of its own (10 MiB
// of <item/> costs it 1.5 GB of heap; deep nesting overflows its stack,
// which is fatal) and stops silently at a stray end tag. So ReadFeed reads
// at most FeedOptions.MaxBytes (10 MiB), passes over the feed once with
// encoding/xml to make its end tags nest and to enforce MaxItems (10,000),
// 100,000 elements and 256 levels, and hands gofeed the feed cut before
// the first item that does not fit (Truncated, ErrFeedTooLarge) or in
// which a syntax error lies (ErrFeedSyntax, with the items before it).
// JSON Feed is refused. gofeed's binary cost is small for a crawler that
// already decodes charsets (11 KB for examples/sitespider) and 2.3 MB for
// a program that links nothing else of x/net/html/charset.
//
// FuzzReadSitemap and FuzzReadFeed check the bounds, the URL properties,
// the error sentinels and determinism on arbitrary input.
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
// for exact decoding. (The tokenizer itself copies each attribute name it
// scans, to drop duplicate attributes, so no tokenizer client reaches zero
// allocations per tag; TestExtractorAllocs checks that the Extractor adds
// none.) Nor does it allocate per document: Reset restarts its tokenizer
// as a copy of the fresh one NewTokenizer made, which shares that
// tokenizer's 4 KiB input buffer, instead of calling NewTokenizer again
// (relying, as the token length bound does, on x/net/html's behaviour
// rather than its contract: a Tokenizer holds its whole state in its own
// fields; the tests and FuzzLinks would notice a change).
//
// Options.SkipText is for link discovery alone: the page text is not
// collected (links, anchor texts and page signals are unchanged), which
// saves about 5 % of the Extractor's time. On 200 crawltest pages the
// Extractor, finding every reference kind and collecting the page text,
// costs about 1.14× the bare tokenizer (which makes a NewTokenizer per
// page) and runs 3.5× as fast as goquery's parse and a[href] selection
// (3.2–4.0× in single runs; cd bench && go test -bench ExtractLinks
// ./micro; November 2026, CPU time, benchstat medians of 8 runs
// interleaved with the code before, which measured 2.75× and 1.43× the
// tokenizer in the same runs), 3.9× with SkipText (6 more runs). What the
// Extractor adds to the tokenizer is mostly the page text's word-at-a-time
// scan and copy, then the tag-name lookup and the <a> path.
//
// Finding every reference kind costs little on that hot path: the
// Extractor reads each tag name a word at a time, looks it up packed into
// that word, and scans only the attributes that tag can carry (img: src,
// srcset, lowsrc, dynsrc, longdesc, alt; p: none), and a tag's style
// attribute only when the tag holds a '(' (one IndexByte; none for the
// usual <a href="...">). References other than <a> go through a small
// queue, since one element may hold several (srcset, ping, CSS), in reused
// buffers: still no allocation per link.
//
// # Main content
//
// MainText returns a page's main content (article, post or story) as plain
// text, one paragraph per block separated by blank lines; MainTextNode does
// the same on a tree from html.Parse. MainTextWithReason also says why the
// text is empty when it is: a page where no article is found (a link list,
// a menu, fragments without sentences) yields "" and ReasonNoArticle, never
// the whole page. BTE is the textbook baseline.
//
// BTE (Finn, Kushmerick and Smyth, 2001) sees the page as tokens b_k (1 for
// a tag, 0 for a word) and keeps the window i ≤ j maximising
// Σ_{k<i} b_k + Σ_{i≤k≤j} (1−b_k) + Σ_{k>j} b_k. With prefix counts P (tags)
// and W (words) this is [P(i)−W(i)] + [W(j+1)−P(j+1)] + P(N), so BTEWindow
// finds it in one O(N) pass.
//
// MainText works on the DOM. It uses only structure and markup
// conventions that hold across sites, never rules for a site or domain:
//  1. Removal: script, style, template (inert until cloned) and noscript
//     (a crawler reads pages as a browser with scripts on would show them;
//     noscript holds "enable JavaScript" notices and tracking pixels), svg,
//     math, iframes, embeds, media, form controls and their labels
//     (label elements); nav, aside, footer,
//     menu, dialog and figcaption (captions and photo credits); ARIA
//     navigation, complementary, contentinfo, menu, search, button and
//     toolbar roles and aria-modal boxes; hidden text: the hidden attribute, an inline
//     display:none or visibility:hidden, and the usual visually-hidden
//     classes (sr-only, screen-reader-text, visually-hidden, hidden, ...,
//     also with Tailwind's "!" prefix); ruby annotations (rt, rp: the
//     readings printed over East Asian characters); forms holding less
//     than half the page's text (comment and search forms; a form
//     wrapping the whole page stays). Comments are not text.
//  2. Segmentation: the text between block-level boundaries (p, div, li,
//     td, h1–h6, ...) is a block, whitespace collapsed and <br> kept as a
//     line break, characters written decomposed (a letter and a combining
//     mark, a Bengali vowel sign in two parts) composed as in Unicode
//     normalization form C (a character that form C would replace by
//     another single one, such as the Kelvin sign, stays as written).
//     Each block records its words (whitespace-separated runs;
//     Han, kana, Hangul and Thai characters count half a word each), words
//     inside links, sentence-ending marks (. ! ? 。 ！ ？ ؟ । ...; a full
//     stop between two digits, as in a date or a decimal, is none), heading
//     level, how often its text recurs on the page, and whether all its
//     words lie in inline elements (span, a ...) with a negative class or
//     id hint (below) or a class naming a caption (step 7). These are
//     language-neutral. Class and id names
//     give weaker hints: a name with a boilerplate token (comment, nav,
//     share, related, newsletter, cookie,
//     consent, byline, author, bio, tags, toc, breadcrumb, meta, ...)
//     counts against, also in compounds such as "entry-meta" or
//     "article-related" and when an article word runs into "meta" in one
//     token ("postmetadata", "entrymeta": a post's date and categories);
//     a name with only article tokens (article, content, entry, post,
//     story, body, text, main) counts for; an element with both cancels
//     out, except that a negative id on an element whose class has only a
//     positive name (class "post", id "author") makes it negative: the id
//     names that one element, the class its kind (never on an element
//     declared the article body by itemprop). A negative hint on an element holding more
//     than half the page's words and its longest block is ignored (a page
//     wrapper with an unlucky name), unless three quarters of its words
//     or more are in one list of entries: three or more sibling elements
//     of one template, not paragraphs, headings or sections, each holding
//     running text (a comment thread or a slide show that outgrew the
//     short post above it is still no part of it); and so
//     is one on an element enclosing the page's one itemprop=articleBody
//     element (the page says the article is inside), and so are negative
//     hints shared by every block of running text on the page (a
//     boilerplate-sounding wrapper around all of it tells nothing), in
//     scoring and, when the container would otherwise come out empty, in
//     step 7.
//  3. Repeated sibling patterns: three or more siblings built from one
//     template (same tag and class; without a class, same tag and id, so
//     that a page's header, content, sidebar and footer divs are not one
//     template), nearly all short (≤ 80 words) and with a link, whose words
//     are together ≥ 40 % linked, are a list of teasers (related articles,
//     "read more", most popular, tag lists). A sibling holding more than
//     half the page's words and its longest block (unless it is such a
//     box of entries), or enclosing the
//     page's one itemprop=articleBody element, is not one of them.
//  4. Evidence: a JSON-LD articleBody of at least 30 words, at least half
//     of whose distinct words occur on the page, vouches for the blocks
//     that have ≥ 70 % of their words in it. One element marked
//     itemprop=articleBody is taken as the container when its blocks score
//     more than 0.3 × the best element's. <article>, <main> and
//     itemprop=articleBody or text count as positive hints.
//  5. Scoring: block score s = (w−ℓ) − 1.77ℓ − 1.6, minus 2.7 more when the
//     block has no sentence mark and is not a heading (w words, ℓ linked
//     words). A block repeated 3 or more times scores −w−1.6. A block the
//     JSON-LD body vouches for scores max(s, 0) + 0.5w whatever else holds.
//     Inside a teaser list s ← min(s, 0); inside a negatively hinted element
//     s ← 0.53·s − 7.2·w unless the block is a fragment (no sentence mark,
//     < 10 words: a caption or "load notes" line that would otherwise split
//     an article in two); inside a positively hinted one a positive s is
//     multiplied by 1.37.
//  6. The container is the block element whose blocks have the largest
//     total score (the tree counterpart of BTE's window; O(N) with prefix
//     sums, since an element's blocks are contiguous). If nothing scores
//     above 0, the search is repeated without hints; if still nothing does,
//     the page has no article. A container of headings only (a headline
//     scoring more than the short post under it) gives way to the best
//     element holding a block of running text that scores above 0. When
//     the container found with hints keeps
//     no text at all (step 7), the container found without them is taken
//     instead, with negative hints ignored in step 7 too, if it keeps
//     running text: a live blog whose entries all sit under "comment"
//     classes, a video page whose description is a "teaser" paragraph.
//     A run of consecutive children of one
//     element (child elements and text directly inside it; best found with
//     Kadane's maximum-sum scan, O(N) over the tree) replaces the container
//     when it reaches beyond it and scores more than the container plus
//     max(4, 0.05 × the container's score): an article split into
//     sections or with each paragraph in a wrapper of its own. Sibling
//     elements, and text directly inside the parent, scoring above that
//     same max(4, 0.05 × the container's score) are added; after a
//     container that is one paragraph (a p element), so are the sibling
//     paragraphs right after it that are running text and score at least
//     0 (a short post whose second paragraph is heavy with links). A
//     sibling lying between two kept blocks of the parent, none of its own
//     blocks kept, is added too when it holds three or more table cells
//     or list items, and so is a run of three or more such siblings that
//     are one-block p elements: a data table, a list of figures or of
//     places between an article's paragraphs scores below zero on its
//     many short items. Right after the container, inside its parent, a
//     run of three or more paragraphs (p, blockquote) of running text
//     without links, under at most one negative hint more than the
//     parent and no teaser list, holding more words than the container's
//     kept text, is added: a blog post's part "below the fold" in an
//     element named "more" (comments are no such run: each opens with a
//     byline of links). So is a run of teasers right before or after the
//     container inside its parent, one teaser level below it, under no
//     more negative hints and without headings, of three or more items at
//     least half of which hold three or more words outside their link: a
//     post of annotated links ("via netzpolitik.org", "– I would slowly
//     back away."), not a list of related titles.
//  7. Output: the region's blocks, except those more than 80 % links,
//     inside a negatively hinted element or a teaser list within the
//     region, or all of whose words lie in inline elements (span, a ...)
//     with a negative hint or a class naming a caption (a rating widget's
//     "<span class=post-ratings>" loose in the article's element, a
//     photo's "<span class=img-caption>"), or captions (the text of an element of ≤ 25 words that holds
//     an image of unknown or ≥ 50 px size, or whose parent does, or that
//     follows with no text in between a sibling holding such an image and
//     no text; an image inside a paragraph or list item illustrates its
//     text, which is no caption, and a paragraph or list item after an
//     image is text; also the text of an element of ≤ 25 words whose
//     class, or its parent's, names a caption: "caption" or "legend", as
//     in "figcaption" or "img__caption", its image wherever the page put
//     it), or credit lines (≤ 25 words holding the © sign, or opening
//     with one label word and a colon: "Foto:", "(Credit:"; a longer
//     label such as "Photo credit:" stays, since Dragnet counts such lines
//     as text and the snippets do not; a block opening with the © sign is
//     a copyright notice whatever its length), or one-word fragments that
//     occur three or more times on the page (the label of ad slots or
//     share bars: "Advertisement", "Share"; not table cells, whose values
//     repeat). Lead paragraphs right before
//     the container are added:
//     running text scoring more than 4, separated from the container and
//     from each other by no heading and at most 60 words of other blocks
//     (a standfirst above a photo and an author box), unless the container
//     opens with a heading of its own. Then the edges are trimmed:
//     fragments (no sentence mark, < 10 words, not a heading, not code in
//     pre: datelines, share bars, "filed under" lines, credits) before
//     the first and after
//     the last paragraph of running text go, except, after it, fragments
//     without links in sibling elements of the same tag (a signature; code
//     in pre elements among them too: a how-to ending on commands) and
//     three or more list or table items with their headings (a list of
//     facts), and, before it, the list items opening the list (or a list
//     enclosing the one) that the first paragraph is an item of (an
//     agenda's short first items) and the fragments right before it of at
//     least three words, without links or digits, in sibling elements of
//     the same tag (a verse or a line ending in a colon opening a post;
//     datelines hold digits); pointer lines go (a p or div, not in a list
//     item, definition or table cell, that is a label of at most three
//     plain words ending in a colon followed by a link holding at least
//     half its words: "Read also: <a>headline</a>", "Le puede interesar:
//     ..."; a link before the colon, as in "<a>Availability</a>: Unix",
//     labels the text instead), when they stand between a kept paragraph
//     of running text and a kept paragraph or heading, all children of
//     one element, or after the last paragraph of running text (a contact
//     box's "Website:" and "Facebook:" lines; a four-word label such as
//     "Continue reading at Example:" stays: it leads to the rest of an
//     excerpt, and Dragnet counts it); so do the items of a list of
//     comments kept with the article: three or more sibling elements of
//     one template (same tag and class), each holding a short line (< 20
//     words) with a clock time ("posted on ... at 9:04 AM by ..."), when
//     their kept words are fewer than the kept words outside them (on a
//     live blog the time-stamped entries are the article); so do blocks
//     that are boilerplate by their wording, matched against a short
//     lexicon of general wording in English, German, French and Spanish
//     (content_wording.go: no list of any site's strings, no language
//     detected; the text is lower-cased, accents and punctuation folded
//     away): not headings, at most 30 words, and a label alone
//     ("Kontakt:", "Weitere Informationen:", "Schon gelesen?", "Read
//     more", "Lee también...") that is no definition term or table cell
//     (a documentation page's "Contact:" field stays), or a call to
//     action addressed to the reader about the site: one addressing the reader in its own words opening the block
//     ("Follow us!", "Abonnieren Sie ..."), a bare imperative (subscribe,
//     sign up, abonnieren) opening it and naming a channel (newsletter,
//     app, subscription, PDF, a social network), or a call or a verb of
//     downloading with a word about the site ("our", "unser", "please",
//     "the full story"), with two channels, or with one in a fragment
//     ("Dieses Skript als PDF herunterladen"); a sentence mentioning
//     subscribers, a download the post offers ("Download: Band - Song
//     (MP3)") and a method documented as "Subscribe to new mailbox."
//     stay; so do boxes
//     set between the paragraphs (a sign-up box, a teaser, in markup that
//     names nothing):
//     a div child of the element holding most of the kept paragraphs (three
//     or more), between its first and its last one, whose kept blocks are
//     all div text (no p, list item, table cell, code or heading) of fewer
//     than 25 words together, a sentence among them (fragments alone may
//     be the subheadings of a list article: "10", "Maori Warrior Masks");
//     and headings that head nothing go (followed by no kept block
//     or by a heading of the same or a higher level), as do short headings
//     below h1 (< 10 words, no sentence mark) right before a block dropped
//     for sitting in a teaser list or under more negative hints: they head
//     a box of related links, not text. So do the boxes closing the
//     article (before the headings are checked, so that theirs head
//     nothing): when three or more kept paragraphs (p elements of running
//     text) are children of one element and hold more words than those of
//     any other, the div and section elements after the last of them —
//     its children and the children of its ancestors that come after it,
//     each looked for up to 16 levels above a block — are boxes set after
//     the text (a subscription or donation appeal, a "while you are here"
//     note, a citation, company fact or author box) when the kept blocks
//     in them hold fewer words than a third of those paragraphs'; a
//     wrapper holding more is more of the article, and so is a box
//     holding code (pre), a table, a section element with a heading
//     and running text under it, or three or more paragraphs (p) of
//     running text or list items of it (≥ 10 words: a recipe's steps,
//     not a box of short specifications). A text repeated among
//     the kept blocks is written each time it is there (a note under each
//     function it applies to, a table's values). When nothing but headings would be left, captions are kept
//     after all: on a photo or comic post the text beside the image is the
//     post; so, too, when the container keeps nothing but headings and
//     holds a caption while a source line or byline under the headline
//     is kept, and when three or more captions in the container are
//     running text (a sentence mark, not a fragment; no more negative
//     hints, teasers or links than its other blocks may have; no credit
//     line) holding more words than the running text kept in it: a photo
//     story told in the lines under its pictures. A heading (h1–h3) that opens the container, or stands
//     right before it in its parent, left out only for being more than
//     80 % links, is kept: a post's title written as a link to the post.
//     Before the edges are trimmed, a paragraph (p) that is one bare link
//     whose text is a web address ("http://…", "https://…", "www.…"),
//     right after a kept paragraph of running text (or after another such
//     address) that is its sibling, under no more negative hints or
//     teasers, is kept: a post's source or the petition it asks to sign,
//     written out, is part of the post, though it is all link.
//  8. Headline: among the h1–h3 blocks before the end of the container,
//     outside lists of teasers, those with at least half their words in
//     <title>; the one sharing most words wins, on ties the one with the
//     larger share of its own words in <title>, then the last (a post's
//     title under the blog's name, both in <title>; a chapter's title over
//     a section heading sharing as many words). The <title> itself is
//     never part of the text. Kept with
//     the headline: a date header right over it (a heading of a higher
//     level, no link, no sentence mark, < 10 words, one with a digit: a
//     blog's "Sunday, October 14, 2012" over each post), a deck right
//     after it (a heading of a lower level, no link, ≥ 8 words), else the
//     first byline (a block of ≤ 15 words, less than half links, right
//     after it), and such a deck after up to five fragments (date, byline,
//     reading time) between it and the headline; and, when all between
//     the headline and the container is ≤ 60 words, the standfirst blocks
//     there that are running text (a sentence mark, ≥ 8 words) and come
//     after the last teaser there (text above a list of teasers, such as
//     an author box over related posts, is no standfirst); whatever its
//     length and class names, a standfirst the page marks up as the
//     article's description (itemprop=description: a news system's
//     "teaser-text" lead) between the headline and the container, its
//     blocks outside teaser lists and not mostly links (an author's
//     description, a bio, stands elsewhere); other bylines, datelines,
//     share bars and captions there go. When the headline is a heading
//     above it (a blog's name that the title also names) or none, the
//     heading that opens the post is kept too: an h1 to h3 without links,
//     the last block before the container, a sibling of it under no more
//     negative hints or teasers, with a date header right over it.
//
// The few weights were tuned by coordinate descent, once long ago on the
// Dragnet train split; the rules added since were designed by looking only
// at pages of folds 0 and 1 of each corpus (see below), and
// TestMainTextTune re-tunes five weights with site-grouped
// cross-validation to measure how much tuning the weights matters.
//
// Caps: at most 8 MiB read, 1,048,576 nodes visited, content nested deeper
// than 256 elements ignored, 1 MiB of JSON-LD parsed; BTE considers at most
// 2,097,152 tokens. Pages that golang.org/x/net/html refuses (more than 512
// open elements) get BTE's result (ReasonUnparsed). The output is valid
// UTF-8 and at most 3× the input size. All functions are safe for
// concurrent use.
//
// # Main-text accuracy and speed
//
// Two corpora, read in place and never copied: shared/data/content-eval
// (Dragnet: 1,379 English pages from 2012 with hand-corrected main text;
// bag-of-words P/R/F1 macro-averaged over pages) and
// shared/data/content-eval-snippets (945 multilingual pages, mostly German
// and English, from trafilatura's test set, with snippets that must and
// must not appear; P/R/F1 over all snippets). Each corpus is cut into 5
// folds by site (registrable domain), so no site is in two folds. All
// finders ran in one process on a shared 2-core machine (November 2026);
// speed is relative to go-trafilatura v1.12.2 in the same run. Pages are
// decoded as the fetcher decodes them (fetch.DetermineEncoding: about 110
// snippet pages are UTF-8 that x/net/html/charset alone took for
// windows-1252, which garbled them for every finder until November 24):
//
//	Dragnet              P      R      F1     F1 fold mean/worst  P worst fold  ms/page  speed
//	MainText             0.956  0.947  0.944  0.947 / 0.916       0.934           1.81    6.4×
//	go-trafilatura       0.873  0.920  0.868  0.862 / 0.829       0.814          11.65    1.0×
//	 (fallback on)       0.869  0.933  0.872  0.867 / 0.822       0.807          19.34    0.6×
//	go-readability       0.888  0.933  0.891  0.889 / 0.855       0.852           8.06    1.4×
//	BTE                  0.682  0.932  0.739  0.735 / 0.713       0.662           0.86   13.6×
//
//	snippets             P      R      F1     F1 fold mean/worst  P worst fold  ms/page  speed
//	MainText             0.930  0.942  0.936  0.935 / 0.916       0.915           2.15    5.6×
//	go-trafilatura       0.902  0.914  0.908  0.908 / 0.894       0.879          12.13    1.0×
//	 (fallback on)       0.899  0.939  0.918  0.918 / 0.908       0.880          18.44    0.7×
//	go-readability       0.865  0.920  0.892  0.892 / 0.863       0.844          10.21    1.2×
//	BTE                  0.781  0.887  0.831  0.831 / 0.820       0.766           1.08   11.2×
//
// To four places, MainText scores 0.9558/0.9469/0.9439 on Dragnet and
// 0.9302/0.9421/0.9361 on the snippets, go-trafilatura with its fallback
// 0.8987/0.9386/0.9182 on the snippets. (ms/page is wall time on a shared
// machine; the ratios within one run are what to compare: MainText was
// 5.6× go-trafilatura's speed on the snippets and 6.4× on Dragnet in the
// run the tables show, 5.5× to 5.6× and 6.4× to 6.5× in three runs of
// this code, 5.7× to 5.8× and 6.6× to 6.7× before the wording rule of
// step 7 (its own cost is under 0.05 ms a page; go-trafilatura's time
// moved by 9 % between these runs). Before the speed round of November 24 (no copy of a
// seekable input, fewer allocations and passes in segmentation, faster
// class-name and text loops; output unchanged byte for byte) the same
// runs gave 5.1× to 5.3× on the snippets and 5.8× to 6.2× on Dragnet.
// About 85 % of MainText's time on the snippets is golang.org/x/net/html
// parsing the page, which go-trafilatura does too.) Per
// fold (F1), MainText against go-trafilatura with its fallback: Dragnet
// 0.962/0.958/0.944/0.956/0.916 against 0.822/0.877/0.843/0.906/0.885;
// snippets 0.957/0.958/0.923/0.916/0.923 against
// 0.920/0.911/0.934/0.908/0.918.
//
// History. Before the rules of steps 3, 4, 7 and 8 and the stricter hints
// of steps 1 and 2, MainText scored P 0.916 R 0.944 F1 0.918 on Dragnet
// and P 0.850 R 0.902 F1 0.875 on the snippets (as then decoded); the
// sibling runs, loose text, shared negative hints, fragments under
// negative hints and photo-post captions of steps 2, 5, 6 and 7 took it to
// 0.940/0.931/0.924 and 0.906/0.921/0.914 (pages decoded as above). The
// last round of rules (the fallback to the container found without hints
// of step 6; id-told regions and the page-sized sibling of step 3; the
// negative hint around the declared article body of step 2; lead
// paragraphs, signatures, lists of facts and images inside paragraphs of
// step 7; ruby annotations and "!hidden" of step 1) took it to
// 0.944/0.940/0.931 on Dragnet (most of that from the declared article
// body) and 0.903/0.936/0.919 on the snippets. The next round, aimed at
// precision (credit lines of step 7, captions after an image-only
// sibling, headings over dropped boxes, ARIA button and toolbar roles of
// step 1, full stops inside numbers of step 2), took it to
// 0.946/0.938/0.932 on Dragnet and 0.911/0.935/0.923 on the snippets:
// precision up by 0.002 and 0.007, recall down by 0.001 on both. The
// round after, aimed at recall (list items opening a list, short
// paragraphs right before the first one, both of step 7, and the deck of
// step 8), took recall to 0.939 and 0.938 (F1 0.9320 → 0.9322 and
// 0.9229 → 0.9244). The latest round, aimed at precision again (boxes
// closing the article, copyright notices, one-word labels repeated on
// the page and elements whose class names a caption, all of step 7, and
// the labels of form controls of step 1; also the paragraphs after a
// one-paragraph container of step 6), took precision to 0.949 on
// Dragnet and 0.923 on the snippets (from 0.946 and 0.911; recall 0.9389
// → 0.9385 and 0.9382 → 0.9354; F1 0.9322 → 0.9337 and 0.9244 →
// 0.9293), most of it from the closing boxes. Checked on a third kind of
// page, the 530 pages of the Python documentation (no part of either
// corpus), those rules also dropped final sections, code examples and
// table cells (46 pages lost 20 words or more); boxes holding code, a
// table or a headed section, and table cells, are now spared (34 pages,
// mostly the docs' copyright footer and version notes), for snippets F1
// 0.9293 → 0.9289 (Dragnet unchanged); on the folds never inspected
// while designing the rules (2 to 4), that round took MainText from
// 0.942/0.938/0.929 to 0.945/0.937/0.931 on Dragnet and from
// 0.907/0.924/0.916 to 0.916/0.921/0.919 on the snippets. The next
// round, aimed at recall again (date headers over the headline and decks
// after a few fragments, of step 8; tables, lists and runs of short
// paragraphs between kept siblings, of step 6; boxes after the text that
// hold three or more paragraphs or list items of running text, and code
// among the siblings after the last paragraph, of step 7), took recall
// to 0.942 on Dragnet and 0.938 on the snippets (from 0.9385 and 0.9354;
// precision 0.9488 → 0.9486 and 0.9226 → 0.9215; F1 0.9337 → 0.9353 and
// 0.9289 → 0.9298), each rule checked on the Python docs as well (7
// pages gained 25 to 438 words: "see also" passages and a table; none
// lost any). With it, a table cell whose text repeats (Yes in every row)
// is written each time (then still not a repeated paragraph), and code
// (pre) is never a fragment to trim (69 Python docs pages get table
// cells back; Dragnet recall +0.0001). On the folds never inspected it scores 0.945/0.940/0.932 on
// Dragnet (from 0.945/0.937/0.931) and 0.914/0.923/0.919 on the snippets
// (from 0.916/0.921/0.919: recall gained what precision lost, most of
// the precision from keeping boxes of three paragraphs). The round
// after, aimed at precision on the snippets, kept one rule: a standfirst
// (step 8) must come after the last teaser between the headline and the
// body, so an author box set above a list of related posts is no longer
// kept as one (precision 0.9486 → 0.9488 on Dragnet and 0.9215 → 0.9218
// on the snippets, recall unchanged on the snippets and 0.9421 → 0.9419
// on Dragnet; F1 0.9353 → 0.9352 and 0.9298 → 0.9300; no Python docs
// page changed; on the folds never inspected, F1 0.9322 → 0.9321 on
// Dragnet and 0.9187 unchanged on the snippets). Then two rounds ran side
// by side from the same code, each measured against it alone. One,
// aimed at precision, added pointer lines and boxes of div text between
// the paragraphs (step 7) and two class and id hints (step 2: an
// article word run into "meta", a negative id over a positive class):
// on the design folds precision went 0.9578 → 0.9608 on Dragnet and
// 0.9321 → 0.9374 on the snippets (F1 0.9424 → 0.9441 and 0.9452 →
// 0.9480; no Python docs page changed); on the folds never inspected F1
// went 0.9321 → 0.9309 on Dragnet and 0.9187 → 0.9180 on the snippets,
// all of the loss from the id hint, whose design gain was four pages of
// two sites (the other rules alone: 0.9328 and 0.9190 there; the hint
// stays, as rules are chosen on the design folds only). The other,
// aimed at recall (the container of headings only giving way, a post's
// continuation under a "more" name and posts of annotated links, all of
// step 6; a photo post's text when a source line under the headline is
// kept, and titles written as links to the post, of step 7; headline
// ties and teaser headings of step 8), took design-fold F1 to 0.9498 on
// Dragnet and 0.9470 on the snippets, and F1 on the folds never
// inspected to 0.9355 and 0.9190; on the Python docs it changed 2
// pages (one lost a section heading that only a mistaken headline had
// kept, one gained its author and contact fields). With them, a text
// the article repeats is now written each time it is kept, not once
// (the Python docs get back 1,464 "Changed in version" notes written
// under each function they apply to: 1,251,622 → 1,279,921 words, 284
// pages gained, none lost; Dragnet design F1 +0.0004, snippets
// unchanged). All together, from 0.9488/0.9419/0.9352 to
// 0.9516/0.9465/0.9397 on Dragnet and from 0.9218/0.9382/0.9300 to 0.9245/0.9389/0.9316 on the
// snippets; on the folds never inspected, from 0.9448/0.9402/0.9321 to
// 0.9456/0.9431/0.9343 on Dragnet and from 0.9142/0.9232/0.9187 to
// 0.9147/0.9220/0.9183 on the snippets. Two more recall rounds ran
// side by side after that, each keeping only rules whose design-fold gain
// came from pages of two sites or more: a standfirst marked as the
// article's description and the heading opening the post right before
// its container (step 8); paragraphs that are one bare web address after
// a paragraph of the post (step 7); characters the page spells
// decomposed written composed (step 2). Together they took MainText to
// 0.9512/0.9472/0.9398 on Dragnet and 0.9248/0.9435/0.9341 on the
// snippets; on the folds never inspected, 0.9450/0.9437/0.9343 and
// 0.9150/0.9257/0.9203 (one Python docs page gained a section heading).
// The next two rounds, also side by side, one aimed at precision, the
// other at the pages that fail as a whole, kept four rules: a block whose
// words all lie in inline elements with a negative hint or a class naming
// a caption (step 2), a box of entries (comments, slides) that keeps its
// negative hint though it holds most of the page (step 2), the items of a
// list of comments kept with the article (step 7), and a photo story's
// captions kept as its text (step 7). Together they took MainText to
// 0.9556/0.9472/0.9439 on Dragnet and 0.9260/0.9421/0.9340 on the
// snippets (design folds 0.9726/0.9565/0.9598 and 0.9396/0.9697/0.9544);
// on the folds never inspected, to 0.9482/0.9431/0.9369 and
// 0.9158/0.9220/0.9189. The box-of-entries rule made that last figure
// lower (0.9203 → 0.9187 alone: snippet recall 0.9257 → 0.9226 on folds
// 3 and 4), for design gains on three Dragnet pages of two sites (F1
// 0.9536 → 0.9587); it stays, as rules are chosen on the design folds
// only. No Python docs page changed. A rule dropping contact lines ("a
// label: one address") was taken out again: it also dropped the docs'
// "Source code: Lib/..." lines, part of the page, for design gains of
// 0.0001 and 0.0004 F1.
//
// A round on wording kept one rule (step 7): blocks that are boilerplate
// by their words alone (labels, calls to subscribe, follow or download),
// matched against a short lexicon of general wording in four languages.
// Design F1 went 0.9598 → 0.9600 on Dragnet (five pages of two sites) and
// 0.9544 → 0.9576 on the snippets (six pages of six sites; none went
// down on either corpus); on the
// folds never inspected, 0.9369 → 0.9368 (recall 0.9431 → 0.9428) and
// 0.9189 → 0.9203 (precision 0.9158 → 0.9186). No Python docs page
// changed. Update stamps ("Aktualisiert: 11.04.2020") were left out:
// alone they gained on one site. Rights notices, affiliate disclosures,
// share and print buttons and "Related:" labels lost on the design folds
// (Dragnet's truth often holds such lines) or gained on one site only.
//
// Tuning the five main weights (link penalty, block cost, no-sentence
// cost, negative-hint cost, sibling share) by coordinate descent does not
// gain on unseen sites, and the weights it finds are unstable, so the
// defaults stay. Measured on the code as it is: site-grouped 5-fold
// cross-validation (tune on four folds, score the fifth): Dragnet pooled
// 0.9540/0.9473/0.9430, fold F1 mean 0.946, worst 0.916 (defaults 0.9439,
// 0.947 and 0.916); snippets pooled 0.9285/0.9403/0.9344, fold F1 mean
// 0.934, worst 0.916 (defaults 0.9361, 0.935 and 0.916). Across corpora:
// tuned on all of Dragnet, the snippets score 0.9266/0.9418/0.9341
// (defaults 0.9302/0.9421/0.9361); tuned on all of the snippets, Dragnet
// scores 0.9557/0.9471/0.9439 (the defaults' F1), while tuning on
// Dragnet loses 0.0020 on the snippets.
// The tuned weights vary between folds (link penalty 1.18 to 1.77, block
// cost 0 to 3.2, no-sentence cost 0 to 2.7, negative-hint cost 2.7 to
// 7.2, sibling share 0 to 0.1), while F1 moves by at most 0.007 per
// fold.
//
// A learned second opinion does not carry over either. Two logistic
// models of 13 block features (words, links, sentence marks, heading,
// fragment, repeated, negative hint, teaser, caption, in the container,
// distance to the nearest kept block, share of the parent's words kept,
// share of the kept words after it), fitted on the labelled blocks of the
// design folds to keep a block the rules dropped or drop one they kept
// (content_model_*_test.go; TRAWL_CONTENT_FIT=1 go test -run
// TestMainTextModelFit -v ./extract), gain at best +0.0000 and +0.0004
// design F1 on Dragnet and the snippets. Fitted on design fold 1 and
// scored on fold 0 they lose 0.0037 and 0.0001; fitted on fold 0 no
// threshold gains at all; fitted on one corpus they lose 0.010 and 0.016
// on the other; and their weights change sign between the two folds. A
// 14th feature, the share of function words (justext's stopword density,
// English, German, French and Spanish), changed none of this.
// An oracle keeping every labelled block by its label would reach design
// F1 0.984 and 0.995, but what the rules still get wrong there is label
// conflicts (related-story titles, photo captions that Dragnet's truth
// holds) and boilerplate told apart only by its wording (pleas to
// subscribe, "Kontakt:" lines). MainText does not use the models.
//
// Reproduce (opt-in, slow):
//
//	cd bench && TRAWL_CONTENT_EVAL=1 go test -run TestCompare -v ./content  # the tables
//	TRAWL_CONTENT_EVAL=1 go test -run 'TestMainTextEval$' -v ./extract      # MainText per fold
//	TRAWL_CONTENT_TUNE=1 go test -run TestMainTextTune -v ./extract         # cross-validated tuning
//	TRAWL_CONTENT_EVAL_GAP=1 go test -run TestMainTextEvalRecallGap -v ./extract  # where recall is lost
//	TRAWL_CONTENT_FIT=1 go test -run TestMainTextModelFit -v ./extract     # the learned second opinion
//	cd bench && go run ./cmd/maintextdiff -out A.json DIR                   # pages of another kind (the
//	cd bench && go run ./cmd/maintextdiff -compare A.json DIR               # Python docs): what a change drops
//
// Not met: recall stays below 0.95 on both corpora (0.947 and 0.942;
// go-trafilatura does not reach it either), and on the snippets
// MainText's precision (0.930; 0.919 on the folds never inspected) is
// below 0.93 on unseen sites. MainText's F1 is ahead of go-trafilatura
// with its fallback on both corpora (on the snippets by 0.018, with 0.003
// more recall), but behind it on one of the five snippet folds (2, never
// inspected while designing: 0.923 against 0.934). Where the recall goes
// (TestMainTextEvalRecallGap, design folds, the dropped blocks whose
// whole text is in the truth): on Dragnet (recall 0.957 there) keeping
// the teaser-list items would add 0.012, captions and credits 0.004 and
// other fragments (bylines, dates) 0.009, all kinds this package removes
// on purpose; running text under a negative class or id hint 0.008 and
// other running text 0.010. On the snippets (0.970): 0.002, 0.001,
// 0.005, 0.007 and 0.008. On the folds never inspected
// (TRAWL_CONTENT_EVAL_GAP=unseen, sums only) it is running text that is
// lost: Dragnet (0.943) 0.006, 0.006 and 0.009 for the three kinds
// removed on purpose, then 0.015 under a negative hint and 0.020 other;
// the snippets (0.922) 0.002, 0.003, 0.018, 0.015 and 0.023. That is
// twice the design folds' share: the rules fit the sites they were
// chosen on, and neither more rules nor a model fitted to what they
// leave (above) closed that gap. Of the pages that fail as a whole on the design
// folds, what is left is one site's template each (a post under a
// negative hint while its comments have none; comments with no hint in
// the post's container), posts of a title and a date, listing and
// product pages, and text only in scripts; 73 of the 76 snippets wrongly
// kept on the design folds are inside the right container.
//
// # Bounds
//
// Every quantity has a hard cap, so a hostile page cannot make extraction
// allocate without limit or run forever: tokens scanned (MaxTokens), bytes
// in one token (MaxTokenLen, via the reader the Extractor gives the
// tokenizer, which also caps the tokenizer's buffer), links (MaxLinks), page text (MaxTextLen), link text
// (MaxLinkTextLen) and attribute values used (MaxAttrLen). The first four
// set Document.Truncated when hit; the others cut silently. Zero Options
// fields mean the Default* constants. Memory for one document is then
// O(MaxTokenLen + MaxLinks × (MaxAttrLen + MaxLinkTextLen) + MaxTextLen)
// whatever the input length; with defaults the link and text parts stay far
// below their worst case on real pages. An iframe srcdoc (at most
// MaxAttrLen bytes) is scanned with the document's remaining token and
// link budgets, srcdocs nested two deep at most; CSS, srcset and Link header
// scans are linear in their input.
//
// # Concurrency
//
// Links, CSSLinks, HeaderLinks, ParseSrcset, ParseRobots, RobotsFromHeader,
// ParseRel and ParseKind are safe for concurrent use; Links shares nothing between calls but the Normalizer,
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
// addresses: that is for the fetcher's dial-time checks. Form references
// are GET submissions without their fields (the action URL alone); POST
// forms are never reported, so a crawler cannot submit one by following
// links. Ping references are tracking beacons: a crawler should not follow
// them by default. FuzzLinks checks the bounds, the URL properties and
// determinism on arbitrary input, and that the raw attribute scanner
// agrees with the tokenizer; FuzzCSSLinks, FuzzParseSrcset and
// FuzzHeaderLinks do the same for style sheets (and that <style> content
// gives what CSSLinks gives), srcset values (and that parsing is
// idempotent) and response headers; FuzzAppendCollapsed checks the
// word-at-a-time whitespace collapse against a byte-at-a-time reference.
//
// # Performance
//
// Links is the per-page hot path. BenchmarkLinks, BenchmarkExtractor and
// BenchmarkTokenizer (the tokenizer alone, the floor) run on synthetic
// 20–200 KB news pages; bench/extract_test.go compares Links with what
// Colly does per page (goquery document plus a[href] selection, text and
// net/url resolution). Measured on a shared 2-core machine (November
// 2026, geomean of four page sizes, CPU time): Links 2.2× goquery's
// throughput, Extractor 2.8×, the bare x/net/html tokenizer 3.5×. Nearly
// all of Links' time is the tokenizer; resolution and text collection are
// the rest.
package extract
