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

	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/opic"
	"github.com/trawl-dev/trawl/politeness"
	"github.com/trawl-dev/trawl/recrawl"
	"github.com/trawl-dev/trawl/robots"
	"github.com/trawl-dev/trawl/urlnorm"
)

// maxRedirects bounds a redirect chain; a redirect target (or a meta
// refresh target) is queued as a new URL with its hop count, so loops end
// at the frontier's duplicate check and long chains end here.
const maxRedirects = 10

// Crawler crawls the web from its seeds. Build one with New and call Run
// once. Stats may be called at any time, from any goroutine.
type Crawler struct {
	cfg       config
	opic      *opicState // nil unless Priority.OPIC
	front     frontier.Frontier
	fetcher   fetch.Fetcher
	robots    *robots.Cache // nil when robots.txt is ignored
	norm      *urlnorm.Normalizer
	botName   string
	log       *slog.Logger
	seeds     []frontier.Request
	stats     stats
	reserved  atomic.Int64 // page fetches begun, for Limits.MaxPages
	ran       atomic.Bool
	stop      context.CancelFunc    // stops handing out URLs once a limit is reached
	frontErr  atomic.Pointer[error] // first error from the frontier's Next, which ends the crawl
	traps     *trapGuard
	follows   kindSet          // the kinds of reference followed
	xopts     *extract.Options // read-only options for every extract call
	rc        *recrawler       // nil for a one-shot crawl (recrawl.go)
	private   privateHosts     // hosts found on private addresses (admit.go)
	seedFails seedFailures     // the seeds that failed, for Run's error
	// order keeps a URL's decisions in order: push holds its stripe from
	// Push to the DecisionQueued it records, and the decision about the
	// URL's fetch waits for it, so a worker that takes the URL at once
	// cannot record its fate first. Used only when decisions are recorded.
	order decisionOrder

	html          []htmlCallback        // WithHTML callbacks, compiled
	sels          selectors             // selectors compiled by Element methods
	badSelector   atomic.Pointer[error] // the first bad selector an Element method was given; Run returns it
	pace          pacer                 // which politeness rule rests a host (PaceStats)
	ips           *ipKeys               // hosts' IP addresses, with Politeness.PerIP (perip.go)
	plainRequests bool                  // no header, hook, cookie or auth: fetch requests carry no header
	loginPlan     *loginPlan            // WithLogin's, checked (login.go)
}

