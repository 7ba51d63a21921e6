package frontier_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/frontiertest"
	"github.com/trawl-dev/trawl/politeness"
)

func TestMemoryConformance(t *testing.T) {
	configs := []struct {
		name string
		opts frontier.MemoryOptions
	}{
		{name: "bfs"},
		{name: "dfs", opts: frontier.MemoryOptions{Strategy: frontier.DFS, Workers: 2}},
		{name: "priority", opts: frontier.MemoryOptions{Strategy: frontier.Priority, FrontQueues: 3, Workers: 8}},
		{name: "randomized", opts: frontier.MemoryOptions{Randomized: true, Seed: 7, Workers: 3}},
		{name: "one back queue", opts: frontier.MemoryOptions{BackQueues: 1}},
		{name: "grouped", opts: frontier.MemoryOptions{Workers: 4, Politeness: politeness.Config{
			MinDelay: 10 * time.Millisecond,
			GroupKey: func(host string) string { return host[:2] },
		}}},
		{name: "per IP", opts: frontier.MemoryOptions{Workers: 4, Politeness: politeness.Config{
			MinDelay: 10 * time.Millisecond, IPDelay: 5 * time.Millisecond, IPKey: sharedIP,
		}}},
		{name: "per IP spilling", opts: frontier.MemoryOptions{Workers: 2, SpillDir: "set per test", Politeness: politeness.Config{
			MinDelay: 10 * time.Millisecond, IPDelay: 5 * time.Millisecond, IPKey: sharedIP,
		}}},
	}
	for _, strategy := range []frontier.Strategy{frontier.BFS, frontier.DFS} {
		configs = append(configs, struct {
			name string
			opts frontier.MemoryOptions
		}{name: strategy.String() + " spilling", opts: frontier.MemoryOptions{Strategy: strategy, Workers: 2, SpillDir: "set per test"}})
	}
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			frontiertest.Run(t, func(t *testing.T) frontier.Frontier {
				opts := c.opts
				if opts.SpillDir != "" {
					opts.SpillDir = t.TempDir()
				}
				f := frontier.NewMemory(&opts)
				t.Cleanup(func() { f.Close() })
				return f
			})
		})
	}
}

// sharedIP puts hosts on addresses by the first two letters of their
// names; names shorter than three letters do not resolve.
func sharedIP(host string) (string, bool) {
	if len(host) < 3 {
		return "", false
	}
	return host[:2], true
}

// model is what the test knows about the crawl, kept under its own lock.
type model struct {
	mu       sync.Mutex
	queued   map[string]int       // per host: accepted, not yet handed out
	inflight map[string]bool      // per host
	ready    map[string]time.Time // per host: earliest next contact allowed
	handed   map[string]int       // per URL
	accepted map[string]bool      // per URL
	retries  map[string]int       // per URL
	waiting  int                  // workers inside Next
	errs     []error
}

func (m *model) errorf(format string, args ...any) {
	if len(m.errs) < 10 {
		m.errs = append(m.errs, fmt.Errorf(format, args...))
	}
}

// TestMemoryWorkersProperties runs W workers on a fake clock (a synctest
// bubble) over a frontier with a minimum and an adaptive delay. The workers
// fetch (sleep), push links, retry now and then. The test checks that no
// host is handed out while in flight, that no two contacts of a host are
// closer than its delay, that every accepted URL is handed out exactly once
// (plus retries), and, at every instant when all goroutines are blocked,
// that no worker waits in Next while some host with queued URLs is ready.
func TestMemoryWorkersProperties(t *testing.T) {
	for _, strategy := range []frontier.Strategy{frontier.BFS, frontier.DFS, frontier.Priority} {
		for _, workers := range []int{1, 3, 8} {
			t.Run(fmt.Sprintf("%v/%d", strategy, workers), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) { workersProperties(t, strategy, workers) })
			})
		}
	}
}

