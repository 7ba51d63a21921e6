// Command gocrawl is the comparison's driver for
// github.com/PuerkitoBio/gocrawl (v1.1.0, whose go.mod imports
// github.com/temoto/robotstxt, so no alias module is needed).
//
// What gocrawl is told, following its documentation:
//   - an Extender embedding DefaultExtender; Filter keeps URLs not yet
//     visited whose host is a seed host (the same scope as sitespider),
//     and Visit returns (nil, true) so gocrawl harvests the links itself
//     (goquery "a[href]");
//   - Options.UserAgent and RobotUserAgent = -user-agent (robots.txt is
//     always obeyed by gocrawl);
//   - Options.CrawlDelay = -delay; MaxVisits = -max-pages;
//     SameHostOnly = false (Filter does the scoping); HeadBeforeGet = false;
//     URL normalization: gocrawl's default (purell FlagsAllGreedy);
//   - gocrawl runs one worker goroutine per host, so one request at a time
//     per host and no global worker count: -concurrency and
//     -host-concurrency cannot be passed on.
//
// gocrawl's HttpClient (the documented customization point) gets a
// transport that dials loopback only. gocrawl can stall after MaxVisits
// when there is no delay, so the driver calls Stop itself once the cap is
// reached and does not wait more than 5 s for Run to return.
package main

import (
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/PuerkitoBio/gocrawl"
	"github.com/PuerkitoBio/goquery"

	"github.com/trawl-dev/trawl/bench/internal/driver"
)

type extender struct {
	gocrawl.DefaultExtender
	hosts      map[string]bool
	max        int64
	fetched    atomic.Int64
	discovered atomic.Int64
	capped     chan struct{}
	capOnce    sync.Once
}

func (x *extender) Filter(ctx *gocrawl.URLContext, isVisited bool) bool {
	if isVisited || !x.hosts[ctx.NormalizedURL().Host] {
		return false
	}
	x.discovered.Add(1)
	return true
}

func (x *extender) Visit(*gocrawl.URLContext, *http.Response, *goquery.Document) (any, bool) {
	if n := x.fetched.Add(1); x.max > 0 && n >= x.max {
		x.capOnce.Do(func() { close(x.capped) })
	}
	return nil, true
}

func main() {
	f := driver.Parse()
	x := &extender{hosts: map[string]bool{}, max: int64(f.MaxPages), capped: make(chan struct{})}
	for _, s := range f.Seeds {
		u, err := url.Parse(s)
		if err != nil {
			driver.Fail(err)
		}
		x.hosts[u.Host] = true
	}
	gocrawl.HttpClient.Transport = driver.Transport(1)

	opts := gocrawl.NewOptions(x)
	if f.UserAgent != "" {
		opts.UserAgent = f.UserAgent
		opts.RobotUserAgent = f.UserAgent
	}
	opts.CrawlDelay = f.Delay
	opts.MaxVisits = f.MaxPages
	opts.SameHostOnly = false
	opts.HeadBeforeGet = false
	opts.LogFlags = gocrawl.LogNone
	c := gocrawl.NewCrawlerWithOptions(opts)

	start := time.Now()
	done := make(chan struct{})
	go func() {
		c.Run(f.Seeds)
		close(done)
	}()
	select {
	case <-done:
	case <-x.capped:
		c.Stop()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
	}
	driver.Report(x.fetched.Load(), x.discovered.Load(), time.Since(start))
}
