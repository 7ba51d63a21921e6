package cluster_test

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/cluster"
	"github.com/trawl-dev/trawl/frontier"
)

// early is how much sooner than asked a revisit may come out of Next: the
// delay travels to Redis in whole milliseconds, and Redis's clock and this
// process's are read a moment apart.
const early = 5 * time.Millisecond

// TestRevisitDue checks the cluster frontier's revisit semantics with one
// agent: a URL done with Outcome.Revisit stays in the crawl (Revisits
// counts it, the crawl does not end), comes out of Next no sooner than its
// revisit time with Outcome.State as its State and its Data, and leaves
// the schedule when done without a Revisit, after which the crawl ends.
func TestRevisitDue(t *testing.T) {
	rdb := newClient(t)
	ctx := t.Context()
	a, f := joinFrontier(t, ctx, rdb, &cluster.Options{Name: "only", Crawl: "revisit", Lease: time.Second})
	defer a.Close()
	rv, ok := f.(frontier.Revisiter)
	if !ok {
		t.Fatal("the cluster's Frontier is not a frontier.Revisiter")
	}
	reqs := []frontier.Request{
		{URL: "http://a.test/1", Depth: 1, Data: []byte("data 1")},
		{URL: "http://a.test/2", Depth: 1},
		{URL: "http://b.test/3", Depth: 2, Referrer: "http://a.test/1", Anchor: "three"},
	}
	if n, err := f.Push(ctx, reqs...); n != len(reqs) || err != nil {
		t.Fatalf("Push = %d, %v; want %d, nil", n, err, len(reqs))
	}
	const wait = 300 * time.Millisecond
	due := map[string]time.Time{}
	for range reqs {
		req, err := f.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(req.State) != 0 {
			t.Errorf("first visit of %s has State %q, want none", req.URL, req.State)
		}
		at := time.Now().Add(wait)
		due[req.URL] = at
		out := frontier.Outcome{Status: 200, Revisit: at, State: []byte("state of " + req.URL)}
		if req.URL == "http://a.test/2" {
			out.Data = []byte("new data 2")
		}
		if err := f.Done(req, out); err != nil {
			t.Fatal(err)
		}
	}
	if got := rv.Revisits(); got != len(reqs) {
		t.Errorf("Revisits() = %d after scheduling %d, want %d", got, len(reqs), len(reqs))
	}
	if got := f.Len(); got != 0 {
		t.Errorf("Len() = %d with every URL waiting for a revisit, want 0", got)
	}
	wantData := map[string]string{"http://a.test/1": "data 1", "http://a.test/2": "new data 2", "http://b.test/3": ""}
	var second []string
	for range reqs {
		req, err := f.Next(ctx) // blocks until the revisits are due; ErrEmpty would fail
		if err != nil {
			t.Fatal(err)
		}
		if now := time.Now(); now.Before(due[req.URL].Add(-early)) {
			t.Errorf("%s handed out %v before its revisit time", req.URL, due[req.URL].Sub(now))
		}
		if want := "state of " + req.URL; string(req.State) != want {
			t.Errorf("revisit of %s: State %q, want %q", req.URL, req.State, want)
		}
		if string(req.Data) != wantData[req.URL] {
			t.Errorf("revisit of %s: Data %q, want %q", req.URL, req.Data, wantData[req.URL])
		}
		if req.URL == "http://b.test/3" && (req.Depth != 2 || req.Referrer != "http://a.test/1" || req.Anchor != "three") {
			t.Errorf("revisit of %s: depth %d, referrer %q, anchor %q; want them as pushed", req.URL, req.Depth, req.Referrer, req.Anchor)
		}
		second = append(second, req.URL)
		if err := f.Done(req, frontier.Outcome{Status: 404}); err != nil { // leaves the schedule
			t.Fatal(err)
		}
	}
	slices.Sort(second)
	if want := urlsOf(reqs); !slices.Equal(second, want) {
		t.Errorf("revisited %v, want %v", second, want)
	}
	if got := rv.Revisits(); got != 0 {
		t.Errorf("Revisits() = %d after every URL left the schedule, want 0", got)
	}
	if _, err := f.Next(ctx); !errors.Is(err, frontier.ErrEmpty) {
		t.Errorf("Next after the last revisit = %v, want ErrEmpty", err)
	}
	// Pushing them again adds nothing: the crawl knows them.
	if n, _ := f.Push(ctx, reqs...); n != 0 {
		t.Errorf("Push of revisited URLs added %d", n)
	}
}

