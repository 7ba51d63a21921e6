package disk

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/frontiertest"
	"github.com/trawl-dev/trawl/politeness"
)

// boostOptions: one front queue and one back queue, no delay, windows of
// two entries (so most entries are on disk only), no timed commit.
func boostOptions() *Options {
	return &Options{
		Strategy: frontier.Priority, FrontQueues: 1, BackQueues: 1, HeadCache: 2, FrontBuffer: 2,
		SyncInterval: -1, SeenFilterURLs: 1 << 12, seenRun: 16,
		Politeness: politeness.Config{MinDelay: -1, Factor: -1},
	}
}

func prioReq(rawURL string, prio float64) frontier.Request {
	return frontier.Request{URL: rawURL, Depth: 1, Priority: prio}
}

// drainURLs hands out every URL with one worker, each done at once.
func drainURLs(t *testing.T, f *Frontier) []string {
	t.Helper()
	var got []string
	for {
		r, err := f.Next(context.Background())
		if errors.Is(err, frontier.ErrEmpty) {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.URL)
		if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
			t.Fatal(err)
		}
	}
}

func mustPushDisk(t *testing.T, f *Frontier, reqs ...frontier.Request) {
	t.Helper()
	if n, err := f.Push(context.Background(), reqs...); err != nil || n != len(reqs) {
		t.Fatalf("Push(%d) = %d, %v", len(reqs), n, err)
	}
}

// TestBoost is frontier.Memory's TestMemoryBoost on disk: a URL waiting in
// a front queue or in its host's back queue moves up; one never pushed,
// handed out or done is not found; BFS and DFS never boost.
func TestBoost(t *testing.T) {
	f := open(t, t.TempDir(), boostOptions())
	defer f.Close()
	var rs []frontier.Request
	for i := range 5 {
		rs = append(rs, prioReq(fmt.Sprintf("http://h%d/", i), float64(i)/10))
	}
	mustPushDisk(t, f, rs...)
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
	r, err := f.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if f.Boost(r.URL, 1) {
		t.Errorf("Boost(%s) of a URL handed out = true", r.URL)
	}
	if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
		t.Fatal(err)
	}
	got := append([]string{r.URL}, drainURLs(t, f)...)
	want := []string{"http://h4/", "http://h0/", "http://h3/", "http://h2/", "http://h1/"}
	if !slices.Equal(got, want) {
		t.Errorf("handed out %v, want %v", got, want)
	}
	if f.Boost("http://h1/", 1) {
		t.Error("Boost of a URL done = true")
	}
	for _, s := range []frontier.Strategy{frontier.BFS, frontier.DFS} {
		o := boostOptions()
		o.Strategy = s
		g := open(t, t.TempDir(), o)
		mustPushDisk(t, g, prioReq("http://a/", 0), prioReq("http://a/2", 0))
		if g.Boost("http://a/2", 1) {
			t.Errorf("Boost under strategy %d = true, want false", s)
		}
		if n := countKeys(t, g, tabIndex); n != 0 {
			t.Errorf("strategy %d keeps %d index keys, want none", s, n)
		}
		g.Close()
	}
}

