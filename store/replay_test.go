package store

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/fetch"
)

// replayCrawl crawls seeds with opts, scraping every page's title and
// first heading as items, and returns the items, sorted.
func replayCrawl(t *testing.T, seeds []string, opts ...trawl.Option) ([]string, trawl.Stats) {
	t.Helper()
	var mu sync.Mutex
	var items []string
	c, err := trawl.New(append([]trawl.Option{
		trawl.WithSeeds(seeds...),
		trawl.WithFilters(trawl.SameHost(seeds...)),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithHTML("html", func(_ context.Context, e *trawl.Element) {
			mu.Lock()
			items = append(items, fmt.Sprintf("%s | %s | %s", e.Page().URL, e.ChildText("title"), e.ChildText("h1")))
			mu.Unlock()
		}),
	}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	slices.Sort(items)
	return items, c.Stats()
}

// countingFetcher counts what reaches it.
type countingFetcher struct{ n atomic.Int64 }

func (f *countingFetcher) Fetch(_ context.Context, req *fetch.Request) (*fetch.Response, error) {
	f.n.Add(1)
	return nil, &fetch.Error{URL: req.URL.String(), Err: errors.New("network down")}
}

// TestReplayOffline: a crawl recorded to WARC files, run again from them
// with the web stopped, scrapes the same items from the same pages; a URL
// the archive lacks goes to the fallback.
func TestReplayOffline(t *testing.T) {
	web, err := crawltest.NewWeb(&crawltest.Options{Seed: 4, Hosts: 2, PagesPerHost: 25})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	w, err := NewWARC(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	seeds := web.Seeds()
	first, st1 := replayCrawl(t, seeds, trawl.WithDialContext(web.DialContext), trawl.WithAllowPrivateNetworks(true), trawl.WithStore(w))
	web.Close() // the second run has no web to fetch from

	fallback := &countingFetcher{}
	rp, err := NewReplay(dir, &ReplayOptions{Fallback: fallback})
	if err != nil {
		t.Fatal(err)
	}
	second, st2 := replayCrawl(t, seeds, trawl.WithFetcher(rp))
	if len(first) == 0 || !slices.Equal(first, second) {
		t.Errorf("the replayed crawl scraped %d items, the recorded one %d; want the same:\n%q\n%q", len(second), len(first), second, first)
	}
	if st1.Fetch.Pages != st2.Fetch.Pages || !mapsEqual(st1.Fetch.Codes, st2.Fetch.Codes) {
		t.Errorf("replayed %d fetches %v, recorded %d %v", st2.Fetch.Pages, st2.Fetch.Codes, st1.Fetch.Pages, st1.Fetch.Codes)
	}
	if fallback.n.Load() != 0 {
		t.Errorf("the fallback fetched %d URLs of the recorded crawl", fallback.n.Load())
	}

	// A URL the archive lacks goes to the fallback.
	u, _ := url.Parse("http://h9.test/x")
	if _, err := rp.Fetch(context.Background(), &fetch.Request{URL: u}); err == nil || fallback.n.Load() != 1 {
		t.Errorf("Fetch of a URL not archived = %v, %d fallback fetches; want the fallback's error, 1", err, fallback.n.Load())
	}
	noFallback, err := NewReplay(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := noFallback.Fetch(context.Background(), &fetch.Request{URL: u}); !errors.Is(err, ErrNotArchived) {
		t.Errorf("Fetch of a URL not archived, no fallback = %v, want ErrNotArchived", err)
	}
}

func mapsEqual(a, b map[int]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestReplayHTTPS: an https URL is replayed from its record (the pipe
// holds no TLS), a relative redirect resolves against the https URL, and
// the latest record of a URL wins.
func TestReplayHTTPS(t *testing.T) {
	dir := t.TempDir()
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	w, err := NewWARC(dir, &WARCOptions{Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
	if err != nil {
		t.Fatal(err)
	}
	put := func(rawURL, resp string) {
		u, _ := url.Parse(rawURL)
		ex := fetch.NewExchange(u, []byte("GET "+u.RequestURI()+" HTTP/1.1\r\nHost: "+u.Host+"\r\n\r\n"), []byte(resp))
		if err := w.PutExchange(context.Background(), ex); err != nil {
			t.Fatal(err)
		}
	}
	put("https://s.test/a", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 10\r\n\r\n<p>old</p>")
	put("https://s.test/a", "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=iso-8859-1\r\nContent-Length: 11\r\n\r\n<p>caf\xe9</p>")
	put("https://s.test/old", "HTTP/1.1 301 Moved Permanently\r\nLocation: /a\r\nContent-Length: 0\r\n\r\n")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rp, err := NewReplay(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse("https://s.test/a")
	resp, err := rp.Fetch(context.Background(), &fetch.Request{URL: u})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 200 || string(resp.Body) != "<p>café</p>" || resp.URL.String() != "https://s.test/a" || resp.Charset == "" {
		t.Errorf("replayed %d %q (%s) for %s, want 200, the latest body decoded to UTF-8", resp.Status, resp.Body, resp.Charset, resp.URL)
	}
	old, _ := url.Parse("https://s.test/old")
	resp, err = rp.Fetch(context.Background(), &fetch.Request{URL: old})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 301 || resp.Location == nil || resp.Location.String() != "https://s.test/a" {
		t.Errorf("redirect replayed as %d to %v, want 301 to https://s.test/a", resp.Status, resp.Location)
	}
}
