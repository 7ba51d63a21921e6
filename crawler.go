package trawl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trawl-dev/trawl/dedup"
	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/maintext"
	"github.com/trawl-dev/trawl/politeness"
	"github.com/trawl-dev/trawl/robots"
	"github.com/trawl-dev/trawl/urlnorm"
)

// maxRedirects bounds a redirect chain; a redirect target (or a meta
// refresh target) is queued as a new URL with its hop count, so loops end
// at the frontier's duplicate check and long chains end here.
const maxRedirects = 10

// maxPrivateHosts bounds the set of hosts found to be on private addresses.
const maxPrivateHosts = 100_000

// Crawler crawls the web from its seeds. Build one with New and call Run
// once. Stats may be called at any time, from any goroutine.
type Crawler struct {
	cfg      config
	front    frontier.Frontier
	fetcher  fetch.Fetcher
	robots   *robots.Cache // nil when robots.txt is ignored
	ownFront bool          // the crawler made the frontier and closes it
	norm     *urlnorm.Normalizer
	botName  string
	log      *slog.Logger
	seeds    []frontier.Request
	stats    stats
	reserved atomic.Int64 // page fetches begun, for WithMaxPages
	ran      atomic.Bool
	stop     context.CancelFunc    // stops handing out URLs once a limit is reached
	frontErr atomic.Pointer[error] // first error from the frontier's Next, which ends the crawl
	maxDepth int                   // effective hop limit, 0 for none
	traps    *trapGuard
	follows  kindSet          // the kinds of reference followed
	xopts    *extract.Options // read-only options for every extract call
	sitemaps sitemapBook
	rc       *recrawler // nil for a one-shot crawl (recrawl.go)

	privateSeeds atomic.Int64 // seeds refused because their host is private
	privateAny   atomic.Bool  // privateHosts is not empty
	privateMu    sync.Mutex
	privateHosts map[string]bool // politeness keys of hosts whose robots.txt fetch hit a private address

	html          []htmlCallback // WithHTML callbacks, compiled
	sels          selectors      // selectors compiled by Element methods
	metas         metaBook       // request metadata, until its URL is fetched
	plainRequests bool           // no header, hook, cookie or auth: fetch requests carry no header
}