// New returns a Crawler configured by opts, or an error naming the first
// invalid option, contradictory pair of options, or seed.
func New(opts ...Option) (*Crawler, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	if err := cfg.resolve(); err != nil {
		return nil, err
	}
	c := &Crawler{cfg: cfg, norm: cfg.normalizer, log: cfg.logger, botName: productToken(cfg.userAgent)}
	if c.norm == nil {
		c.norm = urlnorm.New()
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	c.traps = newTrapGuard(cfg.traps)
	c.follows = followed(&cfg)
	c.xopts = &extract.Options{Normalizer: c.norm, BotName: c.botName,
		// Inferred URLs cost a little to find: only when followed.
		Speculative: c.follows.has(extract.Speculative), Scripts: c.follows.has(extract.Script)}
	c.seedFails.failed = make(map[string]error)
	for _, s := range cfg.seeds {
		if t := strings.TrimSpace(s); schemeless(t) {
			// "example.com" is a host, not a URL; WHATWG's message for it
			// ("missing a scheme, because it does not begin with an ASCII
			// alpha") misleads.
			return nil, fmt.Errorf("trawl: seed %q is not a URL (it has no scheme): did you mean %q (or http:// for a site without TLS)?", s, "https://"+t)
		}
		n, err := c.norm.Normalize(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("trawl: seed %q: %w", s, err)
		}
		if _, dup := c.seedFails.failed[n]; dup {
			continue // 127.0.0.1 and 127.1: one seed
		}
		c.seedFails.failed[n] = nil
		c.seeds = append(c.seeds, frontier.Request{URL: n, Depth: 1})
	}
	for _, setup := range []func() error{c.compileHTML, c.setupLogin, c.setupRequests, c.setupFetcher, c.setupFrontier} {
		if err := setup(); err != nil {
			return nil, err
		}
	}
	if !cfg.polite.IgnoreRobots {
		// Each hop's deadline covers the wait spacedHops may add before
		// a redirect back to the same host, besides the fetch itself
		// (which the fetcher bounds on its own).
		fetchRobots := c.spacedHops(robotsFetchFunc(c.fetcher, cfg.userAgent))
		if cfg.shared.Robots != nil {
			fetchRobots = robots.SharedFetch(fetchRobots, cfg.shared.Robots, nil)
		}
		c.robots = robots.NewCache(fetchRobots,
			&robots.CacheOptions{FetchTimeout: robots.DefaultFetchTimeout + max(cfg.polite.Delay, 0)})
	}
	if r, ok := c.fetcher.(RobotsUser); ok {
		r.UseRobots(c.robotsAllow)
	}
	return c, nil
}

// followed returns the kinds of reference the crawl follows.
func followed(cfg *config) kindSet {
	kinds := defaultFollow
	if cfg.followSet {
		kinds = cfg.follow
	}
	if cfg.archive {
		kinds = append(append([]extract.Kind(nil), kinds...), archiveFollow...)
	}
	return newKindSet(kinds)
}

// setupFetcher makes the default fetcher unless WithFetcher gave one.
func (c *Crawler) setupFetcher() error {
	cfg := &c.cfg
	if err := c.buildFetcher(); err != nil {
		return err
	}
	if cfg.polite.PerIP {
		r, ok := c.fetcher.(IPResolver)
		if !ok {
			return fmt.Errorf("trawl: Politeness.PerIP needs a fetcher that resolves names (trawl.IPResolver, as fetch.HTTP); %T is not one", c.fetcher)
		}
		c.ips = newIPKeys(r)
	}
	if cfg.fetchWrap != nil {
		if c.fetcher = cfg.fetchWrap(c.fetcher); c.fetcher == nil {
			return errors.New("trawl: WithFetchWrapper's function returned nil")
		}
	}
	return nil
}

// buildFetcher sets c.fetcher: WithFetcher's, or one of its own.
func (c *Crawler) buildFetcher() error {
	cfg := &c.cfg
	if cfg.fetcher != nil {
		c.fetcher = cfg.fetcher
		return nil
	}
	fo := cfg.fetchOpts
	fo.UserAgent, fo.DialContext, fo.AllowPrivateNetworks, fo.Proxy = cfg.userAgent, cfg.dial, cfg.private, cfg.requests.proxy
	fo.AllowNetworks = cfg.allowNets
	fo.AllowHosts = cfg.allowHosts
	if len(fo.AcceptTypes) == 0 {
		fo.AcceptTypes = acceptTypes(c.follows, cfg.archive)
	}
	fo.MaxConnsPerHost = max(fo.MaxConnsPerHost, cfg.polite.HostConcurrency)
	if es, ok := cfg.store.(ExchangeStore); ok {
		fo.OnExchange = c.exchangeHook(es, fo.OnExchange)
	}
	c.fetcher = fetch.New(&fo)
	return nil
}

// frontierOptions returns what the frontier is built with: the options of
// WithLimits, WithPoliteness and WithPriority.
func (c *Crawler) frontierOptions() frontier.MemoryOptions {
	cfg := &c.cfg
	strategy := frontier.BFS
	if cfg.prio.on() {
		strategy = frontier.Priority
	}
	p := cfg.polite
	o := frontier.MemoryOptions{
		Strategy:   strategy,
		Workers:    cfg.workers,
		MaxDepth:   max(cfg.limits.MaxDepth, 0),
		MaxPerHost: cfg.limits.HostBudget,
		Politeness: politeness.Config{
			MinDelay:        p.Delay, // NoDelay is negative: none
			Factor:          p.Adaptive,
			HostConcurrency: p.HostConcurrency,
			BackoffBase:     p.BackoffBase,
			BackoffMax:      p.BackoffMax,
			MaxCrawlDelay:   p.MaxCrawlDelay,
		},
	}
	if c.ips != nil {
		o.Politeness.IPKey = c.ips.key
		o.Politeness.IPDelay = p.IPDelay // NoDelay is negative: none
		o.Politeness.IPConcurrency = p.IPConcurrency
	}
	return o
}

// setupFrontier builds the frontier and checks that it can do what the
// options ask of it.
func (c *Crawler) setupFrontier() error {
	opts := c.frontierOptions()
	c.pace = newPacer(opts.Politeness)
	if c.cfg.frontier == nil {
		c.front = frontier.NewMemory(&opts)
	} else {
		f, err := c.cfg.frontier(opts)
		if err != nil {
			return fmt.Errorf("trawl: frontier: %w", err)
		}
		if f == nil {
			return errors.New("trawl: frontier: WithFrontier's function returned nil")
		}
		c.front = f
	}
	if _, ok := c.front.(frontier.Booster); c.cfg.prio.Inlink > 0 && !ok {
		return fmt.Errorf("trawl: Priority.Inlink needs a frontier that raises queued URLs (frontier.Booster); %T is not one", c.front)
	}
	if o, ok := c.front.(frontier.Orderer); ok && (c.cfg.prio.OPIC || c.cfg.prio.Inlink > 0) && o.Order() != frontier.Priority {
		return fmt.Errorf("trawl: Priority.OPIC and Priority.Inlink raise queued URLs' priorities, which a frontier ordered %v ignores: give it frontier.Priority (%T)", o.Order(), c.front)
	}
	if c.cfg.prio.OPIC {
		l := opic.NewLedger(0)
		b, ok := c.front.(frontier.Booster)
		s, ok2 := c.front.(frontier.SeenChecker)
		switch cc, carrier := c.front.(opic.Carrier); {
		case carrier: // it places the cash itself (package cluster's)
			cc.CarryCash(l)
			c.opic = &opicState{ledger: l, carried: true}
		case ok && ok2:
			c.opic = &opicState{ledger: l, boost: b, seen: s}
			if err := c.opic.resume(c.front); err != nil {
				return err
			}
		default:
			return fmt.Errorf("trawl: Priority.OPIC needs a frontier that raises queued URLs and knows the URLs it took (frontier.Booster and frontier.SeenChecker), or one that places cash itself (opic.Carrier); %T is neither", c.front)
		}
	}
	c.rc = newRecrawler(&c.cfg)
	return c.rc.checkFrontier(c.front)
}

// productToken returns the robots.txt product token of a User-Agent string:
// "mybot" for "MyBot/1.0 (+https://example.com)".
func productToken(ua string) string {
	if i := strings.IndexAny(ua, "/ ("); i >= 0 {
		ua = ua[:i]
	}
	return strings.ToLower(strings.TrimSpace(ua))
}

// Stats returns a snapshot of the crawl's counters. It is safe to call while
// Run is running.
func (c *Crawler) Stats() Stats {
	st := c.stats.snapshot()
	st.URLs.Queued = int64(c.front.Len())
	if h, ok := c.front.(frontier.HostCounter); ok {
		st.URLs.HostsWaiting = int64(h.HostsWaiting())
	}
	c.rc.fill(&st)
	return st
}

// Run crawls until the frontier is exhausted, the page limit is reached, the
// frontier fails, or ctx is cancelled. In every case it lets in-flight
// fetches finish (a cancelled ctx cuts them short), closes the Store, and
// returns only when every goroutine it started has exited. It returns
// ctx.Err() when ctx was cancelled, the frontier's error (from Next) if it
// failed, the Store's Close error if any, the first bad selector a WithHTML
// callback gave an Element method (the crawl goes on; see Element), the
// login's error (wrapping ErrLogin) when WithLogin's login failed, before
// any seed was fetched, and nil otherwise. Run may be called once.
func (c *Crawler) Run(ctx context.Context) error {
	if !c.ran.CompareAndSwap(false, true) {
		return errors.New("trawl: Run called twice")
	}
	c.stats.start.Store(time.Now().UnixNano())
	defer func() { c.stats.end.Store(time.Now().UnixNano()) }()

	// nextCtx ends when a limit is reached: workers stop taking URLs but
	// finish the fetch in hand under ctx.
	nextCtx, stop := context.WithCancel(ctx)
	c.stop = stop
	defer stop()

	if c.loginPlan != nil {
		if err := c.login(ctx); err != nil {
			return errors.Join(err, c.shutdown())
		}
	}
	if c.opic != nil && !c.opic.resumed {
		for i := range c.seeds {
			c.seeds[i].Priority = 1 / float64(len(c.seeds)) // each seed's share of the cash
		}
	}
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

	err := c.shutdown()
	if c.cfg.progress != nil {
		c.cfg.progress(c.Stats())
	}
	if ctx.Err() != nil {
		return errors.Join(ctx.Err(), err)
	}
	return err
}

// schemeless reports whether a seed looks like a host (and path) without a
// scheme: "example.com", "example.com/docs/", "localhost:8080/" (a colon
// followed by a digit is a port), but not "mailto:a@b".
func schemeless(seed string) bool {
	if seed == "" || strings.Contains(seed, "://") {
		return false
	}
	_, rest, colon := strings.Cut(seed, ":")
	return !colon || (rest != "" && rest[0] >= '0' && rest[0] <= '9')
}

// shutdown closes what Run owns once the workers are done: the store, the
// item sink, the frontier and the fetcher's idle connections. It returns
// the errors of the crawl as a whole.
func (c *Crawler) shutdown() error {
	var err error
	if ferr := c.frontErr.Load(); ferr != nil {
		err = fmt.Errorf("trawl: frontier: %w", *ferr)
	}
	err = errors.Join(err, c.seedFails.err(len(c.seeds), c.private.seeds.Load(), c.cfg.private))
	if bad := c.badSelector.Load(); bad != nil {
		err = errors.Join(err, *bad) // a bug of the program's: say it loudly
	}
	if c.cfg.store != nil {
		if cerr := c.cfg.store.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("trawl: closing store: %w", cerr))
		}
	}
	err = errors.Join(err, c.closeItems())
	if m, ok := c.front.(frontier.SpillReporter); ok {
		if serr := m.SpillStats().Err; serr != nil {
			c.log.Warn("the frontier stopped spilling to disk and kept its queue in memory", "err", serr)
		}
	}
	if c.opic != nil {
		c.opic.save(c.log) // the accounts as the crawl leaves them, flushed next
	}
	if f, ok := c.front.(frontier.Flusher); ok {
		if ferr := f.Flush(); ferr != nil {
			err = errors.Join(err, fmt.Errorf("trawl: flushing frontier: %w", ferr))
		}
	}
	if closer, ok := c.front.(io.Closer); ok {
		if cerr := closer.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("trawl: closing frontier: %w", cerr))
		}
	}
	if f, ok := c.fetcher.(fetch.IdleCloser); ok && c.cfg.fetcher == nil {
		f.CloseIdleConnections()
	}
	if f, ok := c.fetcher.(io.Closer); ok && c.cfg.fetchWrap != nil {
		if cerr := f.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("trawl: closing the fetcher: %w", cerr))
		}
	}
	return err
}

