package trawlcli

import (
	"flag"
	"fmt"
	"os"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/frontier"
)

// stateFeature is -state DIR (the frontier kept in DIR, resumed from it;
// see state.go) and -spill DIR (the in-memory frontier's temporary file).
func stateFeature() Feature {
	var state, spill string
	return Feature{
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&state, "state", "", "keep the crawl's frontier in `DIR` and resume from it (with -out, storing continues)")
			fs.StringVar(&spill, "spill", spillDir(), "keep most of the queue in an unnamed temporary file in `DIR` instead of in memory (breadth-first crawls without -state; empty: keep it in memory)")
		},
		Setup: func(*Session) ([]trawl.Option, error) {
			switch {
			case state != "":
				return []trawl.Option{withState(state)}, nil
			case spill != "":
				if fi, err := os.Stat(spill); err != nil || !fi.IsDir() {
					return nil, fmt.Errorf("-spill: %s is not a directory", spill)
				}
				return []trawl.Option{withSpill(spill)}, nil
			}
			return nil, nil
		},
	}
}

// withSpill builds the default frontier with its front queues spilling to
// a temporary file in dir (frontier.MemoryOptions.SpillDir). Best-first
// crawls keep their queues in memory: their front queues are heaps.
func withSpill(dir string) trawl.Option {
	return trawl.WithFrontier(func(o frontier.MemoryOptions) (frontier.Frontier, error) {
		o.SpillDir = dir
		return frontier.NewMemory(&o), nil
	})
}

// spillDir is -spill's default: $TMPDIR if set, else /var/tmp where it
// exists, which stays on disk on systems that mount /tmp in memory (where a
// spill file would take the memory it is meant to save), else os.TempDir().
func spillDir() string {
	if d := os.Getenv("TMPDIR"); d != "" {
		return d
	}
	if fi, err := os.Stat("/var/tmp"); err == nil && fi.IsDir() {
		return "/var/tmp"
	}
	return os.TempDir()
}
