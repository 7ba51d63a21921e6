// Package extract finds every URL an HTML page, a style sheet, a script or
// a response header names, each with a Kind that says what it is for (a
// page to follow, a frame, a redirect, a GET form, a feed, a sitemap, an
// embedded resource, a style sheet, a ping) or that it was inferred (a
// speculative URL in text, a URL a script names), with anchor text and rel
// values; and,
// from the same pass, the page signals that decide what to do with them:
// title, robots directives, canonical URL, language, base URL and the
// visible text. The main content of a page is package maintext's job;
// sitemaps and feeds are package feeds'.
//
// # Links and page signals
//
// Links streams a document once through a tokenizer (no DOM is built; see
// "The tokenizer") and returns a Document:
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
// Contract. Every Link.URL is absolute, http or https, resolved against the
// effective base (the first <base href>, itself resolved against the page
// URL, else the page URL; it applies to links before the <base> too, as in
// browsers) and normalized with urlnorm. Empty values, in-page fragments,
// other schemes (mailto:, javascript:, data: ...) and URLs the Normalizer
// rejects are dropped silently. Duplicates are kept in document order,
// each with its own text and rel. An <a> link is reported when its element
// ends (after the references inside it), its pings right after it; other
// references when their element starts. Link.Text is the anchor's text,
// whitespace collapsed, falling back to an image's alt and then the
// anchor's title; area and img give alt, frames and link elements their
// title. Page signals: the first <title>; <meta name="robots"> and <meta
// name=BOTNAME> merged by ParseRobots; the first <link rel="canonical">;
// <html lang> else <meta http-equiv="content-language">. Document.Text is
// the visible text (text outside script, style, noscript, noembed,
// noframes, template, iframe and title: the rule of internal/htmltext,
// which maintext shares), whitespace collapsed, '\n' between blocks.
// Markup is read as the HTML tokenizer reads it: character references
// decoded with the attribute rules, the first of a repeated attribute
// wins, raw-text elements hold text, not markup. The input must be UTF-8
// (trawl's fetcher converts other charsets).
//
// # References and their kinds
//
// TestConstructs shows each construct found, tagged and resolved; the Kind
// constants list them too:
//
//	a/area[href] (and SVG a), link rel=next, prev, canonical ...   Navigation
//	a/area[ping]                                                    Ping
//	link rel=alternate type=application/rss+xml, atom+xml ...       Feed
//	link rel=sitemap                                                Sitemap
//	link rel=stylesheet; <style> and style="" @import               Style
//	img, picture/source, audio, video, track, embed, object,        Embed
//	  applet, script, input[src], link rel=icon, preload ...,
//	  body/table/td/th[background], SVG image/use, CSS url()
//	frame[src], iframe[src] (iframe[srcdoc] is parsed as HTML)      Frame
//	form[action] of a GET form, button/input[formaction], isindex   Form
//	meta http-equiv=refresh                                         Redirect
//	blockquote/q/del/ins[cite], img[longdesc], content-location     Navigation
//	html[manifest]                                                  Embed
//	link rel=import (and other rel values not listed)               Navigation
//
// Outside HTML: CSSLinks (url() Embed, @import Style), HeaderLinks
// (Location, Content-Location and Refresh as Redirect; RFC 8288 Link
// headers by rel), ScriptLinks (a fetched script) and ParseSrcset. Left out
// on purpose: CSS inside SVG <style> and SVG references that point into
// the document itself.
//
// # Inferred URLs: speculative and script
//
// With Options.Speculative and Options.Scripts (both off by default: they
// cost, and such URLs may not exist) the Extractor also reports what it
// infers, each with a Kind that says so (Kind.Inferred). Nothing is
// executed. crawltest's link constructs hold every row below with its
// ground truth, and TestCrawltestConstructs holds this package to it;
// TestConstructs shows each with its Kind and Tag:
//
//	construct                                                 outcome
//	URL in page text (absolute; or rooted path to a page)     found: Speculative, Tag "#text"
//	URL in an HTML comment; markup in one (IE conditional      found: Speculative, Tag "!--", or
//	  comments, commented-out links)                            the element's tag
//	DOCTYPE system identifier                                 found: Speculative, Tag "!doctype"
//	meta content: CSP report-uri, msapplication-TileImage,    found: Speculative, Tag "meta"
//	  -config, -task fields, og:image; URLs in prose content
//	object param[value]                                       found: Speculative, Tag "param"
//	img/source/iframe [data-src|data-srcset|data-original|    found: Speculative (the src is often
//	  data-lazy-src] (lazy loading)                             a data: placeholder)
//	references inside <noscript>                              found: Speculative
//	the <base href> itself                                    found: Speculative, Tag "base"
//	string literal that looks like a URL or path              found: Script, Tag "script"
//	constant concatenation (base + "/x", base a literal)      found: Script
//	fetch, XMLHttpRequest.open GET, $.get/$.getJSON/$.ajax,   found: Script
//	  .load, axios.get, location(.href) =, location.assign/
//	  replace, window.open, history.pushState, import(),
//	  importScripts, Worker, EventSource, url: properties
//	on* attributes; javascript: URLs                          found: Script, Tag "handler", "javascript:"
//	a fetched .js file (ScriptLinks)                          found: Script, against the script's URL
//	the URL of a POST (XMLHttpRequest, fetch method, $.post,   not found, on purpose: a crawler
//	  $.ajax type, axios.post, sendBeacon)                      must not GET it
//	a prefix only ("/user/" + id), a URL computed at run      not found: needs a browser (package
//	  time (atob, join, string methods, values from the DOM)    render, -render always|auto)
//	content or links a script builds into the DOM, client-    not found: needs a browser (package
//	  side routers, URLs fetched by code that runs later        render, -render always|auto)
//
// Speculative URLs must look like URLs where they stand: in prose only
// absolute http(s) URLs and rooted paths ending in a page extension
// (.html, .php ...), whole words, trailing punctuation trimmed; in meta
// contents and param values also relative paths with a known file
// extension; never hosts reserved for documentation or the local machine
// (example.com, .invalid, localhost). A script's string literals are
// taken when they look like a URL or a path (not "text/html", "1/2/2026",
// "/Date(0)/", "%%x%%"); what reaches a sink that takes a URL is taken
// more laxly (fetch("items")); literals that only name things are not
// (ad units, selectors, module ids, event names), nor the tail of a
// concatenation whose start is unknown.
//
// How many are false, measured with TestInferredEval (opt-in,
// TRAWL_INFERRED_EVAL=1, November 2026): on the Python 3.11 documentation
// (527 pages on loopback) 1.5 inferred URLs per page, none on the site
// itself that fails to answer 200, 492 of the 814 the Docutils URL of a
// meta generator on every page, the others in prose, of which 4 of a
// random 50 were false (SAX feature identifiers written as URLs, hosts of
// code samples): about 0.05 false URLs per page; on the
// real pages of the content-evaluation corpora, 28 inferred URLs per page
// (content-eval, 1,379 pages) and 56 (the snippets corpus, 945 pages),
// about half of them from scripts, and of a random 50 from each, judged by
// hand, 3 (6 %) and 5 (10 %) false: relative paths a script resolves
// against another base than the page, directory prefixes, endpoints that
// need parameters. That is 2 to 6 false URLs per real page, which a crawl
// following these kinds pays for in requests (robots.txt, politeness and
// the filters still apply); on documentation sites, almost none.
//
// The JavaScript is read with the lexer of github.com/tdewolff/parse/v2
// (package js): maintained (it backs the tdewolff/minify minifier, used
// widely), pure Go, no dependencies of its own, streaming over a byte
// slice with zero-copy tokens, ECMAScript 2020+ with template literals;
// it leaves the one context-dependent choice of a lexer, a regular
// expression or a division, to the caller, which decides from the
// previous token. A lexer rather than a parser: pages hold broken and
// partial scripts, which a parser rejects and a lexer reads on; an AST
// would cost memory per script for no URL more. goja and otto run
// JavaScript, which this package must never do; esbuild's parser is
// internal to its module.
//
// # The zero-copy tier
//
// Extractor is the layer under Links, for callers that filter or resolve
// links themselves and keep allocation flat:
//
//	e := extract.NewExtractor(nil) // one per worker; reuse it
//	for page := range pages {
//		e.Reset(page.Body)
//		for e.Next() {
//			l := e.Link() // l.Href, l.Text valid until the next Next or Reset
//		}
//		title := e.Title() // complete once Next has returned false
//	}
//
// Slice lifetimes: RawLink.Href and RawLink.Text are valid until the next
// Next or Reset; Title, BaseHref, CanonicalHref, Lang and Text until the
// next Reset, and complete only after Next has returned false. Copy what
// must outlive that. Hrefs are not resolved: resolve them against BaseHref
// with urlnorm, as Links does. A reused Extractor allocates nothing per
// link or per document once its buffers have grown: it reads tag names
// and attributes from the token's raw bytes (tag names a
// word at a time, looked up in one table keyed by x/net/html/atom),
// scans only the attributes a tag can carry, and queues references in
// reused buffers. TestExtractorAllocs and TestExtractorAllocsAllKinds
// guard that; they skip under -race and -cover, so run them without.
//
// # The tokenizer
//
// The Extractor reads the tokens golang.org/x/net/html's Tokenizer reads,
// with the same boundaries, types, raw text elements (script, style,
// title, textarea and the rest) and Text, but through a tokenizer of its
// own: x/net/html's reads its input a byte at a time through a method call
// and copies every attribute name of every start tag, and it was the
// largest single cost of crawling small pages (23 % of the CPU of a crawl
// of the PostgreSQL manual; 7 % with this one). This one holds the
// document in one buffer (up to MaxTokenLen and a read), finds the next
// '<', closing quote or raw-text end with bytes.IndexByte, and walks tags in
// a tight loop; the few attribute values the Extractor cannot decode
// itself (rare character references) still go through x/net/html's
// TagAttr, over the one tag. x/net/html stays the reference:
// TestTokenizerCases (every tokenizer state, and the end of the input in
// each), FuzzTokenizer (fuzzed 90 s, 175,000 inputs, December 2026) and
// TestTokenizerCorpora (real pages of the shared content-evaluation data,
// from many sites and generators; all 2,324 with TRAWL_TOKENIZER_ALL=1)
// compare the two token by token, reading the input whole, a byte at a
// time and in halves. On the five documentation sites of bench/docsites.sh
// a crawl finds the same links with either, to the link (89,632 on Python's,
// 876,974 on OpenJDK's), and -jsonl writes the same records.
//
// # Limits
//
// Every quantity has a cap, so a hostile page cannot make extraction
// allocate without limit or run forever: tokens scanned (MaxTokens), bytes
// in one token (MaxTokenLen, which also caps the tokenizer's buffer),
// links (MaxLinks), page text (MaxTextLen), link text (MaxLinkTextLen) and
// attribute values used (MaxAttrLen). The first four set
// Document.Truncated when hit; the others cut silently. Zero Options
// fields mean the Default* constants. Memory for one document is
// O(MaxTokenLen + MaxLinks × (MaxAttrLen + MaxLinkTextLen) + MaxTextLen)
// whatever the input length. An iframe srcdoc (and, with Speculative, the
// markup in a comment or a <noscript>) is scanned with the document's
// remaining budgets, nested two deep at most; CSS, srcset and Link header
// scans are linear in their input. A script is read up to MaxScriptLen
// bytes, linearly: at most 1,000 candidate URLs, 256 remembered
// constants, 64 operands in a concatenation and 256 levels of brackets
// tracked (deeper ones are counted, not kept); script URLs count against
// MaxLinks like the others. TestScriptLinksHostile checks these bounds.
//
// # Concurrency
//
// Links, CSSLinks, ScriptLinks, HeaderLinks, ParseSrcset, ParseRobots,
// RobotsFromHeader, ParseRel and ParseKind are safe for concurrent use;
// they share nothing between calls but the Normalizer, which is safe for
// concurrent use, and Links's idle Extractors (a sync.Pool: each call
// takes one for itself and returns it, without the document, when done,
// so that a crawl's pages reuse the tokenizer and text buffers). An
// Extractor is not: use one per goroutine. Options must not be modified
// while a call uses them.
//
// # Security considerations
//
// The input is untrusted. Beyond the limits above: links never carry
// schemes other than http and https, so javascript: and data: URLs cannot
// reach a fetcher; robots directives are only ever restrictions (a page
// cannot lift one from the headers); <base href> is taken once; nothing is
// evaluated. A page can still point its links anywhere, private addresses
// included: that is for the fetcher's dial-time checks (crawltest's
// scripts construct names a cloud metadata address, which the crawler's
// guard refuses). Form references are GET submissions without their
// fields, never POST; a URL a script sends anything but GET or HEAD to is
// not reported at all; Ping references are tracking beacons a crawler
// should not follow by default. Scripts are read, never run. FuzzLinks
// (with and without the inferred kinds; fuzzed 5 minutes, 458,132
// inputs, November 2026), FuzzScriptLinks (twice 5 minutes, 156,038 and
// 87,324 inputs, the second on the final rules), FuzzCSSLinks,
// FuzzParseSrcset and FuzzHeaderLinks check the bounds, the
// URL properties and determinism on arbitrary input (and that the raw
// attribute scanner agrees with the tokenizer); FuzzAppendCollapsed checks
// the word-at-a-time whitespace collapse against a byte-wise reference.
//
// # Performance
//
// Links is the crawler's per-page hot path. With the tokenizer of its own
// (December 2026, benchstat of 4 runs, the machine shared at load 5):
// BenchmarkExtractor 62 to 77 % less time per page than with x/net/html's
// (2.7 to 4.4 times the throughput), BenchmarkLinks 28 to 54 % less, and
// BenchmarkTokenizer reads pages 4 to 11 times as fast as x/net/html's
// Tokenizer; a sitespider crawl of the PostgreSQL manual took 28 % less CPU
// per page (bench/README.md). The figures that follow are from before it,
// with x/net/html's tokenizer as "the bare tokenizer". On 200 crawltest
// pages the Extractor, finding every reference kind and collecting the page
// text, costs about 1.14× the bare tokenizer and runs 3.5× as fast as
// goquery's parse and a[href] selection (3.9× with Options.SkipText, which
// leaves the page text out and saves about 5 %); on synthetic 20–200 KB
// news pages, Links has 2.2× goquery's throughput (what Colly does per
// page), the Extractor 2.8×, the tokenizer alone 3.5× (shared 2-core
// machine, November 2026, CPU time, geomean of the page sizes). Looking tag
// names up in the one table on x/net/html/atom, rather than a switch on the
// name packed into a word, costs 0.2 % to 2.2 % more instructions per page
// (cachegrind, BenchmarkLinks and BenchmarkExtractor, all four sizes):
//
//	cd bench && go test -run '^$' -bench ExtractLinks -count 8 ./micro
//	cd bench && go test -run '^$' -bench 'Goquery|TrawlLinks|TrawlExtractor|Tokenizer' -count 8 .
//	go test -run '^$' -bench 'Links|Extractor|Tokenizer' -count 8 ./extract
//
// The inferred kinds cost nothing unless asked for: with default Options
// the instructions per page of BenchmarkLinks and BenchmarkExtractor are
// within 0.4 % of what they were before Speculative and Scripts existed
// (−0.3 % to +0.3 % and +0.2 % to +0.4 % over the four sizes). Asked for,
// they add 4.5 % to 5.8 % on the same pages without their scripts and
// comments (BenchmarkLinksNoScript: the text, meta contents and tags are
// still looked at), and 12 % to 63 % with them (BenchmarkLinksInferred:
// the article pages' inline script, JSON-LD and comments are lexed; the
// smallest page has the most script per byte). Instruction counts from
// cachegrind, as wall-clock times on the shared machine varied by ±50 %
// (GOMAXPROCS=1 GOGC=off, the difference of 70 and 20 iterations over 50):
//
//	go test -c -o extract.test ./extract
//	GOMAXPROCS=1 GOGC=off valgrind --tool=cachegrind --cache-sim=no ./extract.test -test.run '^$' \
//		-test.bench '^BenchmarkLinksNoScript$/inferred/30links_50KB$' -test.benchtime 70x
package extract
