package report_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/report"
)

// A Recorder watches a crawl; its Report is written as one HTML file.
func Example() {
	web, err := crawltest.NewWeb(&crawltest.Options{Seed: 1, Hosts: 2, PagesPerHost: 10})
	if err != nil {
		log.Fatal(err)
	}
	defer web.Close()

	rec := report.NewRecorder(&report.Options{Interval: 100 * time.Millisecond})
	c, err := trawl.New(
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithEvents(rec.Events()), // trawl.JoinEvents(rec.Events(), yours) to keep your own
	)
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	watched := make(chan error, 1)
	go func() { watched <- rec.Watch(ctx, c.Stats) }()
	err = c.Run(context.Background())
	stop()
	<-watched
	if err != nil {
		log.Fatal(err)
	}
	rec.Add(c.Stats())

	rep := rec.Report("two hosts")
	for _, h := range rep.Hosts {
		fmt.Println(h.Name, h.Pages, "pages, robots.txt", h.Robots)
	}
	if err := rep.WriteHTML(io.Discard); err != nil { // a file, usually
		log.Fatal(err)
	}
	// Output:
	// h0.test 12 pages, robots.txt parsed
	// h1.test 6 pages, robots.txt parsed
}
