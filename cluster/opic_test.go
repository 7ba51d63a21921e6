package cluster_test

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/cluster"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/opic"
	"github.com/trawl-dev/trawl/internal/linkgraph"
	"github.com/trawl-dev/trawl/politeness"
)

// TestCashReachesOwner: under OPIC, the share of cash a link gives a URL
// that another agent owns travels to that agent, with the URL when the
// URL is new, in a cash note when it is queued already, and the owner
// places it in its own ledger: a new URL joins with its share, a waiting
// one is raised (and so comes out before a URL with less cash), and the
// share for one it took already goes to its virtual page, which hands it
// to the URLs still waiting.
func TestCashReachesOwner(t *testing.T) {
	rdb := newClient(t)
	ctx := t.Context()
	opts := func(name string) *cluster.Options {
		return &cluster.Options{Name: name, Crawl: "cash", Lease: time.Second}
	}
	// b joins first, so that a's ring has both from the start.
	b, err := cluster.Join(ctx, rdb, opts("b"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	a, err := cluster.Join(ctx, rdb, opts("a"))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Ring().Len() != 2 {
		t.Fatalf("a's ring has %v, want a and b", a.Ring().Agents())
	}
	mo := frontier.MemoryOptions{Strategy: frontier.Priority, Workers: 1, Politeness: politeness.Config{MinDelay: -1, Factor: -1}}
	af, err := a.Frontier(mo)
	if err != nil {
		t.Fatal(err)
	}
	bf, err := b.Frontier(mo)
	if err != nil {
		t.Fatal(err)
	}
	la, lb := opic.NewLedger(0), opic.NewLedger(0)
	af.(opic.Carrier).CarryCash(la)
	bf.(opic.Carrier).CarryCash(lb)
	accepted := make(chan struct{}, 10)
	cluster.SetOnAcceptForTest(bf, func() { accepted <- struct{}{} })
	waitAccept := func(what string) {
		t.Helper()
		select {
		case <-accepted:
		case <-time.After(10 * time.Second):
			t.Fatalf("b took in no stream entry for %s within 10 s", what)
		}
	}

	host := ""
	for i := 0; host == ""; i++ {
		if h := fmt.Sprintf("h%d.test", i); a.Ring().Owner(h) == "b" {
			host = h
		}
	}
	one, two := "http://"+host+"/one", "http://"+host+"/two"
	link := func(u string, share float64) frontier.Request {
		return frontier.Request{URL: u, Depth: 1, Referrer: "http://a.test/", Priority: share}
	}
	// New URLs: they travel to b with their shares, 0.1 each.
	if n, err := af.Push(ctx, link(one, 0.1), link(two, 0.1)); n != 2 || err != nil {
		t.Fatalf("Push of two new URLs = %d, %v; want 2, nil", n, err)
	}
	waitAccept("the new URLs")
	// Another link to two, queued already: a cash note takes its share to b.
	if n, err := af.Push(ctx, link(two, 0.5)); n != 0 || err != nil {
		t.Fatalf("Push of a queued URL = %d, %v; want 0, nil", n, err)
	}
	waitAccept("the cash note")
	if v := la.Virtual(); v != 0 {
		t.Errorf("a's virtual page holds %v of the cash it sent to b, want 0", v)
	}

	take := func(wantURL string, wantCash float64) {
		t.Helper()
		req, err := bf.Next(ctx)
		if err != nil {
			t.Fatalf("b's Next: %v", err)
		}
		cash, importance := lb.Take(req.Priority)
		if req.URL != wantURL || math.Abs(cash-wantCash) > 1e-9 {
			t.Errorf("b handed out %s with cash %v, want %s with %v", req.URL, cash, wantURL, wantCash)
		}
		if importance <= 0 {
			t.Errorf("%s: importance %v, want > 0", req.URL, importance)
		}
		if err := bf.Done(req, frontier.Outcome{Status: 200}); err != nil {
			t.Fatalf("Done: %v", err)
		}
	}
	take(two, 0.6) // 0.1 with the URL, 0.5 in the note: more cash, out first
	// A link to two, which b took already: its share goes to b's virtual
	// page, and from there to the one URL still waiting, one.
	if n, err := af.Push(ctx, link(two, 0.3)); n != 0 || err != nil {
		t.Fatalf("Push of a fetched URL = %d, %v; want 0, nil", n, err)
	}
	waitAccept("the second cash note")
	take(one, 0.1+0.3)
}

// graphWeb is a web served from a link graph whose in-degrees follow a
// power law, for measuring crawl orders against its PageRank: hosts whose
// sizes follow a Zipf law, each a navigation tree under its home page
// (every page links to its home and to its children), plus links by
// strong preferential attachment (a page is chosen in proportion to four
// times the links it has received so far, plus one), 80 % within the
// host (frontier/opic's evaluation graph, smaller and more skewed). Page
// p is http://hH.test/pP.
type graphWeb struct {
	host []int
	out  [][]int
	srv  *httptest.Server

	mu      sync.Mutex
	fetched []int // pages in the order their requests arrived
}

func newGraphWeb(t *testing.T, seed uint64, hosts, pages int) *graphWeb {
	rng := rand.New(rand.NewPCG(seed, 0x6f706963))
	var sum float64
	for h := range hosts {
		sum += 1 / math.Pow(float64(h+1), 0.9)
	}
	g := &graphWeb{}
	first := make([]int, hosts)
	var local [][]int // per host: each page once, plus four times per link it got
	var global []int
	for h := range hosts {
		size := max(int(float64(pages)/math.Pow(float64(h+1), 0.9)/sum), 3)
		first[h] = len(g.host)
		var list []int
		for i := range size {
			p := len(g.host)
			g.host = append(g.host, h)
			g.out = append(g.out, nil)
			list = append(list, p)
			global = append(global, p)
			if i > 0 {
				parent := first[h] + (i-1)/6
				g.out[parent] = append(g.out[parent], p)
				g.out[p] = append(g.out[p], first[h])
			}
		}
		local = append(local, list)
	}
	for p := range g.out {
		h := g.host[p]
		for range int(rng.ExpFloat64() * 8) {
			var to int
			if rng.Float64() < 0.8 {
				to = local[h][rng.IntN(len(local[h]))]
				local[h] = append(local[h], to, to, to, to)
			} else {
				to = global[rng.IntN(len(global))]
				if rng.Float64() < 0.5 { // links to another site often go to its home page
					to = first[g.host[to]]
				}
				global = append(global, to)
			}
			if to != p && !slices.Contains(g.out[p], to) {
				g.out[p] = append(g.out[p], to)
			}
		}
	}
	g.srv = httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(g.srv.Close)
	return g
}

func (g *graphWeb) url(p int) string { return fmt.Sprintf("http://h%d.test/p%d", g.host[p], p) }

func (g *graphWeb) serve(w http.ResponseWriter, r *http.Request) {
	p, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/p"))
	if err != nil || !strings.HasPrefix(r.URL.Path, "/p") || p < 0 || p >= len(g.out) ||
		r.Host != fmt.Sprintf("h%d.test", g.host[p]) {
		http.NotFound(w, r) // robots.txt among them: all allowed
		return
	}
	g.mu.Lock()
	g.fetched = append(g.fetched, p)
	g.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><title>page %d</title>\n", p)
	for _, q := range g.out[p] {
		fmt.Fprintf(&b, "<a href=%q>page %d</a>\n", g.url(q), q)
	}
	io.WriteString(w, b.String())
}

// dial sends every connection to the web's server.
func (g *graphWeb) dial(ctx context.Context, network, _ string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, network, g.srv.Listener.Addr().String())
}

// reachable returns the pages reachable from page 0.
func (g *graphWeb) reachable() []bool {
	in := make([]bool, len(g.out))
	in[0] = true
	q := []int{0}
	for len(q) > 0 {
		p := q[0]
		q = q[1:]
		for _, to := range g.out[p] {
			if !in[to] {
				in[to] = true
				q = append(q, to)
			}
		}
	}
	return in
}

// pageRank returns the PageRank of the pages in the subgraph in (damping
// 0.85, the rank of pages without links spread over all), summing to 1.
func (g *graphWeb) pageRank(in []bool) []float64 { return linkgraph.PageRank(g.out, in) }

// crawlGraph crawls g from page 0 with agents agents of a crawl named
// crawl, in OPIC order or breadth-first, and returns the pages in the
// order the web served them, and the importance of each page fetched as
// the decision log gave it (which OnPage must agree with). A host's
// politeness delay (3 ms) keeps its URLs waiting, so that the order
// decides which go first; each agent keeps its whole share of the web in
// its local frontier (Options.MaxLocal), which orders only what it holds.
func crawlGraph(t *testing.T, rdb *redis.Client, g *graphWeb, crawl string, agents int, useOPIC bool) ([]int, map[string]float64) {
	t.Helper()
	const maxLocal = 10_000
	g.mu.Lock()
	g.fetched = nil
	g.mu.Unlock()
	ctx := t.Context()
	var mu sync.Mutex
	importance := map[string]float64{}
	var wg sync.WaitGroup
	errs := make([]error, agents)
	for i := range agents {
		wg.Go(func() {
			a, err := cluster.Join(ctx, rdb, &cluster.Options{Name: fmt.Sprintf("agent%d", i), Crawl: crawl, Lease: 2 * time.Second, MaxLocal: maxLocal})
			if err != nil {
				errs[i] = err
				return
			}
			opts := []trawl.Option{
				trawl.WithSeeds(g.url(0)),
				trawl.WithUserAgent(testAgent + "/1.0"),
				trawl.WithDialContext(g.dial),
				trawl.WithAllowPrivateNetworks(true),
				trawl.WithPoliteness(trawl.Politeness{Delay: 3 * time.Millisecond, Adaptive: -1}),
				trawl.WithWorkers(2),
				// Every URL has the template /pN: the template-streak
				// rule would close it.
				trawl.WithTrapLimits(trawl.NoTrapLimits()),
				trawl.WithFrontier(a.Frontier),
				trawl.WithShared(trawl.Shared{Robots: a.Robots()}),
				trawl.WithEvents(trawl.Events{
					OnDecision: func(_ context.Context, d trawl.Decision) {
						if d.Outcome == trawl.DecisionFetched {
							mu.Lock()
							importance[d.URL] = d.Importance
							mu.Unlock()
						}
					},
					OnPage: func(_ context.Context, p *trawl.Page) {
						mu.Lock()
						defer mu.Unlock()
						if got := importance[p.URL.String()]; got != p.Importance {
							t.Errorf("%s: Page.Importance %v, the decision log's %v", p.URL, p.Importance, got)
						}
					},
				}),
			}
			if useOPIC {
				opts = append(opts, trawl.WithPriority(trawl.Priority{OPIC: true}))
			}
			c, err := trawl.New(opts...)
			if err != nil {
				a.Close()
				errs[i] = err
				return
			}
			errs[i] = errorsJoin(c.Run(ctx), a.Close())
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s, agent%d: %v", crawl, i, err)
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.fetched), importance
}

// TestClusterOPICOrder: two agents crawling in OPIC order, cash handed
// between them with the links between their hosts, fetch the whole web
// once, and the important pages sooner than two breadth-first agents: more
// of the PageRank in the first 20 % of the pages fetched, and more on
// average over the crawl. Each page's importance estimate is in the
// decision log and on the Page, and counts the pages the other agent
// fetched.
func TestClusterOPICOrder(t *testing.T) {
	rdb := newClient(t)
	g := newGraphWeb(t, 1, 4, 1500)
	in := g.reachable()
	pr := g.pageRank(in)
	n := 0
	for _, ok := range in {
		if ok {
			n++
		}
	}
	share := func(order []int) float64 {
		s := 0.0
		for _, p := range order[:min(n/5, len(order))] {
			s += pr[p]
		}
		return s
	}
	check := func(name string, order []int) {
		t.Helper()
		counts := map[int]int{}
		for _, p := range order {
			counts[p]++
		}
		for p, k := range counts {
			if k > 1 {
				t.Errorf("%s: %s fetched %d times", name, g.url(p), k)
			}
		}
		missing := 0
		for p, ok := range in {
			if ok && counts[p] == 0 {
				missing++
			}
		}
		if missing > 0 {
			t.Errorf("%s: %d of the %d reachable pages never fetched", name, missing, n)
		}
	}
	bfs, _ := crawlGraph(t, rdb, g, "bfs", 2, false)
	check("breadth-first", bfs)
	op, importance := crawlGraph(t, rdb, g, "opic", 2, true)
	check("OPIC", op)
	for _, p := range op {
		if importance[g.url(p)] <= 0 {
			t.Errorf("OPIC: %s fetched with importance %v in the decision log, want > 0", g.url(p), importance[g.url(p)])
			break
		}
	}
	// The agents add up the cash of the pages they fetched in Redis, with
	// each heartbeat, for each other's importance estimates.
	if h, err := rdb.Get(t.Context(), "trawl:{opic}:history").Float64(); err != nil || h <= 0 {
		t.Errorf("the crawl's OPIC history in Redis: %v, %v; want > 0", h, err)
	}
	sb, so := share(bfs), share(op)
	ab, ao := meanCaptured(bfs, pr), meanCaptured(op, pr)
	t.Logf("%d pages; PageRank fetched in the first 20 %%: breadth-first %.3f, OPIC %.3f; on average over the crawl: %.3f, %.3f", n, sb, so, ab, ao)
	if so <= sb {
		t.Errorf("OPIC fetched %.3f of the PageRank in the first 20 %% of the pages, breadth-first %.3f: want more", so, sb)
	}
	if ao <= ab {
		t.Errorf("OPIC held %.3f of the PageRank on average over the crawl, breadth-first %.3f: want more", ao, ab)
	}
}

// meanCaptured is the share of the PageRank fetched, on average over the
// pages of order: 1 would be all of it from the first page on.
func meanCaptured(order []int, pr []float64) float64 {
	s, sum := 0.0, 0.0
	for _, p := range order {
		s += pr[p]
		sum += s
	}
	return sum / float64(len(order))
}

// TestCashSurvivesTakeOver: the URLs of an agent that dies come back,
// at the agent that takes them over, with the cash they were sent with,
// and in its order.
func TestCashSurvivesTakeOver(t *testing.T) {
	rdb := newClient(t)
	ctx := t.Context()
	opts := func(name string) *cluster.Options {
		return &cluster.Options{Name: name, Crawl: "cashheir", Lease: time.Second}
	}
	mo := frontier.MemoryOptions{Strategy: frontier.Priority, Workers: 1, Politeness: politeness.Config{MinDelay: -1, Factor: -1}}
	dead, err := cluster.Join(ctx, rdb, opts("dead"))
	if err != nil {
		t.Fatal(err)
	}
	df, err := dead.Frontier(mo)
	if err != nil {
		t.Fatal(err)
	}
	df.(opic.Carrier).CarryCash(opic.NewLedger(0))
	poor, rich := "http://h1.test/poor", "http://h1.test/rich"
	link := func(u string, share float64) frontier.Request {
		return frontier.Request{URL: u, Depth: 1, Referrer: "http://h0.test/", Priority: share}
	}
	if n, err := df.Push(ctx, link(poor, 0.05), link(rich, 0.2)); n != 2 || err != nil {
		t.Fatalf("Push = %d, %v; want 2, nil", n, err)
	}
	dead.Abandon()

	heir, err := cluster.Join(ctx, rdb, opts("heir"))
	if err != nil {
		t.Fatal(err)
	}
	defer heir.Close()
	hf, err := heir.Frontier(mo)
	if err != nil {
		t.Fatal(err)
	}
	l := opic.NewLedger(0)
	hf.(opic.Carrier).CarryCash(l)
	for _, want := range []struct {
		url  string
		cash float64
	}{{rich, 0.2}, {poor, 0.05}} {
		req, err := hf.Next(ctx)
		if err != nil {
			t.Fatalf("the heir's Next: %v", err)
		}
		if cash, _ := l.Take(req.Priority); req.URL != want.url || math.Abs(cash-want.cash) > 1e-9 {
			t.Errorf("the heir handed out %s with cash %v, want %s with %v", req.URL, cash, want.url, want.cash)
		}
		if err := hf.Done(req, frontier.Outcome{Status: 200}); err != nil {
			t.Fatal(err)
		}
	}
}
