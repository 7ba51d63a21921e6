package trawl

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/urlnorm"
)

// relNofollowAny are the rel values that keep a link from being followed
// (unless WithFollowNofollow).
const relNofollowAny = extract.RelNofollow | extract.RelSponsored | extract.RelUGC

// followPage is the loop's last stage: it queues the page's links, unless
// the page said nofollow, is a duplicate whose links TrapLimits.Duplicates
// leaves out, or is beyond the hop limit.
func (c *Crawler) followPage(ctx context.Context, v *visit) step {
	p := v.page
	dups := c.cfg.traps.Duplicates
	switch {
	case p.NoFollow:
		add(&c.stats.live.Pages.NoFollow, 1)
		c.notFollowed(ctx, p, DecisionNotFollowed, ReasonPageNofollow)
	case v.duplicate && dups == DuplicatesNotFollowed:
		// A trap serving one page under many URLs ends here.
		c.notFollowed(ctx, p, DecisionNotFollowed, ReasonDuplicateContent)
	case v.repeat:
		// The same, exactly, as an earlier page of this host: a
		// session-id copy or a soft 404 (TrapLimits.Duplicates).
		add(&c.stats.live.Pages.Repeats, 1)
		c.notFollowed(ctx, p, DecisionNotFollowed, ReasonRepeatPage)
	case c.beyondDepth(p.Depth + 1):
		add(&c.stats.live.URLs.Filtered, int64(len(p.Links)))
		c.notFollowed(ctx, p, DecisionDepth, ReasonNone)
	default:
		c.follow(ctx, v)
	}
	c.log.Debug("page", "url", v.req.URL, "status", p.Status, "bytes", len(p.Body), "links", len(p.Links))
	return step{done: true}
}

// beyondDepth reports whether depth is past the hop limit.
func (c *Crawler) beyondDepth(depth int) bool {
	return c.cfg.limits.MaxDepth > 0 && depth > c.cfg.limits.MaxDepth
}

// follow queues the page's links: rel=nofollow links and kinds not
// followed are left out, then meta-refresh hops are counted, then the trap
// rules and the filters apply, and the frontier drops the URLs it has
// seen. Links to the page's own URL template go in a second batch, so that
// the template rule learns whether the page grew anything else.
func (c *Crawler) follow(ctx context.Context, v *visit) {
	p := v.page
	referrer := p.URL.String()
	guard := c.traps.lim.TemplateStreak > 0
	var own uint64
	if guard {
		own = c.traps.template(referrer)
	}
	reqs := make([]frontier.Request, 0, len(p.Links))
	var same []frontier.Request
	for i := range p.Links {
		l := &p.Links[i]
		r, ok := c.linkRequest(ctx, v, referrer, l)
		if !ok {
			continue
		}
		if guard && c.traps.template(l.URL) == own {
			same = append(same, r)
			continue
		}
		reqs = append(reqs, r)
	}
	if c.opic != nil {
		c.opic.split(v, c.cfg.prio.Link != nil, reqs, same)
	}
	outNew := c.offer(ctx, reqs)
	if len(same) == 0 {
		c.traps.grew(own, 0, outNew)
		return
	}
	if c.traps.closed(own) {
		if c.opic != nil {
			c.opic.lost(same)
		}
		c.traps.grew(own, 0, outNew) // which may open it again
		add(&c.stats.live.URLs.Traps, int64(len(same)))
		if c.cfg.events.OnDecision != nil {
			for _, r := range same {
				c.decide(ctx, Decision{URL: r.URL, Outcome: DecisionTrap, Reason: ReasonTemplateStreak, Depth: r.Depth, Referrer: referrer})
			}
		}
		return
	}
	if c.traps.grew(own, c.offer(ctx, same), outNew) {
		c.log.Info("links within a URL template no longer followed: its pages kept bringing only more of it",
			"url", referrer, "streak", c.traps.lim.TemplateStreak)
	}
}