func workersProperties(t *testing.T, strategy frontier.Strategy, workers int) {
	const hosts, seeds, urlSpace = 6, 30, 40
	const minDelay, maxDelay, factor = 200 * time.Millisecond, 2 * time.Second, 3
	delay := func(d time.Duration) time.Duration {
		return min(max(time.Duration(factor*float64(d)), minDelay), maxDelay)
	}
	f := frontier.NewMemory(&frontier.MemoryOptions{
		Strategy:    strategy,
		Workers:     workers,
		BackQueues:  hosts, // every host with work has a back queue, so "ready" is exact
		FrontQueues: 3,
		Politeness:  politeness.Config{MinDelay: minDelay, MaxDelay: maxDelay, Factor: factor},
	})
	m := &model{
		queued: map[string]int{}, inflight: map[string]bool{}, ready: map[string]time.Time{},
		handed: map[string]int{}, accepted: map[string]bool{}, retries: map[string]int{},
	}
	push := func(r frontier.Request) {
		host := fmt.Sprintf("h%d.test", rand.IntN(hosts))
		r.URL = fmt.Sprintf("http://%s/%d", host, rand.IntN(urlSpace))
		r.Priority = float64(rand.IntN(4))
		m.mu.Lock() // held across Push so the model and the frontier agree
		defer m.mu.Unlock()
		n, err := f.Push(context.Background(), r)
		if err != nil {
			m.errorf("Push: %v", err)
		}
		if n == 1 {
			if m.accepted[r.URL] {
				m.errorf("Push(%s) added a URL accepted before", r.URL)
			}
			m.accepted[r.URL] = true
			m.queued[host]++
		} else if !m.accepted[r.URL] {
			m.errorf("Push(%s) dropped a new URL", r.URL)
		}
	}
	for range seeds {
		push(frontier.Request{Depth: 1})
	}

	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				m.mu.Lock()
				m.waiting++
				m.mu.Unlock()
				r, err := f.Next(context.Background())
				now := time.Now()
				m.mu.Lock()
				m.waiting--
				if errors.Is(err, frontier.ErrEmpty) {
					m.mu.Unlock()
					return
				}
				if err != nil {
					m.errorf("Next: %v", err)
					m.mu.Unlock()
					return
				}
				if m.inflight[r.Host] {
					m.errorf("%s handed out while %s in flight", r.URL, r.Host)
				}
				if now.Before(m.ready[r.Host]) {
					m.errorf("%s handed out at %v, before its host's delay ends at %v", r.URL, now, m.ready[r.Host])
				}
				m.inflight[r.Host] = true
				m.queued[r.Host]--
				m.handed[r.URL]++
				if r.Retries != m.retries[r.URL] {
					m.errorf("%s: Retries = %d, want %d", r.URL, r.Retries, m.retries[r.URL])
				}
				retry := m.retries[r.URL] < 2 && rand.IntN(8) == 0
				m.mu.Unlock()

				d := time.Duration(rand.IntN(800)) * time.Millisecond
				time.Sleep(d) // the fetch
				if r.Depth < 4 {
					for range rand.IntN(3) {
						push(frontier.Request{Depth: r.Depth + 1, Referrer: r.URL})
					}
				}
				m.mu.Lock()
				m.inflight[r.Host] = false
				m.ready[r.Host] = time.Now().Add(delay(d))
				if retry {
					m.retries[r.URL]++
					m.queued[r.Host]++
				}
				if err := f.Done(r, frontier.Outcome{Status: 200, Duration: d, Retry: retry}); err != nil {
					m.errorf("Done(%s): %v", r.URL, err)
				}
				m.mu.Unlock()
			}
		})
	}

	// Watch every 10ms of fake time, whenever all workers are blocked.
	stop := make(chan struct{})
	go func() { wg.Wait(); close(stop) }()
	for done := false; !done; {
		synctest.Wait()
		select {
		case <-stop:
			done = true
		default:
		}
		now := time.Now()
		m.mu.Lock()
		if m.waiting > 0 {
			for h, n := range m.queued {
				if n > 0 && !m.inflight[h] && !now.Before(m.ready[h]) {
					m.errorf("at %v %d worker(s) wait in Next while %s has %d URLs and is ready since %v",
						now, m.waiting, h, n, m.ready[h])
				}
			}
		}
		m.mu.Unlock()
		if !done {
			time.Sleep(10 * time.Millisecond)
		}
	}

	for u := range m.accepted {
		if want := 1 + m.retries[u]; m.handed[u] != want {
			m.errorf("%s handed out %d times, want %d", u, m.handed[u], want)
		}
	}
	if len(m.handed) != len(m.accepted) {
		m.errorf("%d URLs handed out, %d accepted", len(m.handed), len(m.accepted))
	}
	if n := f.Len(); n != 0 {
		m.errorf("Len() = %d after ErrEmpty", n)
	}
	for _, err := range m.errs {
		t.Error(err)
	}
}
