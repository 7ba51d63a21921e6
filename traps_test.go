package trawl_test

import (
	"context"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/frontier"
)

// trapWeb is a web with every spider trap crawltest has.
func trapWeb(t *testing.T) *crawltest.Web {
	return crawltest.NewTestWeb(t, &crawltest.Options{
		Seed: 11, Hosts: 6, PagesPerHost: 40,
		Faults: crawltest.Faults{Calendar: true, DeepPaths: true, SessionIDs: true, Soft404: true, MetaRefresh: true},
	})
}

// trapKinds names the trap a request's path and query belong to, "" for
// ordinary pages.
func trapKind(path string) string {
	switch {
	case strings.HasPrefix(path, "/calendar/"):
		return "calendar"
	case strings.HasPrefix(path, "/repeat/"):
		return "deep paths"
	case strings.Contains(path, "sid="):
		return "session ids"
	case strings.HasPrefix(path, "/lost"):
		return "soft 404"
	case strings.HasPrefix(path, "/refresh/"):
		return "meta refresh"
	}
	return ""
}

// trapFetches counts page requests per host and trap.
func trapFetches(log *crawltest.Log) map[string]map[string]int {
	out := map[string]map[string]int{}
	for _, r := range pageRequests(log) {
		if k := trapKind(r.Path); k != "" {
			if out[k] == nil {
				out[k] = map[string]int{}
			}
			out[k][r.Host]++
		}
	}
	return out
}

// TestCrawlTrapsEndByThemselves: with the default rules, a crawl of a web
// full of traps ends by itself, fetches every real page, and spends a
// small, bounded number of fetches in each trap of each host.
func TestCrawlTrapsEndByThemselves(t *testing.T) {
	web := trapWeb(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var trapSkips atomic.Int64
	c, err := trawl.New(
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithUserAgent(testUA),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
		trawl.WithWorkers(8),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithPoliteness(trawl.Politeness{Adaptive: -1}),
		trawl.WithEvents(trawl.Events{OnDecision: func(_ context.Context, d trawl.Decision) {
			if d.Outcome == trawl.DecisionTrap {
				trapSkips.Add(1)
			}
		}}),
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(ctx); err != nil {
		t.Fatalf("Run: %v (a crawl with default options must end by itself)", err)
	}
	log := web.Log()
	if missing, _ := diff(log.FetchedPages(), web.Reachable(testUA)); len(missing) > 0 {
		t.Errorf("%d real pages not fetched, e.g. %v", len(missing), first(missing, 5))
	}
	if twice := log.FetchedTwice(); len(twice) > 0 {
		t.Errorf("%d URLs fetched twice: %v", len(twice), first(twice, 5))
	}
	// Bounds per host: the calendar closes after TemplateStreak (20)
	// pages plus the few already queued; a repeated page ends deep paths,
	// session ids and soft 404s after one step; meta-refresh hops count
	// as redirects (10).
	bounds := map[string]int{"calendar": 25, "deep paths": 5, "session ids": 3, "soft 404": 5, "meta refresh": 11}
	counts := trapFetches(log)
	total := 0
	for kind, bound := range bounds {
		perHost := counts[kind]
		if len(perHost) != len(web.Hosts()) {
			t.Errorf("%s: entered on %d hosts, want all %d (is the trap linked?)", kind, len(perHost), len(web.Hosts()))
		}
		for host, n := range perHost {
			total += n
			if n > bound {
				t.Errorf("%s on %s: %d fetches, want ≤ %d", kind, host, n, bound)
			}
		}
		t.Logf("%-12s fetches per host: %v", kind, perHost)
	}
	st := c.Stats()
	t.Logf("trap fetches %d of %d page fetches; Stats: TrapURLs %d, RepeatPages %d, Filtered %d, errors %v",
		total, st.Fetch.Pages, st.URLs.Traps, st.Pages.Repeats, st.URLs.Filtered, st.Errors.Kinds)
	if st.Pages.Repeats == 0 || st.URLs.Traps == 0 {
		t.Errorf("Stats.Pages.Repeats = %d, Stats.URLs.Traps = %d; want both counted", st.Pages.Repeats, st.URLs.Traps)
	}
	if n := trapSkips.Load(); n != st.URLs.Traps {
		t.Errorf("OnDecision saw %d trap decisions, Stats.URLs.Traps = %d", n, st.URLs.Traps)
	}
	if st.Errors.Kinds["redirect"] != int64(len(web.Hosts())) {
		t.Errorf("ErrorKinds[redirect] = %d, want one meta-refresh chain cut per host (%d)", st.Errors.Kinds["redirect"], len(web.Hosts()))
	}
}

// TestCrawlTrapsUnboundedWithoutLimits shows that the rules are what ends
// the traps: with them off, the same web keeps a crawl in its traps until
// the page limit.
func TestCrawlTrapsUnboundedWithoutLimits(t *testing.T) {
	web := trapWeb(t)
	const limit = 3000
	c, _, err := crawl(t, web, trawl.WithTrapLimits(trawl.NoTrapLimits()), trawl.WithLimits(trawl.Limits{MaxDepth: -1}), trawl.WithLimits(trawl.Limits{MaxPages: limit}))
	if err != nil {
		t.Fatal(err)
	}
	if st := c.Stats(); st.Fetch.Pages != limit {
		t.Errorf("fetched %d pages, want the limit %d: without the rules the traps never end", st.Fetch.Pages, limit)
	}
	traps := 0
	for _, perHost := range trapFetches(web.Log()) {
		for _, n := range perHost {
			traps += n
		}
	}
	if traps < limit/2 {
		t.Errorf("only %d of %d fetches were in traps", traps, limit)
	}
}

// TestCrawlHopLimitDefault: without Limits.MaxDepth, links are followed to
// DefaultMaxDepth and no further.
func TestCrawlHopLimitDefault(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 3, Hosts: 1, PagesPerHost: 5, Faults: crawltest.Faults{Calendar: true}})
	// Only the hop limit may end the calendar here.
	lim := trawl.NoTrapLimits()
	c, _, err := crawl(t, web, trawl.WithTrapLimits(lim))
	if err != nil {
		t.Fatal(err)
	}
	if st := c.Stats(); st.Fetch.Deepest != trawl.DefaultMaxDepth {
		t.Errorf("deepest page fetched at depth %d, want the default hop limit %d", st.Fetch.Deepest, trawl.DefaultMaxDepth)
	}
	// The calendar's entry is at depth 2 and goes both ways: one month
	// each way per hop.
	if n := trapFetches(web.Log())["calendar"]["h0.test"]; n > 2*trawl.DefaultMaxDepth {
		t.Errorf("%d calendar fetches, want ≤ %d", n, 2*trawl.DefaultMaxDepth)
	}
}

