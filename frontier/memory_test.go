package frontier_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

var noDelay = politeness.Config{MinDelay: -1, Factor: -1}

// handout drains f with one worker and returns the URLs in order.
func handout(t *testing.T, f *frontier.Memory) []string {
	t.Helper()
	var got []string
	for {
		r, err := f.Next(context.Background())
		if errors.Is(err, frontier.ErrEmpty) {
			return got
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		got = append(got, r.URL)
		if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
			t.Fatalf("Done(%s): %v", r.URL, err)
		}
	}
}

func mustPush(t *testing.T, f frontier.Frontier, reqs ...frontier.Request) int {
	t.Helper()
	n, err := f.Push(context.Background(), reqs...)
	if err != nil {
		t.Fatalf("Push: %v", err)
	}
	return n
}

func req(rawURL string, prio float64) frontier.Request {
	return frontier.Request{URL: rawURL, Depth: 1, Priority: prio}
}

func TestMemoryOrder(t *testing.T) {
	tests := []struct {
		name    string
		opts    frontier.MemoryOptions
		batches [][]frontier.Request // pushed one Push per batch
		want    []string
	}{
		{
			name:    "bfs is fifo per host",
			batches: [][]frontier.Request{{req("http://a/1", 0), req("http://a/2", 0)}, {req("http://a/3", 0)}},
			want:    []string{"http://a/1", "http://a/2", "http://a/3"},
		},
		{
			name:    "dfs is lifo per host, in one push",
			opts:    frontier.MemoryOptions{Strategy: frontier.DFS},
			batches: [][]frontier.Request{{req("http://a/1", 0), req("http://a/2", 0), req("http://a/3", 0)}},
			want:    []string{"http://a/3", "http://a/2", "http://a/1"},
		},
		{
			name:    "dfs is lifo per host, across pushes",
			opts:    frontier.MemoryOptions{Strategy: frontier.DFS},
			batches: [][]frontier.Request{{req("http://a/1", 0)}, {req("http://a/2", 0)}, {req("http://a/3", 0), req("http://a/4", 0)}},
			want:    []string{"http://a/4", "http://a/3", "http://a/2", "http://a/1"},
		},
		{
			name: "priority is best first",
			opts: frontier.MemoryOptions{Strategy: frontier.Priority, FrontQueues: 1, BackQueues: 1},
			batches: [][]frontier.Request{{
				req("http://a/1", 0.2), req("http://b/2", 0.9), req("http://c/3", 0.5), req("http://d/4", 0.7), req("http://e/5", 0.1),
			}},
			want: []string{"http://b/2", "http://d/4", "http://c/3", "http://a/1", "http://e/5"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Politeness = noDelay
			f := frontier.NewMemory(&tt.opts)
			for _, b := range tt.batches {
				mustPush(t, f, b...)
			}
			got := handout(t, f)
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("handed out %v, want %v", got, tt.want)
			}
		})
	}
}

// TestMemoryFrontQueueWeights checks that the selector serves front queue i
// with weight i: with K = 3 and one back queue, every six URLs handed out
// hold one of priority 1, two of priority 2 and three of priority 3.
func TestMemoryFrontQueueWeights(t *testing.T) {
	for _, randomized := range []bool{false, true} {
		t.Run(fmt.Sprintf("randomized=%v", randomized), func(t *testing.T) {
			f := frontier.NewMemory(&frontier.MemoryOptions{
				FrontQueues: 3, BackQueues: 1, Randomized: randomized, Seed: 3, Politeness: noDelay,
			})
			const per = 600
			var reqs []frontier.Request
			for p := 1; p <= 3; p++ {
				for i := range per {
					reqs = append(reqs, req(fmt.Sprintf("http://h%d-%d/", p, i), float64(p)))
				}
			}
			mustPush(t, f, reqs...)
			got := handout(t, f)
			counts := [4]int{}
			for _, u := range got[:per] {
				var p, i int
				fmt.Sscanf(u, "http://h%d-%d/", &p, &i)
				counts[p]++
			}
			want := [4]int{0, per / 6, per / 3, per / 2}
			slack := 0
			if randomized {
				slack = per / 12
			}
			for p := 1; p <= 3; p++ {
				if d := counts[p] - want[p]; d < -slack || d > slack {
					t.Errorf("first %d handed out hold %d of priority %d, want %d±%d", per, counts[p], p, want[p], slack)
				}
			}
		})
	}
}

