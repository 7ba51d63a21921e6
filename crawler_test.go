package trawl_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/store"
)

const testUA = "trawltest/1.0 (+https://github.com/trawl-dev/trawl)"

// TestMain fails the package when goroutines outlive the tests: Run must
// own every goroutine it starts.
func TestMain(m *testing.M) {
	before := runtime.NumGoroutine()
	code := m.Run()
	// While fuzzing, the fuzzing engine keeps goroutines of its own
	// (os/signal's loop): the check is for crawls.
	fuzzing := flag.Lookup("test.fuzz") != nil && flag.Lookup("test.fuzz").Value.String() != ""
	if code == 0 && !fuzzing {
		if n := settleGoroutines(before); n > before {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			fmt.Fprintf(os.Stderr, "goroutine leak: %d goroutines before the tests, %d after\n%s\n", before, n, buf)
			code = 1
		}
	}
	os.Exit(code)
}

// settleGoroutines polls (bounded) until at most want goroutines remain:
// connection goroutines exit asynchronously after their sockets close.
func settleGoroutines(want int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 200 && n > want; i++ {
		runtime.Gosched()
		time.Sleep(5 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

// crawl runs a crawl of web with the test defaults plus opts and returns the
// crawler, the pages stored and Run's error.
func crawl(t *testing.T, web *crawltest.Web, opts ...trawl.Option) (*trawl.Crawler, *store.Memory, error) {
	t.Helper()
	mem := &store.Memory{}
	base := []trawl.Option{
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithUserAgent(testUA),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
		trawl.WithWorkers(8),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithStore(mem),
	}
	c, err := trawl.New(append(base, opts...)...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	err = c.Run(context.Background())
	return c, mem, err
}

// pageRequests returns the log's requests other than robots.txt ones.
func pageRequests(log *crawltest.Log) []crawltest.Request {
	var out []crawltest.Request
	for _, r := range log.Requests() {
		if !isRobots(r.Path) {
			out = append(out, r)
		}
	}
	return out
}

func isRobots(path string) bool {
	return path == "/robots.txt" || strings.HasPrefix(path, "/robots-")
}

func fetchedURLs(log *crawltest.Log) []string {
	var out []string
	for _, r := range pageRequests(log) {
		out = append(out, r.URL)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func diff(got, want []string) (missing, extra []string) {
	g := make(map[string]bool, len(got))
	for _, s := range got {
		g[s] = true
	}
	w := make(map[string]bool, len(want))
	for _, s := range want {
		w[s] = true
		if !g[s] {
			missing = append(missing, s)
		}
	}
	for _, s := range got {
		if !w[s] {
			extra = append(extra, s)
		}
	}
	return missing, extra
}

func first(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// TestCrawlPoliteAndComplete is the main end-to-end property test: many
// workers over many hosts, robots.txt variety and Crawl-delay, and the web's
// request log says the crawl was polite, complete and free of refetches.
func TestCrawlPoliteAndComplete(t *testing.T) {
	const delay = 15 * time.Millisecond
	const crawlDelay = 40 * time.Millisecond
	web := crawltest.NewTestWeb(t, &crawltest.Options{
		Seed: 7, Hosts: 24, PagesPerHost: 20, RobotsVariety: true, CrawlDelay: crawlDelay,
	})
	// No adaptive delay: the gaps must come from the delay and the
	// Crawl-delay alone, so that a gap that ignores the Crawl-delay (as the
	// first request after robots.txt once did) fails every run.
	c, mem, err := crawl(t, web, trawl.WithPoliteness(trawl.Politeness{Delay: delay}), trawl.WithPoliteness(trawl.Politeness{Adaptive: -1}))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	log := web.Log()

	if v := log.RobotsViolations(testUA); len(v) > 0 {
		t.Errorf("%d robots-disallowed requests, first: %+v", len(v), v[0])
	}
	if twice := log.FetchedTwice(); len(twice) > 0 {
		t.Errorf("%d URLs fetched more than once: %v", len(twice), first(twice, 5))
	}
	if !mem.Closed() {
		t.Errorf("Run returned without closing the store")
	}
	want := web.Reachable(testUA)
	missing, extra := diff(log.FetchedPages(), want)
	if len(missing) > 0 {
		t.Errorf("%d reachable URLs not fetched, e.g. %v", len(missing), first(missing, 5))
	}
	if len(extra) > 0 {
		t.Errorf("%d fetched pages are not reachable, e.g. %v", len(extra), first(extra, 5))
	}
	// Besides pages, only the feeds that pages link to, the sitemaps that
	// robots.txt names (and their index entries) and, for a host that
	// names none, its /sitemap.xml may be fetched.
	discovery := map[string]bool{}
	for _, u := range append(web.Feeds(), web.Sitemaps()...) {
		discovery[u] = true
	}
	_, other := diff(fetchedURLs(log), want)
	for _, u := range other {
		pu, _ := url.Parse(u)
		if !discovery[u] && pu.Path != "/sitemap.xml" && !strings.HasPrefix(pu.Path, "/sitemaps/") {
			t.Errorf("fetched %s, which is neither a reachable page, a feed nor a sitemap", u)
		}
	}
	if len(want) < 24*5 {
		t.Fatalf("only %d reachable URLs: the test web is too small to mean anything", len(want))
	}

	gaps := log.MinGap()
	inFlight := log.MaxInFlight()
	sawCrawlDelay := false
	for _, host := range web.Hosts() {
		need := max(delay, web.CrawlDelay(host))
		sawCrawlDelay = sawCrawlDelay || web.CrawlDelay(host) > 0
		if g, ok := gaps[host]; ok && g < need {
			t.Errorf("host %s: smallest gap between requests %v, want ≥ %v", host, g, need)
		}
		if n := inFlight[host]; n > 1 {
			t.Errorf("host %s: %d requests in flight at once, want ≤ 1", host, n)
		}
	}

	if !sawCrawlDelay {
		t.Error("no host of the test web declares a Crawl-delay: the gap check proves little")
	}

	robotsFetches := map[string]int{}
	for _, r := range log.Requests() {
		if r.Path == "/robots.txt" {
			robotsFetches[r.Host]++
		}
	}
	for _, host := range web.Hosts() {
		if n := robotsFetches[host]; n != 1 {
			t.Errorf("host %s: robots.txt fetched %d times, want 1", host, n)
		}
	}

	st := c.Stats()
	if st.Fetch.Pages != int64(len(pageRequests(log))) {
		t.Errorf("Stats.Fetch.Pages = %d, but the web served %d page requests", st.Fetch.Pages, len(pageRequests(log)))
	}
	if st.Pages.Stored != int64(len(mem.Pages())) || st.Pages.Stored == 0 {
		t.Errorf("Stats.Pages.Stored = %d, store holds %d", st.Pages.Stored, len(mem.Pages()))
	}
	if st.Robots.Fetches != int64(len(web.Hosts())) {
		t.Errorf("Stats.RobotsFetches = %d, want %d", st.Robots.Fetches, len(web.Hosts()))
	}
	if st.URLs.Duplicate == 0 || st.URLs.Discovered <= st.URLs.Duplicate {
		t.Errorf("Stats: Discovered %d, DuplicateURLs %d; want many duplicates among more discoveries", st.URLs.Discovered, st.URLs.Duplicate)
	}
	for _, p := range mem.Pages() {
		if p.NoIndex {
			t.Errorf("noindex page %s was stored", p.URL)
		}
	}
}

// TestCrawlNoindexNofollow checks page-level robots against the web's own
// knowledge of which pages carry noindex and nofollow.
func TestCrawlNoindexNofollow(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 3, Hosts: 6, PagesPerHost: 40})
	c, mem, err := crawl(t, web)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]bool{}
	for _, u := range mem.URLs() {
		stored[u] = true
	}
	var noindex int
	for _, u := range web.Reachable(testUA) {
		if info, _ := web.Page(u); info.NoIndex {
			noindex++
			if stored[u] {
				t.Errorf("noindex page %s was stored", u)
			}
		} else if !stored[u] {
			t.Errorf("indexable page %s was not stored", u)
		}
	}
	if noindex == 0 {
		t.Fatal("the test web has no noindex page: the test proves nothing")
	}
	if st := c.Stats(); st.Pages.NoIndex != int64(noindex) {
		t.Errorf("Stats.NoIndex = %d, want %d", st.Pages.NoIndex, noindex)
	}
	// Reachable already excludes what only nofollow pages and rel=nofollow
	// links lead to; fetching exactly Reachable proves neither was followed.
	missing, extra := diff(web.Log().FetchedPages(), web.Reachable(testUA))
	if len(missing)+len(extra) > 0 {
		t.Errorf("fetched set differs from Reachable: missing %v, extra %v", first(missing, 5), first(extra, 5))
	}
}

func TestCrawlDepthLimitExact(t *testing.T) {
	// One host, one request at a time: the crawl is a strict BFS, so a
	// URL's depth is its link distance from the seed.
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 11, Hosts: 1, PagesPerHost: 120})
	depths := web.Depths(testUA)
	for _, maxDepth := range []int{1, 2, 3} {
		t.Run(fmt.Sprint(maxDepth), func(t *testing.T) {
			web.ResetLog()
			c, _, err := crawl(t, web, trawl.WithLimits(trawl.Limits{MaxDepth: maxDepth}))
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for u, d := range depths {
				if d <= maxDepth {
					want = append(want, u)
				}
			}
			missing, extra := diff(web.Log().FetchedPages(), want)
			if len(missing)+len(extra) > 0 {
				t.Errorf("max depth %d: missing %v, extra %v", maxDepth, first(missing, 5), first(extra, 5))
			}
			if got := c.Stats().Fetch.Deepest; got > int64(maxDepth) {
				t.Errorf("Stats.MaxDepth = %d > limit %d", got, maxDepth)
			}
		})
	}
}

func TestCrawlMaxPagesExact(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 5, Hosts: 10, PagesPerHost: 30})
	for _, limit := range []int{1, 37, 100} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			web.ResetLog()
			c, _, err := crawl(t, web, trawl.WithLimits(trawl.Limits{MaxPages: limit}))
			if err != nil {
				t.Fatal(err)
			}
			if got := len(pageRequests(web.Log())); got != limit {
				t.Errorf("web served %d page requests, want exactly %d", got, limit)
			}
			if got := c.Stats().Fetch.Pages; got != int64(limit) {
				t.Errorf("Stats.Fetch.Pages = %d, want %d", got, limit)
			}
		})
	}
}

