package trawl_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/recrawl"
)

// A continuous crawl of a hostile crawltest web (traps, network and status
// faults, unusual robots.txt answers, Crawl-delay; the heavy bodies are
// left to the one-shot tests) for 6 simulated hours: robots.txt and
// each host's delay hold for every request, revisits included, one request
// at a time per host, and the crawl ends with its context.
func TestRecrawlHostileWeb(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		web := crawltest.NewTestWeb(t, &crawltest.Options{
			Seed: 7, Hosts: 4, PagesPerHost: 20, InMemory: true, RobotsVariety: true, CrawlDelay: 30 * time.Second,
			ChangeInterval: time.Hour,
			Faults: crawltest.Faults{
				Calendar: true, SessionIDs: true, Soft404: true, MetaRefresh: true, RedirectChain: 3, RedirectLoop: true,
				Slow: 5 * time.Second, Hang: true, Reset: true, ServerErrors: true, TooManyRequests: true,
				WrongContentType: true, MalformedHTML: true,
			},
		})
		const delay = 30 * time.Second
		c, err := trawl.New(
			trawl.WithSeeds(web.Seeds()...),
			trawl.WithUserAgent(testUA),
			trawl.WithDialContext(web.DialContext),
			trawl.WithAllowPrivateNetworks(true),
			trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
			trawl.WithWorkers(4),
			trawl.WithPoliteness(trawl.Politeness{Delay: delay}),
			trawl.WithPoliteness(trawl.Politeness{Adaptive: -1}),
			trawl.WithRecrawl(recrawl.Policy{MinInterval: time.Minute, MaxInterval: 3 * time.Hour}),
		)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 6*time.Hour)
		defer cancel()
		if err := c.Run(ctx); ctx.Err() == nil {
			t.Fatalf("Run returned before its context ended: %v", err)
		}
		log := web.Log().Filter(func(r crawltest.Request) bool { return r.UserAgent == testUA })
		if v := log.RobotsViolations("trawltest"); len(v) > 0 {
			t.Errorf("%d requests robots.txt disallows, first %s", len(v), v[0].URL)
		}
		for host, gap := range log.MinGap() {
			if gap < delay-time.Millisecond {
				t.Errorf("%s: minimum gap %v, want ≥ %v", host, gap, delay)
			}
		}
		for host, n := range log.MaxInFlight() {
			if n > 1 {
				t.Errorf("%s: %d requests in flight at once", host, n)
			}
		}
		st := c.Stats()
		if st.Recrawl.Revisits == 0 || st.Fetch.NotModified() == 0 {
			t.Errorf("Stats: %d revisits, %d 304s in 6 h; want both > 0", st.Recrawl.Revisits, st.Fetch.NotModified())
		}
		t.Logf("6 h: %d requests, %d fetches, %d revisits, %d 304s, %d changes, %d scheduled, errors %v",
			log.Len(), st.Fetch.Pages, st.Recrawl.Revisits, st.Fetch.NotModified(), st.Recrawl.Changes, st.Recrawl.Scheduled, st.Errors.Kinds)
	})
}
