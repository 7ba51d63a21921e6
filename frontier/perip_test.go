package frontier_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/internal/slowhosts"
	"github.com/trawl-dev/trawl/politeness"
)

// crowdIP puts every slow host of slowhosts on one address; the others
// do not resolve, and are each their own server.
func crowdIP(host string) (string, bool) {
	if slowhosts.IsSlow(host) {
		return "192.0.2.66", true
	}
	return "", false
}

// TestMemoryIPCrowdDoesNotStallOthers: a DNS answer puts 3,000 hosts on
// one address, queued ahead of 20 ordinary hosts. Under politeness per IP
// they are served one at a time, 250ms apart (the default IP delay); had
// they kept their back queues, the three back queues per worker would all
// hold hosts waiting for that one address, and the ordinary hosts would
// wait behind them for the quarter of an hour the address needs. They
// must be done as soon, in fake time, as without the crowd, but for the
// crowd's own contacts, at most one at a time: one fetch per ordinary
// host's contact at most. Every crowded host's page comes back after its
// own delay, and no later than the address can serve them all.
func TestMemoryIPCrowdDoesNotStallOthers(t *testing.T) {
	s := slowhosts.Scenario{Slow: 3000, Ordinary: 20, OrdinaryURLs: 5, Workers: 8, Fetch: 20 * time.Millisecond}
	pol := politeness.Config{MinDelay: time.Second, Factor: -1, IPKey: crowdIP}
	run := func(s slowhosts.Scenario) (res slowhosts.Result) {
		synctest.Test(t, func(t *testing.T) {
			f := frontier.NewMemory(&frontier.MemoryOptions{Workers: s.Workers, Politeness: pol})
			res = slowhosts.Run(t, f, s)
		})
		return res
	}
	alone := s
	alone.Slow = 0
	without := run(alone)
	with := run(s)
	margin := time.Duration(s.OrdinaryURLs+1) * s.Fetch
	perIP := s.Fetch + politeness.DefaultIPDelay
	t.Logf("ordinary hosts done after %v of fake time with %d hosts on one address, %v without them", with.OrdinaryDone, s.Slow, without.OrdinaryDone)
	slowhosts.Check(t, s, with, without, margin, pol.MinDelay, time.Duration(2*s.Slow)*perIP)
	// The address serves one contact at a time, IPDelay apart.
	var last time.Duration = -1
	for _, h := range with.Handouts {
		if !h.Slow {
			continue
		}
		if last >= 0 && h.At-last < perIP {
			t.Fatalf("%s handed out %v after the address's previous contact began, want at least %v", h.URL, h.At-last, perIP)
		}
		last = h.At
	}
}

// TestMemoryPerIPThroughput is the throughput rule of politeness per IP
// (issue 37, point 3), in fake time: with 10% of the hosts sharing
// addresses (20 of 200 hosts, on two addresses or all on one), a crawl
// polite per IP fetches at least 90% of the pages per second that one
// polite per host only does. Every host always has work; each fetch takes
// 100ms; hosts rest 1s and addresses the default 250ms.
func TestMemoryPerIPThroughput(t *testing.T) {
	for _, addrs := range []int{2, 1} {
		t.Run(fmt.Sprintf("addresses=%d", addrs), func(t *testing.T) { perIPThroughput(t, addrs) })
	}
}

func perIPThroughput(t *testing.T, addrs int) {
	const (
		hosts   = 200
		shared  = 20
		pages   = 40
		workers = 32
		fetch   = 100 * time.Millisecond
		window  = 30 * time.Second
	)
	ipOf := func(host string) (string, bool) {
		var i int
		fmt.Sscanf(host, "h%d.test", &i)
		if i < shared {
			return fmt.Sprintf("192.0.2.%d", 1+i%addrs), true
		}
		return "", false
	}
	rate := func(perIP bool) (float64, map[string][]span) {
		var (
			n     int
			spans map[string][]span
		)
		synctest.Test(t, func(t *testing.T) {
			pol := politeness.Config{MinDelay: time.Second, Factor: -1}
			if perIP {
				pol.IPKey = ipOf
			}
			f := frontier.NewMemory(&frontier.MemoryOptions{Workers: workers, Politeness: pol})
			var reqs []frontier.Request
			for p := range pages {
				for h := range hosts {
					reqs = append(reqs, frontier.Request{URL: fmt.Sprintf("http://h%d.test/%d", h, p), Depth: 1})
				}
			}
			if _, err := f.Push(context.Background(), reqs...); err != nil {
				t.Fatal(err)
			}
			n, spans = drain(t, f, workers, fetch, window, func(host string) string {
				if ip, ok := ipOf(host); ok && perIP {
					return ip
				}
				return host
			})
		})
		return float64(n) / window.Seconds(), spans
	}
	hostOnly, _ := rate(false)
	perIP, spans := rate(true)
	t.Logf("pages per simulated second: %.1f polite per host, %.1f polite per IP too (%.1f%%)", hostOnly, perIP, 100*perIP/hostOnly)
	if perIP < 0.9*hostOnly {
		t.Errorf("politeness per IP fetched %.1f pages/s, want at least 90%% of the %.1f of politeness per host", perIP, hostOnly)
	}
	for ip, ss := range spans {
		if !strings.HasPrefix(ip, "192.0.2.") {
			continue
		}
		for i := 1; i < len(ss); i++ {
			if gap := ss[i].start - ss[i-1].end; gap < politeness.DefaultIPDelay {
				t.Fatalf("address %s: a fetch began %v after the previous one ended, want at least %v", ip, gap, politeness.DefaultIPDelay)
			}
		}
	}
}

type span struct{ start, end time.Duration }

// drain runs workers that fetch (sleep fetch, in fake time) what f hands
// out until window has passed, and returns how many fetches began and
// the fetches by the key server gives each host, in order.
func drain(t *testing.T, f *frontier.Memory, workers int, fetch, window time.Duration, server func(string) string) (int, map[string][]span) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), window)
	defer cancel()
	start := time.Now()
	var (
		mu    sync.Mutex
		n     int
		spans = map[string][]span{}
		wg    sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			for {
				r, err := f.Next(ctx)
				if errors.Is(err, context.DeadlineExceeded) {
					return
				}
				if err != nil {
					t.Errorf("Next: %v", err)
					return
				}
				began := time.Since(start)
				time.Sleep(fetch)
				mu.Lock()
				n++
				k := server(r.Host)
				spans[k] = append(spans[k], span{began, time.Since(start)})
				mu.Unlock()
				if err := f.Done(r, frontier.Outcome{Status: 200, Duration: fetch}); err != nil {
					t.Errorf("Done(%s): %v", r.URL, err)
					return
				}
			}
		})
	}
	wg.Wait()
	return n, spans
}
