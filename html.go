package trawl

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

// WithHTML calls fn for every element of an HTML page that matches the CSS
// selector (a selector group: "h1, h2" matches both), in document order,
// as Colly's OnHTML and Scrapy's response.css do. Each call of WithHTML
// adds a callback; they run in the order given, after Events.OnPage and
// before the Store, from the worker that fetched the page, for every HTML
// page fetched with a 2xx status (noindex and duplicate pages included).
// fn may emit items (Element.Emit) and follow links (Element.Follow); it
// must be safe for concurrent use, as pages are handled by several
// workers at once.
//
// The selector is compiled by New, which fails on a bad one. Selectors are
// github.com/andybalholm/cascadia's: CSS Level 3 selectors plus a few
// jQuery extensions (:contains, :has, :first, ...). cascadia is the
// selector engine inside goquery, which Colly uses; goquery itself adds
// a jQuery-like API (Selection, Find, Each) over the same engine, which
// Element's few methods replace, so trawl depends on cascadia alone.
//
// Cost: a page is parsed into a DOM (golang.org/x/net/html) once, however
// many callbacks there are, and only when at least one WithHTML (or
// WithXPath) callback is registered; a crawl without one does not parse.
// Default: none.
func WithHTML(selector string, fn func(ctx context.Context, e *Element)) Option {
	return func(c *config) { c.html = append(c.html, htmlCallback{selector: selector, fn: fn}) }
}

type htmlCallback struct {
	selector string
	fn       func(ctx context.Context, e *Element)
	isXPath  bool // WithXPath's: selector is an XPath expression
	m        cascadia.SelectorGroup
	x        *compiledXPath // isXPath's
}

// compileHTML compiles the WithHTML selectors in New.
func (c *Crawler) compileHTML() error {
	cbs := make([]htmlCallback, len(c.cfg.html))
	for i, cb := range c.cfg.html {
		name := "WithHTML"
		if cb.isXPath {
			name = "WithXPath"
		}
		if cb.fn == nil {
			return fmt.Errorf("trawl: %s(%q): nil callback", name, cb.selector)
		}
		var err error
		if cb.isXPath {
			if cb.x, err = compileXPath(cb.selector); err != nil {
				return fmt.Errorf("trawl: WithXPath(%q): bad XPath: %w", cb.selector, err)
			}
		} else if cb.m, err = cascadia.ParseGroup(cb.selector); err != nil {
			return fmt.Errorf("trawl: WithHTML(%q): bad selector: %w", cb.selector, err)
		}
		cbs[i] = cb
	}
	c.html = cbs
	return nil
}

// runHTML parses an HTML page once and calls the WithHTML callbacks.
func (c *Crawler) runHTML(ctx context.Context, p *Page) {
	if len(c.html) == 0 || (p.ContentType != "text/html" && p.ContentType != "application/xhtml+xml") {
		return
	}
	root, err := html.Parse(bytes.NewReader(p.Body))
	if err != nil { // html.Parse fails only on reader errors
		c.log.Info("html parse failed", "url", p.URL, "err", err)
		return
	}
	doc := &document{c: c, ctx: ctx, page: p, root: root}
	for _, cb := range c.html {
		if cb.isXPath {
			for _, e := range (&Element{node: root, doc: doc}).xpathElements(cb.x) {
				cb.fn(ctx, e)
			}
			continue
		}
		for _, n := range cascadia.QueryAll(root, cb.m) {
			cb.fn(ctx, &Element{node: n, doc: doc})
		}
	}
}

// document is what the Elements of one page share.
type document struct {
	c    *Crawler
	ctx  context.Context // the callback's; lives as long as the callbacks
	page *Page
	root *html.Node

	baseOnce sync.Once
	base     *url.URL

	orderOnce sync.Once
	order     map[*html.Node]int // document order, for XPath results (xpath.go)
}

