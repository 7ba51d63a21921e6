package trawl_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCrawl crawls a synthetic web over loopback with no delay and
// reports pages/s and CPU-ms per page. The web runs in the same process, so
// CPU-ms/page covers crawler and server together (crawltest's own
// BenchmarkServe gives the server's share).
func BenchmarkCrawl(b *testing.B) {
	web, err := crawltest.NewWeb(&crawltest.Options{Seed: 1, Hosts: 50, PagesPerHost: 200})
	if err != nil {
		b.Fatal(err)
	}
	defer web.Close()
	b.ReportAllocs()
	var pages int64
	var cpu time.Duration
	start := time.Now()
	for b.Loop() {
		c, err := trawl.New(
			trawl.WithSeeds(web.Seeds()...),
			trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
			trawl.WithDialContext(web.DialContext),
			trawl.WithAllowPrivateNetworks(true),
			trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
			trawl.WithWorkers(64),
			trawl.WithPoliteness(trawl.Politeness{HostConcurrency: 2}),
			trawl.WithPoliteness(trawl.Politeness{Adaptive: -1}),
		)
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
}
