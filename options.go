package trawl

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/netip"
	"net/url"
	"time"

	"github.com/trawl-dev/trawl/dedup"
	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/recrawl"
	"github.com/trawl-dev/trawl/robots"
	"github.com/trawl-dev/trawl/urlnorm"
)

// Option configures a Crawler. Options are applied in order. An option that
// sets one value replaces what an earlier one set; an option that takes a
// group (Politeness, Limits, Priority, Shared) merges: each non-zero field
// replaces the one set before, and zero fields keep it. New rejects
// combinations that contradict each other or that the crawler would ignore,
// with an error that says what to give instead.
//
// The options, by concept:
//
//   - what to crawl: WithSeeds, WithFilters, WithFollow, WithArchive,
//     WithFollowNofollow, WithLimits, WithTrapLimits, WithPriority,
//     WithRecrawl;
//   - how to treat hosts: WithPoliteness, WithUserAgent, WithWorkers;
//   - how to fetch: WithFetchOptions (or WithFetcher), WithDialContext,
//     WithAllowPrivateNetworks, WithProxy, WithHeader, WithBasicAuth,
//     WithCookies, WithLogin, WithOnRequest, WithNormalizer;
//   - what to keep: WithStore, WithItems, WithHTML, WithXPath, WithMainText,
//     WithDuplicateDetection;
//   - where URLs wait: WithFrontier, WithShared;
//   - what to watch: WithEvents, WithLogger, WithProgress.
//
// In every group struct the zero value of a field means its default, a
// negative number turns a limit or a wait off, and a boolean is false by
// default.
type Option func(*config)

type config struct {
	seeds      []string
	userAgent  string
	workers    int
	polite     Politeness
	limits     Limits
	traps      TrapLimits
	follow     []extract.Kind
	followSet  bool
	archive    bool
	prio       Priority
	mainText   MainTextFunc
	dups       *dedup.Detector
	dupPolicy  DuplicatePolicy
	filters    []Filter
	store      Store
	frontier   FrontierFunc
	shared     Shared
	fetcher    fetch.Fetcher
	fetchWrap  func(fetch.Fetcher) fetch.Fetcher
	handlers   map[string]func(context.Context, *Page) // WithHandler
	fetchOpts  fetch.Options
	fetchSet   bool // WithFetchOptions was given
	normalizer *urlnorm.Normalizer
	logger     *slog.Logger
	nofollow   bool // WithFollowNofollow
	events     Events
	progEvery  time.Duration
	progress   func(Stats)
	dial       func(ctx context.Context, network, addr string) (net.Conn, error)
	private    bool
	allowNets  []netip.Prefix  // WithAllowNetworks
	allowHosts []string        // WithAllowHosts
	recrawl    *recrawl.Policy // nil: a one-shot crawl (recrawl.go)
	html       []htmlCallback  // WithHTML, in order
	items      ItemSink
	requests   requestConfig // WithHeader, WithOnRequest, cookies, proxy, basic auth
	login      *Login        // WithLogin
}

func defaultConfig() config {
	return config{userAgent: fetch.DefaultUserAgent, workers: 16}
}

// WithSeeds sets the start URLs (depth 1). At least one seed is required
// unless the frontier WithFrontier builds already holds URLs. Default:
// none.
func WithSeeds(urls ...string) Option {
	urls = append([]string(nil), urls...)
	return func(c *config) { c.seeds = urls }
}

// WithUserAgent sets the User-Agent header; its product token (the part
// before "/") is the name robots.txt rules are matched against. Default
// fetch.DefaultUserAgent.
func WithUserAgent(ua string) Option { return func(c *config) { c.userAgent = ua } }

// WithWorkers sets how many fetches may be in flight at once, over all
// hosts. Default 16.
func WithWorkers(n int) Option { return func(c *config) { c.workers = n } }

// NoDelay, as Politeness.Delay, means no wait at all between two requests
// to a host: for tests on loopback and sites you own.
const NoDelay time.Duration = -1

