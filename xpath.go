package trawl

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/antchfx/xpath"
	"golang.org/x/net/html"
)

// WithXPath calls fn for every element of an HTML page that the XPath 1.0
// expression selects, in document order, as Scrapy's response.xpath does:
// WithXPath("//div[@class='product']", fn) is WithHTML("div.product", fn)
// for pages whose class attribute holds that one class. It is WithHTML
// in all else: the same Element, the same moment (after Events.OnPage,
// before the Store, callbacks in the order given, WithHTML's and
// WithXPath's together), and New fails on a bad expression. Only element
// nodes reach fn; an expression that selects attributes or text
// ("//a/@href") is for Element.XPathTexts.
//
// The engine is github.com/antchfx/xpath (XPath 1.0, its functions and
// axes, maintained, no dependencies of its own), run over the same DOM
// the CSS selectors see (golang.org/x/net/html nodes, through a
// navigator of trawl's own): a page is parsed once whatever mix of CSS
// and XPath callbacks it has. Names are matched as the HTML parser wrote
// them, in lower case ("//h1", not "//H1"); SVG and MathML elements keep
// their names without a prefix ("//svg//path"), and namespaced attributes
// keep theirs ("@xlink:href"). Default: none.
func WithXPath(expr string, fn func(ctx context.Context, e *Element)) Option {
	return func(c *config) { c.html = append(c.html, htmlCallback{selector: expr, fn: fn, isXPath: true}) }
}

// compiledXPath is an XPath expression compiled once and shared by the
// workers. Select clones the expression's query, so selecting a node set
// is safe for concurrent use; Evaluate, which scalar expressions
// (count(), string(), ...) need, runs the shared query itself, and so
// under mu.
type compiledXPath struct {
	expr  *xpath.Expr
	nodes bool // the expression's value is a node set

	mu sync.Mutex // serializes Evaluate
}

// compileXPath compiles expr and finds whether its value is a node set, by
// evaluating it once on an empty document.
//
// antchfx/xpath's parser stops at the end of the first complete
// expression and ignores what follows, so "//p)" and "//a[@x] b" would
// compile to "//p" and "//a[@x]" and select something else than the
// program meant, silently. Compiling expr again as the first argument of
// concat() makes the parser read past it: a stray ")", "]", name or ","
// after it is an error there.
func compileXPath(expr string) (*compiledXPath, error) {
	x, err := xpath.Compile(expr)
	if err != nil {
		return nil, err
	}
	if _, err := xpath.Compile("concat(" + expr + ", '')"); err != nil {
		return nil, errors.New("unexpected text after the expression")
	}
	cx := &compiledXPath{expr: x}
	empty := &html.Node{Type: html.DocumentNode}
	_, cx.nodes = x.Evaluate(newNav(empty, empty)).(*xpath.NodeIterator)
	return cx, nil
}

// selectNodes returns the nodes expr selects from n (for a node set), in
// document order and each once, and the value of a scalar expression, as a
// string, otherwise.
func (cx *compiledXPath) selectNodes(d *document, n *html.Node) (nodes []xnode, scalar string, isScalar bool) {
	root := d.root
	if !cx.nodes {
		cx.mu.Lock()
		v := cx.expr.Evaluate(newNav(root, n))
		cx.mu.Unlock()
		switch v := v.(type) {
		case string:
			return nil, v, true
		case float64:
			return nil, strconv.FormatFloat(v, 'f', -1, 64), true
		case bool:
			return nil, strconv.FormatBool(v), true
		}
		return nil, "", true
	}
	it := cx.expr.Select(newNav(root, n))
	for it.MoveNext() {
		if nav, ok := it.Current().(*htmlNav); ok {
			nodes = append(nodes, xnode{n: nav.cur, attr: nav.attr})
		}
	}
	return d.inOrder(nodes), "", false
}