// seedFailures records which seeds failed for good (a DecisionError about
// the seed itself), so that a crawl none of whose seeds could be fetched
// fails instead of ending as if the web were empty. Its map holds one
// entry per seed, made by New; it is safe for concurrent use.
type seedFailures struct {
	mu     sync.Mutex
	failed map[string]error // seed URL -> its error, nil while it has none
	n      int              // seeds with an error
	first  error
}

// fail records the failure of rawURL if it is a seed.
func (s *seedFailures) fail(rawURL string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if prev, seed := s.failed[rawURL]; !seed || prev != nil {
		return
	}
	if err == nil {
		err = errors.New("failed")
	}
	s.failed[rawURL] = err
	s.n++
	if s.first == nil {
		s.first = fmt.Errorf("%s: %w", rawURL, err)
	}
}

// err returns Run's error when every one of the seeds failed: one that
// names the allow options when they were all refused as private (with
// WithAllowPrivateNetworks already given, allowPrivate: the link-local and
// metadata addresses it still refuses).
func (s *seedFailures) err(seeds int, private int64, allowPrivate bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case seeds == 0 || s.n < seeds:
		return nil
	case private >= int64(seeds) && allowPrivate:
		return fmt.Errorf("trawl: every seed (%d) is on a link-local or cloud metadata address, which "+
			"WithAllowPrivateNetworks(true) still refuses: name it with WithAllowNetworks(prefix) (-allow-network in the example spiders) if you mean it: %w",
			seeds, fetch.ErrPrivateAddress)
	case private >= int64(seeds):
		return fmt.Errorf("trawl: every seed (%d) is on a private or loopback network address, which "+
			"is refused by default: allow it with WithAllowNetworks(prefix), WithAllowHosts(name) or WithAllowPrivateNetworks(true) (-allow-network, -allow-host or -allow-private in the example spiders): %w",
			seeds, fetch.ErrPrivateAddress)
	}
	return fmt.Errorf("trawl: every seed (%d) failed, so the crawl found nothing; the first: %w", seeds, s.first)
}

