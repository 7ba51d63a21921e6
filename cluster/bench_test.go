package cluster_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/cluster"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

// opCounter counts the commands and round trips clients send to Redis.
type opCounter struct {
	mu     sync.Mutex
	byName map[string]int64
	trips  atomic.Int64
}

func (h *opCounter) add(cmds ...redis.Cmder) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range cmds {
		h.byName[c.Name()]++
	}
}

func (h *opCounter) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *opCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.add(cmd)
		h.trips.Add(1)
		return next(ctx, cmd)
	}
}

func (h *opCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		h.add(cmds...)
		h.trips.Add(1)
		return next(ctx, cmds)
	}
}

// info returns the fields of one INFO section.
func info(b *testing.B, rdb *redis.Client, section string) map[string]string {
	b.Helper()
	s, err := rdb.Info(context.Background(), section).Result()
	if err != nil {
		b.Fatal(err)
	}
	m := map[string]string{}
	for line := range strings.Lines(s) {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), ":"); ok {
			m[k] = v
		}
	}
	return m
}

func infoFloat(m map[string]string, k string) float64 {
	f, _ := strconv.ParseFloat(m[k], 64)
	return f
}

// BenchmarkClusterCrawl crawls a crawltest web of 40 hosts × 50 pages with
// no politeness delay, so that Redis, not the hosts, sets the pace, and
// reports what one page costs Redis: commands and round trips sent by the
// agents, network bytes in and out, CPU time of Redis's main thread, and
// the memory of the duplicate-URL sets per URL (MEMORY USAGE). The
// package documentation's design note is computed from these figures:
//
//	go test -run='^$' -bench=ClusterCrawl -benchtime=3x ./cluster
//
// The "opic" runs order by trawl.Priority.OPIC, whose cash notes (links
// to URLs queued already) add stream entries.
func BenchmarkClusterCrawl(b *testing.B) {
	for _, tc := range []struct {
		agents int
		opic   bool
	}{{1, false}, {3, false}, {1, true}, {3, true}} {
		agents := tc.agents
		var extra []trawl.Option
		name := fmt.Sprintf("agents=%d", agents)
		if tc.opic {
			extra = append(extra, trawl.WithPriority(trawl.Priority{OPIC: true}))
			name += "/opic"
		}
		b.Run(name, func(b *testing.B) {
			srv := newClient(b)
			counter := &opCounter{byName: map[string]int64{}}
			rdb := redis.NewClient(&redis.Options{Addr: srv.Options().Addr})
			rdb.AddHook(counter)
			b.Cleanup(func() { rdb.Close() })
			web := crawltest.NewTestWeb(b, &crawltest.Options{Seed: 11, Hosts: 40, PagesPerHost: 50})
			ctx := context.Background()
			var pages, urls, cpu, netIn, netOut, mem float64
			run := 0
			for b.Loop() {
				b.StopTimer()
				srv.FlushAll(ctx)
				srv.ConfigResetStat(ctx)
				web.ResetLog()
				cpu0 := info(b, srv, "cpu")
				b.StartTimer()
				var wg sync.WaitGroup
				errs := make([]error, agents)
				for i := range agents {
					wg.Go(func() {
						_, errs[i] = crawlAgent(ctx, rdb, web, fmt.Sprintf("run%d-agent%d", run, i), 0, 0, extra...)
					})
				}
				wg.Wait()
				b.StopTimer()
				for _, err := range errs {
					if err != nil {
						b.Fatal(err)
					}
				}
				for _, r := range web.Log().Requests() {
					if !strings.HasSuffix(r.URL, "/robots.txt") {
						pages++
					}
				}
				cpu1 := info(b, srv, "cpu")
				cpu += infoFloat(cpu1, "used_cpu_user_main_thread") + infoFloat(cpu1, "used_cpu_sys_main_thread") -
					infoFloat(cpu0, "used_cpu_user_main_thread") - infoFloat(cpu0, "used_cpu_sys_main_thread")
				st := info(b, srv, "stats")
				netIn += infoFloat(st, "total_net_input_bytes")
				netOut += infoFloat(st, "total_net_output_bytes")
				keys, err := srv.Keys(ctx, "trawl:u:*").Result()
				if err != nil {
					b.Fatal(err)
				}
				for _, k := range keys {
					urls += float64(srv.HLen(ctx, k).Val())
					mem += float64(srv.MemoryUsage(ctx, k).Val())
				}
				run++
				b.StartTimer()
			}
			var ops float64
			for _, n := range counter.byName {
				ops += float64(n)
			}
			b.ReportMetric(ops/pages, "ops/page")
			b.ReportMetric(float64(counter.trips.Load())/pages, "trips/page")
			b.ReportMetric((netIn+netOut)/pages, "net-B/page")
			b.ReportMetric(cpu/pages*1e6, "redis-µs/page")
			b.ReportMetric(mem/urls, "set-B/url")
			b.ReportMetric(urls/pages, "urls/page")
			names := slices.Sorted(maps.Keys(counter.byName))
			var parts []string
			for _, n := range names {
				parts = append(parts, fmt.Sprintf("%s %.2f", n, float64(counter.byName[n])/pages))
			}
			b.Logf("per page: %s", strings.Join(parts, ", "))
		})
	}
}

