// Command clusterspider is sitespider spread over many processes and
// machines: every agent started with the same -redis and -crawl takes a
// share of the hosts (package cluster), and the crawl ends, in every agent,
// when the cluster has nothing left to fetch.
//
//	redis-server --port 6379 &
//	clusterspider -redis redis://127.0.0.1:6379 -agent a1 https://example.com/ &
//	clusterspider -redis redis://127.0.0.1:6379 -agent a2 https://example.com/ &
//
// A host is crawled by one agent, its owner (consistent hashing over the
// host names), and its politeness holds cluster-wide, leased in Redis:
// -delay between the starts of its requests, at most -host-concurrency
// of them in flight, whichever agents send them (for a while after an
// agent joins or dies, two may). What spreads over the agents is the
// hosts: a cluster pays when a crawl has many, each agent taking its share
// of them; on one site one agent does all the fetching and the others only
// wait (three agents on one site took twice as long as one process, in
// issue 34). Each URL's data (the metadata and hints it was queued with)
// and, with -opic, its cash travel with it to its host's agent. With
// -recrawl the agents crawl continuously together: each keeps the revisit
// schedule of the pages of its hosts in Redis, with their histories, and
// the schedule of an agent that dies passes to the others with its hosts
// (the summary adds up the revisits of every agent). A -crawl NAME
// lives in Redis after its agents leave: started again, its agents resume
// it, or, when it has finished, fetch nothing and say so; a new NAME
// starts a new crawl.
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
	"strings"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/cluster"
	"github.com/trawl-dev/trawl/trawlcli"
	"github.com/trawl-dev/trawl/urlnorm"
)