// worker takes URLs from the frontier until it is exhausted or nextCtx ends.
// It visits them one at a time, reusing one visit, so that a visit costs
// no allocation of its own.
func (c *Crawler) worker(ctx, nextCtx context.Context) {
	var v visit
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
		out := c.visit(ctx, &v, req)
		c.paced(&out)
		if c.opic != nil {
			c.opic.save(c.log) // committed with the Done
		}
		if err := c.front.Done(req, out); err != nil {
			c.log.Error("frontier done failed", "url", req.URL, "err", err)
		}
		if c.ips != nil {
			// After Done: the lookup holds neither the host nor its
			// address. A host whose address changed moves when its next
			// contact ends.
			c.ips.refresh(ctx, req.Host)
		}
	}
}

// visit is one pass of the crawl loop for one URL, the loop of DESIGN.md:
//
//	admit   robots.txt, private hosts, the request hook, the page limit
//	fetch   the HEAD probe of a revisit, the (conditional) GET, retries
//	handle  redirects, 304s, extraction of links, text and page signals
//	keep    duplicate detection, scoring, Events.OnPage, WithHTML, the Store
//	follow  the page's links, through the trap rules and the Filters
//
// Each stage works on the URL's visit and returns a step: the decision it
// made, which observe hands to the stats, the log and the Events, and
// whether the visit ends there (the cases of the switch run in order
// until one ends it). The visit's outcome is what the frontier is told.
func (c *Crawler) visit(ctx context.Context, v *visit, req frontier.Request) frontier.Outcome {
	*v = visit{req: req, notes: v.notes[:0]}
	if c.opic != nil {
		v.cash, v.importance = c.opic.ledger.Take(req.Priority)
		defer c.opic.ended(v)
	}
	switch {
	case c.ended(ctx, v, c.admit(ctx, v)):
	case c.ended(ctx, v, c.fetchURL(ctx, v)):
	case c.ended(ctx, v, c.handle(ctx, v)):
	case c.ended(ctx, v, c.keep(ctx, v)):
	default:
		c.ended(ctx, v, c.followPage(ctx, v))
	}
	if v.dataChanged {
		v.out.Data = c.encodeData(v)
	}
	return v.out
}

