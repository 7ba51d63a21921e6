package trawl

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/internal/shareddata"
)

// cssXPath are CSS selectors and XPath expressions that select the same
// elements, the XPath relative to the element as Find is.
var cssXPath = []struct{ css, xpath string }{
	{"a[href]", ".//a[@href]"},
	{"p", ".//p"},
	{"div > p", ".//div/p"},
	{"li a", ".//li//a"},
	{"h1, h2, h3", ".//h1 | .//h2 | .//h3"},
	{"img[alt]", ".//img[@alt]"},
	{"td:first-child", ".//td[not(preceding-sibling::*)]"},
	{"ul > li:last-child", ".//ul/li[not(following-sibling::*)]"},
	{`a[href^="http"]`, `.//a[starts-with(@href, "http")]`},
	{"meta[name]", ".//meta[@name]"},
	{"table tr:nth-child(2) td", ".//table//tr[count(preceding-sibling::*) = 1]//td"},
}

// rootElement returns the document element <html> of body as a WithHTML
// callback would get it, on a page of http://a.test/.
func rootElement(t testing.TB, body []byte) *Element {
	t.Helper()
	c, err := New(WithSeeds("http://a.test/"))
	if err != nil {
		t.Fatal(err)
	}
	root, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse("http://a.test/")
	doc := &document{c: c, ctx: context.Background(), page: &Page{URL: u, Body: body}, root: root}
	var top *html.Node
	for n := root.FirstChild; n != nil; n = n.NextSibling {
		if n.Type == html.ElementNode {
			top = n
		}
	}
	return &Element{node: top, doc: doc}
}

// evalPages returns the first n pages of the content-eval set (real
// pages, read in place: the set is AGPL, never copied here).
func evalPages(t testing.TB, n int) map[string][]byte {
	t.Helper()
	dir := filepath.Join(shareddata.Dir(t, "content-eval"), "pages")
	names, err := filepath.Glob(filepath.Join(dir, "*.html.gz"))
	if err != nil || len(names) < n {
		t.Fatalf("content-eval pages: %d, %v", len(names), err)
	}
	slices.Sort(names)
	pages := make(map[string][]byte)
	for _, name := range names[:n] {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(zr)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		pages[filepath.Base(name)] = b
	}
	return pages
}

func nodesOf(es Elements) []*html.Node {
	out := make([]*html.Node, len(es))
	for i, e := range es {
		out[i] = e.node
	}
	return out
}

// TestXPathEqualsCSSOnRealPages: on real pages (content-eval), each XPath
// of cssXPath selects exactly the elements its CSS selector finds, in the
// same order, and the texts and attributes read through either agree.
func TestXPathEqualsCSSOnRealPages(t *testing.T) {
	found := make(map[string]int)
	for name, body := range evalPages(t, 25) {
		e := rootElement(t, body)
		for _, p := range cssXPath {
			css, xp := nodesOf(e.Find(p.css)), nodesOf(e.XPath(p.xpath))
			if !slices.Equal(css, xp) {
				t.Errorf("%s: Find(%q) found %d elements, XPath(%q) %d, or in another order", name, p.css, len(css), p.xpath, len(xp))
			}
			found[p.css] += len(css)
		}
		if css, xp := e.ChildAttrs("a[href]", "href"), e.XPathTexts(".//a/@href"); !slices.Equal(css, xp) {
			t.Errorf("%s: ChildAttrs(a[href], href) has %d values, XPathTexts(.//a/@href) %d", name, len(css), len(xp))
		}
		if css, xp := e.ChildTexts("p"), e.XPathTexts(".//p"); !slices.Equal(css, xp) {
			t.Errorf("%s: ChildTexts(p) and XPathTexts(.//p) differ", name)
		}
		if css, xp := e.ChildText("title"), e.XPathText("//title"); css != xp {
			t.Errorf("%s: ChildText(title) = %q, XPathText(//title) = %q", name, css, xp)
		}
		if bad := e.doc.c.badSelector.Load(); bad != nil {
			t.Errorf("%s: %v", name, *bad)
		}
	}
	for _, p := range cssXPath[:6] { // the common ones: a test that compares nothing proves nothing
		if found[p.css] == 0 {
			t.Errorf("no page has %q: the comparison is empty", p.css)
		}
	}
}

// BenchmarkSelectCSSvsXPath compares the two selection engines on a real
// page (content-eval's first, 100 KB): the same elements found by Find
// (cascadia) and by XPath (antchfx/xpath over the same DOM), each
// compiled once and cached, as a WithHTML callback calls them.
func BenchmarkSelectCSSvsXPath(b *testing.B) {
	var body []byte
	for _, v := range evalPages(b, 1) {
		body = v
	}
	e := rootElement(b, body)
	for _, p := range cssXPath[:5] {
		b.Run("css/"+p.css, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				_ = e.Find(p.css)
			}
		})
		b.Run("xpath/"+p.xpath, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				_ = e.XPath(p.xpath)
			}
		})
	}
	// On a page's first XPath call: results in document order cost
	// what they cost on later calls; results out of order (".//div/p"
	// with nested divs) number the page's nodes first, once per page.
	for _, expr := range []string{".//a[@href]", ".//div/p"} {
		b.Run("xpath-first-on-page/"+expr, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				fresh := &Element{node: e.node, doc: &document{c: e.doc.c, ctx: e.doc.ctx, page: e.doc.page, root: e.doc.root}}
				_ = fresh.XPath(expr)
			}
		})
	}
}