// New returns a Crawler configured by opts, or an error naming the first
// invalid option or seed.
func New(opts ...Option) (*Crawler, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.delaySet && !cfg.adaptiveSet {
		cfg.adaptive = 0 // the delay the user set is the delay (see WithDelay)
	}
	c := &Crawler{cfg: cfg, norm: cfg.normalizer, log: cfg.logger, botName: productToken(cfg.userAgent)}
	if err := c.compileHTML(); err != nil {
		return nil, err
	}
	if err := c.setupRequests(); err != nil {
		return nil, err
	}
	switch {
	case cfg.maxDepth == 0:
		c.maxDepth = DefaultMaxDepth
	case cfg.maxDepth > 0:
		c.maxDepth = cfg.maxDepth
	}
	c.traps = newTrapGuard(cfg.traps)
	kinds := defaultFollow
	if cfg.followSet {
		kinds = cfg.follow
	}
	if cfg.archive {
		kinds = append(append([]extract.Kind(nil), kinds...), extract.Embed, extract.Style)
	}
	c.follows = newKindSet(kinds)
	if c.norm == nil {
		c.norm = urlnorm.New()
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	c.xopts = &extract.Options{Normalizer: c.norm, BotName: c.botName}
	for _, s := range cfg.seeds {
		n, err := c.norm.Normalize(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("trawl: seed %q: %w", s, err)
		}
		c.seeds = append(c.seeds, frontier.Request{URL: n, Depth: 1})
	}

	c.fetcher = cfg.fetcher
	if c.fetcher == nil {
		fo := cfg.fetchOptions
		fo.UserAgent = cfg.userAgent
		fo.DialContext = cfg.dialContext
		fo.AllowPrivateNetworks = cfg.allowPrivate
		if p := c.cfg.requests.proxy; p != nil {
			fo.Proxy = p
		}
		if len(fo.AcceptTypes) == 0 {
			fo.AcceptTypes = acceptTypes(c.follows, cfg.archive)
		}
		if fo.MaxConnsPerHost < cfg.hostConcurrency {
			fo.MaxConnsPerHost = cfg.hostConcurrency
		}
		if es, ok := cfg.store.(ExchangeStore); ok {
			fo.OnExchange = c.exchangeHook(es, fo.OnExchange)
		}
		c.fetcher = fetch.New(&fo)
	}
	if cfg.robots {
		// Each hop's deadline covers the wait spacedHops may add before
		// a redirect back to the same host, besides the fetch itself
		// (which the fetcher bounds on its own).
		c.robots = robots.NewCache(cfg.shared.robotsFetch(c.spacedHops(robotsFetchFunc(c.fetcher, cfg.userAgent))),
			&robots.CacheOptions{FetchTimeout: robots.DefaultFetchTimeout + max(cfg.delay, 0)})
	}
	strategy := frontier.BFS
	if cfg.priority != nil || cfg.inlinkBoost > 0 {
		strategy = frontier.Priority
	}
	memOpts := frontier.MemoryOptions{
		Strategy:   strategy,
		Workers:    cfg.workers,
		MaxDepth:   c.maxDepth,
		MaxPerHost: cfg.hostBudget,
		SpillDir:   cfg.spillDir,
		Politeness: politeness.Config{
			MinDelay:        minDelay(cfg.delay),
			Factor:          adaptiveFactor(cfg.adaptive),
			HostConcurrency: cfg.hostConcurrency,
			BackoffBase:     cfg.backoffBase,
			BackoffMax:      cfg.backoffMax,
		},
	}
	switch {
	case cfg.frontierFunc != nil:
		f, err := cfg.frontierFunc(memOpts)
		if err != nil {
			return nil, fmt.Errorf("trawl: frontier: %w", err)
		}
		c.front, c.ownFront = f, true
	case cfg.frontier != nil:
		c.front = cfg.frontier
	default:
		c.front, c.ownFront = frontier.NewMemory(&memOpts), true
	}
	c.rc = newRecrawler(&cfg)
	if err := c.rc.checkFrontier(c.front); err != nil {
		return nil, err
	}
	return c, nil
}

// minDelay maps WithDelay's value to politeness.Config.MinDelay, where 0
// means the default and a negative value means none.
func minDelay(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// adaptiveFactor maps WithAdaptiveDelay's factor to politeness.Config.Factor,
// where 0 means the default and a negative value means off.
func adaptiveFactor(f float64) float64 {
	if f == 0 {
		return -1
	}
	return f
}

// productToken returns the robots.txt product token of a User-Agent string:
// "mybot" for "MyBot/1.0 (+https://example.com)".
func productToken(ua string) string {
	if i := strings.IndexAny(ua, "/ ("); i >= 0 {
		ua = ua[:i]
	}
	return strings.ToLower(strings.TrimSpace(ua))
}

// robotsFetchFunc adapts the fetcher for the robots.txt cache: the plain Get
// of *fetch.HTTP when it has one, else Fetch, with the User-Agent ua,
// wrapped into an http.Response.
func robotsFetchFunc(f fetch.Fetcher, ua string) robots.FetchFunc {
	if g, ok := f.(interface {
		Get(ctx context.Context, u *url.URL) (*http.Response, error)
	}); ok {
		return g.Get
	}
	return func(ctx context.Context, u *url.URL) (*http.Response, error) {
		resp, err := f.Fetch(ctx, &fetch.Request{URL: u, Header: http.Header{"User-Agent": {ua}}})
		if resp == nil {
			return nil, err
		}
		h := resp.Header.Clone()
		if resp.Location != nil {
			h.Set("Location", resp.Location.String())
		}
		return &http.Response{
			StatusCode: resp.Status,
			Header:     h,
			Body:       io.NopCloser(bytes.NewReader(resp.Body)),
		}, nil
	}
}

// robotsHops records, for one robots.txt lookup, when each host was last
// contacted, so that redirect hops back to a host wait for its delay.
type robotsHops struct {
	mu     sync.Mutex
	last   map[string]time.Time
	status int // the last hop's HTTP status, for Events.OnDecision
}

type robotsHopsKey struct{}

// spacedHops wraps the robots.txt fetch so that, within one lookup (marked
// by a *robotsHops in ctx), a redirect hop to a host already contacted waits
// the configured delay first: robots.txt served as a redirect to the same
// host must not make two requests back to back.
func (c *Crawler) spacedHops(fetch robots.FetchFunc) robots.FetchFunc {
	return func(ctx context.Context, u *url.URL) (*http.Response, error) {
		hops, _ := ctx.Value(robotsHopsKey{}).(*robotsHops)
		if hops == nil {
			return fetch(ctx, u)
		}
		key := urlnorm.Key(u)
		hops.mu.Lock()
		last, seen := hops.last[key]
		hops.mu.Unlock()
		if seen {
			if wait := time.Until(last.Add(c.cfg.delay)); wait > 0 {
				t := time.NewTimer(wait)
				select {
				case <-ctx.Done():
					t.Stop()
					return nil, ctx.Err()
				case <-t.C:
				}
			}
		}
		resp, err := fetch(ctx, u)
		hops.mu.Lock()
		hops.last[key] = time.Now()
		if resp != nil {
			hops.status = resp.StatusCode
		}
		hops.mu.Unlock()
		return resp, err
	}
}

// Stats returns a snapshot of the crawl's counters. It is safe to call while
// Run is running.
func (c *Crawler) Stats() Stats {
	st := c.stats.snapshot(c.front.Len())
	st.HostsWaiting = c.hostsWaiting()
	c.rc.fill(&st)
	return st
}

// Run crawls until the frontier is exhausted, the page limit is reached, the
// frontier fails, or ctx is cancelled. In every case it lets in-flight
// fetches finish (a cancelled ctx cuts them short), closes the Store, and
// returns only when every goroutine it started has exited. It returns
// ctx.Err() when ctx was cancelled, the frontier's error (from Next) if it
// failed, the Store's Close error if any, and nil otherwise. Run may be
// called once.
func (c *Crawler) Run(ctx context.Context) error {
	if !c.ran.CompareAndSwap(false, true) {
		return errors.New("trawl: Run called twice")
	}
	c.stats.setStart(time.Now())
	defer func() { c.stats.end.Store(time.Now().UnixNano()) }()

	// nextCtx ends when a limit is reached: workers stop taking URLs but
	// finish the fetch in hand under ctx.
	nextCtx, stop := context.WithCancel(ctx)
	c.stop = stop
	defer stop()

	c.offer(ctx, c.seeds)

	var workers, reporter sync.WaitGroup
	for range c.cfg.workers {
		workers.Go(func() { c.worker(ctx, nextCtx) })
	}
	progressDone := make(chan struct{})
	if c.cfg.progress != nil {
		reporter.Go(func() { c.reportProgress(progressDone) })
	}
	workers.Wait()
	close(progressDone)
	reporter.Wait()

	var err error
	if ferr := c.frontErr.Load(); ferr != nil {
		err = fmt.Errorf("trawl: frontier: %w", *ferr)
	}
	if n := c.privateSeeds.Load(); n > 0 && n >= int64(len(c.seeds)) && c.stats.fetched.Load() == 0 {
		err = errors.Join(err, fmt.Errorf("trawl: every seed (%d) is on a private or loopback network address, which "+
			"is refused by default: allow it with WithAllowPrivateNetworks(true) (-allow-private in the example spiders): %w",
			len(c.seeds), fetch.ErrPrivateAddress))
	}
	if c.cfg.store != nil {
		if cerr := c.cfg.store.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("trawl: closing store: %w", cerr))
		}
	}
	err = errors.Join(err, c.closeItems())
	// Any frontier that spills (frontier.Memory, or one wrapping it).
	if m, ok := c.front.(interface{ SpillStats() frontier.SpillStats }); ok {
		if serr := m.SpillStats().Err; serr != nil {
			c.log.Warn("the frontier stopped spilling to disk and kept its queue in memory", "err", serr)
		}
	}
	// A frontier given with WithFrontier belongs to the caller, who may
	// resume from it: flush it, but close only one the crawler made.
	if f, ok := c.front.(interface{ Flush() error }); ok {
		if ferr := f.Flush(); ferr != nil {
			err = errors.Join(err, fmt.Errorf("trawl: flushing frontier: %w", ferr))
		}
	}
	if closer, ok := c.front.(io.Closer); ok && c.ownFront {
		if cerr := closer.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("trawl: closing frontier: %w", cerr))
		}
	}
	if f, ok := c.fetcher.(interface{ CloseIdleConnections() }); ok && c.cfg.fetcher == nil {
		f.CloseIdleConnections()
	}
	if c.cfg.progress != nil {
		c.cfg.progress(c.Stats())
	}
	if ctx.Err() != nil {
		return errors.Join(ctx.Err(), err)
	}
	return err
}