// encodeData returns the encoding of v.data for Outcome.Data: an empty
// non-nil slice for none, which clears the request's Data.
func (c *Crawler) encodeData(v *visit) []byte {
	b, err := v.data.encode()
	if err != nil {
		c.log.Warn("URL data dropped", "url", v.req.URL, "err", err)
	}
	if b == nil {
		b = []byte{}
	}
	return b
}

// ended hands what a stage decided to the observers, the notes it made
// on the way first, then its step, and reports whether the visit ends
// with it.
func (c *Crawler) ended(ctx context.Context, v *visit, s step) bool {
	for _, n := range v.notes {
		c.observe(ctx, v, n)
	}
	v.notes = v.notes[:0]
	c.observe(ctx, v, s)
	return s.done
}

// visit is what the crawl loop knows about one URL while it visits it.
type visit struct {
	req         frontier.Request
	u           *url.URL
	data        urlData          // what travels with the URL (urldata.go)
	dataChanged bool             // data changed: the frontier is told (Outcome.Data)
	hist        *recrawl.History // the page's visit history, with WithRecrawl
	crawlDelay  time.Duration    // the host's robots.txt Crawl-delay
	header      http.Header      // the request's header (nil: none to add)
	resp        *fetch.Response
	page        *Page
	duplicate   bool // the page duplicates an earlier one (WithDuplicateDetection)
	repeat      bool // the page repeats an earlier page of its host
	out         frontier.Outcome
	notes       []step  // decisions a stage made besides its step's, in order
	cash        float64 // the URL's OPIC cash (Priority.OPIC), until spent
	importance  float64 // its page's OPIC importance estimate
	spent       bool    // the cash went to the page's links or its redirect
}

