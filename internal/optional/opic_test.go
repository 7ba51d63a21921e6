package optional_test

import (
	"context"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/disk"
	"github.com/trawl-dev/trawl/internal/linkgraph"
)

// opicRun is what one crawl of TestOPICResumesOnDisk saw: the pages
// fetched, in order, with their importance, and each page's links.
type opicRun struct {
	mu    sync.Mutex
	order []string
	imp   map[string]float64
	links map[string][]string
	// stopped is how many pages were fetched before the stop (0: none).
	stopped int
}

// opicCrawl crawls web in OPIC order, with one worker, no delay and no
// robots.txt (so that the order is the frontier's), on the frontier made
// by newFrontier (nil: the memory frontier), stopping after maxPages
// pages (0: at the end).
func opicCrawl(t *testing.T, web *crawltest.Web, run *opicRun, newFrontier trawl.FrontierFunc, maxPages int) {
	t.Helper()
	opts := []trawl.Option{
		trawl.WithSeeds(web.Seeds()[0]),
		trawl.WithUserAgent(testUA),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithWorkers(1),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay, Adaptive: -1, IgnoreRobots: true}),
		trawl.WithPriority(trawl.Priority{OPIC: true}),
		trawl.WithLimits(trawl.Limits{MaxPages: maxPages}),
		trawl.WithEvents(trawl.Events{
			OnDecision: func(_ context.Context, d trawl.Decision) {
				if d.Outcome == trawl.DecisionFetched {
					run.mu.Lock()
					defer run.mu.Unlock()
					run.order = append(run.order, d.URL)
					run.imp[d.URL] = d.Importance
				}
			},
			OnPage: func(_ context.Context, p *trawl.Page) {
				run.mu.Lock()
				defer run.mu.Unlock()
				for _, l := range p.Links {
					run.links[p.URL.String()] = append(run.links[p.URL.String()], l.URL)
				}
			},
		}),
	}
	if newFrontier != nil {
		opts = append(opts, trawl.WithFrontier(newFrontier))
	}
	c, err := trawl.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// pageRankShares returns the share of the PageRank of the graph of the
// pages fetched (the links between them) that the first fraction f of
// order holds, for each f in fs.
func pageRankShares(order []string, links map[string][]string, fs ...float64) []float64 {
	id := make(map[string]int32, len(order))
	for i, u := range order {
		id[u] = int32(i)
	}
	out := make([][]int32, len(order))
	in := make([]bool, len(order))
	for i, u := range order {
		in[i] = true
		for _, l := range links[u] {
			if j, ok := id[l]; ok {
				out[i] = append(out[i], j)
			}
		}
	}
	pr := linkgraph.PageRank(out, in)
	shares := make([]float64, len(fs))
	for k, f := range fs {
		for i := range int(f * float64(len(order))) {
			shares[k] += pr[i]
		}
	}
	return shares
}

