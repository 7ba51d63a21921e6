package trawl

import (
	"time"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

// pacer says, for each contact with a host, which politeness rule set the
// host's rest before its next request, for PaceStats. It evaluates the
// rules of the frontier's default policy (politeness.Config.WithDefaults)
// itself, so it needs nothing from the frontier; a frontier with a policy
// of its own (WithFrontier) may rest hosts otherwise.
type pacer struct {
	cfg      politeness.Config // with defaults
	adaptive politeness.Policy // nil when the adaptive delay is off
	backoff  politeness.Policy
}

// newPacer builds the rules once: rest runs after every contact.
func newPacer(c politeness.Config) pacer {
	p := pacer{cfg: c.WithDefaults()}
	if p.cfg.Factor > 0 {
		p.adaptive = politeness.Adaptive(p.cfg.Factor, p.cfg.MinDelay, p.cfg.MaxDelay)
	}
	p.backoff = politeness.Backoff(p.cfg.BackoffBase, p.cfg.BackoffMax)
	return p
}

// paceReason names a politeness rule.
type paceReason uint8

const (
	paceDelay paceReason = iota
	paceCrawlDelay
	paceAdaptive
	paceBackoff
)

// rest returns the rest out gives its host and the rule that set it: the
// longest of the delay, the Crawl-delay (capped), the adaptive delay
// (Adaptive × the response time, capped) and, after a 429, a 503, a
// timeout or a Retry-After, the back-off (at least its first step).
func (p pacer) rest(out *frontier.Outcome) (time.Duration, paceReason) {
	cfg := &p.cfg
	d, why := cfg.MinDelay, paceDelay
	if cd := min(out.CrawlDelay, cfg.MaxCrawlDelay); cd > d {
		d, why = cd, paceCrawlDelay
	}
	if p.adaptive != nil {
		if a := p.adaptive.Delay(politeness.Contact{Outcome: politeness.Outcome{Duration: out.Duration}}); a > d {
			d, why = a, paceAdaptive
		}
	}
	po := politeness.Outcome{Status: out.Status, Err: out.Err, RetryAfter: out.RetryAfter}
	if po.Throttled() || out.RetryAfter > 0 {
		failures := 0
		if po.Throttled() {
			failures = 1
		}
		// The first step of the back-off without its jitter: what a host
		// rests at least after one throttled answer.
		b := p.backoff.Delay(politeness.Contact{Outcome: po, Failures: failures, Jitter: 1 - 1e-9})
		if b >= d {
			d, why = b, paceBackoff
		}
	}
	return d, why
}

// paced counts a contact's rest in the stats (PaceStats).
func (c *Crawler) paced(out *frontier.Outcome) {
	if out.NoContact || (out.Status == 0 && out.Err == nil && out.Duration == 0) { // no contact (a robots.txt fetch has only its Duration)
		return
	}
	d, why := c.pace.rest(out)
	ps := &c.stats.live.Pace
	switch why {
	case paceDelay:
		add(&ps.Delay, 1)
	case paceCrawlDelay:
		add(&ps.CrawlDelay, 1)
	case paceAdaptive:
		add(&ps.Adaptive, 1)
	case paceBackoff:
		add(&ps.Backoff, 1)
	}
	raise((*int64)(&ps.Longest), int64(d))
}
