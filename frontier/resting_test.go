package frontier_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/internal/slowhosts"
	"github.com/trawl-dev/trawl/politeness"
)

// TestMemorySlowHostsDoNotDelayOthers: 10,000 hosts whose every contact
// reports a one-day Crawl-delay, queued ahead of 20 ordinary hosts (issue
// 32, item 1). Each slow host rests after its robots.txt contact with its
// page still queued; were it to keep its back queue while it rests, the
// three back queues per worker would fill with resting hosts and the
// ordinary hosts would wait for days. They must be done as soon, in fake
// time, as without the slow hosts, plus a margin: the slow hosts' own
// robots.txt contacts, which the workers make first (BFS) — none with
// fetches that take no time, 10,000 × fetch / workers (rounded up to whole
// fetches, plus one) otherwise. And each slow host's page must come back
// when its rest is over (the Crawl-delay capped at 5m, the default
// MaxCrawlDelay), no earlier, and no later than the workers can serve
// 10,000 hosts due at once.
func TestMemorySlowHostsDoNotDelayOthers(t *testing.T) {
	for _, fetch := range []time.Duration{0, 20 * time.Millisecond} {
		t.Run("fetch="+fetch.String(), func(t *testing.T) {
			s := slowhosts.Scenario{
				Slow:         10_000,
				CrawlDelay:   24 * time.Hour,
				Ordinary:     20,
				OrdinaryURLs: 5,
				Workers:      8,
				Fetch:        fetch,
			}
			run := func(s slowhosts.Scenario) (res slowhosts.Result) {
				synctest.Test(t, func(t *testing.T) {
					f := frontier.NewMemory(&frontier.MemoryOptions{Workers: s.Workers})
					res = slowhosts.Run(t, f, s)
				})
				return res
			}
			alone := s
			alone.Slow = 0
			without := run(alone)
			with := run(s)
			fetches := time.Duration((s.Slow+s.Workers-1)/s.Workers + 1)
			margin := fetches * fetch
			rest := politeness.DefaultMaxCrawlDelay
			t.Logf("ordinary hosts done after %v of fake time with %d slow hosts, %v without them (margin %v)",
				with.OrdinaryDone, s.Slow, without.OrdinaryDone, margin)
			slowhosts.Check(t, s, with, without, margin, rest, margin)
		})
	}
}

// TestMemoryRestingHostComesBack: a host that rests for a day (no cap on
// Crawl-delay) leaves its back queue to others, and its URLs are handed
// out again when the day is over, not before, not later.
func TestMemoryRestingHostComesBack(t *testing.T) {
	s := slowhosts.Scenario{Slow: 3, CrawlDelay: 24 * time.Hour, Ordinary: 2, OrdinaryURLs: 3, Workers: 1}
	run := func(s slowhosts.Scenario) (res slowhosts.Result) {
		synctest.Test(t, func(t *testing.T) {
			f := frontier.NewMemory(&frontier.MemoryOptions{
				Workers:    1,
				BackQueues: 1,
				Politeness: politeness.Config{MaxCrawlDelay: -1},
			})
			res = slowhosts.Run(t, f, s)
		})
		return res
	}
	alone := s
	alone.Slow = 0
	slowhosts.Check(t, s, run(s), run(alone), 0, 24*time.Hour, 0)
}

// TestMemoryRestingGroupLeavesBackQueues: with hosts grouped by server
// (politeness.Config.GroupKey), a contact that leaves one host's server
// resting long takes every host of that server out of the back queues:
// they share its next contact, so none of them could be served before.
func TestMemoryRestingGroupLeavesBackQueues(t *testing.T) {
	s := slowhosts.Scenario{Slow: 50, CrawlDelay: time.Hour, Ordinary: 4, OrdinaryURLs: 3, Workers: 2}
	run := func(s slowhosts.Scenario) (res slowhosts.Result) {
		synctest.Test(t, func(t *testing.T) {
			f := frontier.NewMemory(&frontier.MemoryOptions{
				Workers: s.Workers,
				Politeness: politeness.Config{GroupKey: func(host string) string {
					if slowhosts.IsSlow(host) {
						return "192.0.2.1" // one server for every slow host
					}
					return host
				}},
			})
			res = slowhosts.Run(t, f, s)
		})
		return res
	}
	alone := s
	alone.Slow = 0
	// One server: its hosts are contacted one per rest (5m, the capped
	// Crawl-delay), robots.txt and page each.
	rest := politeness.DefaultMaxCrawlDelay
	slowhosts.Check(t, s, run(s), run(alone), 0, rest, time.Duration(2*s.Slow)*rest)
}
