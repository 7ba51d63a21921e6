package cluster_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/cluster"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

// grants records, per host, the times on Redis's clock at which Redis
// leased the host for a request (cluster.SetOnGrantForTest), and by which
// agent.
type grants struct {
	mu sync.Mutex
	at map[string][]grant
}

type grant struct {
	at    time.Time
	agent string
	url   string
}

func (g *grants) watch(f frontier.Frontier, agent string) {
	cluster.SetOnGrantForTest(f, func(req frontier.Request, at time.Time) {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.at == nil {
			g.at = map[string][]grant{}
		}
		g.at[req.Host] = append(g.at[req.Host], grant{at, agent, req.URL})
	})
}

// check reports the leases of a host that Redis granted closer together
// than delay: Redis keeps the delay between the starts of a host's
// contacts exactly, on its clock. Only the leases for URLs in contacted
// count, if it is not nil: a lease released with no contact (a URL that
// robots.txt disallows) leaves the host's next contact time as it was.
func (g *grants) check(t *testing.T, delay time.Duration, contacted map[string]int) (checked int) {
	t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	for host, gs := range g.at {
		if contacted != nil {
			gs = slices.DeleteFunc(slices.Clone(gs), func(g grant) bool { return contacted[g.url] == 0 })
		}
		slices.SortFunc(gs, func(a, b grant) int { return a.at.Compare(b.at) })
		checked += len(gs)
		for i := 1; i < len(gs); i++ {
			if d := gs[i].at.Sub(gs[i-1].at); d < delay {
				t.Errorf("%s leased by %s %v after its lease by %s, want at least %v", host, gs[i].agent, d, gs[i-1].agent, delay)
			}
		}
	}
	return checked
}

// clockSlack allows for the two clocks the check below compares: the
// leases are timed on Redis's clock, the requests on the web's (the same
// machine's, read by two processes).
const clockSlack = 2 * time.Millisecond

// checkStarts checks the starts of the requests to each host the web
// saw, robots.txt aside (it is fetched before the host's first lease),
// against the leases g recorded: every request reaches the web after a
// lease for its URL (its last one before it counts), and, taken in the order of their leases, two
// requests in a row to a host start at the web at least the delay apart
// less the time the first took from its lease to the web. The delay holds
// between the leases, exactly, on Redis's clock (grants.check); a request
// then reaches the web some time after its lease (a worker's turn, a new
// connection's dial), which on a loaded machine can exceed the delay, so
// the web can see two requests closer together than the delay, or in the
// other order, with every lease in time: in one run under load, a URL
// leased 104 ms after another reached the web 27 ms before it, as the
// other took 145 ms from its lease to the web. A gap shorter than the
// bound here means a request went out before its lease, or without one.
func checkStarts(t *testing.T, log *crawltest.Log, delay time.Duration, g *grants) {
	t.Helper()
	g.mu.Lock()
	leases := map[string][]time.Time{} // URL: its leases
	for _, gs := range g.at {
		for _, gr := range gs {
			leases[gr.url] = append(leases[gr.url], gr.at)
		}
	}
	g.mu.Unlock()
	type start struct {
		at, lease time.Time
		url       string
	}
	byHost := map[string][]start{}
	for _, r := range log.Requests() {
		if strings.HasSuffix(r.Path, "/robots.txt") {
			continue
		}
		var at time.Time // the URL's last lease before the request
		for _, l := range leases[r.URL] {
			if !l.After(r.Start.Add(clockSlack)) && l.After(at) {
				at = l
			}
		}
		if at.IsZero() {
			t.Errorf("%s reached the web at %v with no lease before it (leases %v)", r.URL, r.Start.Format("15:04:05.000000"), leases[r.URL])
			continue
		}
		byHost[r.Host] = append(byHost[r.Host], start{r.Start, at, r.URL})
	}
	least, lagged := time.Duration(-1), time.Duration(0)
	for host, starts := range byHost {
		slices.SortFunc(starts, func(a, b start) int { return a.lease.Compare(b.lease) })
		for i, s := range starts {
			lag := max(s.at.Sub(s.lease), 0)
			lagged = max(lagged, lag)
			if i == 0 {
				continue
			}
			prev := starts[i-1]
			d := s.at.Sub(prev.at)
			if bound := delay - max(prev.at.Sub(prev.lease), 0) - clockSlack; d < bound {
				t.Errorf("requests to %s leased in a row reached the web %v apart (%s at %v, then %s at %v), want at least %v: the delay %v less the first one's time from its lease",
					host, d, prev.url, prev.at.Format("15:04:05.000000"), s.url, s.at.Format("15:04:05.000000"), bound, delay)
			}
			if d := s.at.Sub(prev.at).Abs(); least < 0 || d < least {
				least = d
			}
		}
	}
	t.Logf("least gap at the web between two requests to a host leased in a row: %v (delay %v; longest time from a lease to the web %v)", least, delay, lagged)
}

