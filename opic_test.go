package trawl_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/frontier"
)

// hubSite serves a home page linking to n pages /p0../p{n-1}; each links
// to a page of its own, /q{i}, and to /hub, which only they link to.
func hubSite(t *testing.T, n int) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		var b strings.Builder
		switch p := r.URL.Path; {
		case p == "/robots.txt":
			http.NotFound(w, r)
			return
		case p == "/":
			for i := range n {
				fmt.Fprintf(&b, `<a href="/p%d">p%d</a> `, i, i)
			}
		case strings.HasPrefix(p, "/p"):
			fmt.Fprintf(&b, `<a href="/q%s">q</a> <a href="/hub">hub</a>`, p[2:])
		case p == "/hub" || strings.HasPrefix(p, "/q"):
		default:
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, "<html><body><p>%s page</p>%s</body></html>", r.URL.Path, b.String())
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestOPICOrder: under Priority.OPIC, a page every other page links to is
// fetched as soon as its cash passes theirs, before every page only one
// page links to, where breadth-first order fetches it after all of those
// found before it; its Page.Importance is the highest after the seed's,
// and the decision log carries each fetched page's importance.
func TestOPICOrder(t *testing.T) {
	const n = 30
	srv := hubSite(t, n)
	run := func(prio bool) (order []string, imp map[string]float64, logged map[string]float64) {
		imp, logged = map[string]float64{}, map[string]float64{}
		var mu sync.Mutex
		opts := []trawl.Option{
			trawl.WithSeeds(srv.URL + "/"),
			trawl.WithUserAgent(testUA),
			trawl.WithAllowPrivateNetworks(true),
			trawl.WithWorkers(1),
			trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
			trawl.WithEvents(trawl.Events{
				OnPage: func(_ context.Context, p *trawl.Page) {
					mu.Lock()
					defer mu.Unlock()
					order = append(order, p.URL.Path)
					imp[p.URL.Path] = p.Importance
				},
				OnDecision: func(_ context.Context, d trawl.Decision) {
					if d.Outcome == trawl.DecisionFetched {
						mu.Lock()
						defer mu.Unlock()
						logged[strings.TrimPrefix(d.URL, srv.URL)] = d.Importance
					}
				},
			}),
		}
		if prio {
			opts = append(opts, trawl.WithPriority(trawl.Priority{OPIC: true}))
		}
		c, err := trawl.New(opts...)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		return order, imp, logged
	}
	pos := func(order []string, path string) int {
		for i, p := range order {
			if p == path {
				return i
			}
		}
		t.Fatalf("%s never fetched: %v", path, order)
		return -1
	}

	bfs, _, _ := run(false)
	order, imp, logged := run(true)
	t.Logf("/hub fetched at %d of %d by breadth-first order, at %d of %d by OPIC", pos(bfs, "/hub"), len(bfs), pos(order, "/hub"), len(order))
	if len(order) != 2*n+2 {
		t.Fatalf("OPIC crawl fetched %d pages, want %d", len(order), 2*n+2)
	}
	hub := pos(order, "/hub")
	for i := range n {
		if q := pos(order, fmt.Sprintf("/q%d", i)); q < hub {
			t.Errorf("/q%d (one in-link) fetched at %d, before /hub (%d in-links) at %d", i, q, n, hub)
		}
	}
	if pos(bfs, "/hub") <= pos(bfs, "/q0") {
		t.Errorf("breadth-first order fetched /hub at %d, before /q0: the test's site does not tell the orders apart", pos(bfs, "/hub"))
	}
	if imp["/"] != 1 {
		t.Errorf("the only seed's importance = %v, want 1 (all the cash)", imp["/"])
	}
	var ps, qs []float64
	for path, v := range imp {
		if v <= 0 || v > 1 {
			t.Errorf("%s: importance %v, want it in (0, 1]", path, v)
		}
		if logged[path] != v {
			t.Errorf("%s: the decision log says importance %v, the Page %v", path, logged[path], v)
		}
		switch path[:min(len(path), 2)] {
		case "/p":
			ps = append(ps, v)
		case "/q":
			qs = append(qs, v)
		}
	}
	// The estimate of one pass is rough: cash the virtual page hands out
	// piles up on the last URLs, so some late pages with one in-link
	// reach the hub's figure; but the hub is above its in-linkers' mean
	// and above most pages with one in-link.
	slices.Sort(qs)
	if mean := sum(ps) / float64(len(ps)); imp["/hub"] <= mean || imp["/hub"] <= qs[len(qs)/2] {
		t.Errorf("/hub's importance %v, not above the mean of the pages linking to it (%v) and the median of those with one in-link (%v)", imp["/hub"], mean, qs[len(qs)/2])
	}
}

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// TestOPICNeedsABooster: a frontier that cannot raise a queued URL's
// priority cannot keep OPIC's accounts; New says so rather than crawl in
// another order. (internal/optional's TestOPICResumesOnDisk crawls on
// frontier/disk, which has Boost and Seen and keeps the accounts.)
func TestOPICNeedsABooster(t *testing.T) {
	_, err := trawl.New(
		trawl.WithSeeds("http://a.test/"),
		trawl.WithPriority(trawl.Priority{OPIC: true}),
		trawl.WithFrontier(func(o frontier.MemoryOptions) (frontier.Frontier, error) {
			// Only the Frontier interface's methods: no Boost.
			return struct{ frontier.Frontier }{frontier.NewMemory(&o)}, nil
		}),
	)
	if err == nil || !strings.Contains(err.Error(), "Priority.OPIC") {
		t.Fatalf("New with OPIC on a frontier without Boost: err = %v, want one naming Priority.OPIC", err)
	}
}

