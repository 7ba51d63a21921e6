// Package urlnorm resolves hrefs the way browsers do and normalizes URLs so
// that one resource has one spelling, for crawling and duplicate-URL
// elimination.
//
// # Quick start
//
//	base, _ := url.Parse("https://example.com/blog/post.html") // page URL or <base href>
//	n := urlnorm.New()                                         // default rules; safe to share
//	for _, href := range hrefs {
//		abs, err := n.ResolveString(base, href) // resolve + normalize, the crawler's hot path
//		if errors.Is(err, urlnorm.ErrScheme) {
//			continue // mailto:, javascript:, ...
//		}
//		...
//	}
//	s, err := urlnorm.Normalize("HTTP://Example.COM:80/a/../b?#x") // "http://example.com/b"
//
// # Contract
//
// Resolve, ResolveHref and Normalizer.ResolveString parse and resolve per
// the WHATWG URL Standard (https://url.spec.whatwg.org/), through
// github.com/nlnwa/whatwg-url: leading and trailing C0 controls and spaces
// are stripped, tabs and newlines inside are removed, '\' is '/' in http(s)
// URLs, "//host" refs keep the base scheme, "?q" and "#f" refs keep the
// base path, ".." never climbs above the root, non-ASCII is percent-encoded
// as UTF-8, hosts go through IDNA to punycode, IPv4 addresses in any of the
// forms browsers accept (0x7f.1, 2130706433) are written dotted-decimal,
// and invalid ports and hosts are errors. Only http and https results are
// accepted: anything else is an error wrapping ErrScheme. Unparseable input
// gives an error wrapping ErrInvalid, as does input longer than
// MaxRefLength bytes or with more than 32 '@' (see Security
// considerations). No function modifies its arguments.
//
// Resolve returns a *url.URL whose String is the WHATWG serialization, not
// further normalized. Normalizer.Normalize, Normalizer.NormalizeURL,
// Normalizer.ResolveString and the package-level Normalize return the
// normalized form below; it is a fixed point (normalizing it again gives it
// back), net/url parses it and writes it back unchanged, and so does
// Resolve. Key gives the politeness key of a URL (lower-case host and
// non-default port).
//
// # Normalization rules
//
// Default rules, always applied (before → after):
//
//	lower-case scheme          HTTP://h/ → http://h/
//	lower-case host            http://Ex.COM/ → http://ex.com/
//	IDN host to punycode       http://bücher.example/ → http://xn--bcher-kva.example/
//	trailing dot of host       http://example.com./ → http://example.com/
//	IPv4 forms to dotted quad  http://0x7f.1/ → http://127.0.0.1/
//	IPv6 compressed            http://[0:0::1]/ → http://[::1]/
//	default port removed       http://h:80/ and https://h:443/ → http://h/, https://h/
//	port leading zeros         http://h:0080/ → http://h/
//	empty path is "/"          http://h → http://h/
//	dot segments removed       http://h/a/./b/../c → http://h/a/c
//	encoded dot segments too   http://h/a/%2e%2E/b → http://h/b
//	".." stops at the root     http://h/../a → http://h/a
//	unreserved escapes decoded http://h/%7Euser/%41 → http://h/~user/A (ALPHA DIGIT - . _ ~)
//	reserved escapes kept      http://h/a%2Fb?x=%3D → http://h/a%2Fb?x=%3D (never decoded)
//	upper-case hex in escapes  http://h/%c3%a9 → http://h/%C3%A9
//	lone '%' encoded           http://h/100% → http://h/100%25
//	necessary escapes added    http://h/a b|c^d → http://h/a%20b%7Cc%5Ed (path), ?q=a b' → ?q=a%20b%27
//	non-ASCII encoded as UTF-8 http://h/café → http://h/caf%C3%A9
//	empty query removed        http://h/a? → http://h/a
//	fragment removed           http://h/a#top → http://h/a
//	whitespace stripped        " http://h/a\n" → http://h/a
//	tabs, newlines removed     "http://h/a\tb" → http://h/ab
//	backslashes are slashes    http:\\h\a → http://h/a
//	path case kept             http://h/A/b → http://h/A/b
//	query order kept           http://h/?b=1&a=2 → http://h/?b=1&a=2
//	userinfo removed           http://user:pass@h/ → http://h/
//
// Optional rules, off by default (each is an Option):
//
//	WithSortQuery            http://h/?b=2&a=1&&a=0 → http://h/?a=1&a=0&b=2 (stable by name, empty params dropped)
//	WithRemoveTracking       http://h/?id=7&utm_source=x&gclid=1 → http://h/?id=7
//	WithRemoveSessionIDs     http://h/a;jsessionid=F0?PHPSESSID=1&p=2 → http://h/a?p=2
//	WithRemoveDirectoryIndex http://h/a/index.html → http://h/a/
//	WithFoldWWW              http://www.example.com/ → http://example.com/
//
// Hosts that the WHATWG standard accepts but no crawler can fetch are
// errors (ErrInvalid) in the normalized forms: empty labels (a..b), labels
// over 63 bytes or names over 253 (DNS's limits), and bytes other than
// letters, digits, '-', '_' and '.' (a*b, a~b).
// Resolve and ResolveHref still accept them.
//
// # Conformance
//
// url_cases.json (web-platform-tests urltestdata.json, http(s) cases:
// ../../shared/data/conformance/, read by TestResolveConformance and
// skipped when absent, failed if CI is set):
//
//	ResolveHref (exact WHATWG href):    247/247 success cases, 198/198 failure cases
//	Resolve (*url.URL, String):         240/247 success cases, 198/198 failure cases
//	ResolveString (= Normalize(href)):  247/247 success cases, 198/198 failure cases
//
// nlnwa/whatwg-url alone gets 240/247: it runs full IDNA validation on the
// decoded form of ASCII "xn--" labels and so rejects a.b.c.xn--pokxncvks
// (six cases) and xn-- (one case), which the standard accepts. urlnorm
// parses such hosts itself (a pre-parse hook swaps the host for a
// placeholder and the post-parse hook restores it lower-cased, when every
// xn-- label's punycode decodes), which fixes all seven.
//
// Resolve misses seven cases on purpose, all for the same reason: net/url's
// URL type cannot hold the fragment as the standard writes it. It drops an
// empty fragment (cases 31 ":#", 32 "#", 174 "...?bar=baz#", 705 "...?#")
// and re-encodes '\' (34), '#' (64) and a lone '%' (712) in a fragment.
// The resolution is right (ResolveHref passes them) and fragments are
// removed by normalization anyway. Other serializations that net/url would
// re-encode (a raw '|' or '^' or a lone '%' in the path, odd userinfo) are
// kept exact through Opaque; see Resolve.
//
// # Why not purell
//
// DESIGN.md names github.com/PuerkitoBio/purell for the safe flags. urlnorm
// does not use it, for measured reasons: (1) its
// FlagDecodeUnnecessaryEscapes decodes reserved escapes in paths
// (http://h/a%2Fb%3D becomes http://h/a/b=, merging different resources)
// yet leaves the query's escapes alone (?x=%2f%41 stays); (2) it parses
// with net/url, so it rejects what pages contain (http://h/100% is an
// error) and keeps what browsers fix (a trailing dot in the host);
// (3) NormalizeURL modifies its argument; (4) it is slow: BenchmarkNormalize
// (-count=5, a shared and loaded 2-core machine, so noisy) measured a median
// of 4.0 µs and 11 allocations per URL for purell
// (FlagsSafe|FlagRemoveFragment|FlagRemoveDotSegments) against 0.53 µs and
// 1 allocation for Normalize on the same URLs. The rules above
// are its safe flags done right plus what it lacks.
//
// # Fast path
//
// ResolveString is called once per extracted link. nlnwa/whatwg-url costs
// tens of microseconds and over a hundred allocations per URL, so
// ResolveString first tries a hand-written resolver for the common case (a
// ref in valid UTF-8 without tabs, newlines or backslashes; an LDH host
// without xn-- labels and not ending in a number; a base held by net/url in
// its plain form) and otherwise falls back to the WHATWG parser. Both paths
// give the same string or both an error: the conformance table runs through
// both, and FuzzResolve checks the equivalence on random input. The fast
// path costs well under 1 µs and one allocation (the result) per link:
// BenchmarkResolveString medians (same noisy machine) were 0.28 µs for a
// mix of 12 real-world hrefs, 0.33 µs for a relative href, 0.44 µs for an
// absolute one and 0.35 µs for one with non-ASCII bytes, against about
// 11 µs and 119 allocations through the WHATWG parser alone.
//
// # Tests
//
// Fuzz targets (run with -parallel=1 on shared machines):
//
//	go test -run='^$' -fuzz=FuzzNormalize -fuzztime=5m -parallel=1 ./urlnorm
//	go test -run='^$' -fuzz=FuzzResolve -fuzztime=5m -parallel=1 ./urlnorm
//
// # Concurrency
//
// A Normalizer is immutable after New and safe for concurrent use; the zero
// Normalizer applies the default rules. All functions are safe for
// concurrent use. There is no package-level mutable state.
//
// # Security considerations
//
// Input is untrusted page content. Parsing never panics (fuzzed) and
// output is always an http or https URL that net/url accepts. The WHATWG
// parser's time grows quadratically with the '@' signs in an authority
// (20,000 bytes of "a@" took 2.3 s) and it allocates per byte, so refs
// longer than MaxRefLength (8192 bytes) or with more than 32 '@' are
// rejected before parsing, and so are normalized results longer than
// MaxRefLength (percent-encoding can triple a ref's length), which keeps
// every result normalizable again. Normalization does not resolve DNS: a host may
// still name a loopback or private address (127.0.0.1, [::1], 0x7f.1 is
// written 127.0.0.1 so a filter on the normalized form sees it); refusing
// such addresses is the fetcher's job, at dial time. Userinfo (user:password@)
// is removed from normalized URLs, so credentials found in links are not
// stored, logged or sent. The base passed to ResolveString is trusted (it
// is the page URL).
package urlnorm