// Politeness says how hard the crawl may press each host. It goes to the
// frontier (frontier.MemoryOptions.Politeness, whatever frontier
// WithFrontier builds). The zero value is the polite default.
//
// A host's next request may start Delay after its previous one ended,
// longer when robots.txt says Crawl-delay, after a 429, 503 or timeout
// (back-off), and for slow servers (Adaptive × the last response time).
// HostConcurrency lets that many requests overlap, each still starting at
// least the delay after the last: so the delay caps a host's rate at
// 1/Delay requests per second whatever HostConcurrency is, and
// HostConcurrency helps only when responses take longer than the delay.
// Measured on crawltest (loopback, one host,
// BenchmarkHostConcurrencyDelay): HostConcurrency 4 with a 200 ms delay
// fetched 5.0 pages/s, exactly as 1 did; for about 20 pages/s from one
// host, set Delay to 50 ms (19.7 pages/s).
type Politeness struct {
	// PerSecond and HostConcurrency say the rate a host gets: at most
	// PerSecond requests a second, at most HostConcurrency of them in
	// flight at once. PerSecond sets Delay to 1/PerSecond (so it is a
	// ceiling: a request starts that long after the previous one ended,
	// and slow responses lower the rate), and like Delay it turns the
	// adaptive delay off unless Adaptive is set too; a robots.txt
	// Crawl-delay and back-off can still slow a host (Stats.Pace says
	// which did). Give PerSecond or Delay, not both. Default 0: Delay's
	// default, about 1 request a second.
	PerSecond float64
	// Delay is the least time between the end of one request to a host
	// and the start of the next. NoDelay means none. Setting it also
	// turns the adaptive delay off unless Adaptive is set too: the delay
	// you set is the delay you get. Default 1 s, with Adaptive 10.
	Delay time.Duration
	// HostConcurrency is how many requests may be in flight to one host at
	// once; the cluster frontier (package cluster) keeps it, and the
	// delay, across its agents. Default 1.
	HostConcurrency int
	// Adaptive is Mercator's adaptive politeness: after a fetch that took
	// d, its host rests at least Adaptive×d (clamped to 1 min). A negative
	// value turns it off. Default 10, or off when Delay is set.
	Adaptive float64
	// BackoffBase and BackoffMax set the back-off after a 429, a 503 or a
	// timeout: a host rests BackoffBase after the first, doubling (with
	// jitter) with each consecutive one, up to BackoffMax; Retry-After is
	// honoured up to BackoffMax. Default 2 s and 10 min.
	BackoffBase, BackoffMax time.Duration
	// MaxCrawlDelay caps the robots.txt Crawl-delay honoured: a host may
	// ask for a day between requests, which would hold its URLs for the
	// whole crawl. A negative value honours any Crawl-delay. Default
	// politeness.DefaultMaxCrawlDelay (5 min, as Heritrix). A host that
	// must rest longer than the adaptive delay's cap (1 min) — a long
	// Crawl-delay, back-off, Retry-After — leaves the frontier's back
	// queues until it is due, so any number of slow hosts do not delay the
	// others.
	MaxCrawlDelay time.Duration
	// IgnoreRobots fetches what robots.txt disallows and does not fetch
	// robots.txt at all. It is impolite: keep it for sites you own.
	IgnoreRobots bool
	// PerIP keys politeness by IP address as well as by host, in two
	// levels as BUbiNG does: the hosts whose names resolve to one address
	// (virtual hosting, shared hosting, CDNs) share IPDelay and
	// IPConcurrency, while each keeps its own Delay, Crawl-delay,
	// back-off and HostConcurrency; a host is fetched when both its own
	// rest and its address's are over and both in-flight limits allow.
	// Names resolve through the fetcher's DNS cache
	// (fetch.Options.DNSCacheTTL, default 5 min; fetch.Options.LookupNetIP
	// replaces the resolver), before their URLs are queued, so the frontier
	// never waits for DNS; a name whose answer expired is resolved again
	// by the worker that fetched it, after it released the host, and a
	// host whose address changed moves to the new one when its next
	// request ends. A name that does not
	// resolve is polite by host alone (and tried again a minute later). A
	// page that names more than 64 hosts not yet resolved queues the
	// others unresolved, and a frontier resumed from disk holds hosts not
	// resolved yet: each is resolved after its first fetch. The
	// address a name has is the lowest of those its DNS answer gives. It
	// needs the default fetcher, or one that implements IPResolver. The
	// cluster frontier (package cluster) then shares hosts out by
	// address, so it holds across the cluster. Default false.
	PerIP bool
	// IPDelay is, with PerIP, the least time between the end of one
	// request to an IP address and the start of the next, whichever of
	// its hosts they are for. It may be shorter than Delay: one site is
	// spared by its own delay, the machine that serves many by this one.
	// NoDelay means none. Default politeness.DefaultIPDelay, 250 ms.
	IPDelay time.Duration
	// IPConcurrency is, with PerIP, how many requests may be in flight to
	// one IP address at once, over all its hosts. Default 1.
	IPConcurrency int
}

