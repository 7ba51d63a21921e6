package trawl_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
	"github.com/trawl-dev/trawl/store"
)

// site serves fixed pages for virtual hosts (a.test, b.test, ...) from one
// loopback server, and records every request it gets.
type site struct {
	srv   *httptest.Server
	pages map[string]func(w http.ResponseWriter, r *http.Request) // "host/path" -> handler

	mu   sync.Mutex
	reqs []*http.Request
}

func newSite(t *testing.T, pages map[string]string) *site {
	t.Helper()
	s := &site{pages: map[string]func(http.ResponseWriter, *http.Request){}}
	for k, body := range pages {
		s.pages[k] = func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = io.WriteString(w, body)
		}
	}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.reqs = append(s.reqs, r)
		s.mu.Unlock()
		if h, ok := s.pages[r.Host+r.URL.RequestURI()]; ok {
			h(w, r)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// dial connects every host to the server.
func (s *site) dial(ctx context.Context, network, _ string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, network, s.srv.Listener.Addr().String())
}

// requests returns the requests for host+path, robots.txt left out.
func (s *site) requests(hostPath string) []*http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*http.Request
	for _, r := range s.reqs {
		if hostPath == "" && r.URL.Path != "/robots.txt" || r.Host+r.URL.RequestURI() == hostPath {
			out = append(out, r)
		}
	}
	return out
}

func (s *site) opts(seeds ...string) []trawl.Option {
	return []trawl.Option{
		trawl.WithSeeds(seeds...),
		trawl.WithUserAgent(testUA),
		trawl.WithDialContext(s.dial),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithWorkers(4),
		trawl.WithFollow(extract.Navigation, extract.Redirect), // no sitemap.xml requests
	}
}

func run(t *testing.T, opts ...trawl.Option) *trawl.Crawler {
	t.Helper()
	var c *trawl.Crawler
	runSet(t, &c, opts...)
	return c
}

