package disk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

// scaleEnv names the environment variable that runs TestScale with that
// many URLs: TRAWL_DISK_SCALE=10000000 is the benchmark (10M URLs
// over 100,000 hosts). TRAWL_DISK_SCALE_DIR, if set, is where the store
// goes (default: a temporary directory).
const scaleEnv = "TRAWL_DISK_SCALE"

// TestScale pushes N URLs over N/100 hosts with default options (no
// politeness delay), drains them with 64 workers (each Done synced, so
// concurrent Dones share fsyncs), and reports URLs per second both ways,
// bytes on disk per URL and the peak RSS of the process, which must stay
// under 512 MiB.
func TestScale(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv(scaleEnv))
	if n <= 0 {
		t.Skipf("set %s=N to push and drain N URLs (the issue asks for 10000000)", scaleEnv)
	}
	dir := os.Getenv("TRAWL_DISK_SCALE_DIR")
	if dir == "" {
		dir = t.TempDir()
	} else {
		dir = filepath.Join(dir, fmt.Sprintf("scale-%d", time.Now().UnixNano()))
		t.Cleanup(func() { os.RemoveAll(dir) })
	}
	const workers = 64
	hosts := max(n/100, 1)
	opts := &Options{Workers: workers, Politeness: politeness.Config{MinDelay: -1, Factor: -1}}
	// TRAWL_DISK_SCALE_ORDER=priority pushes under frontier.Priority, each
	// URL with a random priority in [0, 4): keys that land all over the
	// front queues instead of at their ends. =boosted does too, and boosts
	// a URL after the first batch, as an OPIC crawl does from its first
	// page, so that the frontier keeps the index Boost reads from then on.
	order := os.Getenv("TRAWL_DISK_SCALE_ORDER")
	priority, boosted := order == "priority" || order == "boosted", order == "boosted"
	if priority {
		opts.Strategy = frontier.Priority
	}
	rng := rand.New(rand.NewPCG(1, 2))
	f, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx := context.Background()

	start := time.Now()
	const batch = 100 // links per page
	reqs := make([]frontier.Request, 0, batch)
	for i := range n {
		reqs = append(reqs, frontier.Request{
			URL:   fmt.Sprintf("http://h%d.example.com/section/page-%d.html", i%hosts, i/hosts),
			Depth: 2,
		})
		if priority {
			reqs[len(reqs)-1].Priority = 4 * rng.Float64()
		}
		if len(reqs) == batch || i == n-1 {
			if added, err := f.Push(ctx, reqs...); err != nil || added != len(reqs) {
				t.Fatalf("Push = %d, %v; want %d", added, err, len(reqs))
			}
			if boosted && i < batch && !f.Boost(reqs[0].URL, 0.5) {
				t.Fatal("Boost of a queued URL = false")
			}
			reqs = reqs[:0]
		}
	}
	if err := f.Flush(); err != nil {
		t.Fatal(err)
	}
	pushTime := time.Since(start)
	onDisk := dirSize(t, dir)
	t.Logf("push: %d URLs over %d hosts in %v: %.0f URLs/s; %.1f bytes on disk per URL (%d MiB); RSS peak so far %d MiB",
		n, hosts, pushTime.Round(time.Millisecond), float64(n)/pushTime.Seconds(), float64(onDisk)/float64(n), onDisk>>20, peakRSS(t)>>20)

	// Resuming: Open reads the seen set into the Bloom filter and the
	// back queues.
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	if f, err = Open(dir, opts); err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	t.Logf("reopen: %v (Len %d)", time.Since(start).Round(time.Millisecond), f.Len())

	start = time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	drained := 0
	for range workers {
		wg.Go(func() {
			k := 0
			for {
				r, err := f.Next(ctx)
				if errors.Is(err, frontier.ErrEmpty) {
					break
				}
				if err != nil {
					t.Error(err)
					break
				}
				if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
					t.Error(err)
					break
				}
				k++
			}
			mu.Lock()
			drained += k
			mu.Unlock()
		})
	}
	wg.Wait()
	drainTime := time.Since(start)
	if drained != n {
		t.Errorf("drained %d URLs, want %d", drained, n)
	}
	rss := peakRSS(t)
	t.Logf("drain: %d URLs with %d workers in %v: %.0f URLs/s; %d MiB on disk after; peak RSS %d MiB (now %s)",
		drained, workers, drainTime.Round(time.Millisecond), float64(drained)/drainTime.Seconds(), dirSize(t, dir)>>20, rss>>20, rssNow(t))
	if rss > 512<<20 {
		t.Errorf("peak RSS %d MiB, want under 512 MiB", rss>>20)
	}
}

func dirSize(t *testing.T, dir string) int64 {
	t.Helper()
	var total int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				total += fi.Size()
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return total
}

// peakRSS reads VmHWM from /proc/self/status (Linux), in bytes.
func peakRSS(t *testing.T) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	t.Skip("no VmHWM in /proc/self/status")
	return 0
}

// rssNow reads the RSS now from /proc/self/status, split into anonymous
// memory (the heap, stacks) and file-backed pages (bbolt's memory-mapped
// file, which the kernel can take back), for the log.
func rssNow(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	var parts []string
	for line := range strings.Lines(string(data)) {
		for _, name := range []string{"RssAnon:", "RssFile:"} {
			if rest, ok := strings.CutPrefix(line, name); ok {
				kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
				parts = append(parts, fmt.Sprintf("%s %d MiB", strings.TrimSuffix(name, ":"), kb>>10))
			}
		}
	}
	return strings.Join(parts, ", ")
}