// TestCrawlPrivateRefusals: seeds on private addresses are refused as
// such, not as robots.txt denials, with an error that names the option;
// when every seed is refused, Run fails.
func TestCrawlPrivateRefusals(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 1, Hosts: 2, PagesPerHost: 5})
	for _, robots := range []bool{true, false} {
		var mu sync.Mutex
		var errs []error
		c, err := trawl.New(
			trawl.WithSeeds(web.Seeds()...),
			trawl.WithDialContext(web.DialContext),
			trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
			trawl.WithPoliteness(trawl.Politeness{IgnoreRobots: !(robots)}),
			trawl.WithEvents(trawl.Events{OnError: func(_ context.Context, _ string, err error) {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}}),
		)
		if err != nil {
			t.Fatal(err)
		}
		err = c.Run(context.Background())
		if err == nil || !strings.Contains(err.Error(), "WithAllowPrivateNetworks(true)") || !strings.Contains(err.Error(), "private") {
			t.Errorf("robots %v: Run = %v, want an error naming private addresses and WithAllowPrivateNetworks", robots, err)
		}
		st := c.Stats()
		if st.Errors.Kinds["private"] != 2 || st.Errors.Total() != 2 || st.Robots.Denied != 0 || st.Fetch.Pages != 0 {
			t.Errorf("robots %v: PrivateRefused %d, ErrorKinds %v, RobotsDenied %d, Fetched %d; want 2 private refusals and nothing else",
				robots, st.Errors.Kinds["private"], st.Errors.Kinds, st.Robots.Denied, st.Fetch.Pages)
		}
		for _, e := range errs {
			if !strings.Contains(e.Error(), "-allow-private") {
				t.Errorf("robots %v: OnError got %q, which does not name the option", robots, e)
			}
		}
	}
	if n := len(web.Log().Requests()); n != 0 {
		t.Errorf("the web saw %d requests from a crawler that may not reach loopback", n)
	}
}

// TestCrawlSomeSeedsPrivate: when only some seeds are private, the others
// are crawled and Run succeeds.
func TestCrawlSomeSeedsPrivate(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 1, Hosts: 2, PagesPerHost: 5})
	// h1.test pretends to be on a public address; h0.test is loopback.
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := web.DialContext(ctx, network, addr)
		if err != nil || !strings.HasPrefix(addr, "h1.test") {
			return conn, err
		}
		return publicConn{conn}, nil
	}
	c, err := trawl.New(
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithUserAgent(testUA),
		trawl.WithDialContext(dial),
		trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatalf("Run = %v, want nil: one seed could be crawled", err)
	}
	st := c.Stats()
	if st.Errors.Kinds["private"] == 0 || st.Fetch.Pages == 0 {
		t.Errorf("PrivateRefused %d, Fetched %d; want h0's seed refused and h1 crawled", st.Errors.Kinds["private"], st.Fetch.Pages)
	}
	for _, r := range web.Log().Requests() {
		if r.Host == "h0.test" {
			t.Errorf("request to the private host: %s", r.URL)
		}
	}
}