// WithPoliteness sets how hard the crawl may press each host (see
// Politeness), merging into what earlier WithPoliteness options set.
// Default: the zero Politeness (robots.txt obeyed, 1 s between requests to
// a host, one at a time, adaptive delay 10, back-off 2 s to 10 min, no
// politeness per IP address).
func WithPoliteness(p Politeness) Option {
	return func(c *config) {
		// PerSecond and Delay say one thing: a later one replaces an
		// earlier other.
		if p.PerSecond != 0 && p.Delay == 0 {
			c.polite.Delay = 0
		}
		if p.Delay != 0 && p.PerSecond == 0 {
			c.polite.PerSecond = 0
		}
		mergeNonZero(&c.polite.PerSecond, p.PerSecond)
		mergeNonZero(&c.polite.Delay, p.Delay)
		mergeNonZero(&c.polite.HostConcurrency, p.HostConcurrency)
		mergeNonZero(&c.polite.Adaptive, p.Adaptive)
		mergeNonZero(&c.polite.BackoffBase, p.BackoffBase)
		mergeNonZero(&c.polite.BackoffMax, p.BackoffMax)
		mergeNonZero(&c.polite.MaxCrawlDelay, p.MaxCrawlDelay)
		c.polite.IgnoreRobots = c.polite.IgnoreRobots || p.IgnoreRobots
		c.polite.PerIP = c.polite.PerIP || p.PerIP
		mergeNonZero(&c.polite.IPDelay, p.IPDelay)
		mergeNonZero(&c.polite.IPConcurrency, p.IPConcurrency)
	}
}

// mergeNonZero sets *dst to v unless v is zero.
func mergeNonZero[T comparable](dst *T, v T) {
	var zero T
	if v != zero {
		*dst = v
	}
}

// DefaultMaxDepth is the hop limit of a crawl whose Limits.MaxDepth is 0:
// deep enough for any real site's link structure, shallow enough to end
// link chains that a generator extends forever.
const DefaultMaxDepth = 50

// DefaultMaxRetries is how often a URL is retried after a transient
// failure when Limits.MaxRetries is 0.
const DefaultMaxRetries = 2

// DefaultHostBudget is the number of URLs of one host a crawl queues when
// Limits.HostBudget is 0. It bounds what no trap rule catches, such as a
// tree of links with random names, which only the hop limit would
// otherwise end (50 levels of any fan-out): such a host costs at most this
// many fetches. Real sites stay far below it: of the documentation sites
// in Debian's packages, the largest (Rust's std and books, rust-doc) has
// about 22,000 pages on one host, and Java's API docs (openjdk-17-doc)
// about 10,000. A tree of random host names (subdomains without end) is not
// bounded by it, only by the hop limit: a scope Filter (SameHost,
// SameDomain) or Limits.MaxPages bounds that.
const DefaultHostBudget = 100_000

