package trawlcli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/trawl-dev/trawl"
)

// maxListedFailures is how many failed URLs the summary lists.
const maxListedFailures = 10

// failuresFeature is -v, and the summary's list of failed URLs: every
// command keeps the first failures (Events.OnError: a fetch error, an
// HTTP error status, a robots.txt failure, a store error, a bad selector)
// with their error and lists them after the summary, so that a crawl
// that went wrong says where; -v also prints each one on stderr as it
// happens.
func failuresFeature() Feature {
	var (
		verbose bool
		stderr  io.Writer
		mu      sync.Mutex
		first   []string // "URL: error", the first maxListedFailures
		total   int64
	)
	return Feature{
		Flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&verbose, "v", false, "verbose: print each failed URL and its error on stderr as it happens (the summary lists the first 10 in any case)")
		},
		Setup: func(s *Session) ([]trawl.Option, error) {
			stderr = s.Stderr()
			s.AddEvents(trawl.Events{OnError: func(_ context.Context, rawURL string, err error) {
				line := rawURL + ": " + oneLine(err.Error())
				mu.Lock()
				defer mu.Unlock()
				total++
				if len(first) < maxListedFailures {
					first = append(first, line)
				}
				if verbose {
					// \r\033[K clears a progress line being drawn.
					fmt.Fprintf(stderr, "\r\033[Kerror: %s\n", line)
				}
			}})
			return nil, nil
		},
		Summary: func(w io.Writer, _ trawl.Stats) {
			mu.Lock()
			defer mu.Unlock()
			if total == 0 {
				return
			}
			if total > int64(len(first)) {
				fmt.Fprintf(w, "failed URLs: the first %d of %d (-v prints each one as it fails; -decisions FILE says what became of every URL):\n", len(first), total)
			} else {
				fmt.Fprintf(w, "failed URLs (%d):\n", total)
			}
			for _, line := range first {
				fmt.Fprintf(w, "  %s\n", line)
			}
		},
	}
}

// oneLine joins the lines of a multi-line error (errors.Join's).
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(strings.NewReplacer("\r", " ", "\n", "; ").Replace(s)), " ")
}
