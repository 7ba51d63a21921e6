package cluster_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/trawl-dev/trawl/cluster"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

func testRequests(n int) []frontier.Request {
	reqs := make([]frontier.Request, n)
	for i := range reqs {
		reqs[i] = frontier.Request{URL: fmt.Sprintf("http://h%d.test/page%d", i%7, i), Depth: 1}
	}
	return reqs
}

var fastPoliteness = frontier.MemoryOptions{Workers: 2, Politeness: politeness.Config{MinDelay: -1, Factor: -1}}

// joinFrontier joins an agent under opts and makes its frontier with
// fastPoliteness; the caller closes the agent (or lets it die).
func joinFrontier(t *testing.T, ctx context.Context, rdb *redis.Client, opts *cluster.Options) (*cluster.Agent, frontier.Frontier) {
	t.Helper()
	a, err := cluster.Join(ctx, rdb, opts)
	if err != nil {
		t.Fatal(err)
	}
	f, err := a.Frontier(fastPoliteness)
	if err != nil {
		t.Fatal(err)
	}
	return a, f
}

// drain runs workers on f until Next reports the end, and returns the URLs
// handed out.
func drain(t *testing.T, f frontier.Frontier) []string {
	t.Helper()
	return drainWith(t, f, nil)
}

// drainWith is drain that also calls see (if not nil) with each request
// handed out, from the workers' goroutines.
func drainWith(t *testing.T, f frontier.Frontier, see func(frontier.Request)) []string {
	t.Helper()
	var mu sync.Mutex
	var got []string
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for {
				req, err := f.Next(t.Context())
				if err != nil {
					if !errors.Is(err, frontier.ErrEmpty) {
						t.Errorf("Next: %v", err)
					}
					return
				}
				if see != nil {
					see(req)
				}
				mu.Lock()
				got = append(got, req.URL)
				mu.Unlock()
				if err := f.Done(req, frontier.Outcome{Status: 200}); err != nil {
					t.Errorf("Done: %v", err)
				}
			}
		})
	}
	wg.Wait()
	return got
}

func urlsOf(reqs []frontier.Request) []string {
	var out []string
	for _, r := range reqs {
		out = append(out, r.URL)
	}
	slices.Sort(out)
	return out
}

// TestTakeOver checks that the URLs queued at an agent that dies pass to
// a living one, which hands each out once and then ends the crawl.
func TestTakeOver(t *testing.T) {
	rdb := newClient(t)
	ctx := t.Context()
	const lease = time.Second // beats every 333 ms: room for a slow, loaded -race run
	dead, df := joinFrontier(t, ctx, rdb, &cluster.Options{Name: "dead", Crawl: "takeover", Lease: lease})
	reqs := testRequests(30)
	for i := range reqs {
		if i%2 == 0 {
			reqs[i].Data = []byte("data of " + reqs[i].URL)
		}
	}
	if n, err := df.Push(ctx, reqs...); n != len(reqs) || err != nil {
		t.Fatalf("Push = %d, %v; want %d, nil", n, err, len(reqs))
	}
	// One URL is in flight when the agent dies.
	if _, err := df.Next(ctx); err != nil {
		t.Fatal(err)
	}
	dead.Abandon()

	heir, hf := joinFrontier(t, ctx, rdb, &cluster.Options{Name: "heir", Crawl: "takeover", Lease: lease})
	defer heir.Close()
	// Pushing them again adds nothing: the crawl knows them.
	if n, _ := hf.Push(ctx, reqs...); n != 0 {
		t.Errorf("Push of known URLs added %d", n)
	}
	var mu sync.Mutex
	data := map[string]string{}
	got := drainWith(t, hf, func(r frontier.Request) {
		mu.Lock()
		data[r.URL] = string(r.Data)
		mu.Unlock()
	})
	slices.Sort(got)
	if want := urlsOf(reqs); !slices.Equal(got, want) {
		t.Errorf("the heir handed out %d URLs, want the dead agent's %d once each:\n%v", len(got), len(want), got)
	}
	for _, r := range reqs {
		if g, ok := data[r.URL]; ok && g != string(r.Data) {
			t.Errorf("the heir handed out %s with Data %q, want %q as pushed", r.URL, g, r.Data)
		}
	}
	if agents := heir.Ring().Agents(); !slices.Equal(agents, []string{"heir"}) {
		t.Errorf("agents after the takeover: %v, want [heir]", agents)
	}
}

