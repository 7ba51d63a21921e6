package soak_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/store"
)

const (
	soakEnv     = "TRAWL_SOAK"          // a Go duration: run the soak that long
	soakOutEnv  = "TRAWL_SOAK_OUT"      // a path: write the samples there as a Markdown table
	soakProfEnv = "TRAWL_SOAK_PROFILES" // a directory: write a heap profile there at each sample

	defaultDuration = 2 * time.Minute
	shortDuration   = 30 * time.Second

	hosts       = 1000
	workers     = 32
	contactRate = 100 // contacts per second over all hosts, at most
	// maxIdle is below the number of hosts, so the idle-connection pool
	// is always full and evicts: the soak exercises connection churn
	// (dial, evict, close on both ends) and not only reuse. It also keeps
	// the goroutines, and so the race detector's memory, modest.
	maxIdle      = 256
	maxBodyBytes = 256 << 10
	soakUA       = "trawlsoak/1.0 (+https://github.com/trawl-dev/trawl)"

	// minRate is the least progress, in fetches per second, that counts
	// as a crawl that is not stalled: a twentieth of contactRate, which a
	// loaded CI machine under the race detector still reaches.
	minRate = 5

	// maxTrapRequestsPerHost bounds the requests one host's traps get
	// over the whole soak. The default trap rules stop each trap within
	// a few dozen steps; an unbounded trap gets far more in minutes.
	maxTrapRequestsPerHost = 500
)

// Margins of the flatness checks (see checkCount and checkMemory).
const (
	// growth is how much a metric's level may rise from the middle
	// third to the last (mean for counts, floor for memory), and
	// peakGrowth how far above its warm-up peak it may go after warm-up.
	growth     = 1.10
	peakGrowth = 1.25

	// perConnGoroutines and perConnFDs are what one keep-alive connection
	// on loopback costs: the client's read and write loops and the
	// server's connection goroutine; a socket at each end.
	perConnGoroutines = 3
	perConnFDs        = 2

	// goroutineSlack and fdSlack absorb the connections in use, which
	// vary by up to one per worker between two samples.
	goroutineSlack = perConnGoroutines * workers
	fdSlack        = perConnFDs * workers

	// bytesPerURL is what the crawl may keep for each URL the frontier
	// accepts and for each page fetched: the frontier's seen-set costs
	// 8 bytes per slot at a load of 0.5 to 0.75 (about 13 bytes per URL,
	// 27 while its table is copied to a larger one), and the trap rules
	// remember a 64-bit hash of every page's text in a map (10 to 20
	// bytes per page). Memory that grows with the crawl's history is
	// allowed this much per item and nothing more.
	bytesPerURL = 32

	// inFlight is the heap fetches in progress may hold at once: per
	// worker, a body of up to maxBodyBytes, the buffer it was read into
	// (grown by doubling, so up to twice that) and the text extracted
	// from it (at most as long).
	inFlight = workers * 4 * maxBodyBytes

	// heapSlack and rssSlack absorb the granularity of the heap (spans,
	// size classes, the GC's pacing) and of the runtime's other memory
	// (stacks, the scavenger's lag).
	heapSlack = 4 << 20
	rssSlack  = 16 << 20

	// returnWithin bounds how long Run may take to return once its
	// context ends: fetches end at once on cancellation, and the slowest
	// thing a worker may be doing then is a 2 s fetch.
	returnWithin = 30 * time.Second
)

// sample is one row of the soak's table. Memory is probed every
// probeEvery; a row holds the figure at its time and the lowest and highest
// since the previous row.
type sample struct {
	at                     time.Duration // since Run was called
	rss, rssMin, rssMax    uint64        // VmRSS in bytes; 0 where unknown
	live, liveMin, liveMax uint64        // live heap as of the last GC (/gc/heap/live:bytes)
	heapInuse              uint64        // runtime.MemStats.HeapInuse
	goroutines             int
	fds                    int   // open file descriptors; -1 where unknown
	fetched                int64 // Stats.Fetch.Pages
	queued                 int   // Stats.URLs.Queued
	spilled                int   // of those, in the frontier's spill file (the rest are in memory)
	accepted               int64 // URLs the frontier accepted: Stats.URLs.Discovered - Stats.URLs.Duplicate
	traps                  int64 // requests for trap URLs so far
	beforeLimit            bool  // taken before the deadline (not during shutdown)
}