// TestRevisitTakeOver checks that the revisit schedule of an agent that
// dies passes to the agent that takes it over: every revisit comes out of
// the heir's Next once, with its State, no sooner than its time, the one
// the dead agent had handed out (in flight when it died) included.
func TestRevisitTakeOver(t *testing.T) {
	rdb := newClient(t)
	ctx := t.Context()
	const lease = time.Second
	dead, df := joinFrontier(t, ctx, rdb, &cluster.Options{Name: "dead", Crawl: "rtakeover", Lease: lease})
	reqs := testRequests(20)
	if n, err := df.Push(ctx, reqs...); n != len(reqs) || err != nil {
		t.Fatalf("Push = %d, %v; want %d, nil", n, err, len(reqs))
	}
	// Each URL is visited once and scheduled: the last at once (the dead
	// agent takes it and dies with it in flight), the others from 1.5 s
	// (after the takeover) to 2.5 s.
	due := map[string]time.Time{}
	for i := range reqs {
		req, err := df.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(req.State) != 0 {
			t.Fatalf("%s handed out with State %q before its first visit was done", req.URL, req.State)
		}
		at := time.Now()
		if i < len(reqs)-1 {
			at = at.Add(1500*time.Millisecond + time.Duration(i)*50*time.Millisecond)
		}
		due[req.URL] = at
		if err := df.Done(req, frontier.Outcome{Status: 200, Revisit: at, State: []byte("state of " + req.URL)}); err != nil {
			t.Fatal(err)
		}
	}
	inFlight, err := df.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if string(inFlight.State) != "state of "+inFlight.URL {
		t.Fatalf("revisit of %s: State %q", inFlight.URL, inFlight.State)
	}
	dead.Abandon()

	heir, hf := joinFrontier(t, ctx, rdb, &cluster.Options{Name: "heir", Crawl: "rtakeover", Lease: lease})
	defer heir.Close()
	var mu sync.Mutex
	got := map[string]int{}
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for {
				req, err := hf.Next(ctx)
				if err != nil {
					if !errors.Is(err, frontier.ErrEmpty) {
						t.Errorf("Next: %v", err)
					}
					return
				}
				if now := time.Now(); req.URL != inFlight.URL && now.Before(due[req.URL].Add(-early)) {
					t.Errorf("%s handed out %v before its revisit time", req.URL, due[req.URL].Sub(now))
				}
				if want := "state of " + req.URL; string(req.State) != want {
					t.Errorf("revisit of %s after the takeover: State %q, want %q", req.URL, req.State, want)
				}
				mu.Lock()
				got[req.URL]++
				mu.Unlock()
				if err := hf.Done(req, frontier.Outcome{Status: 410}); err != nil {
					t.Errorf("Done: %v", err)
				}
			}
		})
	}
	wg.Wait()
	for _, r := range reqs {
		if got[r.URL] != 1 {
			t.Errorf("the heir revisited %s %d times, want once", r.URL, got[r.URL])
		}
	}
	if len(got) != len(reqs) {
		t.Errorf("the heir revisited %d URLs, want %d", len(got), len(reqs))
	}
}

// TestRevisitMovesToNewOwner checks that a revisit scheduled by an agent
// for a host that another agent, joining later, owns, is handed out by the
// new owner when it falls due, with its State.
func TestRevisitMovesToNewOwner(t *testing.T) {
	rdb := newClient(t)
	ctx := t.Context()
	const lease = time.Second
	first, ff := joinFrontier(t, ctx, rdb, &cluster.Options{Name: "first", Crawl: "rjoin", Lease: lease})
	defer first.Close()
	reqs := testRequests(14) // seven hosts
	if n, err := ff.Push(ctx, reqs...); n != len(reqs) || err != nil {
		t.Fatalf("Push = %d, %v; want %d, nil", n, err, len(reqs))
	}
	at := time.Now().Add(1500 * time.Millisecond) // after the second has joined and been seen
	for range reqs {
		req, err := ff.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := ff.Done(req, frontier.Outcome{Status: 200, Revisit: at, State: []byte("s " + req.URL)}); err != nil {
			t.Fatal(err)
		}
	}
	second, sf := joinFrontier(t, ctx, rdb, &cluster.Options{Name: "second", Crawl: "rjoin", Lease: lease})
	defer second.Close()
	ring := second.Ring()
	var wantSecond []string
	for _, r := range reqs {
		if ring.Owner(hostOf(r.URL)) == "second" {
			wantSecond = append(wantSecond, r.URL)
		}
	}
	if len(wantSecond) == 0 || len(wantSecond) == len(reqs) {
		t.Fatalf("the second agent owns %d of %d URLs' hosts: the test needs some of each", len(wantSecond), len(reqs))
	}
	var gotFirst, gotSecond []string
	var wg sync.WaitGroup
	run := func(f frontier.Frontier, out *[]string) {
		for {
			req, err := f.Next(ctx)
			if err != nil {
				if !errors.Is(err, frontier.ErrEmpty) {
					t.Errorf("Next: %v", err)
				}
				return
			}
			if string(req.State) != "s "+req.URL {
				t.Errorf("revisit of %s: State %q", req.URL, req.State)
			}
			*out = append(*out, req.URL)
			if err := f.Done(req, frontier.Outcome{Status: 404}); err != nil {
				t.Errorf("Done: %v", err)
			}
		}
	}
	wg.Go(func() { run(ff, &gotFirst) })
	wg.Go(func() { run(sf, &gotSecond) })
	wg.Wait()
	slices.Sort(gotSecond)
	slices.Sort(wantSecond)
	if !slices.Equal(gotSecond, wantSecond) {
		t.Errorf("the joining agent revisited %v, want the URLs of its hosts %v", gotSecond, wantSecond)
	}
	if all := slices.Sorted(slices.Values(append(gotFirst, gotSecond...))); !slices.Equal(all, urlsOf(reqs)) {
		t.Errorf("revisited %d URLs in all, want %d once each", len(all), len(reqs))
	}
}

// hostOf returns the host of a test URL ("http://HOST/...").
func hostOf(rawURL string) string {
	host, _, _ := strings.Cut(strings.TrimPrefix(rawURL, "http://"), "/")
	return host
}