// worker takes URLs from the frontier until it is exhausted or nextCtx ends.
func (c *Crawler) worker(ctx, nextCtx context.Context) {
	for {
		req, err := c.front.Next(nextCtx)
		if err != nil {
			if !errors.Is(err, frontier.ErrEmpty) && nextCtx.Err() == nil {
				c.log.Error("frontier failed", "err", err)
				c.frontErr.CompareAndSwap(nil, &err)
				c.stop()
			}
			return
		}
		out := c.visit(ctx, req)
		if !out.Retry && !out.Requeue {
			c.metas.drop(req.URL)
		}
		if err := c.front.Done(req, out); err != nil {
			c.log.Error("frontier done failed", "url", req.URL, "err", err)
		}
	}
}

// visit is one pass of the crawl loop for one URL: robots.txt, fetch,
// extract, store, follow. It returns what the frontier must be told.
func (c *Crawler) visit(ctx context.Context, req frontier.Request) frontier.Outcome {
	u, err := url.Parse(req.URL)
	if err != nil {
		c.fail(ctx, req.URL, "bad-url", err)
		return frontier.Outcome{NoContact: true}
	}
	hist := c.rc.begin(c, req) // the page's visit history, with WithRecrawl

	// robots.txt: fetched once per host and cached. Its fetch is a contact
	// with the host, so the URL goes back to wait for the host's delay.
	var crawlDelay time.Duration
	if c.robots != nil {
		if c.isPrivateHost(u) {
			c.refusePrivate(ctx, req, nil)
			return frontier.Outcome{NoContact: true}
		}
		rules, cached := c.robots.Peek(u)
		if !cached {
			start := time.Now()
			hops := &robotsHops{last: make(map[string]time.Time)}
			rules, err := c.robots.Rules(context.WithValue(ctx, robotsHopsKey{}, hops), u)
			c.stats.robotsFetches.Add(1)
			if err != nil && ctx.Err() == nil {
				if errors.Is(err, fetch.ErrPrivateAddress) {
					// Not robots.txt's fault: the host may not be
					// reached at all. Say so for this URL and the rest.
					c.markPrivate(u)
					c.refusePrivate(ctx, req, err)
					return frontier.Outcome{NoContact: true}
				}
				// The cache answers with disallow-all (5xx, network
				// error, timeout) or allow-all (too many redirects)
				// meanwhile.
				c.fail(ctx, u.Scheme+"://"+u.Host+"/robots.txt", "robots", err)
			}
			c.decideRobotsTxt(ctx, u.Scheme+"://"+u.Host+"/robots.txt", hops, err)
			// The robots.txt fetch was a contact: the URL waits for the
			// host's next turn, which the Crawl-delay just learned
			// already governs. A URL the new rules disallow is done
			// now, rather than after the rest that a slow robots.txt
			// earns its host.
			if err == nil && c.follows.has(extract.Sitemap) {
				c.offerSitemaps(ctx, u, rules.Sitemaps(), req.Depth+1)
			}
			out := frontier.Outcome{Requeue: true, Duration: time.Since(start), CrawlDelay: rules.CrawlDelay(c.botName)}
			if ctx.Err() == nil && !rules.Allowed(c.botName, req.URL) {
				c.stats.robotsDenied.Add(1)
				c.skip(ctx, req.URL, "robots")
				out.Requeue = false
				c.rc.disallowed(req, hist, &out)
			} else if ctx.Err() == nil {
				c.decideWait(ctx, &req, "robots.txt-contact")
			}
			return out
		}
		crawlDelay = rules.CrawlDelay(c.botName)
		if !rules.Allowed(c.botName, req.URL) {
			c.stats.robotsDenied.Add(1)
			c.skip(ctx, req.URL, "robots")
			out := frontier.Outcome{NoContact: true, CrawlDelay: crawlDelay}
			c.rc.disallowed(req, hist, &out)
			return out
		}
	}

	header, meta, err := c.requestHeader(ctx, req, u)
	if err != nil {
		c.stats.aborted.Add(1)
		c.log.Info("request hook aborted the URL", "url", req.URL, "err", err)
		c.skip(ctx, req.URL, "request-hook")
		return frontier.Outcome{NoContact: true, CrawlDelay: crawlDelay}
	}

	if max := int64(c.cfg.maxPages); max > 0 && req.Retries == 0 && !revisit(hist) {
		if c.reserve(ctx) > max {
			if c.rc != nil { // a continuous crawl goes on revisiting
				c.skip(ctx, req.URL, "limit")
				return frontier.Outcome{NoContact: true}
			}
			c.stop()
			c.skip(ctx, req.URL, "limit")
			return frontier.Outcome{Requeue: true, NoContact: true}
		}
	}

	if out, done := c.headProbe(ctx, req, u, header, hist, crawlDelay); done {
		return out // Policy.HeadProbe: unchanged, or the GET on the host's next turn
	}
	freq := &fetch.Request{URL: u, Header: header}
	validators(hist, freq) // a revisit is a conditional GET
	resp, err := c.fetcher.Fetch(ctx, freq)
	out := frontier.Outcome{CrawlDelay: crawlDelay, Err: err}
	if resp != nil {
		c.keepCookies(u, resp.Header)
		out.Status, out.Duration, out.RetryAfter = resp.Status, resp.Duration, resp.RetryAfter
		c.stats.fetched.Add(1)
		c.stats.status(resp.Status)
		c.stats.depth(req.Depth)
		c.decideFetched(ctx, &req, resp)
	}
	if err != nil {
		if ctx.Err() != nil {
			// Cancelled: not the URL's fault. Keep it queued so that a
			// persistent frontier fetches it after a resume.
			out.Requeue = true
			c.decideWait(ctx, &req, "crawl-stopped")
			return out
		}
		if errors.Is(err, fetch.ErrPrivateAddress) {
			c.refusePrivate(ctx, req, err)
			out.NoContact = true
			return out
		}
		if fetch.Transient(err) && req.Retries < c.cfg.maxRetries {
			c.stats.retries.Add(1)
			out.Retry = true
			c.decideWait(ctx, &req, "retry:"+fetch.Kind(err))
			return out
		}
		c.fail(ctx, req.URL, fetch.Kind(err), err)
		c.rc.failed(req, hist, resp, &out)
		return out
	}
	switch {
	case resp.NotModified:
		c.rc.visited(req, hist, resp, nil, crawlDelay, &out)
		return out
	case resp.Status >= 300 && resp.Status < 400:
		c.redirect(ctx, req, resp)
		c.rc.visited(req, hist, resp, nil, crawlDelay, &out)
		return out
	}

	page := c.newPage(ctx, req, u, resp)
	page.Meta = meta
	c.stats.bytes.Add(int64(len(resp.Body)))
	if resp.Truncated {
		c.stats.truncated.Add(1)
	}
	if again := revisit(hist); c.rc.visited(req, hist, resp, page, crawlDelay, &out) || !again {
		// A new page, or a changed one: on through the loop.
	} else {
		return out // unchanged: nothing to store or follow
	}
	var duplicate, repeat bool
	if hist == nil || hist.Visits <= 1 { // judged on the first visit only
		duplicate = c.checkDuplicate(page)
		repeat = c.traps.seenText(urlnorm.Key(u), page.Title, page.Text)
	}
	if c.cfg.pageScore != nil {
		page.Score = c.cfg.pageScore(page)
		if page.Relevant {
			c.stats.relevant.Add(1)
		}
	}
	if duplicate {
		c.decideDuplicate(ctx, page)
	}
	if ev := c.cfg.events.OnPage; ev != nil {
		ev(ctx, page)
	}
	c.runHTML(ctx, page)
	if page.NoIndex {
		c.stats.noIndex.Add(1)
	} else if duplicate && !c.cfg.dupPolicy.Store {
		// Known content: not stored again.
	} else if c.cfg.store != nil {
		if err := c.cfg.store.Put(ctx, page); err != nil {
			c.stats.storeErrors.Add(1)
			c.log.Warn("store failed", "url", req.URL, "err", err)
			if ev := c.cfg.events.OnError; ev != nil {
				ev(ctx, req.URL, fmt.Errorf("trawl: store: %w", err))
			}
		} else {
			c.stats.storedSize(int64(len(page.Body)))
		}
	}
	switch {
	case page.NoFollow:
		c.stats.noFollow.Add(1)
		c.notFollowed(ctx, page, "page-nofollow")
	case duplicate && c.cfg.dupPolicy.NoFollowNear:
		// A trap serving one page under many URLs ends here.
		c.notFollowed(ctx, page, "duplicate-content")
	case repeat:
		// The same, exactly, as an earlier page of this host: a
		// session-id copy or a soft 404 (TrapLimits.FollowDuplicates).
		c.stats.repeatPages.Add(1)
		c.notFollowed(ctx, page, "repeat-page")
	default:
		c.follow(ctx, page)
	}
	c.log.Debug("page", "url", req.URL, "status", resp.Status, "bytes", len(resp.Body), "links", len(page.Links))
	return out
}

