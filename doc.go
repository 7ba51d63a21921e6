// Package trawl is a Go SDK for building polite, robust, fast web crawlers.
//
// A crawler is assembled from small packages through one functional-options
// [Crawler] type:
//
//	// Ctrl-C or SIGTERM cancels ctx: Run stops the crawl and closes the
//	// store, so nothing fetched is lost (without it, Ctrl-C kills the
//	// process at once, and a store's buffer with it).
//	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
//	defer stop()
//	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
//	defer cancel()
//	c, err := trawl.New(
//		trawl.WithSeeds("https://example.com/"),
//		trawl.WithUserAgent("mybot/1.0 (+https://example.com/bot)"),
//		trawl.WithFilters(trawl.SameHost("https://example.com/"), trawl.SkipExtensions()),
//		trawl.WithLimits(trawl.Limits{MaxPages: 1000}),
//		trawl.WithStore(st), // e.g. store.NewDir("out")
//	)
//	if err != nil {
//		log.Fatal(err)
//	}
//	// Ctrl-C and the time limit are normal ends: Run has closed the
//	// store, and every page fetched is in it.
//	if err := c.Run(ctx); err != nil && !errors.Is(err, ctx.Err()) {
//		log.Fatal(err)
//	}
//	fmt.Println(c.Stats().Pages.Stored, "pages stored")
//
// Run returns ctx.Err() (context.DeadlineExceeded after a timeout,
// context.Canceled after a cancel, both matched with errors.Is) joined
// with any error of its own, and nil when the crawl ran out of URLs or
// reached Limits.MaxPages.
//
// # Options
//
// Each option's own documentation gives its default; Option lists them by
// concept. Related settings are one option taking a struct (Politeness,
// Limits, Priority, TrapLimits, Shared), whose zero value is the default
// and which merges with earlier ones. New rejects options that contradict
// each other or that would be ignored (fetch options with a fetcher of
// your own, an in-link boost with a frontier that cannot raise a URL), and
// says what to give instead.
//
// Crawler.Enqueue and Element.Follow take EnqueueOptions: AtDepth,
// AtPriority, FromPage, SetMeta, WithAnchor.
//
// # Scraping
//
// WithHTML calls a function for every element that matches a CSS selector
// (Colly's OnHTML, Scrapy's response.css); the Element gives its text,
// attributes and children (Find chains as goquery's does), follows links (Element.Follow) and emits
// items to the ItemSink set with WithItems, such as a JSON Lines or CSV
// file (store.JSONL, store.CSV):
//
//	items, err := store.NewJSONL("items.jsonl", nil) // refuses a file with records: see store.FileOptions
//	...
//	c, err := trawl.New(
//		trawl.WithSeeds("https://shop.example.com/"),
//		trawl.WithFilters(trawl.SameHost("https://shop.example.com/")),
//		trawl.WithItems(items), // closed by Run
//		trawl.WithHTML("div.product", func(ctx context.Context, e *trawl.Element) {
//			e.Emit(Product{Name: e.ChildText("h2"), Price: e.ChildText(".price")})
//		}),
//	)
//
// WithXPath does the same with an XPath 1.0 expression (Scrapy's
// response.xpath), and Element.XPath, XPathText and XPathTexts select
// with XPath from an element: e.XPathTexts(".//a/@href") gives every
// link's href, e.XPathText("count(.//li)") a number. A bad expression is
// reported as a bad selector is.
//
// Pages are parsed into a DOM (golang.org/x/net/html) for the selectors
// only when a WithHTML or WithXPath callback is registered, once whatever
// their number and kind. The selector engine is
// github.com/andybalholm/cascadia, the one inside goquery (and so inside
// Colly): goquery's jQuery-like layer over it is what Element's few
// methods replace, so trawl depends on the engine alone. The XPath engine
// is github.com/antchfx/xpath, maintained and without dependencies of its
// own, the engine under antchfx/htmlquery (Colly's XPath) and
// antchfx/xmlquery: it walks any tree through a navigator interface, so
// trawl runs it over the same DOM the CSS selectors use (a navigator of
// its own, in xpath.go) rather than through htmlquery, which would add
// github.com/golang/groupcache and package-level caches for nothing a
// crawler needs. It is XPath 1.0, as lxml's (Scrapy's) is; results come
// in document order, each node once, as there. The cookie jar
// uses golang.org/x/net/publicsuffix, a package of a module trawl already
// depends on. Requests can carry headers (WithHeader), pass
// through a hook that sets headers or drops URLs (WithOnRequest), keep
// cookies (WithCookies), go through proxies (WithProxy,
// ProxyFromEnvironment), send credentials to one host
// (WithBasicAuth), and log in first by filling a login form
// (WithLogin: the one POST a crawl makes, through the crawler's own
// fetcher, robots.txt and guard; Run fails with ErrLogin when the login
// does). Crawler.Enqueue and Element.Follow queue URLs from
// callbacks, with metadata that reaches Page.Meta of the page fetched, and
// with Handler(name), which gives the page fetched to the handler
// WithHandler registered under name (Scrapy's callback=).
//
// # The crawl loop
//
// Each of N workers takes a URL from the frontier (frontier.Next blocks
// until some host may be contacted again) and visits it (Crawler.visit in
// crawler.go) in five stages, each a function of its own in a file of its
// own:
//
//  1. admit (admit.go): robots.txt of the URL's host is fetched once and
//     cached (package robots, RFC 9309); that fetch is a contact with the
//     host, so the URL waits for the host's delay again. Disallowed URLs,
//     hosts on private addresses, URLs the WithOnRequest hook drops and
//     URLs past Limits.MaxPages end here.
//  2. fetch (fetching.go): the fetcher (package fetch) downloads the page:
//     size and time limits, gzip with bomb protection, charset conversion
//     to UTF-8, no redirects followed. A revisit is a conditional GET,
//     perhaps after a HEAD probe. Transient failures (timeouts, resets,
//     429, 5xx) are retried later, after the host's back-off.
//  3. handle (handle.go): a redirect's target is queued like a link (same
//     depth), so it too passes normalization, duplicate elimination,
//     robots.txt and politeness; other answers become a Page. HTML is
//     scanned once (package extract) for every URL it references, each
//     with its kind, and for title, language, canonical URL and <meta
//     name=robots>; style sheets, sitemaps and feeds, and response headers
//     are read for the URLs they name.
//  4. keep (keep.go): duplicate detection, Priority.Page, Events.OnPage,
//     the WithHTML callbacks (an HTML page is parsed into a DOM for them,
//     once, when there are any) and, unless it is noindex, the Store.
//  5. follow (follow.go): unless the page is nofollow, or repeats an
//     earlier page (TrapLimits.Duplicates), its links (less rel=nofollow
//     ones) are checked against the depth limit, the trap rules and the
//     Filters, and pushed to the frontier, which drops URLs it has seen.
//
// Each stage returns a step, the decision it made; observe (observe.go)
// hands it to the Stats, the log and the Events, so that observers watch
// stage results rather than being called from every branch. frontier.Done
// then tells the frontier how the visit went, which sets the host's next
// contact time.
//
// Everything the crawl knows about one URL travels with it in the
// frontier's request: depth, referrer, anchor, redirect hops, the visit
// history of a continuous crawl (frontier.Request.State) and, in
// frontier.Request.Data (at most frontier.MaxData bytes), the metadata it
// was queued with (Page.Meta), whether it is a sitemap, what a sitemap said
// of it, and whether its HEAD probe was sent. So a crawl on frontier/disk
// resumes after kill -9 with all of it, and in a cluster it reaches the
// agent that owns the URL. The crawler keeps no map of URLs of its own.
//
// # Defaults
//
// Defaults are polite and safe: robots.txt obeyed, one connection per host,
// 1 s between requests to a host and more for slow hosts (the adaptive
// delay: 10 times the host's last response time), a User-Agent that names
// trawl, no cookies, no proxy whatever the environment says, and no
// connections to loopback, private or link-local addresses (checked after DNS
// resolution) unless WithAllowPrivateNetworks(true) is given.
// Politeness.Delay sets the gap and turns the adaptive delay off unless
// Politeness.Adaptive is given too, so that NoDelay means no delay. Seeds have
// depth 1; a link found on a page of depth d has depth d+1. No normalized URL
// is fetched twice in one crawl.
//
// Politeness is per host by default. Politeness.PerIP adds a level per IP
// address, for the many hosts that share one server (virtual and shared
// hosting, CDNs): the hosts of one address share an IP delay
// (Politeness.IPDelay, default 250 ms, which may be shorter than the host
// delay) and an in-flight limit (Politeness.IPConcurrency, default 1),
// while each keeps its own delay. Names resolve through the fetcher's DNS
// cache before their URLs are queued (a worker waits for DNS, never the
// frontier); an answer whose TTL ended is resolved again by the worker
// that fetched the host, after the fetch, and the host moves to its new
// address; a name that does
// not resolve stays polite by host. Hosts waiting on a busy address leave
// the frontier's back queues, so thousands of hosts on one address delay
// no host of another (see package frontier).
//
// # What the crawler follows
//
// By default a crawl follows navigation links, frames, redirects (HTTP
// 3xx, meta refresh, Refresh and Content-Location headers), the action
// URLs of GET forms (never submitting POST forms: WithLogin, before the
// crawl, sends the only POST a crawl makes), sitemaps and feeds:
// DefaultFollow. When a host's robots.txt is fetched, the sitemaps it
// names are queued (or /sitemap.xml when it names none); what a sitemap
// says of a URL (lastmod, changefreq, priority) reaches its Page.Sitemap,
// and its priority adds to the link's score in a best-first crawl.
// WithFollow chooses the kinds; WithArchive adds embedded resources and
// style sheets (an archive crawl: images, scripts, media and CSS are
// fetched and stored as served, under the same politeness; pings, and
// URLs inferred from text and scripts too). Robots.txt, the trap rules and
// every Filter apply to every kind. JavaScript is not run: following
// extract.Script reads scripts statically for the URLs they name (never
// those a script POSTs to); URLs computed at run time and pages a script
// builds are not found (see package extract).
//
// # Spider traps: a crawl that ends by itself
//
// A crawl with default options ends by itself on any web, however hostile.
// Every fetch has a total deadline and a minimum transfer rate (package
// fetch; robots.txt included, whose timeout makes the host unreachable,
// disallowed for a while, per RFC 9309), and these rules, each cheap and
// each documented with how to turn it off, bound the URL space of a trap:
//
//   - Hop limit: links are followed to depth DefaultMaxDepth (50);
//     Limits.MaxDepth changes it, a negative value removes it.
//   - Redirects: at most 10 in a row, meta refreshes counted as redirects,
//     so a chain of refreshing pages ends too.
//   - URL shape (TrapLimits): at most 2048 bytes, 32 path segments, and no
//     path segment more than 3 times (/a/b/a/b/a/b/a/…).
//   - URL templates (TrapLimits.TemplateStreak): a template (the path with
//     digits masked, the query's parameter names) whose pages bring, 20
//     times in a row, only more URLs of itself (a calendar's next month)
//     is closed to links from its own pages.
//   - Repeated pages (TrapLimits.Duplicates): the links of a page
//     whose title and text are exactly those of an earlier page of its host
//     are not followed, which ends session-id copies and soft-404
//     generators after one step.
//   - Budgets: Limits.HostBudget caps the URLs queued per host
//     (DefaultHostBudget, 100,000, by default: a tree of random link names
//     on one host ends there; real documentation sites stay under 22,000),
//     Limits.MaxPages the fetches (off by default); WithDuplicateDetection
//     with TrapLimits{Duplicates: DuplicatesNotFollowed} extends the
//     repeated-page rule to near duplicates.
//
// On crawltest's traps (calendar, ever-deeper relative paths, session ids,
// a soft-404 generator, a meta-refresh chain) these rules spend about 40
// fetches per host in all and lose no real page (TestCrawlTrapsEndByThemselves).
// WithTrapLimits(NoTrapLimits()) and Limits{MaxDepth: -1, HostBudget: -1} turn
// them all off.
//
// Private addresses: a URL whose host is on a private or loopback address
// is refused (Stats.Errors.Kinds["private"]) with an error
// naming WithAllowPrivateNetworks; when every seed is refused, Run returns
// an error wrapping fetch.ErrPrivateAddress.
//
// # Continuous crawling
//
// WithRecrawl(policy) keeps every page fetched in a revisit schedule held
// by the frontier (with frontier/disk it survives restarts) and revisits
// it with a conditional GET when its estimated change rate and its host's
// politeness budget say (package recrawl: Cho and Garcia-Molina's
// estimators and optimal allocation for freshness). A changed page is
// stored again and its new links followed; a 304 or unchanged text costs
// no more; a page gone (404, 410) leaves the schedule. With
// recrawl.Policy.HeadProbe a revisit starts with a conditional HEAD, and
// the GET (after the host's delay) only when the HEAD does not show the
// page unchanged (Stats.Recrawl.HeadProbes, HeadSaved). Run then ends with
// its context, not when the queue of new URLs empties. Stats.Recrawl
// reports it. In simulated time on
// crawltest webs whose change rates are known, the schedule kept 0.666 of
// the copies fresh against 0.633 for uniform revisits and 0.679 for the
// optimum at the same fetch rate (TestRecrawlFreshness, mean of three
// webs).
//
// # Memory
//
// The default frontier keeps its queue in memory: about 90 bytes per queued
// URL plus the URL itself. frontier.MemoryOptions.SpillDir (set it in a
// WithFrontier function) moves the middle of the queue to a temporary
// file, leaving about 14 bytes per URL (the seen set), which suits crawls
// of millions of URLs; a persistent frontier (package frontier/disk,
// through WithFrontier) also survives a crash. Each host
// in contact keeps an idle connection (net/http's two goroutines and
// buffers: about 12 KiB with plain HTTP, more with TLS), up to
// fetch.Options.MaxIdleConns.
//
// # Seeing a crawl
//
// Stats gives the counters at any moment, grouped (Fetch, URLs, Pages,
// Robots, Found, Errors, Items, Recrawl), each event counted once; Events
// gives hooks. Events.OnDecision
// is told every decision about a URL: queued, or dropped and why (duplicate
// URL, which Filter, which trap rule, the depth limit, the host budget,
// robots.txt, the page limit, a link not followed and why), fetched (status,
// bytes, time), a duplicate of which page, failed (error kind), left waiting
// for its host; its Outcome and Reason are typed, and the facts behind a
// reason (the Filter's name, the link's Kind, the page a duplicate is Of,
// the ErrorKind) are fields of their own. DecisionLog writes them as JSON
// Lines. Package metrics
// exports the crawl to Prometheus and package report writes it up as one
// HTML file with charts; both listen to the same hooks (JoinEvents combines
// them with a program's own), and this package imports neither.
//
// # Testing crawlers
//
// Package crawltest serves a deterministic synthetic web on loopback, with
// robots.txt, traps, faults and ground truth, and records every request so
// that tests can assert politeness. The examples in this package use it.
//
// # Concurrency
//
// A Crawler runs its workers in goroutines it owns; all have exited when Run
// returns. Stats may be called from any goroutine at any time. Filters,
// Stores and Events are called concurrently from the workers and must be
// safe for concurrent use.
//
// # Extension points
//
// A frontier may implement the optional interfaces of package frontier
// that the crawler asks for (Revisiter for WithRecrawl, Booster for
// Priority.Inlink and, with SeenChecker, Priority.OPIC, StateKeeper for
// OPIC's accounts to survive a resume, HostCounter, Flusher,
// SpillReporter), or opic.Carrier for a frontier that places
// OPIC cash itself (package cluster's), a
// Store may implement ExchangeStore (every request and response as it
// crossed the wire) and io.Closer, and a fetcher fetch.Getter and
// fetch.IdleCloser; package frontiertest checks a frontier's.
package trawl
