package cluster_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/cluster"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/internal/redistest"
)

const testAgent = "clusterbot"

// quiet is a go-redis logger that drops what it is given: the tests
// check the errors that matter, and the dials that fail after a server is
// killed would fill the output.
type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}

func TestMain(m *testing.M) {
	redis.SetLogger(quiet{})
	os.Exit(m.Run())
}

// newClient returns a client of a fresh redis-server for t.
func newClient(t testing.TB) *redis.Client {
	t.Helper()
	srv := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr})
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// crawlAgent runs one agent's crawl of web to its end, with the options
// extra as well.
func crawlAgent(ctx context.Context, rdb redis.UniversalClient, web *crawltest.Web, name string, delay time.Duration, maxPages int, extra ...trawl.Option) (trawl.Stats, error) {
	a, err := cluster.Join(ctx, rdb, &cluster.Options{Name: name, Crawl: "test", Lease: 2 * time.Second, MaxPages: int64(maxPages)})
	if err != nil {
		return trawl.Stats{}, err
	}
	if delay == 0 {
		delay = trawl.NoDelay
	}
	opts := []trawl.Option{
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithUserAgent(testAgent + "/1.0"),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithPoliteness(trawl.Politeness{Delay: delay, Adaptive: -1}),
		trawl.WithWorkers(4),
		trawl.WithFrontier(a.Frontier),
		trawl.WithShared(trawl.Shared{Robots: a.Robots()}),
	}
	if maxPages > 0 {
		opts = append(opts, trawl.WithLimits(trawl.Limits{MaxPages: maxPages}), trawl.WithShared(trawl.Shared{Pages: a}))
	}
	c, err := trawl.New(append(opts, extra...)...)
	if err != nil {
		a.Close()
		return trawl.Stats{}, err
	}
	runErr := c.Run(ctx)
	return c.Stats(), errorsJoin(runErr, a.Close())
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
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 3, Hosts: 24, PagesPerHost: 8})
	const delay = 20 * time.Millisecond
	ctx := t.Context()
	var wg sync.WaitGroup
	errs := make([]error, 3)
	stats := make([]trawl.Stats, 3)
	for i := range errs {
		wg.Go(func() { stats[i], errs[i] = crawlAgent(ctx, rdb, web, fmt.Sprintf("agent%d", i), delay, 0) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("agent%d: %v", i, err)
		}
		if stats[i].Fetch.Pages == 0 {
			t.Errorf("agent%d fetched nothing", i)
		}
		t.Logf("agent%d fetched %d", i, stats[i].Fetch.Pages)
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
		wg.Go(func() { _, errs[i] = crawlAgent(t.Context(), rdb, web, fmt.Sprintf("agent%d", i), delay, max) })
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

// TestAgentStats checks that any agent reads every agent's published
// stats, and that Join refuses a name a live agent has.
func TestAgentStats(t *testing.T) {
	rdb := newClient(t)
	ctx := t.Context()
	var agents []*cluster.Agent
	for i := range 3 {
		a, err := cluster.Join(ctx, rdb, &cluster.Options{Name: fmt.Sprintf("s%d", i), Crawl: "stats",
			Stats: func() any { return map[string]int{"fetched": 10 * i} }})
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		agents = append(agents, a)
	}
	all, err := agents[0].Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		want := fmt.Sprintf(`{"fetched":%d}`, 10*i)
		if got := string(all[fmt.Sprintf("s%d", i)]); got != want {
			t.Errorf("stats of s%d = %s, want %s", i, got, want)
		}
	}
	others, err := agents[0].Others(ctx)
	if err != nil || !slices.Equal(others, []string{"s1", "s2"}) {
		t.Errorf("Others of s0 = %v, %v; want [s1 s2]", others, err)
	}
	if err := agents[2].Close(); err != nil {
		t.Fatal(err)
	}
	if others, err := agents[0].Others(ctx); err != nil || !slices.Equal(others, []string{"s1"}) {
		t.Errorf("Others of s0 after s2 left = %v, %v; want [s1]", others, err)
	}
	if got := agents[2].Ring().Len(); got != 3 {
		t.Errorf("the last agent sees %d agents, want 3", got)
	}
	if _, err := cluster.Join(ctx, rdb, &cluster.Options{Name: "s1", Crawl: "stats"}); !errors.Is(err, cluster.ErrNameInUse) {
		t.Errorf("Join with a live agent's name: %v, want ErrNameInUse", err)
	}
}

// TestRedisCluster runs three agents on a Redis Cluster of three shards:
// every script keeps to one hash tag, so the crawl works there as on one
// server, and its keys spread over the shards.
func TestRedisCluster(t *testing.T) {
	addrs := redistest.StartCluster(t, 3)
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	t.Cleanup(func() { rdb.Close() })
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 8, Hosts: 24, PagesPerHost: 8})
	const delay = 20 * time.Millisecond
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Go(func() { _, errs[i] = crawlAgent(t.Context(), rdb, web, fmt.Sprintf("agent%d", i), delay, 0) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("agent%d: %v", i, err)
		}
	}
	checkLog(t, web, delay, true)
	// The URL sets live on every shard.
	var shards atomic.Int32
	err := rdb.ForEachMaster(t.Context(), func(ctx context.Context, shard *redis.Client) error {
		keys, err := shard.Keys(ctx, "trawl:u:*").Result()
		if len(keys) > 0 {
			shards.Add(1)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := shards.Load(); n != 3 {
		t.Errorf("URL sets on %d shards, want all 3", n)
	}
}

// TestRedisGone checks that agents whose Redis dies mid-crawl stop with an
// error instead of waiting for ever.
func TestRedisGone(t *testing.T) {
	srv := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr, MaxRetries: -1})
	t.Cleanup(func() { rdb.Close() })
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 9, Hosts: 4, PagesPerHost: 50})
	done := make(chan error, 2)
	for i := range 2 {
		go func() {
			_, err := crawlAgent(t.Context(), rdb, web, fmt.Sprintf("agent%d", i), 50*time.Millisecond, 0)
			done <- err
		}()
	}
	// Kill Redis once the crawl is under way (the log has no channel to
	// wait on).
	for web.Log().Len() < 10 {
		select {
		case err := <-done:
			t.Fatalf("an agent ended before Redis was killed: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	srv.Kill()
	for range 2 {
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "cluster:") {
				t.Errorf("an agent ended with %v after Redis died, want a cluster error", err)
			}
			t.Logf("agent: %v", err)
		case <-time.After(30 * time.Second): // a bound for a hang, not a timing
			t.Fatal("an agent is still running 30 s after Redis died")
		}
	}
}