// runSet sets *c before Run, for callbacks that use the crawler.
func runSet(t *testing.T, c **trawl.Crawler, opts ...trawl.Option) {
	t.Helper()
	var err error
	*c, err = trawl.New(opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if err := (*c).Run(context.Background()); err != nil {
		t.Fatalf("Run: %v", err)
	}
}

const articleHTML = `<!doctype html><html><head><title>Shop</title><base href="/catalog/"></head><body>
<div class="article"><h1> Pens  and
 <em>ink</em> </h1><script>var x = "no";</script>
<ul class="items"><li data-sku="p1"><a href="pen.html">Blue pen</a> <span class="price">1.50</span></li>
<li data-sku="p2"><a href="ink.html" title="Ink">Black ink</a><span class="price">3</span></li>
<li><span class="price">9</span></li></ul></div>
<p class="note">a<br>b</p>
</body></html>`

const productHTML = `<html><head><title>P</title></head><body><h2 id="name">%NAME%</h2></body></html>`

type product struct {
	SKU   string `json:"sku"`
	Name  string `json:"name"`
	Price string `json:"price"`
	Cat   any    `json:"cat"`
}

func TestWithHTML(t *testing.T) {
	s := newSite(t, map[string]string{
		"a.test/":                  articleHTML,
		"a.test/catalog/pen.html":  strings.Replace(productHTML, "%NAME%", "Pen page", 1),
		"a.test/catalog/ink.html":  strings.Replace(productHTML, "%NAME%", "Ink page", 1),
		"a.test/catalog/skip.html": productHTML,
		"a.test/catalog/new-ink":   strings.Replace(productHTML, "%NAME%", "Ink page", 1),
	})
	// The metadata follows a redirect.
	s.pages["a.test/catalog/ink.html"] = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/catalog/new-ink", http.StatusMovedPermanently)
	}
	var mu sync.Mutex
	var items []any
	var got struct{ h1, name, note, liAttrs, titles, texts string }
	var names []string
	sink := trawl.ItemFunc(func(_ context.Context, item any) error {
		mu.Lock()
		defer mu.Unlock()
		items = append(items, item)
		return nil
	})
	opts := append(s.opts("http://a.test/"),
		trawl.WithItems(sink),
		trawl.WithFilters(trawl.Not(trawl.MatchURL(regexp.MustCompile(`skip`)))),
		trawl.WithHTML("div.article h1", func(_ context.Context, e *trawl.Element) {
			got.h1, got.name = e.Text(), e.Name()
		}),
		trawl.WithHTML("p.note", func(_ context.Context, e *trawl.Element) { got.note = e.Text() }),
		trawl.WithHTML("ul.items", func(ctx context.Context, e *trawl.Element) {
			got.liAttrs = strings.Join(e.ChildAttrs("li", "data-sku"), ",")
			got.titles = e.ChildAttr("a", "title") + "|" + e.ChildAttr("li", "nope") + "|" + e.ChildText("nothing")
			got.texts = strings.Join(e.ChildTexts(".price"), ",")
			e.ForEach("li[data-sku]", func(i int, li *trawl.Element) {
				if err := li.Emit(product{SKU: li.Attr("DATA-SKU"), Name: li.ChildText("a"), Price: li.ChildText("span.price"), Cat: i}); err != nil {
					t.Error(err)
				}
				queued, err := li.Follow(li.ChildAttr("a", "href"), trawl.SetMeta("sku", li.Attr("data-sku")))
				if err != nil || !queued {
					t.Errorf("Follow = %v, %v; want queued", queued, err)
				}
			})
			// Filters apply to Follow.
			if queued, err := e.Follow("skip.html"); err != nil || queued {
				t.Errorf("Follow(skip.html) = %v, %v; want dropped by the filter", queued, err)
			}
			if _, err := e.Follow("mailto:x@y"); err == nil {
				t.Error("Follow(mailto:) succeeded")
			}
		}),
		trawl.WithHTML("#name", func(_ context.Context, e *trawl.Element) {
			p := e.Page()
			mu.Lock()
			names = append(names, e.Text()+" sku="+p.Meta["sku"]+" depth="+string(rune('0'+p.Depth))+" ref="+e.Request().Referrer)
			mu.Unlock()
		}),
	)
	c := run(t, opts...)
	if got.h1 != "Pens and ink" || got.name != "h1" {
		t.Errorf("h1 Text, Name = %q, %q; want %q, h1", got.h1, got.name, "Pens and ink")
	}
	if got.note != "a b" {
		t.Errorf("note = %q, want %q", got.note, "a b")
	}
	if got.liAttrs != "p1,p2" || got.titles != "Ink||" || got.texts != "1.50,3,9" {
		t.Errorf("children: attrs %q titles %q texts %q", got.liAttrs, got.titles, got.texts)
	}
	slices.Sort(names)
	wantNames := []string{
		"Ink page sku=p2 depth=2 ref=http://a.test/catalog/ink.html",
		"Pen page sku=p1 depth=2 ref=http://a.test/",
	}
	if !slices.Equal(names, wantNames) {
		t.Errorf("followed pages = %q, want %q", names, wantNames)
	}
	wantItems := []any{
		product{SKU: "p1", Name: "Blue pen", Price: "1.50", Cat: 0},
		product{SKU: "p2", Name: "Black ink", Price: "3", Cat: 1},
	}
	if !slices.EqualFunc(items, wantItems, func(a, b any) bool { return a == b }) {
		t.Errorf("items = %v, want %v", items, wantItems)
	}
	if st := c.Stats(); st.Items.Emitted != 2 || st.Items.Errors != 0 {
		t.Errorf("Stats.Items, ItemErrors = %d, %d; want 2, 0", st.Items.Emitted, st.Items.Errors)
	}
	if n := len(s.requests("a.test/catalog/skip.html")); n != 0 {
		t.Errorf("skip.html fetched %d times despite the filter", n)
	}
}

