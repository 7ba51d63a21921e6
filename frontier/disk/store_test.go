package disk

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

// TestMergedView checks the write buffer's reads against a map: random
// sets and deletes go to a memtable, which is in turn moved to "being
// committed" and committed to bbolt, and at every step a scan of each
// prefix and a point read of each key see what the map holds.
func TestMergedView(t *testing.T) {
	db, err := bolt.Open(filepath.Join(t.TempDir(), "t.bbolt"), 0o644, &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	want := map[string]string{}
	pending, committing := newMemtable(), (*memtable)(nil)
	key := func() []byte { return fmt.Appendf(nil, "%c%d", "abc"[rng.IntN(3)], rng.IntN(60)) }
	check := func(step int) {
		t.Helper()
		for _, p := range []string{"", "a", "b", "c", "a1", "b5"} {
			var got []string
			err := db.View(func(tx *bolt.Tx) error {
				it := newIter(tx, pending, committing, []byte(p), prefixEnd([]byte(p)))
				for k, v, ok := it.next(); ok; k, v, ok = it.next() {
					got = append(got, string(k)+"="+string(v))
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			var exp []string
			for _, k := range slices.Sorted(maps.Keys(want)) {
				if strings.HasPrefix(k, p) {
					exp = append(exp, k+"="+want[k])
				}
			}
			if !slices.Equal(got, exp) {
				t.Fatalf("step %d: scan(%q) = %v, want %v", step, p, got, exp)
			}
		}
	}
	for step := range 2000 {
		switch r := rng.IntN(100); {
		case r < 60:
			k, v := key(), fmt.Sprint(step)
			pending.put(k, []byte(v), false)
			want[string(k)] = v
		case r < 90:
			k := key()
			pending.put(k, nil, true)
			delete(want, string(k))
		case r < 95 && committing == nil:
			committing, pending = pending, newMemtable()
		case committing != nil:
			if err := commit(db, nil, committing); err != nil {
				t.Fatal(err)
			}
			committing = nil
		}
		if step%20 == 0 {
			check(step)
		}
	}
	check(-1)
}

// TestWriteBufferBound: a Push that leaves more than WriteBuffer bytes in
// memory commits them before it returns, so a crash keeps them.
func TestWriteBufferBound(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	opts := &Options{SyncInterval: -1, WriteBuffer: 1 << 10, Politeness: politeness.Config{MinDelay: -1}}
	f := open(t, dir, opts)
	if _, err := f.Push(ctx, reqs("a.test", 0, 50)...); err != nil { // well over 1 KiB
		t.Fatal(err)
	}
	crash(t, f)
	f = open(t, dir, opts)
	defer f.Close()
	if n := f.Len(); n != 50 {
		t.Errorf("after a crash, Len() = %d, want the 50 URLs of a Push past WriteBuffer", n)
	}
}

// TestSyncInterval: SyncInterval after a Push, what it wrote is committed
// without another call, so a crash keeps it.
func TestSyncInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		dir := t.TempDir()
		opts := &Options{SyncInterval: time.Second, Politeness: politeness.Config{MinDelay: -1}}
		f := open(t, dir, opts)
		if _, err := f.Push(ctx, reqs("a.test", 0, 5)...); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		synctest.Wait() // the timer's commit is done
		crash(t, f)
		f = open(t, dir, opts)
		defer f.Close()
		if n := f.Len(); n != 5 {
			t.Errorf("a crash SyncInterval after a Push: Len() = %d, want 5", n)
		}
	})
}

// TestPebbleDirRefused: a directory written by the pebble frontier of an
// older trawl is refused with ErrFormat, not read as an empty frontier.
func TestPebbleDirRefused(t *testing.T) {
	for _, name := range []string{"CURRENT", "MANIFEST-000001"} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := Open(dir, nil)
		if !errors.Is(err, ErrFormat) {
			if f != nil {
				f.Close()
			}
			t.Errorf("Open(dir with %s) = %v, want ErrFormat", name, err)
		}
		if _, err := os.Stat(filepath.Join(dir, storeFile)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("Open(dir with %s) made %s (%v)", name, storeFile, err)
		}
	}
}

// TestOpenTwice: a directory is used by one Frontier at a time.
func TestOpenTwice(t *testing.T) {
	dir := t.TempDir()
	f := open(t, dir, nil)
	defer f.Close()
	if g, err := Open(dir, nil); err == nil {
		g.Close()
		t.Error("a second Open of an open frontier's directory succeeded")
	}
}

// TestCommitsShared: concurrent Dones share commits, and every Done is
// durable when it returns.
func TestCommitsShared(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	opts := &Options{Workers: 8, SyncInterval: -1, Politeness: politeness.Config{MinDelay: -1, Factor: -1}}
	f := open(t, dir, opts)
	var all []frontier.Request
	for h := range 8 {
		all = append(all, reqs(fmt.Sprintf("h%d.test", h), 0, 25)...)
	}
	if _, err := f.Push(ctx, all...); err != nil {
		t.Fatal(err)
	}
	doneCh := make(chan string, len(all))
	errCh := make(chan error, 8)
	for range 8 {
		go func() {
			for {
				r, err := f.Next(ctx)
				if errors.Is(err, frontier.ErrEmpty) {
					errCh <- nil
					return
				}
				if err == nil {
					err = f.Done(r, frontier.Outcome{Status: 200})
				}
				if err != nil {
					errCh <- err
					return
				}
				doneCh <- r.URL
			}
		}()
	}
	for range 8 {
		if err := <-errCh; err != nil {
			t.Fatal(err)
		}
	}
	f.mu.Lock()
	commits := f.durable
	f.mu.Unlock()
	t.Logf("%d Dones, %d commits", len(all), commits)
	crash(t, f)
	if len(doneCh) != len(all) {
		t.Fatalf("%d Dones, want %d", len(doneCh), len(all))
	}
	f = open(t, dir, opts)
	defer f.Close()
	if n := f.Len(); n != 0 {
		t.Errorf("after every Done and a crash, Len() = %d, want 0", n)
	}
}

// TestUnmapResidentKeepsData: dropping the resident pages of bbolt's map
// between reads (as flush does at most every unmapEvery) loses nothing:
// every URL comes out again, read through pages mapped again from the
// page cache, and the frontier keeps working after it.
func TestUnmapResidentKeepsData(t *testing.T) {
	ctx := context.Background()
	f := open(t, t.TempDir(), &Options{SyncInterval: -1, Politeness: politeness.Config{MinDelay: -1}})
	defer f.Close()
	const n = 1000
	if _, err := f.Push(ctx, reqs("a.test", 0, n)...); err != nil {
		t.Fatal(err)
	}
	if err := f.Flush(); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for i := range n {
		if i%200 == 0 {
			if err := unmapResident(f.db); err != nil {
				t.Fatalf("unmapResident: %v", err)
			}
		}
		r, err := f.Next(ctx)
		if err != nil {
			t.Fatalf("Next %d: %v", i, err)
		}
		got[r.URL] = true
		if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != n {
		t.Errorf("%d distinct URLs out of %d pushed", len(got), n)
	}
	if added, err := f.Push(ctx, reqs("a.test", 0, 10)...); err != nil || added != 0 {
		t.Errorf("pushing seen URLs again after the unmaps: added %d, %v; want 0, nil (the seen set read back)", added, err)
	}
}
