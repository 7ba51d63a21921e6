// Package fetch downloads one URL per call, safely: the HTTP fetcher of trawl.
//
// An [HTTP] fetcher wraps a tuned [net/http.Transport] (keep-alive, idle
// connections per host, HTTP/2) with everything a crawler needs on top:
//
//   - timeouts for dial, TLS, response headers and the whole fetch;
//   - a maximum body size (default 10 MiB); longer bodies are cut and the
//     response is marked [Response.Truncated];
//   - a Content-Type check (HTML, XHTML, XML and plain text by default), with
//     content sniffing when the header is missing or generic;
//   - charset detection (header, BOM, <meta>) and conversion to UTF-8 through
//     golang.org/x/net/html/charset;
//   - gzip and deflate decoding done here rather than by the transport, so
//     that the decompressed size and the compression ratio are bounded (a gzip
//     bomb yields [ErrDecompressionBomb], not gigabytes of memory);
//   - redirects are never followed: a 3xx response is returned with
//     [Response.Location] resolved, so the crawler can send the target through
//     normalization, duplicate elimination, robots.txt and per-host politeness
//     like any other URL;
//   - a DNS cache with a TTL in the dialer;
//   - a private-network guard: connections to loopback, private, link-local,
//     multicast and unspecified addresses are refused at dial time, after DNS
//     resolution (so DNS rebinding cannot bypass it), unless
//     [Options.AllowPrivateNetworks] is set;
//   - conditional requests: [Request.ETag] and [Request.LastModified] become
//     If-None-Match and If-Modified-Since, and a 304 answer sets
//     [Response.NotModified].
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
// # Errors
//
// Every error returned by Fetch is a *[Error] carrying the URL, the status
// code (0 when no response arrived) and the cause, which matches the sentinel
// errors of this package ([ErrPrivateAddress], [ErrContentType],
// [ErrDecompressionBomb], [ErrStatus]) or the underlying network error with
// [errors.Is] and [errors.As].
//
// # Concurrency
//
// An *HTTP is safe for concurrent use by many goroutines; share one per
// crawl so that connections and the DNS cache are reused.
//
// # Security considerations
//
// Every response is treated as hostile: header bytes, body bytes, decoded
// bytes and the compression ratio are all capped, and nothing larger than the
// caps is ever held in memory. The private-network guard checks the address
// actually dialled (the resolved IP, and for custom dialers the remote address
// of the connection), not the host name.
package fetch
