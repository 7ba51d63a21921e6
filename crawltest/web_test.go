package crawltest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/temoto/robotstxt"
)

var fixedNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func fixedClock() time.Time { return fixedNow }

func TestReachableMatchesCrawl(t *testing.T) {
	tests := []struct {
		name string
		ua   string
		opts Options
	}{
		{name: "default", ua: "polite/1.0", opts: Options{Hosts: 5, PagesPerHost: 30}},
		{name: "robots variety", ua: "polite/1.0", opts: Options{Seed: 3, Hosts: 8, PagesPerHost: 30, RobotsVariety: true}},
		{name: "content faults", ua: "polite/1.0", opts: Options{Seed: 7, Hosts: 3, PagesPerHost: 50,
			Faults: Faults{LegacyCharsets: true, InvalidUTF8: true, MalformedHTML: true}}},
		{name: "evilbot", ua: "EvilBot/2.0", opts: Options{Hosts: 3, PagesPerHost: 20}},
		{name: "loopback IPs", ua: "polite/1.0", opts: Options{Seed: 1, Hosts: 3, PagesPerHost: 25, LoopbackIPs: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := NewTestWeb(t, &tt.opts)
			got := politeCrawl(t, w, tt.ua)
			want := w.Depths(tt.ua)
			if len(got) != len(want) {
				t.Errorf("crawl reached %d pages, Depths(%q) has %d", len(got), tt.ua, len(want))
			}
			for u, d := range want {
				if got[u] != d {
					t.Errorf("depth of %s: crawl %d, Depths %d", u, got[u], d)
				}
			}
			for u := range got {
				if _, ok := want[u]; !ok {
					t.Errorf("crawl reached %s, not in Depths", u)
				}
			}
			r := w.Reachable(tt.ua)
			if len(r) != len(want) || !slices.IsSorted(r) {
				t.Errorf("Reachable has %d URLs (sorted %v), Depths %d", len(r), slices.IsSorted(r), len(want))
			}
			if tt.ua == "EvilBot/2.0" && len(r) != 0 {
				t.Errorf("Reachable(evilbot) = %d URLs, want 0", len(r))
			}
			if tt.ua != "EvilBot/2.0" && tt.name != "robots variety" && len(r) < len(w.Pages())/2 {
				t.Errorf("Reachable = %d of %d pages, want most", len(r), len(w.Pages()))
			}
		})
	}
}

// TestReachableIsSitemapSet checks the structural promise: a polite crawler
// reaches exactly the allowed pages that are not hidden.
func TestReachableIsSitemapSet(t *testing.T) {
	w := NewTestWeb(t, &Options{Seed: 11, Hosts: 10, PagesPerHost: 80, RobotsVariety: true})
	const ua = "polite/1.0"
	var want []string
	hidden := 0
	for _, u := range w.Pages() {
		info, _ := w.Page(u)
		if info.Hidden {
			hidden++
		}
		if !info.Hidden && !w.Disallowed(ua, u) {
			want = append(want, u)
		}
	}
	slices.Sort(want)
	if got := w.Reachable(ua); !slices.Equal(got, want) {
		t.Errorf("Reachable = %d URLs, want the %d allowed non-hidden pages", len(got), len(want))
	}
	if hidden == 0 {
		t.Errorf("no hidden pages among %d", len(w.Pages()))
	}
}

