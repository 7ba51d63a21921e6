package disk

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

// TestSeenSetModel checks the seen set against a model through random
// pushes, flushes, crashes and reopens, with runs of 8 fingerprints so
// that it cuts runs and merges them often: a Push accepts exactly the URLs
// that were never accepted before, except those whose acceptance a crash
// lost (never committed), and after each step the run files on disk are
// the listed runs, at most about log2(URLs / run size) of them.
func TestSeenSetModel(t *testing.T) {
	for seed := range uint64(3) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 34))
			ctx := context.Background()
			dir := t.TempDir()
			opts := &Options{
				SyncInterval: -1, SeenFilterURLs: 256, noSync: true, seenRun: 8,
				Politeness: politeness.Config{MinDelay: -1, Factor: -1},
			}
			f := open(t, dir, opts)
			defer func() { f.Close() }()
			durable, pending := map[string]bool{}, map[string]bool{}
			commit := func() {
				for u := range pending {
					durable[u] = true
				}
				clear(pending)
			}
			var cuts, crashes int
			for step := range 600 {
				switch r := rng.IntN(100); {
				case r < 70:
					var batch []frontier.Request
					want := 0
					inBatch := map[string]bool{}
					for range 1 + rng.IntN(20) {
						u := fmt.Sprintf("http://h%d.test/p%d", rng.IntN(5), rng.IntN(1500))
						batch = append(batch, frontier.Request{URL: u, Depth: 1})
						if !durable[u] && !pending[u] && !inBatch[u] {
							want++
						}
						inBatch[u] = true
					}
					added, err := f.Push(ctx, batch...)
					if err != nil {
						t.Fatal(err)
					}
					if added != want {
						t.Fatalf("step %d: Push added %d, want %d", step, added, want)
					}
					for u := range inBatch {
						if !durable[u] {
							pending[u] = true
						}
					}
				case r < 85:
					if err := f.Flush(); err != nil {
						t.Fatal(err)
					}
					commit()
				case r < 93:
					crash(t, f)
					crashes++
					clear(pending)
					f = open(t, dir, opts)
				default:
					if err := f.Close(); err != nil {
						t.Fatal(err)
					}
					commit()
					f = open(t, dir, opts)
				}
				f.flushMu.Lock()
				runs := len(f.seenSt.runs)
				total := 0
				for _, r := range f.seenSt.runs {
					total += r.n
				}
				f.flushMu.Unlock()
				if runs > 0 {
					cuts++
				}
				if limit := bits.Len(uint(total/8)) + 1; runs > limit {
					t.Fatalf("step %d: %d runs for %d fingerprints in runs of 8, want at most %d", step, runs, total, limit)
				}
				files := runFiles(t, dir)
				if len(files) != runs {
					t.Fatalf("step %d: run files %v, %d runs listed", step, files, runs)
				}
			}
			if cuts == 0 || crashes == 0 || len(durable) < 500 {
				t.Fatalf("the model test did not exercise the runs: %d steps with runs, %d crashes, %d URLs durable", cuts, crashes, len(durable))
			}
		})
	}
}

func runFiles(t *testing.T, dir string) []string {
	t.Helper()
	names, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var runs []string
	for _, e := range names {
		if strings.HasPrefix(e.Name(), "seen-") {
			runs = append(runs, e.Name())
		}
	}
	return runs
}

// TestSeenSetFiles: a run file that is not listed (the process died
// between writing it and the commit listing it) or was being written is
// deleted by Open, and a listed run that is shorter than listed is
// refused as corrupt rather than read as a smaller seen set.
func TestSeenSetFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	opts := &Options{SyncInterval: -1, noSync: true, seenRun: 8, Politeness: politeness.Config{MinDelay: -1}}
	f := open(t, dir, opts)
	if _, err := f.Push(ctx, reqs("a.test", 0, 100)...); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	listed := runFiles(t, dir)
	if len(listed) == 0 {
		t.Fatal("no run after 100 URLs in runs of 8")
	}
	for _, stray := range []string{"seen-999.run", "seen-1000.run.tmp"} {
		if err := os.WriteFile(filepath.Join(dir, stray), []byte("12345678"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f = open(t, dir, opts)
	if added, err := f.Push(ctx, reqs("a.test", 0, 101)...); err != nil || added != 1 {
		t.Errorf("after reopen, Push of 100 seen URLs and a new one = %d, %v; want 1, nil", added, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	for _, n := range runFiles(t, dir) {
		if n == "seen-999.run" || n == "seen-1000.run.tmp" {
			t.Errorf("Open left the stray file %s", n)
		}
	}
	run := filepath.Join(dir, runFiles(t, dir)[0])
	st, err := os.Stat(run)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(run, st.Size()-8); err != nil {
		t.Fatal(err)
	}
	if f, err := Open(dir, opts); !errors.Is(err, errCorrupt) {
		if err == nil {
			f.Close()
		}
		t.Errorf("Open with a truncated run = %v, want errCorrupt", err)
	}
}
