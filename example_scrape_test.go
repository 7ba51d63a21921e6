package trawl_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/store"
)

// demoWeb starts a small crawltest web and returns it with the options
// that reach it; the examples below add their own.
func demoWeb(hosts, pages int) (*crawltest.Web, []trawl.Option) {
	web, err := crawltest.NewWeb(&crawltest.Options{Seed: 1, Hosts: hosts, PagesPerHost: pages})
	if err != nil {
		log.Fatal(err)
	}
	return web, []trawl.Option{
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithFilters(trawl.SameHost(web.Seeds()...)),            // the scope
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}), // loopback only: be polite elsewhere
		trawl.WithDialContext(web.DialContext),                       // reach the synthetic hosts
		trawl.WithAllowPrivateNetworks(true),                         // they live on 127.0.0.1
	}
}

// Selectors: a callback per CSS selector match, as Colly's OnHTML. Here
// each article's heading and the date in its byline.
func ExampleWithHTML() {
	web, opts := demoWeb(1, 6)
	defer web.Close()

	var mu sync.Mutex
	var lines []string
	c, err := trawl.New(append(opts,
		trawl.WithHTML("article", func(_ context.Context, e *trawl.Element) {
			line := fmt.Sprintf("%s | %s | %s", e.Page().URL.Path, e.ChildText("h1"), e.ChildAttr("p.byline time", "datetime"))
			mu.Lock()
			lines = append(lines, line)
			mu.Unlock()
		}),
	)...)
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		log.Fatal(err)
	}
	slices.Sort(lines)
	for _, l := range lines {
		fmt.Println(l)
	}
	// Output:
	// / | Home of h0.test | 2024-10-27T01:13:11Z
	// /docs/guide-2.html | Goal and the fixture 2 | 2024-10-08T14:25:50Z
	// /news/guide-5.html | Quasar and the telescope 5 | 2024-11-06T23:05:16Z
	// /shop/letter-4.html | Orbit and the meteor 4 | 2024-12-18T12:52:46Z
	// /shop/story-3.html | Pointer and the thread 3 | 2024-10-06T21:48:15Z
}

// XPath, as Scrapy's response.xpath: the same articles as ExampleWithHTML,
// selected by XPath expressions over the same parsed page. An attribute
// is a step of the path ("@datetime"); ".//" searches the element's
// descendants, "//" the whole page.
func ExampleWithXPath() {
	web, opts := demoWeb(1, 6)
	defer web.Close()

	var mu sync.Mutex
	var lines []string
	c, err := trawl.New(append(opts,
		trawl.WithXPath("//article", func(_ context.Context, e *trawl.Element) {
			line := fmt.Sprintf("%s | %s | %s | %s links", e.Page().URL.Path, e.XPathText(".//h1"),
				e.XPathText(".//p[@class='byline']//time/@datetime"), e.XPathText("count(.//a[@href])"))
			mu.Lock()
			lines = append(lines, line)
			mu.Unlock()
		}),
	)...)
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		log.Fatal(err)
	}
	slices.Sort(lines)
	for _, l := range lines {
		fmt.Println(l)
	}
	// Output:
	// / | Home of h0.test | 2024-10-27T01:13:11Z | 25 links
	// /docs/guide-2.html | Goal and the fixture 2 | 2024-10-08T14:25:50Z | 14 links
	// /news/guide-5.html | Quasar and the telescope 5 | 2024-11-06T23:05:16Z | 26 links
	// /shop/letter-4.html | Orbit and the meteor 4 | 2024-12-18T12:52:46Z | 23 links
	// /shop/story-3.html | Pointer and the thread 3 | 2024-10-06T21:48:15Z | 29 links
}

// Logging in: the login form is filled (its hidden CSRF token kept) and
// sent once before the seeds, and the crawl keeps the session cookie, so
// the pages behind the login are crawled. A wrong password would make Run
// fail with trawl.ErrLogin before any seed is fetched.
func ExampleWithLogin() {
	web, err := crawltest.NewWeb(&crawltest.Options{Seed: 1, Hosts: 1, PagesPerHost: 4, Login: true})
	if err != nil {
		log.Fatal(err)
	}
	defer web.Close()
	account := web.AccountURLs(0)[0] // http://h0.test/account/, behind the login

	var mu sync.Mutex
	var titles []string
	c, err := trawl.New(
		trawl.WithSeeds(account),
		trawl.WithFilters(trawl.UnderPath(account)),
		trawl.WithLogin(trawl.Login{
			URL:    web.LoginURL(0),
			Values: map[string]string{"username": crawltest.LoginUser, "password": crawltest.LoginPassword},
		}),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}), // loopback only
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithEvents(trawl.Events{OnPage: func(_ context.Context, p *trawl.Page) {
			mu.Lock()
			titles = append(titles, p.URL.Path+" | "+p.Title)
			mu.Unlock()
		}}),
	)
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		log.Fatal(err)
	}
	slices.Sort(titles)
	for _, t := range titles {
		fmt.Println(t)
	}
	// Output:
	// /account/ | Your account
	// /account/page-1.html | Your account, page 1
	// /account/page-2.html | Your account, page 2
	// /account/page-3.html | Your account, page 3
	// /account/page-4.html | Your account, page 4
	// /account/page-5.html | Your account, page 5
}

