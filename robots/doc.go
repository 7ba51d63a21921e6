// Package robots implements the Robots Exclusion Protocol (RFC 9309) for
// trawl: parsing and matching robots.txt files, and a Cache that fetches
// them once per origin and applies the RFC's rules for HTTP status codes,
// redirects, errors and expiry.
//
// Page-level robots directives (<meta name="robots">, X-Robots-Tag,
// rel="nofollow") are handled by package extract, not here.
//
// # Quick start
//
//	rules, _ := robots.Parse(body)
//	if rules.Allowed("trawl/0.1 (+https://example.com/bot)", "https://example.com/a?b") { ... }
//	delay := rules.CrawlDelay("trawl")
//	sitemaps := rules.Sitemaps()
//
// A crawler normally asks a Cache, which fetches
// http(s)://host[:port]/robots.txt when needed:
//
//	cache := robots.NewCache(fetch, nil) // fetch must not follow redirects
//	rules, err := cache.Rules(ctx, pageURL) // rules is never nil; err says why it is not a fresh file
//	if !rules.Allowed(userAgent, pageURL.String()) { skip }
//
// Cache.Peek tells, without fetching, whether fresh rules are cached, so a
// scheduler can count the robots.txt fetch that Rules is about to make as a
// contact with the host.
//
// # Parsing
//
// Parse never fails and never gives up on a file: each line is read on its
// own, and a line it does not understand (HTML, JSON, binary bytes, an
// unknown field, a rule before the first User-agent line) is ignored without
// affecting the others. Where RFC 9309 leaves a choice, Parse does what
// Google's reference parser (github.com/google/robotstxt) does, because that
// is what site owners test their files against:
//
//   - lines end at LF, CR or CRLF; a UTF-8 byte order mark, or a prefix of
//     one, is skipped at the start of the file only;
//   - '#' starts a comment; keys are case-insensitive and matched by prefix;
//     the typos "useragent", "user agent", "dissallow", "dissalow",
//     "disalow", "diasllow", "disallaw" and "site-map" are accepted, "alow"
//     is not; "key value" without a colon is accepted when the line has
//     exactly two words;
//   - a group is one or more User-agent lines followed by rules; a
//     User-agent line after a rule starts a new group; blank lines, Sitemap,
//     Crawl-delay and unknown lines do not end a group (RFC 9309 §2.2.4: other
//     records must not interfere with the protocol's own);
//   - "User-agent: *" followed by a space and more text still names every
//     crawler; other User-agent values are reduced to their product token
//     (the leading run of letters, '-' and '_': "FooBot/1.2" is FooBot);
//   - rule values have their non-ASCII bytes percent-encoded and their
//     %xx escapes upper-cased; an empty Disallow or Allow value matches
//     nothing; "Allow: /d/index.html" (or index.htm) also allows "/d/"
//     exactly (a Google extension that only ever widens an Allow);
//   - Crawl-delay (not in RFC 9309) is a decimal number of seconds attached
//     to the group being built; Sitemap lines belong to no group.
//
// # Matching
//
// Rules.Allowed reduces the caller's user agent to its product token as
// well, so a full User-Agent header such as "trawl/0.1 (+https://…)" works.
// All groups naming that token (case-insensitively) are merged; when none
// does, the groups naming "*" are merged and used; when there are none
// either, everything is allowed. Among the rules of the chosen groups that
// match the URL's path and query, the longest pattern wins (its length in
// bytes as written, "*" and "$" included, after percent-encoding) and Allow
// wins a tie; no match means allowed. "*" matches any sequence of bytes and
// "$" at the end of a pattern anchors it. "/robots.txt" is always allowed
// (RFC 9309 §2.5).
//
// Patterns are split at '*' when the file is parsed; matching a rule is a
// prefix comparison plus one forward substring search per literal segment,
// linear in the length of the path whatever the number of wildcards, with no
// regular expressions and, for product tokens up to 64 bytes and URLs whose
// path starts with '/', no allocation (see BenchmarkAllowed and
// TestAllowedDoesNotAllocate).
//
// # Percent-encoding: Google over the letter of the RFC
//
// RFC 9309 §2.2.2 says that octets outside US-ASCII and reserved characters
// are percent-encoded before comparison, and that a percent-encoded
// US-ASCII octet found in the URI is decoded before comparison unless it is
// a reserved character or outside the unreserved range; read literally,
// "Allow: /foo/bar/%62%61%7A" then matches "/foo/bar/baz". Google's
// reference parser, and its ID_Encoding test vectors, do not decode: an
// escape matches only the same escape. This package follows Google: rules
// are percent-encoded (non-ASCII bytes) and their hex digits upper-cased, the
// URL is compared as given. Callers should pass URLs normalized the way they
// will be requested (package urlnorm upper-cases escapes and decodes
// unreserved ones), so that "%7e" in a link and "~" in a rule agree.
//
// # Why a parser of its own
//
// The design called for wrapping github.com/temoto/robotstxt. Measured on
// the 192 conformance vectors in shared/data/conformance/robots_cases.json
// (TestConformanceTemoto), temoto passes 165. Its failures cannot be fixed
// from outside: it rejects a whole file when a rule precedes the first
// User-agent line or a partial byte order mark starts it (a crawler then
// sees no rules at all, i.e. "allow everything"); it breaks Allow/Disallow
// ties toward the first rule instead of Allow; it ranks wildcard rules by
// the length of the regular expression it compiles them to; it does not
// percent-encode non-ASCII rules; and it picks groups by user-agent prefix.
// Pre-processing the body and post-processing verdicts would amount to a
// second parser anyway, so this package parses and matches on its own
// (about 600 lines with comments) and keeps temoto only in that
// differential test.
//
// # Conformance
//
// TestConformance runs every vector as a table test. This package passes
// 191 of 192: all 72 ID_* cases (RFC 9309), all 47 derived cases, and 72 of
// the 73 GoogleOnly_* cases. The one deliberate difference:
//
//   - GoogleOnly_AcceptUserAgentUpToFirstSpace/02 expects the agent
//     "Foo Bar" not to match "User-Agent: Foo Bar". Allowed reduces the
//     caller's agent to its product token ("Foo") so that a crawler can pass
//     its full User-Agent header, so it matches. RFC 9309 §2.2.1 defines
//     matching on the product token, so this is also the RFC's reading.
//
// # Cache and RFC 9309 §2.3.1
//
// Cache.Rules documents precisely what callers get. In short:
//
//   - 2xx: the body's first MaxBodyBytes (default 500 KiB) are parsed; if
//     the limit cuts a line, that line is dropped rather than read as a
//     shorter, wider rule.
//   - Redirects (301, 302, 303, 307, 308) are followed by the Cache, up to
//     MaxRedirects (5), across origins as the RFC allows; more means the file
//     is unavailable: allow all, with ErrTooManyRedirects.
//   - 4xx (401 and 403 included): unavailable, allow all, no error.
//   - 5xx and network errors: unreachable, disallow all (robots.txt itself
//     stays allowed), with a *FetchError wrapping ErrUnreachable, retried
//     after ErrorTTL (default 5 minutes). When an earlier fetch of the
//     origin succeeded and its entry is still held, those rules stay in
//     force instead (RFC 9309 §2.4 allows a cached copy), through any number
//     of failed retries, until a fetch succeeds or the entry is evicted.
//   - 429 Too Many Requests is treated like 5xx: disallow all for ErrorTTL,
//     then retry. Allowing all while a site says it is overloaded would be
//     impolite, and a 429 says nothing about whether a file exists.
//   - Other statuses (1xx, 304, a redirect without a usable http(s)
//     Location) are treated as unreachable too.
//   - Every request (each redirect hop) has a deadline of its own,
//     FetchTimeout (default 30 s), from the call to the FetchFunc to the end
//     of the body. The Cache enforces it itself rather than trusting the
//     FetchFunc's timeouts: the deadline is in the ctx the FetchFunc gets
//     (which it must honour until it returns), and when it passes during
//     the body read the Cache closes the body, which ends a Read blocked in
//     most bodies, and discards what was read. A request that runs out of
//     time is a network error: unreachable, disallow all for ErrorTTL, then
//     retry; the *FetchError wraps ErrUnreachable and
//     context.DeadlineExceeded. So a server that trickles its robots.txt one
//     byte a second holds a lookup for FetchTimeout per request at most.
//     (The caller's own ctx ending is different: nothing is cached, see
//     Concurrency.)
//   - Entries expire after TTL (default 24 h, RFC 9309 §2.4).
//
// Entries are keyed by origin: scheme, lower-cased host and port, default
// ports dropped. http://a, https://a, http://a:8080 and http://sub.a never
// share rules. Memory is bounded by MaxEntries (default 100,000 origins)
// and MaxBytes (default 256 MiB, an estimate of the rules' size), evicting
// the least recently used origins; an evicted origin is fetched again when
// next needed.
//
// # Concurrency
//
// Rules is immutable after construction and safe for concurrent use.
// Cache is safe for concurrent use. Concurrent Rules calls for one origin
// share a single fetch (golang.org/x/sync/singleflight), run under the
// context of the caller that started it; a caller whose context ends stops
// waiting at once and gets ctx.Err(). If the fetch itself was cut short by
// its context, nothing is cached and the callers still waiting start a new
// one. The FetchFunc is called from the goroutine singleflight starts and
// must be safe for concurrent use.
//
// # Security considerations
//
// robots.txt is untrusted input. Parse reads at most MaxLineLength bytes of
// a line, keeps at most MaxRules rules, MaxUserAgents user-agent lines and
// MaxSitemaps sitemaps, clamps Crawl-delay to MaxCrawlDelay, and its work
// and memory are linear in the input. A file that exceeds MaxRules loses its
// later rules, which may allow URLs those rules would have disallowed;
// 50,000 is far above what real files use. Matching is linear in the path
// length per rule (TestPathologicalPattern runs 2,000 wildcards over a
// 100,000-byte path), so no pattern can make Allowed slow beyond
// rules × path length: a hostile 500 KiB file of 25,000 rules that all
// apply costs under a millisecond per call (BenchmarkAllowed). The Cache reads at most MaxBodyBytes of a body,
// follows at most MaxRedirects redirects, and bounds its memory as above.
// Redirect targets are fetched through the caller's FetchFunc, which is
// where trawl's dial-time checks against private and loopback addresses
// apply, and every request is bounded by FetchTimeout. FuzzParse checks
// that Parse never panics, always allows /robots.txt, is deterministic,
// stays linear, and that garbage lines inserted between valid lines change
// no verdict.
package robots
