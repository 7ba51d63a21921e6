package fetch

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"
	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// Sentinel errors, matched with [errors.Is] against the Err of an [*Error].
var (
	// ErrPrivateAddress: the address to dial is not global unicast
	// (loopback, private, link-local, multicast, documentation... see the
	// package doc) and Options.AllowPrivateNetworks is not set.
	ErrPrivateAddress = errors.New("fetch: address is private")
	// ErrContentType: the response's media type is not one of
	// Options.AcceptTypes, even after sniffing.
	ErrContentType = errors.New("fetch: content type not accepted")
	// ErrDecompressionBomb: the decompressed body grew more than
	// Options.MaxDecompressionRatio times its compressed size.
	ErrDecompressionBomb = errors.New("fetch: decompression ratio exceeded")
	// ErrStatus: the server answered with a status of 400 or more. The
	// response is still returned alongside the error.
	ErrStatus = errors.New("fetch: error status")
	// ErrTooSlow: the body arrived more slowly than Options.MinTransferRate
	// over a whole window of TransferWindow. It counts as a timeout for
	// [Kind] and is [Transient].
	ErrTooSlow = errors.New("fetch: transfer too slow")
)

// Error is the error type returned by [HTTP.Fetch].
type Error struct {
	URL        string // the URL requested
	StatusCode int    // HTTP status, 0 when no response arrived
	Err        error  // the cause
}