// TestClusterHostConcurrency: three agents crawl a web whose answers take
// four times the delay, with three requests per host at once. Every page
// is fetched once, no host ever has more than three requests in flight,
// some reach three, and the starts of a host's requests keep the delay.
func TestClusterHostConcurrency(t *testing.T) {
	rdb := newClient(t)
	const delay, latency, perHost = 100 * time.Millisecond, 400 * time.Millisecond, 3
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 9, Hosts: 9, PagesPerHost: 10, Latency: latency})
	ctx := t.Context()
	var g grants
	var wg sync.WaitGroup
	errs := make([]error, 3)
	stats := make([]trawl.Stats, 3)
	for i := range errs {
		wg.Go(func() {
			name := fmt.Sprintf("hc%d", i) // names that share the web's 9 hosts out 4, 2 and 3
			a, err := cluster.Join(ctx, rdb, &cluster.Options{Name: name, Crawl: "test", Lease: 2 * time.Second})
			if err != nil {
				errs[i] = err
				return
			}
			c, err := trawl.New(
				trawl.WithSeeds(web.Seeds()...),
				trawl.WithUserAgent(testAgent+"/1.0"),
				trawl.WithDialContext(web.DialContext),
				trawl.WithAllowPrivateNetworks(true),
				trawl.WithPoliteness(trawl.Politeness{Delay: delay, Adaptive: -1, HostConcurrency: perHost}),
				trawl.WithWorkers(8),
				trawl.WithFrontier(func(opts frontier.MemoryOptions) (frontier.Frontier, error) {
					f, err := a.Frontier(opts)
					if err == nil {
						g.watch(f, name)
					}
					return f, err
				}),
				trawl.WithShared(trawl.Shared{Robots: a.Robots()}),
			)
			if err != nil {
				errs[i] = errors.Join(err, a.Close())
				return
			}
			errs[i] = errors.Join(c.Run(ctx), a.Close())
			stats[i] = c.Stats()
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("hc%d: %v", i, err)
		}
		t.Logf("hc%d fetched %d", i, stats[i].Fetch.Pages)
	}
	log := web.Log()
	if got, want := log.FetchedPages(), web.Reachable(testAgent); !slices.Equal(got, want) {
		t.Errorf("the cluster fetched %d pages, want the %d reachable", len(got), len(want))
	}
	if d := log.FetchedTwice(); len(d) > 0 {
		t.Errorf("fetched twice: %v", d)
	}
	if v := log.RobotsViolations(testAgent); len(v) > 0 {
		t.Errorf("%d requests robots.txt disallows, first %s", len(v), v[0].URL)
	}
	most := 0
	for host, n := range log.MaxInFlight() {
		if n > perHost {
			t.Errorf("%d requests at once to %s, want at most %d", n, host, perHost)
		}
		most = max(most, n)
	}
	if most < perHost {
		t.Errorf("at most %d requests at once to any host, want %d to some (answers take %v, the delay is %v)", most, perHost, latency, delay)
	}
	if n, want := g.check(t, delay, log.Counts()), len(log.FetchedPages()); n < want {
		t.Errorf("%d leases matched a request the web saw, want one for each of the %d pages", n, want)
	}
	checkStarts(t, log, delay, &g)
}

// hostOwnedBy returns a host of crawltest's web (h0.test, h1.test, ...)
// that agent owns in a ring of agents.
func hostOwnedBy(t *testing.T, agent string, agents ...string) string {
	t.Helper()
	ring := cluster.NewRing(agents, cluster.DefaultVirtualNodes)
	for i := range 16 {
		if h := fmt.Sprintf("h%d.test", i); ring.Owner(h) == agent {
			return h
		}
	}
	t.Fatalf("no host of 16 is %s's", agent)
	return ""
}

// fetchAll runs workers on f that fetch what it hands out from web until
// the crawl is over.
func fetchAll(t *testing.T, web *crawltest.Web, f frontier.Frontier, workers int) {
	t.Helper()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				req, err := f.Next(t.Context())
				if err != nil {
					if !errors.Is(err, frontier.ErrEmpty) {
						t.Errorf("Next: %v", err)
					}
					return
				}
				start := time.Now()
				out := frontier.Outcome{Status: http.StatusOK}
				resp, err := web.Client().Get(req.URL)
				if err != nil {
					out = frontier.Outcome{Err: err}
				} else {
					resp.Body.Close()
					out.Status = resp.StatusCode
				}
				out.Duration = time.Since(start)
				if err := f.Done(req, out); err != nil {
					t.Errorf("Done: %v", err)
				}
			}
		})
	}
	wg.Wait()
}