// Limits bound a crawl. The zero value is the default: no page limit, the
// hop limit DefaultMaxDepth, the host budget DefaultHostBudget,
// DefaultMaxRetries retries. TrapLimits bound spider traps on top of these.
type Limits struct {
	// MaxPages stops the crawl after this many page fetches (robots.txt
	// requests and retries not counted); exactly that many are made when
	// enough URLs are reachable. Default 0: no limit. With WithShared's
	// PageCounter the limit holds over every crawler sharing it.
	MaxPages int
	// MaxDepth stops following links deeper than this: seeds have depth 1,
	// so 1 fetches the seeds only. A negative value means no limit, which
	// only makes sense with MaxPages, HostBudget or a context deadline: on
	// the open web some link chains never end. Default DefaultMaxDepth.
	MaxDepth int
	// HostBudget caps how many URLs of one host are queued over the whole
	// crawl, so a trap host cannot fill the frontier whatever rules it
	// slips past. URLs over the budget get a DecisionBudget. A negative
	// value means no cap. Default DefaultHostBudget.
	HostBudget int
	// MaxRetries is how often a URL is retried after a transient failure
	// (timeout, reset, 429, 5xx); each retry waits for the host's
	// back-off. A negative value means no retry. Default
	// DefaultMaxRetries.
	MaxRetries int
}

// WithLimits bounds the crawl (see Limits), merging into what earlier
// WithLimits options set. Default: the zero Limits.
func WithLimits(l Limits) Option {
	return func(c *config) {
		mergeNonZero(&c.limits.MaxPages, l.MaxPages)
		mergeNonZero(&c.limits.MaxDepth, l.MaxDepth)
		mergeNonZero(&c.limits.HostBudget, l.HostBudget)
		mergeNonZero(&c.limits.MaxRetries, l.MaxRetries)
	}
}

// Priority makes a crawl best-first. With any field set the frontier gets
// the frontier.Priority strategy: scores are kept exactly within each of
// its front queues, and floor(score), clamped to 1..4, picks the queue,
// queue k being served k times as often as queue 1 (so scores in [0, 1)
// share one best-first queue). Politeness still holds: a high score never
// lets a host be contacted sooner than its delay. The functions must be
// safe for concurrent use.
type Priority struct {
	// Link scores every link followed, with the link and the page it was
	// found on; URLs with higher scores are fetched sooner (seeds get 0).
	// A sitemap's <priority> for the URL is added to it.
	Link func(l *Link, p *Page) float64
	// Page is called once for every page fetched, after extraction and
	// before Events.OnPage, the Store and Link see the page; its result is
	// Page.Score. It is where a focused crawl scores a page once (say, its
	// main text against a topic) so that scoring each of its links can
	// reuse the figure. It may set p.Relevant when it judges the page on
	// topic; Stats.Pages.Relevant counts those pages.
	Page func(p *Page) float64
	// Inlink raises a queued URL's priority by this much for each link to
	// it the crawl finds, the first one included (link-directed crawling:
	// URLs many pages point to are fetched sooner). The frontier must be a
	// frontier.Booster (frontier.Memory is, and disk.Frontier under
	// frontier.Priority) ordered by frontier.Priority (a
	// frontier.Orderer that says another order is refused); New fails
	// otherwise.
	Inlink float64
	// OPIC orders the crawl by online page importance (package
	// frontier/opic): each page's cash, handed on through the links of the
	// pages fetched, is its priority, and the URL holding the most is
	// fetched first (within politeness). With Link set too, a page's cash
	// is split among its links in proportion to 1 + their Link score (0 for
	// a negative one), so cash flows toward the topic. Page.Importance and
	// the decision log's importance give each page's cash when fetched.
	// The frontier must be a frontier.Booster and frontier.SeenChecker
	// (frontier.Memory is, and disk.Frontier under frontier.Priority), or
	// place the cash itself as an opic.Carrier (package cluster's frontier
	// is: a link's share of cash travels to the agent that owns its URL);
	// New fails otherwise, and for a frontier.Orderer whose order is not
	// frontier.Priority (it would ignore the cash). A frontier that is also a
	// frontier.StateKeeper (disk.Frontier) keeps the crawl's cash accounts
	// with its queues: they are saved before each Done and when Run
	// returns, and a crawl resumed from the frontier goes on from them,
	// its seeds bringing no new cash.
	OPIC bool
}