// TestLinksMatchGenerator parses every page with a real HTML tokenizer and
// checks that its followable links, normalized, are exactly the generator's,
// and that every page has 10–60 links.
func TestLinksMatchGenerator(t *testing.T) {
	forms := map[string]int{}
	kinds := map[string]int{}
	for seed := range int64(4) {
		f := Faults{MalformedHTML: true, LegacyCharsets: true, InvalidUTF8: true}
		w := NewTestWeb(t, &Options{Seed: seed, Hosts: 3, PagesPerHost: 80, Faults: f})
		for h := range w.hosts {
			for id := range w.opts.PagesPerHost {
				d := w.build(h, id, "", fixedNow, true)
				pageURL := w.pageURL(h, id)
				links, _ := parsePage(t, pageURL, w.render(d))
				var got, want []string
				for _, l := range links {
					if l.url != "" && !l.nofollow && w.isPageURL(l.url) {
						got = append(got, l.url)
					}
				}
				n := 0
				for _, ls := range d.links() {
					for _, l := range ls {
						n++
						if l.followable() {
							want = append(want, w.pageURL(l.host, l.id))
						}
						forms[hrefForm(l.href)]++
						kinds[[...]string{"a", "area", "iframe", "frame"}[l.tag]]++
					}
				}
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("page %s: parsed links\n%v\nwant\n%v", pageURL, got, want)
				}
				if !d.c.frameset && (n < 10 || n > 60) && len(w.children(h, id, nil)) < 50 {
					t.Errorf("page %s has %d links, want 10..60", pageURL, n)
				}
				if len(links) != n {
					t.Errorf("page %s: parsed %d links, generator %d", pageURL, len(links), n)
				}
				switch c := d.c; {
				case c.frameset && c.base != "":
					kinds["frameset with base"]++
				case c.base != "":
					kinds["base"]++
				case c.malformed:
					kinds["malformed"]++
				case c.charset != csUTF8:
					kinds["legacy charset"]++
				}
				if d.p.copyOf >= 0 {
					kinds["copy"]++
				}
				if d.p.nearOf >= 0 {
					kinds["near"]++
				}
			}
		}
	}
	// Frameset pages with a <base> are rare (about 1 in 800): find one.
	w := NewTestWeb(t, &Options{Seed: 1, Hosts: 5, PagesPerHost: 1000})
	for h := range w.hosts {
		for id := range w.opts.PagesPerHost {
			if p := w.page(h, id); p.frameset && p.base != "" {
				kinds["frameset with base"]++
				d := w.build(h, id, "", fixedNow, true)
				links, _ := parsePage(t, w.pageURL(h, id), w.render(d))
				for i, l := range links {
					if want := w.pageURL(d.frames[i].host, d.frames[i].id); l.url != want {
						t.Errorf("frame %d of %s resolves to %s, want %s", i, w.pageURL(h, id), l.url, want)
					}
				}
			}
		}
	}
	for _, form := range []string{"root", "relative", "dot-relative", "parent", "absolute", "upper-host", "port-80",
		"empty-query", "fragment", "percent", "dot-segment", "protocol-relative", "mailto", "javascript"} {
		if forms[form] == 0 {
			t.Errorf("no link of form %q (forms: %v)", form, forms)
		}
	}
	for _, k := range []string{"a", "area", "iframe", "frame", "frameset with base", "base", "malformed", "legacy charset", "copy", "near"} {
		if kinds[k] == 0 {
			t.Errorf("no page or link of kind %q checked (kinds: %v)", k, kinds)
		}
	}
}

func (w *Web) isPageURL(u string) bool { _, ok := w.Page(u); return ok }

func hrefForm(h string) string {
	switch {
	case strings.HasPrefix(h, "mailto:"):
		return "mailto"
	case strings.HasPrefix(h, "javascript:"):
		return "javascript"
	case strings.Contains(h, "#"):
		return "fragment"
	case strings.HasSuffix(h, "?"):
		return "empty-query"
	case strings.Contains(h, "%"):
		return "percent"
	case strings.Contains(h, "/./") || strings.Contains(h, "/../"):
		return "dot-segment"
	case strings.HasPrefix(h, "//"):
		return "protocol-relative"
	case strings.Contains(h, ":80/"):
		return "port-80"
	case strings.HasPrefix(h, "http://H"):
		return "upper-host"
	case strings.HasPrefix(h, "http"):
		return "absolute"
	case strings.HasPrefix(h, "/"):
		return "root"
	case strings.HasPrefix(h, "../"):
		return "parent"
	case strings.HasPrefix(h, "./"):
		return "dot-relative"
	}
	return "relative"
}

