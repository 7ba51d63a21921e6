package render

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdpfetch "github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/trawl-dev/trawl/fetch"
)

// page is the state of one render: the requests its tab made, what is in
// flight, and its budget.
type page struct {
	f    *Fetcher
	resp *fetch.Response
	tab  context.Context // the tab's chromedp context

	mu        sync.Mutex
	reqs      []Request
	inflight  int
	lastQuiet time.Time // when inflight last fell to 0
	mainFrame cdp.FrameID
	served    bool // the page's own document was served
	n         int  // sub-requests made
	bytes     int64

	sub sync.Mutex // one sub-request at a time per page
	wg  sync.WaitGroup
}

// tab is a browser tab kept between renders: opening one costs about
// four times the CPU of a navigation in one already open.
type tab struct {
	ctx    context.Context // the tab's chromedp context
	cancel context.CancelFunc
	b      *browserProc
}

// takeTab returns an idle tab of b, or opens one.
func (f *Fetcher) takeTab(b *browserProc) (*tab, error) {
	for {
		select {
		case t := <-f.idle:
			if t.b == b && t.ctx.Err() == nil {
				return t, nil
			}
			t.cancel() // of a browser replaced since, or closed
		default:
			return openTab(b)
		}
	}
}

// openTab opens a tab in b. The first call on a chromedp context opens the
// tab and ties its life to that call's context, which therefore carries no
// timeout: the wait is bounded from outside.
func openTab(b *browserProc) (*tab, error) {
	ctx, cancel := chromedp.NewContext(b.ctx)
	opened := make(chan error, 1)
	go func() { opened <- chromedp.Do(ctx) }()
	select {
	case err := <-opened:
		if err != nil {
			cancel()
			return nil, fmt.Errorf("opening a tab: %w", err)
		}
		return &tab{ctx: ctx, cancel: cancel, b: b}, nil
	case <-time.After(10 * time.Second):
		cancel()
		return nil, errors.New("opening a tab: no answer from the browser in 10s")
	}
}

// putTab keeps t for the next render, or closes it when enough are kept.
func (f *Fetcher) putTab(t *tab) {
	select {
	case f.idle <- t:
	default:
		t.cancel()
	}
}

// render renders resp in a tab of b and returns the DOM.
func (f *Fetcher) render(ctx context.Context, b *browserProc, resp *fetch.Response) (dom []byte, err error) {
	t, err := f.takeTab(b)
	if err != nil {
		return nil, err
	}
	tab := t.ctx
	// The tab is closed if the caller's ctx ends or the render overruns
	// its timeout (a hung tab), and kept for the next page otherwise.
	stop := context.AfterFunc(ctx, t.cancel)
	timer := time.AfterFunc(f.opts.Timeout+5*time.Second, t.cancel)
	p := &page{f: f, resp: resp, tab: tab, lastQuiet: time.Now()}
	defer func() {
		if err == nil {
			// Leave the page, so that its scripts stop; a tab that
			// cannot is closed.
			bctx, bcancel := context.WithTimeout(tab, 2*time.Second)
			_, err2 := chromedp.Call(bctx, cdppage.Navigate, cdppage.NavigateParams{URL: "about:blank"})
			bcancel()
			if err2 != nil {
				t.cancel()
			}
		}
		timer.Stop()
		if !stop() || err != nil || tab.Err() != nil {
			t.cancel()
		} else {
			f.putTab(t)
		}
		p.wg.Wait()
		for _, r := range p.reqs {
			f.count(r.Verdict)
			if f.opts.OnRequest != nil {
				f.opts.OnRequest(resp.URL, r)
			}
		}
	}()

	rctx, cancel := context.WithTimeout(tab, f.opts.Timeout)
	defer cancel()
	// Every request of the tab pauses at the request stage; p.paused
	// decides what becomes of it.
	events := chromedp.Events(rctx, cdpfetch.RequestPaused)
	if _, err := chromedp.Call(rctx, cdpfetch.Enable, cdpfetch.EnableParams{
		Patterns: []*cdpfetch.RequestPattern{{URLPattern: "*"}},
	}); err != nil {
		return nil, fmt.Errorf("enabling interception: %w", err)
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for ev, err := range events {
			if err != nil {
				return
			}
			p.wg.Add(1)
			p.mu.Lock()
			p.inflight++
			p.mu.Unlock()
			go func() {
				defer p.wg.Done()
				p.paused(rctx, &ev)
				p.mu.Lock()
				if p.inflight--; p.inflight == 0 {
					p.lastQuiet = time.Now()
				}
				p.mu.Unlock()
			}()
		}
	}()

	if err := chromedp.Do(rctx, chromedp.Navigate(resp.URL.String())); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// A page whose load event never came (a sub-request that hangs)
		// is read as it is if the tab still answers.
		if !errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("loading: %w", err)
		}
	}
	p.settle(rctx)
	// Read the DOM with a short deadline of its own: a tab that hangs (a
	// script in an endless loop) fails here, and the render is retried.
	dctx, dcancel := context.WithTimeout(tab, time.Second+min(f.opts.Timeout/4, 3*time.Second))
	defer dcancel()
	html, err := chromedp.Run(dctx, chromedp.Evaluate[string](
		`(document.doctype ? new XMLSerializer().serializeToString(document.doctype) + "\n" : "") + document.documentElement.outerHTML`))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("reading the DOM: %w", err)
	}
	return []byte(html), nil
}