func (e *Error) Error() string {
	if e.StatusCode != 0 {
		return fmt.Sprintf("fetch %s: status %d: %v", e.URL, e.StatusCode, e.Err)
	}
	return fmt.Sprintf("fetch %s: %v", e.URL, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Request is what to fetch. Only URL is required.
type Request struct {
	URL *url.URL
	// Method is "GET" (the default when empty) or "HEAD", or "POST" with
	// a Body; Fetch refuses any other, and a POST without a Body. A HEAD
	// response has no body: Fetch then reads none and checks no content
	// type, and returns the status and header (ETag, LastModified,
	// ContentType and ContentLength as the server states them), so a HEAD
	// can probe a page's validators without its body.
	Method       string
	ETag         string      // sent as If-None-Match when not empty
	LastModified time.Time   // sent as If-Modified-Since when not zero
	Header       http.Header // extra request headers; may be nil
	// Body is the body of a POST (a form a crawler was told to submit,
	// such as a login: its Content-Type goes in Header); it must be nil
	// for GET and HEAD. A crawler never POSTs on its own: trawl sends a
	// POST only for an explicit login (trawl.WithLogin). When
	// Options.OnExchange records the exchange, the request bytes it gets
	// include the body.
	Body []byte
}

// Response is a fetched resource. Body is the decompressed body, converted
// to valid UTF-8 for text types and byte for byte for binary ones (images,
// archives, media), at most Options.MaxBodyBytes long.
type Response struct {
	URL          *url.URL    // the URL fetched
	Status       int         // HTTP status code
	Header       http.Header // response header
	ContentType  string      // media type without parameters, lower case ("text/html")
	Charset      string      // the charset the body was decoded from ("utf-8", "windows-1252", ...)
	Body         []byte      // decoded body: UTF-8 text for text types (HTML, XML, JSON, JavaScript), the bytes as served (less Content-Encoding) for others
	Truncated    bool        // the body was longer than MaxBodyBytes and was cut
	NotModified  bool        // the server answered 304 to a conditional request
	Location     *url.URL    // for 3xx responses, the resolved redirect target (nil if absent or invalid)
	ETag         string      // the ETag header
	LastModified time.Time   // the Last-Modified header, zero if absent or invalid
	RetryAfter   time.Duration
	// ContentLength is the Content-Length header (for a HEAD, the length
	// a GET's body would have), -1 when absent or unknown.
	ContentLength int64
	WireBytes     int64         // bytes of body read from the network (compressed)
	Duration      time.Duration // from sending the request to the end of the body
}

// Fetcher fetches one URL. Implementations must be safe for concurrent use and
// must not follow redirects (see the package doc).
type Fetcher interface {
	Fetch(ctx context.Context, req *Request) (*Response, error)
}

// Getter is an optional capability of a Fetcher: a plain GET whose
// response a caller reads as a stream, with the fetcher's limits, guard
// and User-Agent. A crawler fetches robots.txt with it when its fetcher
// has it (HTTP does), and with Fetch otherwise.
type Getter interface {
	Get(ctx context.Context, u *url.URL) (*http.Response, error)
}

// IdleCloser is an optional capability of a Fetcher that keeps connections
// open between requests: CloseIdleConnections closes those not in use. A
// crawler calls it when its crawl ends, on the fetcher it made.
type IdleCloser interface {
	CloseIdleConnections()
}

var (
	_ Getter     = (*HTTP)(nil)
	_ IdleCloser = (*HTTP)(nil)
)

// Options configure an [HTTP] fetcher. The zero value of every field means
// its documented default; a nil *Options means all defaults.
type Options struct {
	// UserAgent is sent with every request. Default: DefaultUserAgent.
	UserAgent string
	// Timeout bounds a whole fetch, from dialing to the end of the body,
	// for [HTTP.Fetch] and [HTTP.Get] alike. Default 30 s.
	Timeout time.Duration
	// MinTransferRate is the slowest body transfer tolerated, in bytes per
	// second. The body of every response must deliver at least
	// MinTransferRate × TransferWindow bytes in each TransferWindow (10 s)
	// counted from the arrival of the header, or the read fails with
	// ErrTooSlow; a body that ends needs no more bytes. So a server that
	// trickles (or stalls) fails after one window instead of holding the
	// connection until Timeout. Default DefaultMinTransferRate (512 B/s:
	// 5 KiB per window, the order of Apache's MinRate for clients, and far
	// below what a slow server on a slow link delivers, so that a crawler
	// whose own link is shared by hundreds of connections is not cut
	// either). Negative disables the check; Timeout still applies.
	MinTransferRate int64
	// DialTimeout, TLSHandshakeTimeout and ResponseHeaderTimeout bound the
	// phases of a fetch. Defaults 10 s, 10 s and 20 s.
	DialTimeout, TLSHandshakeTimeout, ResponseHeaderTimeout time.Duration
	// MaxBodyBytes caps the decoded body. Default 10 MiB.
	MaxBodyBytes int64
	// MaxHeaderBytes caps the response header. Default 1 MiB.
	MaxHeaderBytes int64
	// MaxDecompressionRatio caps decompressed/compressed size. Default 100.
	MaxDecompressionRatio int64
	// AcceptTypes lists accepted media types. An entry "type/*" accepts
	// every subtype of type and "*/*" accepts everything (an archive
	// crawl's images, scripts and fonts). Default: text/html,
	// application/xhtml+xml, application/xml, text/xml, text/plain.
	AcceptTypes []string
	// MaxConnsPerHost caps connections per host (0 = 4). Idle keep-alive
	// connections per host follow it.
	MaxConnsPerHost int
	// MaxIdleConns caps the idle keep-alive connections kept over all
	// hosts (0 = 1024); the least recently used is closed first. Each idle
	// connection holds two goroutines and its buffers (ReadBufferSize +
	// WriteBufferSize), about 12 KiB in all with the defaults. A lower cap
	// saves that memory for hosts that are not contacted again soon, at the
	// cost of a new connection (and TLS handshake) when they are.
	MaxIdleConns int
	// ReadBufferSize and WriteBufferSize size each connection's buffers.
	// Defaults 1 KiB and 512 bytes: a response's header takes one read per
	// KiB (longer lines are read in pieces), a GET request's header takes
	// one write or two, and bodies are read past the buffer into the page's
	// own. Every kept-alive connection holds both, so with thousands of
	// hosts their size is most of the crawler's memory per host.
	ReadBufferSize, WriteBufferSize int
	// DNSCacheTTL is how long resolved addresses are reused. Default 5 min;
	// negative disables the cache.
	DNSCacheTTL time.Duration
	// LookupNetIP resolves a name to its addresses, with the signature of
	// net.Resolver.LookupNetIP; the DNS cache keeps its answers. Replace
	// it to point names at a test web (crawltest.Web.LookupNetIP) or at a
	// resolver of your own. Default net.DefaultResolver.LookupNetIP.
	LookupNetIP func(ctx context.Context, network, host string) ([]netip.Addr, error)
	// AllowPrivateNetworks lets connections reach any address but the
	// link-local and cloud metadata ones (see AllowNetworks). Default
	// false: only global unicast addresses may be reached and every other
	// address is refused with ErrPrivateAddress: loopback, private (RFC
	// 1918, fc00::/7), shared (100.64.0.0/10), link-local, multicast,
	// unspecified and broadcast addresses, documentation and benchmarking
	// blocks, and IPv6 outside 2000::/3; IPv6 forms that embed an IPv4
	// address (::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are
	// judged by that address. The package doc lists the rule in full.
	AllowPrivateNetworks bool
	// AllowNetworks names address prefixes the guard lets through whatever
	// the rest of it says: 127.0.0.0/8 for a crawl of loopback hosts,
	// 10.1.2.0/24 for one intranet, 169.254.169.254/32 for the rare crawl
	// that must read a metadata service. With AllowPrivateNetworks, the
	// link-local and cloud metadata addresses (see the package doc) are
	// still refused unless named here. Default: none.
	AllowNetworks []netip.Prefix
	// AllowHosts names hosts the guard treats as AllowPrivateNetworks does,
	// whatever address they resolve to, while other hosts stay guarded:
	// "intranet.example.org", or "*.corp.example.org" for every name
	// under it (not the name itself). Names are compared without case and
	// a final dot; an address here names nothing (use AllowNetworks). The
	// link-local and cloud metadata addresses stay refused unless
	// AllowNetworks names them. A name is only as safe as its DNS: whoever
	// controls the name's records chooses where the crawler connects.
	// Default: none.
	AllowHosts []string
	// DialContext replaces the dialer (for tests, proxies or a synthetic web
	// such as crawltest). Unless AllowPrivateNetworks is set, the guard
	// checks addr before calling it: an IP literal that the guard refuses,
	// or a name that resolves (through the DNS cache) to any refused
	// address, is refused without calling DialContext; a name that does not
	// resolve is passed to DialContext, which may know it. The remote
	// address of every connection DialContext returns is checked as well.
	DialContext func(ctx context.Context, network, addr string) (net.Conn, error)
	// Proxy, when set, names the proxy for each request, as
	// http.Transport.Proxy does (http.ProxyFromEnvironment honours
	// HTTP_PROXY, HTTPS_PROXY and NO_PROXY; http.ProxyURL names one
	// proxy); a nil URL sends the request directly. Unless
	// AllowPrivateNetworks is set, the private-network guard then applies
	// to the request's own host instead of to the proxy: an IP literal is
	// checked as it is, and a name is resolved here (through the DNS cache)
	// and refused if any of its addresses is refused, before the proxy is
	// contacted. The proxy itself may be on any address (a local proxy on
	// 127.0.0.1 is common): naming it is the user's choice. What the guard
	// cannot see is how the proxy resolves a name: a name that this
	// machine's DNS does not know is passed to the proxy, and a proxy
	// whose DNS answers differently may reach a private address of its own
	// network. Default nil: no proxy, whatever the environment says.
	Proxy func(*http.Request) (*url.URL, error)
	// Now is the clock (default time.Now); used for DNS cache expiry.
	Now func() time.Time
	// OnExchange, when set, receives every request and response as they
	// crossed the wire (see [Exchange]), for archiving: the fetcher then
	// records the bytes of each connection and speaks HTTP/1.1 only. It is
	// called once per response received, after the body is closed and
	// before Fetch returns (for Get, when the caller closes the Body),
	// from the fetching goroutine; the Exchange is valid only during the
	// call. Default nil: nothing is recorded and nothing is paid for it.
	OnExchange func(ctx context.Context, ex *Exchange)
}

// DefaultUserAgent names trawl and where to read about it.
const DefaultUserAgent = "trawl/0.1 (+https://github.com/trawl-dev/trawl)"

// DefaultMinTransferRate is Options.MinTransferRate when it is zero, in
// bytes per second.
const DefaultMinTransferRate = 512

// TransferWindow is the window over which Options.MinTransferRate is
// measured.
const TransferWindow = 10 * time.Second

// DefaultAcceptTypes are the media types accepted when Options.AcceptTypes is empty.
var defaultAcceptTypes = []string{"text/html", "application/xhtml+xml", "application/xml", "text/xml", "text/plain"}

func (o *Options) withDefaults() Options {
	var c Options
	if o != nil {
		c = *o
	}
	if c.UserAgent == "" {
		c.UserAgent = DefaultUserAgent
	}
	if c.Timeout <= 0 {
		c.Timeout = 30 * time.Second
	}
	if c.MinTransferRate == 0 {
		c.MinTransferRate = DefaultMinTransferRate
	}
	if c.DialTimeout <= 0 {
		c.DialTimeout = 10 * time.Second
	}
	if c.TLSHandshakeTimeout <= 0 {
		c.TLSHandshakeTimeout = 10 * time.Second
	}
	if c.ResponseHeaderTimeout <= 0 {
		c.ResponseHeaderTimeout = 20 * time.Second
	}
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = 10 << 20
	}
	if c.MaxHeaderBytes <= 0 {
		c.MaxHeaderBytes = 1 << 20
	}
	if c.MaxDecompressionRatio <= 0 {
		c.MaxDecompressionRatio = 100
	}
	if len(c.AcceptTypes) == 0 {
		c.AcceptTypes = defaultAcceptTypes
	} else {
		c.AcceptTypes = append([]string(nil), c.AcceptTypes...)
	}
	if c.MaxConnsPerHost <= 0 {
		c.MaxConnsPerHost = 4
	}
	if c.MaxIdleConns <= 0 {
		c.MaxIdleConns = 1024
	}
	if c.ReadBufferSize <= 0 {
		c.ReadBufferSize = 1 << 10
	}
	if c.WriteBufferSize <= 0 {
		c.WriteBufferSize = 512
	}
	if c.DNSCacheTTL == 0 {
		c.DNSCacheTTL = 5 * time.Minute
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// HTTP is the HTTP(S) [Fetcher]. It is safe for concurrent use.
type HTTP struct {
	opts      Options
	transport *http.Transport
	dial      *dialer
	client    *http.Client
	window    time.Duration  // TransferWindow; tests shorten it
	recorders chan *recorder // idle recorders, when OnExchange is set
	gzips     sync.Pool      // idle *gzip.Reader
	scratches sync.Pool      // idle *scratch
}

// New returns an HTTP fetcher. A nil opts means defaults.
func New(opts *Options) *HTTP {
	o := opts.withDefaults()
	dial := newDialer(o)
	tr := &http.Transport{
		DialContext:            dial.DialContext,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           o.MaxIdleConns,
		ReadBufferSize:         o.ReadBufferSize,
		WriteBufferSize:        o.WriteBufferSize,
		MaxIdleConnsPerHost:    o.MaxConnsPerHost,
		MaxConnsPerHost:        o.MaxConnsPerHost,
		IdleConnTimeout:        90 * time.Second,
		TLSHandshakeTimeout:    o.TLSHandshakeTimeout,
		ResponseHeaderTimeout:  o.ResponseHeaderTimeout,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: o.MaxHeaderBytes,
		DisableCompression:     true, // decoded here, with limits
	}
	if o.Proxy != nil {
		tr.Proxy = dial.proxyFunc(o.Proxy)
	}
	if o.OnExchange != nil {
		recordingTransport(tr, dial.DialContext, o.TLSHandshakeTimeout)
	}
	return &HTTP{
		opts:      o,
		window:    TransferWindow,
		transport: tr,
		dial:      dial,
		recorders: newRecorders(),
		client: &http.Client{
			Transport: tr,
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return http.ErrUseLastResponse
			},
		},
	}
}

// LookupIP returns the addresses host resolves to through the fetcher's
// DNS cache (Options.DNSCacheTTL, Options.LookupNetIP), the one its
// connections are dialled through, and when that answer expires: a name
// answered from the cache costs a map lookup, one not cached (or expired)
// is resolved once however many callers ask at the same time. An IP
// literal is its own answer and never expires (zero expires). With the
// cache disabled every call resolves, and the answer expires at once.
// Failed lookups are not cached. A crawler that keys politeness by IP
// address (trawl's Politeness.PerIP) resolves through it, so it sees the
// addresses the fetcher connects to.
func (f *HTTP) LookupIP(ctx context.Context, host string) (addrs []netip.Addr, expires time.Time, err error) {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return []netip.Addr{a}, time.Time{}, nil
	}
	e, err := f.dial.lookupEntry(ctx, host)
	if err != nil {
		return nil, time.Time{}, err
	}
	return e.addrs, e.expires, nil
}

// CloseIdleConnections closes keep-alive connections not in use.
func (f *HTTP) CloseIdleConnections() { f.transport.CloseIdleConnections() }

// Get sends a plain GET for u with the fetcher's User-Agent, dialer and
// guard, without following redirects, and returns the raw response: the
// caller must close its Body. The deadlines of Fetch apply: dial, TLS and
// header timeouts, Options.Timeout counted from the call to the end of the
// body, and Options.MinTransferRate; once one passes, reads from Body fail
// (with an error matching context.DeadlineExceeded or ErrTooSlow). So read
// the body at once: time the caller spends between reads counts too. The
// body has no size limit of its own; read it through an io.LimitReader.
// Closing Body releases the deadline's timer. Get fits robots.FetchFunc.
func (f *HTTP) Get(ctx context.Context, u *url.URL) (*http.Response, error) {
	outer := ctx
	ctx, rec := f.recording(ctx)
	ctx, cancel := context.WithTimeout(ctx, f.opts.Timeout)
	ctx, trip := context.WithCancelCause(ctx)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		trip(nil)
		cancel()
		return nil, &Error{URL: u.String(), Err: err}
	}
	req.Header.Set("User-Agent", f.opts.UserAgent)
	resp, err := f.client.Do(req)
	if err != nil {
		rec.abandon()
		trip(nil)
		cancel()
		return nil, &Error{URL: u.String(), Err: unwrapURLError(err)}
	}
	resp.Body = f.watch(ctx, resp.Body, trip, cancel)
	if rec != nil {
		resp.Body = &exchangeBody{eofBody: &eofBody{ReadCloser: resp.Body}, f: f, ctx: outer, rec: rec, u: u, status: resp.StatusCode}
	}
	return resp, nil
}

