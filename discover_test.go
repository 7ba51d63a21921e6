package trawl_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/extract"
)

// constructsClosure returns the construct URLs a crawl that follows the
// kinds in follow must fetch: every host's /constructs/ index and,
// transitively, the references of those kinds.
func constructsClosure(web *crawltest.Web, follow map[string]bool) []string {
	seen := map[string]bool{}
	var queue []string
	for _, h := range web.Hosts() {
		u := "http://" + h + "/constructs/"
		seen[u] = true
		queue = append(queue, u)
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, r := range web.References(u) {
			if follow[r.Kind] && !seen[r.URL] && strings.Contains(r.URL, "/constructs/") {
				seen[r.URL] = true
				queue = append(queue, r.URL)
			}
		}
	}
	var out []string
	for u := range seen {
		out = append(out, u)
	}
	slices.Sort(out)
	return out
}

// fetchedConstructs returns the distinct construct URLs the web served.
func fetchedConstructs(log *crawltest.Log) []string {
	var out []string
	for _, r := range log.Requests() {
		if strings.Contains(r.Path, "/constructs/") {
			out = append(out, r.URL)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestCrawlFollowKinds: by default the crawler follows every navigation,
// frame, redirect (meta refresh and headers), GET form, sitemap and feed
// reference of crawltest's link constructs, and nothing else; WithArchive
// adds the embedded resources, style sheets, pings and the URLs inferred
// from text and scripts (script files included); WithFollow chooses. No
// mode fetches a URL a form or a script POSTs to (form-post, js-post), or
// one only running a script builds (js-only).
func TestCrawlFollowKinds(t *testing.T) {
	defaults := map[string]bool{"navigation": true, "frame": true, "redirect": true, "form": true, "sitemap": true, "feed": true}
	archive := map[string]bool{"embed": true, "style": true, "ping": true, "speculative": true, "script": true}
	for k := range defaults {
		archive[k] = true
	}
	tests := []struct {
		name   string
		opts   []trawl.Option
		follow map[string]bool
	}{
		{name: "default", follow: defaults},
		{name: "archive", opts: []trawl.Option{trawl.WithArchive(true)}, follow: archive},
		{name: "navigation only", opts: []trawl.Option{trawl.WithFollow(extract.Navigation)}, follow: map[string]bool{"navigation": true}},
		{name: "navigation and inferred", opts: []trawl.Option{trawl.WithFollow(extract.Navigation, extract.Speculative, extract.Script)},
			follow: map[string]bool{"navigation": true, "speculative": true, "script": true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 9, Hosts: 2, PagesPerHost: 10, LinkConstructs: true})
			c, mem, err := crawl(t, web, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			want := constructsClosure(web, tt.follow)
			missing, extra := diff(fetchedConstructs(web.Log()), want)
			if len(missing) > 0 {
				t.Errorf("%d construct URLs not fetched, e.g. %v", len(missing), first(missing, 8))
			}
			if len(extra) > 0 {
				t.Errorf("%d construct URLs fetched that the kinds followed do not reach, e.g. %v", len(extra), first(extra, 8))
			}
			if missing, _ := diff(web.Log().FetchedPages(), web.Reachable(testUA)); len(missing) > 0 {
				t.Errorf("%d ordinary pages not fetched, e.g. %v", len(missing), first(missing, 5))
			}
			if twice := web.Log().FetchedTwice(); len(twice) > 0 {
				t.Errorf("fetched twice: %v", first(twice, 5))
			}
			st := c.Stats()
			t.Logf("%d construct URLs fetched; stats: sitemaps %d (%d URLs), feeds %d, errors %v",
				len(want), st.Found.Sitemaps, st.Found.SitemapURLs, st.Found.Feeds, st.Errors.Kinds)
			if tt.name == "archive" {
				// Binary resources reach the store byte for byte.
				png := 0
				for _, p := range mem.Pages() {
					if p.ContentType == "image/png" && strings.HasPrefix(string(p.Body), "\x89PNG\r\n\x1a\n") {
						png++
					}
				}
				if png == 0 {
					t.Errorf("no PNG stored in an archive crawl")
				}
			}
		})
	}
}

// TestCrawlSitemapsFromRobots: the sitemaps robots.txt names (and their
// index entries, gzipped or not) are read, their URLs queued, and what
// they say of a URL reaches its Page.
//
// A sitemap speaks for a URL only if it is the first to name it: a URL a
// link queued first is not queued again, and the sitemap's entry for it is
// dropped with the duplicate. One worker makes the order fixed (robots.txt,
// the seed, its sitemaps, the pages the seed links to, the rest): with
// eight, the seed's links and those of the next pages were queued before
// the sitemaps were read in about one run in five, and no page carried
// sitemap information.
func TestCrawlSitemapsFromRobots(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 3, Hosts: 3, PagesPerHost: 20})
	c, mem, err := crawl(t, web, trawl.WithWorkers(1))
	if err != nil {
		t.Fatal(err)
	}
	fetched := map[string]bool{}
	for _, u := range fetchedURLs(web.Log()) {
		fetched[u] = true
	}
	for _, sm := range web.Sitemaps() {
		if !fetched[sm] {
			t.Errorf("sitemap %s (named in robots.txt) not fetched", sm)
		}
	}
	st := c.Stats()
	if st.Found.Sitemaps == 0 || st.Found.SitemapURLs == 0 {
		t.Errorf("Stats: %d sitemaps, %d sitemap URLs; want some", st.Found.Sitemaps, st.Found.SitemapURLs)
	}
	withInfo := 0
	for _, p := range mem.Pages() {
		if p.Sitemap != nil && !p.Sitemap.LastMod.IsZero() {
			withInfo++
		}
	}
	if withInfo == 0 {
		t.Errorf("no stored page carries what its sitemap said (lastmod)")
	}
}