func (p Priority) on() bool { return p.Link != nil || p.Inlink > 0 || p.OPIC }

// WithPriority makes the crawl best-first (see Priority), merging into what
// earlier WithPriority options set. Default: none (breadth-first order).
func WithPriority(p Priority) Option {
	return func(c *config) {
		if p.Link != nil {
			c.prio.Link = p.Link
		}
		if p.Page != nil {
			c.prio.Page = p.Page
		}
		mergeNonZero(&c.prio.Inlink, p.Inlink)
		c.prio.OPIC = c.prio.OPIC || p.OPIC
	}
}

// MainTextFunc finds a page's main content: it is called once per HTML
// page, after link extraction and before duplicate detection, Events.OnPage
// and the Store, with the page's decoded UTF-8 Body, URL and Header filled
// in, and its result becomes Page.MainText. An error is logged at Info and
// the text returned with it is kept. It must be safe for concurrent use and
// must not modify the page.
type MainTextFunc func(ctx context.Context, p *Page) (string, error)

// WithMainText fills Page.MainText of HTML pages with fn, for example
// MainText (the article without navigation, ads and footers),
// MainTextMarkdown (the same as Markdown), or another
// extractor a program prefers (go-trafilatura, go-readability) without
// forking the crawler. nil turns it off (WithDuplicateDetection still uses
// MainText for its own comparison). Default nil.
func WithMainText(fn MainTextFunc) Option { return func(c *config) { c.mainText = fn } }

// DuplicatePolicy says what the crawler does with a page whose content
// duplicates a page it fetched earlier. Whose links are followed is a trap
// rule: TrapLimits.Duplicates.
type DuplicatePolicy struct {
	// Store stores duplicates too, with Page.Duplicate telling what they
	// duplicate. Default false: duplicates are not stored.
	Store bool
}

// WithDuplicateDetection checks every HTML page's title and main text (see
// WithMainText; MainText when no function is set; the visible text when no
// main text is found; pages with no text are not checked) against the
// pages seen before with d: exact duplicates (same text once whitespace and
// case are folded) and near duplicates (same article with a different ad,
// clock or a few words changed) get Page.Duplicate set, are counted in
// Stats, and are handled by policy and TrapLimits.Duplicates. A nil d turns
// detection off. Default: off.
func WithDuplicateDetection(d *dedup.Detector, policy DuplicatePolicy) Option {
	return func(c *config) { c.dups, c.dupPolicy = d, policy }
}

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

// FrontierFunc builds the frontier of a crawl from the options the crawler
// would give frontier.NewMemory: strategy, workers, depth limit, host
// budget and politeness, from WithLimits, WithPoliteness and WithPriority.
// A persistent or distributed frontier is configured from them so that it
// behaves as the default one does.
type FrontierFunc func(opts frontier.MemoryOptions) (frontier.Frontier, error)

// WithFrontier makes New build the frontier with fn (see FrontierFunc).
// The crawler owns what fn returns: Run flushes it (frontier.Flusher) and
// closes it (io.Closer) before it returns, and a program that resumes a
// crawl opens it again. To keep most of the memory frontier's queue in a
// temporary file, set opts.SpillDir and call frontier.NewMemory. Default:
// frontier.NewMemory with opts.
func WithFrontier(fn FrontierFunc) Option { return func(c *config) { c.frontier = fn } }

// WithFetcher replaces the fetcher; it must not follow redirects. New
// fails when options that configure the default fetcher are given too
// (WithFetchOptions, WithDialContext, WithAllowPrivateNetworks, WithProxy):
// configure your fetcher instead. Default: fetch.New with the user agent,
// dialer and private-network options.
func WithFetcher(f fetch.Fetcher) Option { return func(c *config) { c.fetcher = f } }

