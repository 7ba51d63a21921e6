package trawl_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/trawl-dev/trawl"
)

// TestGuessedSitemapMissingIsNoError: a clean site whose robots.txt names
// no sitemap answers the guessed /sitemap.xml with 404 (or 410): the crawl
// counts the answer but no error. A sitemap robots.txt names that is
// missing stays an error.
func TestGuessedSitemapMissingIsNoError(t *testing.T) {
	for _, tc := range []struct {
		name       string
		robots     string
		status     int
		wantErrors int64
	}{
		{name: "no robots.txt, 404", robots: "", status: http.StatusNotFound, wantErrors: 0},
		{name: "robots.txt without Sitemap, 410", robots: "User-agent: *\nAllow: /\n", status: http.StatusGone, wantErrors: 0},
		{name: "robots.txt names it, 404", robots: "User-agent: *\nAllow: /\nSitemap: BASE/sitemap.xml\n", status: http.StatusNotFound, wantErrors: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			hits := map[string]int{}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				hits[r.URL.Path]++
				mu.Unlock()
				switch r.URL.Path {
				case "/robots.txt":
					if tc.robots == "" {
						http.NotFound(w, r)
						return
					}
					fmt.Fprint(w, strings.ReplaceAll(tc.robots, "BASE", "http://"+r.Host))
				case "/sitemap.xml":
					http.Error(w, "no sitemap", tc.status)
				case "/":
					fmt.Fprint(w, `<html><title>home</title><a href="/a">a</a></html>`)
				case "/a":
					fmt.Fprint(w, `<html><title>a</title><p>a page</p></html>`)
				default:
					http.NotFound(w, r)
				}
			}))
			defer srv.Close()
			c, err := trawl.New(trawl.WithSeeds(srv.URL+"/"), trawl.WithAllowPrivateNetworks(true),
				trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}), trawl.WithUserAgent(testUA))
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			st := c.Stats()
			mu.Lock()
			defer mu.Unlock()
			if hits["/sitemap.xml"] != 1 {
				t.Errorf("/sitemap.xml requested %d times, want 1", hits["/sitemap.xml"])
			}
			if got := st.Errors.Total(); got != tc.wantErrors {
				t.Errorf("errors %d (%v), want %d", got, st.Errors.Kinds, tc.wantErrors)
			}
			if st.Fetch.Codes[tc.status] != 1 || st.Fetch.Codes[200] != 2 {
				t.Errorf("codes %v; want one %d and two 200s", st.Fetch.Codes, tc.status)
			}
		})
	}
}

// TestSeedWithoutScheme: "example.com" as a seed is refused with a
// message that suggests the URL meant.
func TestSeedWithoutScheme(t *testing.T) {
	for _, seed := range []string{"example.com", "example.com/docs/", " localhost:8080"} {
		_, err := trawl.New(trawl.WithSeeds(seed))
		want := fmt.Sprintf("did you mean %q", "https://"+strings.TrimSpace(seed))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("New(WithSeeds(%q)) = %v, want an error saying %s", seed, err, want)
		}
	}
	if _, err := trawl.New(trawl.WithSeeds("https://example.com/")); err != nil {
		t.Errorf("a URL with a scheme: %v", err)
	}
	if _, err := trawl.New(trawl.WithSeeds("mailto:a@b")); err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("New(WithSeeds(mailto:a@b)) = %v, want an error without a suggestion", err)
	}
}

// TestElementBadSelectorFailsLoudly: a bad selector given to an Element
// method ("a[") matches nothing, but the crawl says so: every call is an
// error with the page's URL (Events.OnError, Stats.Errors.Kinds), and Run
// returns the first after finishing the crawl.
func TestElementBadSelectorFailsLoudly(t *testing.T) {
	s := newSite(t, map[string]string{"a.test/": `<div><a href="/b">b</a></div>`, "a.test/b": `<div><p>b</p></div>`})
	var mu sync.Mutex
	var onError []string
	var texts []string
	var second atomic.Int64
	c, err := trawl.New(append(s.opts("http://a.test/"),
		trawl.WithHTML("div", func(_ context.Context, e *trawl.Element) {
			a, p := e.ChildText("a["), e.ChildAttr("p[", "x") // OnError, which locks mu, is called here
			mu.Lock()
			texts = append(texts, a, p)
			mu.Unlock()
		}),
		trawl.WithEvents(trawl.Events{OnError: func(_ context.Context, rawURL string, err error) {
			mu.Lock()
			onError = append(onError, rawURL+" "+err.Error())
			mu.Unlock()
		}}),
		// A second WithEvents adds its hooks to the first's.
		trawl.WithEvents(trawl.Events{OnError: func(context.Context, string, error) { second.Add(1) }}),
	)...)
	if err != nil {
		t.Fatal(err)
	}
	err = c.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), `Element.ChildText("a["): bad selector`) {
		t.Errorf("Run = %v, want the first bad selector", err)
	}
	st := c.Stats()
	if st.Fetch.Pages != 2 {
		t.Errorf("%d pages fetched, want 2: the crawl goes on", st.Fetch.Pages)
	}
	if n := st.Errors.Kinds["selector"]; n != 4 {
		t.Errorf("Errors.Kinds[selector] = %d, want 4 (two calls on each of two pages)", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(onError) != 4 || !strings.HasPrefix(onError[0], "http://a.test/") || !strings.Contains(strings.Join(onError, "\n"), `Element.ChildAttr("p[")`) {
		t.Errorf("OnError calls %q, want 4 naming the page and the method", onError)
	}
	if second.Load() != 4 {
		t.Errorf("the second WithEvents's OnError was called %d times, want 4: hooks add up", second.Load())
	}
	for _, text := range texts {
		if text != "" {
			t.Errorf("a bad selector matched %q", text)
		}
	}
}