// Exports: items emitted from selector callbacks go to the ItemSink, here
// a JSON Lines store (store.NewJSONL("items.jsonl", nil) writes a file). Run
// closes it, which flushes it.
func ExampleWithItems() {
	web, opts := demoWeb(1, 6)
	defer web.Close()

	type headline struct {
		URL   string `json:"url"`
		Title string `json:"title"`
	}
	items := store.NewJSONLWriter(os.Stdout)
	c, err := trawl.New(append(opts,
		trawl.WithWorkers(1), // one at a time, so the lines come in crawl order
		trawl.WithItems(items),
		trawl.WithHTML("article h1", func(_ context.Context, e *trawl.Element) {
			_ = e.Emit(headline{URL: e.Page().URL.String(), Title: e.Text()})
		}),
	)...)
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.Stats().Items.Emitted, "items")
	// Output:
	// {"url":"http://h0.test/","title":"Home of h0.test"}
	// {"url":"http://h0.test/shop/letter-4.html","title":"Orbit and the meteor 4"}
	// {"url":"http://h0.test/shop/story-3.html","title":"Pointer and the thread 3"}
	// {"url":"http://h0.test/news/guide-5.html","title":"Quasar and the telescope 5"}
	// {"url":"http://h0.test/docs/guide-2.html","title":"Goal and the fixture 2"}
	// 5 items
}

// Events see every page, error and skipped URL as the crawl goes.
func ExampleEvents() {
	web, opts := demoWeb(2, 20)
	defer web.Close()

	var mu sync.Mutex
	pages, skips := 0, map[trawl.Outcome]int{}
	c, err := trawl.New(append(opts, trawl.WithEvents(trawl.Events{
		OnPage: func(_ context.Context, p *trawl.Page) {
			mu.Lock()
			pages++
			mu.Unlock()
		},
		OnDecision: func(_ context.Context, d trawl.Decision) {
			mu.Lock()
			skips[d.Outcome]++
			mu.Unlock()
		},
	}))...)
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		log.Fatal(err)
	}
	fmt.Println("pages:", pages)
	fmt.Println("skipped by robots.txt:", skips[trawl.DecisionRobots])
	fmt.Println("skipped by the scope filter:", skips[trawl.DecisionFiltered] > 0)
	// Output:
	// pages: 26
	// skipped by robots.txt: 17
	// skipped by the scope filter: true
}

// Progress: a Stats snapshot every interval while the crawl runs, and a
// last one when it ends.
func ExampleWithProgress() {
	web, opts := demoWeb(2, 20)
	defer web.Close()

	var last trawl.Stats
	c, err := trawl.New(append(opts, trawl.WithProgress(100*time.Millisecond, func(st trawl.Stats) {
		last = st // calls never overlap; the last is after Run's work is done
	}))...)
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d pages, %d queued, statuses %v\n", last.Fetch.Pages, last.URLs.Queued, last.Fetch.Codes)
	// Output:
	// 26 pages, 0 queued, statuses map[200:26]
}

// Cancellation: Run returns when its context ends, with an error that
// errors.Is matches against context.Canceled (or DeadlineExceeded for a
// timeout): a normal way to stop, not a failure.
func ExampleCrawler_Run_cancel() {
	web, opts := demoWeb(3, 50)
	defer web.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	pages := 0
	c, err := trawl.New(append(opts, trawl.WithEvents(trawl.Events{
		OnPage: func(context.Context, *trawl.Page) {
			mu.Lock()
			defer mu.Unlock()
			if pages++; pages == 10 {
				cancel() // enough: stop the crawl
			}
		},
	}))...)
	if err != nil {
		log.Fatal(err)
	}
	err = c.Run(ctx)
	switch {
	case errors.Is(err, context.Canceled):
		fmt.Println("stopped early; at least 10 pages:", c.Stats().Fetch.Pages >= 10)
	case err != nil:
		log.Fatal(err)
	default:
		fmt.Println("the crawl ended by itself")
	}
	// Output:
	// stopped early; at least 10 pages: true
}

