package disk

import (
	"context"
	"errors"
	"testing"

	"github.com/cockroachdb/pebble/vfs"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

// strictFS returns an in-memory filesystem that loses unsynced writes at
// a simulated crash, with the directory "/state" durably made.
func strictFS(t *testing.T) *vfs.MemFS {
	t.Helper()
	fs := vfs.NewStrictMem()
	if err := fs.MkdirAll("/state", 0o755); err != nil {
		t.Fatal(err)
	}
	root, err := fs.OpenDir("/")
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := root.Sync(); err != nil {
		t.Fatal(err)
	}
	return fs
}

// crash simulates a machine crash: every write not synced is lost.
func crash(t *testing.T, f *Frontier, fs *vfs.MemFS) {
	t.Helper()
	fs.SetIgnoreSyncs(true)
	f.Close()
	fs.ResetToSyncedState()
	fs.SetIgnoreSyncs(false)
}

// TestDurability checks the fsync policy on a filesystem that loses
// unsynced writes: a Done is durable when it returns, with every Push
// before it; a Push after the last sync may be lost; a lease is returned.
func TestDurability(t *testing.T) {
	ctx := context.Background()
	fs := strictFS(t)
	opts := &Options{
		fs:           fs,
		SyncInterval: -1, // Push never syncs: the worst case
		Politeness:   politeness.Config{MinDelay: -1},
	}
	f, err := Open("/state", opts)
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
	crash(t, f, fs)

	f, err = Open("/state", opts)
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
		t.Errorf("a Push after the last sync survived a crash with syncs ignored: %v", got)
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
			fs := strictFS(t)
			opts := &Options{fs: fs, SyncInterval: -1, Politeness: politeness.Config{MinDelay: -1}}
			f, err := Open("/state", opts)
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
			crash(t, f, fs)
			f, err = Open("/state", opts)
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