// TestCrawlNestedSitemapIndex: an index listed by another index is read
// but its entries are not followed (sitemaps.org: indexes do not nest),
// and the crawl says so once.
func TestCrawlNestedSitemapIndex(t *testing.T) {
	var mu sync.Mutex
	hits := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		base := "http://" + r.Host
		index := func(loc string) string {
			return `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>` + base + loc + `</loc></sitemap></sitemapindex>`
		}
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: %s/index1.xml\n", base)
		case "/index1.xml":
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprint(w, index("/index2.xml"))
		case "/index2.xml":
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprint(w, index("/sitemap3.xml"))
		case "/":
			fmt.Fprint(w, "<html><title>home</title><p>home page</p></html>")
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c, err := trawl.New(trawl.WithSeeds(srv.URL+"/"), trawl.WithAllowPrivateNetworks(true), trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}), trawl.WithUserAgent(testUA))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if hits["/index1.xml"] != 1 || hits["/index2.xml"] != 1 || hits["/sitemap3.xml"] != 0 {
		t.Errorf("requests %v: want index1 and index2 once each, sitemap3 never", hits)
	}
	if n := c.Stats().Errors.Kinds["sitemap"]; n != 1 {
		t.Errorf("ErrorKinds[sitemap] = %d, want 1 (the nested index)", n)
	}
}

// TestCrawlScriptMetadataAddress: a page's script names a cloud metadata
// address (crawltest's scripts construct); a crawl that follows script
// URLs and lets the host through its filters still never connects there,
// since the private-network guard refuses it before dialing, with
// WithAllowPrivateNetworks(true) too.
func TestCrawlScriptMetadataAddress(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 9, Hosts: 1, PagesPerHost: 5, LinkConstructs: true})
	const metadata = "http://169.254.169.254/latest/meta-data/"
	found := false
	for _, r := range web.References("http://" + web.Hosts()[0] + "/constructs/pages/scripts.html") {
		found = found || r.URL == metadata && r.Kind == "script"
	}
	if !found {
		t.Fatalf("crawltest's scripts construct no longer names %s", metadata)
	}
	var (
		mu     sync.Mutex
		dialed []string
	)
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		mu.Lock()
		dialed = append(dialed, addr)
		mu.Unlock()
		return web.DialContext(ctx, network, addr)
	}
	var refused []trawl.Decision
	c, err := trawl.New(
		trawl.WithSeeds("http://"+web.Hosts()[0]+"/constructs/pages/scripts.html"),
		trawl.WithUserAgent(testUA),
		trawl.WithDialContext(dial),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithFilters(trawl.SameHost(append(web.Seeds(), metadata)...)),
		trawl.WithFollow(extract.Script),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithEvents(trawl.Events{OnDecision: func(_ context.Context, d trawl.Decision) {
			if d.URL == metadata {
				mu.Lock()
				refused = append(refused, d)
				mu.Unlock()
			}
		}}),
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, a := range dialed {
		if strings.HasPrefix(a, "169.254.") {
			t.Errorf("dialed %s", a)
		}
	}
	last := trawl.Decision{}
	if len(refused) > 0 {
		last = refused[len(refused)-1]
	}
	if last.Outcome != trawl.DecisionError || last.ErrorKind != "private" {
		t.Errorf("last decision about %s: %s, error kind %q (%s); want error, private", metadata, last.Outcome, last.ErrorKind, last.Error)
	}
}
