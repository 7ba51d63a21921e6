package trawl

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/frontier"
)

// fetchURL is the loop's second stage: it fetches the URL. A revisit may
// start with a HEAD probe (recrawl.Policy.HeadProbe); the GET of a revisit
// is conditional. A transient failure sends the URL back to be retried
// after the host's back-off; a cancelled fetch keeps it queued, so that a
// persistent frontier fetches it after a resume.
func (c *Crawler) fetchURL(ctx context.Context, v *visit) step {
	if s, done := c.headProbe(ctx, v); done {
		return s
	}
	freq := &fetch.Request{URL: v.u, Header: v.header}
	validators(v.hist, freq) // a revisit is a conditional GET
	resp, err := c.fetcher.Fetch(ctx, freq)
	v.resp = resp
	v.out = frontier.Outcome{CrawlDelay: v.crawlDelay, Err: err}
	var s step
	if resp != nil {
		c.keepCookies(v.u, resp.Header)
		v.out.Status, v.out.Duration, v.out.RetryAfter = resp.Status, resp.Duration, resp.RetryAfter
		c.counted(v.req.Depth, resp)
		s.d = fetchedDecision(&v.req, resp)
		s.d.Importance = v.importance
	}
	if err == nil {
		return s
	}
	// The fetched decision (if any) comes first, then the failure's.
	if s.d.Outcome != 0 {
		v.note(s.d, nil)
	}
	return c.fetchFailed(ctx, v, err)
}

// fetchFailed ends the visit of a URL whose fetch failed.
func (c *Crawler) fetchFailed(ctx context.Context, v *visit, err error) step {
	req := &v.req
	switch {
	case ctx.Err() != nil:
		// Cancelled: not the URL's fault. Keep it queued so that a
		// persistent frontier fetches it after a resume.
		v.out.Requeue = true
		return end(Decision{URL: req.URL, Outcome: DecisionWait, Reason: ReasonCrawlStopped, Depth: req.Depth}, nil)
	case errors.Is(err, fetch.ErrPrivateAddress):
		v.out.NoContact = true
		return c.refusePrivate(v, err)
	case fetch.Transient(err) && req.Retries < max(c.cfg.limits.MaxRetries, 0):
		v.out.Retry = true
		return end(Decision{URL: req.URL, Outcome: DecisionWait, Reason: ReasonRetry, ErrorKind: fetch.Kind(err), Depth: req.Depth}, nil)
	}
	if v.data.guessed && missing(err) {
		// The /sitemap.xml a robots.txt without Sitemap lines made the
		// crawl try is not there: the site has none, not an error. The
		// fetch's own decision (DecisionFetched, its status) says so.
		return step{done: true}
	}
	c.rc.failed(v, &v.out)
	return end(failure(req.URL, fetch.Kind(err), err), err)
}

// missing reports whether err is an HTTP 404 or 410 answer.
func missing(err error) bool {
	var fe *fetch.Error
	return errors.As(err, &fe) && (fe.StatusCode == http.StatusNotFound || fe.StatusCode == http.StatusGone)
}

// counted adds a fetch's answer to the stats.
func (c *Crawler) counted(depth int, resp *fetch.Response) {
	live := &c.stats.live.Fetch
	add(&live.Pages, 1)
	c.stats.status(resp.Status)
	raise(&live.Deepest, int64(depth))
}

// fetchedDecision is the DecisionFetched of a fetch that got resp.
func fetchedDecision(req *frontier.Request, resp *fetch.Response) Decision {
	d := Decision{URL: req.URL, Outcome: DecisionFetched, Depth: req.Depth,
		Status: resp.Status, Bytes: int64(len(resp.Body)), Duration: resp.Duration}
	if resp.NotModified {
		d.Reason = ReasonNotModified
	}
	return d
}

// failure is the DecisionError of a URL that failed with err, of kind.
func failure(rawURL, kind string, err error) Decision {
	d := Decision{URL: rawURL, Outcome: DecisionError, ErrorKind: kind}
	if fe := (*fetch.Error)(nil); errors.As(err, &fe) {
		d.Status = fe.StatusCode
	}
	return d
}

// headProbe sends a revisit's HEAD probe when the policy asks for one and
// the page's history has a validator to send, unless the page's HEAD was
// already sent and its GET is due. It reports whether it ended the visit:
// when the HEAD showed the page unchanged (scheduled exactly as a 304 is)
// or sent the URL back to the frontier for its GET (the HEAD counts as a
// contact with the host, so the host's delay comes between the two). The
// mark that the GET is due travels with the URL (urlData.getNext).
func (c *Crawler) headProbe(ctx context.Context, v *visit) (step, bool) {
	r, h := c.rc, v.hist
	if r == nil || !r.policy.HeadProbe || !revisit(h) || (h.ETag == "" && h.LastModified.IsZero()) {
		return step{}, false
	}
	if v.data.getNext {
		v.setGetNext(false) // probed already: the GET now
		return step{}, false
	}
	freq := &fetch.Request{URL: v.u, Header: v.header, Method: http.MethodHead}
	validators(h, freq)
	resp, err := c.fetcher.Fetch(ctx, freq)
	if errors.Is(err, fetch.ErrPrivateAddress) {
		return step{}, false // the GET is refused the same way, and says so
	}
	add(&c.stats.live.Recrawl.HeadProbes, 1)
	v.out = frontier.Outcome{CrawlDelay: v.crawlDelay, Err: err}
	if err != nil && ctx.Err() != nil {
		v.out.Requeue = true // cancelled: probed again on a resume
		return step{done: true}, true
	}
	if resp != nil {
		c.keepCookies(v.u, resp.Header)
		v.out.Status, v.out.Duration, v.out.RetryAfter = resp.Status, resp.Duration, resp.RetryAfter
		c.stats.status(resp.Status)
		if err == nil && headUnchanged(h, resp) {
			add(&c.stats.live.Recrawl.HeadSaved, 1)
			nm := *resp
			nm.NotModified = true
			v.resp = &nm
			r.visited(v, &v.out)
			return end(fetchedDecision(&v.req, &nm), nil), true
		}
	}
	// Changed, unknown, or an error: the GET follows, on the host's next
	// turn. An error's status, Retry-After or timeout sets that turn as
	// for a GET (a 429 or 503 backs the host off).
	v.setGetNext(true)
	v.out.Requeue = true
	return end(Decision{URL: v.req.URL, Outcome: DecisionWait, Reason: ReasonHeadProbe, Depth: v.req.Depth}, nil), true
}

// setGetNext sets the mark that the URL's GET is due after its HEAD
// probe; the mark travels with the URL (Outcome.Data, set by visit).
func (v *visit) setGetNext(on bool) {
	if v.data.getNext != on {
		v.data.getNext, v.dataChanged = on, true
	}
}

// outcomeNoContact is the outcome of a URL the host never saw.
func outcomeNoContact(crawlDelay time.Duration) frontier.Outcome {
	return frontier.Outcome{NoContact: true, CrawlDelay: crawlDelay}
}

// outcomeRequeue is the outcome of a URL that goes back to wait for its
// host's next turn after a contact that took d.
func outcomeRequeue(d, crawlDelay time.Duration) frontier.Outcome {
	return frontier.Outcome{Requeue: true, Duration: d, CrawlDelay: crawlDelay}
}