// baseURL is the page's URL, or its <base href> when it has a valid one.
func (d *document) baseURL() *url.URL {
	d.baseOnce.Do(func() {
		d.base = d.page.URL
		if n := cascadia.Query(d.root, d.c.baseSel()); n != nil {
			if u, err := d.page.URL.Parse(strings.TrimSpace(attr(n, "href"))); err == nil {
				d.base = u
			}
		}
	})
	return d.base
}

// Element is an HTML element a WithHTML selector matched. It is valid
// during the callback only, and not safe for concurrent use (a callback
// may hand it to no other goroutine).
//
// The selectors its methods take (ChildText, ChildTexts, ChildAttr,
// ChildAttrs, ForEach, Find; and the XPath expressions of XPath, XPathText
// and XPathTexts) are compiled on first use and cached. A bad one
// ("a[", "//a[") matches nothing and is a bug of the program's, which the crawl
// does not let pass silently: each call is counted in
// Stats.Errors.Kinds["selector"] and given to Events.OnError with the
// page's URL, and Run, which finishes the crawl, returns the first one
// (joined with its other errors), so that a scraper's test fails.
type Element struct {
	node *html.Node
	doc  *document
}

// Name returns the element's tag name in lower case ("a", "h1").
func (e *Element) Name() string { return e.node.Data }

// Node returns the element's DOM node (golang.org/x/net/html), for what
// the methods here do not cover. The tree must not be modified.
func (e *Element) Node() *html.Node { return e.node }

// Page returns the page the element is on: URL, Depth, Meta, Title,
// Header and the rest.
func (e *Element) Page() *Page { return e.doc.page }

// Request returns the request that fetched the page, as Filters see
// requests (URL, Depth, Referrer, Anchor, Meta).
func (e *Element) Request() *Candidate {
	p := e.doc.page
	return &Candidate{URL: p.URL, Depth: p.Depth, Referrer: p.Referrer, Anchor: p.Anchor, Meta: p.Meta}
}

// Text returns the text of the element and its descendants, scripts and
// styles left out, with runs of white space collapsed to one space and
// trimmed.
func (e *Element) Text() string { return nodeText(e.node) }

// Attr returns the value of the attribute name (case-insensitive), or ""
// when the element has none.
func (e *Element) Attr(name string) string { return attr(e.node, strings.ToLower(name)) }

// ChildText returns the Text of the first descendant that matches
// selector, or "" when none does (Colly's ChildText joins the text of
// every match: ChildTexts gives them all). A bad selector matches nothing
// and fails the crawl loudly: see [Element] for what it does.
func (e *Element) ChildText(selector string) string {
	if n := e.query("ChildText", selector); n != nil {
		return nodeText(n)
	}
	return ""
}

// ChildTexts returns the Text of every descendant that matches selector,
// in document order.
func (e *Element) ChildTexts(selector string) []string {
	var out []string
	for _, n := range e.queryAll("ChildTexts", selector) {
		out = append(out, nodeText(n))
	}
	return out
}

// ChildAttr returns the attribute name of the first descendant that
// matches selector and has it, or "".
func (e *Element) ChildAttr(selector, name string) string {
	name = strings.ToLower(name)
	for _, n := range e.queryAll("ChildAttr", selector) {
		if v, ok := lookupAttr(n, name); ok {
			return v
		}
	}
	return ""
}

// ChildAttrs returns the attribute name of every descendant that matches
// selector and has it, in document order.
func (e *Element) ChildAttrs(selector, name string) []string {
	name = strings.ToLower(name)
	var out []string
	for _, n := range e.queryAll("ChildAttrs", selector) {
		if v, ok := lookupAttr(n, name); ok {
			out = append(out, v)
		}
	}
	return out
}

// ForEach calls fn for every descendant that matches selector, in
// document order, with its index among them.
func (e *Element) ForEach(selector string, fn func(i int, child *Element)) {
	for i, n := range e.queryAll("ForEach", selector) {
		fn(i, &Element{node: n, doc: e.doc})
	}
}