// Fetch fetches req.URL. On success, and on HTTP error statuses (with an
// error wrapping ErrStatus), it returns the response; otherwise a nil
// response and an *Error.
func (f *HTTP) Fetch(ctx context.Context, req *Request) (*Response, error) {
	rawURL := req.URL.String()
	outer := ctx
	ctx, rec := f.recording(ctx)
	ctx, cancel := context.WithTimeout(ctx, f.opts.Timeout)
	defer cancel()
	ctx, trip := context.WithCancelCause(ctx)
	defer trip(nil)

	method := req.Method
	switch method {
	case "":
		method = http.MethodGet
	case http.MethodGet, http.MethodHead:
	case http.MethodPost:
		if req.Body == nil {
			return nil, &Error{URL: rawURL, Err: errors.New("fetch: a POST needs a Body (a form to submit)")}
		}
	default:
		return nil, &Error{URL: rawURL, Err: fmt.Errorf("fetch: method %q not supported (only GET, HEAD, and POST with a Body)", req.Method)}
	}
	if req.Body != nil && method != http.MethodPost {
		return nil, &Error{URL: rawURL, Err: fmt.Errorf("fetch: a %s has no Body", method)}
	}
	var body io.Reader
	if req.Body != nil {
		body = bytes.NewReader(req.Body)
	}
	hreq, err := http.NewRequestWithContext(ctx, method, rawURL, body)
	if err != nil {
		return nil, &Error{URL: rawURL, Err: err}
	}
	for k, v := range req.Header {
		hreq.Header[k] = v
	}
	hreq.Header.Set("User-Agent", f.opts.UserAgent)
	if hreq.Header.Get("Accept") == "" {
		hreq.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5")
	}
	hreq.Header.Set("Accept-Encoding", "gzip, deflate")
	if req.ETag != "" {
		hreq.Header.Set("If-None-Match", req.ETag)
	}
	if !req.LastModified.IsZero() {
		hreq.Header.Set("If-Modified-Since", req.LastModified.UTC().Format(http.TimeFormat))
	}

	start := time.Now()
	var resp *Response
	hresp, err := f.client.Do(hreq)
	if err != nil {
		rec.abandon()
		return nil, &Error{URL: rawURL, Err: unwrapURLError(err)}
	}
	hresp.Body = f.watch(ctx, hresp.Body, trip, nil)
	if rec != nil {
		// Runs after the body is closed (defers run last in, first out).
		body := &eofBody{ReadCloser: hresp.Body}
		hresp.Body = body
		defer func() { f.finish(outer, rec, req.URL, hresp.StatusCode, !body.eof) }()
		defer hresp.Body.Close()
		defer func() {
			// What the fetcher did not read of a whole response is
			// read now (64 KiB at most), so the record holds all of it.
			if resp != nil && !resp.Truncated && (resp.Body != nil || hresp.StatusCode >= 300 || method == http.MethodHead) {
				body.drain()
			}
		}()
	} else {
		defer hresp.Body.Close()
	}

	resp = &Response{
		URL:           req.URL,
		Status:        hresp.StatusCode,
		Header:        hresp.Header,
		ETag:          hresp.Header.Get("ETag"),
		RetryAfter:    ParseRetryAfter(hresp.Header.Get("Retry-After"), f.opts.Now()),
		ContentLength: hresp.ContentLength,
	}
	if lm := hresp.Header.Get("Last-Modified"); lm != "" {
		if t, err := http.ParseTime(lm); err == nil {
			resp.LastModified = t
		}
	}
	switch {
	case hresp.StatusCode == http.StatusNotModified:
		resp.NotModified = true
		resp.Duration = time.Since(start)
		return resp, nil
	case hresp.StatusCode >= 300 && hresp.StatusCode < 400:
		if loc := hresp.Header.Get("Location"); loc != "" {
			if lu, err := req.URL.Parse(strings.TrimSpace(loc)); err == nil {
				resp.Location = lu
			}
		}
		resp.Duration = time.Since(start)
		return resp, nil
	case hresp.StatusCode >= 400:
		// Read a little of the error body (it is rarely useful, but
		// draining lets the connection be reused) and report the status.
		_, _ = io.Copy(io.Discard, io.LimitReader(hresp.Body, 64<<10))
		resp.Duration = time.Since(start)
		return resp, &Error{URL: rawURL, StatusCode: hresp.StatusCode, Err: ErrStatus}
	case method == http.MethodHead:
		// No body to read, decode or type-check: the header is the answer.
		mediaType, params := parseContentType(hresp.Header.Get("Content-Type"))
		resp.ContentType, resp.Charset = mediaType, strings.ToLower(params["charset"])
		resp.Duration = time.Since(start)
		return resp, nil
	}

	if err := f.readBody(hresp, resp); err != nil {
		return nil, &Error{URL: rawURL, StatusCode: hresp.StatusCode, Err: err}
	}
	resp.Duration = time.Since(start)
	return resp, nil
}

