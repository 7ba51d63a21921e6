package fetch

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"os"
	"slices"
	"sync"
	"time"
)

// Exchange is one HTTP request and its response as they crossed the wire,
// for archiving (WARC). It is handed to Options.OnExchange, for every
// response the fetcher received, whatever its status: robots.txt fetched
// through [HTTP.Get], redirects, 304s and 4xx/5xx included.
//
// The bytes are those written to and read from the connection, above TLS:
// the request line and header as sent; the status line, header and body as
// served, with their Transfer-Encoding (chunks) and Content-Encoding
// (gzip) in place. While OnExchange is set the fetcher speaks HTTP/1.1
// only (ALPN offers http/1.1, never h2), so these are the real wire bytes
// and not a rendering of HTTP/2 frames.
type Exchange struct {
	URL        *url.URL  // the URL requested
	RemoteAddr string    // "ip:port" the response came from ("" if unknown)
	Date       time.Time // when the connection was taken for the request (Options.Now)
	Status     int       // the response's status code
	// Truncated says that the response was not read to its end: the body
	// was cut at Options.MaxBodyBytes, its type was not accepted, the
	// transfer failed, or (for Get) the caller closed it early. The bytes
	// held are then a prefix of the response.
	Truncated bool
	// Request is the request as written: request line and header (the
	// fetcher's GETs and HEADs have no body). It belongs to the Exchange: valid only
	// during the OnExchange call.
	Request []byte

	resp    *spool
	payload int64 // PayloadOffset's offset, -1 if none
	end     int64 // where the response ends (see messageEnd); 0 until known
}

// ResponseSize is the number of bytes Response reads.
func (e *Exchange) ResponseSize() int64 { return e.messageEnd() }

// PayloadOffset is where the payload (the body as served: chunked and
// compressed as it came) begins in Response, after the header as net/http's
// client read it, so that an archive splits the response where the fetcher
// did: a line ends at LF, with or without CR before it (a header may end
// at a bare LF, not only at CRLF CRLF); a line that begins with a space or
// a tab continues the one before; the first empty line ends the header.
// Interim responses (1xx but 101), which the client reads and skips, come
// before the payload too. ok is false when the bytes held hold no end of
// the header (a recording cut short, or bytes given to NewExchange that
// have none): they have no payload then.
func (e *Exchange) PayloadOffset() (off int64, ok bool) { return e.payload, e.payload >= 0 }

// Response returns a new reader over the response as read from the wire,
// from its first byte (the status line) to its end as net/http's client
// read it: the body's end by its Content-Length or chunked framing (none
// for a HEAD, a 204 or a 304), else the last byte received. Bytes a server
// sent past that end, which the fetcher never parsed, are left out, so an
// archive records the header and the payload the fetcher parsed and
// nothing else. It may be called several times; the readers are valid
// only during the OnExchange call. Bodies longer than a small threshold
// are held in an unnamed temporary file, not in memory.
func (e *Exchange) Response() io.Reader {
	return io.LimitReader(e.resp.reader(), e.messageEnd())
}

// messageEnd returns where the response ends in the bytes held: it reads
// them again with http.ReadResponse, as the transport did (interim 1xx
// responses skipped, the body read through its framing), and counts what
// that consumed. When they cannot be read so (no end of header, a body cut
// short), the response is everything held.
func (e *Exchange) messageEnd() int64 {
	if e.end > 0 {
		return e.end
	}
	e.end = e.resp.size()
	if e.payload < 0 {
		return e.end
	}
	cr := &countingReader{r: e.resp.reader()}
	br := bufio.NewReader(cr)
	req := &http.Request{Method: http.MethodGet}
	if bytes.HasPrefix(e.Request, []byte("HEAD ")) {
		req.Method = http.MethodHead
	}
	for {
		resp, err := http.ReadResponse(br, req)
		if err != nil {
			return e.end
		}
		if resp.StatusCode >= 100 && resp.StatusCode < 200 && resp.StatusCode != http.StatusSwitchingProtocols {
			continue
		}
		_, err = io.Copy(io.Discard, resp.Body)
		if err != nil {
			return e.end
		}
		if end := cr.n - int64(br.Buffered()); end >= e.payload && end < e.end {
			e.end = end
		}
		return e.end
	}
}

// rawMemoryBytes is how much of a response is kept in memory before the
// rest goes to a temporary file.
const rawMemoryBytes = 256 << 10

// maxRawRequestBytes caps the recorded request (a GET's header).
const maxRawRequestBytes = 64 << 10

// spool holds bytes in memory up to rawMemoryBytes, then in an unnamed
// temporary file.
type spool struct {
	mem  []byte
	file *os.File
	n    int64
	err  error
}

