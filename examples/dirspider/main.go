// Command dirspider crawls the part of a site under its start URLs'
// directories: for http://a/b/c.html it fetches http://a/b/ and below, and
// never leaves that directory.
//
//	go run ./examples/dirspider -demo
//	go run ./examples/dirspider -out pages https://example.com/docs/index.html
//
// Run it with -h for the flags. It is sitespider with one Filter changed:
// trawl.UnderPath in place of trawl.SameHost.
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
		Name:  "dirspider",
		Usage: "dirspider crawls only the URLs under the directories of the start URLs.",
		Crawl: crawl,
	}
}

// crawl builds the crawler from the flags' options and runs it.
func crawl(ctx context.Context, s *trawlcli.Session) error {
	seeds := s.Seeds()
	c, err := trawl.New(append(s.Options(), // the flags: limits, politeness, stores, progress line
		trawl.WithSeeds(seeds...),
		// The scope: a URL is crawled when it lies under a start URL's
		// directory (same scheme and host, path below the last '/').
		trawl.WithFilters(trawl.UnderPath(seeds...)),
	)...)
	if err != nil {
		return err
	}
	return s.Run(ctx, c)
}
