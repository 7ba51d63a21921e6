package frontier_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

// A revisit that comes back with Retry or Requeue keeps its State; one done
// with a new Revisit gets the new State; the revisit goes to the highest
// front queue, ahead of new URLs.
func TestRevisitState(t *testing.T) {
	for _, strategy := range []frontier.Strategy{frontier.BFS, frontier.DFS, frontier.Priority} {
		t.Run(strategy.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx := context.Background()
				f := frontier.NewMemory(&frontier.MemoryOptions{Strategy: strategy, Politeness: politeness.Config{MinDelay: -1}})
				f.Push(ctx, frontier.Request{URL: "http://a.test/", Depth: 1})
				r, _ := f.Next(ctx)
				f.Done(r, frontier.Outcome{Status: 200, Revisit: time.Now().Add(time.Minute), State: []byte("v1")})
				time.Sleep(time.Minute)
				// New URLs of another host arrive while the revisit is due.
				for i := range 20 {
					f.Push(ctx, frontier.Request{URL: fmt.Sprintf("http://b.test/%d", i), Depth: 1})
				}
				// The revisit comes within the window of URLs already
				// chosen for the back queues (three per worker); a host
				// never contacted comes before a host contacted before,
				// so the first may be b.test's.
				var err error
				for i := range 4 {
					if r, err = f.Next(ctx); err != nil {
						t.Fatal(err)
					}
					if r.URL == "http://a.test/" {
						break
					}
					if i == 3 {
						t.Fatalf("the due revisit did not come among the first 4 URLs")
					}
					f.Done(r, frontier.Outcome{Status: 200})
				}
				if string(r.State) != "v1" {
					t.Fatalf("revisit state %q, want v1", r.State)
				}
				f.Done(r, frontier.Outcome{Retry: true})
				for {
					r, err = f.Next(ctx)
					if err != nil {
						t.Fatal(err)
					}
					if r.URL == "http://a.test/" {
						break
					}
					f.Done(r, frontier.Outcome{Status: 200})
				}
				if string(r.State) != "v1" || r.Retries != 1 {
					t.Fatalf("after Retry: state %q retries %d, want v1 and 1", r.State, r.Retries)
				}
				f.Done(r, frontier.Outcome{Status: 200, Revisit: time.Now().Add(time.Hour), State: []byte("v2")})
				for f.Len() > 0 {
					r, _ := f.Next(ctx)
					f.Done(r, frontier.Outcome{Status: 200})
				}
				start := time.Now()
				r, _ = f.Next(ctx)
				if string(r.State) != "v2" || r.Retries != 0 || time.Since(start) < 59*time.Minute {
					t.Fatalf("second revisit: state %q retries %d after %v; want v2, 0, about an hour", r.State, r.Retries, time.Since(start))
				}
				f.Done(r, frontier.Outcome{Status: 410})
				if _, err := f.Next(ctx); err != frontier.ErrEmpty {
					t.Fatalf("Next after the page is gone: %v, want ErrEmpty", err)
				}
			})
		})
	}
}

// BenchmarkRevisitFootprint reports the memory of a Memory frontier per
// URL waiting for a revisit, with a 134-byte state (a full recrawl
// History) and URLs of about 40 bytes, beyond the URL strings.
func BenchmarkRevisitFootprint(b *testing.B) {
	const n = 100_000
	state := make([]byte, 134)
	reqs := make([]frontier.Request, n)
	for i := range reqs {
		reqs[i] = frontier.Request{URL: fmt.Sprintf("http://h%d.test/some/path/page-%07d", i%1000, i), Depth: 1}
	}
	urlBytes := 0
	for _, r := range reqs {
		urlBytes += len(r.URL)
	}
	b.ReportAllocs()
	var perURL float64
	for b.Loop() {
		ctx := context.Background()
		runtime.GC()
		var base runtime.MemStats
		runtime.ReadMemStats(&base)
		f := frontier.NewMemory(&frontier.MemoryOptions{Workers: 16, Politeness: politeness.Config{MinDelay: -1, HostConcurrency: n}})
		f.Push(ctx, reqs...)
		leased := make([]frontier.Request, 0, n)
		for range n {
			r, err := f.Next(ctx)
			if err != nil {
				b.Fatal(err)
			}
			leased = append(leased, r)
		}
		at := time.Now().Add(time.Hour)
		for _, r := range leased {
			f.Done(r, frontier.Outcome{Status: 200, Revisit: at, State: state})
		}
		leased = nil
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if f.Revisits() != n {
			b.Fatalf("Revisits() = %d", f.Revisits())
		}
		// Everything the frontier holds (entries, state, seen set, hosts)
		// less the URL strings themselves.
		perURL = (float64(after.HeapAlloc)-float64(base.HeapAlloc))/n - float64(urlBytes)/n
		runtime.KeepAlive(f)
	}
	b.ReportMetric(perURL, "bytes/revisit")
}

