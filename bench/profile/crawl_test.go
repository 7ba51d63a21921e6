package profile

import (
	"bufio"
	"context"
	"errors"
	"net"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/metrics"
	"github.com/trawl-dev/trawl/report"
	"github.com/trawl-dev/trawl/store"
)

func seeds(t *testing.T) ([]string, *crawltest.Web) {
	t.Helper()
	if os.Getenv("TRAWL_BENCH_NAMES") == "1" {
		// Hosts named h0.test, h1.test, … reached through the web's
		// DialContext: the same web with names instead of IPv4 literals.
		web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 1, Hosts: 100, PagesPerHost: 1000})
		return web.Seeds(), web
	}
	path := os.Getenv("TRAWL_BENCH_SEEDS")
	if path == "" {
		if os.Getenv("TRAWL_BENCH_PROFILE") != "1" {
			t.Skip("set TRAWL_BENCH_SEEDS or TRAWL_BENCH_PROFILE=1 to run the profiled crawl")
		}
		web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 1, Hosts: 100, PagesPerHost: 1000, LoopbackIPs: true})
		return web.Seeds(), nil
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out = append(out, l)
		}
	}
	return out, nil
}

// TestCrawl crawls like `sitespider -concurrency 64 -host-concurrency 2
// -delay 0 -max-pages 50000 -allow-private` and checks it fetched the cap.
func TestCrawl(t *testing.T) {
	s, web := seeds(t)
	maxPages := envInt(t, "TRAWL_BENCH_MAX_PAGES", 50000)
	workers := envInt(t, "TRAWL_BENCH_WORKERS", 64)
	perHost := envInt(t, "TRAWL_BENCH_HOST_CONCURRENCY", 2)
	// Memory, sampled once a second while the crawl runs: where the peak RSS
	// goes (heap objects, heap slack, goroutine stacks).
	var peak runtime.MemStats
	var peakG int
	heapPath := os.Getenv("TRAWL_BENCH_HEAP")
	heapDone := false
	heapAt := envInt(t, "TRAWL_BENCH_HEAP_AT", 60)
	if heapPath != "" {
		// One sample per 16 KiB allocated instead of 512 KiB: the live heap
		// here is a few MB, and coarse samples misattribute it.
		runtime.MemProfileRate = 16 << 10
	}
	progress := func(st trawl.Stats) {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		if m.Sys > peak.Sys {
			peak, peakG = m, runtime.NumGoroutine()
		}
		if heapPath != "" && !heapDone && st.Fetch.Pages >= int64(maxPages)*int64(heapAt)/100 {
			heapDone = true
			writeHeap(t, heapPath)
		}
	}
	opts := []trawl.Option{trawl.WithProgress(time.Second, progress)}
	// Connections dialed, to tell keep-alive reuse from reconnection.
	var dials atomic.Int64
	dial := (&net.Dialer{}).DialContext
	if web != nil {
		dial = web.DialContext
	}
	opts = append(opts, trawl.WithDialContext(func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return dial(ctx, network, addr)
	}))
	if n := envInt(t, "TRAWL_BENCH_IDLE_CONNS", 0); n > 0 {
		opts = append(opts, trawl.WithFetchOptions(fetch.Options{MaxIdleConns: n}))
	}
	if os.Getenv("TRAWL_BENCH_WARC") == "1" {
		// What -warc costs: every exchange written as WARC, at the gzip
		// level TRAWL_BENCH_WARC_GZIP, records under
		// TRAWL_BENCH_WARC_MIN_GZIP bytes stored uncompressed (defaults
		// the store's; a huge value stores every record uncompressed).
		w, err := store.NewWARC(t.TempDir(), &store.WARCOptions{
			GzipLevel:   envInt(t, "TRAWL_BENCH_WARC_GZIP", 0),
			MinGzipSize: envInt(t, "TRAWL_BENCH_WARC_MIN_GZIP", 0),
		})
		if err != nil {
			t.Fatal(err)
		}
		opts = append(opts, trawl.WithStore(w))
	}
	// What seeing the crawl costs (issue 22): a decision log written to a
	// file (TRAWL_BENCH_DECISIONS=FILE, TRAWL_BENCH_DECISIONS_OMIT=OUTCOMES
	// to leave some out), the Prometheus collector scraped
	// once a second (TRAWL_BENCH_METRICS=1), the HTML report's recorder
	// (TRAWL_BENCH_REPORT=FILE).
	var events []trawl.Events
	var decisions *trawl.DecisionLog
	if path := os.Getenv("TRAWL_BENCH_DECISIONS"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		decisions = trawl.NewDecisionLog(f)
		record := decisions.Record
		if omit := os.Getenv("TRAWL_BENCH_DECISIONS_OMIT"); omit != "" {
			// As the spiders' -decisions-omit: most lines are duplicate-url.
			record = func(ctx context.Context, d trawl.Decision) {
				if !strings.Contains(","+omit+",", ","+d.Outcome.String()+",") {
					decisions.Record(ctx, d)
				}
			}
		}
		events = append(events, trawl.Events{OnDecision: record})
	}
	var col *metrics.Collector
	if os.Getenv("TRAWL_BENCH_METRICS") == "1" {
		col = metrics.New(nil)
		events = append(events, col.Events())
	}
	var rec *report.Recorder
	reportPath := os.Getenv("TRAWL_BENCH_REPORT")
	if reportPath != "" {
		rec = report.NewRecorder(nil)
		events = append(events, rec.Events())
	}
	if len(events) > 0 {
		opts = append(opts, trawl.WithEvents(trawl.JoinEvents(events...)))
	}
	// TRAWL_BENCH_SPILL=1 spills the default frontier's front queues to a
	// temporary file; TRAWL_BENCH_CLONE_ANCHOR=1 is the experiment behind
	// the report's memory recommendation: the frontier trawl.New builds,
	// with each request's anchor text copied on Push so that it no longer
	// pins its page's text buffer.
	spill, clone := "", os.Getenv("TRAWL_BENCH_CLONE_ANCHOR") == "1"
	if os.Getenv("TRAWL_BENCH_SPILL") == "1" {
		spill = t.TempDir()
	}
	if spill != "" || clone {
		opts = append(opts, trawl.WithFrontier(func(o frontier.MemoryOptions) (frontier.Frontier, error) {
			o.SpillDir = spill
			m := frontier.NewMemory(&o)
			if clone {
				return cloneAnchors{m}, nil
			}
			return m, nil
		}))
	}
	c, err := trawl.New(append(opts,
		trawl.WithSeeds(s...),
		trawl.WithFilters(trawl.SameHost(s...)),
		trawl.WithLimits(trawl.Limits{MaxPages: maxPages}),
		trawl.WithWorkers(workers),
		trawl.WithPoliteness(trawl.Politeness{HostConcurrency: perHost, Delay: trawl.NoDelay}),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithUserAgent("trawlbench/1.0 (+https://example.com/bench)"),
	)...)
	if err != nil {
		t.Fatal(err)
	}
	watchCtx, stopWatch := context.WithCancel(context.Background())
	var watchers sync.WaitGroup
	if col != nil {
		col.Watch(c)
		reg := prometheus.NewRegistry()
		reg.MustRegister(col)
		watchers.Go(func() {
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			for {
				select {
				case <-watchCtx.Done():
					return
				case <-tick.C:
					if _, err := reg.Gather(); err != nil {
						t.Error(err)
					}
				}
			}
		})
	}
	if rec != nil {
		watchers.Go(func() { rec.Watch(watchCtx, c.Stats) })
	}
	runErr := c.Run(context.Background())
	stopWatch()
	watchers.Wait()
	if runErr != nil {
		t.Fatal(runErr)
	}
	st := c.Stats()
	if decisions != nil {
		if err := decisions.Close(); err != nil {
			t.Fatal(err)
		}
		t.Logf("decision log: %d lines", decisions.Lines())
	}
	if rec != nil {
		rec.Add(st)
		f, err := os.Create(reportPath)
		if err != nil {
			t.Fatal(err)
		}
		if err := errors.Join(rec.Report("scenario A").WriteHTML(f), f.Close()); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("at peak Sys %d MB: HeapAlloc %d MB, HeapInuse %d MB, HeapIdle-Released %d MB, StackInuse %d MB, %d goroutines; GC cycles %d, total allocated %d MB (%d KB per page)",
		peak.Sys>>20, peak.HeapAlloc>>20, peak.HeapInuse>>20, (peak.HeapIdle-peak.HeapReleased)>>20, peak.StackInuse>>20, peakG,
		peak.NumGC, peak.TotalAlloc>>20, peak.TotalAlloc>>10/uint64(max(st.Fetch.Pages, 1)))
	t.Logf("runtime at peak: GCSys %d KB, MSpanSys %d KB, BuckHashSys %d KB, OtherSys %d KB, MCacheSys %d KB",
		peak.GCSys>>10, peak.MSpanSys>>10, peak.BuckHashSys>>10, peak.OtherSys>>10, peak.MCacheSys>>10)
	t.Logf("%d pages in %s (%.0f pages/s); %d discovered, %d duplicates; %d connections dialed", st.Fetch.Pages, st.Elapsed, st.Fetch.PerSecond(st.Elapsed), st.URLs.Discovered, st.URLs.Duplicate, dials.Load())
	if st.Fetch.Pages < int64(maxPages)*99/100 {
		t.Errorf("fetched %d pages, want about the cap %d", st.Fetch.Pages, maxPages)
	}
}

func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return n
}

// writeHeap writes a heap profile of the live crawl (go test's
// -memprofile is written after the crawler is gone).
func writeHeap(t *testing.T, path string) {
	runtime.GC()
	f, err := os.Create(path)
	if err != nil {
		t.Error(err)
		return
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		t.Error(err)
	}
}

// cloneAnchors is a frontier that copies each request's anchor text.
type cloneAnchors struct{ *frontier.Memory }

func (f cloneAnchors) Push(ctx context.Context, reqs ...frontier.Request) (int, error) {
	for i := range reqs {
		reqs[i].Anchor = strings.Clone(reqs[i].Anchor)
	}
	return f.Memory.Push(ctx, reqs...)
}
