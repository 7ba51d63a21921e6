package cluster_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/cluster"
	"github.com/trawl-dev/trawl/extract"
)

// TestClusterMetaReachesOwner checks that the metadata a URL is queued
// with (Crawler.Enqueue with SetMeta, and the handler of Handler) travels
// with it to the agent that owns its host: each host's home page enqueues a page on every other
// host, marked with the agent that enqueued it, and every such page must
// arrive with its mark, some of them at the other agent.
func TestClusterMetaReachesOwner(t *testing.T) {
	rdb := newClient(t)
	const hosts = 8
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<title>%s%s</title><p>page %s of %s</p>", r.Host, r.URL.Path, r.URL.Path, r.Host)
	}))
	t.Cleanup(srv.Close)
	dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, srv.Listener.Addr().String())
	}
	var seeds []string
	for i := range hosts {
		seeds = append(seeds, fmt.Sprintf("http://h%d.test/", i))
	}

	type arrival struct{ by, at, url string }
	var mu sync.Mutex
	var arrivals []arrival
	handled := map[string]bool{} // pages given to the handler they were queued for
	// Both agents join, and see each other, before either crawls: an
	// agent alone owns every host.
	agents := make([]*cluster.Agent, 2)
	for i := range agents {
		a, err := cluster.Join(t.Context(), rdb, &cluster.Options{Name: fmt.Sprintf("agent%d", i), Crawl: "meta", Lease: 600 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		agents[i] = a
	}
	for i := 0; agents[0].Ring().Len() < 2 || agents[1].Ring().Len() < 2; i++ {
		if i == 500 {
			t.Fatalf("the agents do not see each other after 5 s: rings %v, %v", agents[0].Ring().Agents(), agents[1].Ring().Agents())
		}
		time.Sleep(10 * time.Millisecond) // the next heartbeat (Lease/3) shows the other agent; no event says so
	}
	run := func(a *cluster.Agent) error {
		name := a.Name()
		var c *trawl.Crawler
		var err error
		c, err = trawl.New(
			trawl.WithSeeds(seeds...),
			trawl.WithUserAgent(testAgent+"/1.0"),
			trawl.WithDialContext(dial),
			trawl.WithAllowPrivateNetworks(true),
			trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay, IgnoreRobots: true}),
			trawl.WithFollow(extract.Navigation),
			trawl.WithWorkers(2),
			trawl.WithFrontier(a.Frontier),
			trawl.WithHandler("from", func(_ context.Context, p *trawl.Page) {
				mu.Lock()
				handled[p.URL.String()] = true
				mu.Unlock()
			}),
			trawl.WithEvents(trawl.Events{OnPage: func(ctx context.Context, p *trawl.Page) {
				if p.URL.Path == "/" {
					for i := range hosts {
						if u := seeds[i] + "from/" + p.URL.Hostname(); !strings.HasPrefix(u, p.URL.String()) {
							if _, err := c.Enqueue(ctx, u, trawl.SetMeta("by", name), trawl.Handler("from")); err != nil {
								t.Errorf("Enqueue(%s): %v", u, err)
							}
						}
					}
					return
				}
				mu.Lock()
				arrivals = append(arrivals, arrival{by: p.Meta["by"], at: name, url: p.URL.String()})
				mu.Unlock()
			}}),
		)
		if err != nil {
			a.Close()
			return err
		}
		return errorsJoin(c.Run(t.Context()), a.Close())
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Go(func() { errs[i] = run(agents[i]) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("agent%d: %v", i, err)
		}
	}
	if want := hosts * (hosts - 1); len(arrivals) != want {
		t.Errorf("%d enqueued pages fetched, want %d", len(arrivals), want)
	}
	crossed := 0
	for _, a := range arrivals {
		switch {
		case a.by == "":
			t.Errorf("%s arrived at %s without its metadata", a.url, a.at)
		case a.by != a.at:
			crossed++
		}
		if !handled[a.url] {
			t.Errorf("%s arrived at %s but not at the handler it was queued for", a.url, a.at)
		}
	}
	if crossed == 0 {
		t.Errorf("no page queued by one agent was fetched by the other: the test shows nothing (%d arrivals)", len(arrivals))
	}
	t.Logf("%d of %d pages crossed to the other agent with their metadata", crossed, len(arrivals))
}

// A robots.txt response too large to share is not kept in Redis.
func TestSharedRobotsBounded(t *testing.T) {
	a, err := cluster.Join(t.Context(), newClient(t), &cluster.Options{Name: "solo", Crawl: "robots"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	s := a.Robots()
	ctx := t.Context()
	if err := s.Save(ctx, "http://big.test/robots.txt", make([]byte, 500<<10), time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Load(ctx, "http://big.test/robots.txt"); ok {
		t.Error("a 500 KiB robots.txt response was kept in Redis")
	}
	if err := s.Save(ctx, "http://small.test/robots.txt", []byte("200\nUser-agent: *\n"), time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Load(ctx, "http://small.test/robots.txt"); !ok {
		t.Error("a small robots.txt response was not kept")
	}
}