func TestDeterministic(t *testing.T) {
	opts := func(seed int64) *Options {
		return &Options{Seed: seed, Hosts: 3, PagesPerHost: 15, Now: fixedClock, Epoch: fixedNow.Add(-time.Hour),
			RobotsVariety: true, Faults: Faults{MalformedHTML: true, LegacyCharsets: true, InvalidUTF8: true}}
	}
	fetchAll := func(w *Web) map[string][]byte {
		out := make(map[string][]byte)
		urls := append(w.Pages(), w.Sitemaps()...)
		urls = append(urls, w.Feeds()...)
		for _, s := range w.Seeds() {
			urls = append(urls, s+"robots.txt")
		}
		for _, u := range urls {
			_, b := get(t, w.Client(), u)
			out[u] = b
		}
		return out
	}
	a := fetchAll(NewTestWeb(t, opts(42)))
	b := fetchAll(NewTestWeb(t, opts(42)))
	c := fetchAll(NewTestWeb(t, opts(43)))
	// With the real clock, bodies do not depend on when the web started
	// (while no page changes: a mean change interval of 10⁴ hours).
	real := func() *Options {
		return &Options{Seed: 42, Hosts: 3, PagesPerHost: 15, ChangeInterval: 10000 * time.Hour}
	}
	r1 := fetchAll(NewTestWeb(t, real()))
	r2 := fetchAll(NewTestWeb(t, real()))
	for u, body := range r1 {
		if !bytes.Equal(body, r2[u]) {
			t.Errorf("real clock: %s served differently by two webs", u)
		}
	}
	differ := 0
	for u, body := range a {
		if !bytes.Equal(body, b[u]) {
			t.Errorf("seed 42 served %s differently twice", u)
		}
		if !bytes.Equal(body, c[u]) {
			differ++
		}
	}
	if differ < len(a)/2 {
		t.Errorf("seeds 42 and 43 differ on only %d of %d URLs", differ, len(a))
	}
}

func TestDialContext(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 2, PagesPerHost: 5})
	ctx := context.Background()
	for _, addr := range []string{"h0.test:80", "H1.TEST:80", "h1.test:8080", "h0.test"} {
		c, err := w.DialContext(ctx, "tcp", addr)
		if err != nil {
			t.Errorf("DialContext(%q) = %v, want a connection", addr, err)
			continue
		}
		c.Close()
	}
	for _, addr := range []string{"example.com:80", "h2.test:80", "127.0.0.1:80", "localhost:80", "h0.test.evil.com:80"} {
		if _, err := w.DialContext(ctx, "tcp", addr); !errors.Is(err, ErrUnknownHost) {
			t.Errorf("DialContext(%q) = %v, want ErrUnknownHost", addr, err)
		}
	}
	// Off-web links never reach the network.
	if _, err := w.Client().Get("http://example.com/"); !errors.Is(err, ErrUnknownHost) {
		t.Errorf("Get(example.com) = %v, want ErrUnknownHost", err)
	}
	// Redundant forms reach the same page.
	_, want := get(t, w.Client(), w.Pages()[3])
	u := strings.Replace(w.Pages()[3], "h0.test", "H0.TEST:80", 1)
	if _, b := get(t, w.Client(), u); !bytes.Equal(b, want) {
		t.Errorf("GET %s differs from GET %s", u, w.Pages()[3])
	}
	log := w.Log()
	if got := log.FetchedTwice(); !slices.Equal(got, []string{w.Pages()[3]}) {
		t.Errorf("FetchedTwice() = %v, want [%s]", got, w.Pages()[3])
	}
	w.Close()
	if _, err := w.DialContext(ctx, "tcp", "h0.test:80"); !errors.Is(err, ErrClosed) {
		t.Errorf("DialContext after Close = %v, want ErrClosed", err)
	}
}

func TestLoopbackIPs(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 3, PagesPerHost: 5, LoopbackIPs: true})
	plain := &http.Client{Transport: &http.Transport{Proxy: nil}}
	defer plain.CloseIdleConnections()
	for i, s := range w.Seeds() {
		if !strings.HasPrefix(s, "http://127.0.1.") {
			t.Errorf("Seeds()[%d] = %q, want a 127.0.1.x address", i, s)
		}
		resp, b := get(t, plain, s)
		if resp.StatusCode != http.StatusOK || !bytes.Contains(b, []byte("Home of h")) {
			t.Errorf("plain GET %s = %d", s, resp.StatusCode)
		}
	}
	if got := w.Log().MaxInFlight()["h2.test"]; got != 1 {
		t.Errorf("MaxInFlight()[h2.test] = %d, want 1 (log keyed by host name)", got)
	}
}

