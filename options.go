package trawl

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"time"

	"github.com/trawl-dev/trawl/dedup"
	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/recrawl"
	"github.com/trawl-dev/trawl/urlnorm"
)

// Option configures a Crawler. Options are applied in order; when an option
// is given twice, the last one wins.
type Option func(*config)

type config struct {
	seeds           []string
	userAgent       string
	workers         int
	delay           time.Duration
	delaySet        bool
	hostConcurrency int
	maxPages        int
	maxDepth        int
	maxRetries      int
	hostBudget      int
	traps           TrapLimits
	follow          []extract.Kind
	followSet       bool
	archive         bool
	spillDir        string
	adaptive        float64
	priority        func(l *Link, p *Page) float64
	pageScore       func(p *Page) float64
	inlinkBoost     float64
	mainText        bool
	mainTextFunc    func(ctx context.Context, p *Page) (string, error)
	dups            *dedup.Detector
	dupPolicy       DuplicatePolicy
	backoffBase     time.Duration
	backoffMax      time.Duration
	filters         []Filter
	store           Store
	frontier        frontier.Frontier
	frontierFunc    func(frontier.MemoryOptions) (frontier.Frontier, error)
	shared          sharedHooks // WithSharedRobots, WithPageCounter (shared.go)
	fetcher         fetch.Fetcher
	fetchOptions    fetch.Options
	normalizer      *urlnorm.Normalizer
	logger          *slog.Logger
	robots          bool
	followNofollow  bool
	events          Events
	progressEvery   time.Duration
	progress        func(Stats)
	dialContext     func(ctx context.Context, network, addr string) (net.Conn, error)
	allowPrivate    bool
	recrawl         *recrawl.Policy // nil: a one-shot crawl (recrawl.go)

	adaptiveSet bool           // WithAdaptiveDelay was given (see WithDelay)
	html        []htmlCallback // WithHTML, in order
	items       ItemSink
	requests    requestConfig // WithHeader, WithOnRequest, cookies, proxies, basic auth
}

func defaultConfig() config {
	return config{
		userAgent:       fetch.DefaultUserAgent,
		workers:         16,
		delay:           time.Second,
		hostConcurrency: 1,
		maxRetries:      2,
		adaptive:        10,
		robots:          true,
	}
}

// WithSeeds sets the start URLs (depth 1). At least one seed is required
// unless the frontier given with WithFrontier already holds URLs.
// Default: none.
func WithSeeds(urls ...string) Option {
	urls = append([]string(nil), urls...)
	return func(c *config) { c.seeds = urls }
}

// WithUserAgent sets the User-Agent header and the product token matched
// against robots.txt groups and <meta name=...> robots tags: the token is the
// part before the first '/' or space ("mybot" in "mybot/1.0 (+https://...)").
// Name your crawler and a URL where site owners can read about it.
// Default: "trawl/0.1 (+https://github.com/trawl-dev/trawl)".
func WithUserAgent(ua string) Option { return func(c *config) { c.userAgent = ua } }

// WithWorkers sets how many fetches may be in flight at once, over all
// hosts. Default 16.
func WithWorkers(n int) Option { return func(c *config) { c.workers = n } }

// WithDelay sets the minimum time between the end of one request to a host
// and the start of the next (a robots.txt Crawl-delay and back-off after
// 429/503 can make it longer; 0 is for tests on loopback and sites you
// own). Giving WithDelay also turns the adaptive delay off unless
// WithAdaptiveDelay is given too: the delay you set is the delay you get,
// so WithDelay(0) means no delay at all (before, the adaptive default still
// rested a host 10 times its last response time). Add WithAdaptiveDelay(10)
// to keep both. Applies to the default frontier only. Default 1 s, with the
// adaptive delay on.
func WithDelay(d time.Duration) Option {
	return func(c *config) { c.delay, c.delaySet = d, true }
}

// WithHostConcurrency sets how many requests may be in flight to one host at
// once. It combines with the delay (WithDelay, the adaptive delay,
// Crawl-delay) as follows: each request to a host waits the delay after
// the end of the previous one, and with n above 1 the requests also start
// at least the delay apart. So the delay caps a host's rate at 1/delay
// requests per second whatever n is, and n helps only when responses take
// longer than the delay (a slow server, a small or zero delay), letting up
// to n of them overlap. Measured on crawltest (loopback, one host,
// BenchmarkHostConcurrencyDelay): WithHostConcurrency(4) with
// WithDelay(200 ms) fetched 5.0 pages/s, exactly as WithHostConcurrency(1)
// did; for about 20 pages/s from one host, set WithDelay(50 ms) (19.7
// pages/s). Applies to the default frontier only. Default 1.
func WithHostConcurrency(n int) Option { return func(c *config) { c.hostConcurrency = n } }