func TestCrawlUnderPath(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 9, Hosts: 3, PagesPerHost: 80})
	// Start from a page in a directory of the first host.
	var seed string
	for _, u := range web.Reachable(testUA) {
		pu, _ := url.Parse(u)
		if strings.Count(pu.Path, "/") >= 2 && strings.HasSuffix(pu.Path, ".html") {
			seed = u
			break
		}
	}
	if seed == "" {
		t.Fatal("no page in a directory on the test web")
	}
	dir := seed[:strings.LastIndexByte(seed, '/')+1]
	_, _, err := crawl(t, web, trawl.WithSeeds(seed), trawl.WithFilters(trawl.UnderPath(seed)))
	if err != nil {
		t.Fatal(err)
	}
	fetched := fetchedURLs(web.Log())
	if len(fetched) == 0 {
		t.Fatal("nothing fetched")
	}
	for _, u := range fetched {
		if !strings.HasPrefix(u, dir) {
			t.Errorf("fetched %s outside %s", u, dir)
		}
	}
}

// TestCrawlFaults switches every trap and fault on: the crawl must finish,
// count each fault, and never refetch or break robots.txt.
func TestCrawlFaults(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{
		Seed: 13, Hosts: 4, PagesPerHost: 15,
		Faults: crawltest.Faults{
			Calendar: true, DeepPaths: true, SessionIDs: true, RedirectChain: 3, RedirectLoop: true,
			Slow: 4 * time.Second, Hang: true, Reset: true, ServerErrors: true, TooManyRequests: true,
			EndlessBody: true, HugeBody: true, GzipBomb: true, WrongContentType: true,
			InvalidUTF8: true, LegacyCharsets: true, MalformedHTML: true,
		},
	})
	// Heap sampled as pages arrive: a gzip bomb (1 GiB inflated) or a huge
	// body read without limits would show here.
	var peakMu sync.Mutex
	var peakHeap uint64
	sample := func(context.Context, *trawl.Page) {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peakMu.Lock()
		peakHeap = max(peakHeap, ms.HeapAlloc)
		peakMu.Unlock()
	}
	c, mem, err := crawl(t, web,
		trawl.WithEvents(trawl.Events{OnPage: sample}),
		trawl.WithLimits(trawl.Limits{MaxDepth: 8}),
		trawl.WithLimits(trawl.Limits{MaxRetries: 1}),
		trawl.WithPoliteness(trawl.Politeness{BackoffBase: 20 * time.Millisecond, BackoffMax: 200 * time.Millisecond}),
		trawl.WithLimits(trawl.Limits{HostBudget: 400}),
		trawl.WithFilters(trawl.SameHost(web.Seeds()...)), // TrapLimits bound repeated path segments
		// The timeout must leave room to read MaxBodyBytes even under the
		// race detector, or truncation turns into a timeout.
		trawl.WithFetchOptions(fetch.Options{Timeout: 2 * time.Second, MaxBodyBytes: 1 << 20}),
	)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if peakHeap > 256<<20 {
		t.Errorf("heap reached %d MiB during the fault crawl, want it bounded under 256 MiB", peakHeap>>20)
	}
	st := c.Stats()
	for _, kind := range []string{"timeout", "connection", "status-5xx", "bomb"} {
		if st.Errors.Kinds[kind] == 0 {
			t.Errorf("Stats.Errors.Kinds[%q] = 0; want the fault counted (kinds: %v)", kind, st.Errors.Kinds)
		}
	}
	if st.Fetch.Truncated == 0 {
		t.Errorf("Stats.Truncated = 0, want the huge and endless bodies counted")
	}
	if st.Fetch.Retries == 0 {
		t.Errorf("Stats.Retries = 0, want the 429 and 503 answers retried")
	}
	if st.Fetch.Redirects == 0 {
		t.Errorf("Stats.Redirects = 0, want the redirect chains followed")
	}
	log := web.Log()
	if v := log.RobotsViolations(testUA); len(v) > 0 {
		t.Errorf("%d robots violations", len(v))
	}
	// Retried URLs are fetched again on purpose; every other URL once.
	for _, u := range log.FetchedTwice() {
		if !strings.Contains(u, "/fault/") {
			t.Errorf("%s fetched twice", u)
		}
	}
	// Every ordinary page is still found, whatever the faults.
	// The redirect loop ends at the duplicate check: each of its two URLs
	// is fetched once (FetchedTwice above would list them otherwise).
	counts := log.Counts()
	for _, u := range web.FaultURLs() {
		if strings.Contains(u, "/redirect-loop/") && counts[u] != 1 {
			t.Errorf("%s requested %d times, want 1", u, counts[u])
		}
	}
	missing, _ := diff(log.FetchedPages(), web.Reachable(testUA))
	if len(missing) > 0 {
		t.Errorf("%d reachable pages missed with faults on, e.g. %v", len(missing), first(missing, 5))
	}
	for _, p := range mem.Pages() {
		if len(p.Body) > 1<<20 {
			t.Errorf("%s stored with %d bytes, over the 1 MiB limit", p.URL, len(p.Body))
		}
	}
}

