//go:build trawl_nostate

package trawlcli

import (
	"errors"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/frontier"
)

// withState, in a build with the tag trawl_nostate, fails the crawl with a
// clear error: the persistent frontier (and the embedded store it needs,
// most of a spider's binary) is left out of such builds.
func withState(string) trawl.Option {
	return trawl.WithFrontier(func(frontier.MemoryOptions) (frontier.Frontier, error) {
		return nil, errors.New("-state: this program was built with the tag trawl_nostate, without the persistent frontier")
	})
}
