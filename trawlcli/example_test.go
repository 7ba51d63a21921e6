package trawlcli_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/trawlcli"
)

// A site spider: the command line is trawlcli's, the crawler is the
// trawl.New call with the scope Filter. Here it crawls the -demo web.
func ExampleCommand() {
	cmd := &trawlcli.Command{
		Name:  "sitespider",
		Usage: "sitespider crawls the hosts of the start URLs and nothing else.",
		Crawl: func(ctx context.Context, s *trawlcli.Session) error {
			c, err := trawl.New(append(s.Options(),
				trawl.WithSeeds(s.Seeds()...),
				trawl.WithFilters(trawl.SameHost(s.Seeds()...)),
			)...)
			if err != nil {
				return err // exit status 2
			}
			return s.Run(ctx, c)
		},
	}
	var stdout, stderr bytes.Buffer
	code := cmd.Run(context.Background(), []string{"-demo", "-max-pages", "5", "-progress=false"}, &stdout, &stderr)
	fmt.Println("exit status", code)
	for line := range strings.Lines(stdout.String()) {
		if strings.HasPrefix(line, "crawled ") {
			fmt.Println(strings.Fields(line)[:3])
		}
	}
	// Output:
	// exit status 0
	// [crawled 5 pages]
}

// A feature adds a flag and what it does to a command: here -note,
// which only adds to the summary.
func ExampleFeature() {
	var note string
	feature := trawlcli.Feature{
		Flags: func(fs *flag.FlagSet) { fs.StringVar(&note, "note", "", "a `NOTE` for the summary") },
		Setup: func(s *trawlcli.Session) ([]trawl.Option, error) {
			if note == "" {
				return nil, errors.New("-note is required") // exit status 2
			}
			return nil, nil
		},
		Summary: func(w io.Writer, st trawl.Stats) { fmt.Fprintf(w, "note: %s (%d pages)\n", note, st.Fetch.Pages) },
	}
	cmd := &trawlcli.Command{
		Name:     "notespider",
		Usage:    "notespider crawls a site and notes it.",
		Features: []trawlcli.Feature{feature},
		Crawl: func(ctx context.Context, s *trawlcli.Session) error {
			c, err := trawl.New(append(s.Options(), trawl.WithSeeds(s.Seeds()...), trawl.WithFilters(trawl.SameHost(s.Seeds()...)))...)
			if err != nil {
				return err
			}
			return s.Run(ctx, c)
		},
	}
	var stdout, stderr bytes.Buffer
	fmt.Println("exit status", cmd.Run(context.Background(), []string{"-demo"}, &stdout, &stderr), strings.TrimSpace(stderr.String()))
	stdout.Reset()
	cmd.Run(context.Background(), []string{"-demo", "-max-pages", "2", "-note", "first try", "-progress=false"}, &stdout, &stderr)
	for line := range strings.Lines(stdout.String()) {
		if strings.HasPrefix(line, "note: ") {
			fmt.Print(line)
		}
	}
	// Output:
	// exit status 2 notespider: -note is required
	// note: first try (2 pages)
}
