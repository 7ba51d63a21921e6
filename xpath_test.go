package trawl_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
)

// TestXPathEqualsCSSOnCrawltest: on every page of a crawltest web, XPath
// expressions select what their CSS equivalents find, in the same order,
// and WithXPath's callbacks see the elements WithHTML's see; scalar
// expressions (count) run on several workers at once (-race watches the
// shared compiled expression).
func TestXPathEqualsCSSOnCrawltest(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 3, Hosts: 2, PagesPerHost: 40})
	pairs := []struct{ css, xpath string }{
		{"a[href]", ".//a[@href]"},
		{"article h1", ".//article//h1"},
		{"nav a", ".//nav//a"},
		{"aside a[href]", ".//aside//a[@href]"},
		{"p.byline time", `.//p[contains(concat(" ", normalize-space(@class), " "), " byline ")]//time`},
		{"a[rel~=nofollow]", `.//a[contains(concat(" ", normalize-space(@rel), " "), " nofollow ")]`},
	}
	var mu sync.Mutex
	var diffs []string
	found := make(map[string]int)
	var viaCSS, viaXPath []string
	record := func(list *[]string) func(context.Context, *trawl.Element) {
		return func(_ context.Context, e *trawl.Element) {
			mu.Lock()
			*list = append(*list, e.Page().URL.String()+" "+e.Text())
			mu.Unlock()
		}
	}
	c, err := trawl.New(
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithWorkers(8),
		trawl.WithHTML("html", func(_ context.Context, e *trawl.Element) {
			var local []string
			for _, p := range pairs {
				css, xp := e.Find(p.css), e.XPath(p.xpath)
				if !sameNodes(css, xp) {
					local = append(local, fmt.Sprintf("%s: Find(%q) %d, XPath(%q) %d", e.Page().URL, p.css, css.Length(), p.xpath, xp.Length()))
				}
				mu.Lock()
				found[p.css] += css.Length()
				mu.Unlock()
			}
			if n := e.XPathText("count(.//a[@href])"); n != fmt.Sprint(e.Find("a[href]").Length()) {
				local = append(local, fmt.Sprintf("%s: count(.//a[@href]) = %s, Find found %d", e.Page().URL, n, e.Find("a[href]").Length()))
			}
			if css, xp := e.ChildAttrs("a[href]", "href"), e.XPathTexts(".//a/@href"); !slices.Equal(css, xp) {
				local = append(local, fmt.Sprintf("%s: hrefs differ: %d by CSS, %d by XPath", e.Page().URL, len(css), len(xp)))
			}
			if css, xp := e.ChildText("title"), e.XPathText("/html/head/title/text()"); css != xp {
				local = append(local, fmt.Sprintf("%s: title %q by CSS, %q by XPath", e.Page().URL, css, xp))
			}
			mu.Lock()
			diffs = append(diffs, local...)
			mu.Unlock()
		}),
		trawl.WithHTML("article h1", record(&viaCSS)),
		trawl.WithXPath("//article//h1", record(&viaXPath)),
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	for _, d := range diffs {
		t.Error(d)
	}
	for _, p := range pairs {
		if found[p.css] == 0 {
			t.Errorf("no page has %q: the comparison is empty", p.css)
		}
	}
	slices.Sort(viaCSS)
	slices.Sort(viaXPath)
	if len(viaCSS) == 0 || !slices.Equal(viaCSS, viaXPath) {
		t.Errorf("WithHTML(article h1) saw %d elements, WithXPath(//article//h1) %d, or others", len(viaCSS), len(viaXPath))
	}
}

func sameNodes(a, b trawl.Elements) bool {
	return slices.EqualFunc(a, b, func(x, y *trawl.Element) bool { return x.Node() == y.Node() })
}

