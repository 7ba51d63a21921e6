// Package fetch downloads one URL per call, safely: the HTTP fetcher of trawl.
//
// An [HTTP] fetcher wraps a tuned [net/http.Transport] (keep-alive, idle
// connections per host, HTTP/2) with everything a crawler needs on top:
//
//   - deadlines for every fetch (see Deadlines below): dial, TLS, response
//     header, the whole fetch body included, and a minimum transfer rate for
//     the body, so that no server can hold a fetch for long;
//   - a maximum body size (default 10 MiB); longer bodies are cut and the
//     response is marked [Response.Truncated];
//   - a Content-Type check (HTML, XHTML, XML and plain text by default), with
//     content sniffing when the header is missing or generic;
//   - charset detection (header, BOM, <meta>) and conversion to UTF-8 through
//     golang.org/x/net/html/charset, with the same answers as its
//     DetermineEncoding but a <meta> prescan that walks the first KiB's bytes
//     instead of running x/net's HTML tokenizer over them (1.4 against 9.6 µs
//     for a PostgreSQL manual page's head, BenchmarkDetermineEncoding; it asks
//     x/net where matching its tokenizer would take more: a <meta> holding
//     '&', CR or NUL, a script holding "<!--"; TestPrescanCorpora, FuzzPrescan);
//   - gzip and deflate decoding done here rather than by the transport, so
//     that the decompressed size and the compression ratio are bounded (a gzip
//     bomb yields [ErrDecompressionBomb], not gigabytes of memory); gzip goes
//     through github.com/klauspost/compress's reader (already the WARC
//     store's compressor), which inflates 1.5 to 2 times faster than
//     compress/gzip, and the fetcher keeps its readers and its body buffers
//     from one response to the next, so a page costs one allocation of its
//     final size rather than a 40 KiB inflate window and a buffer doubled up
//     to it (BenchmarkInflate, BenchmarkFetchGzip);
//   - redirects are never followed: a 3xx response is returned with
//     [Response.Location] resolved, so the crawler can send the target through
//     normalization, duplicate elimination, robots.txt and per-host politeness
//     like any other URL;
//   - a DNS cache with a TTL in the dialer, which [HTTP.LookupIP] answers
//     from too (for politeness per IP address), with a resolver that
//     [Options.LookupNetIP] can replace;
//   - a private-network guard: only global unicast addresses may be reached
//     (see below); the check is made at dial time, after DNS resolution (so
//     DNS rebinding cannot bypass it), unless [Options.AllowPrivateNetworks]
//     is set;
//   - conditional requests: [Request.ETag] and [Request.LastModified] become
//     If-None-Match and If-Modified-Since, and a 304 answer sets
//     [Response.NotModified];
//   - HEAD requests ([Request.Method]): the status and header only, with no
//     body to read and no content type to check, so a crawler can probe a
//     page's validators for the price of a header;
//   - POST requests with a [Request.Body], for the one form a crawler is
//     told to submit (a login, trawl.WithLogin); a POST without a body is
//     refused.
//
// # Raw exchanges, for archives
//
// [Options.OnExchange] hands the caller every request and response as they
// crossed the wire (an [Exchange]): the request as written, and the status
// line, header and body as served, chunked and gzipped as they came, for
// writing WARC files (package store's WARC). The fetcher records the bytes
// of the connections it dials (above TLS, which it then handshakes itself)
// and speaks HTTP/1.1 only while recording, so the bytes are real; an
// HTTP/2 exchange is never rendered. Responses of any status are handed
// over (Fetch's and Get's: robots.txt, redirects, 304s, 4xx, 5xx), each
// after its body was read and closed; the fetcher reads up to 64 KiB more
// of a body it had no use for (a redirect's), so the record is whole and
// the connection is kept. A response over 256 KiB goes to an unnamed
// temporary file, so memory does not grow with response size.
// [Exchange.PayloadOffset] says where the body begins in the bytes
// recorded, as net/http's client read the header (which may end at a bare
// LF, not only at CRLF CRLF, and follow interim 1xx responses), so that an
// archive splits the response where the fetcher did (FuzzPayloadOffset
// compares the two); [Exchange.Response] ends where the body did for
// net/http (Content-Length, the last chunk), so bytes a server sent past
// it are not archived as part of the payload (TestWARCBytesPastTheBody in
// package store). The fetcher reuses its recording buffers from one
// request to the next (up to 64 of them, each kept only up to 64 KiB),
// which is why an Exchange's bytes are valid only during the OnExchange
// call. Without OnExchange
// none of this runs.
//
// Retrying transient failures is left to the caller on purpose: a retry is a
// new contact with the host, and only the caller's politeness scheduler knows
// when that is allowed. [Transient] tells which errors and statuses are worth
// a retry.
//
// # Quick start
//
//	f := fetch.New(&fetch.Options{UserAgent: "mybot/1.0 (+https://example.com/bot)"})
//	resp, err := f.Fetch(ctx, &fetch.Request{URL: u})
//	if err != nil {
//		var fe *fetch.Error
//		if errors.As(err, &fe) { ... fe.StatusCode ... }
//	}
//	fmt.Println(resp.Status, resp.ContentType, len(resp.Body))
//
// A [Fetcher] of your own (trawl's WithFetcher) needs only Fetch. What a
// crawler asks of a fetcher beyond that is named: [Getter] (a plain GET
// read as a stream, which robots.txt lookups use when the fetcher has it)
// and [IdleCloser] (closing kept-alive connections when the crawl ends);
// [HTTP] implements both.
//
// # Errors
//
// Every error returned by Fetch is a *[Error] carrying the URL, the status
// code (0 when no response arrived) and the cause, which matches the sentinel
// errors of this package ([ErrPrivateAddress], [ErrContentType],
// [ErrDecompressionBomb], [ErrStatus], [ErrTooSlow]) or the underlying
// network error with [errors.Is] and [errors.As].
//
// # Concurrency
//
// An *HTTP is safe for concurrent use by many goroutines; share one per
// crawl so that connections and the DNS cache are reused.
//
// # Deadlines
//
// Every fetch, through [HTTP.Fetch] or [HTTP.Get], is bounded in time:
//
//   - Options.DialTimeout (10 s), TLSHandshakeTimeout (10 s) and
//     ResponseHeaderTimeout (20 s, from the request written to the header
//     read) bound the phases before the body;
//   - Options.Timeout (30 s) bounds the whole fetch, from the call to the
//     end of the body. For Get, whose caller reads the body, the deadline
//     stays with the returned Body: reads fail with an error matching
//     context.DeadlineExceeded once it passes, and closing the Body releases
//     it;
//   - Options.MinTransferRate (512 B/s) is checked over consecutive windows
//     of [TransferWindow] (10 s) from the arrival of the header: a body that
//     has not ended must deliver at least rate × window bytes in each, or
//     the read fails with [ErrTooSlow]. A server that trickles one byte a
//     second is dropped at the end of the first window, one that stalls
//     within two windows of the stall, rather than after Timeout. The check
//     counts bytes as the caller reads them, so a Get caller must read the
//     body without pausing.
//
// Both body failures are timeouts for [Kind] and retryable for [Transient].
// The caller's ctx can only shorten these deadlines.
//
// # Private-network guard
//
// By default a fetcher reaches global unicast addresses only; any other
// address fails with [ErrPrivateAddress]. The rule is an allow list, so that
// a block forgotten here is refused rather than reached:
//
//   - IPv4: allowed, except the blocks of the IANA IPv4 Special-Purpose
//     Address Registry that are not globally reachable, multicast and the
//     reserved 240/4: 0.0.0.0/8, 10.0.0.0/8, 100.64.0.0/10, 127.0.0.0/8,
//     169.254.0.0/16, 172.16.0.0/12, 192.0.0.0/24 (whole, its two anycast
//     addresses included), 192.0.2.0/24, 192.88.99.0/24 (6to4 relays),
//     192.168.0.0/16, 198.18.0.0/15, 198.51.100.0/24, 203.0.113.0/24,
//     224.0.0.0/4 and 240.0.0.0/4 (255.255.255.255 included).
//   - IPv6: only 2000::/3 is allowed, minus 2001::/23 (IETF protocol
//     assignments: Teredo, benchmarking, ORCHID, anycast services; none
//     serves web pages), 2001:db8::/32 and 3fff::/20 (documentation).
//     Loopback, unspecified, unique-local fc00::/7, link-local, multicast
//     and every other block outside 2000::/3 are refused.
//   - IPv6 addresses that carry an IPv4 address are judged by it:
//     IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::a.b.c.d (RFC 6052's
//     well-known prefix, which an IPv6-only network with DNS64 uses for
//     every IPv4-only site, so 64:ff9b::808:808 is allowed and
//     64:ff9b::7f00:1 is not) and 6to4 2002:aabb:ccdd::/48. IPv4-compatible
//     ::a.b.c.d (deprecated), local-use NAT64 64:ff9b:1::/48 (where the IPv4
//     address sits there is a local choice) and Teredo are refused whatever
//     they carry.
//
// The address checked is the one actually dialled: the resolved IP (every
// address of a name is tried in turn and each is checked), not the host
// name. With a custom [Options.DialContext], the host of addr is checked
// before the dialer is called (an IP literal as it is; a name through the
// DNS cache, refused if any of its addresses is), so a refused address costs
// no connection attempt; a name that DNS does not know is handed to the
// dialer, and the remote address of every connection it returns is checked
// as a second line. A dialer that connects through a proxy on a private
// address therefore needs AllowPrivateNetworks; [Options.Proxy] does not:
// with it, the guard checks each request's own host (resolved here)
// before the proxy is contacted, and the proxy may be on any address.
//
// # Security considerations
//
// Every response is treated as hostile: header bytes, body bytes, decoded
// bytes and the compression ratio are all capped, and nothing larger than the
// caps is ever held in memory. See the private-network guard above for what
// may be reached.
package fetch
