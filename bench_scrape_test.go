package trawl_test

import (
	"context"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
)

// BenchmarkCrawlSelectors measures the page pipeline (fetch over loopback,
// extraction, politeness, frontier) with and without WithHTML callbacks:
// "none" is BenchmarkCrawl's crawl, where no page is parsed into a DOM;
// "selectors" adds two callbacks, so every HTML page is parsed once. Compare
// "none" with BenchmarkCrawl on an earlier commit to see that a crawl
// without selectors pays nothing for them.
func BenchmarkCrawlSelectors(b *testing.B) {
	web, err := crawltest.NewWeb(&crawltest.Options{Seed: 1, Hosts: 20, PagesPerHost: 200})
	if err != nil {
		b.Fatal(err)
	}
	defer web.Close()
	for _, bc := range []struct {
		name string
		opts []trawl.Option
	}{
		{name: "none"},
		{name: "selectors", opts: []trawl.Option{
			trawl.WithHTML("article h1", func(_ context.Context, e *trawl.Element) { _ = e.Text() }),
			trawl.WithHTML("aside a[href]", func(_ context.Context, e *trawl.Element) { _ = e.Attr("href") }),
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var pages int64
			var cpu time.Duration
			start := time.Now()
			for b.Loop() {
				c, err := trawl.New(append([]trawl.Option{
					trawl.WithSeeds(web.Seeds()...),
					trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
					trawl.WithDialContext(web.DialContext),
					trawl.WithAllowPrivateNetworks(true),
					trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
					trawl.WithWorkers(64),
					trawl.WithPoliteness(trawl.Politeness{HostConcurrency: 2}),
					trawl.WithPoliteness(trawl.Politeness{Adaptive: -1}),
				}, bc.opts...)...)
				if err != nil {
					b.Fatal(err)
				}
				c0 := cpuTime()
				if err := c.Run(context.Background()); err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - c0
				pages += c.Stats().Fetch.Pages
			}
			b.ReportMetric(float64(pages)/time.Since(start).Seconds(), "pages/s")
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(pages), "CPU-ms/page")
		})
	}
}

// BenchmarkHostConcurrencyDelay shows how WithHostConcurrency combines with
// Politeness.Delay on one host: the delay spaces request starts whatever the
// concurrency, so 4 per host with 200 ms gives about 5 pages/s, as 1 per
// host does, not 20 (the figures in WithHostConcurrency's doc).
func BenchmarkHostConcurrencyDelay(b *testing.B) {
	web, err := crawltest.NewWeb(&crawltest.Options{Seed: 1, Hosts: 1, PagesPerHost: 200})
	if err != nil {
		b.Fatal(err)
	}
	defer web.Close()
	for _, bc := range []struct {
		name  string
		conc  int
		delay time.Duration
	}{
		{"1-per-host-200ms", 1, 200 * time.Millisecond},
		{"4-per-host-200ms", 4, 200 * time.Millisecond},
		{"4-per-host-50ms", 4, 50 * time.Millisecond},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var pages int64
			var elapsed time.Duration
			for b.Loop() {
				c, err := trawl.New(
					trawl.WithSeeds(web.Seeds()...),
					trawl.WithDialContext(web.DialContext),
					trawl.WithAllowPrivateNetworks(true),
					trawl.WithPoliteness(trawl.Politeness{IgnoreRobots: true}), // a robots.txt fetch would add one delay
					trawl.WithPoliteness(trawl.Politeness{Delay: bc.delay}),
					trawl.WithPoliteness(trawl.Politeness{HostConcurrency: bc.conc}),
					trawl.WithLimits(trawl.Limits{MaxPages: 25}),
				)
				if err != nil {
					b.Fatal(err)
				}
				if err := c.Run(context.Background()); err != nil {
					b.Fatal(err)
				}
				st := c.Stats()
				pages += st.Fetch.Pages
				elapsed += st.Elapsed
			}
			b.ReportMetric(float64(pages)/elapsed.Seconds(), "pages/s")
		})
	}
}