// TestJoinTakesQueuedURLs checks that an agent that joins takes the URLs
// of its hosts still waiting in another agent's stream, and that the two
// hand every URL out once between them.
func TestJoinTakesQueuedURLs(t *testing.T) {
	rdb := newClient(t)
	ctx := t.Context()
	const lease = time.Second // beats every 333 ms: room for a slow, loaded -race run
	// The first agent reads one entry at a time and keeps one URL in
	// memory: the rest wait in its stream.
	first, ff := joinFrontier(t, ctx, rdb, &cluster.Options{Name: "first", Crawl: "join", Lease: lease, MaxLocal: 1, ReadBatch: 1})
	defer first.Close()
	reqs := testRequests(60)
	for _, r := range reqs { // one entry each
		if _, err := ff.Push(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	second, sf := joinFrontier(t, ctx, rdb, &cluster.Options{Name: "second", Crawl: "join", Lease: lease})
	defer second.Close()
	// The first agent sees the second within a Poll (there is no channel
	// to wait on); its reader then passes the second's URLs on.
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for first.Ring().Len() < 2 {
		<-tick.C
	}
	var a, b []string
	var wg sync.WaitGroup
	wg.Go(func() { a = drain(t, ff) })
	wg.Go(func() { b = drain(t, sf) })
	wg.Wait()
	all := slices.Sorted(slices.Values(append(slices.Clone(a), b...)))
	if want := urlsOf(reqs); !slices.Equal(all, want) {
		t.Errorf("handed out %d URLs in all, want %d once each", len(all), len(want))
	}
	ring := second.Ring()
	secondHosts := 0
	for _, r := range reqs {
		host, _, _ := strings.Cut(strings.TrimPrefix(r.URL, "http://"), "/")
		if ring.Owner(host) == "second" {
			secondHosts++
		}
	}
	// The first agent read at most 2 URLs (MaxLocal 1, one entry per read)
	// before it saw the second; it keeps those, the rest move.
	if len(b) < secondHosts-2 {
		t.Errorf("the joining agent owns hosts of %d URLs but handed out %d", secondHosts, len(b))
	}
	t.Logf("first handed out %d, second %d (its hosts have %d)", len(a), len(b), secondHosts)
}

// TestDataReachesOwner checks that a URL pushed with Data by one agent and
// owned by another comes out of the owner's Next with the same Data, and
// that a request with more than frontier.MaxData bytes is refused while
// the rest of its batch is queued.
func TestDataReachesOwner(t *testing.T) {
	rdb := newClient(t)
	ctx := t.Context()
	const lease = time.Second
	opts := func(name string) *cluster.Options {
		return &cluster.Options{Name: name, Crawl: "data", Lease: lease}
	}
	// b joins first, so that a's ring has both from the start; a frontier
	// idle before anything is pushed would find the crawl over.
	b, err := cluster.Join(ctx, rdb, opts("b"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	a, err := cluster.Join(ctx, rdb, opts("a"))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Ring().Len() != 2 {
		t.Fatalf("a's ring has %v, want a and b", a.Ring().Agents())
	}
	af, err := a.Frontier(fastPoliteness)
	if err != nil {
		t.Fatal(err)
	}
	// URLs of hosts b owns, pushed by a.
	var reqs []frontier.Request
	for i := 0; len(reqs) < 5; i++ {
		host := fmt.Sprintf("h%d.test", i)
		if a.Ring().Owner(host) != "b" {
			continue
		}
		u := "http://" + host + "/"
		reqs = append(reqs, frontier.Request{URL: u, Depth: 1, Data: append([]byte{0, 0xff}, u...)})
	}
	big := frontier.Request{URL: "http://big.test/", Depth: 1, Data: make([]byte, frontier.MaxData+1)}
	n, err := af.Push(ctx, append(reqs, big)...)
	if !errors.Is(err, frontier.ErrDataTooLarge) || !strings.Contains(fmt.Sprint(err), big.URL) {
		t.Errorf("Push with %d bytes of Data: error %v, want ErrDataTooLarge naming %s", len(big.Data), err, big.URL)
	}
	if n != len(reqs) {
		t.Fatalf("Push added %d, want %d", n, len(reqs))
	}
	bf, err := b.Frontier(fastPoliteness)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	data := map[string][]byte{}
	var onA []string
	var wg sync.WaitGroup
	wg.Go(func() { onA = drain(t, af) })
	got := drainWith(t, bf, func(r frontier.Request) {
		mu.Lock()
		data[r.URL] = r.Data
		mu.Unlock()
	})
	wg.Wait()
	if len(onA) != 0 {
		t.Errorf("agent a handed out %v, URLs of hosts b owns", onA)
	}
	if len(got) != len(reqs) {
		t.Errorf("agent b handed out %d URLs, want %d", len(got), len(reqs))
	}
	for _, r := range reqs {
		if !bytes.Equal(data[r.URL], r.Data) {
			t.Errorf("agent b handed out %s with Data %q, want %q", r.URL, data[r.URL], r.Data)
		}
	}
}

// TestHostHeldElsewhereWaitsPoll reproduces issue 34's idle agent: an agent
// with a URL of a host that another agent is fetching from (URLs read before
// a join stay with the agent that read them; the joining owner gets the new
// ones) waited for the other's whole lease (10 s by default) before asking
// again, idle with URLs queued. The agent must ask again within Poll, and
// get the URL once the other agent is done with the host. The lease here is
// an hour, so a wait of a lease would end the test by its deadline.
func TestHostHeldElsewhereWaitsPoll(t *testing.T) {
	rdb := newClient(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	const poll = 50 * time.Millisecond
	opts := func(name string) *cluster.Options {
		return &cluster.Options{Name: name, Crawl: "held", Lease: time.Hour, Poll: poll}
	}
	// A host that b owns once both have joined.
	ring := cluster.NewRing([]string{"a", "b"}, cluster.DefaultVirtualNodes)
	host := ""
	for i := 0; host == ""; i++ {
		if h := fmt.Sprintf("h%d.test", i); ring.Owner(h) == "b" {
			host = h
		}
	}

	a, af := joinFrontier(t, ctx, rdb, opts("a"))
	defer a.Close()
	first := frontier.Request{URL: "http://" + host + "/first", Depth: 1}
	if n, err := af.Push(ctx, first); n != 1 || err != nil {
		t.Fatalf("a: Push = %d, %v; want 1, nil", n, err)
	}
	held, err := af.Next(ctx) // a holds the host in Redis from now on
	if err != nil || held.URL != first.URL {
		t.Fatalf("a: Next = %q, %v; want %q", held.URL, err, first.URL)
	}

	b, bf := joinFrontier(t, ctx, rdb, opts("b"))
	defer b.Close()
	waits := make(chan time.Duration, 100)
	cluster.SetOnWaitForTest(bf, func(h string, wait time.Duration) {
		if h == host {
			select {
			case waits <- wait:
			default:
			}
		}
	})
	second := frontier.Request{URL: "http://" + host + "/second", Depth: 1}
	if n, err := bf.Push(ctx, second); n != 1 || err != nil {
		t.Fatalf("b: Push = %d, %v; want 1, nil", n, err)
	}
	type result struct {
		req frontier.Request
		err error
	}
	got := make(chan result, 1)
	go func() {
		req, err := bf.Next(ctx)
		got <- result{req, err}
	}()

	// b met the host held by a, and waits at most Poll before asking again.
	select {
	case w := <-waits:
		if w > poll {
			t.Errorf("b waits %v for a host another agent holds; want at most Poll, %v (the lease is %v)", w, poll, time.Hour)
		}
	case r := <-got:
		t.Fatalf("b: Next = %q, %v while a holds the host; want it to wait", r.req.URL, r.err)
	case <-ctx.Done():
		t.Fatal("b never asked Redis for the host")
	}
	if err := af.Done(held, frontier.Outcome{Status: 200}); err != nil {
		t.Fatalf("a: Done: %v", err)
	}
	select {
	case r := <-got:
		if r.err != nil || r.req.URL != second.URL {
			t.Fatalf("b: Next = %q, %v; want %q", r.req.URL, r.err, second.URL)
		}
		if err := bf.Done(r.req, frontier.Outcome{Status: 200}); err != nil {
			t.Errorf("b: Done: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("b did not get its URL after a released the host: it waits for a's lease")
	}
}

// TestNotOverBeforeSeeds checks that an agent whose frontier is made before
// anything is pushed (trawl.New makes the frontier, Run pushes the seeds)
// does not end the crawl meanwhile: TestTakeOver failed on a loaded machine
// when the agent's termination check, finding every stream empty, ran
// between Frontier and Push, and Next then reported the crawl over.
func TestNotOverBeforeSeeds(t *testing.T) {
	rdb := newClient(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	a, f := joinFrontier(t, ctx, rdb, &cluster.Options{Name: "early", Crawl: "early", Lease: time.Hour, Poll: 20 * time.Millisecond})
	defer a.Close()
	rounds := make(chan bool, 1)
	a.SetOnWatchForTest(func(over bool) {
		select {
		case rounds <- over:
		default:
		}
	})
	// One round of the watch loop, with the frontier made and nothing
	// pushed.
	select {
	case over := <-rounds:
		if over {
			t.Fatal("the agent found the crawl over before anything was pushed")
		}
	case <-ctx.Done():
		t.Fatal("the agent's watch loop did not run")
	}
	req := frontier.Request{URL: "http://seed.test/", Depth: 1}
	if n, err := f.Push(ctx, req); n != 1 || err != nil {
		t.Fatalf("Push = %d, %v; want 1, nil", n, err)
	}
	got, err := f.Next(ctx)
	if err != nil || got.URL != req.URL {
		t.Fatalf("Next = %q, %v; want %q: the crawl ended before its seed was pushed", got.URL, err, req.URL)
	}
	if err := f.Done(got, frontier.Outcome{Status: 200}); err != nil {
		t.Fatal(err)
	}
	// With nothing left and a worker waiting, the crawl ends.
	if _, err := f.Next(ctx); !errors.Is(err, frontier.ErrEmpty) {
		t.Errorf("Next after the last URL = %v, want frontier.ErrEmpty", err)
	}
}