// newPage builds the Page for a 2xx response: references and page signals
// from HTML, references from CSS, sitemaps and feeds, and from the
// response's headers.
func (c *Crawler) newPage(ctx context.Context, req frontier.Request, u *url.URL, resp *fetch.Response) *Page {
	p := &Page{
		URL: u, Depth: req.Depth, Referrer: req.Referrer, Anchor: req.Anchor,
		Status: resp.Status, Header: resp.Header, ContentType: resp.ContentType,
		Charset: resp.Charset, Body: resp.Body, Truncated: resp.Truncated,
		Fetched: time.Now(), Duration: resp.Duration, ETag: resp.ETag, Modified: resp.LastModified,
		redirects: req.Redirects,
	}
	hdr := extract.RobotsFromHeader(resp.Header, c.botName)
	p.NoIndex, p.NoFollow = hdr.NoIndex, hdr.NoFollow
	level, info, ok := c.sitemaps.take(req.URL)
	if ok {
		p.Sitemap = &info
	}
	switch {
	case level > 0:
		c.readSitemap(ctx, p, level == 2)
	case resp.ContentType == "text/css":
		p.Links = extract.CSSLinks(resp.Body, u, c.xopts)
	case resp.ContentType != "text/html" && resp.ContentType != "application/xhtml+xml":
		switch root := xmlRoot(resp.Body); {
		case isGzip(resp.Body) || root == "urlset" || root == "sitemapindex":
			c.readSitemap(ctx, p, false)
		case root == "rss" || root == "feed" || root == "RDF":
			c.readFeed(ctx, p)
		}
	default:
		doc, err := extract.Links(bytes.NewReader(resp.Body), u, c.xopts)
		if err != nil {
			c.log.Info("extract failed", "url", req.URL, "err", err)
		}
		if doc != nil {
			p.Title, p.Lang, p.Canonical, p.Links, p.Text = doc.Title, doc.Lang, doc.Canonical, doc.Links, doc.Text
			p.NoIndex = p.NoIndex || doc.Robots.NoIndex
			p.NoFollow = p.NoFollow || doc.Robots.NoFollow
		}
		if c.cfg.mainText || c.cfg.dups != nil || c.cfg.mainTextFunc != nil {
			var text string
			var err error
			if fn := c.cfg.mainTextFunc; fn != nil {
				text, err = fn(ctx, p)
			} else {
				text, err = maintext.Extract(bytes.NewReader(resp.Body))
			}
			if err != nil {
				c.log.Info("main text failed", "url", req.URL, "err", err)
			}
			p.MainText = text
		}
	}
	if hl := extract.HeaderLinks(resp.Header, resp.Status, u, c.xopts); len(hl) > 0 {
		p.Links = append(p.Links, hl...)
	}
	return p
}