func (s *spool) Write(p []byte) (int, error) {
	if s.err != nil {
		return len(p), nil // recording failed: the fetch goes on
	}
	if s.file == nil && len(s.mem)+len(p) <= rawMemoryBytes {
		s.mem = append(s.mem, p...)
		s.n += int64(len(p))
		return len(p), nil
	}
	if s.file == nil {
		f, err := os.CreateTemp("", "trawl-raw-*")
		if err != nil {
			s.err = err
			return len(p), nil
		}
		_ = os.Remove(f.Name()) // unnamed: nothing left behind after a crash
		s.file = f
		if _, err := f.Write(s.mem); err != nil {
			s.err = err
			return len(p), nil
		}
		s.mem = nil
	}
	if _, err := s.file.Write(p); err != nil {
		s.err = err
		return len(p), nil
	}
	s.n += int64(len(p))
	return len(p), nil
}

func (s *spool) size() int64 { return s.n }

// payloadOffset finds the end of the header (see payloadOffset) in the
// bytes held, -1 if it is not there. In a response spooled to the file,
// it is looked for in a prefix of 16 KiB, then of twice as much, up to
// limit bytes: the transport reads no more than that (Options.MaxHeaderBytes
// and a read buffer) before the header's end. (payloadOffset finds in a
// prefix either nothing or the end it finds in the whole.)
func (s *spool) payloadOffset(limit int64) int64 {
	if s.file == nil {
		if off, ok := payloadOffset(s.mem); ok {
			return int64(off)
		}
		return -1
	}
	limit = min(s.n, limit)
	var b []byte
	for n := min(16<<10, limit); ; n = min(2*n, limit) {
		b = slices.Grow(b[:0], int(n))[:n]
		if _, err := s.file.ReadAt(b, 0); err != nil {
			return -1
		}
		if off, ok := payloadOffset(b); ok {
			return int64(off)
		}
		if n == limit {
			return -1
		}
	}
}

func (s *spool) reader() io.Reader {
	if s.file != nil {
		return io.NewSectionReader(s.file, 0, s.n)
	}
	return bytes.NewReader(s.mem)
}

func (s *spool) reset() {
	s.mem, s.n, s.err = s.mem[:0], 0, nil
	if s.file != nil {
		s.file.Close()
		s.file = nil
	}
}

func (s *spool) close() {
	if s.file != nil {
		s.file.Close()
		s.file = nil
	}
	s.mem = nil
}

// recorder collects one exchange from the connection that carries it.
type recorder struct {
	mu     sync.Mutex // guards the fields below against the conn's goroutines
	conn   *recConn
	req    bytes.Buffer
	resp   spool
	remote string
	date   time.Time
	trace  *httptrace.ClientTrace // attaches the recorder to the request's connection
}

// maxIdleRecorders bounds the recorders an HTTP keeps for later requests
// (about one per request in flight in a crawl); maxPooledRaw is the
// largest response buffer a kept recorder holds on to.
const (
	maxIdleRecorders = 64
	maxPooledRaw     = 64 << 10
)

// newRecorders returns the free list of recorders of a fetcher that
// records. Reusing a recorder reuses its buffers: growing them from
// nothing for each request allocated about 17 KB for a 5.5 KB page.
func newRecorders() chan *recorder { return make(chan *recorder, maxIdleRecorders) }

// getRecorder takes an idle recorder, or makes one.
func (f *HTTP) getRecorder() *recorder {
	select {
	case r := <-f.recorders:
		return r
	default:
	}
	r := &recorder{}
	r.trace = &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			if c, ok := info.Conn.(*recConn); ok {
				r.mu.Lock()
				r.attach(c, f.opts.Now())
				r.mu.Unlock()
			}
		},
	}
	return r
}

// putRecorder keeps r, detached and emptied, for a later request; its
// buffers are dropped if a large response grew them.
func (f *HTTP) putRecorder(r *recorder) {
	r.req.Reset()
	r.resp.reset()
	if cap(r.resp.mem) > maxPooledRaw {
		r.resp.mem = nil
	}
	if r.req.Cap() > maxPooledRaw {
		r.req = bytes.Buffer{}
	}
	r.remote, r.date = "", time.Time{}
	select {
	case f.recorders <- r:
	default:
	}
}

// recConn is a connection whose bytes go to the recorder attached to it
// (if any). The transport serves one request at a time on an HTTP/1.1
// connection, and the response to a request arrives only after the
// request is written, so every byte read while a recorder is attached
// belongs to its exchange.
type recConn struct {
	net.Conn
	mu  sync.Mutex
	rec *recorder
}

func (c *recConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.mu.Lock()
		if r := c.rec; r != nil {
			r.resp.Write(p[:n])
		}
		c.mu.Unlock()
	}
	return n, err
}

