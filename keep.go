package trawl

import (
	"context"
	"fmt"
	"strings"

	"github.com/trawl-dev/trawl/dedup"
	"github.com/trawl-dev/trawl/urlnorm"
)

// keep is the loop's fourth stage: it judges the page (duplicate of an
// earlier page, repeat of an earlier page of its host, its score), shows
// it to Events.OnPage, the WithHTML callbacks and its WithHandler handler,
// and stores it unless it
// said noindex or is a duplicate not to be stored. A store error is the
// page's error; the visit goes on to follow its links.
func (c *Crawler) keep(ctx context.Context, v *visit) step {
	p := v.page
	var s step
	if v.hist == nil || v.hist.Visits <= 1 { // judged on the first visit only
		v.duplicate = c.checkDuplicate(p)
		v.repeat = c.traps.seenText(urlnorm.Key(p.URL), p.Title, p.Text)
	}
	if score := c.cfg.prio.Page; score != nil {
		p.Score = score(p)
		if p.Relevant {
			add(&c.stats.live.Pages.Relevant, 1)
		}
	}
	if v.duplicate {
		reason := ReasonNear
		if p.Duplicate.Kind == dedup.Exact {
			reason = ReasonExact
		}
		v.note(Decision{URL: v.req.URL, Outcome: DecisionDuplicateContent, Depth: p.Depth, Reason: reason, Of: p.Duplicate.Of}, nil)
	}
	if ev := c.cfg.events.OnPage; ev != nil {
		ev(ctx, p)
	}
	c.runHTML(ctx, p)
	c.runHandler(ctx, p)
	switch {
	case p.NoIndex:
		add(&c.stats.live.Pages.NoIndex, 1)
	case v.duplicate && !c.cfg.dupPolicy.Store:
		// Known content: not stored again.
	case c.cfg.store != nil:
		if err := c.cfg.store.Put(ctx, p); err != nil {
			s.err = fmt.Errorf("trawl: store: %w", err)
			add(&c.stats.live.Errors.Store, 1)
		} else {
			c.stats.stored(int64(len(p.Body)))
		}
	}
	return s
}

// checkDuplicate runs duplicate detection on an HTML page's main text (the
// visible text when no main text was found), records the verdict in
// p.Duplicate and reports whether the page duplicates an earlier one.
func (c *Crawler) checkDuplicate(p *Page) bool {
	if c.cfg.dups == nil || (p.ContentType != "text/html" && p.ContentType != "application/xhtml+xml") {
		return false
	}
	text := p.MainText
	if strings.TrimSpace(text) == "" {
		text = p.Text
	}
	if strings.TrimSpace(text) == "" {
		return false // nothing to compare: an empty page duplicates nothing
	}
	// The title goes in too: pages with next to no text (framesets,
	// stubs) then differ by title, while true copies share it.
	p.Duplicate = c.cfg.dups.Check(p.URL.String(), p.Title+"\n\n"+text)
	switch p.Duplicate.Kind {
	case dedup.Exact:
		add(&c.stats.live.Pages.ExactDuplicates, 1)
	case dedup.Near:
		add(&c.stats.live.Pages.NearDuplicates, 1)
	default:
		return false
	}
	return true
}