func TestRobotsAgreesWithTemoto(t *testing.T) {
	w := NewTestWeb(t, &Options{Seed: 9, Hosts: 8, PagesPerHost: 50, RobotsVariety: true, CrawlDelay: 1500 * time.Millisecond})
	agents := []string{"polite/1.0", "evilbot/1.0", "BadBot", "Googlebot/2.1"}
	disallowed := 0
	for h := range w.hosts {
		resp, body := get(t, w.Client(), "http://"+w.hosts[h].name+"/robots.txt")
		if resp.StatusCode == http.StatusMovedPermanently {
			resp, body = get(t, w.Client(), "http://"+w.hosts[h].name+resp.Header.Get("Location"))
		}
		rd, err := robotstxt.FromStatusAndBytes(resp.StatusCode, body)
		if err != nil {
			t.Fatalf("robotstxt: %v", err)
		}
		if w.hosts[h].robots == robotsHuge && len(body) < 1<<20 {
			t.Errorf("host %d: huge robots.txt is %d bytes", h, len(body))
		}
		for _, ua := range agents {
			g := rd.FindGroup(ua)
			if w.hosts[h].robots != robots500 && g.CrawlDelay != w.CrawlDelay(w.hosts[h].name) {
				t.Errorf("host %d %s: Crawl-delay %v, CrawlDelay() %v", h, ua, g.CrawlDelay, w.CrawlDelay(w.hosts[h].name))
			}
			for id := range w.opts.PagesPerHost {
				u := w.pageURL(h, id)
				path := w.pagePath(h, id)
				want := !rd.TestAgent(path, ua)
				if got := w.Disallowed(ua, u); got != want {
					t.Errorf("Disallowed(%q, %q) = %v, temoto says %v", ua, u, got, want)
				}
				if want {
					disallowed++
				}
			}
			for _, p := range w.specialPaths(h) {
				if w.hosts[h].robots == robotsRules && !rd.TestAgent(p, "polite") {
					t.Errorf("fault path %s disallowed on host %d", p, h)
				}
			}
		}
	}
	if disallowed == 0 {
		t.Error("no page disallowed")
	}
	if got := len(w.Sitemaps()); got == 0 {
		t.Error("no Sitemap lines")
	}
}