// WithMaxPages stops the crawl after n page fetches (robots.txt requests and
// retries not counted); exactly n fetches are made when enough URLs are
// reachable. 0 means no limit. Default 0.
func WithMaxPages(n int) Option { return func(c *config) { c.maxPages = n } }

// WithMaxDepth stops following links deeper than d: seeds have depth 1, so
// WithMaxDepth(1) fetches the seeds only. 0 means the default; a negative d
// means no limit, which only makes sense together with WithMaxPages, a
// host budget or a context deadline: on the open web some link chains never
// end. Default DefaultMaxDepth (50).
func WithMaxDepth(d int) Option { return func(c *config) { c.maxDepth = d } }

// WithAdaptiveDelay sets Mercator's adaptive politeness: after a fetch
// that took d, its host rests at least factor×d (clamped to 1 min), so slow
// servers are contacted less often. 0 turns it off, leaving only the
// WithDelay minimum, Crawl-delay and back-off. Applies to the default
// frontier only. Default 10, or 0 (off) when WithDelay is given and
// WithAdaptiveDelay is not.
func WithAdaptiveDelay(factor float64) Option {
	return func(c *config) { c.adaptive, c.adaptiveSet = factor, true }
}

// WithHostBudget caps how many URLs of one host are queued over the whole
// crawl, so a trap host (endless calendar, session ids) cannot fill the
// frontier whatever rules it slips past (see TrapLimits). URLs over the
// budget are dropped silently. Applies to the default frontier only. 0 means
// no cap. Default 0.
func WithHostBudget(n int) Option { return func(c *config) { c.hostBudget = n } }

// WithSpillDir keeps most of the queued URLs in a temporary file in dir
// instead of in memory (frontier.MemoryOptions.SpillDir): a BFS crawl's
// queue then costs no memory per URL beyond its seen-set slot (about 13
// bytes), at a few hundred nanoseconds of encoding per URL. The file is
// removed when Run returns. It applies to the default frontier (and is
// passed to WithFrontierFunc's function), not to best-first crawls
// (WithPriority, WithInlinkBoost), whose queues are heaps. New fails if
// dir is not a directory. dir should be on disk: a file in a memory file
// system (tmpfs, as /tmp is on some systems) takes memory again, though
// about half as much. Only the front queues spill: while fewer hosts
// have URLs than the frontier has back queues (about three per worker), as
// in a crawl of a few sites, the queue moves into the in-memory back
// queues (see frontier.MemoryOptions.SpillDir). Default "": the queue
// stays in memory.
func WithSpillDir(dir string) Option { return func(c *config) { c.spillDir = dir } }

// WithPriority makes the crawl best-first: score is called for every link
// followed, with the link and the page it was found on, and URLs with
// higher scores are fetched sooner (seeds get score 0 unless a later link
// raises them). With the default frontier this selects its Priority
// strategy: scores are kept exactly within each of its front queues, and
// floor(score), clamped to 1..4, picks the queue, queue k being served k
// times as often as queue 1 (so scores in [0, 1) share one best-first
// queue). Politeness still holds: a high score never lets a host be
// contacted sooner than its delay. score must be safe for concurrent use.
// Default: none (breadth-first order).
func WithPriority(score func(l *Link, p *Page) float64) Option {
	return func(c *config) { c.priority = score }
}

// WithPageScore sets a function called once for every page fetched, after
// extraction and before Events.OnPage, the Store and the WithPriority
// function see the page; its result is Page.Score. It is where a focused
// crawl scores a page once (say, its main text against a topic) so that
// scoring each of its links can reuse the figure. score may set
// p.Relevant when it judges the page on topic; Stats.Relevant counts those
// pages. score must be safe for concurrent use. Default: none (Page.Score
// is 0).
func WithPageScore(score func(p *Page) float64) Option {
	return func(c *config) { c.pageScore = score }
}

// WithInlinkBoost raises a queued URL's priority by delta for each link to
// it that the crawl finds, the first one included (link-directed crawling:
// URLs many pages point to are fetched sooner). It needs a frontier with a
// Boost(rawURL string, delta float64) bool method, as the default frontier
// has under WithPriority (or with a zero score function for pure in-link
// ordering). 0 turns it off. Default 0.
func WithInlinkBoost(delta float64) Option { return func(c *config) { c.inlinkBoost = delta } }

