package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/trawl-dev/trawl/fetch"
)

// ErrRender is matched (errors.Is) by the error of a page that could not be
// rendered, after its retry: the static page is returned with it, never
// passed off as the rendered one.
var ErrRender = errors.New("render: page not rendered")

// Options configure a [Fetcher]. The zero value of every field means its
// documented default; a nil *Options means all defaults.
type Options struct {
	// ExecPath is the Chromium executable. Default: FindChromium.
	ExecPath string
	// Tabs bounds the pages rendered at once (one browser tab each); the
	// others wait for a tab. Default: 2.
	Tabs int
	// Settle is how long the network must stay quiet (no sub-request
	// pending) after the load event before the DOM is read. Default:
	// 300 ms.
	Settle time.Duration
	// Timeout bounds one render, from opening the tab to reading the DOM
	// (the page's own fetch is bounded by the inner fetcher). A page still
	// busy then is read as it is, if the browser answers; a browser that
	// does not answer is replaced. Default: 15 s.
	Timeout time.Duration
	// MaxRequests bounds the sub-requests one page may make; those past
	// it are blocked. Default: 200.
	MaxRequests int
	// MaxBytes bounds the bytes of all sub-responses of one page; a
	// response that would pass it is refused whole. Default: 20 MiB.
	MaxBytes int64
	// MaxDOMBytes bounds the rendered DOM returned; a longer one is cut
	// (at a UTF-8 boundary) and the response marked Truncated.
	// Default: 10 MiB.
	MaxDOMBytes int
	// OtherHosts lets sub-requests reach hosts other than the page's (a
	// CDN's script, say). They still pass the guard, robots.txt (Allowed)
	// and the limits, but not the crawler's per-host schedule. Default:
	// false, so they are blocked and counted.
	OtherHosts bool
	// Allowed, when set, is asked about every sub-request before it is
	// made: robots.txt, typically (a crawl sets it to its robots.txt
	// cache through UseRobots). Default: nil, all allowed.
	Allowed func(ctx context.Context, u *url.URL) bool
	// OnRequest, when set, is called with every request a rendered page
	// made and what was done with it, after the render (not concurrently
	// for one page; concurrently for pages rendered at once).
	OnRequest func(page *url.URL, r Request)
	// Render, when set, decides whether an HTML page the inner fetcher
	// returned is rendered (before Adaptive). Default: nil, every 2xx
	// HTML page is.
	Render func(resp *fetch.Response) bool
	// Adaptive, when set, renders only the groups of pages where
	// rendering was seen to pay (see [Adaptive]). Default: nil, every
	// page is rendered.
	Adaptive *Adaptive
	// StartTimeout bounds the start of a browser. Default: 20 s.
	StartTimeout time.Duration
	// Logger receives browser starts, crashes and restarts. Default:
	// silent.
	Logger *slog.Logger
}

