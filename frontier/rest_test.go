package frontier_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

// restCrawl runs a crawl in fake time over a Memory frontier with 16
// workers' worth of back queues: slow hosts, each with two URLs and a
// robots.txt that asks for a day between requests, are queued first, then
// 20 ordinary hosts with five URLs each and no delay. It returns the fake
// time the ordinary hosts' URLs took to be all handed out, and how many
// slow hosts' URLs were handed out by then.
func restCrawl(t *testing.T, slow int) (time.Duration, int) {
	var took time.Duration
	var slowDone int
	synctest.Test(t, func(t *testing.T) {
		f := frontier.NewMemory(&frontier.MemoryOptions{Workers: 16, Politeness: politeness.Config{
			MinDelay: 10 * time.Millisecond, Factor: -1, MaxCrawlDelay: -1, // honour the day: the slots are the point
		}})
		var reqs []frontier.Request
		for h := range slow {
			for p := range 2 {
				reqs = append(reqs, req(fmt.Sprintf("http://slow%d.test/%d", h, p), 0))
			}
		}
		for h := range 20 {
			for p := range 5 {
				reqs = append(reqs, req(fmt.Sprintf("http://ok%d.test/%d", h, p), 0))
			}
		}
		mustPush(t, f, reqs...)
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 48*time.Hour)
		defer cancel()
		left := 100
		for left > 0 {
			r, err := f.Next(ctx)
			if err != nil {
				t.Fatalf("Next: %v with %d ordinary URLs left", err, left)
			}
			out := frontier.Outcome{Status: 200, Duration: time.Millisecond}
			if strings.HasPrefix(r.URL, "http://slow") {
				out.CrawlDelay = 24 * time.Hour
				slowDone++
			} else {
				left--
			}
			time.Sleep(time.Millisecond) // the fetch
			if err := f.Done(r, out); err != nil {
				t.Fatal(err)
			}
		}
		took = time.Since(start)
	})
	return took, slowDone
}

// Hosts that must rest long (a one-day Crawl-delay) give up their
// back-queue slots while they wait, so any number of them cannot delay the
// hosts behind them: 10,000 such hosts queued before 20 ordinary ones delay
// the ordinary ones by no more than one fetch of each slow host (the first
// contact of each, which tells the frontier it must rest), and by no day.
func TestRestingHostsDoNotStarveOthers(t *testing.T) {
	alone, _ := restCrawl(t, 0)
	with, slowFetched := restCrawl(t, 10_000)
	t.Logf("20 ordinary hosts: %v alone, %v behind 10,000 resting hosts (%d slow fetches meanwhile)", alone, with, slowFetched)
	// Each slow host's first contact costs one fetch (1 ms) on the one
	// worker of this test; nothing may wait for a slow host's day.
	if margin := alone + time.Duration(slowFetched)*(time.Millisecond+10*time.Millisecond); with > margin || with > time.Hour {
		t.Errorf("the ordinary hosts took %v behind 10,000 resting hosts, %v alone: want at most %v", with, alone, margin)
	}
	if slowFetched > 10_000 {
		t.Errorf("%d slow fetches: a resting host was contacted again before its day", slowFetched)
	}
}
