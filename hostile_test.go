package trawl_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/frontier"
)

// A sitemap speaks only for its own directory, or for the host whose
// robots.txt names it (sitemaps.org): a hostile host cannot have the
// crawler fetch another host's pages with its claims (priority,
// changefreq), nor read another host's file as a sitemap.
func TestSitemapScope(t *testing.T) {
	xml := func(body string) func(http.ResponseWriter, *http.Request) {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/xml")
			_, _ = w.Write([]byte(`<?xml version="1.0"?>` + body))
		}
	}
	s := newSite(t, map[string]string{
		"a.test/":          `<p>home</p><link rel="sitemap" href="/sub/sitemap.xml">`,
		"a.test/sub/page":  `<p>listed under the sitemap's directory</p>`,
		"a.test/other":     `<p>outside the directory of /sub/sitemap.xml</p>`,
		"a.test/by-c":      `<p>listed by c.test's sitemap, which a.test's robots.txt names</p>`,
		"b.test/x":         `<p>b's page, listed by a's sitemap</p>`,
		"b.test/notes.txt": `http://b.test/secret`,
		"b.test/secret":    `<p>only a text file names this</p>`,
	})
	s.pages["a.test/robots.txt"] = func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("User-agent: *\nAllow: /\nSitemap: http://a.test/cross.xml\nSitemap: http://a.test/index.xml\nSitemap: http://c.test/for-a.xml\n"))
	}
	s.pages["a.test/cross.xml"] = xml(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
		<url><loc>http://b.test/x</loc><priority>1.0</priority><changefreq>always</changefreq></url></urlset>`)
	s.pages["a.test/index.xml"] = xml(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
		<sitemap><loc>http://b.test/notes.txt</loc></sitemap></sitemapindex>`)
	s.pages["c.test/for-a.xml"] = xml(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
		<url><loc>http://a.test/by-c</loc><changefreq>daily</changefreq></url></urlset>`)
	s.pages["a.test/sub/sitemap.xml"] = xml(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
		<url><loc>http://a.test/sub/page</loc></url><url><loc>http://a.test/other</loc></url></urlset>`)

	var mu sync.Mutex
	sitemapInfo := map[string]*trawl.SitemapInfo{}
	c := run(t, append(s.opts("http://a.test/"), trawl.WithFollow(extract.Navigation, extract.Sitemap),
		trawl.WithEvents(trawl.Events{OnPage: func(_ context.Context, p *trawl.Page) {
			mu.Lock()
			sitemapInfo[p.URL.String()] = p.Sitemap
			mu.Unlock()
		}}))...)
	for _, hp := range []string{"b.test/x", "b.test/notes.txt", "b.test/secret", "a.test/other"} {
		if n := len(s.requests(hp)); n != 0 {
			t.Errorf("%s fetched %d times: a sitemap listed it outside its scope", hp, n)
		}
	}
	for _, hp := range []string{"a.test/sub/page", "a.test/by-c"} {
		if n := len(s.requests(hp)); n != 1 {
			t.Errorf("%s fetched %d times, want 1: its sitemap may list it", hp, n)
		}
	}
	if in := sitemapInfo["http://a.test/by-c"]; in == nil || in.ChangeFreq != "daily" {
		t.Errorf("a.test/by-c: Page.Sitemap = %+v, want c.test's changefreq daily", in)
	}
	if n := c.Stats().Errors.Kinds["sitemap-scope"]; n != 3 {
		t.Errorf("sitemap-scope errors = %d, want 3 (cross.xml, index.xml, sub/sitemap.xml)", n)
	}
}

// A server whose every page sets 300 cookies of 1 KB cannot make the
// crawler send it more than the cookie limits allow.
func TestCookieFlood(t *testing.T) {
	s := newSite(t, nil)
	value := strings.Repeat("z", 1000)
	for i := range 10 {
		s.pages[fmt.Sprintf("a.test/%d", i)] = func(w http.ResponseWriter, _ *http.Request) {
			for k := range 300 {
				http.SetCookie(w, &http.Cookie{Name: fmt.Sprintf("p%d_%d", i, k), Value: value, Path: "/"})
			}
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<p>page %d</p><a href="/%d">next</a>`, i, i+1)
		}
	}
	run(t, append(s.opts("http://a.test/0"), trawl.WithCookies(true))...)
	for i := 1; i < 10; i++ {
		reqs := s.requests(fmt.Sprintf("a.test/%d", i))
		if len(reqs) != 1 {
			t.Fatalf("a.test/%d fetched %d times", i, len(reqs))
		}
		h := reqs[0].Header.Get("Cookie")
		if len(h) > 8<<10 || len(reqs[0].Cookies()) > 50 || len(h) == 0 {
			t.Errorf("a.test/%d: Cookie header of %d bytes with %d cookies, want at most 8 KiB and 50, and some", i, len(h), len(reqs[0].Cookies()))
		}
	}
}

// A crawl has a host budget by default (a random-name link tree on one
// host ends there); a negative budget removes it.
func TestDefaultHostBudget(t *testing.T) {
	for _, tt := range []struct {
		budget, want int
	}{{0, trawl.DefaultHostBudget}, {-1, 0}, {7, 7}} {
		var got int
		_, err := trawl.New(trawl.WithSeeds("http://a.test/"), trawl.WithLimits(trawl.Limits{HostBudget: tt.budget}),
			trawl.WithFrontier(func(o frontier.MemoryOptions) (frontier.Frontier, error) {
				got = o.MaxPerHost
				return frontier.NewMemory(&o), nil
			}))
		if err != nil || got != tt.want {
			t.Errorf("HostBudget %d: frontier's MaxPerHost = %d (err %v), want %d", tt.budget, got, err, tt.want)
		}
	}
}

// A redirect to a URL of 500 KB reaches the decision log clipped: what a
// server sends cannot make one decision as large as it likes.
func TestDecisionsBounded(t *testing.T) {
	s := newSite(t, map[string]string{})
	s.pages["a.test/"] = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/"+strings.Repeat("x", 500<<10), http.StatusFound)
	}
	var longest int
	c, err := trawl.New(append(s.opts("http://a.test/"), trawl.WithEvents(trawl.Events{OnDecision: func(_ context.Context, d trawl.Decision) {
		longest = max(longest, len(d.URL), len(d.Error), len(d.Referrer))
	}}))...)
	if err != nil {
		t.Fatal(err)
	}
	err = c.Run(t.Context()) // the only seed fails: an error, as short
	if err == nil || len(err.Error()) > 2048 {
		t.Errorf("Run = an error of %d bytes, want one of at most 2 KiB", len(fmt.Sprint(err)))
	}
	if longest == 0 || longest > 8200 {
		t.Errorf("longest decision string %d bytes, want at most about 8 KiB", longest)
	}
}

// slowHost serves slow<i>.test, whose robots.txt asks for a day between
// requests, and writes two links to it (its home page and a page that
// waits for the day) to links.
func (s *site) slowHost(links *strings.Builder, i int) {
	fmt.Fprintf(links, `<a href="http://slow%d.test/">s</a><a href="http://slow%d.test/more">m</a>`, i, i)
	host := fmt.Sprintf("slow%d.test", i)
	s.pages[host+"/robots.txt"] = func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "User-agent: *\nCrawl-delay: 86400\n")
	}
	s.pages[host+"/"] = func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "<p>slow</p>") }
}

// Hosts whose robots.txt asks for a day between requests do not stop the
// crawl of the others: a seed links to 70 of them, then to 20 ordinary
// hosts, whose pages are all fetched (before the fix, none in 60 s).
func TestOneDayCrawlDelayStallsNothing(t *testing.T) {
	var links strings.Builder
	s := newSite(t, nil)
	for i := range 70 {
		s.slowHost(&links, i)
	}
	for i := range 20 {
		fmt.Fprintf(&links, `<a href="http://ok%d.test/">o</a>`, i)
		s.pages[fmt.Sprintf("ok%d.test/", i)] = func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, "<p>ordinary %d</p>", i)
		}
	}
	s.pages["seed.test/"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, links.String())
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second) // a day, before the fix
	defer cancel()
	var ordinary atomic.Int64
	c, err := trawl.New(append(s.opts("http://seed.test/"), trawl.WithWorkers(4),
		trawl.WithPoliteness(trawl.Politeness{MaxCrawlDelay: -1}), // honour the day: the frontier's slots are the point
		trawl.WithEvents(trawl.Events{OnPage: func(_ context.Context, p *trawl.Page) {
			if strings.HasPrefix(p.URL.Host, "ok") && ordinary.Add(1) == 20 {
				cancel() // the slow hosts' second pages are a day away: done
			}
		}}))...)
	if err != nil {
		t.Fatal(err)
	}
	_ = c.Run(ctx)
	if n := ordinary.Load(); n != 20 {
		t.Errorf("%d of the 20 ordinary hosts fetched behind 70 hosts that rest a day", n)
	}
}

// A seed whose own host's robots.txt asks for a day between requests waits
// at most Politeness.MaxCrawlDelay after that robots.txt, not a day.
func TestSeedCrawlDelayCapped(t *testing.T) {
	s := newSite(t, map[string]string{"a.test/": `<p>home</p>`})
	s.pages["a.test/robots.txt"] = func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "User-agent: *\nCrawl-delay: 86400\n")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second) // a day, before the cap
	defer cancel()
	c, err := trawl.New(append(s.opts("http://a.test/"), trawl.WithPoliteness(trawl.Politeness{MaxCrawlDelay: 300 * time.Millisecond}))...)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := c.Run(ctx); err != nil {
		t.Fatalf("Run = %v: the seed waited for its host's one-day Crawl-delay", err)
	}
	if n := len(s.requests("a.test/")); n != 1 {
		t.Errorf("seed fetched %d times, want 1", n)
	}
	t.Logf("crawl took %v with the Crawl-delay capped at 300 ms", time.Since(start))
}

// WithAllowPrivateNetworks(true) still refuses a redirect to the cloud
// metadata address; WithAllowNetworks naming it lets it through.
func TestMetadataRedirectRefused(t *testing.T) {
	for _, named := range []bool{false, true} {
		s := newSite(t, nil)
		s.pages["a.test/"] = func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		}
		opts := append(s.opts("http://a.test/"), trawl.WithPoliteness(trawl.Politeness{IgnoreRobots: true}))
		if named {
			opts = append(opts, trawl.WithAllowNetworks(netip.MustParsePrefix("169.254.169.254/32")))
		}
		c, err := trawl.New(opts...)
		if err != nil {
			t.Fatal(err)
		}
		_ = c.Run(t.Context())
		reached := len(s.requests("169.254.169.254/latest/meta-data/")) > 0
		if reached != named || (c.Stats().Errors.Kinds["private"] == 0) == !named {
			t.Errorf("metadata prefix named %v: reached %v, errors %v", named, reached, c.Stats().Errors.Kinds)
		}
	}
}

// WithAllowHosts lets the crawler reach the hosts it names on loopback
// (here "localhost", resolved by the system, with the default dialer), and
// nothing else there: a link from the allowed host to the same server by
// its address, and a redirect to another name for it, are refused.
func TestAllowHostsOnly(t *testing.T) {
	var mu sync.Mutex
	hits := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.Host+r.URL.Path]++
		mu.Unlock()
		_, port, _ := net.SplitHostPort(r.Host)
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<a href="/page">p</a><a href="http://127.0.0.1:%s/by-address">a</a><a href="/away">r</a>`, port)
		case "/away":
			http.Redirect(w, r, "http://127.0.0.2:"+port+"/elsewhere", http.StatusFound)
		default:
			w.Header().Set("Content-Type", "text/html")
			_, _ = io.WriteString(w, "<p>page</p>")
		}
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	c, err := trawl.New(
		trawl.WithSeeds("http://localhost:"+port+"/"),
		trawl.WithUserAgent(testUA),
		trawl.WithAllowHosts("localhost"),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithFollow(extract.Navigation, extract.Redirect),
	)
	if err != nil {
		t.Fatal(err)
	}
	_ = c.Run(t.Context())
	mu.Lock()
	defer mu.Unlock()
	if hits["localhost:"+port+"/page"] != 1 {
		t.Errorf("the allowed host's page fetched %d times, want 1 (requests %v)", hits["localhost:"+port+"/page"], hits)
	}
	for _, h := range []string{"127.0.0.1:" + port + "/by-address", "127.0.0.2:" + port + "/elsewhere"} {
		if hits[h] != 0 {
			t.Errorf("%s reached: only localhost is allowed", h)
		}
	}
	if n := c.Stats().Errors.Kinds["private"]; n != 2 {
		t.Errorf("%d private-address errors, want 2 (the link by address, the redirect); errors %v", n, c.Stats().Errors.Kinds)
	}
}

// A seed on the metadata address with WithAllowPrivateNetworks(true): Run
// says that option still refuses it and names the one that allows it,
// instead of suggesting the option already given.
func TestMetadataSeedError(t *testing.T) {
	c, err := trawl.New(trawl.WithSeeds("http://169.254.169.254/latest/"), trawl.WithUserAgent(testUA),
		trawl.WithAllowPrivateNetworks(true), trawl.WithPoliteness(trawl.Politeness{IgnoreRobots: true}))
	if err != nil {
		t.Fatal(err)
	}
	err = c.Run(t.Context())
	if err == nil || !errors.Is(err, fetch.ErrPrivateAddress) || !strings.Contains(err.Error(), "WithAllowNetworks(prefix)") ||
		strings.Contains(err.Error(), "or WithAllowPrivateNetworks(true)") {
		t.Errorf("Run = %v; want ErrPrivateAddress naming WithAllowNetworks, not suggesting WithAllowPrivateNetworks(true)", err)
	}
}