func TestCrawlCancel(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 21, Hosts: 8, PagesPerHost: 200})
	dir := t.TempDir()
	st, err := store.NewDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var pages atomic.Int32
	c, err := trawl.New(
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithStore(st),
		trawl.WithEvents(trawl.Events{OnPage: func(context.Context, *trawl.Page) {
			if pages.Add(1) == 30 {
				cancel()
			}
		}}),
	)
	if err != nil {
		t.Fatal(err)
	}
	err = c.Run(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v, want context.Canceled", err)
	}
	stats := c.Stats()
	if total := len(web.Reachable(fetch.DefaultUserAgent)); stats.Fetch.Pages >= int64(total) {
		t.Fatalf("cancelled crawl fetched all %d pages", total)
	}
	data, err := os.ReadFile(filepath.Join(dir, "urls.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if int64(len(lines)) != stats.Pages.Stored || stats.Pages.Stored == 0 || stats.Pages.Stored > int64(pages.Load()) {
		t.Fatalf("urls.txt has %d lines, Stats.Pages.Stored = %d, pages seen %d (want lines = stored ≤ seen)", len(lines), stats.Pages.Stored, pages.Load())
	}
	for i := range lines {
		files, _ := filepath.Glob(filepath.Join(dir, fmt.Sprintf("%06d.*", i+1)))
		if len(files) != 1 {
			t.Errorf("page file %d: found %v after cancel, want one file", i+1, files)
			continue
		}
		if b, err := os.ReadFile(files[0]); err != nil || len(b) == 0 {
			t.Errorf("page file %s missing or empty after cancel: %v", files[0], err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "stats.txt")); err != nil {
		t.Errorf("stats.txt not written after cancel: %v", err)
	}
}

func TestCrawlStoreErrorsCounted(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 2, Hosts: 2, PagesPerHost: 20})
	var puts atomic.Int32
	var mu sync.Mutex
	var reported []string
	boom := errors.New("disk full")
	c, _, err := crawl(t, web,
		trawl.WithStore(store.Func(func(context.Context, *trawl.Page) error {
			if puts.Add(1)%3 == 0 {
				return boom
			}
			return nil
		})),
		trawl.WithEvents(trawl.Events{OnError: func(_ context.Context, u string, err error) {
			if errors.Is(err, boom) {
				mu.Lock()
				reported = append(reported, u)
				mu.Unlock()
			}
		}}),
	)
	if err != nil {
		t.Fatal(err)
	}
	st := c.Stats()
	wantErrs := int64(puts.Load() / 3)
	if st.Errors.Store != wantErrs || int64(len(reported)) != wantErrs || wantErrs == 0 {
		t.Errorf("StoreErrors = %d, OnError reports %d, want %d", st.Errors.Store, len(reported), wantErrs)
	}
	if st.Pages.Stored != int64(puts.Load())-wantErrs {
		t.Errorf("Stored = %d, want %d", st.Pages.Stored, int64(puts.Load())-wantErrs)
	}
}