// checkDuplicate runs duplicate detection on an HTML page's main text (the
// visible text when no main text was found), records the verdict in
// p.Duplicate and reports whether the page duplicates an earlier one.
func (c *Crawler) checkDuplicate(p *Page) bool {
	if c.cfg.dups == nil || (p.ContentType != "text/html" && p.ContentType != "application/xhtml+xml") {
		return false
	}
	text := p.MainText
	if strings.TrimSpace(text) == "" {
		text = p.Text
	}
	if strings.TrimSpace(text) == "" {
		return false // nothing to compare: an empty page duplicates nothing
	}
	// The title goes in too: pages with next to no text (framesets,
	// stubs) then differ by title, while true copies share it.
	p.Duplicate = c.cfg.dups.Check(p.URL.String(), p.Title+"\n\n"+text)
	switch p.Duplicate.Kind {
	case dedup.Exact:
		c.stats.exactDups.Add(1)
	case dedup.Near:
		c.stats.nearDups.Add(1)
	default:
		return false
	}
	return true
}

// follow queues the page's links: rel=nofollow links are skipped unless
// configured, then the depth limit, meta-refresh hops, the trap rules and
// the filters, and the frontier drops the URLs it has seen.
func (c *Crawler) follow(ctx context.Context, p *Page) {
	depth := p.Depth + 1
	if c.maxDepth > 0 && depth > c.maxDepth {
		if len(p.Links) > 0 {
			c.stats.filtered.Add(int64(len(p.Links)))
		}
		c.notFollowed(ctx, p, "depth")
		return
	}
	referrer := p.URL.String()
	guard := c.traps.lim.TemplateStreak > 0
	var own uint64
	if guard {
		own = c.traps.template(referrer)
	}
	// Links to the page's own URL template go in a second batch, so that
	// the trap guard learns whether the page grew anything else.
	reqs := make([]frontier.Request, 0, len(p.Links))
	var same []frontier.Request
	for i := range p.Links {
		l := &p.Links[i]
		if !c.cfg.followNofollow && l.Rel&(extract.RelNofollow|extract.RelSponsored|extract.RelUGC) != 0 {
			c.linkNotFollowed(ctx, referrer, depth, l)
			continue
		}
		// l.Text shares one buffer with the page's other texts; the
		// frontier copies what it queues (see frontier.Frontier), so the
		// many links that are already known cost no copy here.
		if !c.follows.has(l.Kind) {
			c.linkNotFollowed(ctx, referrer, depth, l)
			continue
		}
		r := frontier.Request{URL: l.URL, Depth: depth, Referrer: referrer, Anchor: l.Text}
		if l.Kind == extract.Sitemap {
			c.sitemaps.markSitemap(l.URL, l.Tag == "sitemap") // an index entry
		}
		if l.Kind == extract.Redirect {
			// A meta refresh (or a Refresh, Location or
			// Content-Location header) is a redirect made by the
			// page: its hops count against the same limit, or a chain
			// of refreshing pages would never end.
			r.Redirects = p.redirects + 1
			if r.Redirects > maxRedirects {
				c.fail(ctx, referrer, "redirect", fmt.Errorf("trawl: more than %d redirects (the last by %s to %s)", maxRedirects, l.Tag, l.URL))
				continue
			}
		}
		if c.cfg.priority != nil {
			r.Priority = c.cfg.priority(l, p)
		}
		if c.cfg.priority != nil || c.cfg.inlinkBoost > 0 {
			if prio, ok := c.sitemaps.priorityOf(l.URL); ok {
				r.Priority += prio
			}
		}
		if guard && c.traps.template(l.URL) == own {
			same = append(same, r)
			continue
		}
		reqs = append(reqs, r)
	}
	outNew := c.offer(ctx, reqs)
	if len(same) == 0 {
		c.traps.grew(own, 0, outNew)
		return
	}
	if c.traps.closed(own) {
		c.traps.grew(own, 0, outNew) // which may open it again
		c.stats.filtered.Add(int64(len(same)))
		c.stats.trapURLs.Add(int64(len(same)))
		for _, r := range same {
			c.skipTrap(ctx, r.URL, "template-streak")
		}
		return
	}
	if c.traps.grew(own, c.offer(ctx, same), outNew) {
		c.log.Info("links within a URL template no longer followed: its pages kept bringing only more of it",
			"url", referrer, "streak", c.traps.lim.TemplateStreak)
	}
}

