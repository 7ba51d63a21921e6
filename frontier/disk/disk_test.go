package disk

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/frontiertest"
	"github.com/trawl-dev/trawl/politeness"
)

func testOptions() *Options {
	return &Options{
		Workers:        4,
		SeenFilterURLs: 1 << 12,
		HeadCache:      2,
		FrontBuffer:    3,
		Politeness:     politeness.Config{MinDelay: 10 * time.Millisecond},
		seenRun:        16, // so that every test goes through the seen set's runs and merges
	}
}

func open(t testing.TB, dir string, opts *Options) *Frontier {
	t.Helper()
	f, err := Open(dir, opts)
	if err != nil {
		t.Fatalf("Open(%s) = %v", dir, err)
	}
	return f
}

func TestConformance(t *testing.T) {
	frontiertest.Run(t, func(t *testing.T) frontier.Frontier {
		f := open(t, t.TempDir(), testOptions())
		t.Cleanup(func() { f.Close() })
		return f
	})
}

// TestConformanceReopened runs the conformance check on frontiers that
// were used, closed and opened again: their history (seen URLs, a host's
// next contact) must not disturb the contract.
func TestConformanceReopened(t *testing.T) {
	frontiertest.Run(t, func(t *testing.T) frontier.Frontier {
		dir := t.TempDir()
		f := open(t, dir, testOptions())
		ctx := context.Background()
		var reqs []frontier.Request
		for i := range 20 {
			reqs = append(reqs, frontier.Request{URL: fmt.Sprintf("http://old%d.test/p%d", i%3, i), Depth: 1})
		}
		if _, err := f.Push(ctx, reqs...); err != nil {
			t.Fatal(err)
		}
		for range 20 {
			r, err := f.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		f = open(t, dir, testOptions())
		t.Cleanup(func() { f.Close() })
		return f
	})
}

func reqs(host string, from, to int) []frontier.Request {
	var rs []frontier.Request
	for i := from; i < to; i++ {
		rs = append(rs, frontier.Request{URL: fmt.Sprintf("http://%s/p%d", host, i), Depth: 1 + i%3, Anchor: fmt.Sprintf("a%d", i)})
	}
	return rs
}

// TestResume checks what survives Close and Open: queued URLs (with their
// fields), the seen set, leases (handed out again) and done marks (never
// handed out again).
func TestResume(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		dir := t.TempDir()
		f := open(t, dir, testOptions())
		pushed := map[string]frontier.Request{}
		for h := range 5 {
			rs := reqs(fmt.Sprintf("h%d.test", h), 0, 30)
			for _, r := range rs {
				pushed[r.URL] = r
			}
			if n, err := f.Push(ctx, rs...); err != nil || n != len(rs) {
				t.Fatalf("Push(%d) = %d, %v", len(rs), n, err)
			}
		}
		done := map[string]bool{}
		var leased []frontier.Request
		for i := range 63 {
			r, err := f.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if i >= 60 { // one host each: a lease holds its host
				leased = append(leased, r) // in flight at the "crash"
				continue
			}
			if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
				t.Fatal(err)
			}
			done[r.URL] = true
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}

		f = open(t, dir, testOptions())
		defer f.Close()
		if got, want := f.Len(), len(pushed)-len(done); got != want {
			t.Errorf("Len() after reopen = %d, want %d", got, want)
		}
		// Nothing seen may be accepted again.
		for h := range 5 {
			if n, err := f.Push(ctx, reqs(fmt.Sprintf("h%d.test", h), 0, 30)...); err != nil || n != 0 {
				t.Errorf("Push(seen URLs) after reopen = %d, %v; want 0", n, err)
			}
		}
		got := map[string]int{}
		for {
			r, err := f.Next(ctx)
			if errors.Is(err, frontier.ErrEmpty) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got[r.URL]++
			if w := pushed[r.URL]; r.Depth != w.Depth || r.Anchor != w.Anchor {
				t.Errorf("Next after reopen = %+v, want fields %+v", r, w)
			}
			if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
				t.Fatal(err)
			}
		}
		for u := range pushed {
			want := 1
			if done[u] {
				want = 0
			}
			if got[u] != want {
				t.Errorf("after reopen %s handed out %d times, want %d", u, got[u], want)
			}
		}
		for _, r := range leased {
			if got[r.URL] != 1 {
				t.Errorf("leased %s not handed out again after reopen", r.URL)
			}
		}
	})
}

