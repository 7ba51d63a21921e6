package trawl

import (
	"context"
	"time"
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
	c.decide(ctx, *d)
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
	c.cfg.events.OnDecision(ctx, d)
}
