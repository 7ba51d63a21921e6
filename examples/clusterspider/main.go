// Command clusterspider is sitespider spread over many processes and
// machines: every agent started with the same -redis and -crawl takes a
// share of the hosts (package cluster), and the crawl ends, in every agent,
// when the cluster has nothing left to fetch.
//
//	redis-server --port 6379 &
//	clusterspider -redis redis://127.0.0.1:6379 -agent a1 https://example.com/ &
//	clusterspider -redis redis://127.0.0.1:6379 -agent a2 https://example.com/ &
//
// Every agent may be given the same start URLs. It takes the flags of
// sitespider (-max-pages counts over the whole cluster) plus -redis,
// -agent, -crawl, -lease and -max-local; run it with -h for them all. The
// crawler is sitespider's trawl.New call below plus the agent's frontier,
// its shared robots.txt store and its page counter.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/cluster"
	"github.com/trawl-dev/trawl/trawlcli"
)

func main() {
	// go-redis logs each failed dial itself; the error that matters is
	// the one the command prints.
	redis.SetLogger(quiet{})
	var cf clusterFlags
	cmd := &trawlcli.Command{
		Name: "clusterspider",
		Usage: "clusterspider crawls the hosts of the start URLs and nothing else, together with the other agents " +
			"of its crawl on the same Redis: each agent takes a share of the hosts.",
		Crawl:    cf.crawl,
		Features: []trawlcli.Feature{cf.feature()},
	}
	cmd.Main()
}

// clusterFlags are the flags clusterspider adds to sitespider's, and the
// agent they make.
type clusterFlags struct {
	redisURL  string
	agent     string
	crawlName string
	lease     time.Duration
	maxLocal  int

	a       *cluster.Agent
	crawler atomic.Pointer[trawl.Crawler]
}

func (cf *clusterFlags) feature() trawlcli.Feature {
	return trawlcli.Feature{
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&cf.redisURL, "redis", "redis://127.0.0.1:6379", "the crawl's Redis, as a redis:// `URL`")
			fs.StringVar(&cf.agent, "agent", "", "this agent's `NAME`, unique in the crawl (default hostname-pid)")
			fs.StringVar(&cf.crawlName, "crawl", cluster.DefaultCrawl, "the crawl's `NAME`: agents with the same -redis and -crawl crawl together")
			fs.DurationVar(&cf.lease, "lease", cluster.DefaultLease, "an agent silent this long is dead: its hosts and URLs pass to the others")
			fs.IntVar(&cf.maxLocal, "max-local", 0, "keep at most `N` URLs in this agent's memory, the rest in Redis (0 = 64 per -concurrency)")
		},
		Summary: cf.summary,
	}
}

// crawl joins the cluster, crawls as sitespider does with the agent's
// frontier, and leaves.
func (cf *clusterFlags) crawl(ctx context.Context, s *trawlcli.Session) error {
	if s.FlagSet("state") {
		return errors.New("-state: a cluster's frontier lives in Redis")
	}
	if n, _ := strconv.Atoi(s.Flag("host-concurrency")); n > 1 {
		return errors.New("-host-concurrency: a cluster keeps one request per host in flight")
	}
	ropts, err := redis.ParseURL(cf.redisURL)
	if err != nil {
		return fmt.Errorf("-redis: %w", err)
	}
	maxPages, _ := strconv.Atoi(s.Flag("max-pages"))
	rdb := redis.NewClient(ropts)
	defer rdb.Close()
	jctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cf.a, err = cluster.Join(jctx, rdb, &cluster.Options{
		Name: cf.agent, Crawl: cf.crawlName, Lease: cf.lease, MaxPages: int64(maxPages), MaxLocal: cf.maxLocal,
		Stats: func() any {
			if c := cf.crawler.Load(); c != nil {
				return c.Stats()
			}
			return nil
		},
	})
	if err != nil {
		return trawlcli.Exit(1, err)
	}
	seeds := s.Seeds()
	// The cluster: URLs, politeness, robots.txt and the page limit (when
	// -max-pages sets one) are shared through Redis.
	shared := trawl.Shared{Robots: cf.a.Robots()}
	if maxPages > 0 {
		shared.Pages = cf.a
	}
	c, err := trawl.New(append(s.Options(), // the flags: limits, politeness, stores, progress line
		trawl.WithSeeds(seeds...),
		trawl.WithFilters(trawl.SameHost(seeds...)),
		trawl.WithFrontier(cf.a.Frontier),
		trawl.WithShared(shared),
	)...)
	if err != nil {
		cf.a.Close()
		return err
	}
	cf.crawler.Store(c)
	runErr := s.Run(ctx, c) // the summary, cf.summary included, is written here
	if err := cf.a.Err(); err != nil {
		runErr = errors.Join(runErr, err)
	}
	return runErr
}

// summary leaves the crawl and writes the cluster's lines: each agent's
// pages, as they published them.
func (cf *clusterFlags) summary(w io.Writer, _ trawl.Stats) {
	if cf.a == nil {
		return
	}
	if err := cf.a.Close(); err != nil {
		fmt.Fprintf(w, "cluster: %v\n", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	all, err := cf.a.Stats(ctx)
	if err != nil {
		fmt.Fprintf(w, "cluster: %v\n", err)
		return
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range all {
			if !yield(n) {
				return
			}
		}
	})
	var total int64
	for _, n := range names {
		var st trawl.Stats
		if json.Unmarshal(all[n], &st) != nil {
			continue
		}
		total += st.Fetch.Pages
		fmt.Fprintf(w, "agent %s: %d pages\n", n, st.Fetch.Pages)
	}
	fmt.Fprintf(w, "cluster %q: %d agents, %d pages\n", cf.crawlName, len(names), total)
}

// quiet is a go-redis logger that drops what it is given.
type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}
