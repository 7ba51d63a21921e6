package trawlcli

import (
	"flag"
	"os"

	"github.com/trawl-dev/trawl"
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
			var opts []trawl.Option
			if spill != "" {
				opts = append(opts, trawl.WithSpillDir(spill))
			}
			if state != "" {
				opts = append(opts, withState(state))
			}
			return opts, nil
		},
	}
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