// TestResumeRetry checks that a Retry (Retries+1) is persisted.
func TestResumeRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		dir := t.TempDir()
		f := open(t, dir, testOptions())
		if _, err := f.Push(ctx, reqs("a.test", 0, 3)...); err != nil {
			t.Fatal(err)
		}
		r, err := f.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Done(r, frontier.Outcome{Status: 503, Retry: true}); err != nil {
			t.Fatal(err)
		}
		f.Close()
		f = open(t, dir, testOptions())
		defer f.Close()
		again, err := f.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if again.URL != r.URL || again.Retries != 1 {
			t.Errorf("first Next after reopen = %s (Retries %d), want %s (Retries 1)", again.URL, again.Retries, r.URL)
		}
	})
}

// fakeClock is a politeness.Clock set by the test.
type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time                         { return c.now }
func (c *fakeClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// TestResumeNextContact checks that a host contacted just before Close is
// not handed out again before its delay has passed after Open.
func TestResumeNextContact(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		dir := t.TempDir()
		opts := testOptions()
		opts.Politeness.MinDelay = time.Hour
		clock := &fakeClock{now: time.Now()}
		opts.Politeness.Clock = clock
		f := open(t, dir, opts)
		if _, err := f.Push(ctx, append(reqs("a.test", 0, 2), reqs("b.test", 0, 1)...)...); err != nil {
			t.Fatal(err)
		}
		r, err := f.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
			t.Fatal(err)
		}
		f.Close()

		clock.now = clock.now.Add(time.Minute)
		f = open(t, dir, opts)
		defer f.Close()
		var got []string
		for range 2 {
			tctx, cancel := context.WithTimeout(ctx, time.Second)
			r, err := f.Next(tctx)
			cancel()
			if err != nil {
				break
			}
			got = append(got, r.Host)
		}
		if slices.Contains(got, r.Host) {
			t.Errorf("after reopen 1m into a 1h delay, Next handed out %v, want not %s", got, r.Host)
		}
		clock.now = clock.now.Add(time.Hour)
		r2, err := f.Next(ctx)
		if err != nil || r2.Host != r.Host {
			t.Errorf("after the delay Next = %s, %v; want a URL of %s", r2.URL, err, r.Host)
		}
	})
}

func TestBudgetAndDepthPersist(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		dir := t.TempDir()
		opts := testOptions()
		opts.MaxPerHost = 5
		opts.MaxDepth = 2
		f := open(t, dir, opts)
		rs := reqs("a.test", 0, 6) // depths 1,2,3,1,2,3
		if n, _ := f.Push(ctx, rs...); n != 4 {
			t.Errorf("Push(6, two too deep) = %d, want 4", n)
		}
		f.Close()
		f = open(t, dir, opts)
		defer f.Close()
		if n, _ := f.Push(ctx, frontier.Request{URL: "http://a.test/x", Depth: 1}, frontier.Request{URL: "http://a.test/y", Depth: 1}); n != 1 {
			t.Errorf("Push(2) with 1 left of the host budget after reopen = %d, want 1", n)
		}
	})
}

func TestMismatch(t *testing.T) {
	dir := t.TempDir()
	f := open(t, dir, nil)
	f.Close()
	if _, err := Open(dir, &Options{Strategy: frontier.DFS}); !errors.Is(err, ErrMismatch) {
		t.Errorf("Open(BFS dir, DFS) = %v, want ErrMismatch", err)
	}
}

func TestClosed(t *testing.T) {
	f := open(t, t.TempDir(), nil)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}
	if _, err := f.Push(context.Background(), reqs("a.test", 0, 1)...); !errors.Is(err, ErrClosed) {
		t.Errorf("Push after Close = %v, want ErrClosed", err)
	}
	if _, err := f.Next(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("Next after Close = %v, want ErrClosed", err)
	}
}

// TestBloom checks the filter in front of the seen set: never a false "no"
// (that would accept a seen URL again), and about 1% false "maybe" (a disk
// read) at its sized capacity.
func TestBloom(t *testing.T) {
	for _, tc := range []struct {
		name string
		size int
		n    int
		max  float64 // false "maybe" rate
	}{
		{name: "at capacity", size: 10_000, n: 10_000, max: 0.02},
		{name: "overfilled", size: 1_000, n: 10_000, max: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBloom(tc.size)
			for i := range tc.n {
				b.add(frontier.Fingerprint(fmt.Sprint("in", i)))
			}
			for i := range tc.n {
				if u := fmt.Sprint("in", i); !b.mayContain(frontier.Fingerprint(u)) {
					t.Fatalf("mayContain(%s) = false after add", u)
				}
			}
			fp := 0
			for i := range 10_000 {
				if b.mayContain(frontier.Fingerprint(fmt.Sprint("out", i))) {
					fp++
				}
			}
			if rate := float64(fp) / 10_000; rate > tc.max {
				t.Errorf("false maybe rate %.3f, want at most %.3f", rate, tc.max)
			}
		})
	}
}
