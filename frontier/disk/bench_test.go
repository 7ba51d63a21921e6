package disk

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

func benchRequests(n, hosts int) []frontier.Request {
	reqs := make([]frontier.Request, n)
	for i := range reqs {
		reqs[i] = frontier.Request{URL: fmt.Sprintf("http://h%d.example.com/section/page-%d.html", i%hosts, i/hosts), Depth: 2}
	}
	return reqs
}

// BenchmarkPush pushes batches of 100 new URLs into a frontier that
// already holds size URLs; ns/op is per batch. Under Priority each URL
// has a random priority (keys all over the front queue); "boosted" boosts
// a URL after the first batch, as an OPIC crawl does from its first page,
// so that the frontier keeps the index Boost reads from then on.
// "disk-B/URL" is the bbolt file's size per URL queued at the end.
func BenchmarkPush(b *testing.B) {
	for _, tc := range []struct {
		name     string
		strategy frontier.Strategy
		boost    bool
	}{
		{name: "bfs", strategy: frontier.BFS},
		{name: "priority", strategy: frontier.Priority},
		{name: "boosted", strategy: frontier.Priority, boost: true},
	} {
		strategy, name := tc.strategy, tc.name
		for _, size := range []int{1_000, 100_000} {
			b.Run(fmt.Sprintf("%s/size=%d", name, size), func(b *testing.B) {
				dir := b.TempDir()
				f, err := Open(dir, &Options{Strategy: strategy, Politeness: politeness.Config{MinDelay: -1}})
				if err != nil {
					b.Fatal(err)
				}
				defer f.Close()
				ctx := context.Background()
				rng := rand.New(rand.NewPCG(1, 2))
				prio := func() float64 {
					if strategy == frontier.Priority {
						return 4 * rng.Float64()
					}
					return 0
				}
				pre := benchRequests(size, 100)
				for i := range pre {
					pre[i].Priority = prio()
				}
				for i := 0; i < len(pre); i += 100 {
					f.Push(ctx, pre[i:i+100]...)
					if i == 0 && tc.boost && !f.Boost(pre[0].URL, 0.5) {
						b.Fatal("Boost of a queued URL = false")
					}
				}
				if err := f.Flush(); err != nil { // the timed part starts with nothing to commit
					b.Fatal(err)
				}
				b.ReportAllocs()
				batch := make([]frontier.Request, 100)
				n := 0
				for b.Loop() {
					for i := range batch {
						batch[i] = frontier.Request{URL: fmt.Sprintf("http://new%d.example.com/p%d", n%1000, n), Depth: 2, Priority: prio()}
						n++
					}
					if added, err := f.Push(ctx, batch...); err != nil || added != len(batch) {
						b.Fatalf("Push = %d, %v", added, err)
					}
				}
				b.StopTimer()
				if err := f.Flush(); err != nil {
					b.Fatal(err)
				}
				var onDisk int64
				if fi, err := os.Stat(filepath.Join(dir, storeFile)); err == nil {
					onDisk = fi.Size()
				}
				b.ReportMetric(float64(onDisk)/float64(size+n), "disk-B/URL")
			})
		}
	}
}

// BenchmarkPushSeen pushes batches of 100 URLs already seen: the common
// case in a crawl, where most links point to known pages.
func BenchmarkPushSeen(b *testing.B) {
	f, err := Open(b.TempDir(), &Options{Politeness: politeness.Config{MinDelay: -1}})
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	ctx := context.Background()
	reqs := benchRequests(10_000, 100)
	for i := 0; i < len(reqs); i += 100 {
		f.Push(ctx, reqs[i:i+100]...)
	}
	if err := f.Flush(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if added, _ := f.Push(ctx, reqs[i:i+100]...); added != 0 {
			b.Fatalf("Push(seen) added %d", added)
		}
		i = (i + 100) % len(reqs)
	}
}

// BenchmarkNextDone hands out and finishes URLs, each Done synced, from
// parallel workers (concurrent Dones share fsyncs).
func BenchmarkNextDone(b *testing.B) {
	f, err := Open(b.TempDir(), &Options{Workers: 16, Politeness: politeness.Config{MinDelay: -1, Factor: -1}})
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	ctx := context.Background()
	reqs := benchRequests(200_000, 1000)
	for i := 0; i < len(reqs); i += 100 {
		f.Push(ctx, reqs[i:i+100]...)
	}
	if err := f.Flush(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
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