// BenchmarkURLSetMemory measures what a URL costs in a host's URL hash in
// Redis once the hash outgrows the compact encoding (128 fields): the
// figure that sizes Redis for a large crawl.
//
//	go test -run='^$' -bench=URLSetMemory ./cluster
func BenchmarkURLSetMemory(b *testing.B) {
	rdb := newClient(b)
	ctx := context.Background()
	for _, n := range []int{100, 10_000, 100_000} {
		b.Run(fmt.Sprintf("urls=%d", n), func(b *testing.B) {
			var per float64
			for b.Loop() {
				rdb.FlushAll(ctx)
				pipe := rdb.Pipeline()
				for i := range n {
					var k [8]byte
					x := uint64(i) * 0x9e3779b97f4a7c15
					for j := range k {
						k[j] = byte(x >> (8 * j))
					}
					pipe.HSet(ctx, "u", string(k[:]), "d")
					if i%1000 == 999 {
						pipe.Exec(ctx)
					}
				}
				pipe.Exec(ctx)
				per = float64(rdb.MemoryUsage(ctx, "u", 0).Val()) / float64(n)
			}
			b.ReportMetric(per, "B/url")
		})
	}
}

// BenchmarkStreamMemory measures what a queued URL costs in an agent's
// stream: entries of 5 requests (a Push sends about that many new URLs to
// one agent) with a 60-byte URL, a short anchor text and the page they
// were found on as their referrer.
//
//	go test -run='^$' -bench=StreamMemory ./cluster
func BenchmarkStreamMemory(b *testing.B) {
	rdb := newClient(b)
	ctx := context.Background()
	const entries, batch = 2000, 5
	var per float64
	for b.Loop() {
		rdb.FlushAll(ctx)
		pipe := rdb.Pipeline()
		for i := range entries {
			reqs := make([]frontier.Request, batch)
			ref := fmt.Sprintf("https://www.example-news-site.com/section/2026/11/story-%06d.html", i)
			for j := range reqs {
				reqs[j] = frontier.Request{URL: fmt.Sprintf("https://www.example-news-site.com/section/2026/11/story-%06d.html", i*batch+j),
					Host: "www.example-news-site.com", Depth: 4, Referrer: ref, Anchor: "Read the whole story"}
			}
			pipe.XAdd(ctx, &redis.XAddArgs{Stream: "q", Values: []string{"r", cluster.EncodeBatchForTest(reqs)}})
		}
		if _, err := pipe.Exec(ctx); err != nil {
			b.Fatal(err)
		}
		per = float64(rdb.MemoryUsage(ctx, "q", 0).Val()) / (entries * batch)
	}
	b.ReportMetric(per, "B/url")
}

// BenchmarkRevisitMemory measures what a page waiting in an agent's
// revisit schedule costs Redis (MEMORY USAGE of the sorted set and the
// hash): 2,000 URLs of a news site, each with an anchor and a 134-byte
// state (a page's history after a few visits, as recrawl encodes it),
// scheduled by Done.
func BenchmarkRevisitMemory(b *testing.B) {
	rdb := newClient(b)
	ctx := context.Background()
	const pages = 2000
	state := []byte(strings.Repeat("h", 134))
	var per float64
	run := 0
	for b.Loop() {
		run++
		crawl := "mem" + strconv.Itoa(run)
		a, err := cluster.Join(ctx, rdb, &cluster.Options{Name: "a", Crawl: crawl})
		if err != nil {
			b.Fatal(err)
		}
		f, err := a.Frontier(frontier.MemoryOptions{Workers: 1, Politeness: politeness.Config{MinDelay: -1, Factor: -1}})
		if err != nil {
			b.Fatal(err)
		}
		reqs := make([]frontier.Request, pages)
		for i := range reqs {
			reqs[i] = frontier.Request{URL: fmt.Sprintf("https://www.example-news-site.com/section/2026/11/story-%06d.html", i),
				Host: fmt.Sprintf("www%d.example-news-site.com", i%50), Depth: 4, Anchor: "Read the whole story"}
		}
		if _, err := f.Push(ctx, reqs...); err != nil {
			b.Fatal(err)
		}
		at := time.Now().Add(time.Hour)
		for range pages {
			req, err := f.Next(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if err := f.Done(req, frontier.Outcome{Status: 200, Revisit: at, State: state}); err != nil {
				b.Fatal(err)
			}
		}
		set, hash := cluster.RevisitKeysForTest(crawl, "a")
		per = float64(rdb.MemoryUsage(ctx, set, 0).Val()+rdb.MemoryUsage(ctx, hash, 0).Val()) / pages
		a.Close()
	}
	b.ReportMetric(per, "B/revisit")
}