// WithMainText sets whether Page.MainText is filled with the page's main
// content (maintext.Extract: the article without navigation, ads and
// footers) for HTML pages, before Events.OnPage and the Store see the page.
// It costs a DOM parse per page. Default false.
func WithMainText(on bool) Option { return func(c *config) { c.mainText = on } }

// WithMainTextFunc replaces maintext.Extract as the main-content extractor
// for HTML pages and turns Page.MainText on (as WithMainText(true) does):
// fn is called once per HTML page, after link extraction and before
// duplicate detection, Events.OnPage and the Store, with the page's
// decoded UTF-8 Body, URL and Header filled in, and its result becomes
// Page.MainText. An error is logged at Info and the text returned with it
// is kept. A program that prefers another extractor (go-trafilatura,
// go-readability) plugs it in here without forking the crawler. fn must
// be safe for concurrent use and must not modify the page. Default: nil
// (maintext.Extract).
func WithMainTextFunc(fn func(ctx context.Context, p *Page) (string, error)) Option {
	return func(c *config) { c.mainTextFunc = fn }
}

// DuplicatePolicy says what the crawler does with a page whose content
// duplicates a page it fetched earlier. The zero value skips storing
// duplicates and still follows their links.
type DuplicatePolicy struct {
	// Store stores duplicates too, with Page.Duplicate telling what they
	// duplicate. Default false: duplicates are not stored.
	Store bool
	// NoFollowNear does not follow the links of near-duplicate pages, a
	// defence against traps that serve one page under endless URLs (session
	// ids, calendars) with small changes. Exact duplicates are never
	// followed either way when this is set. Default false.
	NoFollowNear bool
}

// WithDuplicateDetection checks every HTML page's title and main text (see
// WithMainText, which it turns on; the visible text when no main text is
// found; pages with no text are not checked) against the pages seen before
// with d:
// exact duplicates (same text once whitespace and case are folded) and near
// duplicates (same article with a different ad, clock or a few words
// changed) get Page.Duplicate set, are counted in Stats, and are handled by
// policy. A nil d turns detection off. Default: off.
func WithDuplicateDetection(d *dedup.Detector, policy DuplicatePolicy) Option {
	return func(c *config) { c.dups, c.dupPolicy = d, policy }
}

// WithBackoff sets the back-off after a 429, a 503 or a timeout: a host
// rests base after the first, doubling (with jitter) with each consecutive
// one, up to max; Retry-After is honoured up to max. Applies to the default
// frontier only. Default 2 s and 10 min.
func WithBackoff(base, max time.Duration) Option {
	return func(c *config) { c.backoffBase, c.backoffMax = base, max }
}

// WithMaxRetries sets how often a URL is retried after a transient failure
// (timeout, reset, 429, 5xx); each retry waits for the host's back-off.
// Default 2.
func WithMaxRetries(n int) Option { return func(c *config) { c.maxRetries = n } }

// WithFilters sets the filters every seed and link must pass (all of them)
// before it is queued. Default: none (every http(s) URL is followed; give
// SameHost, SameDomain or UnderPath to stay on a site).
func WithFilters(fs ...Filter) Option {
	fs = append([]Filter(nil), fs...)
	return func(c *config) { c.filters = fs }
}

// WithStore sets where pages are kept. Default: none (pages are fetched,
// their links followed, and only Events see them).
func WithStore(s Store) Option { return func(c *config) { c.store = s } }

// WithFrontier replaces the frontier. Default: frontier.NewMemory with BFS
// order, sized for the workers, with the delay and host concurrency options.
func WithFrontier(f frontier.Frontier) Option { return func(c *config) { c.frontier = f } }

// WithFrontierFunc makes New build the frontier with fn, passing the
// options it would give frontier.NewMemory (strategy, workers, depth limit,
// host budget, politeness from WithDelay, WithAdaptiveDelay,
// WithHostConcurrency, WithBackoff, WithPriority), so that a persistent or
// distributed frontier is configured exactly like the default one. The
// crawler owns what fn returns: Run flushes and closes it (if it has Flush
// and Close methods). It takes precedence over WithFrontier. Default: none.
func WithFrontierFunc(fn func(opts frontier.MemoryOptions) (frontier.Frontier, error)) Option {
	return func(c *config) { c.frontierFunc = fn }
}

// WithFetcher replaces the fetcher; it must not follow redirects. Default:
// fetch.New with the user agent, dialer and private-network options.
func WithFetcher(f fetch.Fetcher) Option { return func(c *config) { c.fetcher = f } }