func (c *recConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	if r := c.rec; r != nil && r.req.Len()+len(p) <= maxRawRequestBytes {
		r.req.Write(p)
	}
	c.mu.Unlock()
	return c.Conn.Write(p)
}

// attach makes c record into r, detaching r from the connection it had (a
// request retried on a new connection starts its record afresh).
func (r *recorder) attach(c *recConn, now time.Time) {
	r.detach()
	c.mu.Lock()
	r.req.Reset()
	r.resp.reset()
	r.conn = c
	r.remote = c.RemoteAddr().String()
	r.date = now
	c.rec = r
	c.mu.Unlock()
}

// detach stops recording; after it returns no goroutine writes to r.
func (r *recorder) detach() {
	if c := r.conn; c != nil {
		c.mu.Lock()
		if c.rec == r {
			c.rec = nil
		}
		c.mu.Unlock()
		r.conn = nil
	}
}

// recording prepares ctx so that the request made with it is recorded, when
// Options.OnExchange is set; it returns ctx unchanged and a nil recorder
// otherwise.
func (f *HTTP) recording(ctx context.Context) (context.Context, *recorder) {
	if f.opts.OnExchange == nil {
		return ctx, nil
	}
	rec := f.getRecorder()
	return httptrace.WithClientTrace(ctx, rec.trace), rec
}

// finish detaches the recorder and hands the exchange to OnExchange, then
// keeps the recorder for a later request (the Exchange is valid only
// during the call). The response body must be closed already.
func (f *HTTP) finish(ctx context.Context, rec *recorder, u *url.URL, status int, truncated bool) {
	rec.mu.Lock()
	rec.detach()
	rec.mu.Unlock()
	defer f.putRecorder(rec)
	if rec.resp.size() == 0 {
		return // no response arrived
	}
	ex := &Exchange{
		URL: u, RemoteAddr: rec.remote, Date: rec.date, Status: status,
		Truncated: truncated || rec.resp.err != nil, Request: rec.req.Bytes(), resp: &rec.resp,
		payload: rec.resp.payloadOffset(f.opts.MaxHeaderBytes + int64(f.opts.ReadBufferSize)),
	}
	f.opts.OnExchange(ctx, ex)
}

// abandon detaches the recorder of a request that got no response.
func (r *recorder) abandon() {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.detach()
	r.mu.Unlock()
	r.resp.close()
}

// eofBody notes whether the body was read to its end.
type eofBody struct {
	io.ReadCloser
	eof bool
}

func (b *eofBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}

// drain reads what is left of a body, up to 64 KiB, so that the record
// holds the whole response and the connection can be reused.
func (b *eofBody) drain() {
	if !b.eof {
		_, _ = io.Copy(io.Discard, io.LimitReader(b, 64<<10))
	}
}

// exchangeBody is the body Get returns while recording: closing it ends the
// exchange and calls OnExchange.
type exchangeBody struct {
	*eofBody
	f      *HTTP
	ctx    context.Context
	rec    *recorder
	u      *url.URL
	status int
	once   sync.Once
}

func (b *exchangeBody) Close() error {
	err := b.eofBody.Close()
	b.once.Do(func() { b.f.finish(b.ctx, b.rec, b.u, b.status, !b.eof) })
	return err
}

// recordingTransport sets tr up to hand the recorder every connection it
// uses: plain connections and TLS connections (made here, offering only
// HTTP/1.1) are wrapped in a recConn.
func recordingTransport(tr *http.Transport, dial func(ctx context.Context, network, addr string) (net.Conn, error), handshake time.Duration) {
	tr.ForceAttemptHTTP2 = false
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &recConn{Conn: c}, nil
	}
	tr.DialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		raw, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			host = addr
		}
		cfg := &tls.Config{}
		if tr.TLSClientConfig != nil {
			cfg = tr.TLSClientConfig.Clone()
		}
		cfg.ServerName, cfg.NextProtos = host, []string{"http/1.1"}
		tc := tls.Client(raw, cfg)
		hctx, cancel := context.WithTimeout(ctx, handshake)
		defer cancel()
		if err := tc.HandshakeContext(hctx); err != nil {
			raw.Close()
			if errors.Is(err, context.DeadlineExceeded) {
				return nil, errors.New("net/http: TLS handshake timeout")
			}
			return nil, err
		}
		return &recConn{Conn: tc}, nil
	}
}

// NewExchange returns an Exchange holding request and response (which it
// does not copy), for programs and tests that archive exchanges made
// elsewhere. Set the other fields (Date, Status, RemoteAddr, Truncated) as
// needed.
func NewExchange(u *url.URL, request, response []byte) *Exchange {
	s := &spool{mem: response, n: int64(len(response))}
	return &Exchange{URL: u, Request: request, resp: s, payload: s.payloadOffset(s.n)}
}