// WithFetchWrapper puts wrap around the crawler's fetcher (its own, built
// from the other options, or the one WithFetcher gives): a cache or an
// archive that answers some URLs itself and hands the others to the
// fetcher it wraps, such as store.Replay's Wrap (-replay DIR on the
// spiders), which re-runs a crawl from its WARC files, or package
// render's Wrapper, which renders pages in headless Chromium. robots.txt
// is fetched through it too. When the crawl ends, Run closes the wrapped
// fetcher if it is an io.Closer (a browser fetcher ends its browser).
// Default: none.
func WithFetchWrapper(wrap func(fetch.Fetcher) fetch.Fetcher) Option {
	return func(c *config) { c.fetchWrap = wrap }
}

// RobotsUser is an optional capability of the fetcher a crawl uses
// (WithFetchWrapper's or WithFetcher's): a fetcher that makes requests of
// its own beyond the URLs the crawler hands it, such as package render's,
// whose browser requests a page's scripts and style sheets. New calls
// UseRobots once, before the crawl, with the crawl's robots.txt check
// (fetching a host's robots.txt if need be; always true when robots.txt
// is ignored), for the fetcher to ask about those requests.
type RobotsUser interface {
	UseRobots(allowed func(ctx context.Context, u *url.URL) bool)
}

// WithFetchOptions sets the default fetcher's options (timeouts, size
// limits, accepted types, TLS). UserAgent, DialContext, Proxy and
// AllowPrivateNetworks have options of their own, which robots.txt and the
// request hook see too: New fails when o sets them, naming the option to
// use. Default: fetch's defaults.
func WithFetchOptions(o fetch.Options) Option {
	return func(c *config) { c.fetchOpts, c.fetchSet = o, true }
}

// WithNormalizer sets the URL normalizer applied to seeds, links and
// redirect targets. Default: urlnorm.New() (the safe rules).
func WithNormalizer(n *urlnorm.Normalizer) Option { return func(c *config) { c.normalizer = n } }

// WithLogger sets where the crawler logs (fetch errors at Warn, pages at
// Debug). Default: nothing is logged.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithFollowNofollow sets whether links marked rel=nofollow (or sponsored,
// ugc) are followed. Pages marked nofollow as a whole are never followed.
// Default false.
func WithFollowNofollow(follow bool) Option { return func(c *config) { c.nofollow = follow } }

// WithEvents adds hooks called during the crawl. Hooks add up, as
// Colly's OnError callbacks do: a later WithEvents adds its hooks to the
// earlier ones' (JoinEvents: called in the order given), never replaces
// them, so a library's observers (trawlcli's features, a report recorder)
// and a program's own hooks all see the crawl. Default: none.
func WithEvents(e Events) Option { return func(c *config) { c.events = JoinEvents(c.events, e) } }

// WithProgress calls fn with a Stats snapshot every interval while the crawl
// runs, and once more when it ends. Default: none.
func WithProgress(every time.Duration, fn func(Stats)) Option {
	return func(c *config) { c.progEvery, c.progress = every, fn }
}

// WithDialContext sets the dialer of the default fetcher, for example a
// crawltest web's DialContext. The private-network guard still applies to
// the connections it returns. Default: net.Dialer with a DNS cache.
func WithDialContext(dial func(ctx context.Context, network, addr string) (net.Conn, error)) Option {
	return func(c *config) { c.dial = dial }
}

// WithAllowPrivateNetworks lets the default fetcher connect to loopback and
// private addresses (needed for crawltest and intranets), but not to
// link-local and cloud metadata addresses (169.254.169.254 and the like,
// see fetch.Options.AllowNetworks), which a page could otherwise send the
// crawler to. Prefer WithAllowNetworks, which lets through only what it
// names. Default false: such connections are refused after DNS
// resolution.
func WithAllowPrivateNetworks(allow bool) Option { return func(c *config) { c.private = allow } }