func TestWithHTMLBadSelector(t *testing.T) {
	tests := []struct {
		name string
		sel  string
		fn   func(context.Context, *trawl.Element)
		want string
	}{
		{name: "syntax", sel: "div[", fn: func(context.Context, *trawl.Element) {}, want: `WithHTML("div["): bad selector`},
		{name: "nil callback", sel: "div", want: "nil callback"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := trawl.New(trawl.WithSeeds("http://a.test/"), trawl.WithHTML(tt.sel, tt.fn))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// closingSink is an ItemSink and a Store that counts its Close calls.
type closingSink struct {
	store.Memory
	items  atomic.Int64
	closes atomic.Int64
	fail   bool
}

func (s *closingSink) PutItem(context.Context, any) error {
	if s.fail {
		return errors.New("sink full")
	}
	s.items.Add(1)
	return nil
}

func (s *closingSink) Close() error { s.closes.Add(1); return s.Memory.Close() }

func TestItems(t *testing.T) {
	s := newSite(t, map[string]string{"a.test/": `<a href="/b">b</a>`, "a.test/b": `<p>b</p>`})

	t.Run("emit from OnPage, sink closed once", func(t *testing.T) {
		sink := &closingSink{}
		var c *trawl.Crawler
		runSet(t, &c, append(s.opts("http://a.test/"), trawl.WithItems(sink), trawl.WithEvents(trawl.Events{
			OnPage: func(ctx context.Context, p *trawl.Page) {
				if err := c.Emit(ctx, map[string]string{"url": p.URL.String()}); err != nil {
					t.Error(err)
				}
			},
		}))...)
		if sink.items.Load() != 2 || sink.closes.Load() != 1 || c.Stats().Items.Emitted != 2 {
			t.Errorf("items %d, closes %d, Stats.Items %d; want 2, 1, 2", sink.items.Load(), sink.closes.Load(), c.Stats().Items.Emitted)
		}
	})
	t.Run("sink that is the store is closed once", func(t *testing.T) {
		sink := &closingSink{}
		run(t, append(s.opts("http://a.test/"), trawl.WithItems(sink), trawl.WithStore(sink))...)
		if sink.closes.Load() != 1 {
			t.Errorf("Close called %d times, want 1", sink.closes.Load())
		}
	})
	t.Run("failing sink", func(t *testing.T) {
		sink := &closingSink{fail: true}
		var onError []string
		var mu sync.Mutex
		c := run(t, append(s.opts("http://a.test/"), trawl.WithItems(sink),
			trawl.WithEvents(trawl.Events{OnError: func(_ context.Context, u string, err error) {
				mu.Lock()
				onError = append(onError, u+": "+err.Error())
				mu.Unlock()
			}}),
			trawl.WithHTML("p", func(_ context.Context, e *trawl.Element) {
				if err := e.Emit("x"); err == nil {
					t.Error("Emit into a failing sink succeeded")
				}
			}))...)
		if st := c.Stats(); st.Items.Errors != 1 || st.Items.Emitted != 0 {
			t.Errorf("ItemErrors, Items = %d, %d; want 1, 0", st.Items.Errors, st.Items.Emitted)
		}
		if len(onError) != 1 || !strings.Contains(onError[0], "http://a.test/b: trawl: item: sink full") {
			t.Errorf("OnError = %q", onError)
		}
	})
	t.Run("no sink", func(t *testing.T) {
		c, err := trawl.New(trawl.WithSeeds("http://a.test/"))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Emit(context.Background(), 1); !errors.Is(err, trawl.ErrNoItemSink) {
			t.Errorf("Emit = %v, want ErrNoItemSink", err)
		}
	})
}

// JSONL as the item sink of a crawl: items and pages in separate files.
func TestItemsJSONL(t *testing.T) {
	s := newSite(t, map[string]string{"a.test/": articleHTML})
	var buf strings.Builder
	items := store.NewJSONLWriter(&buf)
	run(t, append(s.opts("http://a.test/"), trawl.WithItems(items),
		trawl.WithHTML("li[data-sku]", func(_ context.Context, e *trawl.Element) {
			_ = e.Emit(product{SKU: e.Attr("data-sku"), Name: e.ChildText("a")})
		}))...)
	want := `{"sku":"p1","name":"Blue pen","price":"","cat":null}` + "\n" + `{"sku":"p2","name":"Black ink","price":"","cat":null}` + "\n"
	if buf.String() != want {
		t.Errorf("JSONL = %q, want %q (flushed by Run's Close)", buf.String(), want)
	}
}

func TestRequestHeadersAndHook(t *testing.T) {
	s := newSite(t, map[string]string{
		"a.test/":        `<a href="/next">n</a> <a href="/private/x">p</a>`,
		"a.test/next":    `<p>next</p>`,
		"a.test/private": `<p>never</p>`,
	})
	var skips []string
	var mu sync.Mutex
	c := run(t, append(s.opts("http://a.test/"),
		trawl.WithHeader("X-Token", "t1"),
		trawl.WithHeader("Accept-Language", "fr"),
		trawl.WithHeader("User-Agent", "ignored/1.0"),
		trawl.WithOnRequest(func(_ context.Context, r *trawl.OutgoingRequest) error {
			if strings.HasPrefix(r.URL.Path, "/private") {
				return errors.New("not for us")
			}
			r.Header.Set("X-Depth", string(rune('0'+r.Depth)))
			r.Meta["seen"] = r.URL.Path
			return nil
		}),
		trawl.WithEvents(trawl.Events{
			OnDecision: func(_ context.Context, d trawl.Decision) {
				if d.Outcome != trawl.DecisionAborted {
					return
				}
				mu.Lock()
				skips = append(skips, d.Outcome.String()+" "+d.URL+" "+d.Error)
				mu.Unlock()
			},
			OnPage: func(_ context.Context, p *trawl.Page) {
				if p.Meta["seen"] != p.URL.Path {
					t.Errorf("%s: Meta = %v, want the hook's", p.URL, p.Meta)
				}
			},
		}),
	)...)
	for path, depth := range map[string]string{"a.test/": "1", "a.test/next": "2"} {
		reqs := s.requests(path)
		if len(reqs) != 1 {
			t.Fatalf("%s fetched %d times, want 1", path, len(reqs))
		}
		h := reqs[0].Header
		if h.Get("X-Token") != "t1" || h.Get("Accept-Language") != "fr" || h.Get("X-Depth") != depth || h.Get("User-Agent") != testUA {
			t.Errorf("%s headers = %v", path, h)
		}
	}
	if n := len(s.requests("a.test/private/x")); n != 0 {
		t.Errorf("aborted URL fetched %d times", n)
	}
	if !slices.Equal(skips, []string{"aborted http://a.test/private/x not for us"}) {
		t.Errorf("aborted decisions = %q", skips)
	}
	if st := c.Stats(); st.URLs.Aborted != 1 || st.Fetch.Pages != 2 {
		t.Errorf("Aborted, Fetched = %d, %d; want 1, 2", st.URLs.Aborted, st.Fetch.Pages)
	}
}

func TestCookies(t *testing.T) {
	tests := []struct {
		name string
		opt  trawl.Option
		want string // Cookie header on /b
	}{
		{name: "off by default", opt: trawl.WithLimits(trawl.Limits{MaxRetries: 2}), want: ""},
		{name: "WithCookies", opt: trawl.WithCookies(true), want: "session=s1"},
		{name: "WithCookies(false)", opt: trawl.WithCookies(false), want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t, map[string]string{"a.test/b": `<p>b</p>`, "b.test/": `<p>other host</p>`})
			s.pages["a.test/"] = func(w http.ResponseWriter, r *http.Request) {
				http.SetCookie(w, &http.Cookie{Name: "session", Value: "s1", Path: "/"})
				w.Header().Set("Content-Type", "text/html")
				_, _ = io.WriteString(w, `<a href="/b">b</a> <a href="http://b.test/">b.test</a>`)
			}
			run(t, append(s.opts("http://a.test/"), tt.opt)...)
			reqs := s.requests("a.test/b")
			if len(reqs) != 1 {
				t.Fatalf("/b fetched %d times", len(reqs))
			}
			if got := reqs[0].Header.Get("Cookie"); got != tt.want {
				t.Errorf("Cookie on a.test/b = %q, want %q", got, tt.want)
			}
			if other := s.requests("b.test/"); len(other) != 1 || other[0].Header.Get("Cookie") != "" {
				t.Errorf("b.test got a.test's cookie: %v", other)
			}
		})
	}
}

func TestBasicAuthOnlyToItsHost(t *testing.T) {
	s := newSite(t, map[string]string{
		"a.test/":        `<a href="/page">p</a> <a href="http://b.test/">b</a> <a href="http://a.test:8080/">other port</a>`,
		"a.test/page":    `<p>a</p>`,
		"b.test/":        `<p>b</p>`,
		"b.test/landing": `<p>landing</p>`,
	})
	s.pages["a.test/go"] = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://b.test/landing", http.StatusFound)
	}
	s.pages["a.test:8080/"] = s.pages["b.test/"]
	run(t, append(s.opts("http://a.test/", "http://a.test/go"), trawl.WithBasicAuth("http://A.test:80", "ann", "pw"),
		trawl.WithBasicAuth("http://b.test:81", "bob", "x"), trawl.WithBasicAuth("https://b.test", "eve", "y"))...)
	for _, hp := range []string{"a.test/", "a.test/page", "a.test/go"} {
		reqs := s.requests(hp)
		if len(reqs) != 1 {
			t.Fatalf("%s fetched %d times", hp, len(reqs))
		}
		if u, p, ok := reqs[0].BasicAuth(); !ok || u != "ann" || p != "pw" {
			t.Errorf("%s: basic auth = %q, %q, %v; want ann, pw", hp, u, p, ok)
		}
	}
	for _, hp := range []string{"b.test/", "b.test/landing", "a.test:8080/"} {
		reqs := s.requests(hp)
		if len(reqs) != 1 {
			t.Fatalf("%s fetched %d times", hp, len(reqs))
		}
		// http://a.test:8080 is another origin than http://a.test, and
		// https://b.test than http://b.test (RFC 7617's protection space).
		if h := reqs[0].Header.Get("Authorization"); h != "" {
			t.Errorf("%s got Authorization %q", hp, h)
		}
	}
}

