// Command spider crawls the web from its start URLs: it follows links to
// any host, politely (robots.txt obeyed, one request at a time per host, a
// delay between requests to a host). It is sitespider without the scope
// Filter; only guards against binary files, spider traps and absurd URLs
// stay. Give it -max-pages or -host-budget: the web does not end.
//
//	go run ./examples/spider -demo                                  # offline demo on loopback
//	go run ./examples/spider -max-pages 1000 -out pages https://example.com/
//
// Run it with -h for the flags.
package main

import (
	"context"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/trawlcli"
)

func main() { command().Main() }

// command is the spider's command line; crawl is the spider.
func command() *trawlcli.Command {
	return &trawlcli.Command{
		Name:  "spider",
		Usage: "spider crawls the web from the start URLs, following links to any host (give -max-pages).",
		Crawl: crawl,
	}
}

// crawl builds the crawler from the flags' options and runs it.
func crawl(ctx context.Context, s *trawlcli.Session) error {
	c, err := trawl.New(append(s.Options(), // the flags: limits, politeness, stores, progress line
		trawl.WithSeeds(s.Seeds()...),
		// No scope: any http(s) URL, but no binary files; and, as trap
		// rules, no path that repeats a segment more than 3 times or has
		// more than 12 segments, no URL over 2 KiB (the defaults but for
		// the segments, 32 by default).
		trawl.WithFilters(trawl.SkipExtensions(trawl.BinaryExtensions()...)),
		trawl.WithTrapLimits(trawl.TrapLimits{MaxPathSegments: 12, MaxSegmentRepeats: 3, MaxURLLength: 2048}),
	)...)
	if err != nil {
		return err
	}
	return s.Run(ctx, c)
}