// WithAllowNetworks lets the default fetcher connect to addresses in the
// prefixes given, and nowhere else outside the public Internet: 127.0.0.0/8
// for a crawl of loopback hosts, 10.1.2.0/24 for one intranet. A metadata
// address is reached only when a prefix names it. Given again, the prefixes
// add up. Default: none.
func WithAllowNetworks(prefixes ...netip.Prefix) Option {
	prefixes = append([]netip.Prefix(nil), prefixes...)
	return func(c *config) { c.allowNets = append(c.allowNets, prefixes...) }
}

// WithAllowHosts lets the default fetcher connect to the hosts named
// wherever they resolve, loopback and private addresses included (not
// link-local and cloud metadata ones, unless WithAllowNetworks names
// them), while every other host stays guarded: "intranet.example.org", or
// "*.corp.example.org" for every name under it. A redirect or a link from
// an allowed host to another name that resolves to a private address is
// still refused. Trust the names' DNS: it chooses where the crawler
// connects. Given again, the names add up. Default: none.
func WithAllowHosts(names ...string) Option {
	names = append([]string(nil), names...)
	return func(c *config) { c.allowHosts = append(c.allowHosts, names...) }
}

// PageCounter counts page fetches for Limits.MaxPages across several
// crawlers (package cluster counts them in Redis): AddPage adds one and
// returns the new total. It must be safe for concurrent use.
type PageCounter interface {
	AddPage(ctx context.Context) (int64, error)
}

// Shared is what several crawler processes of one crawl share (package
// cluster fills it).
type Shared struct {
	// Robots makes the crawler look robots.txt responses up before
	// fetching them, and save there what it fetches (robots.SharedFetch),
	// so that crawlers sharing it fetch each robots.txt once between them.
	// Each crawler still parses and caches the rules itself.
	Robots robots.Shared
	// Pages makes Limits.MaxPages count page fetches over every crawler
	// sharing it. When it fails, the crawler stops as if the limit were
	// reached.
	Pages PageCounter
}

// WithShared sets what this crawler shares with others (see Shared),
// merging into what earlier WithShared options set. Default: nothing
// shared.
func WithShared(s Shared) Option {
	return func(c *config) {
		if s.Robots != nil {
			c.shared.Robots = s.Robots
		}
		if s.Pages != nil {
			c.shared.Pages = s.Pages
		}
	}
}

// resolve fills defaults in and returns an error for an invalid or
// contradictory configuration, saying what to do instead.
func (c *config) resolve() error {
	if err := c.validate(); err != nil {
		return err
	}
	if err := c.contradictions(); err != nil {
		return err
	}
	p := &c.polite
	if p.PerSecond > 0 {
		p.Delay = max(time.Duration(float64(time.Second)/p.PerSecond), 1) // 1 ns: as good as none
	}
	switch {
	case p.Delay == 0 && p.Adaptive == 0:
		p.Delay, p.Adaptive = time.Second, 10
	case p.Delay == 0:
		p.Delay = time.Second
	case p.Adaptive == 0:
		p.Adaptive = -1 // the delay the user set is the delay
	}
	if p.HostConcurrency == 0 {
		p.HostConcurrency = 1
	}
	if c.limits.MaxDepth == 0 {
		c.limits.MaxDepth = DefaultMaxDepth
	}
	if c.limits.MaxRetries == 0 {
		c.limits.MaxRetries = DefaultMaxRetries
	}
	switch {
	case c.limits.HostBudget == 0:
		c.limits.HostBudget = DefaultHostBudget
	case c.limits.HostBudget < 0:
		c.limits.HostBudget = 0 // none: the frontier's zero
	}
	c.traps = c.traps.withDefaults()
	return nil
}

