package trawl

import (
	"context"

	"github.com/trawl-dev/trawl/robots"
)

// PageCounter counts page fetches for WithMaxPages across several crawlers
// (package cluster counts them in Redis): AddPage adds one and returns the
// new total. It must be safe for concurrent use.
type PageCounter interface {
	AddPage(ctx context.Context) (int64, error)
}

// sharedHooks holds what several crawler processes share.
type sharedHooks struct {
	robots robots.Shared
	pages  PageCounter
}

// WithSharedRobots makes the crawler look robots.txt responses up in s
// before fetching them, and save there what it fetches
// (robots.SharedFetch), so that crawlers sharing s fetch each robots.txt
// once between them. Each crawler still parses and caches the rules
// itself. Default nil: robots.txt is fetched by each crawler.
func WithSharedRobots(s robots.Shared) Option { return func(c *config) { c.shared.robots = s } }

// WithPageCounter makes WithMaxPages count page fetches with pc instead of
// within this crawler, so the limit holds over every crawler sharing pc.
// When pc fails, the crawler stops as if the limit were reached. Default
// nil: the crawler counts its own fetches.
func WithPageCounter(pc PageCounter) Option { return func(c *config) { c.shared.pages = pc } }

func (h sharedHooks) robotsFetch(f robots.FetchFunc) robots.FetchFunc {
	if h.robots == nil {
		return f
	}
	return robots.SharedFetch(f, h.robots, nil)
}

// reserve counts one page fetch for WithMaxPages and returns the total.
func (c *Crawler) reserve(ctx context.Context) int64 {
	if c.cfg.shared.pages == nil {
		return c.reserved.Add(1)
	}
	n, err := c.cfg.shared.pages.AddPage(ctx)
	if err != nil {
		c.log.Error("page counter failed: stopping as at the page limit", "err", err)
		return int64(c.cfg.maxPages) + 1
	}
	return n
}