func TestBasicAuthNeedsAnOrigin(t *testing.T) {
	for _, bad := range []string{"a.test", "a.test:443", "ftp://a.test", "https://a.test/path", "https://"} {
		_, err := trawl.New(trawl.WithSeeds("http://a.test/"), trawl.WithBasicAuth(bad, "u", "p"))
		if err == nil || !strings.Contains(err.Error(), "origin") {
			t.Errorf("WithBasicAuth(%q): New error = %v, want one asking for an origin", bad, err)
		}
	}
	if _, err := trawl.New(trawl.WithSeeds("http://a.test/"), trawl.WithBasicAuth("https://a.test:8443/", "u", "p")); err != nil {
		t.Errorf("WithBasicAuth with an origin and a trailing slash: %v", err)
	}
}

// recordingFetcher is a custom fetcher that records the User-Agent of
// every request it is given.
type recordingFetcher struct {
	inner fetch.Fetcher
	mu    sync.Mutex
	uas   []string
}

func (f *recordingFetcher) Fetch(ctx context.Context, req *fetch.Request) (*fetch.Response, error) {
	f.mu.Lock()
	f.uas = append(f.uas, req.URL.Path+" "+req.Header.Get("User-Agent"))
	f.mu.Unlock()
	return f.inner.Fetch(ctx, req)
}