// TestXPathTextAndAttributes: what XPathText and XPathTexts give for
// attributes, text(), elements, scalars, relative and absolute paths.
func TestXPathTextAndAttributes(t *testing.T) {
	s := newSite(t, map[string]string{"a.test/": articleHTML})
	got := make(map[string]any)
	run(t, append(s.opts("http://a.test/"),
		trawl.WithXPath("//div[@class='article']", func(_ context.Context, e *trawl.Element) {
			got["skus"] = e.XPathTexts(".//li/@data-sku")
			got["h1"] = e.XPathText(".//h1")
			got["h1 css"] = e.ChildText("h1")
			got["h1 text()"] = e.XPathTexts(".//h1/text()")
			got["anchors"] = e.XPathTexts(".//li/a/text()")
			got["title attr"] = e.XPathText(".//a[@title]/@title")
			got["count"] = e.XPathText("count(.//li)")
			got["bool"] = e.XPathText("boolean(.//li[@data-sku='p2'])")
			got["string"] = e.XPathText("string(.//span[@class='price'])")
			got["absolute"] = e.XPathText("//title")
			got["relative title"] = e.XPathText(".//title")
			got["missing"] = e.XPathText(".//table")
			got["items"] = e.XPath(".//ul").XPath("li").Length()
			got["text of a li"] = e.XPath(".//li[2]").Text()
			got["parent"] = e.XPath(".//em/..")[0].Name()
			got["script"] = e.XPathTexts(".//script/text()")
		}),
	)...)
	want := map[string]any{
		"skus":           []string{"p1", "p2"},
		"h1":             "Pens and ink",
		"h1 css":         "Pens and ink",
		"h1 text()":      []string{"Pens and"},
		"anchors":        []string{"Blue pen", "Black ink"},
		"title attr":     "Ink",
		"count":          "3",
		"bool":           "true",
		"string":         "1.50",
		"absolute":       "Shop",
		"relative title": "",
		"missing":        "",
		"items":          3,
		"text of a li":   "Black ink3",
		"parent":         "h1",
		"script":         []string{`var x = "no";`},
	}
	for k, w := range want {
		if fmt.Sprint(got[k]) != fmt.Sprint(w) {
			t.Errorf("%s: got %q, want %q", k, got[k], w)
		}
	}
}

// TestXPathBadExpression: a bad XPath fails New in WithXPath, and in an
// Element method it selects nothing and is reported as a bad CSS selector
// is: OnError with the page, Stats.Errors.Kinds["selector"], Run's error.
func TestXPathBadExpression(t *testing.T) {
	if _, err := trawl.New(trawl.WithSeeds("http://a.test/"), trawl.WithXPath("//div[", func(context.Context, *trawl.Element) {})); err == nil ||
		!strings.Contains(err.Error(), `WithXPath("//div["): bad XPath`) {
		t.Errorf("New(WithXPath(//div[)) = %v, want a bad XPath error", err)
	}
	if _, err := trawl.New(trawl.WithSeeds("http://a.test/"), trawl.WithXPath("//div", nil)); err == nil || !strings.Contains(err.Error(), "nil callback") {
		t.Errorf("New(WithXPath(//div, nil)) = %v, want a nil callback error", err)
	}
	s := newSite(t, map[string]string{"a.test/": `<div><a href="/b">b</a></div>`, "a.test/b": `<div><p>b</p></div>`})
	var mu sync.Mutex
	var onError, texts []string
	var n int
	c, err := trawl.New(append(s.opts("http://a.test/"),
		trawl.WithXPath("//div", func(_ context.Context, e *trawl.Element) {
			text, found := e.XPathText(".//a["), e.XPath("p)").Length()
			mu.Lock()
			texts = append(texts, text)
			n += found
			mu.Unlock()
		}),
		trawl.WithEvents(trawl.Events{OnError: func(_ context.Context, rawURL string, err error) {
			mu.Lock()
			onError = append(onError, rawURL+" "+err.Error())
			mu.Unlock()
		}}),
	)...)
	if err != nil {
		t.Fatal(err)
	}
	err = c.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), `Element.XPathText(".//a["): bad XPath`) {
		t.Errorf("Run = %v, want the first bad XPath", err)
	}
	if k := c.Stats().Errors.Kinds["selector"]; k != 4 {
		t.Errorf("Errors.Kinds[selector] = %d, want 4 (two calls on each of two pages)", k)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(onError) != 4 || !strings.Contains(strings.Join(onError, "\n"), `http://a.test/b trawl: Element.XPath("p)")`) {
		t.Errorf("OnError calls %q, want 4 naming the page and the method", onError)
	}
	if n != 0 || strings.Join(texts, "") != "" {
		t.Errorf("a bad XPath selected something: %q, %d elements", texts, n)
	}
}