func (o *Options) withDefaults() (Options, error) {
	var d Options
	if o != nil {
		d = *o
	}
	if d.ExecPath == "" {
		p, err := FindChromium()
		if err != nil {
			return d, err
		}
		d.ExecPath = p
	}
	if d.Tabs <= 0 {
		d.Tabs = 2
	}
	if d.Settle <= 0 {
		d.Settle = 300 * time.Millisecond
	}
	if d.Timeout <= 0 {
		d.Timeout = 15 * time.Second
	}
	if d.MaxRequests <= 0 {
		d.MaxRequests = 200
	}
	if d.MaxBytes <= 0 {
		d.MaxBytes = 20 << 20
	}
	if d.MaxDOMBytes <= 0 {
		d.MaxDOMBytes = 10 << 20
	}
	if d.StartTimeout <= 0 {
		d.StartTimeout = 20 * time.Second
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	return d, nil
}

// Verdict says what became of a request a rendered page made.
type Verdict string

// The verdicts. Every one but Fetched is a refusal: the browser sees the
// request fail and nothing is sent.
const (
	Fetched         Verdict = "fetched"          // made through the inner fetcher
	FetchFailed     Verdict = "fetch-failed"     // made, and failed (network, timeout)
	BlockedMethod   Verdict = "blocked-method"   // not GET or HEAD (a POST, a beacon)
	BlockedPrivate  Verdict = "blocked-private"  // the guard refused the address (never dialled)
	BlockedHost     Verdict = "blocked-host"     // another host, and Options.OtherHosts is false
	BlockedRobots   Verdict = "blocked-robots"   // Options.Allowed said no
	BlockedLimit    Verdict = "blocked-limit"    // past MaxRequests or MaxBytes
	BlockedScheme   Verdict = "blocked-scheme"   // not http or https
	BlockedNavigate Verdict = "blocked-navigate" // a script moved the page elsewhere
)

// Request is one request a rendered page made.
type Request struct {
	URL     string
	Method  string
	Type    string // the browser's resource type: Script, XHR, Fetch, Image, Document, ...
	Verdict Verdict
}

// Stats counts what a Fetcher did. Read it with [Fetcher.Stats].
type Stats struct {
	Rendered int64 // pages rendered
	Failed   int64 // pages not rendered after their retry
	Retries  int64 // renders retried after a crash or a hang
	Starts   int64 // browsers started (1 + replacements)
	// Static counts the HTML pages Adaptive left unrendered; Compared
	// those it rendered to compare, Gained those where rendering paid.
	Static, Compared, Gained int64
	// Requests counts sub-requests by verdict.
	Requests map[Verdict]int64
}

// Fetcher renders HTML pages in headless Chromium. It fetches each page
// with the inner fetcher first, renders 2xx HTML answers, and returns the
// rendered DOM in place of the body. It is safe for concurrent use; Close
// it when done.
type Fetcher struct {
	inner fetch.Fetcher
	get   func(ctx context.Context, u *url.URL) (*http.Response, error)
	opts  Options
	tabs  chan struct{}
	idle  chan *tab // open tabs between renders

	mu     sync.Mutex
	b      *browserProc
	closed bool

	adapt *adaptive // nil unless Options.Adaptive

	rendered, failed, retries, starts atomic.Int64
	static, compared, gained          atomic.Int64
	vmu                               sync.Mutex
	verdicts                          map[Verdict]int64
}

var (
	_ fetch.Fetcher    = (*Fetcher)(nil)
	_ fetch.Getter     = (*Fetcher)(nil)
	_ fetch.IdleCloser = (*Fetcher)(nil)
	_ io.Closer        = (*Fetcher)(nil)
)

// New returns a Fetcher that fetches through inner (whose guard, limits
// and User-Agent every request of the browser goes through: sub-requests
// use inner's Get when it is a [fetch.Getter], else its Fetch) and renders
// in a browser started at the first page to render. It fails when no
// Chromium is found.
func New(inner fetch.Fetcher, opts *Options) (*Fetcher, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	f := &Fetcher{inner: inner, opts: o, tabs: make(chan struct{}, o.Tabs), idle: make(chan *tab, o.Tabs), verdicts: make(map[Verdict]int64)}
	if o.Adaptive != nil {
		f.adapt = newAdaptive(*o.Adaptive)
	}
	if g, ok := inner.(fetch.Getter); ok {
		f.get = g.Get
	} else {
		f.get = f.getByFetch
	}
	return f, nil
}

// Wrapper returns what trawl.WithFetchWrapper takes: a func that wraps the
// crawl's fetcher in a rendering Fetcher. The crawl then hands the Fetcher
// its robots.txt check (UseRobots) unless opts sets Allowed, and closes it
// when Run returns. The func panics if New fails (no Chromium): call
// FindChromium first to fail gracefully.
func Wrapper(opts *Options) func(f fetch.Fetcher) fetch.Fetcher {
	var o Options
	if opts != nil {
		o = *opts
	}
	return func(f fetch.Fetcher) fetch.Fetcher {
		oo := o
		r, err := New(f, &oo)
		if err != nil {
			panic(err)
		}
		return r
	}
}

// UseRobots sets the robots.txt check asked about every sub-request
// (trawl.RobotsUser: a crawl calls it before it starts), unless
// Options.Allowed was set. Call it before the first Fetch.
func (f *Fetcher) UseRobots(allowed func(ctx context.Context, u *url.URL) bool) {
	if f.opts.Allowed == nil {
		f.opts.Allowed = allowed
	}
}

// Stats returns the counters so far.
func (f *Fetcher) Stats() Stats {
	s := Stats{Rendered: f.rendered.Load(), Failed: f.failed.Load(), Retries: f.retries.Load(),
		Starts: f.starts.Load(), Static: f.static.Load(), Compared: f.compared.Load(), Gained: f.gained.Load(),
		Requests: make(map[Verdict]int64)}
	f.vmu.Lock()
	for k, v := range f.verdicts {
		s.Requests[k] = v
	}
	f.vmu.Unlock()
	return s
}

// Get is the inner fetcher's Get (robots.txt is not rendered).
func (f *Fetcher) Get(ctx context.Context, u *url.URL) (*http.Response, error) { return f.get(ctx, u) }

// CloseIdleConnections closes the inner fetcher's idle connections, when it
// has any. The browser stays: Close ends it.
func (f *Fetcher) CloseIdleConnections() {
	if c, ok := f.inner.(fetch.IdleCloser); ok {
		c.CloseIdleConnections()
	}
}

// Close ends the browser and every process it started, and removes its
// user-data-dir. Fetches after Close fail. It is safe to call twice.
func (f *Fetcher) Close() error {
	f.mu.Lock()
	b := f.b
	f.b, f.closed = nil, true
	f.mu.Unlock()
	for drained := false; !drained; {
		select {
		case t := <-f.idle:
			t.cancel()
		default:
			drained = true
		}
	}
	if b != nil {
		b.close()
	}
	return nil
}

// getByFetch makes a sub-request through Fetch, for an inner fetcher that
// is not a Getter.
func (f *Fetcher) getByFetch(ctx context.Context, u *url.URL) (*http.Response, error) {
	resp, err := f.inner.Fetch(ctx, &fetch.Request{URL: u})
	if resp == nil {
		return nil, err
	}
	h := resp.Header.Clone()
	h.Del("Content-Encoding")
	return &http.Response{StatusCode: resp.Status, Header: h, Body: io.NopCloser(bytes.NewReader(resp.Body))}, nil
}

// Fetch fetches req with the inner fetcher and, for a 2xx HTML answer to a
// GET (and Options.Render, if set, agreeing), renders it: the response's
// Body becomes the rendered DOM (UTF-8) and Duration includes the render.
// A render that fails (the browser crashed or hung) is retried once on a
// fresh browser; when that fails too, Fetch returns the static response
// with an error matching ErrRender.
func (f *Fetcher) Fetch(ctx context.Context, req *fetch.Request) (*fetch.Response, error) {
	resp, err := f.inner.Fetch(ctx, req)
	if err != nil || resp == nil || !f.wants(req, resp) {
		return resp, err
	}
	var g string
	compare := false
	if f.adapt != nil {
		var render bool
		g = group(resp)
		if render, compare = f.adapt.plan(g); !render {
			f.static.Add(1)
			return resp, nil
		}
	}
	start := time.Now()
	dom, err := f.renderRetry(ctx, resp)
	if err != nil {
		f.failed.Add(1)
		return resp, &fetch.Error{URL: resp.URL.String(), StatusCode: resp.Status, Err: fmt.Errorf("%w: %w", ErrRender, err)}
	}
	f.rendered.Add(1)
	if compare {
		gain := f.adapt.gains(resp, dom)
		f.adapt.record(g, gain)
		f.compared.Add(1)
		if gain {
			f.gained.Add(1)
		}
	}
	out := *resp
	out.Body, out.Charset = dom, "utf-8"
	if len(out.Body) > f.opts.MaxDOMBytes {
		out.Body, out.Truncated = cutUTF8(out.Body, f.opts.MaxDOMBytes), true
	}
	out.Duration += time.Since(start)
	return &out, nil
}

// wants reports whether resp is a page to render.
func (f *Fetcher) wants(req *fetch.Request, resp *fetch.Response) bool {
	if req.Method != "" && req.Method != http.MethodGet {
		return false
	}
	if resp.Status < 200 || resp.Status > 299 || resp.NotModified || resp.URL == nil {
		return false
	}
	if resp.ContentType != "text/html" && resp.ContentType != "application/xhtml+xml" {
		return false
	}
	return f.opts.Render == nil || f.opts.Render(resp)
}

// renderRetry renders resp, and once more on a fresh browser if the first
// render failed for a reason other than ctx.
func (f *Fetcher) renderRetry(ctx context.Context, resp *fetch.Response) ([]byte, error) {
	select {
	case f.tabs <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-f.tabs }()
	var err error
	for attempt := range 2 {
		var b *browserProc
		if b, err = f.browser(); err != nil {
			return nil, err
		}
		var dom []byte
		dom, err = f.render(ctx, b, resp)
		if err == nil || ctx.Err() != nil {
			return dom, err
		}
		f.opts.Logger.Warn("render failed", "url", resp.URL.String(), "attempt", attempt+1, "err", err)
		if !b.alive(2 * time.Second) {
			f.replace(b)
		}
		if attempt == 0 {
			f.retries.Add(1)
		}
	}
	return nil, err
}

// browser returns the running browser, starting one if there is none.
func (f *Fetcher) browser() (*browserProc, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil, errors.New("render: fetcher closed")
	}
	if f.b != nil && f.b.ctx.Err() == nil {
		return f.b, nil
	}
	if f.b != nil { // crashed: its context ended when the connection was lost
		old := f.b
		f.b = nil
		go old.close()
	}
	b, err := startBrowser(f.opts.ExecPath, f.opts.StartTimeout, f.opts.Logger)
	if err != nil {
		return nil, err
	}
	f.starts.Add(1)
	f.opts.Logger.Info("browser started", "pid", b.pid)
	f.b = b
	return b, nil
}

// replace ends b if it is still the current browser, so that the next
// render starts another.
func (f *Fetcher) replace(b *browserProc) {
	f.mu.Lock()
	if f.b == b {
		f.b = nil
	}
	f.mu.Unlock()
	f.opts.Logger.Warn("browser replaced", "pid", b.pid)
	b.close()
}

// count adds one request with verdict v to the stats.
func (f *Fetcher) count(v Verdict) {
	f.vmu.Lock()
	f.verdicts[v]++
	f.vmu.Unlock()
}

// browserPID returns the pid of the current browser, 0 if none (tests).
func (f *Fetcher) browserPID() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.b == nil {
		return 0
	}
	return f.b.pid
}

// cutUTF8 returns b cut to at most n bytes, at a rune boundary.
func cutUTF8(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return b[:n]
}