func TestMatch(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{pattern: "/private/", path: "/private/x.html", want: true},
		{pattern: "/private/", path: "/privately", want: false},
		{pattern: "/*/draft-", path: "/news/draft-3.html", want: true},
		{pattern: "/*/draft-", path: "/draft-3.html", want: false},
		{pattern: "/*.php$", path: "/a/b.php", want: true},
		{pattern: "/*.php$", path: "/a/b.php?x=1", want: false},
		{pattern: "/*.php$", path: "/a.phpx", want: false},
		{pattern: "/a*b*c$", path: "/abcbc", want: true},
		{pattern: "/a*b*c$", path: "/abcb", want: false},
		{pattern: "/x$", path: "/x", want: true},
		{pattern: "/x$", path: "/xy", want: false},
		{pattern: "/search?", path: "/search?q=1", want: true},
		{pattern: "*", path: "/anything", want: true},
	}
	for _, tt := range tests {
		if got := match(tt.pattern, tt.path); got != tt.want {
			t.Errorf("match(%q, %q) = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
}

type xmlURLSet struct {
	URLs []struct {
		Loc string `xml:"loc"`
	} `xml:"url"`
}

type xmlIndex struct {
	Sitemaps []struct {
		Loc string `xml:"loc"`
	} `xml:"sitemap"`
}

func TestSitemapsAndFeeds(t *testing.T) {
	w := NewTestWeb(t, &Options{Seed: 2, Hosts: 6, PagesPerHost: 40})
	var listed []string
	var fetch func(u string)
	fetch = func(u string) {
		resp, b := get(t, w.Client(), u)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s = %d", u, resp.StatusCode)
		}
		if strings.HasSuffix(u, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("%s: %v", u, err)
			}
			if b, err = io.ReadAll(zr); err != nil {
				t.Fatalf("%s: %v", u, err)
			}
		}
		var idx xmlIndex
		if err := xml.Unmarshal(b, &idx); err == nil && len(idx.Sitemaps) > 0 {
			for _, s := range idx.Sitemaps {
				fetch(s.Loc)
			}
			return
		}
		var set xmlURLSet
		if err := xml.Unmarshal(b, &set); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		for _, x := range set.URLs {
			listed = append(listed, x.Loc)
		}
	}
	for _, s := range w.Sitemaps() {
		fetch(s)
	}
	var want []string
	for _, u := range w.Pages() {
		info, _ := w.Page(u)
		if h := w.hosts[w.byName[info.Host]]; !info.Hidden && h.sitemap != sitemapNone {
			want = append(want, u)
		}
	}
	slices.Sort(listed)
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		t.Errorf("sitemaps list %d URLs, want %d (every non-hidden page of hosts with sitemaps)", len(listed), len(want))
	}
	for _, f := range w.Feeds() {
		resp, b := get(t, w.Client(), f)
		var v struct {
			XMLName xml.Name
			Items   []struct {
				Link string `xml:"link"`
			} `xml:"channel>item"`
			Entries []struct {
				Link struct {
					Href string `xml:"href,attr"`
				} `xml:"link"`
			} `xml:"entry"`
		}
		if err := xml.Unmarshal(b, &v); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("feed %s: %d %v", f, resp.StatusCode, err)
		}
		links := len(v.Items) + len(v.Entries)
		if links != 10 {
			t.Errorf("feed %s has %d items, want 10", f, links)
		}
		for _, it := range v.Items {
			if !w.isPageURL(it.Link) {
				t.Errorf("feed %s item %s is not a page", f, it.Link)
			}
		}
		for _, e := range v.Entries {
			if !w.isPageURL(e.Link.Href) {
				t.Errorf("feed %s entry %s is not a page", f, e.Link.Href)
			}
		}
	}
	if len(w.Feeds()) != 6 {
		t.Errorf("Feeds() = %d URLs, want 6", len(w.Feeds()))
	}
}

func TestDuplicates(t *testing.T) {
	w := NewTestWeb(t, &Options{Seed: 4, Hosts: 4, PagesPerHost: 100, Now: fixedClock})
	exact, near := w.ExactDuplicates(), w.NearDuplicates()
	if len(exact) == 0 || len(near) == 0 {
		t.Fatalf("ExactDuplicates() = %d groups, NearDuplicates() = %d, want some of each", len(exact), len(near))
	}
	for _, g := range exact {
		_, first := get(t, w.Client(), g[0])
		for _, u := range g[1:] {
			if _, b := get(t, w.Client(), u); !bytes.Equal(b, first) {
				t.Errorf("exact duplicate %s differs from %s", u, g[0])
			}
		}
	}
	article := func(b []byte) string {
		s := string(b)
		i, j := strings.Index(s, "</p>\n")+5, strings.Index(s, "</article>")
		return s[i:j]
	}
	for _, g := range near {
		_, first := get(t, w.Client(), g[0])
		for _, u := range g[1:] {
			_, b := get(t, w.Client(), u)
			if bytes.Equal(b, first) {
				t.Errorf("near duplicate %s is identical to %s", u, g[0])
			}
			// The article text is shared; only inline link hrefs may be
			// written in other forms. Compare the text without tags.
			if stripTags(article(b)) != stripTags(article(first)) {
				t.Errorf("near duplicate %s does not share the article of %s", u, g[0])
			}
		}
	}
}

