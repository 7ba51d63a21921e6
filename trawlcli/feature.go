package trawlcli

import (
	"context"
	"flag"
	"io"

	"github.com/trawl-dev/trawl"
)

// Feature is a set of flags and what they do, added to a Command: the
// built-in -warc and -state, a program's own flags (the focused spider's
// -topic), or one a program picks up from another package. Each func may be
// nil. The hooks are called in this order: Flags before parsing, Setup
// after, Context before the crawl, Start with the crawler just before it
// runs, Status while it runs (from the progress goroutine), Summary after
// it.
type Feature struct {
	// Flags registers the feature's flags.
	Flags func(fs *flag.FlagSet)
	// Setup runs after the flags are parsed and the common options are
	// built: it checks the feature's flag values, opens what they name
	// (adding stores with s.AddStore) and returns options for the crawl.
	// An error stops the command with exit status 2 (bad flag values)
	// unless wrapped by Exit.
	Setup func(s *Session) ([]trawl.Option, error)
	// Start is called with the crawler just before it runs, for features
	// that watch it (a metrics endpoint, a report's sampler); what it
	// starts, Summary ends.
	Start func(ctx context.Context, c *trawl.Crawler)
	// Status returns text appended to the progress line ("" adds nothing).
	Status func() string
	// Summary writes the feature's lines after the common summary.
	Summary func(w io.Writer, st trawl.Stats)
	// Context, called after Setup, returns the context the crawl runs
	// under, derived from ctx (a time limit, say), and its cancel func,
	// called when the command ends. A crawl stopped by its context is
	// not a failure (exit status 0): the summary begins "interrupted"
	// when the context was cancelled, "stopped at the time limit" when
	// its deadline passed.
	Context func(ctx context.Context) (context.Context, context.CancelFunc)
}

// Builtin returns the features every Command has, after the common flags:
// -v (failed URLs as they happen; the summary lists the first ten),
// -warc (WARC files), -replay (answers from them, a development cache), -jsonl (pages as JSON Lines), -state / -spill
// (where the frontier lives), -metrics / -report / -decisions (seeing
// the crawl), -recrawl / -duration (a continuous crawl, a time limit) and
// -render (pages run in headless Chromium), -login (a login form
// filled and sent before the crawl) and -cpuprofile / -memprofile
// (pprof profiles of the command).
// To
// give every command a new feature, write it in a file of its own and list
// it here.
func Builtin() []Feature {
	return []Feature{
		failuresFeature(),
		warcFeature(),
		replayFeature(),
		jsonlFeature(),
		stateFeature(),
		observeFeature(),
		recrawlFeature(),
		renderFeature(),
		loginFeature(),
		profileFeature(),
	}
}
