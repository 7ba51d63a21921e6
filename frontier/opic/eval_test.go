package opic_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/opic"
	"github.com/trawl-dev/trawl/internal/linkgraph"
	"github.com/trawl-dev/trawl/politeness"
)

// graph is a link graph: pages 0..n-1, each on a host, with out-links.
type graph struct {
	host []int32
	out  [][]int32
}

func (g *graph) n() int { return len(g.out) }

func (g *graph) url(p int32) string {
	return "http://h" + strconv.Itoa(int(g.host[p])) + ".test/p" + strconv.Itoa(int(p))
}

func pageOf(u string) int32 {
	i := strings.LastIndex(u, "/p")
	n, err := strconv.Atoi(u[i+2:])
	if err != nil {
		panic(u)
	}
	return int32(n)
}

// genGraph builds a web of hosts whose sizes follow a Zipf law, each a
// navigation tree under its home page (every page links to its home and
// to its children), plus links by preferential attachment (a page is
// chosen in proportion to the links it has already received, plus one):
// most within the host, some to other hosts. In-degrees follow a power
// law, as on the web (Broder et al. 2000), and home pages and hubs hold
// most of the PageRank.
func genGraph(seed uint64, hosts, pages int) *graph {
	rng := rand.New(rand.NewPCG(seed, 0x6f706963))
	weights := make([]float64, hosts)
	var sum float64
	for h := range weights {
		weights[h] = 1 / math.Pow(float64(h+1), 0.9)
		sum += weights[h]
	}
	g := &graph{}
	first := make([]int32, hosts) // each host's home page
	var local [][]int32           // preferential lists per host: each page once, plus once per link it got
	var global []int32
	for h := range hosts {
		size := max(int(float64(pages)*weights[h]/sum), 3)
		first[h] = int32(len(g.host))
		var list []int32
		for i := range size {
			p := int32(len(g.host))
			g.host = append(g.host, int32(h))
			g.out = append(g.out, nil)
			list = append(list, p)
			global = append(global, p)
			if i > 0 {
				parent := first[h] + int32((i-1)/6)
				g.out[parent] = append(g.out[parent], p)
				g.out[p] = append(g.out[p], first[h])
			}
		}
		local = append(local, list)
	}
	for p := range g.out {
		h := g.host[p]
		extra := int(rng.ExpFloat64() * 4)
		for range extra {
			var t int32
			if rng.Float64() < 0.8 {
				l := local[h]
				t = l[rng.IntN(len(l))]
				local[h] = append(local[h], t)
			} else {
				t = global[rng.IntN(len(global))]
				if rng.Float64() < 0.5 { // links to another site often go to its home page
					t = first[g.host[t]]
				}
				global = append(global, t)
			}
			if t != int32(p) {
				g.out[p] = append(g.out[p], t)
			}
		}
	}
	return g
}

// reachable returns the pages reachable from seed.
func (g *graph) reachable(seed int32) []bool {
	in := make([]bool, g.n())
	in[seed] = true
	q := []int32{seed}
	for len(q) > 0 {
		p := q[0]
		q = q[1:]
		for _, t := range g.out[p] {
			if !in[t] {
				in[t] = true
				q = append(q, t)
			}
		}
	}
	return in
}

// pageRank returns the PageRank of the pages in the subgraph in (damping
// 0.85, the rank of pages without links spread over all), summing to 1.
func (g *graph) pageRank(in []bool) []float64 { return linkgraph.PageRank(g.out, in) }

// order is a crawl order under evaluation.
type order int

const (
	orderBFS order = iota
	orderInlink
	orderOPIC
	orderOracle
)

func (o order) String() string {
	return [...]string{"breadth-first", "in-link count", "OPIC", "oracle (final PageRank)"}[o]
}

