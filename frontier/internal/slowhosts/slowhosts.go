// Package slowhosts is a test scenario the frontiers share (issue 32, item
// 1): many hosts whose every contact reports a long Crawl-delay, queued
// ahead of a few ordinary hosts, drained by a pool of workers in fake time.
// A Mercator frontier that lets a resting host keep its back queue starves
// the ordinary hosts; one that takes long-resting hosts out of the back
// queues until they are due serves them as if the slow hosts were not
// there.
//
// Run must be called inside a testing/synctest bubble, on a frontier whose
// clock is the system clock (fake in the bubble).
//
// # Concurrency
//
// Run starts Scenario.Workers goroutines and waits for them; it is not
// meant to be called concurrently on one frontier.
package slowhosts

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/frontier"
)

// Scenario describes one run.
type Scenario struct {
	Slow         int           // hosts whose every contact reports CrawlDelay, queued first
	CrawlDelay   time.Duration // the Crawl-delay a slow host reports
	Ordinary     int           // ordinary hosts, queued after the slow ones
	OrdinaryURLs int           // pages per ordinary host
	Workers      int           // goroutines calling Next
	Fetch        time.Duration // fake time each contact takes
}

// Handout is one request handed out by Next.
type Handout struct {
	URL    string
	Host   string
	At     time.Duration // fake time since the start of Run
	Slow   bool          // the host is a slow one
	Robots bool          // the host's first contact: the worker fetches its robots.txt and retries the URL
}

// Result is what a run handed out.
type Result struct {
	Handouts []Handout
	// OrdinaryDone is when the last URL of an ordinary host was handed out.
	OrdinaryDone time.Duration
	// OrdinaryHandouts counts the ordinary hosts' handouts (robots.txt
	// contacts included).
	OrdinaryHandouts int
}

// Requests returns the requests of s in the order Run pushes them: one
// URL per slow host, then the pages of each ordinary host.
func (s Scenario) Requests() []frontier.Request {
	var reqs []frontier.Request
	for i := range s.Slow {
		reqs = append(reqs, frontier.Request{URL: fmt.Sprintf("http://slow%05d.test/", i), Depth: 2})
	}
	for i := range s.Ordinary {
		for j := range s.OrdinaryURLs {
			reqs = append(reqs, frontier.Request{URL: fmt.Sprintf("http://ordinary%02d.test/%d", i, j), Depth: 2})
		}
	}
	return reqs
}

// IsSlow reports whether host is one of the slow hosts.
func IsSlow(host string) bool { return strings.HasPrefix(host, "slow") }

// Run pushes the requests of s into f and drains it with s.Workers
// workers, as trawl's crawler would: the first contact with a host fetches
// its robots.txt and retries the URL (Outcome.Retry), every contact takes
// s.Fetch of fake time, and every contact with a slow host reports
// s.CrawlDelay. Run returns when Next reports frontier.ErrEmpty.
func Run(t testing.TB, f frontier.Frontier, s Scenario) Result {
	t.Helper()
	ctx := context.Background()
	reqs := s.Requests()
	for i := 0; i < len(reqs); i += 1000 {
		if _, err := f.Push(ctx, reqs[i:min(i+1000, len(reqs))]...); err != nil {
			t.Fatalf("Push: %v", err)
		}
	}
	start := time.Now()
	var (
		mu       sync.Mutex
		res      Result
		contacts = map[string]bool{}
		wg       sync.WaitGroup
	)
	for range s.Workers {
		wg.Go(func() {
			for {
				r, err := f.Next(ctx)
				if errors.Is(err, frontier.ErrEmpty) {
					return
				}
				if err != nil {
					t.Errorf("Next: %v", err)
					return
				}
				h := Handout{URL: r.URL, Host: r.Host, At: time.Since(start), Slow: IsSlow(r.Host)}
				mu.Lock()
				h.Robots = !contacts[r.Host]
				contacts[r.Host] = true
				res.Handouts = append(res.Handouts, h)
				if !h.Slow {
					res.OrdinaryHandouts++
					res.OrdinaryDone = max(res.OrdinaryDone, h.At)
				}
				mu.Unlock()
				if s.Fetch > 0 {
					time.Sleep(s.Fetch) // the fetch, in fake time
				}
				out := frontier.Outcome{Status: 200, Duration: s.Fetch, Retry: h.Robots}
				if h.Slow {
					out.CrawlDelay = s.CrawlDelay
				}
				if err := f.Done(r, out); err != nil {
					t.Errorf("Done(%s): %v", r.URL, err)
					return
				}
			}
		})
	}
	wg.Wait()
	return res
}

// Check reports a run's failures against the one without slow hosts
// (alone): every URL handed out once after its robots.txt contact, the
// ordinary hosts done by alone.OrdinaryDone + margin, and each slow
// host's page handed out no earlier than rest after its robots.txt
// contact and no later than rest + late.
func Check(t testing.TB, s Scenario, res, alone Result, margin, rest, late time.Duration) {
	t.Helper()
	if want := s.Slow*2 + s.Ordinary*(1+s.OrdinaryURLs); len(res.Handouts) != want {
		t.Errorf("%d handouts, want %d (each URL once, plus one robots.txt contact per host)", len(res.Handouts), want)
	}
	if res.OrdinaryHandouts != alone.OrdinaryHandouts {
		t.Errorf("ordinary hosts: %d handouts, want %d as without the slow hosts", res.OrdinaryHandouts, alone.OrdinaryHandouts)
	}
	if res.OrdinaryDone > alone.OrdinaryDone+margin {
		t.Errorf("with %d slow hosts the ordinary hosts were done after %v of fake time, want at most %v (%v without them, margin %v)",
			s.Slow, res.OrdinaryDone, alone.OrdinaryDone+margin, alone.OrdinaryDone, margin)
	}
	first := map[string]time.Duration{}
	pages := 0
	for _, h := range res.Handouts {
		if !h.Slow {
			continue
		}
		if h.Robots {
			first[h.Host] = h.At
			continue
		}
		pages++
		t0, ok := first[h.Host]
		switch {
		case !ok:
			t.Errorf("%s handed out before its host's robots.txt contact", h.URL)
		case h.At-t0 < rest:
			t.Errorf("%s handed out %v after its host's robots.txt contact, want at least the rest of %v", h.URL, h.At-t0, rest)
		case h.At-t0 > rest+late:
			t.Errorf("%s handed out %v after its host's robots.txt contact, want at most %v (rest %v, late %v)", h.URL, h.At-t0, rest+late, rest, late)
		}
	}
	if pages != s.Slow {
		t.Errorf("%d slow hosts' pages came back after their rest, want %d", pages, s.Slow)
	}
}
