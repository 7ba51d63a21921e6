package frontier_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

// The large benchmarks queue 1,000,000 URLs over 10,000 hosts, as a crawl of
// a few thousand sites would. They run only under -bench.
const (
	benchURLs  = 1_000_000
	benchHosts = 10_000
)

// benchRequests returns n requests over benchHosts hosts, round robin, with
// the Host set (as the crawler sets it) and a shared Referrer.
func benchRequests(n int) []frontier.Request {
	reqs := make([]frontier.Request, n)
	for i := range reqs {
		host := fmt.Sprintf("h%05d.example", i%benchHosts)
		reqs[i] = frontier.Request{
			URL:      fmt.Sprintf("http://%s/articles/%d.html", host, i),
			Host:     host,
			Depth:    2,
			Referrer: "http://seed.example/",
		}
	}
	return reqs
}

var benchReqs = sync.OnceValue(func() []frontier.Request { return benchRequests(benchURLs) })

func benchOptions(workers int) *frontier.MemoryOptions {
	return &frontier.MemoryOptions{Workers: workers, Politeness: noDelay}
}

func fill(b *testing.B, f *frontier.Memory, reqs []frontier.Request) {
	b.Helper()
	for i := 0; i < len(reqs); i += 1000 {
		if _, err := f.Push(context.Background(), reqs[i:min(i+1000, len(reqs))]...); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMemoryFootprint measures the heap a Memory frontier holds for
// 1M queued URLs over 10k hosts, beyond the URL strings themselves (they
// are allocated before the measurement), and reports it as bytes/URL.
//
// With spill=true the front queues spill to a file in a temporary directory
// (MemoryOptions.SpillDir): what remains is the seen set, the host table and
// the few blocks at the ends of each queue. With data=32 every request
// carries 32 bytes of Request.Data (a crawler's hints), which the
// measurement includes.
func BenchmarkMemoryFootprint(b *testing.B) {
	plain := benchReqs()
	for _, c := range []struct {
		spill bool
		data  int
	}{{false, 0}, {true, 0}, {false, 32}} {
		reqs := plain
		name := fmt.Sprintf("urls=%d/hosts=%d/spill=%v", benchURLs, benchHosts, c.spill)
		if c.data > 0 {
			name += fmt.Sprintf("/data=%d", c.data)
			reqs = slices.Clone(plain)
			data := make([]byte, c.data)
			for i := range reqs {
				reqs[i].Data = data // Push copies it
			}
		}
		spill := c.spill
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var perURL float64
			for b.Loop() {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				opts := benchOptions(16)
				if spill {
					opts.SpillDir = b.TempDir()
				}
				f := frontier.NewMemory(opts)
				fill(b, f, reqs)
				runtime.GC()
				runtime.ReadMemStats(&after)
				if f.Len() != benchURLs {
					b.Fatalf("Len() = %d, want %d", f.Len(), benchURLs)
				}
				perURL = float64(after.HeapAlloc-before.HeapAlloc) / benchURLs
				if spill && f.SpillStats().Entries == 0 {
					b.Fatal("nothing spilled")
				}
				if err := f.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(perURL, "bytes/URL")
		})
	}
}

// BenchmarkMemoryPush pushes URLs one call each into a frontier that grows to
// 1M URLs over 10k hosts (then starts again).
//
// With spill=true the front queues spill to a file (MemoryOptions.SpillDir):
// every 128th push writes a block.
func BenchmarkMemoryPush(b *testing.B) {
	reqs := benchReqs()
	for _, spill := range []bool{false, true} {
		b.Run(fmt.Sprintf("urls=%d/hosts=%d/spill=%v", benchURLs, benchHosts, spill), func(b *testing.B) {
			b.ReportAllocs()
			ctx := context.Background()
			opts := benchOptions(16)
			if spill {
				opts.SpillDir = b.TempDir()
			}
			f := frontier.NewMemory(opts)
			defer func() { f.Close() }()
			i := 0
			for b.Loop() {
				if i == len(reqs) {
					b.StopTimer()
					f.Close()
					f, i = frontier.NewMemory(opts), 0
					b.StartTimer()
				}
				if _, err := f.Push(ctx, reqs[i]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkMemoryNextDone hands out and finishes URLs from a frontier
// holding 1M URLs over 10k hosts (more if b.N is larger), with no politeness
// delay so the data structure is what is measured, from 1, 2 and 16
// goroutines at once. One op is one Next plus one Done.
//
// The goroutines share b.N through a counter, so this benchmark uses b.N
// rather than b.Loop.
//
// With spill=true the front queues spill to a file (MemoryOptions.SpillDir),
// so most Next calls that refill a back queue read a block back.
func BenchmarkMemoryNextDone(b *testing.B) {
	for _, spill := range []bool{false, true} {
		for _, g := range []int{1, 2, 16} {
			b.Run(fmt.Sprintf("urls=%d/hosts=%d/goroutines=%d/spill=%v", benchURLs, benchHosts, g, spill), func(b *testing.B) {
				reqs := benchReqs()
				if b.N > len(reqs) {
					reqs = benchRequests(b.N)
				}
				opts := benchOptions(g)
				if spill {
					opts.SpillDir = b.TempDir()
				}
				f := frontier.NewMemory(opts)
				defer f.Close()
				fill(b, f, reqs)
				ctx := context.Background()
				var ops atomic.Int64
				var wg sync.WaitGroup
				b.ReportAllocs()
				b.ResetTimer()
				for range g {
					wg.Go(func() {
						for ops.Add(1) <= int64(b.N) {
							r, err := f.Next(ctx)
							if err != nil {
								b.Error(err)
								return
							}
							if err := f.Done(r, frontier.Outcome{Status: 200}); err != nil {
								b.Error(err)
								return
							}
						}
					})
				}
				wg.Wait()
			})
		}
	}
}

// BenchmarkMemoryIdleWorkers is a crawl of one host, one request at a
// time, by 1 or 16 workers: each op is a Next, a Push of the page's one new
// link and a Done. With 16 workers, 15 wait in Next, and each Push and Done
// wakes them all: what that costs is the difference between the two (about
// a microsecond an op on the project's 2-core VM, against a crawled page's
// 0.5 ms or more, which is why the waiters are still woken all at once).
// cpu-ns/op is the process's CPU time per op.
func BenchmarkMemoryIdleWorkers(b *testing.B) {
	for _, workers := range []int{1, 16} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			f := frontier.NewMemory(&frontier.MemoryOptions{Workers: workers, Politeness: politeness.Config{MinDelay: -1}})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var next atomic.Int64
			if _, err := f.Push(ctx, frontier.Request{URL: "http://h.test/0", Depth: 1}); err != nil {
				b.Fatal(err)
			}
			var ru0, ru1 syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
			b.ResetTimer()
			var wg sync.WaitGroup
			for range workers {
				wg.Go(func() {
					for {
						r, err := f.Next(ctx)
						if err != nil {
							return
						}
						n := next.Add(1)
						if n < int64(b.N) {
							f.Push(ctx, frontier.Request{URL: "http://h.test/" + strconv.FormatInt(n, 10), Depth: 2})
						}
						f.Done(r, frontier.Outcome{Status: 200})
					}
				})
			}
			wg.Wait()
			b.StopTimer()
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
			cpu := ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano()
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkMemoryPushPage pushes what a crawled page gives the frontier:
// one batch of 30 links on one host, all but 2 already seen (the share on
// the real sites of bench/docsites.sh), each with its Host set, as the
// crawler sets it. The batch's working space is kept between calls, so a
// batch allocates only for the URLs it queues (5.3 KB and 7 allocations a
// batch when it was on the heap for every call, 0.7 KB and 3 since).
func BenchmarkMemoryPushPage(b *testing.B) {
	f := frontier.NewMemory(nil)
	ctx := context.Background()
	batch := make([]frontier.Request, 30)
	for i := range batch {
		batch[i] = frontier.Request{URL: fmt.Sprintf("http://docs.test/page/%d.html", i), Host: "docs.test", Depth: 2, Referrer: "http://docs.test/"}
	}
	if _, err := f.Push(ctx, batch...); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for j := range 2 {
			batch[j].URL = "http://docs.test/new/" + strconv.Itoa(n) + "-" + strconv.Itoa(j) + ".html"
		}
		n++
		if added, err := f.Push(ctx, batch...); err != nil || added != 2 {
			b.Fatalf("Push = %d, %v; want 2 added", added, err)
		}
	}
}