// Find returns the descendants that match selector, in document order,
// as goquery's Find does: e.Find("ul.items").Find("li").Length(). A bad
// selector finds nothing and is reported as for ChildText.
func (e *Element) Find(selector string) Elements {
	nodes := e.queryAll("Find", selector)
	out := make(Elements, len(nodes))
	for i, n := range nodes {
		out[i] = &Element{node: n, doc: e.doc}
	}
	return out
}

// Elements is what Find returns: elements in document order, with
// goquery's chaining methods. The zero Elements is empty and every method
// works on it.
type Elements []*Element

// Length returns how many elements there are.
func (es Elements) Length() int { return len(es) }

// Find returns the descendants of each element that match selector, in
// order, each once.
func (es Elements) Find(selector string) Elements {
	return es.each(func(e *Element) Elements { return e.Find(selector) })
}

// each returns what f selects from each element, in order, each once.
func (es Elements) each(f func(*Element) Elements) Elements {
	var out Elements
	seen := make(map[*html.Node]bool)
	for _, e := range es {
		for _, g := range f(e) {
			if !seen[g.node] {
				seen[g.node] = true
				out = append(out, g)
			}
		}
	}
	return out
}

// First returns the first element alone (empty when there is none).
func (es Elements) First() Elements {
	if len(es) == 0 {
		return nil
	}
	return es[:1]
}

// Text returns the Text of the elements joined by a space ("" for none),
// as goquery's Text joins them (without its spaces' quirks).
func (es Elements) Text() string {
	parts := make([]string, 0, len(es))
	for _, e := range es {
		if t := e.Text(); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " ")
}

// Attr returns the attribute name of the first element that has it, and
// whether one has.
func (es Elements) Attr(name string) (string, bool) {
	name = strings.ToLower(name)
	for _, e := range es {
		if v, ok := lookupAttr(e.node, name); ok {
			return v, true
		}
	}
	return "", false
}

// Each calls fn for every element with its index.
func (es Elements) Each(fn func(i int, e *Element)) {
	for i, e := range es {
		fn(i, e)
	}
}

// AbsURL resolves ref (an href or src value) against the page's base URL
// (its <base href>, else its URL) and returns it, or "" when ref is empty
// or does not parse.
func (e *Element) AbsURL(ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return ""
	}
	u, err := e.doc.baseURL().Parse(ref)
	if err != nil {
		return ""
	}
	return u.String()
}

// Follow queues ref, resolved against the page's base URL, as a link
// found on the page (Crawler.Enqueue with FromPage: depth, filters, trap
// rules and the page's Meta apply); the element's text is its anchor
// text. ref is typically e.Attr("href"). It reports whether the URL was
// queued.
func (e *Element) Follow(ref string, opts ...EnqueueOption) (bool, error) {
	abs := e.AbsURL(ref)
	if abs == "" {
		return false, fmt.Errorf("trawl: follow %q: not a URL", ref)
	}
	all := append([]EnqueueOption{FromPage(e.doc.page), WithAnchor(e.Text())}, opts...)
	return e.doc.c.Enqueue(e.doc.ctx, abs, all...)
}

// Emit gives item to the crawler's ItemSink (see Crawler.Emit). A failure
// is also reported to Events.OnError with the page's URL.
func (e *Element) Emit(item any) error {
	err := e.doc.c.Emit(e.doc.ctx, item)
	if err != nil {
		if ev := e.doc.c.cfg.events.OnError; ev != nil {
			ev(e.doc.ctx, e.doc.page.URL.String(), err)
		}
	}
	return err
}

func (e *Element) query(method, selector string) *html.Node {
	m := e.matcher(method, selector)
	if m == nil {
		return nil
	}
	return cascadia.Query(e.node, m)
}

func (e *Element) queryAll(method, selector string) []*html.Node {
	m := e.matcher(method, selector)
	if m == nil {
		return nil
	}
	return cascadia.QueryAll(e.node, m)
}