// linkRequest returns the frontier request for a link of p, or false when
// the link is not followed (its rel, its kind, too many redirects).
func (c *Crawler) linkRequest(ctx context.Context, v *visit, referrer string, l *Link) (frontier.Request, bool) {
	p := v.page
	depth := p.Depth + 1
	if !c.cfg.nofollow && l.Rel&relNofollowAny != 0 {
		c.linkNotFollowed(ctx, referrer, depth, l, ReasonRelNofollow)
		return frontier.Request{}, false
	}
	if !c.follows.has(l.Kind) {
		c.linkNotFollowed(ctx, referrer, depth, l, ReasonKind)
		return frontier.Request{}, false
	}
	// l.Text shares one buffer with the page's other texts; the frontier
	// copies what it queues (see frontier.Frontier), so the many links that
	// are already known cost no copy here.
	r := frontier.Request{URL: l.URL, Depth: depth, Referrer: referrer, Anchor: l.Text}
	var data urlData
	if l.Kind == extract.Sitemap {
		data.sitemap = 1
		if l.Tag == "sitemap" { // an entry of a sitemap index, which passes its scope on
			data.sitemap, data.scope = 2, v.data.scope
		}
	}
	if l.Kind == extract.Redirect {
		// A meta refresh (or a Refresh, Location or Content-Location
		// header) is a redirect made by the page: its hops count against
		// the same limit, or a chain of refreshing pages would never end.
		r.Redirects = p.redirects + 1
		if r.Redirects > maxRedirects {
			err := fmt.Errorf("trawl: more than %d redirects (the last by %s to %s)", maxRedirects, l.Tag, clip(l.URL, 256))
			v.note(failure(referrer, "redirect", err), err)
			return frontier.Request{}, false
		}
	}
	if score := c.cfg.prio.Link; score != nil {
		r.Priority = score(l, p)
	}
	if in := p.listed[l.URL]; in != nil {
		data.info = in
		if c.cfg.prio.on() && in.Priority > 0 {
			r.Priority += in.Priority
		}
	}
	if !data.empty() {
		r.Data, _ = data.encode() // sitemap hints alone always fit
	}
	return r, true
}

// offer runs reqs through the trap rules and the filters and pushes the
// survivors; the frontier drops URLs it has seen. It returns how many
// URLs were new to the frontier. It reuses reqs' backing array.
func (c *Crawler) offer(ctx context.Context, reqs []frontier.Request) int {
	kept := reqs[:0]
	cand := new(Candidate) // one for the batch: a Filter sees it only during its call
	for _, r := range reqs {
		if d, ok := c.admissible(&r, cand); !ok {
			if d.Outcome != 0 {
				c.decide(ctx, d)
			}
			if c.opic != nil {
				c.opic.ledger.Lost(r.Priority)
			}
			continue
		}
		kept = append(kept, r)
	}
	if len(kept) == 0 {
		return 0
	}
	var js []joined
	if c.opic != nil {
		js = c.opic.admit(kept, js)
	}
	if c.ips != nil {
		c.ips.prime(ctx, kept) // resolve before admission: the frontier never waits for DNS
	}
	added, err := c.push(ctx, kept)
	if err != nil {
		c.log.Error("frontier push failed", "err", err)
	}
	if c.opic != nil {
		c.opic.forget(kept, js)
	}
	if b, ok := c.front.(frontier.Booster); ok && c.cfg.prio.Inlink > 0 {
		// In-link counting: every link to a URL still waiting in the
		// frontier, the first one included, adds the boost to its
		// priority. (Boost does nothing for URLs already handed out.)
		for _, r := range kept {
			b.Boost(r.URL, c.cfg.prio.Inlink)
		}
	}
	add(&c.stats.live.URLs.Discovered, int64(len(kept)))
	add(&c.stats.live.URLs.Duplicate, int64(len(kept)-added))
	return added
}