// readBody decompresses, type-checks, limits and decodes the body.
func (f *HTTP) readBody(hresp *http.Response, resp *Response) error {
	wire := &countingReader{r: hresp.Body}
	var body io.Reader = wire
	switch strings.ToLower(strings.TrimSpace(hresp.Header.Get("Content-Encoding"))) {
	case "", "identity":
	case "gzip", "x-gzip":
		zr, err := f.getGzip(wire)
		if err != nil {
			return fmt.Errorf("gzip: %w", err)
		}
		defer f.putGzip(zr)
		body = zr
	case "deflate":
		// "deflate" is zlib-wrapped per RFC 9110, but many servers send raw
		// DEFLATE; try zlib first and fall back.
		br := &peekReader{r: wire}
		head := br.peek(2)
		if len(head) == 2 && head[0]&0x0f == 8 && (uint16(head[0])<<8|uint16(head[1]))%31 == 0 {
			zr, err := zlib.NewReader(br)
			if err != nil {
				return fmt.Errorf("deflate: %w", err)
			}
			defer zr.Close()
			body = zr
		} else {
			fr := flate.NewReader(br)
			defer fr.Close()
			body = fr
		}
	default:
		return fmt.Errorf("%w: unsupported content encoding %q", ErrContentType, hresp.Header.Get("Content-Encoding"))
	}
	if body != io.Reader(wire) {
		body = &ratioReader{r: body, wire: wire, ratio: f.opts.MaxDecompressionRatio}
	}

	// Sniff the first 512 bytes to check the type before reading the rest.
	// The body is read into a kept buffer (its size is rarely known: a
	// compressed body's length says little of the text's) and copied out
	// at its final size, one allocation per body instead of a buffer
	// doubled up to it.
	sb := f.getScratch()
	defer f.putScratch(sb)
	buf := &sb.Buffer
	if n := hresp.ContentLength; n > 0 && body == io.Reader(wire) {
		buf.Grow(int(min(n, f.opts.MaxBodyBytes) + 1))
	}
	if _, err := io.CopyN(buf, body, 512); err != nil && err != io.EOF {
		return err
	}
	mediaType, params := parseContentType(hresp.Header.Get("Content-Type"))
	if !f.accepted(mediaType) {
		sniffed, sp := parseContentType(http.DetectContentType(buf.Bytes()))
		if mediaType != "" && mediaType != "application/octet-stream" && !isTextual(mediaType) && !f.accepted(sniffed) {
			return fmt.Errorf("%w: %s", ErrContentType, mediaType)
		}
		if !f.accepted(sniffed) {
			return fmt.Errorf("%w: %s (sniffed %s)", ErrContentType, orNone(mediaType), sniffed)
		}
		mediaType = sniffed
		if params["charset"] == "" {
			params = sp
		}
	}
	resp.ContentType = mediaType

	// Read the rest up to the limit; one byte more tells truncation.
	limit := f.opts.MaxBodyBytes
	if _, err := io.Copy(buf, io.LimitReader(body, limit+1-int64(buf.Len()))); err != nil {
		return err
	}
	raw := buf.Bytes()
	if int64(len(raw)) > limit {
		raw = raw[:limit]
		resp.Truncated = true
	}
	raw = bytes.Clone(raw) // the Response's own; the buffer goes back to the pool
	resp.WireBytes = wire.n

	cs := "utf-8"
	if isTextual(mediaType) {
		ctHeader := mediaType
		if c := params["charset"]; c != "" {
			ctHeader += "; charset=" + c
		}
		enc, name := DetermineEncoding(raw, ctHeader)
		cs = name
		if name != "utf-8" && name != "" {
			decoded, _, err := transform.Bytes(enc.NewDecoder(), raw)
			if err == nil {
				raw = decoded
			}
		}
	}
	if !isText(mediaType) {
		// Images, archives, fonts, media: the bytes as served (after
		// Content-Encoding is undone), with no charset.
		resp.Body = raw
		return nil
	}
	resp.Charset = cs
	if !utf8.Valid(raw) {
		raw = bytes.ToValidUTF8(raw, []byte("\uFFFD"))
	}
	resp.Body = raw
	return nil
}

