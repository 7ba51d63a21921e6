package trawlcli

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/store"
)

// jsonlFeature is -jsonl FILE: each stored page's URL, title and main text
// (with the rest of store.PageRecord) as JSON Lines, alongside -out and
// -warc or alone. It turns on main-text extraction. -jsonl-mode says what
// to do with a FILE that holds records already: refuse to start (the
// default), append (Scrapy's -o), overwrite (Scrapy's -O); a crawl
// resumed from an existing -state directory appends by default, since its
// records continue the file.
func jsonlFeature() Feature {
	var path, mode string
	var opened bool
	return Feature{
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&path, "jsonl", "", "write each stored page's URL, title and main text (store.PageRecord) as one JSON object a line to `FILE` (see -jsonl-mode for a FILE that exists)")
			fs.StringVar(&mode, "jsonl-mode", "", "what -jsonl does with a FILE that holds records already: `refuse` to start, append to it (Scrapy's -o), overwrite it (Scrapy's -O) (default refuse, append when -state resumes a crawl)")
		},
		Setup: func(s *Session) ([]trawl.Option, error) {
			if path == "" {
				if mode != "" {
					return nil, fmt.Errorf("-jsonl-mode without -jsonl")
				}
				return nil, nil
			}
			m := store.Refuse
			if mode != "" {
				var err error
				if m, err = store.ParseMode(mode); err != nil {
					return nil, fmt.Errorf("-jsonl-mode: %w", err)
				}
			} else if resuming(s) {
				m = store.Append
			}
			j, err := store.NewJSONL(path, &store.FileOptions{Mode: m})
			if err != nil {
				if m == store.Refuse {
					err = fmt.Errorf("-jsonl: %s holds records already: give -jsonl-mode append to add to them or -jsonl-mode overwrite to replace them (%w)", path, err)
				}
				return nil, Exit(1, err)
			}
			s.AddStore(j)
			opened = true
			return []trawl.Option{trawl.WithMainText(trawl.MainText)}, nil
		},
		Summary: func(w io.Writer, st trawl.Stats) {
			if opened {
				fmt.Fprintf(w, "jsonl: %s (a line for each of the %d stored pages: url, title, main_text, ...)\n", path, st.Pages.Stored)
			}
		},
	}
}

// resuming reports whether -state names a directory that exists and is
// not empty: the crawl resumes an earlier run. (Features are set up in
// order, and -state's comes after the outputs': the directory has not
// been created by this run yet.)
func resuming(s *Session) bool {
	dir := s.Flag("state")
	if dir == "" {
		return false
	}
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) > 0
}
