package disk

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/internal/slowhosts"
	"github.com/trawl-dev/trawl/politeness"
)

// restingOptions are the options of the resting-host tests: default
// politeness, and commits without fsync, so that 20,000 committed Dones
// take no time on the disk (these tests are about scheduling; the crash
// tests are about durability).
func restingOptions(workers int) *Options {
	return &Options{Workers: workers, SeenFilterURLs: 1 << 16, noSync: true}
}

// TestSlowHostsDoNotDelayOthers is frontier.TestMemorySlowHostsDoNotDelayOthers
// for the disk frontier: 10,000 hosts whose every contact reports a one-day
// Crawl-delay, queued ahead of 20 ordinary hosts, must not keep those
// waiting (issue 32, item 1), and come back when their rest (the
// Crawl-delay capped at the default 5m) is over. Fetches take no fake
// time, so the margin is zero.
func TestSlowHostsDoNotDelayOthers(t *testing.T) {
	s := slowhosts.Scenario{
		Slow:         10_000,
		CrawlDelay:   24 * time.Hour,
		Ordinary:     20,
		OrdinaryURLs: 5,
		Workers:      8,
	}
	run := func(s slowhosts.Scenario) (res slowhosts.Result) {
		synctest.Test(t, func(t *testing.T) {
			f := open(t, t.TempDir(), restingOptions(s.Workers))
			defer f.Close()
			res = slowhosts.Run(t, f, s)
		})
		return res
	}
	alone := s
	alone.Slow = 0
	without, with := run(alone), run(s)
	t.Logf("ordinary hosts done after %v of fake time with %d slow hosts, %v without them",
		with.OrdinaryDone, s.Slow, without.OrdinaryDone)
	slowhosts.Check(t, s, with, without, 0, politeness.DefaultMaxCrawlDelay, 0)
}

// TestRestingHostsAfterReopen: hosts still resting long when the frontier
// is opened again (their next contact stored by Done) must not take the
// back queues from the others while they wait.
func TestRestingHostsAfterReopen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := slowhosts.Scenario{Slow: 30, CrawlDelay: time.Hour, Ordinary: 3, OrdinaryURLs: 3, Workers: 1}
		dir := t.TempDir()
		opts := restingOptions(s.Workers)
		opts.Politeness.MaxCrawlDelay = -1
		// First run: only the slow hosts, each contacted for its
		// robots.txt, which leaves its URL queued and the host resting
		// an hour; with a back queue for each, so that they are all
		// contacted at once whether resting hosts keep theirs or not.
		first := *opts
		first.BackQueues = s.Slow
		f := open(t, dir, &first)
		slow := s
		slow.Ordinary = 0
		ctx := t.Context()
		contacted := time.Now()
		if _, err := f.Push(ctx, slow.Requests()...); err != nil {
			t.Fatal(err)
		}
		for range s.Slow {
			r, err := f.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Done(r, frontier.Outcome{Status: 200, Retry: true, CrawlDelay: s.CrawlDelay}); err != nil {
				t.Fatal(err)
			}
		}
		f.Close()

		// Reopened: the ordinary hosts come after the 30 resting ones and
		// must be served at once (three pages each, one second apart, the
		// three hosts side by side).
		f = open(t, dir, opts)
		defer f.Close()
		ord := s
		ord.Slow = 0
		if _, err := f.Push(ctx, ord.Requests()...); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		for range s.Ordinary * s.OrdinaryURLs {
			r, err := f.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if slowhosts.IsSlow(r.Host) {
				t.Fatalf("after %v Next = %s, a host resting for an hour", time.Since(start), r.URL)
			}
			if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
				t.Fatal(err)
			}
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("the ordinary hosts took %v of fake time after reopening, want 2s", d)
		}
		// Then the slow hosts' URLs, once their hour is over.
		for range s.Slow {
			r, err := f.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if d := time.Since(contacted); d < time.Hour {
				t.Fatalf("%s handed out %v after its robots.txt contact, want its rest of an hour over", r.URL, d)
			}
			if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestRestingGroupLeavesBackQueues: with hosts grouped by server, a
// contact that leaves one host's server resting long parks every host of
// that server, as in frontier.Memory.
func TestRestingGroupLeavesBackQueues(t *testing.T) {
	s := slowhosts.Scenario{Slow: 50, CrawlDelay: time.Hour, Ordinary: 4, OrdinaryURLs: 3, Workers: 2}
	run := func(s slowhosts.Scenario) (res slowhosts.Result) {
		synctest.Test(t, func(t *testing.T) {
			opts := restingOptions(s.Workers)
			opts.Politeness.GroupKey = func(host string) string {
				if slowhosts.IsSlow(host) {
					return "192.0.2.1" // one server for every slow host
				}
				return host
			}
			f := open(t, t.TempDir(), opts)
			defer f.Close()
			res = slowhosts.Run(t, f, s)
		})
		return res
	}
	alone := s
	alone.Slow = 0
	rest := politeness.DefaultMaxCrawlDelay
	slowhosts.Check(t, s, run(s), run(alone), 0, rest, time.Duration(2*s.Slow)*rest)
}

// TestParkedHostsKeepNoURLsInMemory: a parked host's URLs stay on disk
// (its back queue's window is dropped), so any number of hosts that rest
// long cost the disk frontier no memory for their URLs; when the host is
// due, they come back from disk, every one, in order.
func TestParkedHostsKeepNoURLsInMemory(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const hosts, perHost = 10, 40
		opts := restingOptions(1)
		opts.BackQueues = hosts // every host gets a back queue at once
		f := open(t, t.TempDir(), opts)
		defer f.Close()
		ctx := t.Context()
		for i := range hosts {
			if _, err := f.Push(ctx, reqs(fmt.Sprintf("h%d.test", i), 0, perHost)...); err != nil {
				t.Fatal(err)
			}
		}
		start := time.Now()
		for range hosts { // each host's first URL: its robots.txt, then a long rest
			r, err := f.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Done(r, frontier.Outcome{Status: 200, Retry: true, CrawlDelay: time.Hour}); err != nil {
				t.Fatal(err)
			}
		}
		f.mu.Lock()
		inMemory := 0
		for _, bq := range f.backs {
			if !bq.parked {
				t.Errorf("%s rests an hour and is not parked", bq.host)
			}
			inMemory += len(bq.w.buf) - bq.w.pos
		}
		f.mu.Unlock()
		if inMemory != 0 {
			t.Errorf("parked hosts keep %d URLs in memory, want 0", inMemory)
		}
		got := map[string][]string{}
		for range hosts * perHost {
			r, err := f.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d < 5*time.Minute {
				t.Fatalf("%s handed out after %v, within its host's rest", r.URL, d)
			}
			got[r.Host] = append(got[r.Host], r.URL)
			if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
				t.Fatal(err)
			}
		}
		for i := range hosts {
			host := fmt.Sprintf("h%d.test", i)
			var want []string
			for _, r := range reqs(host, 0, perHost) {
				want = append(want, r.URL)
			}
			if !slices.Equal(got[host], want) {
				t.Errorf("%s: handed out %q, want %q", host, got[host], want)
			}
		}
		if _, err := f.Next(ctx); !errors.Is(err, frontier.ErrEmpty) {
			t.Errorf("Next on a drained frontier = %v, want ErrEmpty", err)
		}
	})
}