// redirect queues a redirect's target at the same depth, counting hops.
func (c *Crawler) redirect(ctx context.Context, req frontier.Request, resp *fetch.Response) {
	if resp.Location == nil {
		c.fail(ctx, req.URL, "redirect", fmt.Errorf("trawl: %d without a valid Location", resp.Status))
		return
	}
	if req.Redirects >= maxRedirects {
		c.fail(ctx, req.URL, "redirect", fmt.Errorf("trawl: more than %d redirects", maxRedirects))
		return
	}
	target, err := c.norm.Normalize(resp.Location.String())
	if err != nil {
		c.fail(ctx, req.URL, "redirect", fmt.Errorf("trawl: redirect to %s: %w", resp.Location, err))
		return
	}
	if !c.follows.has(extract.Redirect) {
		c.skip(ctx, target, "kind") // WithFollow leaves redirects out
		return
	}
	c.stats.redirs.Add(1)
	c.offerMeta(ctx, frontier.Request{
		URL: target, Depth: req.Depth, Referrer: req.URL, Anchor: req.Anchor, Redirects: req.Redirects + 1,
	}, c.metas.get(req.URL)) // the metadata follows the redirect
}

// offer runs reqs through the trap rules and the filters and pushes the
// survivors; the frontier drops URLs it has seen. It returns how many
// URLs were new to the frontier. It reuses reqs' backing array.
func (c *Crawler) offer(ctx context.Context, reqs []frontier.Request) int {
	kept := reqs[:0]
	for _, r := range reqs {
		if !c.traps.shapeOK(r.URL) {
			c.stats.filtered.Add(1)
			c.stats.trapURLs.Add(1)
			c.skipTrap(ctx, r.URL, "")
			continue
		}
		if len(c.cfg.filters) > 0 {
			u, err := url.Parse(r.URL)
			if err != nil {
				c.stats.filtered.Add(1)
				continue
			}
			fr := Request{URL: u, Depth: r.Depth, Referrer: r.Referrer, Anchor: r.Anchor, Meta: c.metas.get(r.URL)}
			if i := c.rejectedBy(&fr); i >= 0 {
				c.stats.filtered.Add(1)
				c.skipFiltered(ctx, r.URL, i)
				continue
			}
		}
		kept = append(kept, r)
	}
	if len(kept) == 0 {
		return 0
	}
	added, err := c.push(ctx, kept)
	if err != nil {
		c.log.Error("frontier push failed", "err", err)
	}
	if c.cfg.inlinkBoost > 0 {
		// In-link counting: every link to a URL still waiting in the
		// frontier, the first one included, adds the boost to its
		// priority. (Boost does nothing for URLs already handed out.)
		if b, ok := c.front.(interface {
			Boost(rawURL string, delta float64) bool
		}); ok {
			for _, r := range kept {
				b.Boost(r.URL, c.cfg.inlinkBoost)
			}
		}
	}
	c.stats.discovered.Add(int64(len(kept)))
	c.stats.dupURLs.Add(int64(len(kept) - added))
	return added
}

