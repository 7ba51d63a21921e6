// Command clusterspider is sitespider spread over many processes and
// machines: every agent started with the same -redis and -crawl takes a
// share of the hosts (package cluster), and the crawl ends, in every agent,
// when the cluster has nothing left to fetch.
//
//	redis-server --port 6379 &
//	clusterspider -redis redis://127.0.0.1:6379 -agent a1 https://example.com/ &
//	clusterspider -redis redis://127.0.0.1:6379 -agent a2 https://example.com/ &
//
// Each agent may be given the same start URLs; it takes the flags of
// sitespider (-max-pages counts over the whole cluster) plus -redis,
// -agent, -crawl, -lease and -max-local. Run it with -h for the flags.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/cluster"
	"github.com/trawl-dev/trawl/internal/spider"
)

func main() {
	var cf clusterFlags
	spider.Program{
		Name: "clusterspider",
		Usage: "clusterspider crawls the hosts of the start URLs and nothing else, together with the other agents " +
			"of its crawl on the same Redis: each agent takes a share of the hosts.",
		Scope:     trawl.SameHost,
		Extension: cf.extension(),
	}.Main()
}

// clusterFlags are the flags clusterspider adds to sitespider's.
type clusterFlags struct {
	redisURL string
	agent    string
	crawl    string
	lease    time.Duration
	maxLocal int
	fs       *flag.FlagSet

	a     *cluster.Agent
	stats atomic.Pointer[trawl.Stats]
}

func (cf *clusterFlags) extension() spider.Extension {
	return spider.Extension{
		Flags: func(fs *flag.FlagSet) {
			cf.fs = fs
			fs.StringVar(&cf.redisURL, "redis", "redis://127.0.0.1:6379", "the crawl's Redis, as a redis:// `URL`")
			fs.StringVar(&cf.agent, "agent", "", "this agent's `NAME`, unique in the crawl (default hostname-pid)")
			fs.StringVar(&cf.crawl, "crawl", cluster.DefaultCrawl, "the crawl's `NAME`: agents with the same -redis and -crawl crawl together")
			fs.IntVar(&cf.maxLocal, "max-local", 0, "keep at most `N` URLs in this agent's memory, the rest in Redis (0 = 64 per -concurrency)")
			fs.DurationVar(&cf.lease, "lease", cluster.DefaultLease, "an agent silent this long is dead: its hosts and URLs pass to the others")
		},
		Options: cf.options,
		Summary: cf.summary,
	}
}

func (cf *clusterFlags) options() ([]trawl.Option, error) {
	ropts, err := redis.ParseURL(cf.redisURL)
	if err != nil {
		return nil, fmt.Errorf("-redis: %w", err)
	}
	maxPages, _ := strconv.ParseInt(cf.fs.Lookup("max-pages").Value.String(), 10, 64)
	rdb := redis.NewClient(ropts)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cf.a, err = cluster.Join(ctx, rdb, &cluster.Options{
		Name: cf.agent, Crawl: cf.crawl, Lease: cf.lease, MaxPages: maxPages, MaxLocal: cf.maxLocal,
		Stats: func() any { return cf.stats.Load() },
	})
	if err != nil {
		rdb.Close()
		return nil, err
	}
	opts := []trawl.Option{
		trawl.WithFrontierFunc(cf.a.Frontier),
		trawl.WithSharedRobots(cf.a.Robots()),
		trawl.WithProgress(time.Second, func(s trawl.Stats) { cf.stats.Store(&s) }),
	}
	if maxPages > 0 {
		opts = append(opts, trawl.WithPageCounter(cf.a))
	}
	return opts, nil
}

// summary leaves the crawl and prints the cluster's totals.
func (cf *clusterFlags) summary(w io.Writer) {
	if cf.a == nil {
		return
	}
	if err := cf.a.Close(); err != nil {
		fmt.Fprintf(os.Stderr, "clusterspider: %v\n", err)
	}
	if err := cf.a.Err(); err != nil {
		fmt.Fprintf(os.Stderr, "clusterspider: %v\n", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	all, err := cf.a.Stats(ctx)
	if err != nil {
		return
	}
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	slices.Sort(names)
	var total int64
	for _, n := range names {
		var s trawl.Stats
		if json.Unmarshal(all[n], &s) != nil {
			continue
		}
		total += s.Fetched
		fmt.Fprintf(w, "agent %s: %d pages\n", n, s.Fetched)
	}
	fmt.Fprintf(w, "cluster: %d agents, %d pages\n", len(names), total)
}