func TestNewValidates(t *testing.T) {
	tests := []struct {
		name string
		opts []trawl.Option
		want string
	}{
		{name: "no seeds", opts: nil, want: "no seeds"},
		{name: "bad seed", opts: []trawl.Option{trawl.WithSeeds("mailto:a@b")}, want: "seed"},
		{name: "unparseable seed", opts: []trawl.Option{trawl.WithSeeds("http://[::1")}, want: "seed"},
		{name: "zero workers", opts: []trawl.Option{trawl.WithSeeds("http://a.test/"), trawl.WithWorkers(0)}, want: "workers"},
		{name: "negative delay", opts: []trawl.Option{trawl.WithSeeds("http://a.test/"), trawl.WithPoliteness(trawl.Politeness{Delay: -2 * time.Second})}, want: "Delay"},
		{name: "negative max pages", opts: []trawl.Option{trawl.WithSeeds("http://a.test/"), trawl.WithLimits(trawl.Limits{MaxPages: -1})}, want: "MaxPages"},
		{name: "nil filter", opts: []trawl.Option{trawl.WithSeeds("http://a.test/"), trawl.WithFilters(nil)}, want: "nil filter"},
		{name: "empty user agent", opts: []trawl.Option{trawl.WithSeeds("http://a.test/"), trawl.WithUserAgent("")}, want: "user agent"},
		{name: "user agent in fetch options", opts: []trawl.Option{trawl.WithSeeds("http://a.test/"), trawl.WithFetchOptions(fetch.Options{UserAgent: "x/1"})}, want: "WithUserAgent"},
		{name: "private networks in fetch options", opts: []trawl.Option{trawl.WithSeeds("http://a.test/"), trawl.WithFetchOptions(fetch.Options{AllowPrivateNetworks: true})}, want: "WithAllowPrivateNetworks"},
		{name: "fetch options with a fetcher", opts: []trawl.Option{trawl.WithSeeds("http://a.test/"), trawl.WithFetcher(fetch.New(nil)), trawl.WithFetchOptions(fetch.Options{Timeout: time.Second})}, want: "configure your fetcher"},
		{name: "proxy with a fetcher", opts: []trawl.Option{trawl.WithSeeds("http://a.test/"), trawl.WithFetcher(fetch.New(nil)), trawl.WithProxy(trawl.ProxyFromEnvironment())}, want: "configure your fetcher"},
		{name: "in-link boost without a booster", opts: []trawl.Option{trawl.WithSeeds("http://a.test/"), trawl.WithPriority(trawl.Priority{Inlink: 1}),
			trawl.WithFrontier(func(frontier.MemoryOptions) (frontier.Frontier, error) { return oneShotFrontier{}, nil })}, want: "frontier.Booster"},
		{name: "page counter without a page limit", opts: []trawl.Option{trawl.WithSeeds("http://a.test/"), trawl.WithShared(trawl.Shared{Pages: &counterFrom{}})}, want: "MaxPages"},
		{name: "ignored robots with shared robots", opts: []trawl.Option{trawl.WithSeeds("http://a.test/"), trawl.WithPoliteness(trawl.Politeness{IgnoreRobots: true}),
			trawl.WithShared(trawl.Shared{Robots: noShared{}})}, want: "IgnoreRobots"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := trawl.New(tt.opts...)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "trawl: ") {
				t.Errorf("New() error = %v, want a \"trawl: \" error mentioning %q", err, tt.want)
			}
		})
	}
}