// A focused crawl: WithPriority scores each link, and higher scores are
// fetched sooner. Here links whose anchor text mentions "telescope" go
// first.
func ExampleWithPriority() {
	web, opts := demoWeb(1, 40)
	defer web.Close()

	var order []string
	c, err := trawl.New(append(opts,
		trawl.WithWorkers(1), // one at a time, to show the order
		trawl.WithLimits(trawl.Limits{MaxPages: 6}),
		trawl.WithPriority(trawl.Priority{Link: func(l *trawl.Link, _ *trawl.Page) float64 {
			if strings.Contains(strings.ToLower(l.Text), "telescope") {
				return 1
			}
			return 0
		}}),
		trawl.WithEvents(trawl.Events{OnPage: func(_ context.Context, p *trawl.Page) {
			if p.ContentType == "text/html" {
				order = append(order, p.Title)
			}
		}}),
	)...)
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		log.Fatal(err)
	}
	for _, t := range order {
		fmt.Println(t)
	}
	// Output:
	// Home of h0.test | h0.test
	// Telescope and the eclipse 32 | h0.test
	// Telescope and the galaxy 9 | h0.test
	// Quasar and the telescope 5 | h0.test
	// Quasar and the galaxy 20 | h0.test
	// Flour and the onion 39 | h0.test
}

// A custom Filter: any func(*trawl.Candidate) bool, combined with the
// built-in ones. This one keeps the crawl out of /private/ and under
// depth 3.
func ExampleFilterFunc() {
	web, opts := demoWeb(1, 30)
	defer web.Close()

	noPrivate := trawl.FilterFunc(func(r *trawl.Candidate) bool {
		return !strings.HasPrefix(r.URL.Path, "/private/") && r.Depth <= 3
	})
	pages := &store.Memory{}
	c, err := trawl.New(append(opts,
		trawl.WithFilters(trawl.SameHost(web.Seeds()...), noPrivate), // replaces demoWeb's filters
		trawl.WithStore(pages),
	)...)
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		log.Fatal(err)
	}
	private := 0
	for _, u := range pages.URLs() {
		if strings.Contains(u, "/private/") {
			private++
		}
	}
	fmt.Println("pages stored:", len(pages.URLs()) > 0, "under /private/:", private)
	fmt.Println("deepest page:", c.Stats().Fetch.Deepest)
	// Output:
	// pages stored: true under /private/: 0
	// deepest page: 3
}

// titleIndex is a custom Store: it keeps the title of each HTML page. Put
// is called from several workers at once, hence the lock.
type titleIndex struct {
	mu     sync.Mutex
	titles map[string]string
}

func (s *titleIndex) Put(_ context.Context, p *trawl.Page) error {
	if p.ContentType != "text/html" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.titles[p.URL.Path] = p.Title
	return nil
}

func (s *titleIndex) Close() error { return nil }

// A custom Store is any type with Put and Close.
func ExampleStore_custom() {
	web, opts := demoWeb(1, 5)
	defer web.Close()

	idx := &titleIndex{titles: map[string]string{}}
	c, err := trawl.New(append(opts, trawl.WithStore(idx))...)
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(idx.titles), "titles; home:", idx.titles["/"])
	// Output:
	// 4 titles; home: Home of h0.test | h0.test
}

// Enqueue adds URLs from a callback, with metadata the fetched page
// carries in Page.Meta; depth, filters and trap rules apply.
func ExampleCrawler_Enqueue() {
	web, opts := demoWeb(1, 10)
	defer web.Close()

	var mu sync.Mutex
	var got []string
	var c *trawl.Crawler
	c, err := trawl.New(append(opts,
		trawl.WithLimits(trawl.Limits{MaxDepth: 1}), // the seeds only, and what Enqueue adds at depth 1
		trawl.WithEvents(trawl.Events{OnPage: func(ctx context.Context, p *trawl.Page) {
			if p.URL.Path == "/" {
				// Past the depth limit, so queued at depth 1 explicitly.
				if _, err := c.Enqueue(ctx, "docs/guide-2.html", trawl.FromPage(p), trawl.AtDepth(1),
					trawl.SetMeta("why", "asked for by the home page")); err != nil {
					log.Print(err)
				}
				return
			}
			mu.Lock()
			got = append(got, fmt.Sprint(p.URL.Path, " ", p.Meta["why"]))
			mu.Unlock()
		}}),
	)...)
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		log.Fatal(err)
	}
	fmt.Println(got)
	// Output:
	// [/docs/guide-2.html asked for by the home page]
}

// A request hook sets headers on each request and can drop a URL by
// returning an error (a DecisionAborted for Events.OnDecision).
func ExampleWithOnRequest() {
	web, opts := demoWeb(1, 20)
	defer web.Close()

	c, err := trawl.New(append(opts,
		trawl.WithHeader("Accept-Language", "en"), // every request
		trawl.WithOnRequest(func(_ context.Context, r *trawl.OutgoingRequest) error {
			if strings.HasPrefix(r.URL.Path, "/shop/") {
				return errors.New("not the shop")
			}
			r.Header.Set("X-Crawl-Depth", fmt.Sprint(r.Depth))
			return nil
		}),
	)...)
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		log.Fatal(err)
	}
	st := c.Stats()
	fmt.Println("dropped by the hook:", st.URLs.Aborted > 0, "fetched:", st.Fetch.Pages > 0)
	// Output:
	// dropped by the hook: true fetched: true
}
