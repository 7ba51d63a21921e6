package trawlcli

import (
	"flag"
	"fmt"
	"io"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/store"
)

// replayFeature is -replay DIR: a development cache, as Colly's CacheDir
// and Scrapy's HTTPCACHE. The URLs the WARC files in DIR (an earlier
// -warc DIR) hold are answered from them, byte for byte as recorded; the
// others are fetched (store.Replay, trawl.WithFetchWrapper). With -replay
// and -warc naming the same DIR, a crawl run again fetches only what it
// had not fetched before, and records it for the next run.
func replayFeature() Feature {
	var (
		dir string
		rp  *store.Replay
	)
	return Feature{
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&dir, "replay", "", "answer the URLs the WARC files in `DIR` hold (an earlier -warc DIR) from them, without fetching; fetch the others")
		},
		Setup: func(s *Session) ([]trawl.Option, error) {
			if dir == "" {
				return nil, nil
			}
			opts := &store.ReplayOptions{}
			if s.f.archive {
				opts.AcceptTypes = []string{"*/*"}
			}
			var err error
			if rp, err = store.NewReplay(dir, opts); err != nil {
				return nil, Exit(1, fmt.Errorf("-replay: %w", err))
			}
			return []trawl.Option{trawl.WithFetchWrapper(rp.Wrap)}, nil
		},
		Summary: func(w io.Writer, _ trawl.Stats) {
			if rp != nil {
				replayed, fetched := rp.Counts()
				fmt.Fprintf(w, "replay: %d responses from %s, %d URLs it lacks fetched\n", replayed, dir, fetched)
			}
		},
	}
}