// countKeys counts the stored keys of table tab.
func countKeys(t *testing.T, f *Frontier, tab byte) int {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	if err := f.scan([]byte{tab}, func(k, v []byte) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestBoostBackQueue: within one host's back queue (best first under
// Priority), a boosted URL overtakes the host's others, whether it is in
// the queue's in-memory window or only on disk; a URL returned by Done
// with Retry is first in line and not boosted, as in frontier.Memory.
func TestBoostBackQueue(t *testing.T) {
	o := boostOptions()
	o.BackQueues = 2 // room for another host: refill moves every URL of a.test to its back queue
	f := open(t, t.TempDir(), o)
	defer f.Close()
	var rs []frontier.Request
	for i := range 8 {
		rs = append(rs, prioReq(fmt.Sprintf("http://a.test/p%d", i), float64(8-i)/10))
	}
	mustPushDisk(t, f, rs...)
	// Every URL of the one host is in its back queue, p0 first; the
	// window holds two (HeadCache), the rest are on disk only.
	if !f.Boost("http://a.test/p7", 1) || !f.Boost("http://a.test/p1", 0.2) {
		t.Fatal("Boost of URLs in the back queue = false")
	}
	r, err := f.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r.URL != "http://a.test/p7" || r.Priority != 1.1 {
		t.Fatalf("Next = %s with priority %v, want p7 with 1.1 (0.1 boosted by 1)", r.URL, r.Priority)
	}
	if err := f.Done(r, frontier.Outcome{Retry: true}); err != nil {
		t.Fatal(err)
	}
	if f.Boost(r.URL, 1) {
		t.Error("Boost of a URL waiting for its retry = true")
	}
	got := drainURLs(t, f)
	want := []string{"http://a.test/p7", "http://a.test/p1", "http://a.test/p0", "http://a.test/p2", "http://a.test/p3",
		"http://a.test/p4", "http://a.test/p5", "http://a.test/p6"}
	if !slices.Equal(got, want) {
		t.Errorf("handed out %v, want %v", got, want)
	}
	if n := countKeys(t, f, tabIndex); n != 0 {
		t.Errorf("drained, the frontier keeps %d index keys, want none", n)
	}
}

// TestBoostSurvivesReopen: boosts, like Pushes, survive Close and Open (the
// order after it reflects them), and after a crash exactly those committed
// (by a Done, here) do.
func TestBoostSurvivesReopen(t *testing.T) {
	urls := func(n int) []frontier.Request {
		var rs []frontier.Request
		for i := range n {
			rs = append(rs, prioReq(fmt.Sprintf("http://h%d.test/", i), float64(i)/100))
		}
		return rs
	}
	t.Run("close", func(t *testing.T) {
		dir := t.TempDir()
		o := boostOptions()
		o.FrontQueues = 3
		f := open(t, dir, o)
		mustPushDisk(t, f, urls(10)...)
		// h9 is in the back queue; boost h0 to the top front queue (3 and
		// up) and h1 to the middle one (2 to 3).
		if !f.Boost("http://h0.test/", 5) || !f.Boost("http://h1.test/", 2.5) {
			t.Fatal("Boost = false for queued URLs")
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		f = open(t, dir, o)
		defer f.Close()
		// After the reopen, from the index on disk: to the head of the
		// bottom queue (below 2).
		if !f.Boost("http://h2.test/", 1.2) {
			t.Fatal("Boost after reopen = false for a queued URL")
		}
		got := drainURLs(t, f)
		// The biased selector takes the top queue (weight 3), then the
		// middle one (2), then the bottom one (1).
		want := []string{"http://h9.test/", "http://h0.test/", "http://h1.test/", "http://h2.test/"}
		if !slices.Equal(got[:4], want) {
			t.Errorf("after a reopen, handed out %v first, want %v", got[:4], want)
		}
		if len(got) != 10 {
			t.Errorf("handed out %d URLs, want 10", len(got))
		}
	})
	t.Run("crash", func(t *testing.T) {
		dir := t.TempDir()
		o := boostOptions()
		f := open(t, dir, o)
		mustPushDisk(t, f, urls(10)...)
		// h9 goes to the back queue; its Next moves h8 there.
		r, err := f.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !f.Boost("http://h0.test/", 1) {
			t.Fatal("Boost = false for a queued URL")
		}
		if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil { // commits the boost
			t.Fatal(err)
		}
		if !f.Boost("http://h1.test/", 2) { // after the last commit: lost
			t.Fatal("Boost = false for a queued URL")
		}
		crash(t, f)
		f = open(t, dir, o)
		defer f.Close()
		got := drainURLs(t, f)
		want := []string{"http://h8.test/", "http://h0.test/", "http://h7.test/", "http://h6.test/", "http://h5.test/",
			"http://h4.test/", "http://h3.test/", "http://h2.test/", "http://h1.test/"}
		if !slices.Equal(got, want) {
			t.Errorf("after a crash, handed out %v; want %v: h8 from its back queue, h0 (boost committed) "+
				"next, h1 (boost lost) last", got, want)
		}
	})
}

// TestBoostIndex: a Priority frontier keeps no index until its first
// Boost, which writes one key per queued URL, naming the URL's entry;
// from then on Push keeps it, also after a reopen, and Done deletes it.
func TestBoostIndex(t *testing.T) {
	dir := t.TempDir()
	f := open(t, dir, boostOptions())
	defer func() { f.Close() }()
	var rs []frontier.Request
	for i := range 60 {
		rs = append(rs, prioReq(fmt.Sprintf("http://h%d.test/p%d", i%5, i), float64(i%7)))
	}
	mustPushDisk(t, f, rs[:50]...)
	if n := countKeys(t, f, tabIndex); n != 0 {
		t.Errorf("before any Boost, %d index keys, want none", n)
	}
	if !f.Boost(rs[0].URL, 1) {
		t.Fatalf("Boost(%s) = false", rs[0].URL)
	}
	if n := countKeys(t, f, tabIndex); n != 50 {
		t.Errorf("50 URLs queued and boosted once: %d index keys, want 50", n)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	f = open(t, dir, boostOptions())
	mustPushDisk(t, f, rs[50:]...)
	if n := countKeys(t, f, tabIndex); n != 60 {
		t.Errorf("reopened, 10 more URLs pushed: %d index keys, want 60", n)
	}
	f.mu.Lock()
	err := f.scan([]byte{tabIndex}, func(k, v []byte) error {
		e, found, err := f.get(v)
		if err != nil || !found {
			return fmt.Errorf("index key %x names %q, not stored (%v)", k, v, err)
		}
		if d, err := decodeEntry(e); err != nil || !bytes.Equal(indexKey(frontier.Fingerprint(d.url)), k) {
			return fmt.Errorf("index key %x names the entry of %s (%v)", k, d.url, err)
		}
		return nil
	})
	f.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	drainURLs(t, f)
	if n := countKeys(t, f, tabIndex); n != 0 {
		t.Errorf("drained, %d index keys, want none", n)
	}
}

// TestConformancePriority runs the conformance check under Priority, where
// Boost finds queued URLs.
func TestConformancePriority(t *testing.T) {
	frontiertest.Run(t, func(t *testing.T) frontier.Frontier {
		o := testOptions()
		o.Strategy = frontier.Priority
		f := open(t, t.TempDir(), o)
		t.Cleanup(func() { f.Close() })
		return f
	})
}

// TestSaveState: a record saved survives Close and Open; after a crash,
// the one a Done committed is there, and one saved after it is lost with
// the Pushes since, as the durability contract says.
func TestSaveState(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	o := boostOptions()
	o.Strategy = frontier.BFS
	f := open(t, dir, o)
	if b, err := f.LoadState("opic"); b != nil || err != nil {
		t.Fatalf("LoadState of a new frontier = %q, %v; want nil, nil", b, err)
	}
	if err := f.SaveState("opic", []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := f.SaveState("other", nil); err != nil {
		t.Fatal(err)
	}
	if err := f.SaveState("big", make([]byte, frontier.MaxData+1)); !errors.Is(err, frontier.ErrDataTooLarge) {
		t.Errorf("SaveState of %d bytes: err = %v, want ErrDataTooLarge", frontier.MaxData+1, err)
	}
	if b, _ := f.LoadState("opic"); string(b) != "one" {
		t.Errorf("LoadState before a commit = %q, want %q", b, "one")
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	f = open(t, dir, o)
	if b, _ := f.LoadState("opic"); string(b) != "one" {
		t.Errorf("LoadState after a reopen = %q, want %q", b, "one")
	}
	if b, _ := f.LoadState("other"); b == nil || len(b) != 0 {
		t.Errorf("LoadState of an empty record = %q, want empty and not nil", b)
	}
	mustPushDisk(t, f, reqs("a.test", 0, 2)...)
	r, err := f.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SaveState("opic", []byte("two")); err != nil {
		t.Fatal(err)
	}
	if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
		t.Fatal(err)
	}
	if err := f.SaveState("opic", []byte("three")); err != nil {
		t.Fatal(err)
	}
	crash(t, f)
	f = open(t, dir, o)
	defer f.Close()
	if b, _ := f.LoadState("opic"); string(b) != "two" {
		t.Errorf("LoadState after a crash = %q, want %q (committed by the Done)", b, "two")
	}
	if f.Len() != 1 {
		t.Errorf("Len after the crash = %d, want 1", f.Len())
	}
}

// TestIndexBuiltByFirstBoost: the first Boost of a frontier that holds
// many URLs (in front and back queues, more than a commit's keys; a
// directory written before the index existed is such a frontier too)
// indexes them all, so it and later Boosts find any of them.
func TestIndexBuiltByFirstBoost(t *testing.T) {
	dir := t.TempDir()
	o := boostOptions()
	o.seenRun, o.noSync = 0, true // a run file per 16 URLs, each fsynced, would make this test slow
	f := open(t, dir, o)
	var rs []frontier.Request
	for i := range 1102 {
		rs = append(rs, prioReq(fmt.Sprintf("http://h%d.test/p%d", i%3, i), float64(i)/10000))
	}
	mustPushDisk(t, f, rs...)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	f = open(t, dir, o)
	defer f.Close()
	// p1101 (the best) is in h0's back queue; p0 at the bottom of the front queue.
	for _, u := range []string{"http://h0.test/p0", "http://h0.test/p1101"} {
		if !f.Boost(u, 1) {
			t.Errorf("Boost(%s) = false", u)
		}
	}
	if n := countKeys(t, f, tabIndex); n != len(rs) {
		t.Fatalf("after a Boost, the index holds %d keys, want %d", n, len(rs))
	}
	if got := drainURLs(t, f); got[0] != "http://h0.test/p1101" || got[1] != "http://h0.test/p0" {
		t.Errorf("handed out %v first, want p1101 (in its back queue) and p0 (boosted to the top)", got[:2])
	}
}