func TestCustomFetcherGetsUserAgent(t *testing.T) {
	s := newSite(t, map[string]string{"a.test/": `<a href="/b">b</a>`, "a.test/b": `<p>b</p>`})
	f := &recordingFetcher{inner: fetch.New(&fetch.Options{DialContext: s.dial, AllowPrivateNetworks: true})}
	// Without s.opts' dialer and private-network options: New refuses
	// them with a fetcher of one's own, which has its own.
	run(t, append(slices.Delete(s.opts("http://a.test/"), 2, 4), trawl.WithFetcher(f))...)
	slices.Sort(f.uas)
	want := []string{"/ " + testUA, "/b " + testUA, "/robots.txt " + testUA}
	if !slices.Equal(f.uas, want) {
		t.Errorf("the custom fetcher got %q, want %q", f.uas, want)
	}
}

func TestEnqueue(t *testing.T) {
	s := newSite(t, map[string]string{
		"a.test/":      `<p>no links</p>`,
		"a.test/extra": `<p>extra</p>`,
		"a.test/deep":  `<p>deep</p>`,
	})
	type result struct {
		queued bool
		err    string
	}
	got := map[string]result{}
	var meta any
	var c *trawl.Crawler
	runSet(t, &c, append(s.opts("http://a.test/"),
		trawl.WithLimits(trawl.Limits{MaxDepth: 2}),
		trawl.WithFilters(trawl.SameHost("http://a.test/"), trawl.FilterFunc(func(r *trawl.Candidate) bool {
			// Filters see the metadata.
			return r.Meta["from"] != "blocked"
		})),
		trawl.WithEvents(trawl.Events{OnPage: func(ctx context.Context, p *trawl.Page) {
			if p.URL.Path == "/extra" {
				meta = p.Meta["from"]
				// depth 3 > 2: dropped
				q, err := c.Enqueue(ctx, "deep", trawl.FromPage(p))
				got["deep from depth 2"] = result{q, errString(err)}
				return
			}
			if p.URL.Path != "/" {
				return
			}
			for _, ref := range []string{"extra", "/extra", "http://b.test/", "ftp://a.test/x", "http://[::1"} {
				q, err := c.Enqueue(ctx, ref, trawl.FromPage(p), trawl.SetMeta("from", "root"))
				got[ref] = result{q, errString(err)}
			}
			q, err := c.Enqueue(ctx, "http://a.test/blocked", trawl.SetMeta("from", "blocked"))
			got["blocked by a filter reading Meta"] = result{q, errString(err)}
			q, err = c.Enqueue(ctx, "http://a.test/deep", trawl.AtDepth(1))
			got["deep as a seed"] = result{q, errString(err)}
		}}),
	)...)
	want := map[string]result{
		"extra":                            {queued: true},
		"/extra":                           {queued: false}, // seen
		"http://b.test/":                   {queued: false}, // filter
		"ftp://a.test/x":                   {err: "http or https"},
		"http://[::1":                      {err: "enqueue"},
		"deep as a seed":                   {queued: true},
		"blocked by a filter reading Meta": {queued: false},
		"deep from depth 2":                {queued: false}, // seen already (as a seed)
	}
	for k, w := range want {
		g := got[k]
		if g.queued != w.queued || (w.err == "") != (g.err == "") || !strings.Contains(g.err, w.err) {
			t.Errorf("Enqueue(%q) = %v, %q; want %v, %q", k, g.queued, g.err, w.queued, w.err)
		}
	}
	if meta != "root" {
		t.Errorf("/extra Meta[from] = %v, want root", meta)
	}
	if st := c.Stats(); st.Fetch.Pages != 3 {
		t.Errorf("Fetched = %d, want 3", st.Fetch.Pages)
	}
}