// admissible applies the trap rules, the hop limit and the filters to r,
// which the filters see as cand. A dropped URL is counted; its decision is
// returned when decisions are recorded.
func (c *Crawler) admissible(r *frontier.Request, cand *Candidate) (Decision, bool) {
	decisions := c.cfg.events.OnDecision != nil
	if rule := c.traps.shapeRule(r.URL); rule != ReasonNone {
		add(&c.stats.live.URLs.Traps, 1)
		return Decision{URL: r.URL, Outcome: DecisionTrap, Reason: rule, Depth: r.Depth, Referrer: r.Referrer}, false
	}
	if c.beyondDepth(r.Depth) {
		add(&c.stats.live.URLs.Filtered, 1)
		return Decision{URL: r.URL, Outcome: DecisionDepth, Depth: r.Depth, Referrer: r.Referrer}, false
	}
	if len(c.cfg.filters) == 0 {
		return Decision{}, true
	}
	u, err := url.Parse(r.URL)
	if err != nil {
		add(&c.stats.live.URLs.Filtered, 1)
		return Decision{}, false
	}
	if r.Host == "" {
		// The politeness key every frontier derives from the URL
		// (frontier.Request.Host), from the parse the filters need: the
		// frontier then parses the URL no second time. Taken before the
		// filters run, so that one changing cand.URL cannot alter it.
		r.Host = urlnorm.Key(u)
	}
	*cand = Candidate{URL: u, Depth: r.Depth, Referrer: r.Referrer, Anchor: r.Anchor}
	if len(r.Data) > 0 {
		d, _ := decodeURLData(r.Data)
		cand.Meta = d.meta
	}
	for i, f := range c.cfg.filters {
		if !f.Allow(cand) {
			add(&c.stats.live.URLs.Filtered, 1)
			if !decisions {
				return Decision{}, false
			}
			return Decision{URL: r.URL, Outcome: DecisionFiltered, Filter: c.filterName(i), Depth: r.Depth, Referrer: r.Referrer}, false
		}
	}
	return Decision{}, true
}

// filterName names the i-th filter for a decision.
func (c *Crawler) filterName(i int) string {
	f := c.cfg.filters[i]
	if s, ok := f.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("filter %d (%T)", i+1, f)
}

// notFollowed records the followable links of p as not followed, with
// outcome and reason.
func (c *Crawler) notFollowed(ctx context.Context, p *Page, outcome Outcome, reason Reason) {
	if c.cfg.events.OnDecision == nil {
		return
	}
	referrer := p.URL.String()
	for i := range p.Links {
		l := &p.Links[i]
		if (c.cfg.nofollow || l.Rel&relNofollowAny == 0) && c.follows.has(l.Kind) {
			c.decide(ctx, Decision{URL: l.URL, Outcome: outcome, Reason: reason, Depth: p.Depth + 1, Referrer: referrer})
		}
	}
}

// linkNotFollowed records a link found on the page referrer, at depth,
// that follow leaves out for its rel or its kind.
func (c *Crawler) linkNotFollowed(ctx context.Context, referrer string, depth int, l *Link, reason Reason) {
	if c.cfg.events.OnDecision == nil {
		return
	}
	d := Decision{URL: l.URL, Outcome: DecisionNotFollowed, Reason: reason, Depth: depth, Referrer: referrer}
	if reason == ReasonKind {
		d.Kind = l.Kind
	}
	c.decide(ctx, d)
}

// push pushes reqs to the frontier: all at once, or, when decisions are
// recorded, one at a time so that each URL's fate is known.
func (c *Crawler) push(ctx context.Context, reqs []frontier.Request) (int, error) {
	if c.cfg.events.OnDecision == nil {
		return c.front.Push(ctx, reqs...)
	}
	seen, canTell := c.front.(frontier.SeenChecker)
	now := time.Now().UTC() // one time for the batch: one page's links
	added := 0
	var errs []error
	for i := range reqs {
		r := &reqs[i]
		held := c.order.lock(r.URL)
		n, err := c.front.Push(ctx, reqs[i:i+1]...) // no copy, no allocation
		added += n
		if ctx.Err() != nil {
			held.Unlock()
			errs = append(errs, err)
			continue
		}
		d := Decision{Time: now, URL: r.URL, Depth: r.Depth, Referrer: r.Referrer}
		switch {
		case err != nil:
			errs = append(errs, err)
			d.Outcome, d.ErrorKind, d.Error = DecisionError, "frontier", err.Error()
		case n > 0:
			d.Outcome = DecisionQueued
		case canTell && seen.Seen(r.URL):
			d.Outcome = DecisionDuplicateURL
		case canTell || c.cfg.limits.HostBudget > 0:
			d.Outcome = DecisionBudget
			if !canTell {
				d.Reason = ReasonBudgetOrDuplicate
			}
		default:
			d.Outcome = DecisionDuplicateURL
		}
		d.bound()
		c.cfg.events.OnDecision(ctx, d)
		held.Unlock()
	}
	return added, errors.Join(errs...)
}