func TestMemoryBoost(t *testing.T) {
	f := frontier.NewMemory(&frontier.MemoryOptions{Strategy: frontier.Priority, FrontQueues: 1, BackQueues: 1, Politeness: noDelay})
	var reqs []frontier.Request
	for i := range 5 {
		reqs = append(reqs, req(fmt.Sprintf("http://h%d/", i), float64(i)/10))
	}
	mustPush(t, f, reqs...)
	// h4 went to the only back queue at once; h0 is at the bottom.
	if !f.Boost("http://h0/", 1) {
		t.Fatal("Boost(h0) = false, want true for a queued URL")
	}
	if !f.Boost("http://h4/", 1) {
		t.Error("Boost(h4) = false for a URL waiting in its back queue, want true")
	}
	if f.Boost("http://nowhere/", 1) {
		t.Error("Boost of a URL never pushed = true")
	}
	got := handout(t, f)
	want := []string{"http://h4/", "http://h0/", "http://h3/", "http://h2/", "http://h1/"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("handed out %v, want %v", got, want)
	}
	if f.Boost("http://h1/", 1) {
		t.Error("Boost of a URL already handed out = true")
	}
	bfs := frontier.NewMemory(nil)
	mustPush(t, bfs, req("http://a/", 0), req("http://a/2", 0))
	if bfs.Boost("http://a/2", 1) {
		t.Error("Boost under BFS = true, want false")
	}
}

func TestMemoryLimits(t *testing.T) {
	f := frontier.NewMemory(&frontier.MemoryOptions{MaxDepth: 2, MaxPerHost: 3, Politeness: noDelay})
	tests := []struct {
		name string
		reqs []frontier.Request
		want int
	}{
		{name: "too deep", reqs: []frontier.Request{{URL: "http://a/deep", Depth: 3}}, want: 0},
		{name: "deep URL found again shallower", reqs: []frontier.Request{{URL: "http://a/deep", Depth: 2}}, want: 1},
		{name: "budget", reqs: []frontier.Request{{URL: "http://a/1"}, {URL: "http://a/2"}, {URL: "http://a/3"}, {URL: "http://b/1"}}, want: 3},
		{name: "budget spent", reqs: []frontier.Request{{URL: "http://a/4"}}, want: 0},
		{name: "other host", reqs: []frontier.Request{{URL: "http://b/2"}}, want: 1},
	}
	for _, tt := range tests {
		if got := mustPush(t, f, tt.reqs...); got != tt.want {
			t.Errorf("%s: Push(%v) = %d, want %d", tt.name, tt.reqs, got, tt.want)
		}
	}
	if got := len(handout(t, f)); got != 5 {
		t.Errorf("handed out %d URLs, want 5", got)
	}
}

func TestMemoryPushHost(t *testing.T) {
	f := frontier.NewMemory(&frontier.MemoryOptions{Politeness: noDelay})
	n, err := f.Push(context.Background(),
		frontier.Request{URL: "http://Example.COM:8080/a"},
		frontier.Request{URL: "http://x.test/b", Host: "shared-key"},
		frontier.Request{URL: "mailto:someone@example.com"},
		frontier.Request{URL: "http://[::1/"},
	)
	if n != 2 || err == nil {
		t.Fatalf("Push = %d, %v, want 2 and an error for the two URLs with no host", n, err)
	}
	hosts := map[string]bool{}
	for range 2 {
		r, err := f.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		hosts[r.Host] = true
		if err := f.Done(r, frontier.Outcome{}); err != nil {
			t.Fatal(err)
		}
	}
	if !hosts["example.com:8080"] || !hosts["shared-key"] {
		t.Errorf("hosts handed out %v, want example.com:8080 and shared-key", hosts)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if n, err := f.Push(ctx, req("http://y.test/", 0)); n != 0 || !errors.Is(err, context.Canceled) {
		t.Errorf("Push(cancelled) = %d, %v, want 0, context.Canceled", n, err)
	}
}

func TestMemoryHostConcurrency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := frontier.NewMemory(&frontier.MemoryOptions{Politeness: politeness.Config{MinDelay: -1, HostConcurrency: 2}})
		mustPush(t, f, req("http://a/1", 0), req("http://a/2", 0), req("http://a/3", 0))
		ctx := context.Background()
		r1, err1 := f.Next(ctx)
		r2, err2 := f.Next(ctx)
		if err1 != nil || err2 != nil {
			t.Fatalf("two Next on a host with concurrency 2: %v, %v", err1, err2)
		}
		tctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		if _, err := f.Next(tctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("third Next = %v, want it to block (DeadlineExceeded)", err)
		}
		if err := f.Done(r1, frontier.Outcome{}); err != nil {
			t.Fatal(err)
		}
		if r3, err := f.Next(ctx); err != nil || r3.URL != "http://a/3" {
			t.Fatalf("Next after Done = %s, %v, want http://a/3", r3.URL, err)
		}
		_ = r2
	})
}

func TestMemoryGroupedHostsShareDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := frontier.NewMemory(&frontier.MemoryOptions{Politeness: politeness.Config{
			MinDelay: 3 * time.Second,
			GroupKey: func(string) string { return "192.0.2.1" },
		}})
		mustPush(t, f, req("http://a/", 0), req("http://b/", 0))
		start := time.Now()
		r, err := f.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
			t.Fatal(err)
		}
		r2, err := f.Next(context.Background())
		if err != nil || r2.Host == r.Host {
			t.Fatalf("second Next = %s, %v, want the other host", r2.URL, err)
		}
		if d := time.Since(start); d != 3*time.Second {
			t.Errorf("second host on the same server handed out after %v, want 3s", d)
		}
	})
}

func TestMemoryBackoffOn503(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := frontier.NewMemory(&frontier.MemoryOptions{Politeness: politeness.Config{MinDelay: time.Second}})
		mustPush(t, f, req("http://a/", 0))
		r, err := f.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if err := f.Done(r, frontier.Outcome{Status: 503, RetryAfter: 2 * time.Minute, Retry: true}); err != nil {
			t.Fatal(err)
		}
		r, err = f.Next(context.Background())
		if err != nil || r.Retries != 1 {
			t.Fatalf("Next = %+v, %v, want the retried request", r, err)
		}
		if d := time.Since(start); d != 2*time.Minute {
			t.Errorf("retried after %v, want the Retry-After of 2m", d)
		}
	})
}

func TestMemoryManyHostsFewBackQueues(t *testing.T) {
	// 1,000 hosts through 3 back queues: every URL still comes out once.
	f := frontier.NewMemory(&frontier.MemoryOptions{Politeness: noDelay})
	rng := rand.New(rand.NewPCG(1, 2))
	want := map[string]bool{}
	for i := range 5000 {
		u := fmt.Sprintf("http://h%d/%d", rng.IntN(1000), i)
		want[u] = true
		mustPush(t, f, req(u, float64(rng.IntN(5))))
	}
	got := handout(t, f)
	if len(got) != len(want) {
		t.Fatalf("handed out %d URLs, want %d", len(got), len(want))
	}
	for _, u := range got {
		if !want[u] {
			t.Fatalf("%s handed out twice or never pushed", u)
		}
		delete(want, u)
	}
}

func TestMemoryRequeueAndNoContact(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := frontier.NewMemory(&frontier.MemoryOptions{Politeness: politeness.Config{MinDelay: time.Second, Factor: -1}})
		mustPush(t, f, req("http://a/1", 0), req("http://a/2", 0))
		start := time.Now()

		// Requeue after a contact: handed out again after the delay, with
		// Retries unchanged, before the rest of the host's queue.
		r, _ := f.Next(context.Background())
		if err := f.Done(r, frontier.Outcome{Requeue: true}); err != nil {
			t.Fatal(err)
		}
		r, err := f.Next(context.Background())
		if err != nil || r.URL != "http://a/1" || r.Retries != 0 {
			t.Fatalf("after Requeue Next = %+v, %v; want http://a/1 with Retries 0", r, err)
		}
		if d := time.Since(start); d != time.Second {
			t.Errorf("requeued request handed out after %v, want the 1s delay", d)
		}

		// NoContact: the host is free again at once.
		mark := time.Now()
		if err := f.Done(r, frontier.Outcome{NoContact: true}); err != nil {
			t.Fatal(err)
		}
		r, err = f.Next(context.Background())
		if err != nil || r.URL != "http://a/2" {
			t.Fatalf("Next = %+v, %v; want http://a/2", r, err)
		}
		if d := time.Since(mark); d != 0 {
			t.Errorf("after a NoContact outcome the host waited %v, want 0", d)
		}

		// Redirects survive a round trip through the queue.
		mustPush(t, f, frontier.Request{URL: "http://a/3", Depth: 2, Redirects: 4})
		f.Done(r, frontier.Outcome{Status: 200})
		r, _ = f.Next(context.Background())
		if r.Redirects != 4 || r.Depth != 2 {
			t.Errorf("Next = %+v, want Redirects 4 and Depth 2 kept", r)
		}
		f.Done(r, frontier.Outcome{Requeue: true, NoContact: true})
		r, _ = f.Next(context.Background())
		if r.URL != "http://a/3" || r.Redirects != 4 {
			t.Errorf("after Requeue+NoContact Next = %+v, want http://a/3 with Redirects 4", r)
		}
		f.Done(r, frontier.Outcome{})
		if _, err := f.Next(context.Background()); !errors.Is(err, frontier.ErrEmpty) {
			t.Errorf("Next on a drained frontier = %v, want ErrEmpty", err)
		}
	})
}