func TestEnqueueDepthLimit(t *testing.T) {
	s := newSite(t, map[string]string{"a.test/": `<p>x</p>`})
	var skipped []string
	var c *trawl.Crawler
	runSet(t, &c, append(s.opts("http://a.test/"), trawl.WithLimits(trawl.Limits{MaxDepth: 1}),
		trawl.WithEvents(trawl.Events{
			OnDecision: func(_ context.Context, d trawl.Decision) {
				if d.Outcome == trawl.DecisionDepth || d.Outcome == trawl.DecisionFiltered || d.Outcome == trawl.DecisionTrap {
					skipped = append(skipped, d.Outcome.String()+" "+d.URL)
				}
			},
			OnPage: func(ctx context.Context, p *trawl.Page) {
				if q, err := c.Enqueue(ctx, "/next", trawl.FromPage(p)); q || err != nil {
					t.Errorf("Enqueue past the depth limit = %v, %v", q, err)
				}
			},
		}))...)
	if !slices.Equal(skipped, []string{"depth http://a.test/next"}) {
		t.Errorf("URLs dropped = %q, want the one past the depth limit", skipped)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestStatusCodes(t *testing.T) {
	s := newSite(t, map[string]string{
		"a.test/":   `<a href="/ok">ok</a> <a href="/missing">m</a> <a href="/gone">g</a> <a href="/moved">r</a>`,
		"a.test/ok": `<p>ok</p>`,
	})
	s.pages["a.test/gone"] = func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusGone) }
	s.pages["a.test/moved"] = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/ok", http.StatusMovedPermanently)
	}
	c, err := trawl.New(append(s.opts("http://a.test/"), trawl.WithLimits(trawl.Limits{MaxRetries: -1}))...)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := c.Stats()
	want := map[int]int64{200: 2, 301: 1, 404: 1, 410: 1}
	if len(st.Fetch.Codes) != len(want) {
		t.Errorf("StatusCodes = %v, want %v", st.Fetch.Codes, want)
	}
	for code, n := range want {
		if st.Fetch.Codes[code] != n {
			t.Errorf("StatusCodes[%d] = %d, want %d (all: %v)", code, st.Fetch.Codes[code], n, st.Fetch.Codes)
		}
	}
	if st.Fetch.Class(2) != 2 || st.Fetch.Class(3) != 1 || st.Fetch.Class(4) != 2 {
		t.Errorf("classes 2xx %d 3xx %d 4xx %d, want 2 1 2", st.Fetch.Class(2), st.Fetch.Class(3), st.Fetch.Class(4))
	}
}

