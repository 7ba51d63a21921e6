package trawlcli

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/render"
)

// renderFeature is -render never|always|auto and -render-tabs: pages rendered
// in headless Chromium (package render) before extraction, so that links
// and content only scripts write are found.
func renderFeature() Feature {
	var (
		mode string
		tabs int
		r    *render.Fetcher
	)
	return Feature{
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&mode, "render", "never", "render HTML pages in headless Chromium before extracting links: `never` (scripts are read, never run: -follow script finds the URLs they name literally), always (every page runs its scripts; finds links only running them writes; needs the chromium package; every request the browser makes passes the crawl's guard and robots.txt, non-GET requests and other hosts are refused; many times slower) or auto (renders the first pages of each host and top directory, and keeps rendering only where that found more links or text)")
			fs.IntVar(&tabs, "render-tabs", 2, "with -render always, pages rendered at once (browser tabs)")
		},
		Setup: func(s *Session) ([]trawl.Option, error) {
			switch mode {
			case "never":
				return nil, nil
			case "always", "auto":
			default:
				return nil, fmt.Errorf("-render: %q is not never, always or auto", mode)
			}
			if rp := s.fs.Lookup("replay"); rp != nil && rp.Value.String() != "" {
				// Both wrap the fetcher (trawl.WithFetchWrapper), and the
				// last option would win silently.
				return nil, fmt.Errorf("-render %s and -replay cannot be combined", mode)
			}
			if tabs < 1 {
				return nil, fmt.Errorf("-render-tabs: %d, want at least 1", tabs)
			}
			if _, err := render.FindChromium(); err != nil {
				return nil, Exit(1, fmt.Errorf("-render %s: %w", mode, err))
			}
			wrap := func(f fetch.Fetcher) fetch.Fetcher {
				var err error
				// The crawl hands r its robots.txt check (trawl.RobotsUser).
				o := &render.Options{Tabs: tabs}
				if mode == "auto" {
					o.Adaptive = &render.Adaptive{}
				}
				r, err = render.New(f, o)
				if err != nil { // FindChromium found one above
					panic(err)
				}
				return r
			}
			return []trawl.Option{trawl.WithFetchWrapper(wrap)}, nil
		},
		Status: func() string {
			if r == nil {
				return ""
			}
			return fmt.Sprintf("rendered %d", r.Stats().Rendered)
		},
		Summary: func(w io.Writer, _ trawl.Stats) {
			if r == nil {
				return
			}
			st := r.Stats()
			var blocked []string
			for v, n := range st.Requests {
				if v != render.Fetched {
					blocked = append(blocked, fmt.Sprintf("%s %d", v, n))
				}
			}
			slices.Sort(blocked)
			fmt.Fprintf(w, "render: %d pages rendered, %d failed (%d retried, %d browsers started)",
				st.Rendered, st.Failed, st.Retries, st.Starts)
			if mode == "auto" {
				fmt.Fprintf(w, ", %d left static (%d compared, %d gained)", st.Static, st.Compared, st.Gained)
			}
			fmt.Fprintf(w, "; sub-requests: %d fetched", st.Requests[render.Fetched])
			if len(blocked) > 0 {
				fmt.Fprintf(w, ", %s", strings.Join(blocked, ", "))
			}
			fmt.Fprintln(w)
		},
	}
}
