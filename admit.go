package trawl

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/politeness"
	"github.com/trawl-dev/trawl/robots"
	"github.com/trawl-dev/trawl/urlnorm"
)

// admit is the loop's first stage: it decides whether the URL may be
// fetched now. It reads what travels with the URL, asks robots.txt
// (fetching it first if need be: that fetch uses the host's turn, so the
// URL goes back to wait), refuses hosts on private addresses, runs the
// request hook and counts the URL against the page limit.
func (c *Crawler) admit(ctx context.Context, v *visit) step {
	req := &v.req
	u, err := url.Parse(req.URL)
	if err != nil {
		v.out.NoContact = true
		return end(Decision{URL: req.URL, Outcome: DecisionError, ErrorKind: "bad-url"}, err)
	}
	v.u = u
	if v.data, err = decodeURLData(req.Data); err != nil {
		c.log.Warn("unreadable URL data; going on without it", "url", req.URL, "err", err)
	}
	v.hist = c.rc.begin(c, *req) // the page's visit history, with WithRecrawl
	if c.robots != nil {
		if s := c.admitRobots(ctx, v); s.done {
			return s
		}
	}
	if err := c.requestHeader(ctx, v); err != nil {
		v.out = outcomeNoContact(v.crawlDelay)
		return end(Decision{URL: req.URL, Outcome: DecisionAborted, Depth: req.Depth, Error: err.Error()}, err)
	}
	if !c.reservePage(ctx, v) {
		return end(Decision{URL: req.URL, Outcome: DecisionLimit, Depth: req.Depth}, nil)
	}
	return step{}
}

// admitRobots asks robots.txt about the URL; it ends the visit when the
// URL is disallowed, when its host is private, or when robots.txt had to
// be fetched first.
func (c *Crawler) admitRobots(ctx context.Context, v *visit) step {
	if c.private.has(v.u) {
		v.out.NoContact = true
		return c.refusePrivate(v, nil)
	}
	rules, cached := c.robots.Peek(v.u)
	if !cached {
		return c.fetchRobots(ctx, v)
	}
	v.crawlDelay = rules.CrawlDelay(c.botName)
	if !rules.Allowed(c.botName, v.req.URL) {
		v.out = outcomeNoContact(v.crawlDelay)
		c.rc.disallowed(v, &v.out)
		return c.denied(v, rules)
	}
	return step{}
}

// denied ends the visit of a URL robots.txt does not allow: a denial when
// the host's robots.txt says so, a failure (kind "robots-unreachable")
// when robots.txt could not be fetched and RFC 9309 has the crawler hold
// back from the whole host, so that a dead server is not reported as one
// that forbids crawling.
func (c *Crawler) denied(v *visit, rules *robots.Rules) step {
	if rules.Unreachable() {
		err := fmt.Errorf("trawl: %s not fetched: the host's robots.txt is unreachable (a server or network error), "+
			"which forbids the whole host for a while (RFC 9309): %w", v.req.URL, robots.ErrUnreachable)
		return end(Decision{URL: v.req.URL, Outcome: DecisionError, ErrorKind: "robots-unreachable", Depth: v.req.Depth}, err)
	}
	return end(Decision{URL: v.req.URL, Outcome: DecisionRobots, Depth: v.req.Depth}, nil)
}

// fetchRobots fetches the robots.txt of the URL's host (once per host and
// cache lifetime). The fetch is a contact with the host, so the URL waits
// for the host's next turn, which the Crawl-delay just learned already
// governs (up to Politeness.MaxCrawlDelay); a URL the new rules disallow is
// done now, rather than after the rest that a slow robots.txt earns its
// host.
func (c *Crawler) fetchRobots(ctx context.Context, v *visit) step {
	u := v.u
	start := time.Now()
	hops := &robotsHops{last: make(map[string]time.Time)}
	rules, err := c.robots.Rules(context.WithValue(ctx, robotsHopsKey{}, hops), u)
	add(&c.stats.live.Robots.Fetches, 1)
	robotsURL := u.Scheme + "://" + u.Host + "/robots.txt"
	if err != nil && ctx.Err() == nil {
		if errors.Is(err, fetch.ErrPrivateAddress) {
			// Not robots.txt's fault: the host may not be reached at
			// all. Say so for this URL and the rest.
			c.private.mark(u)
			v.out.NoContact = true
			return c.refusePrivate(v, err)
		}
		// The cache answers with disallow-all (5xx, network error,
		// timeout) or allow-all (too many redirects) meanwhile.
		v.note(Decision{URL: robotsURL, Outcome: DecisionError, ErrorKind: "robots"}, err)
	}
	if d, ok := hops.decision(robotsURL, err); ok {
		v.note(d, nil)
	}
	if err == nil && c.follows.has(extract.Sitemap) {
		c.offerSitemaps(ctx, u, rules.Sitemaps(), v.req.Depth+1)
	}
	v.crawlDelay = rules.CrawlDelay(c.botName)
	v.out = outcomeRequeue(time.Since(start), v.crawlDelay)
	if ctx.Err() != nil {
		return step{done: true}
	}
	if !rules.Allowed(c.botName, v.req.URL) {
		v.out.Requeue = false
		c.rc.disallowed(v, &v.out)
		return c.denied(v, rules)
	}
	return end(Decision{URL: v.req.URL, Outcome: DecisionWait, Reason: ReasonRobotsContact, Depth: v.req.Depth}, nil)
}

