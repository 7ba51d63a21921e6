package cluster_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/cluster"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

// crawlAgentPerIP is crawlAgent polite per IP address, names resolving
// through the web.
func crawlAgentPerIP(ctx context.Context, rdb redis.UniversalClient, web *crawltest.Web, name string, delay, ipDelay time.Duration) (trawl.Stats, error) {
	a, err := cluster.Join(ctx, rdb, &cluster.Options{Name: name, Crawl: "test", Lease: 2 * time.Second})
	if err != nil {
		return trawl.Stats{}, err
	}
	c, err := trawl.New(
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithUserAgent(testAgent+"/1.0"),
		trawl.WithDialContext(web.DialContext),
		trawl.WithFetchOptions(fetch.Options{LookupNetIP: web.LookupNetIP}),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithPoliteness(trawl.Politeness{Delay: delay, Adaptive: -1, PerIP: true, IPDelay: ipDelay}),
		trawl.WithWorkers(4),
		trawl.WithFrontier(a.Frontier),
		trawl.WithShared(trawl.Shared{Robots: a.Robots()}),
	)
	if err != nil {
		a.Close()
		return trawl.Stats{}, err
	}
	runErr := c.Run(ctx)
	return c.Stats(), errorsJoin(runErr, a.Close())
}

// TestClusterPerIP: three agents crawl a web where ten hosts share one
// address. The cluster shares hosts out by their address, so one agent
// fetches all ten and politeness per IP holds across the cluster: never
// two requests at once to the address, and at least the IP delay between
// the end of one and the start of the next, whichever agents fetch the
// other hosts; each host keeps its own delay too.
func TestClusterPerIP(t *testing.T) {
	rdb := newClient(t)
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 6, Hosts: 16, PagesPerHost: 6,
		AddressOf: func(i int) int { return max(i-9, 0) }}) // h0-h9 on 127.0.1.1
	const delay, ipDelay = 20 * time.Millisecond, 15 * time.Millisecond
	ctx := t.Context()
	var wg sync.WaitGroup
	errs := make([]error, 3)
	stats := make([]trawl.Stats, 3)
	for i := range errs {
		wg.Go(func() {
			stats[i], errs[i] = crawlAgentPerIP(ctx, rdb, web, fmt.Sprintf("agent%d", i), delay, ipDelay)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("agent%d: %v", i, err)
		}
		t.Logf("agent%d fetched %d", i, stats[i].Fetch.Pages)
	}
	checkLog(t, web, delay, true)
	log := web.Log()
	if n := log.MaxInFlightBy(crawltest.Request.IP)["127.0.1.1"]; n != 1 {
		t.Errorf("%d requests in flight at once to the shared address, want 1", n)
	}
	if g := log.MinGapBy(crawltest.Request.IP)["127.0.1.1"]; g < ipDelay {
		t.Errorf("shared address contacted %v after the end of the previous request, want at least %v", g, ipDelay)
	}
}

// TestPerIPHostConcurrencyReleases: with politeness per IP and several
// requests per host and per address in flight, an agent releases each
// address's lease in Redis when its last fetch there ends, so none is left
// when the crawl is over (a lease left would keep the address from every
// other agent while this one lives).
func TestPerIPHostConcurrencyReleases(t *testing.T) {
	rdb := newClient(t)
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 4, Hosts: 3, PagesPerHost: 10,
		AddressOf: func(i int) int { return i }, Latency: 100 * time.Millisecond})
	ctx := t.Context()
	a, err := cluster.Join(ctx, rdb, &cluster.Options{Name: "solo", Crawl: "ipconc", Lease: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	c, err := trawl.New(
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithUserAgent(testAgent+"/1.0"),
		trawl.WithDialContext(web.DialContext),
		trawl.WithFetchOptions(fetch.Options{LookupNetIP: web.LookupNetIP}),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithPoliteness(trawl.Politeness{Delay: 10 * time.Millisecond, Adaptive: -1, HostConcurrency: 3,
			PerIP: true, IPDelay: trawl.NoDelay, IPConcurrency: 3}),
		trawl.WithWorkers(9),
		trawl.WithFrontier(a.Frontier),
		trawl.WithShared(trawl.Shared{Robots: a.Robots()}),
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if n := web.Log().MaxInFlight()["h0.test"]; n < 2 {
		t.Errorf("at most %d requests at once to h0.test: the test shows nothing", n)
	}
	for i := range 3 {
		ip := fmt.Sprintf("127.0.1.%d", i+1)
		ends, err := cluster.LeaseEndsForTest(ctx, rdb, "ipconc", "ip "+ip)
		if err != nil {
			t.Fatal(err)
		}
		if len(ends) > 0 {
			t.Errorf("%d leases of %s left in Redis after the crawl, want none", len(ends), ip)
		}
	}
}

// TestIPLeaseNotLostToRelease: an agent holds one lease of an address for
// all its fetches there, released when the last ends. A fetch that takes
// the address while the last one's Done is between its count reaching
// zero and its release must not lose its lease to that release: the lease
// must be in Redis while the new fetch runs (else another agent could
// fetch from the address at the same time).
func TestIPLeaseNotLostToRelease(t *testing.T) {
	rdb := newClient(t)
	ctx := t.Context()
	a, err := cluster.Join(ctx, rdb, &cluster.Options{Name: "solo", Crawl: "iprace", Lease: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	const ip = "10.0.0.1"
	opts := frontier.MemoryOptions{Workers: 2, Politeness: politeness.Config{MinDelay: -1, Factor: -1,
		IPKey: func(string) (string, bool) { return ip, true }, IPDelay: -1, IPConcurrency: 2}}
	f, err := a.Frontier(opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Push(ctx, frontier.Request{URL: "http://a.test/", Depth: 1}, frontier.Request{URL: "http://b.test/", Depth: 1}); err != nil {
		t.Fatal(err)
	}
	first, err := f.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	second := make(chan frontier.Request, 1)
	hooked := false
	cluster.SetOnIPFreeForTest(f, func() {
		if hooked {
			return
		}
		hooked = true
		go func() {
			r, err := f.Next(ctx)
			if err != nil {
				t.Error(err)
			}
			second <- r
		}()
		// Without the order, the second fetch takes the lease now, and
		// the release below deletes it. With it, the second waits for the
		// release; give it a bounded time to show it does not.
		select {
		case r := <-second:
			second <- r
		case <-time.After(time.Second):
		}
	})
	if err := f.Done(first, frontier.Outcome{Status: 200}); err != nil {
		t.Fatal(err)
	}
	var r frontier.Request
	select {
	case r = <-second:
	case <-time.After(10 * time.Second):
		t.Fatal("the second URL was not handed out")
	}
	ends, err := cluster.LeaseEndsForTest(ctx, rdb, "iprace", "ip "+ip)
	if err != nil {
		t.Fatal(err)
	}
	if len(ends) != 1 {
		t.Errorf("while %s is being fetched, %d leases of its address in Redis, want 1", r.URL, len(ends))
	}
	if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
		t.Fatal(err)
	}
}