// probeEvery is how often memory is probed between samples, so that the
// floor of a phase is found even when fetches in progress hold memory at
// most sample times.
const probeEvery = 250 * time.Millisecond

// memProbe tracks the memory figures between two samples.
type memProbe struct {
	metric                 []metrics.Sample
	rss, rssMin, rssMax    uint64
	live, liveMin, liveMax uint64
}

func newMemProbe() *memProbe {
	p := &memProbe{metric: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	p.probe()
	p.reset()
	return p
}

func (p *memProbe) probe() {
	metrics.Read(p.metric)
	if p.metric[0].Value.Kind() == metrics.KindUint64 {
		p.live = p.metric[0].Value.Uint64()
	}
	p.rss, _ = rss()
	p.liveMin, p.liveMax = min(p.liveMin, p.live), max(p.liveMax, p.live)
	p.rssMin, p.rssMax = min(p.rssMin, p.rss), max(p.rssMax, p.rss)
}

func (p *memProbe) reset() {
	p.liveMin, p.liveMax, p.rssMin, p.rssMax = p.live, p.live, p.rss, p.rss
}

// TestSoak crawls a hostile web of 1,000 hosts for 2 minutes (30 s with
// -short, TRAWL_SOAK to choose) and checks that the crawler's goroutines,
// open files and memory stay flat after warm-up, that it makes progress
// through every trap and fault, and that it stops promptly and completely
// when its context ends. See the package doc.
func TestSoak(t *testing.T) {
	d := soakDuration(t)
	every := min(max(d/24, time.Second), 10*time.Second)
	t.Logf("soak: %v, samples every %v, %d hosts, %d workers, at most %d contacts/s, race detector %v",
		d, every, hosts, workers, contactRate, raceEnabled)

	perHost := pagesPerHost(d)
	web := crawltest.NewTestWeb(t, &crawltest.Options{
		Seed:  15,
		Hosts: hosts,
		// Three times the pages the crawl could fetch at contactRate, so
		// that it still has work at the deadline (a quarter of the hosts
		// deny it everything: robots.txt answers 500 or trickles).
		PagesPerHost:  perHost,
		RobotsVariety: true,
		CrawlDelay:    500 * time.Millisecond,
		Faults: crawltest.Faults{
			Calendar:         true,
			DeepPaths:        true,
			SessionIDs:       true,
			Soft404:          true,
			MetaRefresh:      true,
			SlowRobots:       time.Second,
			RedirectChain:    4,
			RedirectLoop:     true,
			Slow:             time.Second,
			Hang:             true,
			Reset:            true,
			ServerErrors:     true,
			TooManyRequests:  true,
			EndlessBody:      true,
			HugeBody:         true,
			GzipBomb:         true,
			WrongContentType: true,
			InvalidUTF8:      true,
			LegacyCharsets:   true,
			MalformedHTML:    true,
		},
	})

	var stored, legacy atomic.Int64
	count := store.Func(func(_ context.Context, p *trawl.Page) error {
		stored.Add(1)
		if p.Charset != "" && !strings.EqualFold(p.Charset, "utf-8") {
			legacy.Add(1)
		}
		return nil
	})

	// The baseline: the web is up, the crawler not yet built.
	baseGoroutines := runtime.NumGoroutine()
	baseFDs, fdErr := openFDs()
	if fdErr != nil {
		t.Logf("open files not sampled: %v", fdErr)
	}
	if _, err := rss(); err != nil {
		t.Logf("RSS not sampled (%s): %v", runtime.GOOS, err)
	}
	t.Logf("baseline: %d goroutines, %d open files", baseGoroutines, baseFDs)

	var front *frontier.Memory // set by New, read by the samples
	spill := t.TempDir()       // the front queues spill here

	c, err := trawl.New(
		trawl.WithSeeds(seeds(t, web, perHost)...),
		trawl.WithUserAgent(soakUA),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithWorkers(workers),
		trawl.WithPoliteness(trawl.Politeness{Delay: 5 * time.Millisecond}),
		// The default frontier with every host in a back queue (not
		// Mercator's three per worker) and a global rate: all hosts are
		// crawled side by side at a steady pace, so the load is the same
		// from the first minute to the last. Once fewer hosts than that
		// have URLs (the hosts robots.txt closes run dry first), each
		// refill moves the whole front queue into the in-memory back
		// queues, spill or not: the "spilled" column shows when.
		// TRAWL_SOAK_BACKQUEUES=0 keeps the frontier's default (three
		// per worker) instead, where that limit is not reached while
		// more hosts than back queues have URLs.
		trawl.WithFrontier(func(o frontier.MemoryOptions) (frontier.Frontier, error) {
			o.SpillDir = spill
			o.BackQueues = backQueues(t)
			o.Politeness.Rate = rate.Limit(contactRate)
			front = frontier.NewMemory(&o)
			return front, nil
		}),
		trawl.WithStore(count),
		// Hanging and trickling answers end after 2 s. 256 KiB bounds
		// what a huge or endless body or the gzip bomb costs per worker,
		// and so the noise those put on the memory figures and the
		// memory the test takes in CI; the soak is about what piles up,
		// TestCrawlFaults in the root package about the 1 MiB case.
		trawl.WithFetchOptions(fetch.Options{Timeout: 2 * time.Second, MaxBodyBytes: maxBodyBytes, MaxIdleConns: maxIdle}),
	)
	if err != nil {
		t.Fatalf("trawl.New: %v", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	deadline, _ := ctx.Deadline()
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()

	var (
		requests  = make(map[string]int64) // requests per URL class, from the web's log
		hostTraps = make(map[string]int64) // trap requests per host
		samples   []sample
		runErr    error
		returned  time.Time
	)
	tick := time.NewTicker(every)
	defer tick.Stop()
	probeTick := time.NewTicker(probeEvery)
	defer probeTick.Stop()
	mem := newMemProbe()
	stuck := time.NewTimer(d + 2*returnWithin)
	defer stuck.Stop()
	t.Logf("%8s %9s %17s %9s %10s %6s %9s %9s %9s %8s", "t", "RSS MiB", "live heap MiB", "inuse MiB", "goroutines", "fds", "fetched", "queued", "spilled", "traps")
loop:
	for {
		select {
		case runErr = <-done:
			returned = time.Now()
			break loop
		case <-stuck.C:
			buf := make([]byte, 4<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("Run has not returned %v after its deadline; goroutines:\n%s", time.Since(deadline), buf)
		case <-probeTick.C:
			mem.probe()
		case now := <-tick.C:
			drainLog(web, requests, hostTraps)
			mem.probe()
			s := takeSample(now.Sub(start), c.Stats(), mem)
			s.spilled = front.SpillStats().Entries
			if dir := os.Getenv(soakProfEnv); dir != "" {
				writeHeapProfile(t, filepath.Join(dir, fmt.Sprintf("heap-%05d.pb.gz", int(s.at.Seconds()))))
			}
			mem.reset()
			s.beforeLimit = now.Before(deadline.Add(-every / 2))
			s.traps = trapRequests(requests)
			t.Logf("%8s %9s %17s %9s %10d %6d %9d %9d %9d %8d", s.at.Truncate(time.Second), mib(s.rss),
				mib(s.live)+" ("+mib(s.liveMin)+"-"+mib(s.liveMax)+")", mib(s.heapInuse),
				s.goroutines, s.fds, s.fetched, s.queued, s.spilled, s.traps)
			samples = append(samples, s)
		}
	}
	drainLog(web, requests, hostTraps)
	st := c.Stats()

	if path := os.Getenv(soakOutEnv); path != "" {
		if err := os.WriteFile(path, table(d, every, samples), 0o644); err != nil {
			t.Errorf("writing %s: %v", path, err)
		}
	}
	t.Logf("Run returned %v after the deadline: %v", returned.Sub(deadline).Round(time.Millisecond), runErr)
	t.Logf("fetched %d, stored %d (%d decoded from legacy charsets), queued %d, accepted %d URLs, trap URLs dropped %d, robots.txt fetches %d, retries %d, redirects %d, truncated %d, errors %v",
		st.Fetch.Pages, stored.Load(), legacy.Load(), st.URLs.Queued, st.URLs.Discovered-st.URLs.Duplicate, st.URLs.Traps, st.Robots.Fetches,
		st.Fetch.Retries, st.Fetch.Redirects, st.Fetch.Truncated, st.Errors.Kinds)
	t.Logf("requests by class: %v", requests)

	// Stopping: promptly, with the context's error only, and completely.
	switch {
	case runErr == nil:
		t.Errorf("Run returned nil after %v, before the %v deadline: the crawl ran out of work; raise PagesPerHost", returned.Sub(start), d)
	case !errors.Is(runErr, context.DeadlineExceeded):
		t.Errorf("Run = %v, want context.DeadlineExceeded", runErr)
	case runErr.Error() != context.DeadlineExceeded.Error():
		t.Errorf("Run = %v, want context.DeadlineExceeded and nothing else", runErr)
	}
	if lag := returned.Sub(deadline); lag > returnWithin {
		t.Errorf("Run returned %v after its context ended, want within %v", lag, returnWithin)
	}
	if n := settleGoroutines(baseGoroutines, returnWithin); n > baseGoroutines {
		buf := make([]byte, 4<<20)
		buf = buf[:runtime.Stack(buf, true)]
		t.Errorf("goroutine leak: %d goroutines before the crawler, %d after Run returned\n%s", baseGoroutines, n, buf)
	}
	if fdErr == nil {
		// The spill file is removed and every connection closed; a
		// couple of descriptors may remain that the runtime opens once.
		if n := settleFDs(baseFDs+2, returnWithin); n > baseFDs+2 {
			t.Errorf("file descriptor leak: %d open before the crawler, %d after Run returned, want at most %d", baseFDs, n, baseFDs+2)
		}
	}

	warm, mid, last := phases(samples, d)
	if len(warm) == 0 || len(mid) == 0 || len(last) == 0 {
		t.Fatalf("%d samples in the warm-up, %d in the middle third and %d in the last third: want some in each", len(warm), len(mid), len(last))
	}

	// Progress: the crawl was busy to the end and met every fault. The
	// first 10 to 40 s go to the 1,000 robots.txt files (a 100th of a
	// second each at the contact rate, 2 s for each trickling one), so a
	// shorter soak (-short) checks stopping, leaks and flatness only.
	if d >= time.Minute {
		if minFetched := int64(minRate * d.Seconds()); st.Fetch.Pages < minFetched {
			t.Errorf("fetched %d pages in %v, want at least %d (%d a second)", st.Fetch.Pages, d, minFetched, minRate)
		}
		if got, want := last[len(last)-1].fetched-mid[len(mid)-1].fetched, int64(minRate*(d/3).Seconds()/2); got < want {
			t.Errorf("fetched %d pages in the last third of the soak, want at least %d: the crawl stalled", got, want)
		}
		for _, cl := range slices.Concat(trapClasses, faultClasses) {
			if requests[cl] == 0 {
				t.Errorf("no request for %s URLs: that trap or fault was not exercised", cl)
			}
		}
		if legacy.Load() == 0 {
			t.Errorf("no page decoded from a legacy charset: LegacyCharsets was not exercised")
		}
	}
	var worst string
	for h, n := range hostTraps {
		if worst == "" || n > hostTraps[worst] {
			worst = h
		}
	}
	if worst != "" {
		t.Logf("most trap requests on one host: %d (%s)", hostTraps[worst], worst)
		if hostTraps[worst] > maxTrapRequestsPerHost {
			t.Errorf("%s's traps got %d requests, want at most %d: a trap is not bounded", worst, hostTraps[worst], maxTrapRequestsPerHost)
		}
	}

	// Flatness after warm-up. The level the crawl ends at is taken over
	// the last sixth of the soak (the second half of the last third), so
	// that growth starting late is compared in full.
	post := slices.Concat(mid, last)
	var final []sample
	for _, s := range last {
		if s.at >= 5*d/6 {
			final = append(final, s)
		}
	}
	if len(final) == 0 {
		final = last[len(last)-1:]
	}
	checkCount(t, "goroutines", func(s sample) int { return s.goroutines }, warm, mid, final, post,
		baseGoroutines+perConnGoroutines*maxIdle+9*workers+50, goroutineSlack)
	if fdErr == nil {
		checkCount(t, "open files", func(s sample) int { return s.fds }, warm, mid, final, post,
			baseFDs+perConnFDs*(maxIdle+2*workers)+8, fdSlack)
	}
	checkMemory(t, "live heap", func(s sample) (uint64, uint64) { return s.liveMin, s.liveMax }, warm, mid, final, post, heapSlack)
	switch {
	case warm[0].rss == 0:
	case raceEnabled:
		// The race detector's own memory grows in long-running programs
		// whatever the program does (golang/go#26813, #37233, #63276), so
		// RSS says nothing about the crawler under -race; the live heap,
		// goroutines and open files above still do.
		t.Logf("RSS not checked under the race detector (its runtime's memory grows by itself): %s MiB to %s MiB after warm-up",
			mib(minOf(post, func(s sample) uint64 { return s.rssMin })), mib(maxOf(post, func(s sample) uint64 { return s.rssMax })))
	default:
		checkMemory(t, "RSS", func(s sample) (uint64, uint64) { return s.rssMin, s.rssMax }, warm, mid, final, post, rssSlack)
	}
}

// checkCount checks a count (goroutines, open files) after warm-up (post):
// it never exceeds limit (derived from the configuration), nor peakGrowth ×
// its warm-up peak + slack, and its mean over the final samples exceeds its
// mean over the middle third by at most growth × + slack.
func checkCount(t *testing.T, name string, f func(sample) int, warm, mid, final, post []sample, limit, slack int) {
	t.Helper()
	warmPeak := maxOf(warm, f)
	peakLimit := int(peakGrowth*float64(warmPeak)) + slack
	for _, s := range post {
		if v := f(s); v > limit || v > peakLimit {
			t.Errorf("%s at %v = %d, want at most %d (%.2f × the warm-up peak %d + %d) and at most %d (the bound from the configuration)",
				name, s.at.Truncate(time.Second), v, peakLimit, peakGrowth, warmPeak, slack, limit)
			break
		}
	}
	midMean, finalMean := meanOf(mid, f), meanOf(final, f)
	if finalMean > growth*midMean+float64(slack) {
		t.Errorf("%s trend upward: mean %.0f in the last sixth, %.0f in the middle third; want at most %.2f × + %d",
			name, finalMean, midMean, growth, slack)
	}
	t.Logf("%s: warm-up peak %d; after warm-up %d to %d (bound %d); mean %.0f in the middle third, %.0f in the last sixth",
		name, warmPeak, minOf(post, f), maxOf(post, f), min(limit, peakLimit), midMean, finalMean)
}

// checkMemory checks a memory figure (live heap, RSS) after warm-up; f
// returns a sample's lowest and highest probe since the previous sample.
// Fetches in progress make memory spike (up to inFlight), so the trend
// compares floors, which spikes do not raise and a leak does: the floor of
// the final samples may exceed the floor of the middle third by growth × +
// bytesPerURL for each URL accepted and page fetched in between + slack.
// Peaks after warm-up (post) may exceed the warm-up peak by peakGrowth × +
// inFlight + the same per-URL allowance.
func checkMemory(t *testing.T, name string, f func(sample) (lo, hi uint64), warm, mid, final, post []sample, slack uint64) {
	t.Helper()
	lo := func(s sample) uint64 { v, _ := f(s); return v }
	hi := func(s sample) uint64 { _, v := f(s); return v }
	allowance := func(from, to sample) float64 {
		items := (to.accepted - from.accepted) + (to.fetched - from.fetched)
		return bytesPerURL * float64(max(items, 0))
	}
	end := post[len(post)-1]
	midFloor, finalFloor := minOf(mid, lo), minOf(final, lo)
	trendLimit := growth*float64(midFloor) + allowance(mid[0], end) + float64(slack)
	if float64(finalFloor) > trendLimit {
		t.Errorf("%s trend upward: floor %s MiB in the last sixth, %s MiB in the middle third; want at most %s MiB (%.2f × + %s MiB for %d URLs accepted and %d pages fetched + %s MiB)",
			name, mib(finalFloor), mib(midFloor), mib(uint64(trendLimit)), growth, mib(uint64(allowance(mid[0], end))),
			end.accepted-mid[0].accepted, end.fetched-mid[0].fetched, mib(slack))
	}
	warmPeak := maxOf(warm, hi)
	peakLimit := peakGrowth*float64(warmPeak) + inFlight + allowance(warm[len(warm)-1], end)
	if peak := maxOf(post, hi); float64(peak) > peakLimit {
		t.Errorf("%s peak %s MiB after warm-up, want at most %s MiB (%.2f × the warm-up peak %s MiB + %s MiB in flight + %s MiB for the URLs and pages since)",
			name, mib(peak), mib(uint64(peakLimit)), peakGrowth, mib(warmPeak), mib(inFlight), mib(uint64(allowance(warm[len(warm)-1], end))))
	}
	t.Logf("%s: warm-up peak %s MiB; after warm-up %s to %s MiB (peak limit %s MiB); floor %s MiB in the middle third, %s MiB in the last sixth (limit %s MiB)",
		name, mib(warmPeak), mib(minOf(post, lo)), mib(maxOf(post, hi)), mib(uint64(peakLimit)), mib(midFloor), mib(finalFloor), mib(uint64(trendLimit)))
}

// phases splits the samples taken before the deadline into the warm-up
// (the first third of the soak), the middle third and the last third.
func phases(samples []sample, d time.Duration) (warm, mid, last []sample) {
	for _, s := range samples {
		switch {
		case !s.beforeLimit:
		case s.at < d/3:
			warm = append(warm, s)
		case s.at < 2*d/3:
			mid = append(mid, s)
		default:
			last = append(last, s)
		}
	}
	return warm, mid, last
}

func maxOf[T int | uint64](ss []sample, f func(sample) T) T {
	var m T
	for i, s := range ss {
		if v := f(s); i == 0 || v > m {
			m = v
		}
	}
	return m
}

func minOf[T int | uint64](ss []sample, f func(sample) T) T {
	var m T
	for i, s := range ss {
		if v := f(s); i == 0 || v < m {
			m = v
		}
	}
	return m
}

func meanOf(ss []sample, f func(sample) int) float64 {
	var sum float64
	for _, s := range ss {
		sum += float64(f(s))
	}
	return sum / float64(len(ss))
}

// seeds returns, for each host, its home page and then its trap and fault
// entry URLs (which its home page links to as well, at the end) in a
// rotation of its own, each followed by one of its ordinary pages. The
// faults are thus met from the first minute, by every host, in every
// order, mixed with ordinary pages (and the content faults among them:
// invalid UTF-8, legacy charsets, malformed HTML).
func seeds(t *testing.T, web *crawltest.Web, perHost int) []string {
	t.Helper()
	homes, faults, pages := web.Seeds(), web.FaultURLs(), web.Pages()
	if len(faults)%len(homes) != 0 || len(pages) != perHost*len(homes) {
		t.Fatalf("%d fault URLs and %d pages for %d hosts: want the same number per host", len(faults), len(pages), len(homes))
	}
	k := len(faults) / len(homes)
	if perHost <= k {
		t.Fatalf("%d pages per host, want more than %d", perHost, k)
	}
	var out []string
	for i, home := range homes {
		out = append(out, home)
		for j := range k {
			out = append(out, faults[i*k+(i+j)%k], pages[i*perHost+1+j])
		}
	}
	return out
}

// soakDuration is TRAWL_SOAK when set, else 2 minutes (30 s with -short).
func soakDuration(t *testing.T) time.Duration {
	t.Helper()
	if v := os.Getenv(soakEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 10*time.Second {
			t.Fatalf("%s=%q: want a Go duration of at least 10s, such as 30m", soakEnv, v)
		}
		return d
	}
	if testing.Short() {
		return shortDuration
	}
	return defaultDuration
}

// pagesPerHost sizes the web for a soak of duration d: three times what
// contactRate could fetch in d, and at least 200 pages per host.
func pagesPerHost(d time.Duration) int {
	return max(200, 3*contactRate*int(d/time.Second)/hosts)
}

func takeSample(at time.Duration, st trawl.Stats, mem *memProbe) sample {
	s := sample{
		at: at, fetched: st.Fetch.Pages, queued: int(st.URLs.Queued), accepted: st.URLs.Discovered - st.URLs.Duplicate,
		goroutines: runtime.NumGoroutine(),
		rss:        mem.rss, rssMin: mem.rssMin, rssMax: mem.rssMax,
		live: mem.live, liveMin: mem.liveMin, liveMax: mem.liveMax,
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	s.heapInuse = ms.HeapInuse
	var err error
	if s.fds, err = openFDs(); err != nil {
		s.fds = -1
	}
	return s
}

// rss returns the resident set size of the process (VmRSS).
func rss() (uint64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("parsing %q: %w", line, err)
			}
			return kb << 10, nil
		}
	}
	return 0, errors.New("no VmRSS line in /proc/self/status")
}

// openFDs returns the number of open file descriptors of the process, not
// counting the one used to list them.
func openFDs() (int, error) {
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return 0, err
	}
	return len(es) - 1, nil
}

// settleGoroutines polls until at most want goroutines remain or patience
// runs out, and returns the last count: connection goroutines exit
// asynchronously after their sockets close.
func settleGoroutines(want int, patience time.Duration) int {
	n := runtime.NumGoroutine()
	for end := time.Now().Add(patience); n > want && time.Now().Before(end); {
		runtime.Gosched()
		time.Sleep(10 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

// settleFDs is settleGoroutines for open file descriptors.
func settleFDs(want int, patience time.Duration) int {
	n, _ := openFDs()
	for end := time.Now().Add(patience); n > want && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
		n, _ = openFDs()
	}
	return n
}

// drainLog moves the web's request log into counts per URL class and trap
// requests per host and empties it, so that a long soak does not keep a
// record of every request (a request that starts between the snapshot and
// the reset goes uncounted).
func drainLog(web *crawltest.Web, counts, hostTraps map[string]int64) {
	log := web.Log()
	web.ResetLog()
	for _, r := range log.Requests() {
		cl := class(r.Path)
		counts[cl]++
		if slices.Contains(trapClasses, cl) {
			hostTraps[r.Host]++
		}
	}
}

// trapClasses are the URL classes of the traps: URL spaces without end.
var trapClasses = []string{"calendar", "deep-path", "session-id", "soft-404", "meta-refresh"}

// faultClasses are the classes of the other fault URLs.
var faultClasses = []string{
	"redirect-chain", "redirect-loop", "fault/slow", "fault/hang", "fault/reset",
	"fault/500", "fault/502", "fault/503", "fault/429", "fault/endless", "fault/huge",
	"fault/gzip-bomb", "fault/wrong-type.html", "fault/binary.html",
}

func trapRequests(counts map[string]int64) int64 {
	var n int64
	for _, c := range trapClasses {
		n += counts[c]
	}
	return n
}

// class names the kind of URL a request path (with query) is for.
func class(pathQuery string) string {
	path, query, _ := strings.Cut(pathQuery, "?")
	switch {
	case strings.Contains(query, "sid="):
		return "session-id"
	case path == "/robots.txt" || path == "/robots-real.txt":
		return "robots"
	case strings.HasPrefix(path, "/calendar/"):
		return "calendar"
	case strings.HasPrefix(path, "/repeat/"):
		return "deep-path"
	case path == "/lost" || strings.HasPrefix(path, "/lost/"):
		return "soft-404"
	case strings.HasPrefix(path, "/refresh/"):
		return "meta-refresh"
	case strings.HasPrefix(path, "/redirect/"):
		return "redirect-chain"
	case strings.HasPrefix(path, "/redirect-loop/"):
		return "redirect-loop"
	case strings.HasPrefix(path, "/fault/"):
		return path[1:]
	case strings.HasPrefix(path, "/sitemap"), strings.HasPrefix(path, "/feed."):
		return "sitemap-feed"
	}
	return "page"
}

func mib(b uint64) string {
	if b == 0 {
		return "-"
	}
	return strconv.FormatFloat(float64(b)/(1<<20), 'f', 1, 64)
}

// table renders the samples as Markdown.
func table(d, every time.Duration, samples []sample) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "Soak of %v: %d hosts, %d workers, at most %d contacts/s, samples every %v, memory probed every %v (%s/%s, %s, race detector %v).\n"+
		"Live heap: /gc/heap/live:bytes at the sample (lowest-highest probe since the previous row); inuse: MemStats.HeapInuse.\n\n",
		d, hosts, workers, contactRate, every, probeEvery, runtime.GOOS, runtime.GOARCH, runtime.Version(), raceEnabled)
	b.WriteString("| t | RSS MiB | live heap MiB | inuse MiB | goroutines | fds | fetched | queued | spilled | trap requests |\n")
	b.WriteString("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range samples {
		note := ""
		if !s.beforeLimit {
			note = " (stopping)"
		}
		fmt.Fprintf(&b, "| %v%s | %s | %s (%s-%s) | %s | %d | %d | %d | %d | %d | %d |\n", s.at.Truncate(time.Second), note, mib(s.rss),
			mib(s.live), mib(s.liveMin), mib(s.liveMax), mib(s.heapInuse), s.goroutines, s.fds, s.fetched, s.queued, s.spilled, s.traps)
	}
	return b.Bytes()
}

// backQueues is the frontier's back-queue count: one per host, or
// TRAWL_SOAK_BACKQUEUES (0 for the frontier's default).
func backQueues(t *testing.T) int {
	v := os.Getenv("TRAWL_SOAK_BACKQUEUES")
	if v == "" {
		return hosts
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		t.Fatalf("TRAWL_SOAK_BACKQUEUES=%q: want a number of back queues, 0 for the default", v)
	}
	return n
}

// writeHeapProfile writes the heap profile, as of a fresh GC, to path
// (TRAWL_SOAK_PROFILES: compare two with go tool pprof -base to see what
// grows).
func writeHeapProfile(t *testing.T, path string) {
	runtime.GC()
	f, err := os.Create(path)
	if err != nil {
		t.Errorf("heap profile: %v", err)
		return
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		t.Errorf("heap profile: %v", err)
	}
}