// TestMemoryPriorityWithinHost: with fewer hosts than back queues, every
// URL moves to its host's back queue at once; Priority must still hand out
// a host's URLs best first, and Boost must still reorder them.
func TestMemoryPriorityWithinHost(t *testing.T) {
	f := frontier.NewMemory(&frontier.MemoryOptions{Strategy: frontier.Priority, Workers: 4, Politeness: noDelay})
	mustPush(t, f, req("http://a/1", 0.1), req("http://a/2", 0.7), req("http://a/3", 0.3), req("http://a/4", 0.5))
	if !f.Boost("http://a/1", 0.5) {
		t.Fatal("Boost(http://a/1) = false for a URL in its host's back queue")
	}
	got := handout(t, f)
	want := []string{"http://a/2", "http://a/1", "http://a/4", "http://a/3"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("handed out %v, want %v (best first, a/1 boosted to 0.6)", got, want)
	}
}

// TestMemoryDoneDataTooLarge checks that Done with an Outcome.Data over
// MaxData still requeues the request, with its previous Data, and reports
// ErrDataTooLarge.
func TestMemoryDoneDataTooLarge(t *testing.T) {
	ctx := context.Background()
	f := frontier.NewMemory(&frontier.MemoryOptions{Politeness: noDelay})
	if _, err := f.Push(ctx, frontier.Request{URL: "http://a.test/", Data: []byte("hints")}); err != nil {
		t.Fatal(err)
	}
	r, err := f.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	err = f.Done(r, frontier.Outcome{Retry: true, Data: make([]byte, frontier.MaxData+1)})
	if !errors.Is(err, frontier.ErrDataTooLarge) {
		t.Errorf("Done with %d bytes of Outcome.Data = %v, want ErrDataTooLarge", frontier.MaxData+1, err)
	}
	r, err = f.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if string(r.Data) != "hints" || r.Retries != 1 {
		t.Errorf("after Done with too much Data, Next = Data %q, Retries %d; want %q, 1", r.Data, r.Retries, "hints")
	}
}

// TestMemoryWakesAWorkerPerReadyHost checks how Next's waiters wake: a
// Push that readies two hosts gets two of four waiting workers out (the
// first wakes the second), the other two sleep on, and when the frontier
// runs empty every waiter returns ErrEmpty.
func TestMemoryWakesAWorkerPerReadyHost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := frontier.NewMemory(&frontier.MemoryOptions{Politeness: politeness.Config{MinDelay: -1}})
		mustPush(t, f, req("http://z/", 0))
		held, err := f.Next(t.Context()) // leased: the frontier is not empty
		if err != nil {
			t.Fatal(err)
		}
		type result struct {
			req frontier.Request
			err error
		}
		out := make(chan result, 4)
		for range 4 {
			go func() {
				r, err := f.Next(t.Context())
				out <- result{r, err}
			}()
		}
		synctest.Wait()
		if len(out) != 0 {
			t.Fatalf("%d Next returned with nothing queued", len(out))
		}
		mustPush(t, f, req("http://a/", 0), req("http://b/", 0))
		synctest.Wait()
		if got := len(out); got != 2 {
			t.Fatalf("after a Push readying 2 hosts, %d of 4 waiting Next returned, want 2", got)
		}
		var got []string
		for range 2 {
			r := <-out
			if r.err != nil {
				t.Fatalf("Next = %v", r.err)
			}
			got = append(got, r.req.URL)
			if err := f.Done(r.req, frontier.Outcome{Status: 200}); err != nil {
				t.Fatal(err)
			}
		}
		slices.Sort(got)
		if want := []string{"http://a/", "http://b/"}; !slices.Equal(got, want) {
			t.Errorf("woken Next took %v, want %v", got, want)
		}
		synctest.Wait()
		if len(out) != 0 {
			t.Fatalf("%d Next returned after Done with nothing queued", len(out))
		}
		if err := f.Done(held, frontier.Outcome{Status: 200}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if got := len(out); got != 2 {
			t.Fatalf("after the frontier ran empty %d of the 2 waiting Next returned, want 2", got)
		}
		for range 2 {
			if r := <-out; !errors.Is(r.err, frontier.ErrEmpty) {
				t.Errorf("Next on an empty frontier = %q, %v; want ErrEmpty", r.req.URL, r.err)
			}
		}
	})
}
