// Command colly is the comparison's driver for github.com/gocolly/colly/v2.
//
// What Colly is told, following its documentation for a polite multi-host
// crawl:
//   - colly.Async(true), so fetches run concurrently;
//   - IgnoreRobotsTxt = false (Colly ignores robots.txt unless told);
//   - colly.AllowedDomains(the seed hosts): the same scope as sitespider;
//   - one LimitRule per seed host (DomainGlob = that host), Parallelism =
//     -host-concurrency, Delay = -delay. A single rule with DomainGlob "*"
//     would be one semaphore shared by all hosts, and only the first
//     matching rule applies, so a global worker count (-concurrency) cannot
//     be combined with per-host limits: Colly gets no global cap;
//   - colly.MaxRequests(-max-pages);
//   - the documented link-following callback: OnHTML("a[href]") calling
//     e.Request.Visit(e.Attr("href")).
//
// Its transport dials loopback only. Everything else is Colly's default.
package main

import (
	"fmt"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocolly/colly/v2"

	"github.com/trawl-dev/trawl/bench/internal/driver"
)

func main() {
	f := driver.Parse()
	var hosts []string
	seen := map[string]bool{}
	for _, s := range f.Seeds {
		u, err := url.Parse(s)
		if err != nil {
			driver.Fail(err)
		}
		if !seen[u.Host] {
			seen[u.Host] = true
			hosts = append(hosts, u.Host)
		}
	}
	var names []string
	for _, h := range hosts {
		u := url.URL{Host: h}
		names = append(names, u.Hostname())
	}

	opts := []colly.CollectorOption{colly.Async(true), colly.AllowedDomains(names...)}
	if f.UserAgent != "" {
		opts = append(opts, colly.UserAgent(f.UserAgent))
	}
	if f.MaxPages > 0 {
		opts = append(opts, colly.MaxRequests(uint32(f.MaxPages)))
	}
	c := colly.NewCollector(opts...)
	c.IgnoreRobotsTxt = false
	c.WithTransport(driver.Transport(f.HostConcurrency))
	for _, h := range hosts {
		err := c.Limit(&colly.LimitRule{DomainGlob: h, Parallelism: f.HostConcurrency, Delay: f.Delay})
		if err != nil {
			driver.Fail(err)
		}
	}

	var fetched, discovered atomic.Int64
	// Distinct URLs answered (fragment dropped), for a count of pages
	// where no web counts them (bench/cmd/sitetable's real sites): Colly
	// keeps fragments in its seen set, so it fetches a page once for each
	// fragment it is linked with.
	var mu sync.Mutex
	distinct := map[string]bool{}
	c.OnResponse(func(r *colly.Response) {
		fetched.Add(1)
		mu.Lock()
		u := *r.Request.URL
		u.Fragment, u.RawFragment = "", ""
		distinct[u.String()] = true
		mu.Unlock()
	})
	c.OnHTML("a[href]", func(e *colly.HTMLElement) {
		if e.Request.Visit(e.Attr("href")) == nil {
			discovered.Add(1)
		}
	})

	start := time.Now()
	for _, s := range f.Seeds {
		if c.Visit(s) == nil {
			discovered.Add(1)
		}
	}
	c.Wait()
	fmt.Printf("distinct fetched=%d\n", len(distinct))
	driver.Report(fetched.Load(), discovered.Load(), time.Since(start))
}