// settle waits until no sub-request has been in flight for Settle, or
// until ctx ends.
func (p *page) settle(ctx context.Context) {
	for {
		p.mu.Lock()
		quiet := p.inflight == 0
		since := time.Since(p.lastQuiet)
		p.mu.Unlock()
		wait := 25 * time.Millisecond
		if quiet {
			if since >= p.f.opts.Settle {
				return
			}
			wait = p.f.opts.Settle - since
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// paused decides what becomes of one paused request, does it, and records
// it.
func (p *page) paused(ctx context.Context, ev *cdpfetch.EventRequestPaused) {
	r := Request{URL: ev.Request.URL + ev.Request.URLFragment, Method: ev.Request.Method, Type: string(ev.ResourceType)}
	p.mu.Lock()
	first := !p.served && ev.ResourceType == network.ResourceTypeDocument
	if first {
		p.served, p.mainFrame = true, ev.FrameID
	}
	mainNav := !first && ev.ResourceType == network.ResourceTypeDocument && ev.FrameID == p.mainFrame
	p.mu.Unlock()
	if first {
		// The page itself: served from the response already fetched, so
		// the host is not asked twice.
		p.fulfill(ctx, ev.RequestID, p.resp.Status, pageHeader(p.resp), p.resp.Body)
		return
	}
	if ev.ResourceType == network.ResourceTypeOther && strings.HasSuffix(ev.Request.URL, "/favicon.ico") {
		// The browser's own favicon request: nothing the page asked for.
		p.fail(ctx, ev.RequestID)
		return
	}
	r.Verdict = p.judge(ctx, ev, mainNav)
	if r.Verdict == "" {
		r.Verdict = p.subFetch(ctx, ev)
	} else {
		p.fail(ctx, ev.RequestID)
	}
	p.mu.Lock()
	p.reqs = append(p.reqs, r)
	p.mu.Unlock()
}

// judge returns the verdict refusing the request, or "" when it may be
// made.
func (p *page) judge(ctx context.Context, ev *cdpfetch.EventRequestPaused, mainNav bool) Verdict {
	if m := ev.Request.Method; m != http.MethodGet && m != http.MethodHead {
		return BlockedMethod
	}
	if mainNav {
		return BlockedNavigate
	}
	u, err := url.Parse(ev.Request.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return BlockedScheme
	}
	if !p.f.opts.OtherHosts && !strings.EqualFold(u.Host, p.resp.URL.Host) {
		return BlockedHost
	}
	p.mu.Lock()
	over := p.n >= p.f.opts.MaxRequests
	if !over {
		p.n++
	}
	p.mu.Unlock()
	if over {
		return BlockedLimit
	}
	if p.f.opts.Allowed != nil && !p.f.opts.Allowed(ctx, u) {
		return BlockedRobots
	}
	return ""
}

// subFetch makes an allowed sub-request through the inner fetcher and
// hands the answer to the browser.
func (p *page) subFetch(ctx context.Context, ev *cdpfetch.EventRequestPaused) Verdict {
	u, _ := url.Parse(ev.Request.URL) // judge parsed it
	p.sub.Lock()
	defer p.sub.Unlock()
	resp, err := p.f.get(ctx, u)
	if err != nil {
		p.fail(ctx, ev.RequestID)
		if errors.Is(err, fetch.ErrPrivateAddress) {
			return BlockedPrivate
		}
		return FetchFailed
	}
	defer resp.Body.Close()
	p.mu.Lock()
	left := p.f.opts.MaxBytes - p.bytes
	p.mu.Unlock()
	body, err := io.ReadAll(io.LimitReader(resp.Body, left+1))
	p.mu.Lock()
	p.bytes += int64(len(body))
	p.mu.Unlock()
	switch {
	case int64(len(body)) > left:
		p.fail(ctx, ev.RequestID)
		return BlockedLimit
	case err != nil:
		p.fail(ctx, ev.RequestID)
		return FetchFailed
	}
	var h []*cdpfetch.HeaderEntry
	for k, vs := range resp.Header {
		switch http.CanonicalHeaderKey(k) {
		case "Content-Length", "Transfer-Encoding", "Connection", "Keep-Alive", "Set-Cookie":
			continue
		}
		for _, v := range vs {
			h = append(h, &cdpfetch.HeaderEntry{Name: k, Value: v})
		}
	}
	if ev.Request.Method == http.MethodHead {
		body = nil
	}
	p.fulfill(ctx, ev.RequestID, resp.StatusCode, h, body)
	return Fetched
}

func (p *page) fulfill(ctx context.Context, id cdpfetch.RequestID, status int, h []*cdpfetch.HeaderEntry, body []byte) {
	_, _ = chromedp.Call(ctx, cdpfetch.FulfillRequest, cdpfetch.FulfillRequestParams{
		RequestID: id, ResponseCode: int64(status), ResponseHeaders: h, Body: body})
}

func (p *page) fail(ctx context.Context, id cdpfetch.RequestID) {
	_, _ = chromedp.Call(ctx, cdpfetch.FailRequest, cdpfetch.FailRequestParams{
		RequestID: id, ErrorReason: network.ErrorReasonBlockedByClient})
}

// pageHeader is the header the browser gets with the page: the server's,
// with the body's charset now UTF-8 and no length or encoding to honour.
func pageHeader(resp *fetch.Response) []*cdpfetch.HeaderEntry {
	h := []*cdpfetch.HeaderEntry{{Name: "Content-Type", Value: resp.ContentType + "; charset=utf-8"}}
	for k, vs := range resp.Header {
		switch http.CanonicalHeaderKey(k) {
		case "Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding", "Connection", "Keep-Alive", "Set-Cookie":
			continue
		}
		for _, v := range vs {
			h = append(h, &cdpfetch.HeaderEntry{Name: k, Value: v})
		}
	}
	return h
}
