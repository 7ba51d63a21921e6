//go:build !trawl_nostate

package trawlcli

import (
	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/disk"
)

// withState keeps the crawl's frontier in dir (the -state flag), configured
// by the crawler exactly as it configures its default frontier from the
// other flags and options, so a crawl with -state behaves like one without,
// and resumes where the last run stopped or was killed: queued URLs, the
// seen set, per-host next contact times, and URLs in flight (fetched
// again). The crawler flushes and closes it when Run returns.
func withState(dir string) trawl.Option {
	return trawl.WithFrontier(func(mo frontier.MemoryOptions) (frontier.Frontier, error) {
		return disk.Open(dir, &disk.Options{
			Strategy:    mo.Strategy,
			FrontQueues: mo.FrontQueues,
			Workers:     mo.Workers,
			BackQueues:  mo.BackQueues,
			MaxDepth:    mo.MaxDepth,
			MaxPerHost:  mo.MaxPerHost,
			Politeness:  mo.Politeness,
		})
	})
}
