// Package metrics exports a running crawl's figures to Prometheus: a
// prometheus.Collector over trawl.Crawler.Stats and the crawl's events,
// and a small HTTP server for the /metrics endpoint.
//
// # Quick start
//
//	col := metrics.New(nil)
//	c, err := trawl.New(
//		trawl.WithSeeds("https://example.com/"),
//		trawl.WithEvents(trawl.JoinEvents(col.Events(), myEvents)),
//	)
//	...
//	col.Watch(c)
//	reg := prometheus.NewRegistry()
//	reg.MustRegister(col)
//	ln, err := metrics.Listen("9090") // 127.0.0.1:9090
//	go metrics.Serve(ctx, ln, promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
//	err = c.Run(ctx)
//
// # What is exported
//
// Read from Crawler.Stats at scrape time (nothing is counted twice and
// nothing runs between scrapes): pages fetched and stored, body bytes,
// responses by status class, errors by kind, the frontier's queue length
// and the hosts waiting for their turn, URLs discovered, duplicate URLs,
// URLs filtered and dropped by trap rules, robots.txt fetches and denials,
// exact and near duplicate pages, retries and redirects. Counted from the
// crawl's events (Events.OnDecision): a histogram of fetch latency, the
// responses by exact status code, robots.txt outcomes (parsed, allow-all,
// disallow-all) and every decision about a URL by outcome. Metric names
// start with "trawl_" (Options.Namespace).
//
// # Cost
//
// The root package trawl does not import Prometheus: a program that does
// not import this package pays nothing for it. With a Collector, each
// decision costs a counter increment or a histogram observation, and the
// crawler pushes discovered URLs to its frontier one at a time to decide
// each (see trawl.Events.OnDecision); bench/README.md gives the measured
// cost. A scrape costs one Crawler.Stats call.
//
// # Concurrency
//
// A Collector is safe for concurrent use: its event hooks run on the
// crawl's workers while Prometheus scrapes from other goroutines.
//
// # Dependencies
//
// github.com/prometheus/client_golang, the Prometheus project's own client,
// which the issue (22) names.
package metrics
