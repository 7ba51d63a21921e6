package trawl_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
)

// counterFrom is a trawl.PageCounter that other crawlers already advanced.
type counterFrom struct{ n atomic.Int64 }

func (c *counterFrom) AddPage(context.Context) (int64, error) { return c.n.Add(1), nil }

// TestSharedPageCounter checks that the page limit counts with the shared
// counter: 30 pages counted elsewhere leave 10 of a limit of 40.
func TestSharedPageCounter(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 2, Hosts: 3, PagesPerHost: 30})
	pc := &counterFrom{}
	pc.n.Store(30)
	c, _, err := crawl(t, web, trawl.WithLimits(trawl.Limits{MaxPages: 40}), trawl.WithShared(trawl.Shared{Pages: pc}))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Stats().Fetch.Pages; got != 10 {
		t.Errorf("fetched %d pages, want 10 (limit 40, 30 counted elsewhere)", got)
	}
}

// memShared is a robots.Shared in memory.
type memShared struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *memShared) Load(_ context.Context, u string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[u]
	return b, ok, nil
}

func (s *memShared) Save(_ context.Context, u string, b []byte, _ time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[u] = b
	return nil
}

// TestSharedRobots checks that a second crawler of the same web takes
// robots.txt from the shared store instead of fetching it.
func TestSharedRobots(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 2, Hosts: 3, PagesPerHost: 10})
	shared := &memShared{m: map[string][]byte{}}
	robotsRequests := func() int {
		n := 0
		for _, r := range web.Log().Requests() {
			if strings.HasSuffix(r.URL, "/robots.txt") {
				n++
			}
		}
		return n
	}
	for i, want := range []int{3, 0} {
		web.ResetLog()
		if _, _, err := crawl(t, web, trawl.WithShared(trawl.Shared{Robots: shared})); err != nil {
			t.Fatal(err)
		}
		if got := robotsRequests(); got != want {
			t.Errorf("crawl %d fetched robots.txt %d times, want %d", i+1, got, want)
		}
		if v := web.Log().RobotsViolations(testUA); len(v) > 0 {
			t.Errorf("crawl %d: %d requests robots.txt disallows", i+1, len(v))
		}
	}
}

// noShared is a robots.Shared that holds nothing.
type noShared struct{}

func (noShared) Load(context.Context, string) ([]byte, bool, error)        { return nil, false, nil }
func (noShared) Save(context.Context, string, []byte, time.Duration) error { return nil }