func stripTags(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestTopics(t *testing.T) {
	w := NewTestWeb(t, &Options{Seed: 8, Hosts: 10, PagesPerHost: 60, Topics: 4})
	same, total := 0, 0
	counts := make([]int, 4)
	for h := range w.hosts {
		for id := range w.opts.PagesPerHost {
			p := w.page(h, id)
			got := w.Topic(w.pageURL(h, id))
			if got < 0 || got >= 4 {
				t.Fatalf("Topic(%s) = %d", w.pageURL(h, id), got)
			}
			counts[got]++
			d := w.build(h, id, "", fixedNow, true)
			for _, l := range d.article {
				if l.dst == dstPage {
					total++
					if w.Topic(w.pageURL(l.host, l.id)) == w.content(p).topic {
						same++
					}
				}
			}
		}
	}
	if frac := float64(same) / float64(total); frac < 0.6 {
		t.Errorf("%.2f of article links stay on topic, want most", frac)
	}
	for i, c := range counts {
		if c == 0 {
			t.Errorf("no page has topic %d", i)
		}
	}
	if got := w.Topic("http://example.com/"); got != -1 {
		t.Errorf("Topic(off-web) = %d, want -1", got)
	}
}

func TestChangesAndConditionalGet(t *testing.T) {
	now := fixedNow
	clock := func() time.Time { return now }
	w := NewTestWeb(t, &Options{Seed: 6, Hosts: 2, PagesPerHost: 80, Now: clock, Epoch: fixedNow, ChangeInterval: time.Hour})
	var changing, static string
	for _, u := range w.Pages() {
		info, _ := w.Page(u)
		if info.ChangeRate > 0 && changing == "" && info.DuplicateOf == "" {
			changing = u
		}
		if info.ChangeRate == 0 && static == "" && info.DuplicateOf == "" && info.NearDuplicateOf == "" {
			static = u
		}
	}
	if changing == "" || static == "" {
		t.Fatal("need a changing and a static page")
	}
	resp, body := get(t, w.Client(), changing)
	etag, lm := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	if etag == "" || lm == "" {
		t.Fatalf("no validators: ETag %q Last-Modified %q", etag, lm)
	}
	if r, _ := get(t, w.Client(), changing, "If-None-Match", etag); r.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match %s = %d, want 304", etag, r.StatusCode)
	}
	if r, _ := get(t, w.Client(), changing, "If-Modified-Since", lm); r.StatusCode != http.StatusNotModified {
		t.Errorf("If-Modified-Since %s = %d, want 304", lm, r.StatusCode)
	}
	// Far in the future the page has changed: new bytes, new validators.
	now = fixedNow.Add(100 * time.Hour)
	v, newLM, _ := w.Version(changing, now)
	if v == 0 {
		t.Fatalf("Version(%s) after 100 mean intervals = 0", changing)
	}
	r2, body2 := get(t, w.Client(), changing, "If-None-Match", etag)
	if r2.StatusCode != http.StatusOK || bytes.Equal(body, body2) || r2.Header.Get("ETag") == etag {
		t.Errorf("changed page: status %d, same body %v, same ETag %v", r2.StatusCode, bytes.Equal(body, body2), r2.Header.Get("ETag") == etag)
	}
	if got := r2.Header.Get("Last-Modified"); got != newLM.UTC().Format(http.TimeFormat) {
		t.Errorf("Last-Modified = %s, Version says %s", got, newLM)
	}
	if r, _ := get(t, w.Client(), changing, "If-Modified-Since", lm); r.StatusCode != http.StatusOK {
		t.Errorf("If-Modified-Since old date = %d, want 200", r.StatusCode)
	}
	rs, _ := get(t, w.Client(), static, "If-Modified-Since", now.UTC().Format(http.TimeFormat))
	if rs.StatusCode != http.StatusNotModified {
		t.Errorf("static page If-Modified-Since now = %d, want 304", rs.StatusCode)
	}
	// The number of changes in a long window follows the rate.
	info, _ := w.Page(changing)
	long := fixedNow.Add(time.Duration(2000/info.ChangeRate) * time.Second)
	if v, _, _ := w.Version(changing, long); v < 1800 || v > 2200 {
		t.Errorf("Version after 2000/λ = %d, want about 2000", v)
	}
}