// hostURLs returns n URLs of host, from the first.
func hostURLs(host string, first, n int) []frontier.Request {
	reqs := make([]frontier.Request, n)
	for i := range reqs {
		reqs[i] = frontier.Request{URL: fmt.Sprintf("http://%s/n/%d", host, first+i), Depth: 1}
	}
	return reqs
}

// TestHostConcurrencyAcrossAgents: for a while after an agent joins, the
// agent that owned its hosts before still fetches the URLs of those hosts
// it has read, and the new owner fetches the rest: two agents fetch from
// one host at once. Their requests together keep its politeness: at most
// HostConcurrency in flight (and that many reached), starting at least
// the delay apart.
func TestHostConcurrencyAcrossAgents(t *testing.T) {
	rdb := newClient(t)
	const delay, latency, perHost = 100 * time.Millisecond, 400 * time.Millisecond, 3
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 3, Hosts: 16, PagesPerHost: 1, Latency: latency})
	host := hostOwnedBy(t, "b", "a", "b")
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	opts := frontier.MemoryOptions{Workers: perHost, Politeness: politeness.Config{MinDelay: delay, Factor: -1, HostConcurrency: perHost}}
	join := func(name string) (*cluster.Agent, frontier.Frontier) {
		a, err := cluster.Join(ctx, rdb, &cluster.Options{Name: name, Crawl: "two", Lease: 2 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close() })
		f, err := a.Frontier(opts)
		if err != nil {
			t.Fatal(err)
		}
		return a, f
	}
	var g grants

	// a alone owns the host and reads its URLs into its local frontier.
	_, af := join("a")
	g.watch(af, "a")
	read := make(chan struct{}, 1)
	cluster.SetOnAcceptForTest(af, func() {
		select {
		case read <- struct{}{}:
		default:
		}
	})
	if n, err := af.Push(ctx, hostURLs(host, 0, 6)...); n != 6 || err != nil {
		t.Fatalf("a: Push = %d, %v; want 6, nil", n, err)
	}
	select {
	case <-read:
	case <-ctx.Done():
		t.Fatal("a never read its stream")
	}

	// b joins and owns the host: new URLs go to b, a keeps those it read.
	b, bf := join("b")
	g.watch(bf, "b")
	if o := b.Ring().Owner(host); o != "b" {
		t.Fatalf("%s is %s's, want b's", host, o)
	}
	if n, err := bf.Push(ctx, hostURLs(host, 6, 6)...); n != 6 || err != nil {
		t.Fatalf("b: Push = %d, %v; want 6, nil", n, err)
	}

	var wg sync.WaitGroup
	wg.Go(func() { fetchAll(t, web, af, perHost) })
	wg.Go(func() { fetchAll(t, web, bf, perHost) })
	wg.Wait()

	log := web.Log()
	if got := len(log.Fetched()); got != 12 {
		t.Errorf("the web saw %d requests, want the 12 URLs once each", got)
	}
	if d := log.FetchedTwice(); len(d) > 0 {
		t.Errorf("fetched twice: %v", d)
	}
	by := map[string]int{}
	for _, gr := range g.at[host] {
		by[gr.agent]++
	}
	if by["a"] == 0 || by["b"] == 0 {
		t.Fatalf("requests by agent: %v; want both to fetch from the host, or the test shows nothing", by)
	}
	t.Logf("requests by agent: %v", by)
	if n := log.MaxInFlight()[host]; n != perHost {
		t.Errorf("%d requests at once to %s, want %d: at most HostConcurrency, and that many as answers take %v with a delay of %v", n, host, perHost, latency, delay)
	}
	g.check(t, delay, nil)
	checkStarts(t, log, delay, &g)
}

