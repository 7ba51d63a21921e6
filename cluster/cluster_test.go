package cluster_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/cluster"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/internal/redistest"
)

const testAgent = "clusterbot"

// newClient returns a client of a fresh redis-server for t.
func newClient(t *testing.T) *redis.Client {
	t.Helper()
	srv := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr})
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// crawlAgent runs one agent's crawl of web to its end.
func crawlAgent(ctx context.Context, rdb redis.UniversalClient, web *crawltest.Web, name string, delay time.Duration, maxPages int) error {
	a, err := cluster.Join(ctx, rdb, &cluster.Options{Name: name, Crawl: "test", Lease: 2 * time.Second, MaxPages: int64(maxPages)})
	if err != nil {
		return err
	}
	opts := []trawl.Option{
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithUserAgent(testAgent + "/1.0"),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithDelay(delay),
		trawl.WithAdaptiveDelay(0),
		trawl.WithWorkers(4),
		trawl.WithFrontierFunc(a.Frontier),
		trawl.WithSharedRobots(a.Robots()),
	}
	if maxPages > 0 {
		opts = append(opts, trawl.WithMaxPages(maxPages), trawl.WithPageCounter(a))
	}
	c, err := trawl.New(opts...)
	if err != nil {
		a.Close()
		return err
	}
	runErr := c.Run(ctx)
	return errorsJoin(runErr, a.Close())
}

func errorsJoin(a, b error) error {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	return fmt.Errorf("%w; %w", a, b)
}

// checkLog checks the cluster-wide promises on a crawl's request log.
func checkLog(t *testing.T, web *crawltest.Web, delay time.Duration, wantAll bool) {
	t.Helper()
	log := web.Log()
	if wantAll {
		if got, want := log.FetchedPages(), web.Reachable(testAgent); !slices.Equal(got, want) {
			t.Errorf("the cluster fetched %d pages, want the %d reachable", len(got), len(want))
		}
	}
	if d := log.FetchedTwice(); len(d) > 0 {
		t.Errorf("fetched twice: %v", d)
	}
	for u, n := range log.Counts() {
		if strings.HasSuffix(u, "/robots.txt") && n != 1 {
			t.Errorf("%s fetched %d times in the cluster, want once", u, n)
		}
	}
	if v := log.RobotsViolations(testAgent); len(v) > 0 {
		t.Errorf("%d requests robots.txt disallows, first %s", len(v), v[0].URL)
	}
	for host, n := range log.MaxInFlight() {
		if n > 1 {
			t.Errorf("%d requests at once to %s", n, host)
		}
	}
	for host, g := range log.MinGap() {
		if g < delay {
			t.Errorf("host %s contacted %v after the end of the previous request, want at least %v", host, g, delay)
		}
	}
}

// TestClusterInProcess crawls a web with three agents in one process, each
// with its own crawler, and checks the cluster's promises.
func TestClusterInProcess(t *testing.T) {
	rdb := newClient(t)
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 3, Hosts: 6, PagesPerHost: 25})
	const delay = 20 * time.Millisecond
	ctx := t.Context()
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Go(func() { errs[i] = crawlAgent(ctx, rdb, web, fmt.Sprintf("agent%d", i), delay, 0) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("agent%d: %v", i, err)
		}
	}
	checkLog(t, web, delay, true)
}

// TestClusterMaxPages checks that the page limit holds over the cluster.
func TestClusterMaxPages(t *testing.T) {
	rdb := newClient(t)
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 4, Hosts: 6, PagesPerHost: 25})
	const delay, max = 5 * time.Millisecond, 40
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Go(func() { errs[i] = crawlAgent(t.Context(), rdb, web, fmt.Sprintf("agent%d", i), delay, max) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("agent%d: %v", i, err)
		}
	}
	pages := 0
	for _, r := range web.Log().Requests() {
		if !strings.HasSuffix(r.URL, "/robots.txt") {
			pages++
		}
	}
	if pages != max {
		t.Errorf("the cluster fetched %d pages, want the limit, %d", pages, max)
	}
	checkLog(t, web, delay, false)
}
