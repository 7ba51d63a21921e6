package trawl

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/recrawl"
)

// headProber is the HEAD probe of a continuous crawl
// (recrawl.Policy.HeadProbe).
//
// A revisit whose HEAD does not show the page unchanged goes back to the
// frontier (Outcome.Requeue, which keeps its Request.State: the history)
// so that the host's delay passes before the GET; gets holds those URLs
// until they are handed out again, when the GET goes without a second
// HEAD. An entry lives from one HEAD to the next hand-out of its URL: at
// most one per page waiting for its GET, a URL string each. It is not
// persisted: after a restart such a page is probed again.
type headProber struct {
	probes atomic.Int64 // HEADs sent
	saved  atomic.Int64 // HEADs that found the page unchanged: no GET

	mu   sync.Mutex
	gets map[string]struct{}
}

// markGet notes that rawURL's next hand-out must GET.
func (p *headProber) markGet(rawURL string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gets == nil {
		p.gets = make(map[string]struct{})
	}
	p.gets[rawURL] = struct{}{}
}

// takeGet reports whether rawURL was marked by markGet, and unmarks it.
func (p *headProber) takeGet(rawURL string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.gets[rawURL]
	delete(p.gets, rawURL)
	return ok
}

// headUnchanged reports whether resp, the answer to a conditional HEAD,
// shows the copy that h describes to be current: a 304, or a 2xx whose
// validators are those of the copy (by ETag when both sides have one, by
// Last-Modified otherwise). A HEAD with no validators to compare reads as
// changed: only a GET can tell.
func headUnchanged(h *recrawl.History, resp *fetch.Response) bool {
	if resp.NotModified {
		return true
	}
	if resp.Status < 200 || resp.Status >= 300 {
		return false
	}
	if h.ETag != "" && resp.ETag != "" {
		return h.ETag == resp.ETag
	}
	return !h.LastModified.IsZero() && !resp.LastModified.IsZero() && !resp.LastModified.After(h.LastModified)
}

// headProbe sends a revisit's HEAD probe when the policy asks for one and
// the page's history has a validator to send, unless the page's HEAD was
// already sent and its GET is due. It reports whether it handled the
// visit: done with out when the HEAD showed the page unchanged (scheduled
// exactly as a 304 is) or sent the URL back to the frontier for its GET
// (the HEAD counts as a contact with the host, so the host's delay comes
// between the two); not done when the GET must be sent now.
func (c *Crawler) headProbe(ctx context.Context, req frontier.Request, u *url.URL, header http.Header, hist *recrawl.History, crawlDelay time.Duration) (frontier.Outcome, bool) {
	r := c.rc
	if r == nil || r.head == nil || !revisit(hist) || (hist.ETag == "" && hist.LastModified.IsZero()) {
		return frontier.Outcome{}, false
	}
	if r.head.takeGet(req.URL) {
		return frontier.Outcome{}, false // probed already: the GET now
	}
	freq := &fetch.Request{URL: u, Header: header, Method: http.MethodHead}
	validators(hist, freq)
	resp, err := c.fetcher.Fetch(ctx, freq)
	if errors.Is(err, fetch.ErrPrivateAddress) {
		return frontier.Outcome{}, false // the GET is refused the same way, and says so
	}
	r.head.probes.Add(1)
	out := frontier.Outcome{CrawlDelay: crawlDelay, Err: err}
	if err != nil && ctx.Err() != nil {
		out.Requeue = true // cancelled: probed again on a resume
		return out, true
	}
	if resp != nil {
		c.keepCookies(u, resp.Header)
		out.Status, out.Duration, out.RetryAfter = resp.Status, resp.Duration, resp.RetryAfter
		c.stats.status(resp.Status)
		if err == nil && headUnchanged(hist, resp) {
			r.head.saved.Add(1)
			nm := *resp
			nm.NotModified = true
			c.decideFetched(ctx, &req, &nm)
			r.visited(req, hist, &nm, nil, crawlDelay, &out)
			return out, true
		}
	}
	// Changed, unknown, or an error: the GET follows, on the host's next
	// turn. An error's status, Retry-After or timeout sets that turn as
	// for a GET (a 429 or 503 backs the host off).
	r.head.markGet(req.URL)
	out.Requeue = true
	c.decideWait(ctx, &req, "head-probe")
	return out, true
}