func TestTrapLimitsValidate(t *testing.T) {
	if _, err := trawl.New(trawl.WithSeeds("https://example.com/"), trawl.WithLimits(trawl.Limits{MaxDepth: -1}), trawl.WithTrapLimits(trawl.NoTrapLimits())); err != nil {
		t.Errorf("New with every limit off: %v", err)
	}
}

// publicConn reports a public remote address, so that the guard lets a
// loopback connection through.
type publicConn struct{ net.Conn }

func (publicConn) RemoteAddr() net.Addr {
	return &net.TCPAddr{IP: net.IPv4(93, 184, 216, 34), Port: 80}
}

// recordingFrontier records the outcome Done is told for each request.
type recordingFrontier struct {
	frontier.Frontier
	mu   sync.Mutex
	done []doneCall
}

type doneCall struct {
	req frontier.Request
	out frontier.Outcome
}

func (f *recordingFrontier) Done(req frontier.Request, out frontier.Outcome) error {
	f.mu.Lock()
	f.done = append(f.done, doneCall{req, out})
	f.mu.Unlock()
	return f.Frontier.Done(req, out)
}

// TestCrawlDelayAfterRobots: the URL that waited for its host's robots.txt
// goes back to the frontier with the Crawl-delay just learned, so the
// host's next contact already waits for it. (Before, the first page request
// followed the robots.txt request after only the configured delay.)
func TestCrawlDelayAfterRobots(t *testing.T) {
	const crawlDelay = 30 * time.Millisecond
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 2, Hosts: 4, PagesPerHost: 3, CrawlDelay: crawlDelay})
	rec := &recordingFrontier{}
	_, _, err := crawl(t, web, trawl.WithPoliteness(trawl.Politeness{Adaptive: -1}), trawl.WithLimits(trawl.Limits{MaxDepth: 1}),
		trawl.WithFrontier(func(o frontier.MemoryOptions) (frontier.Frontier, error) {
			rec.Frontier = frontier.NewMemory(&o)
			return rec, nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	requeues := 0
	for _, d := range rec.done {
		if !d.out.Requeue {
			continue
		}
		requeues++
		u, _ := url.Parse(d.req.URL)
		if want := web.CrawlDelay(u.Host); d.out.CrawlDelay != want {
			t.Errorf("%s went back after robots.txt with Crawl-delay %v, want %v", d.req.URL, d.out.CrawlDelay, want)
		}
	}
	if requeues != len(web.Hosts()) {
		t.Errorf("%d requeues after robots.txt, want one per host (%d)", requeues, len(web.Hosts()))
	}
	if web.CrawlDelay("h1.test") != crawlDelay {
		t.Fatalf("h1.test declares Crawl-delay %v, want %v: the test proves nothing", web.CrawlDelay("h1.test"), crawlDelay)
	}
	// And on the wire: robots.txt, then the seed no sooner than the delay.
	if g := web.Log().MinGap()["h1.test"]; g < crawlDelay {
		t.Errorf("h1.test: gap %v between robots.txt and the seed, want ≥ %v", g, crawlDelay)
	}
}

// TestMainTextFunc: a plugged-in extractor replaces MainText.
func TestMainTextFunc(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 4, Hosts: 1, PagesPerHost: 5})
	var calls atomic.Int64
	c, mem, err := crawl(t, web, trawl.WithMainText(func(_ context.Context, p *trawl.Page) (string, error) {
		calls.Add(1)
		return "main of " + p.URL.Path + " " + strings.Repeat("x", len(p.Body)%7), nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	var pages []*trawl.Page
	for _, p := range mem.Pages() {
		if p.ContentType == "text/html" {
			pages = append(pages, p)
		}
	}
	if len(pages) == 0 || calls.Load() != int64(len(pages)) || c.Stats().Pages.Stored != int64(len(mem.Pages())) {
		t.Fatalf("%d HTML pages stored, extractor called %d times", len(pages), calls.Load())
	}
	for _, p := range pages {
		if !strings.HasPrefix(p.MainText, "main of "+p.URL.Path) {
			t.Errorf("%s: MainText = %q, want the plugged-in extractor's", p.URL, p.MainText)
		}
	}
}