// TestOPICResumesOnDisk: an OPIC crawl on frontier/disk (Boost, Seen and
// the ledger kept with the queues), stopped after about a tenth of the web and
// resumed from its directory by a new Crawler, fetches every page the
// same crawl on frontier.Memory fetches, each exactly once, in an order
// that holds as much of the PageRank (of the graph of the pages fetched)
// after 20 and 50 % of the pages as the memory frontier's, within 0.03.
// (The orders are not the same: pages with the same cash, such as the
// links of one page, come out of Memory's heaps in no set order, of the
// disk frontier's in the order they were pushed.) Against the same disk
// crawl run without a stop, the importance of each page fetched after the
// resume is within 10 % on average (4.8 % when written: the resumed crawl
// takes the hosts whose turns tie in another order, so a page's cash has
// had more or less time to grow), and not when the resumed crawl starts
// from fresh accounts (the seeds' cash again, G and |H| zero: 94 % off,
// and 0.52 of the PageRank after half the pages instead of 0.61). robots.txt is ignored, so that fetching it again after the resume
// does not reorder the hosts more.
func TestOPICResumesOnDisk(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 7, Hosts: 3, PagesPerHost: 80})
	newRun := func() *opicRun { return &opicRun{imp: map[string]float64{}, links: map[string][]string{}} }
	mem := newRun()
	opicCrawl(t, web, mem, nil, 0)
	n := len(mem.order)
	if n < 150 {
		t.Fatalf("the memory crawl fetched %d pages: too few to compare orders", n)
	}
	stop := n / 10 // MaxPages of the first run

	// diskCrawl crawls on a disk frontier in a new directory, in one run
	// or two (stopped after stop pages), and checks that every page of
	// the memory crawl was fetched once.
	diskCrawl := func(name string, stop int, keepLedger bool) *opicRun {
		web.ResetLog()
		dir := t.TempDir()
		newFrontier := func(o frontier.MemoryOptions) (frontier.Frontier, error) {
			f, err := disk.Open(dir, &disk.Options{
				Strategy: o.Strategy, FrontQueues: o.FrontQueues, Workers: o.Workers,
				BackQueues: o.BackQueues, MaxDepth: o.MaxDepth, MaxPerHost: o.MaxPerHost,
				Politeness: o.Politeness,
			})
			if err != nil || keepLedger {
				return f, err
			}
			return forgetful{f}, nil
		}
		run := newRun()
		if stop > 0 {
			// MaxPages counts every fetch, failed ones too.
			opicCrawl(t, web, run, newFrontier, stop)
			if got := len(run.order); got == 0 || got > stop {
				t.Fatalf("%s: the first run fetched %d pages, want 1 to %d (MaxPages)", name, got, stop)
			}
			run.stopped = len(run.order)
		}
		opicCrawl(t, web, run, newFrontier, 0)
		if twice := web.Log().FetchedTwice(); len(twice) > 0 {
			t.Errorf("%s: fetched %v twice", name, twice)
		}
		if !slices.Equal(slices.Sorted(slices.Values(run.order)), slices.Sorted(slices.Values(mem.order))) {
			t.Errorf("%s: fetched %d pages (%d distinct), the memory crawl %d",
				name, len(run.order), len(slices.Compact(slices.Sorted(slices.Values(run.order)))), n)
		}
		return run
	}
	whole := diskCrawl("disk, not stopped", 0, true)
	dsk := diskCrawl("disk, stopped and resumed", stop, true)
	fresh := diskCrawl("disk, stopped and resumed without the ledger", stop, false)

	// impError is the mean relative difference, over the pages fetched
	// after the resume, between their importance and the crawl without a
	// stop's.
	impError := func(run *opicRun) float64 {
		sum, k := 0.0, 0
		for _, u := range run.order[run.stopped:] {
			if w := whole.imp[u]; w > 0 {
				sum += math.Abs(run.imp[u]-w) / w
				k++
			}
		}
		return sum / float64(max(k, 1))
	}
	same := 0
	for i := range dsk.order {
		if dsk.order[i] == whole.order[i] {
			same++
		}
	}
	shares := func(run *opicRun) []float64 { return pageRankShares(run.order, mem.links, 0.2, 0.5) }
	sm, sw, sd, sf := shares(mem), shares(whole), shares(dsk), shares(fresh)
	t.Logf("%d pages, stopped after %d; PageRank after 20 %% and 50 %% of them: memory %.3f %.3f, disk %.3f %.3f, "+
		"disk stopped and resumed %.3f %.3f (%d pages at the place they have without a stop), "+
		"and without the saved ledger %.3f %.3f; importance after the resume off by %.2f %% on average (%.1f %% without the ledger)",
		n, dsk.stopped, sm[0], sm[1], sw[0], sw[1], sd[0], sd[1], same, sf[0], sf[1], 100*impError(dsk), 100*impError(fresh))
	for i, f := range []float64{0.2, 0.5} {
		if math.Abs(sd[i]-sm[i]) > 0.03 {
			t.Errorf("after %.0f %% of the pages the resumed disk crawl has %.3f of the PageRank, the memory crawl %.3f; want them within 0.03",
				100*f, sd[i], sm[i])
		}
	}
	if e := impError(dsk); e > 0.1 {
		t.Errorf("pages fetched after the resume have importances %.2f %% off the crawl without a stop, want at most 10 %%", 100*e)
	}
	if e := impError(fresh); e <= 0.5 {
		t.Errorf("without the saved ledger, importances after the resume are only %.2f %% off: the test does not tell the two apart", 100*e)
	}
}

// forgetful hides the disk frontier's StateKeeper: a crawl on it resumes
// its queues but not its OPIC accounts.
type forgetful struct{ *disk.Frontier }

func (f forgetful) SaveState(string, []byte) error   { return nil }
func (f forgetful) LoadState(string) ([]byte, error) { return nil, nil }
