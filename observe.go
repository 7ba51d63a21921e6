package trawl

import (
	"context"
	"time"
	"unicode/utf8"
)

// observe hands a stage's step to the observers: the stats, the log, and
// the Events (OnError, OnDecision). It is the one place where a decision
// is counted and reported; visit's stages call it through ended, never
// themselves.
func (c *Crawler) observe(ctx context.Context, v *visit, s step) {
	d := &s.d
	live := &c.stats.live
	switch d.Outcome {
	case 0:
		if s.err != nil { // a store failure: no decision of its own
			c.log.Warn("store failed", "url", v.req.URL, "err", s.err)
			c.onError(ctx, v.req.URL, s.err)
		}
		return
	case DecisionError:
		c.stats.errorKind(d.ErrorKind)
		c.seedFails.fail(d.URL, s.err)
		c.log.Warn("fetch failed", "url", d.URL, "kind", d.ErrorKind, "err", s.err)
		c.onError(ctx, d.URL, s.err)
	case DecisionAborted:
		add(&live.URLs.Aborted, 1)
		c.log.Info("request hook aborted the URL", "url", d.URL, "err", s.err)
	case DecisionRobots:
		add(&live.Robots.Denied, 1)
	case DecisionWait:
		if d.Reason == ReasonRetry {
			add(&live.Fetch.Retries, 1)
		}
	}
	if c.cfg.events.OnDecision == nil {
		return
	}
	if d.Error == "" && s.err != nil {
		d.Error = s.err.Error()
	}
	held := c.order.lock(d.URL) // after the DecisionQueued of the push that queued it
	c.decide(ctx, *d)
	held.Unlock()
}

// Bounds of the strings of a Decision: an error may quote what a server
// sent (a Location header, a status line), and a URL a rule drops may be
// as long as a server makes it, bounded only by the fetcher's header limit
// (1 MiB). Kept URLs are bounded by TrapLimits.MaxURLLength (2048 by
// default) before they reach the frontier.
const (
	maxDecisionError = 1024
	maxDecisionURL   = 8192
)

// bound clips d's strings to the bounds above.
func (d *Decision) bound() {
	d.URL, d.Referrer, d.Of = clip(d.URL, maxDecisionURL), clip(d.Referrer, maxDecisionURL), clip(d.Of, maxDecisionURL)
	d.Error = clip(d.Error, maxDecisionError)
}

// clip returns s cut to at most n bytes at a rune boundary, with "…" when
// it was cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// onError calls Events.OnError, if set.
func (c *Crawler) onError(ctx context.Context, rawURL string, err error) {
	if ev := c.cfg.events.OnError; ev != nil && err != nil {
		ev(ctx, rawURL, err)
	}
}

// decide passes d, stamped with the time, to Events.OnDecision, if set.
func (c *Crawler) decide(ctx context.Context, d Decision) {
	if c.cfg.events.OnDecision == nil {
		return
	}
	d.Time = time.Now().UTC()
	d.bound()
	c.cfg.events.OnDecision(ctx, d)
}