func TestRunTwice(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 1, Hosts: 1, PagesPerHost: 3})
	c, _, err := crawl(t, web)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err == nil {
		t.Error("second Run succeeded")
	}
}

func TestCrawlRedirectLimit(t *testing.T) {
	for _, tt := range []struct {
		chain    int
		wantFail bool
	}{{chain: 9, wantFail: false}, {chain: 12, wantFail: true}} {
		t.Run(fmt.Sprint(tt.chain), func(t *testing.T) {
			web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 3, Hosts: 1, PagesPerHost: 5, Faults: crawltest.Faults{RedirectChain: tt.chain}})
			c, _, err := crawl(t, web)
			if err != nil {
				t.Fatal(err)
			}
			st := c.Stats()
			hops := 0
			for _, r := range web.Log().Requests() {
				if strings.HasPrefix(r.Path, "/redirect/") {
					hops++
				}
			}
			if tt.wantFail {
				if st.Errors.Kinds["redirect"] != 1 || hops != 10+1 {
					t.Errorf("chain of %d: %d redirect errors after %d hops requested; want 1 error after 11 requests (10 redirects followed)", tt.chain, st.Errors.Kinds["redirect"], hops)
				}
			} else if st.Errors.Kinds["redirect"] != 0 || hops != tt.chain {
				t.Errorf("chain of %d: %d redirect errors, %d hops requested; want 0 and %d", tt.chain, st.Errors.Kinds["redirect"], hops, tt.chain)
			}
		})
	}
}
