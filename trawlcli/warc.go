package trawlcli

import (
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/store"
)

// warcFeature is -warc DIR and its companions: what was fetched, as WARC
// files (package store's WARC), alongside -out or alone.
func warcFeature() Feature {
	var (
		dir        string
		outlinks   bool
		noRevisits bool
		warc       *store.WARC
	)
	return Feature{
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&dir, "warc", "", "write what was fetched as WARC/1.1 files (gzipped, 1 GB each) with a CDXJ index in `DIR`")
			fs.BoolVar(&outlinks, "warc-outlinks", false, "with -warc, add a metadata record listing each page's links")
			fs.BoolVar(&noRevisits, "warc-no-revisit", false, "with -warc, write exact duplicates in full instead of as revisit records")
		},
		Setup: func(s *Session) ([]trawl.Option, error) {
			if dir == "" {
				return nil, nil
			}
			// The warcinfo records carry the crawl's settings.
			f := &s.f
			info := map[string]string{
				"robots":      "obey",
				"description": fmt.Sprintf("%d start URLs; max-pages %d, max-depth %d, concurrency %d, host-concurrency %d, delay %s", len(s.seeds), f.maxPages, f.maxDepth, f.concurrency, f.hostConcurrency, f.delay),
				"revisits":    strconv.FormatBool(!noRevisits),
			}
			if f.userAgent != "" {
				info["http-header-user-agent"] = f.userAgent // else trawl's default, as each request record shows
			}
			var err error
			if warc, err = store.NewWARC(dir, &store.WARCOptions{Outlinks: outlinks, NoRevisits: noRevisits, Info: info}); err != nil {
				return nil, Exit(1, err)
			}
			s.AddStore(warc)
			return nil, nil
		},
		Summary: func(w io.Writer, _ trawl.Stats) {
			if warc != nil {
				n, rv := warc.Records()
				fmt.Fprintf(w, "warc: %s (%d records, %d of them revisits; CDXJ index beside)\n", dir, n, rv)
			}
		},
	}
}
