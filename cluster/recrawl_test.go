package cluster_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/cluster"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/internal/redistest"
	"github.com/trawl-dev/trawl/recrawl"
)

// The continuous crawl of TestClusterRecrawlFreshness: a crawltest web of
// recrawlHosts hosts of recrawlPages pages, whose change rates spread
// log-uniformly from one change in 20 s to two a second, crawled with a
// politeness delay of recrawlDelay per host: a budget of 5 fetches a
// second per host, about one revisit per page per second, so the schedule
// must choose (the fastest pages cannot be kept fresh, the slowest need
// few visits).
const (
	recrawlHosts = 6
	recrawlPages = 10
	recrawlDelay = 200 * time.Millisecond
)

// recrawlRate is the change rate of page id of host h: log-uniform from
// 0.05 to 2 changes a second, a deterministic function of the page.
func recrawlRate(h, id int) float64 {
	x := uint64(h)<<32 | uint64(id)
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	u := float64(x>>11) / (1 << 53)
	return math.Exp(math.Log(0.05) + u*(math.Log(2)-math.Log(0.05)))
}

// newRecrawlWeb starts the changing web of TestClusterRecrawlFreshness on
// loopback; its pages start changing now.
func newRecrawlWeb(t *testing.T, seed int64) *crawltest.Web {
	return crawltest.NewTestWeb(t, &crawltest.Options{Seed: seed, Hosts: recrawlHosts, PagesPerHost: recrawlPages, ChangeRate: recrawlRate})
}

// recrawlOptions are the crawl options of every crawler of the test, one
// process or one agent: the same politeness (the budget) and the zero
// recrawl.Policy (every default: the planner spends each host's budget).
func recrawlOptions(web *crawltest.Web, workers int) []trawl.Option {
	return []trawl.Option{
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithUserAgent(testAgent + "/1.0"),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
		trawl.WithWorkers(workers),
		trawl.WithPoliteness(trawl.Politeness{Delay: recrawlDelay, Adaptive: -1}),
		trawl.WithRecrawl(recrawl.Policy{}),
	}
}

// freshness is crawltest's Web.Freshness with the number of pages measured.
func freshness(web *crawltest.Web, from, end time.Time) (fresh float64, pages int) {
	fresh, measured := web.Freshness(from, end)
	return fresh, len(measured)
}

// recrawlOneProcess makes a fresh web and the one process that crawls it,
// and returns the web and a function that crawls it continuously for
// length and returns when the crawl started.
func recrawlOneProcess(t *testing.T, seed int64, length time.Duration) (*crawltest.Web, func() time.Time) {
	web := newRecrawlWeb(t, seed)
	c, err := trawl.New(recrawlOptions(web, 6)...)
	if err != nil {
		t.Fatal(err)
	}
	return web, func() time.Time {
		start := time.Now()
		ctx, cancel := context.WithTimeout(t.Context(), length)
		defer cancel()
		if err := c.Run(ctx); err != nil && ctx.Err() == nil {
			t.Errorf("one process: Run: %v", err)
		}
		return start
	}
}