// TestHostConcurrencyTakeOver: an agent dies with HostConcurrency leases
// on a host, its requests in flight. The agent that takes its URLs over
// contacts the host no sooner than the delay after the dead agent's
// leases ran out (each counts as a contact that ended then), and then
// keeps the delay between its own requests.
func TestHostConcurrencyTakeOver(t *testing.T) {
	rdb := newClient(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	const delay, lease, perHost = 500 * time.Millisecond, time.Second, 3
	opts := frontier.MemoryOptions{Workers: perHost, Politeness: politeness.Config{MinDelay: delay, Factor: -1, HostConcurrency: perHost}}
	const crawl, host = "takeover-n", "h1.test"
	dead, err := cluster.Join(ctx, rdb, &cluster.Options{Name: "dead", Crawl: crawl, Lease: lease, Poll: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	df, err := dead.Frontier(opts)
	if err != nil {
		t.Fatal(err)
	}
	reqs := hostURLs(host, 0, 6)
	if n, err := df.Push(ctx, reqs...); n != len(reqs) || err != nil {
		t.Fatalf("Push = %d, %v; want %d, nil", n, err, len(reqs))
	}
	nextCtx, nextCancel := context.WithTimeout(ctx, 30*time.Second)
	defer nextCancel()
	for i := range perHost {
		if _, err := df.Next(nextCtx); err != nil {
			t.Fatalf("the agent's lease %d of %d on one host: %v", i+1, perHost, err)
		}
	}
	dead.Abandon()
	ends, err := cluster.LeaseEndsForTest(ctx, rdb, crawl, host)
	if err != nil {
		t.Fatal(err)
	}
	if len(ends) != perHost {
		t.Fatalf("the dead agent left %d leases, want %d", len(ends), perHost)
	}
	last := slices.MaxFunc(ends, time.Time.Compare)

	heir, err := cluster.Join(ctx, rdb, &cluster.Options{Name: "heir", Crawl: crawl, Lease: lease, Poll: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer heir.Close()
	hf, err := heir.Frontier(opts)
	if err != nil {
		t.Fatal(err)
	}
	var g grants
	g.watch(hf, "heir")
	got := drain(t, hf)
	slices.Sort(got)
	if want := urlsOf(reqs); !slices.Equal(got, want) {
		t.Errorf("the heir handed out %v, want the dead agent's %d URLs once each", got, len(want))
	}
	if gs := g.at[host]; len(gs) > 0 {
		first := slices.MinFunc(gs, func(a, b grant) int { return a.at.Compare(b.at) }).at
		if first.Before(last.Add(delay)) {
			t.Errorf("the heir leased %s %v after the dead agent's last lease ran out, want at least the delay, %v", host, first.Sub(last), delay)
		}
		t.Logf("the heir's first lease: %v after the dead agent's last ran out", first.Sub(last))
	}
	g.check(t, delay, nil)
}

// TestSecondCopyWaits: a URL queued twice (two agents pushed it at once)
// may wait at two agents. While one fetches it, the other, whose host
// has room for more requests, must not fetch it too: it waits, and drops
// its copy once the first has fetched it.
func TestSecondCopyWaits(t *testing.T) {
	rdb := newClient(t)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	opts := frontier.MemoryOptions{Workers: 3, Politeness: politeness.Config{MinDelay: -1, Factor: -1, HostConcurrency: 3}}
	join := func(name string) (*cluster.Agent, frontier.Frontier) {
		a, err := cluster.Join(ctx, rdb, &cluster.Options{Name: name, Crawl: "copy", Lease: time.Hour, Poll: 50 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close() })
		f, err := a.Frontier(opts)
		if err != nil {
			t.Fatal(err)
		}
		return a, f
	}
	host := hostOwnedBy(t, "b", "a", "b")
	u := frontier.Request{URL: "http://" + host + "/twice", Host: host, Depth: 1}

	_, af := join("a") // alone: the URL goes to a
	if n, err := af.Push(ctx, u); n != 1 || err != nil {
		t.Fatalf("a: Push = %d, %v; want 1, nil", n, err)
	}
	held, err := af.Next(ctx)
	if err != nil || held.URL != u.URL {
		t.Fatalf("a: Next = %q, %v; want %q", held.URL, err, u.URL)
	}

	b, bf := join("b") // owns the host: the second copy goes to b
	waits := make(chan struct{}, 1)
	cluster.SetOnWaitForTest(bf, func(h string, _ time.Duration) {
		if h == host {
			select {
			case waits <- struct{}{}:
			default:
			}
		}
	})
	if o := b.Ring().Owner(host); o != "b" {
		t.Fatalf("%s is %s's, want b's", host, o)
	}
	if err := b.QueueForTest(ctx, u); err != nil {
		t.Fatal(err)
	}
	type result struct {
		req frontier.Request
		err error
	}
	got := make(chan result, 1)
	go func() {
		req, err := bf.Next(ctx)
		got <- result{req, err}
	}()
	select {
	case <-waits:
	case r := <-got:
		t.Fatalf("b: Next = %q, %v while a fetches it; want b to wait", r.req.URL, r.err)
	case <-ctx.Done():
		t.Fatal("b never asked Redis for its copy")
	}
	if err := af.Done(held, frontier.Outcome{Status: 200}); err != nil {
		t.Fatalf("a: Done: %v", err)
	}
	select {
	case r := <-got:
		if !errors.Is(r.err, frontier.ErrEmpty) {
			t.Errorf("b: Next = %q, %v after a fetched it; want the crawl over (%v)", r.req.URL, r.err, frontier.ErrEmpty)
		}
	case <-ctx.Done():
		t.Fatal("b: Next did not return after a fetched the URL")
	}
}