// reservePage counts the URL against Limits.MaxPages (not a retry, not a
// revisit) and reports whether it may be fetched. At the limit a one-shot
// crawl stops handing out URLs, keeping this one queued for a resume; a
// continuous crawl drops it and goes on revisiting.
func (c *Crawler) reservePage(ctx context.Context, v *visit) bool {
	maxPages := int64(c.cfg.limits.MaxPages)
	if maxPages == 0 || v.req.Retries > 0 || revisit(v.hist) || c.reserve(ctx) <= maxPages {
		return true
	}
	v.out.NoContact = true
	if c.rc == nil {
		c.stop()
		v.out.Requeue = true
	}
	return false
}

// reserve counts one page fetch for Limits.MaxPages and returns the total.
func (c *Crawler) reserve(ctx context.Context) int64 {
	if c.cfg.shared.Pages == nil {
		return c.reserved.Add(1)
	}
	n, err := c.cfg.shared.Pages.AddPage(ctx)
	if err != nil {
		c.log.Error("page counter failed: stopping as at the page limit", "err", err)
		return int64(c.cfg.limits.MaxPages) + 1
	}
	return n
}

// maxPrivateHosts bounds the set of hosts found to be on private addresses.
const maxPrivateHosts = 100_000

// privateHosts remembers the hosts whose robots.txt fetch hit a private
// address, so that their other URLs are refused without a fetch. It is
// safe for concurrent use; the zero value is empty.
type privateHosts struct {
	seeds atomic.Int64 // seeds refused because their host is private
	any   atomic.Bool  // hosts is not empty
	mu    sync.Mutex
	hosts map[string]bool // politeness keys
}

// has reports whether u's host was found to be on a private address.
func (p *privateHosts) has(u *url.URL) bool {
	if !p.any.Load() {
		return false // the common case, without a lock
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hosts[urlnorm.Key(u)]
}

func (p *privateHosts) mark(u *url.URL) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.hosts == nil {
		p.hosts = make(map[string]bool)
	}
	if len(p.hosts) < maxPrivateHosts {
		p.hosts[urlnorm.Key(u)] = true
		p.any.Store(true)
	}
}

// refusePrivate ends the visit of a URL whose host is on a private,
// loopback or otherwise non-public address, with an error that names the
// option that allows it. cause may be nil.
func (c *Crawler) refusePrivate(v *visit, cause error) step {
	if v.req.Depth == 1 && v.req.Referrer == "" {
		c.private.seeds.Add(1)
	}
	if cause == nil {
		cause = fetch.ErrPrivateAddress
	}
	err := fmt.Errorf("trawl: %s is on a private or loopback network address, refused by default "+
		"(allow it with WithAllowNetworks(prefix) or WithAllowPrivateNetworks(true), -allow-network or -allow-private in the example spiders): %w", v.req.URL, cause)
	return end(Decision{URL: v.req.URL, Outcome: DecisionError, ErrorKind: "private", Depth: v.req.Depth}, err)
}

// robotsHops records, for one robots.txt lookup, when each host was last
// contacted, so that redirect hops back to a host wait for its delay.
type robotsHops struct {
	mu     sync.Mutex
	last   map[string]time.Time
	status int // the last hop's HTTP status, for the decision
}

type robotsHopsKey struct{}

// decision returns the DecisionRobotsTxt of a lookup that made a fetch
// under these hops (not one that shared another worker's fetch).
func (h *robotsHops) decision(robotsURL string, err error) (Decision, bool) {
	h.mu.Lock()
	fetched, status := len(h.last) > 0, h.status
	h.mu.Unlock()
	if !fetched {
		return Decision{}, false
	}
	d := Decision{URL: robotsURL, Outcome: DecisionRobotsTxt, Status: status}
	switch {
	case err == nil && status >= 200 && status <= 299:
		d.Reason = ReasonParsed
	case err == nil, errors.Is(err, robots.ErrTooManyRedirects):
		d.Reason = ReasonAllowAll
	default:
		d.Reason = ReasonDisallowAll
	}
	if err != nil {
		d.Error = err.Error()
	}
	return d, true
}

// spacedHops wraps the robots.txt fetch so that, within one lookup (marked
// by a *robotsHops in ctx), a redirect hop to a host already contacted waits
// the configured delay first: robots.txt served as a redirect to the same
// host must not make two requests back to back.
func (c *Crawler) spacedHops(fetch robots.FetchFunc) robots.FetchFunc {
	delay := max(c.cfg.polite.Delay, 0)
	if p := c.cfg.polite; p.PerIP {
		ipDelay := p.IPDelay
		if ipDelay == 0 {
			ipDelay = politeness.DefaultIPDelay
		}
		delay = max(delay, ipDelay) // the hop is to the same address too
	}
	return func(ctx context.Context, u *url.URL) (*http.Response, error) {
		hops, _ := ctx.Value(robotsHopsKey{}).(*robotsHops)
		if hops == nil {
			return fetch(ctx, u)
		}
		key := urlnorm.Key(u)
		hops.mu.Lock()
		last, seen := hops.last[key]
		hops.mu.Unlock()
		if seen {
			if wait := time.Until(last.Add(delay)); wait > 0 {
				t := time.NewTimer(wait)
				select {
				case <-ctx.Done():
					t.Stop()
					return nil, ctx.Err()
				case <-t.C:
				}
			}
		}
		resp, err := fetch(ctx, u)
		hops.mu.Lock()
		hops.last[key] = time.Now()
		if resp != nil {
			hops.status = resp.StatusCode
		}
		hops.mu.Unlock()
		return resp, err
	}
}
