package optional_test

import (
	"context"
	"net"
	"net/netip"
	"os"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/render"
	"github.com/trawl-dev/trawl/store"
)

// TestRenderAdaptiveEval measures the adaptive render mode against
// rendering everything, on the Python docs (nginx on 127.0.2.1, 150
// pages) and on crawltest with its script-built construct pages: the share
// of HTML pages rendered, and the share of the followable links (navigation,
// frame, redirect) a render-everything crawl finds on the pages both crawls
// fetched that the adaptive crawl finds too. Figures in package render's
// doc.
//
//	TRAWL_RENDER_EVAL=1 go test -run TestRenderAdaptiveEval -v .
func TestRenderAdaptiveEval(t *testing.T) {
	if os.Getenv("TRAWL_RENDER_EVAL") == "" {
		t.Skip("set TRAWL_RENDER_EVAL=1 to run (needs chromium; the Python docs on 127.0.2.1 when there)")
	}
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 9, Hosts: 3, PagesPerHost: 40, LinkConstructs: true})
	sites := []struct {
		name  string
		seeds []string
		dial  func(ctx context.Context, network, addr string) (net.Conn, error)
		max   int
	}{
		{name: "crawltest", seeds: web.Seeds(), dial: web.DialContext, max: 0},
		{name: "python-docs", seeds: []string{"http://127.0.2.1/"}, max: 150},
	}
	for _, site := range sites {
		if site.name == "python-docs" {
			if c, err := net.DialTimeout("tcp", "127.0.2.1:80", time.Second); err != nil {
				t.Logf("python-docs: skipped, %v", err)
				continue
			} else {
				c.Close()
			}
		}
		links := map[string]map[string]map[string]bool{} // mode -> page -> followable links
		stats := map[string]render.Stats{}
		for _, mode := range []string{"always", "auto"} {
			mem := &store.Memory{}
			var r *render.Fetcher
			wrap := func(f fetch.Fetcher) fetch.Fetcher {
				o := &render.Options{Tabs: 2}
				if mode == "auto" {
					o.Adaptive = &render.Adaptive{}
				}
				var err error
				if r, err = render.New(f, o); err != nil {
					t.Fatal(err)
				}
				return r
			}
			opts := []trawl.Option{
				trawl.WithSeeds(site.seeds...),
				trawl.WithUserAgent(testUA),
				trawl.WithAllowNetworks(netip.MustParsePrefix("127.0.0.0/8")),
				trawl.WithFilters(trawl.SameHost(site.seeds...)),
				trawl.WithWorkers(4),
				trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
				trawl.WithLimits(trawl.Limits{MaxPages: site.max}),
				trawl.WithStore(mem),
				trawl.WithFetchWrapper(wrap),
			}
			if site.dial != nil {
				opts = append(opts, trawl.WithDialContext(site.dial))
			}
			c, err := trawl.New(opts...)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if err := c.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			pages := map[string]map[string]bool{}
			for _, p := range mem.Pages() {
				set := map[string]bool{}
				for _, l := range p.Links {
					if l.Kind == extract.Navigation || l.Kind == extract.Frame || l.Kind == extract.Redirect {
						set[l.URL] = true
					}
				}
				pages[p.URL.String()] = set
			}
			links[mode], stats[mode] = pages, r.Stats()
			st := r.Stats()
			html := st.Rendered + st.Static + st.Failed
			t.Logf("%s %s: %d pages stored in %v; %d HTML pages, %d rendered (%.0f%%), %d compared, %d gained",
				site.name, mode, len(pages), time.Since(start).Round(time.Millisecond), html, st.Rendered,
				100*float64(st.Rendered)/float64(max(html, 1)), st.Compared, st.Gained)
		}
		var all, found, common int
		for page, want := range links["always"] {
			got, ok := links["auto"][page]
			if !ok {
				continue
			}
			common++
			for l := range want {
				all++
				if got[l] {
					found++
				}
			}
		}
		t.Logf("%s: on the %d pages both crawls stored, auto finds %d of the %d followable links always finds (%.1f%%)",
			site.name, common, found, all, 100*float64(found)/float64(max(all, 1)))
	}
}