// matcher returns selector compiled, or nil for a bad one, which it
// reports: counted in Stats.Errors.Kinds["selector"], given to
// Events.OnError with the page's URL, and the first one returned by Run.
// badSelector reports err, a CSS selector or XPath expression that does
// not compile, as the crawl's error for the page: counted, passed to
// OnError, and kept for Run to return if it is the first.
func (e *Element) badSelector(err error) {
	c := e.doc.c
	c.stats.errorKind("selector")
	c.badSelector.CompareAndSwap(nil, &err)
	c.onError(e.doc.ctx, e.doc.page.URL.String(), err)
}

func (e *Element) matcher(method, selector string) cascadia.Matcher {
	c := e.doc.c
	m, err := c.selector(selector)
	if err != nil {
		e.badSelector(fmt.Errorf("trawl: Element.%s(%q): bad selector: %w", method, selector, err))
	}
	return m
}

// selectors caches the selectors and XPath expressions Element methods
// compile; a bad one is kept with its error, and logged once.
type selectors struct {
	mu sync.RWMutex
	m  map[selectorKey]compiledSelector
}

// selectorKey is a CSS selector, or an XPath expression.
type selectorKey struct {
	s     string
	xpath bool
}

type compiledSelector struct {
	m   cascadia.Matcher // nil for a bad selector
	x   *compiledXPath   // an XPath's, nil for a bad one
	err error
}

// put caches cs under key, emptying the cache when it is full.
func (s *selectors) put(key selectorKey, cs compiledSelector) {
	s.mu.Lock()
	if s.m == nil || len(s.m) >= maxCachedSelectors {
		s.m = make(map[selectorKey]compiledSelector)
	}
	s.m[key] = cs
	s.mu.Unlock()
}

// maxCachedSelectors bounds the cache (selectors built from page content
// would otherwise grow it without end).
const maxCachedSelectors = 1024

func (c *Crawler) selector(sel string) (cascadia.Matcher, error) {
	key := selectorKey{s: sel}
	c.sels.mu.RLock()
	cs, ok := c.sels.m[key]
	c.sels.mu.RUnlock()
	if ok {
		return cs.m, cs.err
	}
	g, err := cascadia.ParseGroup(sel)
	if err != nil {
		c.log.Warn("bad selector in an Element method: it matches nothing", "selector", sel, "err", err)
		cs.err = err
	} else {
		cs.m = g
	}
	c.sels.put(key, cs)
	return cs.m, cs.err
}

func (c *Crawler) baseSel() cascadia.Matcher {
	m, _ := c.selector("base[href]")
	return m
}

func lookupAttr(n *html.Node, name string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == name {
			return a.Val, true
		}
	}
	return "", false
}

func attr(n *html.Node, name string) string {
	v, _ := lookupAttr(n, name)
	return v
}

// isBlock reports whether tag's text is set apart from the text around it
// by a space.
func isBlock(tag string) bool {
	switch tag {
	case "br", "p", "div", "li", "td", "th", "tr", "h1", "h2", "h3", "h4", "h5", "h6",
		"section", "article", "header", "footer", "nav", "ul", "ol", "dt", "dd", "blockquote", "pre", "hr":
		return true
	}
	return false
}

// nodeText collects the text under n, without scripts and styles, with
// white space collapsed.
func nodeText(n *html.Node) string {
	var b strings.Builder
	space := false
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			for _, r := range n.Data {
				switch r {
				case ' ', '\t', '\n', '\r', '\f', '\u00a0':
					space = b.Len() > 0
				default:
					if space {
						b.WriteByte(' ')
						space = false
					}
					b.WriteRune(r)
				}
			}
			return
		case html.ElementNode:
			switch n.Data {
			case "script", "style", "template", "noscript":
				return
			}
		}
		block := n.Type == html.ElementNode && isBlock(n.Data)
		if block {
			space = space || b.Len() > 0
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			walk(ch)
		}
		if block {
			space = space || b.Len() > 0
		}
	}
	walk(n)
	return b.String()
}