func (c *Crawler) fail(ctx context.Context, rawURL, kind string, err error) {
	c.stats.errorKind(kind)
	c.log.Warn("fetch failed", "url", rawURL, "kind", kind, "err", err)
	if ev := c.cfg.events.OnError; ev != nil {
		ev(ctx, rawURL, err)
	}
	c.decideFail(ctx, rawURL, kind, err)
}

// isPrivateHost reports whether u's host was found to be on a private
// address when its robots.txt was fetched.
func (c *Crawler) isPrivateHost(u *url.URL) bool {
	if !c.privateAny.Load() {
		return false // the common case, without a lock
	}
	c.privateMu.Lock()
	defer c.privateMu.Unlock()
	return c.privateHosts[urlnorm.Key(u)]
}

func (c *Crawler) markPrivate(u *url.URL) {
	c.privateMu.Lock()
	defer c.privateMu.Unlock()
	if c.privateHosts == nil {
		c.privateHosts = make(map[string]bool)
	}
	if len(c.privateHosts) < maxPrivateHosts {
		c.privateHosts[urlnorm.Key(u)] = true
		c.privateAny.Store(true)
	}
}

// refusePrivate records that req is not fetched because its host is on a
// private, loopback or otherwise non-public address, with an error that
// names the option that allows it. cause may be nil.
func (c *Crawler) refusePrivate(ctx context.Context, req frontier.Request, cause error) {
	c.stats.private.Add(1)
	if req.Depth == 1 && req.Referrer == "" {
		c.privateSeeds.Add(1)
	}
	if cause == nil {
		cause = fetch.ErrPrivateAddress
	}
	c.fail(ctx, req.URL, "private", fmt.Errorf("trawl: %s is on a private or loopback network address, refused by default "+
		"(allow it with WithAllowPrivateNetworks(true), -allow-private in the example spiders): %w", req.URL, cause))
}

func (c *Crawler) skip(ctx context.Context, rawURL, reason string) {
	if ev := c.cfg.events.OnSkip; ev != nil {
		ev(ctx, rawURL, reason)
	}
	c.decideSkip(ctx, rawURL, reason, "")
}

// reportProgress calls the progress callback every interval until done.
func (c *Crawler) reportProgress(done <-chan struct{}) {
	t := time.NewTicker(c.cfg.progressEvery)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			c.cfg.progress(c.Stats())
		}
	}
}
