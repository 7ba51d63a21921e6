package trawl_test

import (
	"context"
	"errors"
	"net/url"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/frontier"
)

// spyFrontier records the most URLs its Memory frontier had in the spill
// file at once.
type spyFrontier struct {
	*frontier.Memory
	mu         sync.Mutex
	maxSpilled int
}

func (s *spyFrontier) Done(req frontier.Request, out frontier.Outcome) error {
	n := s.SpillStats().Entries
	s.mu.Lock()
	s.maxSpilled = max(s.maxSpilled, n)
	s.mu.Unlock()
	return s.Memory.Done(req, out)
}

// TestCrawlSpill crawls a web with more hosts than back queues, so that
// most of the queue waits in the front queues, with MemoryOptions.SpillDir: the
// frontier gets the directory, spills, and the crawl fetches the same pages
// in the same order as one that keeps its queue in memory, once each; the
// file is gone when Run returns.
func TestCrawlSpill(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 3, Hosts: 8, PagesPerHost: 150})
	plainWeb := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 3, Hosts: 8, PagesPerHost: 150})
	dir := t.TempDir()
	var spy *spyFrontier
	_, _, err := crawl(t, web, trawl.WithWorkers(1), trawl.WithPoliteness(trawl.Politeness{Adaptive: -1}),
		trawl.WithFrontier(func(o frontier.MemoryOptions) (frontier.Frontier, error) {
			o.SpillDir = dir
			spy = &spyFrontier{Memory: frontier.NewMemory(&o)}
			return spy, nil
		}))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if spy.maxSpilled == 0 {
		t.Fatal("the frontier never spilled")
	}
	if _, _, err := crawl(t, plainWeb, trawl.WithWorkers(1), trawl.WithPoliteness(trawl.Politeness{Adaptive: -1})); err != nil {
		t.Fatalf("Run without spilling: %v", err)
	}
	if twice := web.Log().FetchedTwice(); len(twice) > 0 {
		t.Errorf("%d URLs fetched twice, e.g. %v", len(twice), first(twice, 5))
	}
	got, want := pageOrder(web), pageOrder(plainWeb)
	if len(got) < 8*100 || !slices.Equal(got, want) {
		t.Errorf("spilling crawl fetched %d pages, in-memory one %d (or in another order)", len(got), len(want))
	}
	if files, err := os.ReadDir(dir); err != nil || len(files) != 0 {
		t.Errorf("after Run, the spill directory holds %v (%v)", files, err)
	}
}

// pageOrder returns the paths the crawl of web fetched, in order, with the
// host's index in place of its address (two webs have different ports).
func pageOrder(web *crawltest.Web) []string {
	hostIndex := map[string]string{}
	for i, s := range web.Seeds() {
		hostIndex[hostOf(s)] = string(rune('a' + i))
	}
	var out []string
	for _, r := range pageRequests(web.Log()) {
		out = append(out, hostIndex[hostOf(r.URL)]+r.Path)
	}
	return out
}

// failingFrontier fails Next after n requests.
type failingFrontier struct {
	frontier.Frontier
	mu sync.Mutex
	n  int
}

var errFrontierGone = errors.New("frontier store gone")

func (f *failingFrontier) Next(ctx context.Context) (frontier.Request, error) {
	f.mu.Lock()
	f.n--
	n := f.n
	f.mu.Unlock()
	if n < 0 {
		return frontier.Request{}, errFrontierGone
	}
	return f.Frontier.Next(ctx)
}

// TestCrawlFrontierError checks that a frontier failure ends the crawl and
// is what Run returns, with the pages already fetched kept.
func TestCrawlFrontierError(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 5, Hosts: 3, PagesPerHost: 30})
	c, mem, err := crawl(t, web, trawl.WithFrontier(func(o frontier.MemoryOptions) (frontier.Frontier, error) {
		return &failingFrontier{Frontier: frontier.NewMemory(&o), n: 40}, nil
	}))
	if !errors.Is(err, errFrontierGone) {
		t.Fatalf("Run: %v, want the frontier's error", err)
	}
	st := c.Stats()
	if st.Fetch.Pages == 0 || st.Fetch.Pages > 40 || st.Pages.Stored == 0 || st.Pages.Stored != int64(len(mem.Pages())) {
		t.Errorf("Stats() = %d fetched, %d stored, and the store holds %d; want 1 to 40 fetched, all stored pages kept", st.Fetch.Pages, st.Pages.Stored, len(mem.Pages()))
	}
}

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Host
}