// WithFetchOptions sets the default fetcher's options (timeouts, size
// limits, accepted types). UserAgent, DialContext and AllowPrivateNetworks
// are taken from their own options. Default: fetch's defaults.
func WithFetchOptions(o fetch.Options) Option { return func(c *config) { c.fetchOptions = o } }

// WithNormalizer sets the URL normalizer applied to seeds, links and
// redirect targets. Default: urlnorm.New() (the safe rules).
func WithNormalizer(n *urlnorm.Normalizer) Option { return func(c *config) { c.normalizer = n } }

// WithLogger sets where the crawler logs (fetch errors at Warn, pages at
// Debug). Default: nothing is logged.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithRobots sets whether robots.txt is obeyed. Turning it off is impolite
// and should be reserved for sites you own. Default true.
func WithRobots(obey bool) Option { return func(c *config) { c.robots = obey } }

// WithFollowNofollow sets whether links marked rel=nofollow (or sponsored,
// ugc) are followed. Pages marked nofollow as a whole are never followed.
// Default false.
func WithFollowNofollow(follow bool) Option { return func(c *config) { c.followNofollow = follow } }

// WithEvents sets hooks called during the crawl. Default: none.
func WithEvents(e Events) Option { return func(c *config) { c.events = e } }

// WithProgress calls fn with a Stats snapshot every interval while the crawl
// runs, and once more when it ends. Default: none.
func WithProgress(every time.Duration, fn func(Stats)) Option {
	return func(c *config) { c.progressEvery, c.progress = every, fn }
}

// WithDialContext sets the dialer of the default fetcher, for example a
// crawltest web's DialContext. The private-network guard still applies to
// the connections it returns. Default: net.Dialer with a DNS cache.
func WithDialContext(dial func(ctx context.Context, network, addr string) (net.Conn, error)) Option {
	return func(c *config) { c.dialContext = dial }
}

// WithAllowPrivateNetworks lets the default fetcher connect to loopback,
// private and link-local addresses (needed for crawltest and intranets).
// Default false: such connections are refused after DNS resolution.
func WithAllowPrivateNetworks(allow bool) Option { return func(c *config) { c.allowPrivate = allow } }

func (c *config) validate() error {
	switch {
	case c.workers < 1:
		return fmt.Errorf("trawl: workers must be at least 1, got %d", c.workers)
	case c.delay < 0:
		return fmt.Errorf("trawl: delay must not be negative, got %v", c.delay)
	case c.hostConcurrency < 1:
		return fmt.Errorf("trawl: host concurrency must be at least 1, got %d", c.hostConcurrency)
	case c.maxPages < 0:
		return fmt.Errorf("trawl: max pages must not be negative, got %d", c.maxPages)
	case c.adaptive < 0:
		return fmt.Errorf("trawl: adaptive delay factor must not be negative, got %v", c.adaptive)
	case c.hostBudget < 0:
		return fmt.Errorf("trawl: host budget must not be negative, got %d", c.hostBudget)
	case c.backoffBase < 0 || c.backoffMax < 0:
		return fmt.Errorf("trawl: back-off must not be negative")
	case c.inlinkBoost < 0:
		return fmt.Errorf("trawl: in-link boost must not be negative, got %v", c.inlinkBoost)
	case c.maxRetries < 0:
		return fmt.Errorf("trawl: max retries must not be negative, got %d", c.maxRetries)
	case c.userAgent == "":
		return fmt.Errorf("trawl: user agent must not be empty")
	case c.progress != nil && c.progressEvery <= 0:
		return fmt.Errorf("trawl: progress interval must be positive, got %v", c.progressEvery)
	case len(c.seeds) == 0 && c.frontier == nil && c.frontierFunc == nil:
		return fmt.Errorf("trawl: no seeds (use WithSeeds)")
	}
	for _, k := range c.follow {
		if _, err := extract.ParseKind(k.String()); err != nil {
			return fmt.Errorf("trawl: WithFollow: unknown link kind %d", uint8(k))
		}
	}
	for _, f := range c.filters {
		if f == nil {
			return fmt.Errorf("trawl: nil filter")
		}
	}
	if c.spillDir != "" {
		if fi, err := os.Stat(c.spillDir); err != nil {
			return fmt.Errorf("trawl: spill directory: %w", err)
		} else if !fi.IsDir() {
			return fmt.Errorf("trawl: spill directory %s is not a directory", c.spillDir)
		}
	}
	return nil
}