// Politeness.Delay alone turns the adaptive delay off; Politeness.Adaptive keeps it.
// The politeness the default frontier is built with shows the rule.
func TestDelayTurnsAdaptiveOff(t *testing.T) {
	tests := []struct {
		name       string
		opts       []trawl.Option
		wantFactor float64 // politeness.Config.Factor: < 0 off, 10 on
		wantDelay  string
		wantRest   time.Duration // the delay the frontier's politeness computes after a 300 ms fetch
	}{
		{name: "defaults", wantFactor: 10, wantDelay: "1s", wantRest: 3 * time.Second},
		{name: "WithDelay(0)", opts: []trawl.Option{trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay})}, wantFactor: -1, wantDelay: "-1ns", wantRest: 0},
		{name: "WithDelay(2s)", opts: []trawl.Option{trawl.WithPoliteness(trawl.Politeness{Delay: 2e9})}, wantFactor: -1, wantDelay: "2s", wantRest: 2 * time.Second},
		{name: "WithDelay and WithAdaptiveDelay", opts: []trawl.Option{trawl.WithPoliteness(trawl.Politeness{Adaptive: 10}), trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay})}, wantFactor: 10, wantDelay: "-1ns", wantRest: 3 * time.Second},
		{name: "WithAdaptiveDelay(3) alone", opts: []trawl.Option{trawl.WithPoliteness(trawl.Politeness{Adaptive: 3})}, wantFactor: 3, wantDelay: "1s", wantRest: time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got frontier.MemoryOptions
			opts := append([]trawl.Option{trawl.WithSeeds("http://a.test/"),
				trawl.WithFrontier(func(o frontier.MemoryOptions) (frontier.Frontier, error) {
					got = o
					return frontier.NewMemory(&o), nil
				})}, tt.opts...)
			if _, err := trawl.New(opts...); err != nil {
				t.Fatal(err)
			}
			if got.Politeness.Factor != tt.wantFactor || got.Politeness.MinDelay.String() != tt.wantDelay {
				t.Errorf("Factor, MinDelay = %v, %v; want %v, %s", got.Politeness.Factor, got.Politeness.MinDelay, tt.wantFactor, tt.wantDelay)
			}
			// The rest a host gets after a 300 ms fetch, as the
			// frontier's scheduler computes it (time is a parameter).
			sched := politeness.NewSchedule(&got.Politeness)
			now := time.Unix(1e9, 0)
			sched.Add("a.test")
			if _, _, ok := sched.Next(now); !ok {
				t.Fatal("Next: no host")
			}
			rest, err := sched.Done("a.test", now, politeness.Outcome{Status: 200, Duration: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			if rest != tt.wantRest {
				t.Errorf("rest after a 300 ms fetch = %v, want %v", rest, tt.wantRest)
			}
		})
	}
}