// DetermineEncoding returns the encoding of an HTML or text body and its
// name, as golang.org/x/net/html/charset.DetermineEncoding does (byte
// order mark, the charset of contentType, a <meta> in the first 1024
// bytes, UTF-8 if those bytes hold valid UTF-8 beyond ASCII, else
// windows-1252), with one correction: when windows-1252 was only a guess
// or a <meta> declaration, not a byte order mark or the Content-Type
// header, and the whole body is valid UTF-8 with some non-ASCII byte, the
// body is UTF-8. Such pages are common (UTF-8 text after a first KiB of
// pure ASCII, or a stale Latin-1 <meta>), and valid multi-byte UTF-8 is
// vanishingly rare in real windows-1252 text. It finds the <meta> with a
// scan of its own, which gives x/net's answers (see determineEncoding).
func DetermineEncoding(body []byte, contentType string) (e encoding.Encoding, name string) {
	e, name, certain := determineEncoding(body, contentType)
	if !certain && name == "windows-1252" && hasHighBit(body) && utf8.Valid(body) {
		return encoding.Nop, "utf-8"
	}
	return e, name
}

// hasHighBit reports whether b holds a byte outside ASCII.
func hasHighBit(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

// isText reports whether a body of mediaType is text, to be handed on as
// valid UTF-8: the textual types, JSON and JavaScript. Other bodies are
// binary and kept byte for byte.
func isText(mediaType string) bool {
	return isTextual(mediaType) || mediaType == "" || strings.HasSuffix(mediaType, "json") ||
		strings.HasSuffix(mediaType, "javascript") || strings.HasSuffix(mediaType, "ecmascript")
}

func (f *HTTP) accepted(mediaType string) bool {
	for _, t := range f.opts.AcceptTypes {
		if t == mediaType || t == "*/*" {
			return true
		}
		if top, ok := strings.CutSuffix(t, "/*"); ok && strings.HasPrefix(mediaType, top+"/") {
			return true
		}
	}
	return false
}

func isTextual(mediaType string) bool {
	return strings.HasPrefix(mediaType, "text/") || strings.HasSuffix(mediaType, "+xml") || mediaType == "application/xml"
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func parseContentType(v string) (string, map[string]string) {
	if v == "" {
		return "", map[string]string{}
	}
	mt, params, err := mime.ParseMediaType(v)
	if err != nil {
		// Take what precedes the first ';' and ignore broken parameters.
		mt, _, _ = strings.Cut(v, ";")
		return strings.ToLower(strings.TrimSpace(mt)), map[string]string{}
	}
	return mt, params
}

// ParseRetryAfter parses a Retry-After value, in seconds or as an HTTP date
// relative to now. It returns 0 for an absent, invalid or past value.
func ParseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		if secs > 7*24*3600 {
			secs = 7 * 24 * 3600
		}
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// Transient reports whether a failed fetch is worth retrying later: network
// timeouts (ErrTooSlow included), resets, refused connections and bodies cut
// short, and the statuses 408, 425, 429, 500, 502, 503 and 504. Errors that
// a retry cannot mend (private address, content type, decompression bomb,
// DNS failure, 404...) are not transient. Only an error wrapping ErrStatus
// is judged by its status code; a response whose body fails mid-way (its
// *Error carries the status, often 200) is judged by the cause.
func Transient(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrStatus) {
		var fe *Error
		if errors.As(err, &fe) {
			switch fe.StatusCode {
			case 408, 425, 429, 500, 502, 503, 504:
				return true
			}
		}
		return false
	}
	if errors.Is(err, ErrTooSlow) {
		return true
	}
	if errors.Is(err, ErrPrivateAddress) || errors.Is(err, ErrContentType) || errors.Is(err, ErrDecompressionBomb) {
		return false
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return dnsErr.IsTemporary || dnsErr.IsTimeout
	}
	if errors.Is(err, context.Canceled) {
		return false
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return true
	}
	var opErr *net.OpError
	return errors.As(err, &opErr)
}

// Kind names the class of a fetch error for statistics: "timeout"
// (ErrTooSlow included), "connection", "dns", "private", "content-type",
// "bomb", "status-4xx", "status-5xx", "canceled" or "other". As for
// [Transient], only an error wrapping ErrStatus is classed by its status.
func Kind(err error) string {
	var fe *Error
	if errors.As(err, &fe) && fe.StatusCode >= 400 && errors.Is(err, ErrStatus) {
		if fe.StatusCode >= 500 {
			return "status-5xx"
		}
		return "status-4xx"
	}
	var dnsErr *net.DNSError
	var ne net.Error
	switch {
	case errors.Is(err, ErrPrivateAddress):
		return "private"
	case errors.Is(err, ErrContentType):
		return "content-type"
	case errors.Is(err, ErrDecompressionBomb):
		return "bomb"
	case errors.Is(err, ErrTooSlow):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.As(err, &dnsErr):
		return "dns"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF), errors.As(err, new(*net.OpError)):
		return "connection"
	}
	return "other"
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// ratioReader fails once more than ratio×wire bytes (plus 64 KiB of slack
// for tiny bodies) have been produced.
type ratioReader struct {
	r     io.Reader
	wire  *countingReader
	ratio int64
	n     int64
}

func (r *ratioReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.n += int64(n)
	if r.n > r.ratio*r.wire.n+64<<10 {
		return n, ErrDecompressionBomb
	}
	return n, err
}

// getGzip returns a gzip reader of r, kept from an earlier response when
// there is one: a new reader allocates its 32 KiB window and code tables
// (about 40 KiB a response), a reset one nothing. klauspost/compress's
// reader inflates the same streams as compress/gzip's (multistream,
// checksums checked) 1.5 to 2 times faster (BenchmarkInflate).
func (f *HTTP) getGzip(r io.Reader) (*gzip.Reader, error) {
	if zr, ok := f.gzips.Get().(*gzip.Reader); ok {
		if err := zr.Reset(r); err != nil {
			f.gzips.Put(zr)
			return nil, err
		}
		return zr, nil
	}
	return gzip.NewReader(r)
}

func (f *HTTP) putGzip(zr *gzip.Reader) {
	zr.Close()
	f.gzips.Put(zr)
}

// scratch is a body's read buffer, kept between responses when it is at
// most maxPooledScratch long (so that a rare huge body is not kept).
type scratch struct{ bytes.Buffer }

const maxPooledScratch = 1 << 20

func (f *HTTP) getScratch() *scratch {
	if sb, ok := f.scratches.Get().(*scratch); ok {
		return sb
	}
	return new(scratch)
}

func (f *HTTP) putScratch(sb *scratch) {
	if sb.Cap() > maxPooledScratch {
		return
	}
	sb.Reset()
	f.scratches.Put(sb)
}

// peekReader lets the deflate sniffing look at the first bytes.
type peekReader struct {
	r   io.Reader
	buf []byte
}

func (p *peekReader) peek(n int) []byte {
	for len(p.buf) < n {
		var b [1]byte
		m, err := p.r.Read(b[:])
		p.buf = append(p.buf, b[:m]...)
		if err != nil {
			break
		}
	}
	return p.buf
}

func (p *peekReader) Read(b []byte) (int, error) {
	if len(p.buf) > 0 {
		n := copy(b, p.buf)
		p.buf = p.buf[n:]
		return n, nil
	}
	return p.r.Read(b)
}

// ReadByte lets flate use the reader without wrapping it in a bufio.Reader
// that would read past the end.
func (p *peekReader) ReadByte() (byte, error) {
	var b [1]byte
	_, err := io.ReadFull(p, b[:])
	return b[0], err
}

// watch wraps a response body with the minimum-rate watchdog (unless
// disabled) and makes Close release the request's context: stop, if not
// nil, is called after the body is closed. trip cancels the request's
// context with a cause; the watchdog trips it with an error wrapping
// ErrTooSlow, which then fails the blocked or next Read.
func (f *HTTP) watch(ctx context.Context, rc io.ReadCloser, trip context.CancelCauseFunc, stop context.CancelFunc) io.ReadCloser {
	b := &watchedBody{rc: rc, ctx: ctx, trip: trip, stop: stop}
	if rate := f.opts.MinTransferRate; rate > 0 {
		b.window = f.window
		b.need = int64(float64(rate) * f.window.Seconds())
		b.mu.Lock()
		b.timer = time.AfterFunc(b.window, b.check)
		b.mu.Unlock()
	}
	return b
}

// watchedBody is a response body under a minimum transfer rate: a timer
// checks, at the end of every window, that at least need bytes were read
// during it.
type watchedBody struct {
	rc     io.ReadCloser
	ctx    context.Context
	trip   context.CancelCauseFunc
	stop   context.CancelFunc
	n      atomic.Int64 // bytes read so far
	need   int64        // bytes due per window
	window time.Duration

	mu    sync.Mutex
	timer *time.Timer // nil when the rate is not watched
	last  int64       // n at the start of the current window
	done  bool        // EOF, closed or tripped: no more checks
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.n.Add(int64(n))
	switch {
	case err == io.EOF:
		b.halt()
	case err != nil:
		// The transport usually reports the cause it was cancelled
		// with; make sure a trip reads as ErrTooSlow whatever it says.
		if c := context.Cause(b.ctx); errors.Is(c, ErrTooSlow) && !errors.Is(err, ErrTooSlow) {
			err = c
		}
	}
	return n, err
}

// Close closes the body, stops the watchdog and releases the context.
func (b *watchedBody) Close() error {
	b.halt()
	err := b.rc.Close()
	if b.stop != nil {
		b.trip(nil)
		b.stop()
	}
	return err
}

func (b *watchedBody) halt() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done = true
	if b.timer != nil {
		b.timer.Stop()
	}
}

// check runs at the end of each window.
func (b *watchedBody) check() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done {
		return
	}
	n := b.n.Load()
	if got := n - b.last; got < b.need {
		b.done = true
		b.trip(fmt.Errorf("%w: %d bytes in %v, want at least %d", ErrTooSlow, got, b.window, b.need))
		return
	}
	b.last = n
	b.timer.Reset(b.window)
}