func TestMetaAndHeaderRobots(t *testing.T) {
	w := NewTestWeb(t, &Options{Seed: 1, Hosts: 4, PagesPerHost: 100})
	var meta, header, noindex int
	for _, u := range w.Pages() {
		info, _ := w.Page(u)
		if !info.NoFollow && !info.NoIndex {
			continue
		}
		resp, b := get(t, w.Client(), u)
		xr := resp.Header.Get("X-Robots-Tag")
		hasMeta := bytes.Contains(b, []byte(`<meta name="robots"`))
		if !hasMeta && xr == "" {
			t.Errorf("%s: PageInfo says noindex/nofollow, page says nothing", u)
		}
		if hasMeta {
			meta++
		}
		if xr != "" {
			header++
		}
		if info.NoIndex {
			noindex++
		}
	}
	if meta == 0 || header == 0 || noindex == 0 {
		t.Errorf("meta robots pages %d, X-Robots-Tag pages %d, noindex %d: want some of each", meta, header, noindex)
	}
}

func TestNewWebOptions(t *testing.T) {
	bad := []Options{
		{Hosts: -1}, {PagesPerHost: -3}, {Topics: -1}, {Hosts: maxHosts + 1},
		{CrawlDelay: -time.Second}, {Faults: Faults{RedirectChain: -1}},
	}
	for _, o := range bad {
		if w, err := NewWeb(&o); err == nil {
			w.Close()
			t.Errorf("NewWeb(%+v) succeeded, want an error", o)
		} else if !strings.HasPrefix(err.Error(), "crawltest: ") {
			t.Errorf("NewWeb(%+v) error %q lacks the package prefix", o, err)
		}
	}
	w := NewTestWeb(t, nil)
	if len(w.Hosts()) != 20 || len(w.Pages()) != 20*50 || w.Hosts()[19] != "h19.test" {
		t.Errorf("defaults: %d hosts, %d pages", len(w.Hosts()), len(w.Pages()))
	}
	w = NewTestWeb(t, &Options{Hosts: 1, PagesPerHost: 30, Topics: 12})
	for _, u := range w.Pages() {
		if tp := w.Topic(u); tp < 0 || tp >= 12 {
			t.Errorf("Topic(%s) = %d with 12 topics", u, tp)
		}
	}
}

func TestUnknownHostAndMethods(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 1, PagesPerHost: 5, Faults: Faults{EndlessBody: true, HugeBody: true}})
	req, _ := http.NewRequest(http.MethodGet, "http://h0.test/", nil)
	req.Host = "other.test"
	resp, err := w.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("Host other.test = %d, want 421", resp.StatusCode)
	}
	if r := w.Log().Requests(); len(r) != 1 || r[0].Host != "other.test" || r[0].Status != 421 {
		t.Errorf("log = %+v, want one request for other.test with 421", r)
	}
	for _, p := range []string{"/", "/fault/endless", "/fault/huge"} {
		resp, err := w.Client().Head("http://h0.test" + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("HEAD %s = %d", p, resp.StatusCode)
		}
	}
	resp, err = w.Client().Post("http://h0.test/", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST = %d, want 405", resp.StatusCode)
	}
}

// TestLatency: with Options.Latency every answer waits, so requests sent
// together overlap in the log, each taking at least the latency.
func TestLatency(t *testing.T) {
	const latency = 50 * time.Millisecond
	web := NewTestWeb(t, &Options{Seed: 1, Hosts: 1, PagesPerHost: 3, Latency: latency})
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			resp, err := web.Client().Get(web.Seeds()[0])
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
		})
	}
	wg.Wait()
	// A client can read a whole answer before the handler returns and logs
	// its End: wait for the handlers, as Close does.
	web.mu.Lock()
	for web.handlers > 0 {
		web.idle.Wait()
	}
	web.mu.Unlock()
	log := web.Log()
	if n := log.MaxInFlight()["h0.test"]; n != 3 {
		t.Errorf("MaxInFlight = %d, want the 3 requests sent together", n)
	}
	for _, r := range log.Requests() {
		if d := r.End.Sub(r.Start); d < latency {
			t.Errorf("%s answered after %v, want at least %v", r.URL, d, latency)
		}
	}
}
