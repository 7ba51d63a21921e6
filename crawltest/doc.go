// Package crawltest serves a deterministic synthetic web on loopback, for
// testing and benchmarking crawlers, in the manner of net/http/httptest.
//
// A Web is many virtual hosts (h0.test, h1.test, …) of realistic HTML pages
// with robots.txt, sitemaps and feeds, duplicate and near-duplicate pages,
// topics, pages that change over time, and traps and faults that can be
// switched on one by one. It knows the ground truth about itself — which
// URLs a polite crawler must fetch and at what depth, which are disallowed,
// which are duplicates — and it records every request, so a test can
// assert what a crawler did: which URLs it fetched, whether it fetched any
// twice, whether it obeyed robots.txt, how long it left each host alone
// between requests and how many requests it had in flight per host.
//
// # Quick start
//
//	func TestMyCrawler(t *testing.T) {
//		web := crawltest.NewTestWeb(t, &crawltest.Options{Hosts: 5, PagesPerHost: 40})
//		transport := &http.Transport{DialContext: web.DialContext}
//		crawl(t, web.Seeds(), &http.Client{Transport: transport}) // the crawler under test
//
//		log := web.Log()
//		if v := log.RobotsViolations("mybot"); len(v) > 0 {
//			t.Errorf("fetched disallowed URLs: %v", v)
//		}
//		if d := log.FetchedTwice(); len(d) > 0 {
//			t.Errorf("fetched twice: %v", d)
//		}
//		if got, want := log.FetchedPages(), web.Reachable("mybot"); !slices.Equal(got, want) {
//			t.Errorf("fetched %d pages, want the %d reachable", len(got), len(want))
//		}
//		for host, n := range log.MaxInFlight() {
//			if n > 1 {
//				t.Errorf("%d requests at once to %s", n, host)
//			}
//		}
//	}
//
// # Hosts and addresses
//
// Host i is named "h{i}.test". Web.DialContext routes these names (any
// port; URLs without one use 80) to the web's loopback listener and
// refuses every other address with ErrUnknownHost, so a crawler's real
// HTTP client, DNS-free, and its per-host politeness are exercised while
// nothing ever reaches the network; links to example.com and the like are
// refused the same way. With Options.LoopbackIPs each host also listens on
// its own 127.0.x.y address and port, and the web's URLs use those, for
// programs that take plain URLs.
//
// With Options.AddressOf the hosts keep their names and are served on the
// loopback addresses it gives them, several hosts on one address where it
// says so (one listener that routes by the Host header: virtual hosting),
// next to hosts on addresses of their own. Web.LookupNetIP resolves the
// names to those addresses, for a crawler that keys politeness by IP
// (fetch.Options.LookupNetIP in trawl); each Request records the address
// it reached (LocalAddr, IP), and Log.MinGapBy(Request.IP) and
// Log.MaxInFlightBy(Request.IP) give the gap and the requests in flight
// per address.
//
// # The pages
//
// Each host has Options.PagesPerHost HTML pages: the home page "/" and
// pages such as "/news/story-17.html". A page has a head (title, meta
// description, sometimes <meta name="robots"> or <base href>), navigation,
// an article, a sidebar and a footer, and 10 to 60 links (framesets, about
// 1 page in 64, have only their frames). Links are relative, root-relative,
// absolute, protocol-relative or cross-host, some with fragments, and some
// in redundant forms that normalize to the same URL as a canonical link
// elsewhere: "./", "../", an upper-case host, ":80", an empty "?", dot
// segments, a percent-encoded unreserved character. Pages also carry
// rel="nofollow" links, mailto: and javascript: links, links off the web,
// <iframe>, <area> and <frame>; some send X-Robots-Tag. Every page has a
// topic (PageInfo.Topic); pages link mostly to pages of their topic and
// hosts have a main topic. About 4% of the pages are exact copies of
// another page of their host (same bytes) and about 4% near duplicates
// (same article, different boilerplate). About a quarter of the pages
// change as Poisson processes (PageInfo.ChangeRate, Web.Version, and
// Web.Changes for the change times; Options.ChangeRate sets each page's
// rate); every page has an honest ETag and Last-Modified header (both
// move exactly when the page changes) and answers conditional requests
// with 304.
//
// Every page that is not Hidden is reachable by a polite crawler from its
// host's home page through links on pages that robots.txt allows and that
// are not nofollow, so Web.Reachable is exactly the allowed, not hidden
// pages; hidden pages (about 5%) are linked only with rel="nofollow".
//
// robots.txt has a group for "evilbot" and "badbot" (Disallow: /) and a
// group for everyone else with Disallow and Allow rules using plain
// prefixes, '*' and '$'; key casing and comments vary. Options.CrawlDelay
// and Options.RobotsVariety add Crawl-delay lines and unusual answers.
// Sitemaps (a sitemapindex with a plain and a gzipped urlset, or a single
// urlset) and RSS and Atom feeds are served by some hosts: see Web.Sitemaps
// and Web.Feeds.
//
// # Determinism
//
// Everything is generated on demand from (Options.Seed, host, page): the
// same Options give a byte-identical web, and a web of a million pages
// costs little memory. Pages that change depend on the content clock
// (Options.Now, Options.Epoch), which also sets the Date header; fix both
// for byte-identical responses over time. The request log always uses the
// real clock.
//
// # In simulated time
//
// With Options.InMemory the web serves over in-memory connections
// (net.Pipe) instead of a loopback listener, so a crawler under test can
// run inside a testing/synctest bubble: its waits (politeness delays,
// revisit times) and the content clock (time.Now, the default Options.Now)
// are the bubble's fake time, and hours of crawling take seconds.
//
// # Traps and faults
//
// Options.Faults holds one switch per trap or fault: an infinite calendar,
// ever-deeper paths, session ids in URLs, a soft-404 generator, an endless
// meta-refresh chain, a robots.txt that trickles, redirect chains and loops, slow,
// hanging and reset connections, 5xx, 429 with Retry-After, endless and
// huge bodies, a gzip bomb, wrong Content-Type, invalid UTF-8, legacy
// charsets and malformed HTML. Each is documented on its field. They never
// change Web.Reachable: trap and fault URLs (Web.FaultURLs) are linked from
// the home pages and lead to no ordinary page outside it, and the content
// faults keep every link of the pages they alter.
//
// # Link constructs
//
// Options.LinkConstructs adds to every host a small, fixed set of pages and
// responses under /constructs/ that use every way a page, a style sheet or
// an HTTP response can reference a URL, for testing link extraction end to
// end. The home page links to the index /constructs/ with a plain <a href>
// (the last link of its footer; every other link of the web is unchanged),
// and the index links with <a href> to the pages and header responses
// below (all paths are under /constructs/):
//
//   - pages/html.html: a[href] in several forms (relative, root-relative,
//     absolute, protocol-relative, padded with spaces, an entity in the
//     query, a fragment, another host), a[ping] (two URLs), area[href],
//     <link> with rel alternate (hreflang, and RSS and Atom feed types),
//     next, prev, canonical, preload, prefetch, modulepreload, icon,
//     "shortcut icon", stylesheet, manifest and sitemap, script[src],
//     blockquote, q, del and ins [cite], iframe[src], <meta http-equiv>
//     refresh and content-location; a URL in a <script> block and one in an
//     onclick handler (kind script); javascript:, mailto:, data: and tel:
//     links;
//   - pages/media.html: img src, srcset (x and w descriptors, a URL with a
//     comma in it, a candidate after a comma without a space), lowsrc,
//     dynsrc and longdesc; picture/source srcset; audio, video, source and
//     track src; video poster; embed src; object data and codebase; applet
//     code, codebase and archive; input type=image src; body, table and td
//     background;
//   - pages/forms.html: GET forms (no method, and method="GET") with input
//     and button formaction, a POST form with a button formaction, and
//     isindex action;
//   - pages/svg.html: inline SVG image, use, a and script, each with href
//     and with xlink:href;
//   - pages/css.html: a <style> block with @import (string and url()) and
//     url() (bare, quoted, padded, in @font-face; also a data: URL and a
//     url() inside a comment, which are not references), and style=""
//     attributes;
//   - pages/srcdoc.html: an iframe srcdoc document with a link and an image,
//     resolved against the parent document's base;
//   - pages/base.html: <base href> pointing into another directory
//     (/constructs/t/based/), with relative links, a <style> block, a
//     style attribute and a srcdoc document resolved against it;
//   - pages/frames.html: a frameset (its DOCTYPE's DTD, at w3.org, is a
//     speculative reference outside the web);
//   - pages/speculative.html: URLs where the markup promises none (kind
//     speculative): in page text (absolute, and a rooted path), an HTML
//     comment, commented-out markup, an IE conditional comment, the
//     DOCTYPE's system identifier, meta content (msapplication-TileImage,
//     og:image, a Content-Security-Policy report-uri), param[value],
//     img[data-src] beside a data: src, an img in <noscript>; and html[manifest]
//     (embed), link[rel=import] (navigation), a[ping];
//   - pages/scripts.html: URLs in scripts: a string literal, a constant
//     concatenation, fetch(), XMLHttpRequest.open GET, $.get, location.href,
//     window.open, a javascript: URL (kind script); XMLHttpRequest.open
//     POST, fetch() POST and $.ajax POST (kind js-post); a URL only running
//     the script computes, and a link a script adds to the page (js-only);
//     and a fetch() of the cloud metadata address 169.254.169.254 (kind
//     script, outside the web: a crawler's guard must refuse it);
//   - app.js (application/javascript, loaded by pages/scripts.html): a
//     literal, a fetch() (script) and a sendBeacon (js-post), resolved
//     against the script's own URL;
//   - style.css (text/css, linked from the pages): @import and url(),
//     resolved against the style sheet's URL, which is in another
//     directory than every page, so resolving against the page shows;
//   - h/link.html: two Link header fields with several values each (rel
//     preload, next, stylesheet, prev with a quoted comma in a parameter,
//     alternate Atom feed, icon, sitemap); h/refresh.html: "Refresh: 0;
//     url=…"; h/content-location.html: Content-Location; h/redirect: 302
//     with a relative Location; created: 201 Created with a Location.
//
// Each reference leads to its own target under /constructs/t/ (so the
// request log tells which constructs a crawler handled), which answers 200
// to GET and HEAD, whatever the query (a GET form adds one), with a small
// body of the type its extension says: a valid PNG (image/png), text/css,
// application/javascript, text/vtt, audio/mpeg, video/mp4,
// application/pdf, application/java-vm, application/java-archive,
// image/svg+xml, font/woff2, font/woff, application/manifest+json,
// application/rss+xml, application/atom+xml, application/xml (a sitemap),
// application/json, application/xml-dtd, text/cache-manifest,
// application/x-shockwave-flash, text/plain (ping targets) and text/html. Targets reference nothing,
// except that the feeds and the sitemap list the host's home page, so a
// crawl of the constructs is finite: every reference of a construct
// resource is one of Web.ConstructURLs. robots.txt allows them all to
// ordinary agents (unless the whole host is disallowed, as
// Options.RobotsVariety's hosts that answer 500 are).
//
// The constructs are the same on every host, whatever the Seed and the
// clock: only the host names in them differ.
//
// Web.References(u) is the ground truth for each construct resource: the
// URL, kind and construct of every reference, normalized like Reachable's
// URLs, in document (or header) order. Kinds are those of package extract
// ("navigation", "frame", "redirect", "form", "sitemap", "feed", "embed",
// "style", "ping", "speculative", "script"), plus "form-post" for the
// actions of POST forms and "js-post" for URLs a script sends a POST to (a
// crawler must not fetch them: the web answers a POST with 405, and a GET
// of them shows in the log), and "js-only" for URLs that only running
// JavaScript reaches (a browser is needed). javascript:, mailto:, tel: and
// data: URLs and url() in CSS comments are no references; the <base href>
// itself is a speculative one.
//
// The constructs are not ordinary pages: Reachable, Depths, Pages, Page
// and Log.FetchedPages leave them out, and they link to no ordinary page,
// so comparing Log.FetchedPages with Reachable holds with LinkConstructs on
// or off. To test an extractor, compare what it finds in each construct
// resource with References less the form-post, js-post and js-only
// references (extract's TestCrawltestConstructs does); to
// test a crawler, compare the log restricted to ConstructURLs with the
// closure of References from the index over the kinds the crawler follows
// (see the example of Web.References).
//
// # A login area
//
// Options.Login adds to every host pages behind a login form, for testing
// crawlers that log in before they crawl: /account/login serves a form
// with a hidden CSRF token (also set as a cookie) that posts to
// /account/session, where LoginUser and LoginPassword set a session
// cookie; the pages behind it (Web.AccountURLs) redirect to the login page
// without that cookie, and each holds a POST form a crawler must never
// send (the log's Method shows every POST). /account/login-elsewhere posts
// the same form to another host, and robots.txt forbids the form's action
// to LoginAgent. The area is linked from no ordinary page.
//
// # The request log
//
// Web.Log returns a snapshot of every request: its start and end, virtual
// host, path as sent, normalized URL, remote address, user agent, status
// and body size. Log.Fetched, Log.FetchedTwice, Log.Counts,
// Log.RobotsViolations, Log.MinGap and Log.MaxInFlight answer the questions
// crawler tests ask; Log.Filter narrows the log first (for example to
// requests with one user agent). Start and End are taken in the server's
// handler, so a gap in the log is never shorter than the gap the client
// left between receiving a response and sending its next request to the
// host; it can be longer by a loopback round trip.
//
// # Concurrency
//
// A Web and a Log are safe for concurrent use. Close stops the web and
// waits until every goroutine it started has exited, requests hanging,
// sleeping or streaming included.
//
// # Security considerations
//
// The web listens on loopback only. DialContext never resolves names or
// dials anything but the web's own listeners. The gzip bomb, huge and
// endless bodies are exactly what a crawler must survive; a test that
// fetches them should bound what it reads.
//
// The package uses only the standard library and golang.org/x/text (to
// encode pages in legacy charsets), and no other trawl package, so that
// trawl's own tests can use it.
package crawltest
