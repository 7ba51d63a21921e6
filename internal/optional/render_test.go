package optional_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/render"
	"github.com/trawl-dev/trawl/store"
)

// A crawl hands its robots.txt check to render's fetcher.
var _ trawl.RobotsUser = (*render.Fetcher)(nil)

// TestCrawlRendered crawls crawltest's scripts construct with the browser
// fetcher: the link only running the script writes (js-only) is found
// and fetched; the POSTs the scripts send (js-post) never reach the
// server, by any method; the script's fetch of the metadata address is
// refused by the guard and never dialled, though the crawl allows
// loopback (through an allow list) and other hosts' sub-requests; the
// browser is gone when Run returns.
func TestCrawlRendered(t *testing.T) {
	if _, err := render.FindChromium(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%v; CI is set, so this fails rather than skips", err)
		}
		t.Skip(err)
	}
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 9, Hosts: 1, PagesPerHost: 5, LinkConstructs: true})
	page := "http://" + web.Hosts()[0] + "/constructs/pages/scripts.html"
	var jsOnly, jsPost []string
	for _, r := range web.References(page) {
		switch r.Kind {
		case "js-only":
			jsOnly = append(jsOnly, r.URL)
		case "js-post":
			jsPost = append(jsPost, r.URL)
		}
	}
	if len(jsOnly) == 0 || len(jsPost) == 0 {
		t.Fatalf("crawltest's scripts construct has %d js-only and %d js-post URLs; the test needs both", len(jsOnly), len(jsPost))
	}
	mem := &store.Memory{}
	var (
		mu     sync.Mutex
		dialed []string
		r      *render.Fetcher
		// metadata holds the verdicts on the script's fetch of the
		// metadata address: refused by the guard, or by robots.txt,
		// whose fetch the guard refused.
		metadata []render.Verdict
	)
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		mu.Lock()
		dialed = append(dialed, addr)
		mu.Unlock()
		return web.DialContext(ctx, network, addr)
	}
	wrap := func(f fetch.Fetcher) fetch.Fetcher {
		var err error
		r, err = render.New(f, &render.Options{OtherHosts: true,
			OnRequest: func(_ *url.URL, req render.Request) {
				if strings.Contains(req.URL, "169.254.169.254") {
					mu.Lock()
					metadata = append(metadata, req.Verdict)
					mu.Unlock()
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	c, err := trawl.New(
		trawl.WithSeeds(page),
		trawl.WithUserAgent(testUA),
		trawl.WithDialContext(dial),
		trawl.WithAllowNetworks(netip.MustParsePrefix("127.0.0.0/8")),
		trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
		trawl.WithLimits(trawl.Limits{MaxDepth: 2}),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithFetchWrapper(wrap),
		trawl.WithStore(mem),
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Content a script writes is the page's text, which a static fetch
	// never has (crawltest's bytes hold it encoded).
	var scriptsText string
	for _, p := range mem.Pages() {
		if p.URL.String() == page {
			scriptsText = p.Text
		}
	}
	if !strings.Contains(scriptsText, crawltest.ScriptBuiltText) {
		t.Errorf("the stored scripts page's text %.200q lacks the paragraph its script writes, %q", scriptsText, crawltest.ScriptBuiltText)
	}
	hc := &http.Client{Transport: &http.Transport{DialContext: web.DialContext}}
	resp, err := hc.Get(page)
	if err != nil {
		t.Fatal(err)
	}
	static, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	hc.CloseIdleConnections()
	if len(static) == 0 || strings.Contains(string(static), crawltest.ScriptBuiltText) {
		t.Errorf("crawltest serves %d bytes, the script-built text among them: the check above proves nothing", len(static))
	}
	fetched := map[string]bool{}
	for _, req := range web.Log().Requests() {
		fetched[req.URL] = true
		for _, p := range jsPost {
			if req.URL == p {
				t.Errorf("%s %s reached the server: a script's POST target", req.Method, p)
			}
		}
	}
	for _, u := range jsOnly {
		if !fetched[u] {
			t.Errorf("js-only %s not fetched: the rendered DOM did not reach extraction", u)
		}
	}
	mu.Lock()
	for _, a := range dialed {
		if strings.HasPrefix(a, "169.254.") {
			t.Errorf("dialed %s", a)
		}
	}
	if len(metadata) == 0 {
		t.Errorf("the script's fetch of the metadata address was not reported")
	}
	for _, v := range metadata {
		if v != render.BlockedPrivate && v != render.BlockedRobots {
			t.Errorf("the script's fetch of the metadata address: %s, want blocked", v)
		}
	}
	mu.Unlock()
	st := r.Stats()
	if st.Rendered == 0 || st.Requests[render.BlockedMethod] == 0 {
		t.Errorf("render stats %+v: want pages rendered and POSTs blocked", st)
	}
	// Run closed the fetcher: a fetch now fails rather than start a browser.
	u, _ := url.Parse(page)
	if _, err := r.Fetch(context.Background(), &fetch.Request{URL: u}); err == nil {
		t.Errorf("Fetch after Run succeeded: the fetcher was not closed")
	}
	t.Logf("render stats: %+v", st)
}