// Revisits due one after the other, with nothing else queued: each is
// handed out at its time (a revisit promoted while a later one still waits
// must reach its host's back queue).
func TestRevisitsInTurn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 24*time.Hour)
		defer cancel()
		f := frontier.NewMemory(&frontier.MemoryOptions{Politeness: politeness.Config{MinDelay: time.Minute}})
		f.Push(ctx, frontier.Request{URL: "http://a.test/1", Depth: 1}, frontier.Request{URL: "http://a.test/2", Depth: 1})
		start := time.Now()
		for i := range 2 {
			r, err := f.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			f.Done(r, frontier.Outcome{Status: 200, Revisit: start.Add(time.Duration(10*(i+1)) * time.Minute)})
		}
		for i := range 6 {
			r, err := f.Next(ctx)
			if err != nil {
				t.Fatalf("revisit %d: %v after %v", i, err, time.Since(start))
			}
			if got, want := time.Since(start), time.Duration(10*(i+1))*time.Minute; got != want {
				t.Errorf("revisit %d (%s) at %v, want %v", i, r.URL, got, want)
			}
			f.Done(r, frontier.Outcome{Status: 200, Revisit: start.Add(time.Duration(10*(i+3)) * time.Minute)})
		}
	})
}

// TestPushRevisit: a revisit handed to a Memory that never saw its URL
// (package cluster's local frontier, taking it from Redis) comes out of
// Next at its time, with its State, Data and anchor, and not before;
// Revisits counts it until then; the URL is seen from then on, so Push
// drops it; done without a Revisit it leaves, and the frontier is empty.
func TestPushRevisit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		f := frontier.NewMemory(&frontier.MemoryOptions{Politeness: politeness.Config{MinDelay: -1}})
		start := time.Now()
		req := frontier.Request{URL: "http://a.test/p", Depth: 3, Referrer: "http://a.test/", Anchor: "p",
			Data: []byte("data"), State: []byte("history")}
		if err := f.PushRevisit(req, start.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := f.PushRevisit(frontier.Request{URL: "http://b.test/now", State: []byte("h2")}, time.Time{}); err != nil {
			t.Fatal(err)
		}
		if got := f.Revisits(); got != 2 {
			t.Errorf("Revisits() = %d, want 2", got)
		}
		if !f.Seen(req.URL) {
			t.Errorf("Seen(%q) = false after PushRevisit", req.URL)
		}
		if n, _ := f.Push(ctx, frontier.Request{URL: req.URL, Depth: 1}); n != 0 {
			t.Errorf("Push of a URL waiting for its revisit added %d", n)
		}
		r, err := f.Next(ctx) // the one due at once
		if err != nil || r.URL != "http://b.test/now" || string(r.State) != "h2" || time.Since(start) != 0 {
			t.Fatalf("Next = %q, State %q, %v, after %v; want http://b.test/now, h2, at once", r.URL, r.State, err, time.Since(start))
		}
		f.Done(r, frontier.Outcome{Status: 404})
		r, err = f.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if time.Since(start) != time.Minute {
			t.Errorf("the revisit came after %v, want %v", time.Since(start), time.Minute)
		}
		if r.URL != req.URL || string(r.State) != "history" || string(r.Data) != "data" || r.Anchor != "p" || r.Depth != 3 || r.Referrer != req.Referrer {
			t.Errorf("Next = %+v, want the request as pushed", r)
		}
		if err := f.Done(r, frontier.Outcome{Status: 410}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Next(ctx); err != frontier.ErrEmpty {
			t.Errorf("Next after the revisits = %v, want ErrEmpty", err)
		}
		if err := f.PushRevisit(frontier.Request{URL: "no host"}, time.Time{}); err == nil {
			t.Errorf("PushRevisit of a URL without a host: no error")
		}
	})
}