// recrawlCluster crawls a fresh web continuously with agents cluster
// agents of two workers each (as many as the one process has in all) for
// length, and kills agent 1 at killAt as SIGKILL would: its goroutines
// stop, its Redis connection closes, nothing more reaches Redis from it.
// It returns the web, when the crawl started, and the hosts the dead
// agent owned.
func recrawlCluster(t *testing.T, srv *redistest.Server, crawl string, seed int64, agents int, length, killAt time.Duration) (*crawltest.Web, time.Time, []string) {
	web := newRecrawlWeb(t, seed)
	ctx, cancel := context.WithTimeout(t.Context(), length)
	defer cancel()
	as := make([]*cluster.Agent, agents)
	clients := make([]*redis.Client, agents)
	crawlers := make([]*trawl.Crawler, agents)
	for i := range as {
		clients[i] = redis.NewClient(&redis.Options{Addr: srv.Addr})
		defer clients[i].Close()
		a, err := cluster.Join(ctx, clients[i], &cluster.Options{Name: "a" + strconv.Itoa(i), Crawl: crawl, Lease: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		as[i] = a
		c, err := trawl.New(append(recrawlOptions(web, 6),
			trawl.WithFrontier(a.Frontier),
			trawl.WithShared(trawl.Shared{Robots: a.Robots()}))...)
		if err != nil {
			a.Close()
			t.Fatal(err)
		}
		crawlers[i] = c
	}
	start := time.Now()
	var wg sync.WaitGroup
	deadCtx, kill := context.WithCancel(ctx)
	defer kill()
	for i, c := range crawlers {
		rctx := ctx
		if i == 1 {
			rctx = deadCtx
		}
		wg.Go(func() {
			err := c.Run(rctx)
			if i != 1 && err != nil && ctx.Err() == nil {
				t.Errorf("agent %d: Run: %v", i, err)
			}
		})
	}
	// The hosts a1 owns while all agents live (a loaded machine may have
	// declared it dead sooner: it then died earlier, which the test
	// allows).
	var deadHosts []string
	var names []string
	for _, a := range as {
		names = append(names, a.Name())
	}
	ring := cluster.NewRing(names, 0)
	select {
	case <-time.After(killAt):
	case <-ctx.Done():
	}
	for h := range recrawlHosts {
		host := "h" + strconv.Itoa(h) + ".test"
		if ring.Owner(host) == "a1" {
			deadHosts = append(deadHosts, host)
		}
	}
	as[1].Abandon()
	clients[1].Close()
	kill()
	wg.Wait()
	for i, a := range as {
		if i != 1 {
			if err := a.Close(); err != nil {
				t.Errorf("agent %d: Close: %v", i, err)
			}
		}
	}
	return web, start, deadHosts
}

// TestClusterRecrawlFreshness: a continuous crawl by three cluster agents,
// one of which is killed midway, keeps a changing web as fresh as one
// process does with the same budget, and loses no revisit and
// duplicates none.
//
// Time is real: Redis's clock (TIME in the scripts) decides when a host
// may be contacted and when a revisit is due, so a synctest bubble's fake
// clock cannot drive the cluster. The web is small and fast instead: 6
// hosts of 10 pages (about 40 of them reachable) changing from once in
// 20 s to twice a second, 5 fetches a second per host, crawled for 20 s
// by one process (6 workers) and, at the same time, on a copy of the web,
// by three agents (6 workers each: the budget is the hosts' politeness,
// the same for both); freshness is averaged over the last three
// quarters, after every page has been fetched. Agent a1 is killed at half time as SIGKILL would kill it; its
// hosts (four of the six with these names) pass to the others within a
// lease (1 s) and a Poll, with their revisit schedules, and are not
// fetched meanwhile.
//
// The margin, from pairs of runs with -race on 2026-12-07 on a shared
// 2-core machine (load average 3 to 9: other crawls and test suites).
// One process measured 0.69–0.75 (0.70–0.74 on web 1 alone: its own
// run-to-run spread is 0.04). Run one after the other, the cluster's
// deficit within a pair was -0.002 to 0.067 over eight pairs, the worst
// at a load average of 8.7: the cluster's extra Redis round trips and
// goroutines suffer more from a starved CPU, and an agent whose
// heartbeat is late skips a turn. Run at once, as now, so that the load
// falls on both, it was -0.008 to 0.044 over ten pairs (0.024, 0.016,
// 0.021, 0.031, then 0.021, -0.006, 0.016, 0.044, -0.008, 0.031 on webs
// 1 to 6; the cluster made 362–462 requests, one process 415–483). The test allows 0.10: more
// than twice the worst paired deficit, and half as much again as the
// worst sequential one. A cluster whose takeover lost the dead agent's
// schedule (a bug this test caught: its hosts were never revisited
// again) measured 0.47 and 0.57 against 0.72, deficits of 0.15 and 0.25,
// outside it; the schedule check below fails on it anyway.
// TRAWL_CLUSTER_RECRAWL_RUNS=N runs N pairs, on webs 1 to N, and logs
// each, for measuring the spread again.
func TestClusterRecrawlFreshness(t *testing.T) {
	const length = 20 * time.Second
	warmup, killAt := length/4, length/2
	runs := 1
	if n, err := strconv.Atoi(os.Getenv("TRAWL_CLUSTER_RECRAWL_RUNS")); err == nil && n > 0 {
		runs = n
	}
	srv := redistest.Start(t)
	srvClient := redis.NewClient(&redis.Options{Addr: srv.Addr})
	defer srvClient.Close()
	const margin = 0.10
	for run := range runs {
		seed := int64(run + 1)
		// The two crawls run at once, each on its own web: a busy
		// machine slows both alike, and the test takes half the time.
		web1, crawl1 := recrawlOneProcess(t, seed, length)
		var start1 time.Time
		var wg sync.WaitGroup
		wg.Go(func() { start1 = crawl1() })
		crawl := "recrawl" + strconv.Itoa(run)
		webC, startC, deadHosts := recrawlCluster(t, srv, crawl, seed, 3, length, killAt)
		wg.Wait()
		f1, n1 := freshness(web1, start1.Add(warmup), start1.Add(length))
		reqs1 := web1.Log().Len()
		fC, nC := freshness(webC, startC.Add(warmup), startC.Add(length))
		reqsC := webC.Log().Len()
		t.Logf("run %d (web %d): one process: freshness %.3f over %d pages, %d requests; 3 agents, a1 killed at %v: freshness %.3f over %d pages, %d requests",
			run, seed, f1, n1, reqs1, killAt, fC, nC, reqsC)

		pages := 0
		for _, u := range web1.Reachable(testAgent) {
			if _, ok := web1.Page(u); ok {
				pages++
			}
		}
		// Nearly every page is fetched in the warm-up (a loaded machine
		// may find a page or two late), so freshness is measured on the
		// same pages.
		if n1 < pages*9/10 || nC < pages*9/10 {
			t.Errorf("run %d: measured %d pages (one process) and %d (cluster), want at least 90 %% of the %d fetched in the warm-up", run, n1, nC, pages)
		}
		// The dead agent's schedule survived: each of its hosts was
		// revisited after the kill.
		if len(deadHosts) == 0 {
			t.Errorf("run %d: the killed agent owned no host", run)
		}
		killed := startC.Add(killAt)
		after := map[string]int{}
		for _, r := range webC.Log().Requests() {
			if _, ok := webC.Page(r.URL); ok && r.Start.After(killed) {
				after[hostOf(r.URL)]++
			}
		}
		for _, host := range deadHosts {
			if after[host] == 0 {
				t.Errorf("run %d: %s, of the killed agent's hosts, was not revisited after the kill", run, host)
			}
		}
		// No revisit lost, none duplicated: every page waits in exactly one
		// agent's schedule when the crawl stops.
		sched, orphans, err := cluster.ScheduledForTest(t.Context(), srvClient, crawl)
		if err != nil {
			t.Fatal(err)
		}
		if orphans > 0 {
			t.Errorf("run %d: %d revisits without their request in Redis", run, orphans)
		}
		fetched := map[string]bool{}
		for _, r := range webC.Log().Requests() {
			if _, ok := webC.Page(r.URL); ok && r.Status == 200 {
				fetched[r.URL] = true
			}
		}
		for u := range fetched {
			if sched[u] != 1 {
				// What the web saw of the page, to tell a revisit lost in a
				// takeover (last request near the kill) from one lost at
				// the end (last request near the deadline).
				var seen []string
				for _, r := range webC.Log().Requests() {
					if r.URL == u {
						seen = append(seen, fmt.Sprintf("%s %d at %v", r.Method, r.Status, r.Start.Sub(startC).Round(time.Millisecond)))
					}
				}
				if len(seen) > 4 {
					seen = seen[len(seen)-4:]
				}
				t.Errorf("run %d: %s is in %d revisit schedules at the end, want 1 (host owned by %s at the start; its last requests: %s)",
					run, u, sched[u], cluster.NewRing([]string{"a0", "a1", "a2"}, 0).Owner(hostOf(u)), strings.Join(seen, ", "))
			}
		}
		for u, n := range sched {
			if n != 1 {
				t.Errorf("run %d: %s is in %d revisit schedules at the end, want 1", run, u, n)
			}
		}
		for host, n := range webC.Log().MaxInFlight() {
			if n > 1 {
				t.Errorf("run %d: %d requests at once to %s", run, n, host)
			}
		}
		for host, g := range webC.Log().MinGap() {
			if g < recrawlDelay {
				t.Errorf("run %d: host %s contacted %v after the end of the previous request, want at least %v", run, host, g, recrawlDelay)
			}
		}
		if fC < f1-margin {
			t.Errorf("run %d: the cluster's freshness %.3f is below one process's %.3f by more than %.2f", run, fC, f1, margin)
		}
	}
}
