// Command sitespider crawls the sites (hosts) of its start URLs and nothing
// else, politely: robots.txt obeyed, one request at a time per host, a
// delay between requests to a host.
//
//	go run ./examples/sitespider -demo                     # offline demo on loopback
//	go run ./examples/sitespider -out pages https://example.com/
//
// Run it with -h for the flags. Package trawlcli reads them (-max-pages,
// -delay, -out, ...), draws the progress line and writes the summary; the
// crawler itself is the trawl.New call below. dirspider differs from it
// by one Filter.
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
		Name:  "sitespider",
		Usage: "sitespider crawls the hosts of the start URLs and nothing else.",
		Crawl: crawl,
	}
}

// crawl builds the crawler from the flags' options and runs it.
func crawl(ctx context.Context, s *trawlcli.Session) error {
	seeds := s.Seeds()
	c, err := trawl.New(append(s.Options(), // the flags: limits, politeness, stores, progress line
		trawl.WithSeeds(seeds...),
		// The scope: a URL is crawled when its host is a start URL's host.
		trawl.WithFilters(trawl.SameHost(seeds...)),
	)...)
	if err != nil {
		return err
	}
	return s.Run(ctx, c)
}