// inOrder returns nodes in document order, each once. antchfx/xpath gives
// a step's results per context node (".//div/p" with nested divs) and
// may give a node twice (".//li//a" with nested lists), where XPath's
// node-sets, and lxml's and Scrapy's results, are in document order
// without repeats. Results in order already (most are) are checked pair
// by pair, at a cost bounded by the part of the tree they span; others are
// sorted by the page's nodes numbered in document order, once per page.
func (d *document) inOrder(nodes []xnode) []xnode {
	ordered := true
	for i := 1; i < len(nodes) && ordered; i++ {
		a, b := nodes[i-1], nodes[i]
		ordered = a.n == b.n && a.attr < b.attr || a.n != b.n && precedes(a.n, b.n)
	}
	if ordered {
		return nodes
	}
	d.orderOnce.Do(func() {
		d.order = make(map[*html.Node]int)
		var walk func(*html.Node)
		walk = func(n *html.Node) {
			d.order[n] = len(d.order)
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(d.root)
	})
	slices.SortFunc(nodes, func(a, b xnode) int {
		return cmp.Or(cmp.Compare(d.order[a.n], d.order[b.n]), cmp.Compare(a.attr, b.attr))
	})
	return slices.Compact(nodes)
}

// precedes reports whether a comes before b in document order (a != b):
// a is an ancestor of b, or an ancestor-or-self of a is an earlier
// sibling of one of b. The sibling scan goes forward from a's side, so
// for nodes in order it costs the distance between them.
func precedes(a, b *html.Node) bool {
	depth := func(n *html.Node) (d int) {
		for ; n.Parent != nil; n = n.Parent {
			d++
		}
		return d
	}
	x, y := a, b
	dx, dy := depth(x), depth(y)
	for ; dx > dy; dx-- {
		x = x.Parent
	}
	for ; dy > dx; dy-- {
		y = y.Parent
	}
	if x == y { // one is an ancestor of the other
		return x == a
	}
	for x.Parent != y.Parent {
		x, y = x.Parent, y.Parent
	}
	for s := x.NextSibling; s != nil; s = s.NextSibling {
		if s == y {
			return true
		}
	}
	return false
}

// xnode is a node an XPath selected: an HTML node, or one of an element's
// attributes (attr >= 0).
type xnode struct {
	n    *html.Node
	attr int
}

// value is the string an XPath node stands for in XPathText: an
// attribute's value as written, the text of an element or a text node
// with its white space collapsed (as Element.Text), a comment's text.
func (x xnode) value() string {
	switch {
	case x.attr >= 0:
		return x.n.Attr[x.attr].Val
	case x.n.Type == html.CommentNode:
		return x.n.Data
	}
	return nodeText(x.n)
}

// XPath returns the elements that the XPath 1.0 expression selects, with
// the element as the context node, in document order, as Scrapy's
// Selector.xpath does. As in XPath (and Scrapy), an expression that starts
// with "/" or "//" searches the whole page; ".//li" searches the element's
// descendants, as Find("li") does. Nodes that are not elements (text,
// attributes) and the value of an expression that is not a node set
// (count(...)) are left out: XPathText and XPathTexts give them. A bad
// expression selects nothing and fails the crawl loudly, as a bad CSS
// selector does: see [Element].
func (e *Element) XPath(expr string) Elements {
	nodes, _, _ := e.xpath("XPath", expr)
	return e.doc.elements(nodes)
}

// XPathText returns the first node the expression selects as a string
// (Scrapy's .xpath(expr).get()): an attribute's value ("a/@href"), the
// text of an element or of a text node ("h1", "h1/text()") with white
// space collapsed as Text does (text nodes of white space alone are left
// out), a comment's text; or the value of an expression that is not a
// node set: "3" for "count(.//li)", "true" for a test. It returns "" when
// nothing is selected.
func (e *Element) XPathText(expr string) string {
	nodes, scalar, isScalar := e.xpath("XPathText", expr)
	if isScalar {
		return scalar
	}
	if v := values(nodes, 1); len(v) > 0 {
		return v[0]
	}
	return ""
}

// XPathTexts returns every node the expression selects as a string (see
// XPathText), in document order (Scrapy's .xpath(expr).getall()):
// XPathTexts(".//a/@href") gives every link's href. An expression that is
// not a node set gives its one value.
func (e *Element) XPathTexts(expr string) []string {
	nodes, scalar, isScalar := e.xpath("XPathTexts", expr)
	if isScalar {
		return []string{scalar}
	}
	return values(nodes, len(nodes))
}

// values returns the values of the first max nodes, less text nodes of
// white space alone.
func values(nodes []xnode, max int) []string {
	var out []string
	for _, x := range nodes {
		if len(out) == max {
			break
		}
		v := x.value()
		if v == "" && x.attr < 0 && x.n.Type == html.TextNode {
			continue
		}
		out = append(out, v)
	}
	return out
}

// XPath returns the elements the expression selects from each element, in
// order, each once (see Element.XPath).
func (es Elements) XPath(expr string) Elements {
	return es.each(func(e *Element) Elements { return e.XPath(expr) })
}

// xpath evaluates expr with e as the context node; a bad expression is
// reported as a bad selector is (see matcher).
func (e *Element) xpath(method, expr string) ([]xnode, string, bool) {
	c := e.doc.c
	cx, err := c.xpathExpr(expr)
	if err != nil {
		e.badSelector(fmt.Errorf("trawl: Element.%s(%q): bad XPath: %w", method, expr, err))
		return nil, "", false
	}
	return cx.selectNodes(e.doc, e.node)
}

// xpathExpr returns expr compiled, from the cache the CSS selectors use
// (a bad expression is kept with its error, and logged once).
func (c *Crawler) xpathExpr(expr string) (*compiledXPath, error) {
	key := selectorKey{s: expr, xpath: true}
	c.sels.mu.RLock()
	cs, ok := c.sels.m[key]
	c.sels.mu.RUnlock()
	if ok {
		return cs.x, cs.err
	}
	cx, err := compileXPath(expr)
	if err != nil {
		c.log.Warn("bad XPath in an Element method: it selects nothing", "xpath", expr, "err", err)
		cs.err = err
	} else {
		cs.x = cx
	}
	c.sels.put(key, cs)
	return cs.x, cs.err
}

// htmlNav is an xpath.NodeNavigator over a golang.org/x/net/html tree:
// the cursor is on cur, or on its attribute attr when attr >= 0. Doctype
// nodes are skipped, as they are no XPath node.
type htmlNav struct {
	root, cur *html.Node
	attr      int
}

func newNav(root, cur *html.Node) *htmlNav { return &htmlNav{root: root, cur: cur, attr: -1} }

func (h *htmlNav) NodeType() xpath.NodeType {
	switch h.cur.Type {
	case html.DocumentNode:
		return xpath.RootNode
	case html.TextNode:
		return xpath.TextNode
	case html.CommentNode:
		return xpath.CommentNode
	}
	if h.attr >= 0 {
		return xpath.AttributeNode
	}
	return xpath.ElementNode
}

func (h *htmlNav) LocalName() string {
	if h.attr >= 0 {
		return h.cur.Attr[h.attr].Key
	}
	return h.cur.Data
}

func (h *htmlNav) Prefix() string {
	if h.attr >= 0 {
		return h.cur.Attr[h.attr].Namespace
	}
	return ""
}

func (h *htmlNav) Value() string {
	switch {
	case h.attr >= 0:
		return h.cur.Attr[h.attr].Val
	case h.cur.Type == html.TextNode || h.cur.Type == html.CommentNode:
		return h.cur.Data
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				b.WriteString(c.Data)
			case html.ElementNode:
				walk(c)
			}
		}
	}
	walk(h.cur)
	return b.String()
}