// crawl simulates a crawl of g from seed in order o through a frontier.Memory
// with per-host politeness (a 1 s delay, and the back queues of workers
// workers: three each, in simulated time), fetching budget pages, and
// returns them in the order fetched.
func crawl(t *testing.T, g *graph, seed int32, o order, pr []float64, workers, budget int) []int32 {
	var fetched []int32
	synctest.Test(t, func(t *testing.T) {
		strategy := frontier.Priority
		if o == orderBFS {
			strategy = frontier.BFS
		}
		m := frontier.NewMemory(&frontier.MemoryOptions{
			Strategy: strategy, Workers: workers,
			Politeness: politeness.Config{MinDelay: time.Second, Factor: -1},
		})
		ctx := context.Background()
		ledger := opic.NewLedger(0)
		first := frontier.Request{URL: g.url(seed)}
		switch o {
		case orderOPIC:
			first.Priority = ledger.Join(1)
		case orderOracle:
			first.Priority = pr[seed]
		}
		if _, err := m.Push(ctx, first); err != nil {
			t.Fatal(err)
		}
		reqs := make([]frontier.Request, 0, 64)
		for len(fetched) < budget {
			r, err := m.Next(ctx)
			if err == frontier.ErrEmpty {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			p := pageOf(r.URL)
			fetched = append(fetched, p)
			if err := m.Done(r, frontier.Outcome{Status: 200}); err != nil {
				t.Fatal(err)
			}
			var share float64
			if o == orderOPIC {
				cash, _ := ledger.Take(r.Priority)
				if n := len(g.out[p]); n > 0 {
					share = ledger.Spend(cash, n) / float64(n)
				} else {
					ledger.Spend(cash, 0)
				}
			}
			reqs = reqs[:0]
			for _, q := range g.out[p] {
				r := frontier.Request{URL: g.url(q), Depth: r.Depth + 1}
				switch o {
				case orderOracle:
					r.Priority = pr[q]
				case orderOPIC:
					// A URL the frontier holds gets its share by Boost;
					// a new one joins with it; the others' shares go
					// to the virtual page.
					if m.Boost(r.URL, share) {
						continue
					}
					if m.Seen(r.URL) {
						ledger.Lost(share)
						continue
					}
					r.Priority = ledger.Join(share)
				}
				reqs = append(reqs, r)
			}
			if _, err := m.Push(ctx, reqs...); err != nil {
				t.Fatal(err)
			}
			switch o {
			case orderInlink:
				for _, r := range reqs {
					m.Boost(r.URL, 1)
				}
			case orderOPIC:
				ledger.Settle()
			}
		}
	})
	return fetched
}

// captured returns the share of the total PageRank in the first k pages of
// fetched, for each k in at.
func captured(fetched []int32, pr []float64, at []int) []float64 {
	var got []float64
	sum, i := 0.0, 0
	for _, k := range at {
		for ; i < k && i < len(fetched); i++ {
			sum += pr[fetched[i]]
		}
		got = append(got, sum)
	}
	return got
}

var evalPoints = []float64{0.05, 0.10, 0.20}

// evaluate crawls g from page 0 in the four orders and returns the share
// of the PageRank fetched after each share of the reachable pages in
// evalPoints, by order.
func evaluate(t *testing.T, g *graph, workers int) (map[order][]float64, int) {
	in := g.reachable(0)
	pr := g.pageRank(in)
	n := 0
	for _, ok := range in {
		if ok {
			n++
		}
	}
	var at []int
	for _, f := range evalPoints {
		at = append(at, int(f*float64(n)))
	}
	out := make(map[order][]float64)
	for o := orderBFS; o <= orderOracle; o++ {
		out[o] = captured(crawl(t, g, 0, o, pr, workers, at[len(at)-1]), pr, at)
	}
	return out, n
}

// TestOPICBeatsClassicOrders: on generated webs (Zipf host sizes,
// navigation trees, preferential attachment), a crawl that fetches the
// URL with the most OPIC cash first, under per-host politeness with three
// back queues (one worker: the frontier's order decides, not the timing
// of fetches), collects more of the final PageRank after 5, 10 and 20 %
// of the pages than breadth-first order and in-link counting.
// TestOPICTable measures more: other sizes and numbers of back queues,
// and the share of the gap to an oracle OPIC closes.
func TestOPICBeatsClassicOrders(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			g := genGraph(seed, 60, 6000)
			res, n := evaluate(t, g, 1)
			t.Logf("%d reachable pages of %d", n, g.n())
			for o := orderBFS; o <= orderOracle; o++ {
				t.Logf("%-24s %v", o, fmtShares(res[o]))
			}
			for i, f := range evalPoints {
				bfs, inl, op := res[orderBFS][i], res[orderInlink][i], res[orderOPIC][i]
				if op <= bfs || op <= inl {
					t.Errorf("after %.0f%% of the pages OPIC has %.3f of the PageRank, breadth-first %.3f, in-link count %.3f", 100*f, op, bfs, inl)
				}
			}
		})
	}
}

