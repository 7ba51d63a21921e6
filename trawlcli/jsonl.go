package trawlcli

import (
	"flag"
	"fmt"
	"io"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/store"
)

// jsonlFeature is -jsonl FILE: each stored page's URL, title and main text
// (with the rest of store.PageRecord) as JSON Lines, alongside -out and
// -warc or alone. It turns on main-text extraction.
func jsonlFeature() Feature {
	var path string
	var opened bool
	return Feature{
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&path, "jsonl", "", "write each stored page's URL, title and main text (store.PageRecord) as one JSON object a line to `FILE`, appending to it if it exists")
		},
		Setup: func(s *Session) ([]trawl.Option, error) {
			if path == "" {
				return nil, nil
			}
			j, err := store.NewJSONL(path, nil)
			if err != nil {
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