func main() {
	// go-redis logs each failed dial itself; the error that matters is
	// the one the command prints.
	redis.SetLogger(quiet{})
	var cf clusterFlags
	cmd := &trawlcli.Command{
		Name: "clusterspider",
		Usage: "clusterspider crawls the hosts of the start URLs and nothing else, together with the other agents " +
			"of its crawl on the same Redis: each agent takes a share of the hosts, and one host is crawled by one agent only, " +
			"so a cluster is faster only when the crawl has many hosts (on one site, one agent does all the work). " +
			"A host's politeness holds across the cluster: -delay between its requests' starts and at most -host-concurrency in flight, whichever agents send them. " +
			"With -opic each agent fetches its most important pages first, the cash of links to other agents' hosts travelling with their URLs. " +
			"With -recrawl the agents crawl continuously together, each revisiting the pages of its hosts; their revisit schedules live in Redis and pass, with the hosts, to the agents that take a dead agent's over. " +
			"A crawl (-crawl NAME) stays in Redis: the same NAME again resumes it, or does nothing once it has finished; a new NAME starts afresh.",
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

	a        *cluster.Agent
	ctx      context.Context // the crawl's: cancelled on SIGINT or SIGTERM
	crawler  atomic.Pointer[trawl.Crawler]
	maxPages int64
	seeds    []string // the start URLs, whose hosts the summary's ownership note counts
	perIP    bool     // -per-ip: hosts are shared out by address, not by name
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
	cf.ctx = ctx
	if s.FlagSet("state") {
		return errors.New("-state: a cluster's frontier lives in Redis")
	}
	ropts, err := redis.ParseURL(cf.redisURL)
	if err != nil {
		return fmt.Errorf("-redis: %w", err)
	}
	maxPages, _ := strconv.Atoi(s.Flag("max-pages"))
	cf.maxPages = int64(maxPages)
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
	cf.seeds, cf.perIP = seeds, s.Flag("per-ip") == "true"
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
// pages, as they published them, and why this agent fetched nothing when
// it did not.
func (cf *clusterFlags) summary(w io.Writer, mine trawl.Stats) {
	if cf.a == nil {
		return
	}
	if err := cf.a.Close(); err != nil {
		fmt.Fprintf(w, "cluster: %v\n", err)
	}
	// Wait (a lease at most) for the agents still in the crawl to leave
	// and publish their last stats, so that every agent's summary counts
	// the same pages: the crawl ends in all of them at about the same
	// time, and the first out would otherwise read the others' stats of a
	// heartbeat ago (531 against 486 pages in issue 34).
	// Not after Ctrl-C: the user wants out.
	wait := max(cf.lease, 2*time.Second)
	if cf.ctx != nil && cf.ctx.Err() != nil {
		wait = 0
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait+5*time.Second)
	defer cancel()
	still, err := waitOthers(ctx, cf.a, wait)
	if err != nil {
		fmt.Fprintf(w, "cluster: %v\n", err)
	}
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
	var total, revisits, changes int64
	for _, n := range names {
		var st trawl.Stats
		if json.Unmarshal(all[n], &st) != nil {
			continue
		}
		total += st.Fetch.Pages
		revisits += st.Recrawl.Revisits
		changes += st.Recrawl.Changes
		if mine.Recrawl.Scheduled > 0 || st.Recrawl.Revisits > 0 {
			fmt.Fprintf(w, "agent %s: %d pages, %d of them revisits\n", n, st.Fetch.Pages, st.Recrawl.Revisits)
		} else {
			fmt.Fprintf(w, "agent %s: %d pages\n", n, st.Fetch.Pages)
		}
	}
	if len(still) == 0 {
		fmt.Fprintf(w, "cluster %q: %d agents, %d pages (final: every agent has left)\n", cf.crawlName, len(names), total)
	} else {
		fmt.Fprintf(w, "cluster %q: %d agents, %d pages so far (as each agent last published them; still crawling: %s)\n",
			cf.crawlName, len(names), total, strings.Join(still, ", "))
	}
	if mine.Recrawl.Scheduled > 0 || revisits > 0 {
		// A dead agent's pages are in its last stats and, once revisited,
		// in its heirs': the pages kept are counted in Redis, once each.
		kept, err := cf.a.Scheduled(ctx)
		if err != nil {
			fmt.Fprintf(w, "cluster: %v\n", err)
		}
		fmt.Fprintf(w, "cluster %q: %d revisits, %d changes seen, %d pages in the revisit schedules\n", cf.crawlName, revisits, changes, kept)
	}
	if note := idleNote(cf.crawlName, mine, cf.maxPages, total); note != "" {
		fmt.Fprintln(w, note)
	}
	if !cf.perIP {
		if note := ownerNote(cf.crawlName, cf.a.Name(), cf.a.Ring(), cf.seeds); note != "" {
			fmt.Fprintln(w, note)
		}
	}
}

// ownerNote says when this agent owns none of the start URLs' hosts in
// the ring it last saw: one host has one owner, so with fewer hosts than
// agents (or an unlucky hash) an agent has nothing to crawl once the
// agents have seen each other, which its summary would otherwise leave
// the user to guess (on three documentation sites, a third agent crawled
// for 17 s, then sat idle for 73).
func ownerNote(crawl, me string, ring *cluster.Ring, seeds []string) string {
	if ring == nil || ring.Len() < 2 {
		return ""
	}
	hosts := map[string]bool{}
	for _, s := range seeds {
		if k, err := urlnorm.KeyString(s); err == nil {
			hosts[k] = true
		}
	}
	if len(hosts) == 0 {
		return ""
	}
	for h := range hosts {
		if ring.Owner(h) == me {
			return ""
		}
	}
	return fmt.Sprintf("cluster %q: this agent owns none of the %d hosts of the start URLs among the %d agents it last saw "+
		"(one host, one owner: it crawls only what reached it before the agents saw each other, or from an agent that died); "+
		"a cluster pays on crawls of many more hosts than agents", crawl, len(hosts), ring.Len())
}

// waitOthers waits, up to wait, until a is the only agent left in its
// crawl, and returns the agents still in it then.
func waitOthers(ctx context.Context, a *cluster.Agent, wait time.Duration) ([]string, error) {
	deadline := time.Now().Add(wait)
	for {
		still, err := a.Others(ctx)
		if err != nil || len(still) == 0 || time.Now().After(deadline) {
			return still, err
		}
		select {
		case <-ctx.Done():
			return still, nil
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// idleNote says why an agent fetched nothing, when the reason is the
// crawl's state in Redis rather than the web: a crawl of that name that
// reached its page limit, or that has seen every start URL (it finished,
// or other agents crawl it). "" when the agent fetched pages.
func idleNote(crawl string, mine trawl.Stats, maxPages, clusterPages int64) string {
	if mine.Fetch.Pages > 0 {
		return ""
	}
	switch {
	case maxPages > 0 && clusterPages >= maxPages:
		return fmt.Sprintf("cluster %q: this agent fetched nothing: the crawl has reached -max-pages %d, counted over the whole cluster and over earlier runs with this -crawl name; "+
			"give a new -crawl NAME to crawl again", crawl, maxPages)
	case mine.URLs.Discovered > 0 && mine.URLs.Discovered == mine.URLs.Duplicate:
		return fmt.Sprintf("cluster %q: this agent fetched nothing: the crawl had seen every start URL already (an earlier run with this -crawl name, or the agents crawling it now); "+
			"if it is finished, give a new -crawl NAME to crawl again; to resume a crawl that was stopped, start its agents with the same -crawl NAME, as this one was", crawl)
	}
	return ""
}

// quiet is a go-redis logger that drops what it is given.
type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}
