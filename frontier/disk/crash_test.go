package disk

import (
	"context"
	"errors"
	"testing"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

// crash simulates a process crash (kill -9): the store is closed without
// the write buffer being committed, so every change not flushed is lost.
// (A machine crash loses no more: bbolt fsyncs every commit.)
// TestKill does the same with a real process and a real kill.
func crash(t *testing.T, f *Frontier) {
	t.Helper()
	f.mu.Lock()
	f.closed = true
	if f.timer != nil {
		f.timer.Stop()
		f.timer = nil
	}
	f.wake.Broadcast()
	f.mu.Unlock()
	f.flushMu.Lock()
	defer f.flushMu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.db.Close(); err != nil {
		t.Fatal(err)
	}
	f.db = nil
	f.seenSt.close()
}

// TestDurability checks the commit policy: a Done is durable when it
// returns, with every Push before it; a Push after the last commit is lost
// by a crash; a lease is returned.
func TestDurability(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	opts := &Options{
		SyncInterval: -1, // Push never commits: the worst case
		Politeness:   politeness.Config{MinDelay: -1},
	}
	f, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Push(ctx, reqs("a.test", 0, 3)...); err != nil {
		t.Fatal(err)
	}
	done, err := f.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Done(done, frontier.Outcome{Status: 200}); err != nil {
		t.Fatal(err)
	}
	leased, err := f.Next(ctx) // in flight at the crash
	if err != nil {
		t.Fatal(err)
	}
	lost := frontier.Request{URL: "http://b.test/lost", Depth: 1}
	if _, err := f.Push(ctx, lost); err != nil { // after the last sync
		t.Fatal(err)
	}
	crash(t, f)

	f, err = Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
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
		f.Done(r, frontier.Outcome{Status: 200})
	}
	if got[done.URL] != 0 {
		t.Errorf("after a crash, %s (done before it) was handed out again", done.URL)
	}
	if got[leased.URL] != 1 {
		t.Errorf("after a crash, %s (leased at it) was handed out %d times, want 1", leased.URL, got[leased.URL])
	}
	if len(got) != 2 {
		t.Errorf("after a crash, handed out %v, want the two URLs of a.test not done", got)
	}
	if got[lost.URL] != 0 {
		t.Errorf("a Push after the last commit survived a crash: %v", got)
	}
	if n, _ := f.Push(ctx, lost); n != 1 {
		t.Errorf("Push(%s) after its loss = %d, want 1 (a lost push is not seen)", lost.URL, n)
	}
}

// TestDurabilityFlush checks that Flush, and a Done, make earlier Pushes
// durable.
func TestDurabilityFlush(t *testing.T) {
	for _, how := range []string{"flush", "done"} {
		t.Run(how, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			opts := &Options{SyncInterval: -1, Politeness: politeness.Config{MinDelay: -1}}
			f, err := Open(dir, opts)
			if err != nil {
				t.Fatal(err)
			}
			f.Push(ctx, reqs("a.test", 0, 1)...)
			r, _ := f.Next(ctx)
			f.Push(ctx, reqs("b.test", 0, 5)...)
			switch how {
			case "flush":
				if err := f.Flush(); err != nil {
					t.Fatal(err)
				}
			case "done":
				if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
					t.Fatal(err)
				}
			}
			crash(t, f)
			f, err = Open(dir, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			want := 5
			if how == "flush" {
				want = 6 // the lease comes back too
			}
			if n := f.Len(); n != want {
				t.Errorf("after %s and a crash Len() = %d, want %d", how, n, want)
			}
			if n, _ := f.Push(ctx, reqs("b.test", 0, 5)...); n != 0 {
				t.Errorf("after %s and a crash, Push of the flushed URLs added %d, want 0", how, n)
			}
		})
	}
}
