package metrics_test

import (
	"context"
	"fmt"
	"log"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/metrics"
)

// A collector watches a crawl; a Prometheus registry (or metrics.Handler,
// served with metrics.Serve) scrapes it.
func Example() {
	web, err := crawltest.NewWeb(&crawltest.Options{Seed: 1, Hosts: 2, PagesPerHost: 10})
	if err != nil {
		log.Fatal(err)
	}
	defer web.Close()

	col := metrics.New(nil)
	c, err := trawl.New(
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithEvents(col.Events()), // trawl.JoinEvents(col.Events(), yours) to keep your own
	)
	if err != nil {
		log.Fatal(err)
	}
	col.Watch(c)
	reg := prometheus.NewRegistry()
	reg.MustRegister(col)
	if err := c.Run(context.Background()); err != nil {
		log.Fatal(err)
	}

	mfs, err := reg.Gather()
	if err != nil {
		log.Fatal(err)
	}
	for _, mf := range mfs {
		switch mf.GetName() {
		case "trawl_pages_fetched_total", "trawl_queue_length":
			fmt.Println(mf.GetName(), mf.GetMetric()[0].GetCounter().GetValue()+mf.GetMetric()[0].GetGauge().GetValue())
		case "trawl_fetch_duration_seconds":
			fmt.Println(mf.GetName(), "count", mf.GetMetric()[0].GetHistogram().GetSampleCount())
		}
	}
	// Output:
	// trawl_fetch_duration_seconds count 18
	// trawl_pages_fetched_total 18
	// trawl_queue_length 0
}
