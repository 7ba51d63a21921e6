// Package feeds reads the lists of URLs a site publishes: sitemaps (the
// sitemaps.org protocol's urlset, sitemapindex and text forms, gzipped or
// not) and RSS and Atom feeds. A crawler finds them in robots.txt
// (Sitemap: lines), in <link rel="sitemap"> and <link rel="alternate"
// type="application/rss+xml"> (package extract reports those with Kind
// Sitemap and Feed), or at /sitemap.xml, and reads them to discover pages
// it would otherwise reach late or never.
//
// # Sitemaps
//
// ReadSitemap reads one sitemap file and returns its entries with their
// lastmod, changefreq and priority:
//
//	sm, err := feeds.ReadSitemap(resp.Body, nil)
//	// err != nil: sm still holds what was read before it
//	for _, s := range sm.Sitemaps { enqueueSitemap(s.Loc) } // an index
//	for _, u := range sm.URLs { enqueue(u.Loc) }             // a urlset or a text file
//
// The bytes decide the form, not the headers: gzip is recognised by its
// magic bytes (also gzipped twice, a .xml.gz sent with Content-Encoding:
// gzip that the client did not decode), a byte order mark and leading
// white space are skipped, '<' starts XML and anything else is text. XML
// is streamed over encoding/xml's Decoder.RawToken with ReadSitemap's own
// element stack, leniently, as real sitemaps need: unescaped '&' and HTML
// entities are accepted, a stray or mismatched end tag closes only what it
// names, a missing </url> is implied by the next <url>. Elements count by
// local name in the root's namespace or none, so image:, video:, news: and
// xhtml:link alternates are skipped.
//
// Contract: Locs are trimmed and kept as written, not normalized (a
// sitemap speaks only for its own host: check that and normalize with
// urlnorm before use); entries whose loc is not an absolute http(s) URL
// are dropped and counted in Sitemap.Skipped; duplicates are kept. lastmod
// takes every W3C Datetime form; a priority outside [0, 1] leaves
// HasPriority false; bad field values are not errors. The *Sitemap is
// never nil: after an error it holds what was read before it. Malformed
// input gives one error wrapping ErrSitemapSyntax.
//
// # Feeds
//
// ReadFeed reads an RSS (0.9x, 1.0/RDF, 2.0) or Atom (0.3, 1.0) feed with
// github.com/mmcdole/gofeed and returns its title and its items' links,
// resolved against xml:base and the feed's URL and normalized with urlnorm
// as extract.Links normalizes links:
//
//	feed, err := feeds.ReadFeed(resp.Body, feedURL, nil)
//	for _, it := range feed.Items { enqueue(it.URL) } // it.Title, it.Published too
//
// gofeed is maintained, covers every RSS and Atom version with one model
// and is lenient with broken feeds, but has no bounds of its own and stops
// silently at a stray end tag, so ReadFeed checks and repairs the feed in
// one streaming encoding/xml pass before gofeed sees it (see ReadFeed).
// Contract: items without a usable http(s) link are dropped; duplicates
// are kept, in feed order; the *Feed is never nil and holds the items read
// before an error. JSON Feed is refused with ErrFeedSyntax (its item count
// cannot be bounded before gofeed decodes it all).
//
// # Limits
//
// ReadSitemap holds the protocol's limits by default, 50,000 entries and
// 50 MiB uncompressed per file (SitemapOptions changes them; compressed
// input is cut at MaxBytes + MaxBytes/64 + 4 KiB), and fixed bounds: one
// XML token at most 1 MiB, elements nested at most 64 deep, a loc or a
// text line at most 8 KiB. Memory is O(MaxURLs × entry size + 1 MiB),
// time linear in MaxBytes. ReadFeed reads at most 10 MiB and 10,000 items
// (FeedOptions), 100,000 elements nested at most 256 deep, titles of at
// most 1 KiB. Past a bound both return what was read, with Truncated set
// and an error wrapping ErrSitemapTooLarge or ErrFeedTooLarge.
//
// # Concurrency
//
// ReadSitemap and ReadFeed are safe for concurrent use; they share no
// state, and only read their options (and the Normalizer, which is safe
// for concurrent use).
//
// # Security considerations
//
// Sitemaps and feeds are untrusted input, and large: the bounds above hold
// whatever the input, so a gzip bomb stops at MaxBytes, and gofeed, which
// alone would spend 1.5 GB of heap on 10 MiB of <item/> and overflow its
// stack (fatally) on deep nesting, never sees more than the bounds allow.
// encoding/xml expands no external or custom entities, so there is no
// entity-expansion bomb. Sitemap locs are not resolved, so a sitemap
// cannot make a relative URL point elsewhere; feed links are http or https
// only. A sitemap or feed can still list any host, private addresses
// included: keep a sitemap's URLs to its own host (trawl's crawler does)
// and leave address checks to the fetcher. FuzzReadSitemap and
// FuzzReadFeed check the bounds, the URL properties, the error sentinels
// and determinism on arbitrary input.
//
// # Performance
//
// BenchmarkReadSitemap reads a sitemap of 50,000 entries, the protocol's
// largest file, in its four forms. The XML form (9.3 MB) takes about 0.8 s
// (11 MB/s, 27 allocations and 1.3 KB per entry), gzipped about the same;
// the text form about 0.05 s (60 MB/s). Shared, loaded 2-core machine,
// November 2026, wall time, medians of 3 runs of 10 iterations:
//
//	go test -run '^$' -bench ReadSitemap -benchtime 10x -count 3 ./feeds
//
// gofeed's binary cost is small for a crawler that already decodes
// charsets (about 11 KB for examples/sitespider) and 2.3 MB for a program
// that links nothing else of x/net/html/charset.
package feeds