// note records a decision a stage made on the way (a robots.txt fetch, an
// unreadable sitemap, a fetched page that then failed), for ended to hand
// to the observers before the stage's own step.
func (v *visit) note(d Decision, err error) {
	v.notes = append(v.notes, step{d: d, err: err})
}

// step is what one stage of visit decided. A zero d.Outcome means no
// decision; err is the error behind a DecisionError or DecisionAborted.
type step struct {
	d    Decision
	err  error
	done bool // the visit ends with this stage
}

// end returns a step that ends the visit with decision d.
func end(d Decision, err error) step { return step{d: d, err: err, done: true} }

// robotsAllow reports whether robots.txt lets the crawl fetch u (true
// when robots.txt is ignored): what a RobotsUser fetcher is given.
func (c *Crawler) robotsAllow(ctx context.Context, u *url.URL) bool {
	if c.robots == nil {
		return true
	}
	rules, _ := c.robots.Rules(ctx, u) // DisallowAll with the error
	return rules.Allowed(c.botName, u.String())
}

// robotsFetchFunc adapts the fetcher for the robots.txt cache: the plain Get
// of a fetch.Getter (as *fetch.HTTP is), else Fetch, with the User-Agent ua,
// wrapped into an http.Response.
func robotsFetchFunc(f fetch.Fetcher, ua string) robots.FetchFunc {
	if g, ok := f.(fetch.Getter); ok {
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

// reportProgress calls the progress callback every interval until done.
func (c *Crawler) reportProgress(done <-chan struct{}) {
	t := time.NewTicker(c.cfg.progEvery)
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

// decisionOrder is a set of striped locks by URL (see Crawler.order).
type decisionOrder [64]sync.Mutex

// lock locks rawURL's stripe and returns it, to unlock.
func (o *decisionOrder) lock(rawURL string) *sync.Mutex {
	m := &o[frontier.Fingerprint(rawURL)%uint64(len(o))]
	m.Lock()
	return m
}