// A proxy on loopback carries the crawl while private targets stay
// refused: the guard applies to the target host, not to the proxy.
func TestProxyAtCrawlerLevel(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.String())
		mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, `<a href="/two">two</a> <a href="http://10.9.9.9/">private</a> <a href="http://localhost/">local</a>`)
	}))
	defer proxy.Close()
	pu, _ := url.Parse(proxy.URL)
	c, err := trawl.New(
		trawl.WithSeeds("http://93.184.216.34/"),
		trawl.WithProxy(http.ProxyURL(pu)),
		trawl.WithFollow(extract.Navigation),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithLimits(trawl.Limits{MaxRetries: -1}),
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	slices.Sort(seen)
	want := []string{"http://93.184.216.34/", "http://93.184.216.34/robots.txt", "http://93.184.216.34/two"}
	if !slices.Equal(seen, want) {
		t.Errorf("the proxy saw %q, want %q", seen, want)
	}
	if st := c.Stats(); st.Errors.Kinds["private"] != 2 {
		t.Errorf("PrivateRefused = %d, want 2 (10.9.9.9 and localhost, refused although a proxy would reach them)", st.Errors.Kinds["private"])
	}
	if _, err := trawl.New(trawl.WithSeeds("http://a.test/"), trawl.WithProxy(http.ProxyURL(pu)),
		trawl.WithFetcher(fetch.New(nil))); err == nil || !strings.Contains(err.Error(), "default fetcher") {
		t.Errorf("New(WithProxy, WithFetcher) = %v, want an error", err)
	}
}

// ProxyFromEnvironment reads HTTP_PROXY only when opted in: without it
// the crawler dials the target itself.
func TestProxyFromEnvironment(t *testing.T) {
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, "<p>via proxy</p>")
	}))
	defer proxy.Close()
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("NO_PROXY", "")
	proxyAddr := proxy.Listener.Addr().String()
	for _, on := range []bool{false, true} {
		var mu sync.Mutex
		var dialed []string
		dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
			mu.Lock()
			dialed = append(dialed, addr)
			mu.Unlock()
			if addr == proxyAddr {
				var d net.Dialer
				return d.DialContext(ctx, network, addr)
			}
			return nil, errors.New("no network in tests")
		}
		var proxyFn func(*http.Request) (*url.URL, error)
		if on {
			proxyFn = trawl.ProxyFromEnvironment()
		}
		c, err := trawl.New(trawl.WithSeeds("http://93.184.216.34/"), trawl.WithProxy(proxyFn),
			trawl.WithDialContext(dial), trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}), trawl.WithLimits(trawl.Limits{MaxRetries: -1}), trawl.WithPoliteness(trawl.Politeness{IgnoreRobots: true}))
		if err != nil {
			t.Fatal(err)
		}
		// Without the proxy the only seed cannot be fetched: Run says so.
		if err := c.Run(context.Background()); (err != nil) == on || (!on && !strings.Contains(err.Error(), "every seed")) {
			t.Fatalf("proxy %v: Run = %v", on, err)
		}
		want := "93.184.216.34:80"
		if on {
			want = proxyAddr
		}
		if len(dialed) == 0 || dialed[0] != want {
			t.Errorf("ProxyFromEnvironment (%v) dialed %q, want %s", on, dialed, want)
		}
		if got := c.Stats().Pages.Stored + c.Stats().Fetch.Class(2); on && got != 1 {
			t.Errorf("through the proxy: Status2xx = %d, want 1", got)
		}
	}
}