func (c *config) validate() error {
	p := c.polite
	switch {
	case c.workers < 1:
		return fmt.Errorf("trawl: workers must be at least 1, got %d", c.workers)
	case p.Delay < 0 && p.Delay != NoDelay:
		return fmt.Errorf("trawl: Politeness.Delay must not be negative, got %v (NoDelay means none)", p.Delay)
	case p.PerSecond < 0 || math.IsNaN(p.PerSecond) || math.IsInf(p.PerSecond, 0):
		return fmt.Errorf("trawl: Politeness.PerSecond must be a positive number, got %v", p.PerSecond)
	case p.PerSecond > 0 && p.Delay != 0:
		return fmt.Errorf("trawl: Politeness.PerSecond (%v) and Delay (%v) both set: they say the same thing, give one", p.PerSecond, p.Delay)
	case p.HostConcurrency < 0:
		return fmt.Errorf("trawl: Politeness.HostConcurrency must not be negative, got %d", p.HostConcurrency)
	case p.BackoffBase < 0 || p.BackoffMax < 0:
		return fmt.Errorf("trawl: Politeness back-off must not be negative")
	case p.IPDelay < 0 && p.IPDelay != NoDelay:
		return fmt.Errorf("trawl: Politeness.IPDelay must not be negative, got %v (NoDelay means none)", p.IPDelay)
	case p.IPConcurrency < 0:
		return fmt.Errorf("trawl: Politeness.IPConcurrency must not be negative, got %d", p.IPConcurrency)
	case !p.PerIP && (p.IPDelay != 0 || p.IPConcurrency != 0):
		return fmt.Errorf("trawl: Politeness.IPDelay and IPConcurrency apply only with PerIP: set PerIP too")
	case c.limits.MaxPages < 0:
		return fmt.Errorf("trawl: Limits.MaxPages must not be negative, got %d", c.limits.MaxPages)
	case c.prio.Inlink < 0:
		return fmt.Errorf("trawl: Priority.Inlink must not be negative, got %v", c.prio.Inlink)
	case c.userAgent == "":
		return fmt.Errorf("trawl: user agent must not be empty")
	case c.progress != nil && c.progEvery <= 0:
		return fmt.Errorf("trawl: progress interval must be positive, got %v", c.progEvery)
	case len(c.seeds) == 0 && c.frontier == nil:
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
	return nil
}

// contradictions rejects options that another option makes meaningless.
func (c *config) contradictions() error {
	fo := c.fetchOpts
	switch {
	case fo.UserAgent != "":
		return fmt.Errorf("trawl: WithFetchOptions: set the user agent with WithUserAgent (robots.txt matches its product token)")
	case fo.DialContext != nil:
		return fmt.Errorf("trawl: WithFetchOptions: set the dialer with WithDialContext")
	case fo.AllowPrivateNetworks || len(fo.AllowNetworks) > 0 || len(fo.AllowHosts) > 0:
		return fmt.Errorf("trawl: WithFetchOptions: allow private networks with WithAllowNetworks, WithAllowHosts or WithAllowPrivateNetworks(true)")
	case fo.Proxy != nil:
		return fmt.Errorf("trawl: WithFetchOptions: set the proxy with WithProxy")
	case c.fetcher != nil && c.fetchSet:
		return fmt.Errorf("trawl: WithFetchOptions configures the default fetcher, not one given with WithFetcher: configure your fetcher instead")
	case c.fetcher != nil && c.dial != nil:
		return fmt.Errorf("trawl: WithDialContext configures the default fetcher, not one given with WithFetcher: configure your fetcher instead")
	case c.fetcher != nil && (c.private || len(c.allowNets) > 0 || len(c.allowHosts) > 0):
		return fmt.Errorf("trawl: WithAllowPrivateNetworks configures the default fetcher, not one given with WithFetcher: configure your fetcher instead")
	case c.fetcher != nil && c.requests.proxy != nil:
		return fmt.Errorf("trawl: WithProxy configures the default fetcher, not one given with WithFetcher: configure your fetcher instead")
	case c.polite.IgnoreRobots && c.shared.Robots != nil:
		return fmt.Errorf("trawl: Politeness.IgnoreRobots with a shared robots.txt store (WithShared): drop one of them")
	case c.shared.Pages != nil && c.limits.MaxPages == 0:
		return fmt.Errorf("trawl: WithShared's PageCounter counts toward Limits.MaxPages, which is not set")
	}
	return nil
}