// TestOPICNeedsPriorityOrder: a frontier that has Boost but hands URLs
// out breadth-first (or depth-first) would ignore every priority OPIC and
// in-link counting set, and the crawl would quietly run in another order;
// New refuses it, and takes the same frontier under frontier.Priority.
func TestOPICNeedsPriorityOrder(t *testing.T) {
	for _, prio := range []trawl.Priority{{OPIC: true}, {Inlink: 1}} {
		for _, s := range []frontier.Strategy{frontier.BFS, frontier.DFS, frontier.Priority} {
			_, err := trawl.New(
				trawl.WithSeeds("http://a.test/"),
				trawl.WithPriority(prio),
				trawl.WithFrontier(func(o frontier.MemoryOptions) (frontier.Frontier, error) {
					o.Strategy = s // a factory that picks its own order
					return frontier.NewMemory(&o), nil
				}),
			)
			switch {
			case s == frontier.Priority && err != nil:
				t.Errorf("%+v on a Priority frontier: %v", prio, err)
			case s != frontier.Priority && (err == nil || !strings.Contains(err.Error(), s.String())):
				t.Errorf("%+v on a %v frontier: err = %v, want one naming the order", prio, s, err)
			}
		}
	}
}

// TestOPICWithLinkScores: with Priority.Link as well, a page's cash is
// split in proportion to 1 + each link's score, so cash flows toward the
// high-scoring links: on a site whose home page links to /on* pages
// (score 3) and /off* pages (score 0), each with a child page, an /on
// page gets 4 times an /off page's share, and its child 0.85 of that, so
// every /on page and every /on child is fetched before any /off page.
func TestOPICWithLinkScores(t *testing.T) {
	const n = 10
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		switch p := r.URL.Path; {
		case p == "/":
			for i := range n {
				fmt.Fprintf(&b, `<a href="/on%d">on</a> <a href="/off%d">off</a> `, i, i)
			}
		case strings.HasSuffix(p, "/child"):
		case strings.HasPrefix(p, "/on") || strings.HasPrefix(p, "/off"):
			fmt.Fprintf(&b, `<a href="%s/child">child</a>`, p)
		default:
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html><body><p>%s</p>%s</body></html>", r.URL.Path, b.String())
	}))
	t.Cleanup(srv.Close)
	var (
		mu    sync.Mutex
		order []string
		imp   = map[bool]float64{}
	)
	c, err := trawl.New(
		trawl.WithSeeds(srv.URL+"/"),
		trawl.WithUserAgent(testUA),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithWorkers(1),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithPriority(trawl.Priority{OPIC: true, Link: func(l *trawl.Link, _ *trawl.Page) float64 {
			if strings.Contains(l.URL, "/on") {
				return 3
			}
			return 0
		}}),
		trawl.WithEvents(trawl.Events{OnPage: func(_ context.Context, p *trawl.Page) {
			mu.Lock()
			defer mu.Unlock()
			order = append(order, p.URL.Path)
			if p.URL.Path != "/" {
				imp[strings.HasPrefix(p.URL.Path, "/on")] += p.Importance
			}
		}}),
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(order) != 1+4*n {
		t.Fatalf("fetched %d pages, want %d: %v", len(order), 1+4*n, order)
	}
	for i, p := range order[1 : 1+2*n] {
		if !strings.HasPrefix(p, "/on") {
			t.Errorf("page %d fetched is %s, want the /on pages and their children first", i+1, p)
		}
	}
	t.Logf("importance: /on %.4f, /off %.4f", imp[true], imp[false])
}