// TestOPICTable prints the evaluation table of the package documentation
// (opt-in: TRAWL_OPIC_EVAL=1), and fails where OPIC does not beat
// breadth-first order and in-link counting, or closes less than half of
// the gap from breadth-first order to the oracle (issue 37's bar).
func TestOPICTable(t *testing.T) {
	if os.Getenv("TRAWL_OPIC_EVAL") == "" {
		t.Skip("set TRAWL_OPIC_EVAL=1 to print the evaluation table")
	}
	t.Logf("| web | back queues | order | PageRank after 5 %% | 10 %% | 20 %% of the pages |")
	for _, size := range []struct{ hosts, pages int }{{60, 6000}, {300, 30000}, {1000, 100000}} {
		for _, workers := range []int{1, 8} {
			for _, seed := range []uint64{1, 2, 3} {
				g := genGraph(seed, size.hosts, size.pages)
				res, n := evaluate(t, g, workers)
				for o := orderBFS; o <= orderOracle; o++ {
					t.Logf("| %d hosts, %d pages, seed %d | %d | %s | %s |", size.hosts, n, seed, 3*workers, o, fmtShares(res[o]))
				}
				for i, f := range evalPoints {
					bfs, inl, op, orc := res[orderBFS][i], res[orderInlink][i], res[orderOPIC][i], res[orderOracle][i]
					if op <= bfs || op <= inl || op-bfs < (orc-bfs)/2 {
						t.Errorf("%d hosts, seed %d, %d back queues, after %.0f%%: OPIC %.3f, breadth-first %.3f, in-link %.3f, oracle %.3f (%.0f%% of the gap)",
							size.hosts, seed, 3*workers, 100*f, op, bfs, inl, orc, 100*(op-bfs)/(orc-bfs))
					}
				}
			}
		}
	}
}

func fmtShares(s []float64) string {
	var b strings.Builder
	for i, v := range s {
		if i > 0 {
			b.WriteString(" | ")
		}
		fmt.Fprintf(&b, "%.3f", v)
	}
	return b.String()
}

// loadGraph reads a link graph from a decision log of trawl (JSON Lines,
// as sitespider -decisions writes): its pages are the URLs fetched with
// status 200, its links the queued and duplicate-URL decisions between
// two of them (each page's links counted once per target).
func loadGraph(t *testing.T, path string) (*graph, int32) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type edge struct{ from, to string }
	var edges []edge
	ok := map[string]bool{}
	var first string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var d struct {
			URL, Referrer, Outcome string
			Status                 int
		}
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		switch d.Outcome {
		case "fetched":
			if d.Status == 200 {
				ok[d.URL] = true
				if first == "" {
					first = d.URL
				}
			}
		case "queued", "duplicate-url":
			if d.Referrer != "" {
				edges = append(edges, edge{d.Referrer, d.URL})
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	g := &graph{}
	id := map[string]int32{}
	hosts := map[string]int32{}
	node := func(u string) int32 {
		if i, ok := id[u]; ok {
			return i
		}
		i := int32(len(g.out))
		id[u] = i
		h := u
		if pu, err := url.Parse(u); err == nil {
			h = pu.Host
		}
		if _, ok := hosts[h]; !ok {
			hosts[h] = int32(len(hosts))
		}
		g.host = append(g.host, hosts[h])
		g.out = append(g.out, nil)
		return i
	}
	node(first)
	seen := map[[2]int32]bool{}
	for _, e := range edges {
		if !ok[e.from] || !ok[e.to] || e.from == e.to {
			continue
		}
		k := [2]int32{node(e.from), node(e.to)}
		if !seen[k] {
			seen[k] = true
			g.out[k[0]] = append(g.out[k[0]], k[1])
		}
	}
	return g, 0
}

// TestOPICRealSites runs the evaluation on link graphs of real sites, read
// from trawl decision logs named in TRAWL_OPIC_GRAPHS (comma-separated;
// for example from `sitespider -delay 0 -allow-private -decisions
// java.jsonl http://127.0.2.4/api/index.html` once bench/docsites.sh
// serves the Debian doc packages). It reports what it measures and fails
// nothing: issue 37 asks for the figures whatever they are.
func TestOPICRealSites(t *testing.T) {
	paths := os.Getenv("TRAWL_OPIC_GRAPHS")
	if paths == "" {
		t.Skip("set TRAWL_OPIC_GRAPHS=log.jsonl,... to evaluate on real sites' link graphs")
	}
	for _, path := range strings.Split(paths, ",") {
		g, _ := loadGraph(t, path)
		for _, workers := range []int{1, 8} {
			res, n := evaluate(t, g, workers)
			for o := orderBFS; o <= orderOracle; o++ {
				t.Logf("| %s, %d pages | %d | %s | %s |", path, n, 3*workers, o, fmtShares(res[o]))
			}
		}
	}
}