func (h *htmlNav) Copy() xpath.NodeNavigator { n := *h; return &n }

func (h *htmlNav) MoveToRoot() { h.cur, h.attr = h.root, -1 }

func (h *htmlNav) MoveToParent() bool {
	switch {
	case h.attr >= 0:
		h.attr = -1
		return true
	case h.cur.Parent != nil && h.cur != h.root:
		h.cur = h.cur.Parent
		return true
	}
	return false
}

func (h *htmlNav) MoveToNextAttribute() bool {
	if h.cur.Type != html.ElementNode || h.attr+1 >= len(h.cur.Attr) {
		return false
	}
	h.attr++
	return true
}

// xpathNode reports whether n is a node XPath sees.
func xpathNode(n *html.Node) bool { return n.Type != html.DoctypeNode && n.Type != html.RawNode }

func (h *htmlNav) MoveToChild() bool {
	if h.attr >= 0 {
		return false
	}
	for c := h.cur.FirstChild; c != nil; c = c.NextSibling {
		if xpathNode(c) {
			h.cur = c
			return true
		}
	}
	return false
}

func (h *htmlNav) MoveToFirst() bool {
	if h.attr >= 0 || h.cur.Parent == nil || h.cur == h.root {
		return false
	}
	for c := h.cur.Parent.FirstChild; c != nil; c = c.NextSibling {
		if xpathNode(c) {
			h.cur = c
			return true
		}
	}
	return false
}

func (h *htmlNav) MoveToNext() bool {
	if h.attr >= 0 || h.cur == h.root {
		return false
	}
	for c := h.cur.NextSibling; c != nil; c = c.NextSibling {
		if xpathNode(c) {
			h.cur = c
			return true
		}
	}
	return false
}

func (h *htmlNav) MoveToPrevious() bool {
	if h.attr >= 0 || h.cur == h.root {
		return false
	}
	for c := h.cur.PrevSibling; c != nil; c = c.PrevSibling {
		if xpathNode(c) {
			h.cur = c
			return true
		}
	}
	return false
}

func (h *htmlNav) MoveTo(other xpath.NodeNavigator) bool {
	o, ok := other.(*htmlNav)
	if !ok || o.root != h.root {
		return false
	}
	*h = *o
	return true
}

// String is the node's value, for the xpath package's debugging.
func (h *htmlNav) String() string { return h.Value() }

// xpathElements returns the elements cx selects with e as the context
// node (WithXPath's callbacks).
func (e *Element) xpathElements(cx *compiledXPath) Elements {
	nodes, _, _ := cx.selectNodes(e.doc, e.node)
	return e.doc.elements(nodes)
}

// elements returns the elements among nodes.
func (d *document) elements(nodes []xnode) Elements {
	var out Elements
	for _, x := range nodes {
		if x.attr < 0 && x.n.Type == html.ElementNode {
			out = append(out, &Element{node: x.n, doc: d})
		}
	}
	return out
}
