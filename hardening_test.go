package trawl_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/fetch"
)

// TestCrawlSlowRobots: a host whose robots.txt trickles one byte a second
// no longer holds the crawl: its robots.txt fetch hits the fetch deadline,
// the host counts as unreachable (RFC 9309: disallow all for a while), and
// every other host is crawled completely.
func TestCrawlSlowRobots(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{
		Seed: 5, Hosts: 8, PagesPerHost: 10, Faults: crawltest.Faults{SlowRobots: time.Second},
	})
	const slow = "h3.test" // crawltest trickles on hosts with i%8 == 3
	// A short total deadline keeps the test quick; the default (30 s, and
	// 512 B/s over 10 s) ends the same trickle in 10 s.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	c, err := trawl.New(
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithUserAgent(testUA),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithFetchOptions(fetch.Options{Timeout: time.Second}),
		// The adaptive delay would rest the slow host 10 × 1 s before its
		// seed is denied; the crawl would still end, just later.
		trawl.WithPoliteness(trawl.Politeness{Adaptive: -1}),
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(ctx); err != nil {
		t.Fatalf("Run: %v", err)
	}
	t.Logf("crawl took %v", time.Since(start).Round(time.Millisecond))
	log := web.Log()
	var want []string
	for _, u := range web.Reachable(testUA) {
		if !strings.HasPrefix(u, "http://"+slow+"/") {
			want = append(want, u)
		}
	}
	missing, _ := diff(log.FetchedPages(), want)
	if len(missing) > 0 {
		t.Errorf("%d pages of the other hosts not fetched, e.g. %v", len(missing), first(missing, 5))
	}
	for _, r := range pageRequests(log) {
		if r.Host == slow {
			t.Errorf("fetched %s although its robots.txt never arrived", r.URL)
		}
	}
	st := c.Stats()
	if st.Errors.Kinds["robots"] != 1 {
		t.Errorf("ErrorKinds[robots] = %d, want 1 (the trickling robots.txt): %v", st.Errors.Kinds["robots"], st.Errors.Kinds)
	}
	if st.Robots.Denied == 0 {
		t.Errorf("no URL denied: the unreachable robots.txt must disallow its host")
	}
}
