package content

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/trawl-dev/trawl/internal/htmltext"
)

// DocPage is one page of the documentation corpus: an HTML file of an
// installed Debian documentation package, read in place, and its truth.
// One page is one line of truth.jsonl (see cmd docscorpus).
type DocPage struct {
	ID        string `json:"id"`        // site/relative path, unique
	Site      string `json:"site"`      // the Debian package (one site each, rust-doc two)
	Generator string `json:"generator"` // sphinx, docbook, publican, javadoc, rustdoc, mdbook
	Lang      string `json:"lang"`      // language of the page (BCP 47 as the site names it)
	Path      string `json:"path"`      // the HTML file, absolute
	URL       string `json:"url"`       // where trawl-docs' nginx serves it on loopback
	Text      string `json:"text"`      // the truth: the main block's text, one block a line
}

// DocSite is one documentation package: where its pages are, which of
// them are content pages, how many to take, and how its generator marks the
// main block.
type DocSite struct {
	Name   string // the Debian package
	Dir    string // its HTML root
	URL    string // the loopback address that serves Dir
	Target int    // pages to take (a stable sample by hash of the path); 0: all
	// page reports whether the file rel (slash-separated, relative to Dir)
	// is a content page, and its generator and language.
	page func(rel string) (generator, lang string, ok bool)
}

// DocSites are the five Debian documentation packages of the corpus with
// their default sample sizes (about 5,400 pages in all).
func DocSites() []DocSite {
	return []DocSite{
		{Name: "python3-doc", Dir: "/usr/share/doc/python3.11/html", URL: "http://127.0.2.1/", page: pythonPage},
		{Name: "postgresql-doc-15", Dir: "/usr/share/doc/postgresql-doc-15/html", URL: "http://127.0.2.2/", page: postgresPage},
		{Name: "debian-handbook", Dir: "/usr/share/doc/debian-handbook/html", URL: "http://127.0.2.3/", Target: 1300, page: handbookPage},
		{Name: "openjdk-17-doc", Dir: "/usr/share/doc/openjdk-17-doc/api", URL: "http://127.0.2.4/api/", Target: 800, page: javadocPage},
		{Name: "rust-doc/std", Dir: "/usr/share/doc/rust-doc/html", URL: "http://127.0.2.5/", Target: 800, page: rustdocPage},
		{Name: "rust-doc/books", Dir: "/usr/share/doc/rust-doc/html", URL: "http://127.0.2.5/", Target: 800, page: mdbookPage},
	}
}

// pythonPage: every page of the Python docs (Sphinx) but the generated
// indexes (genindex-*, the module index) and the search page, which hold
// link lists or nothing without scripts.
func pythonPage(rel string) (string, string, bool) {
	base := filepath.Base(rel)
	if strings.HasPrefix(rel, "_") || strings.HasPrefix(base, "genindex") ||
		base == "py-modindex.html" || base == "search.html" {
		return "", "", false
	}
	return "sphinx", "en", true
}

// postgresPage: every page of the PostgreSQL manual (DocBook XSL) but its
// back-of-book index.
func postgresPage(rel string) (string, string, bool) {
	if rel == "bookindex.html" {
		return "", "", false
	}
	return "docbook", "en", true
}

// handbookPage: every page of every language of the Debian Administrator's
// Handbook (DocBook through Publican) but each language's table of
// contents (index.html) and the language list.
func handbookPage(rel string) (string, string, bool) {
	lang, name, ok := strings.Cut(rel, "/")
	if !ok || strings.Contains(name, "/") || name == "index.html" {
		return "", "", false
	}
	return "publican", lang, true
}

// javadocPage: the class and package pages of the JDK API (javadoc), not
// the generated indexes, trees, "use" pages and the serialized form.
func javadocPage(rel string) (string, string, bool) {
	parts := strings.Split(rel, "/")
	if len(parts) < 3 || !strings.HasPrefix(parts[0], "java") && !strings.HasPrefix(parts[0], "jdk") {
		return "", "", false
	}
	base := parts[len(parts)-1]
	if slices.Contains(parts, "class-use") || slices.Contains(parts, "doc-files") {
		return "", "", false
	}
	if base == "package-summary.html" || base[0] >= 'A' && base[0] <= 'Z' {
		return "javadoc", "en", true
	}
	return "", "", false
}

// rustdocCrates are the crates whose API pages rust-doc ships.
var rustdocCrates = []string{"std", "core", "alloc", "proc_macro", "test"}

// rustdocPage: the item and module pages of the Rust standard library
// (rustdoc), not the source view (src/), the trait implementor lists and
// the all-items list.
func rustdocPage(rel string) (string, string, bool) {
	crate, name, ok := strings.Cut(rel, "/")
	if !ok || !slices.Contains(rustdocCrates, crate) || filepath.Base(name) == "all.html" {
		return "", "", false
	}
	return "rustdoc", "en", true
}

// mdbookPage: the chapters of the books rust-doc ships (The Rust
// Programming Language, the Reference, the Nomicon, Rust by Example, ...:
// mdBook), not each book's one-page print version or table of contents,
// nor the 264 pages of the book's old editions, each the same notice that
// the edition is no longer distributed.
func mdbookPage(rel string) (string, string, bool) {
	book, name, ok := strings.Cut(rel, "/")
	if !ok || slices.Contains(rustdocCrates, book) || book == "src" || book == "implementors" {
		return "", "", false
	}
	if book == "book" && (strings.HasPrefix(name, "2018-edition/") || strings.HasPrefix(name, "first-edition/") || strings.HasPrefix(name, "second-edition/")) {
		return "", "", false
	}
	switch filepath.Base(name) {
	case "print.html", "toc.html", "404.html":
		return "", "", false
	}
	return "mdbook", "en", true
}

// BuildDocs reads the sites' pages in place (nothing is copied) and returns
// the corpus: for every sampled content page, its truth. scale multiplies
// every site's Target (1 for the default corpus; sites without a Target
// are scaled from their size). Pages whose generator's main block is
// missing or holds fewer than minTruthWords words (redirect stubs) are
// passed over for the next page in hash order. A site whose directory is
// missing is an error wrapping fs.ErrNotExist.
func BuildDocs(sites []DocSite, scale float64) ([]DocPage, error) {
	var out []DocPage
	for _, s := range sites {
		dir, err := filepath.EvalSymlinks(s.Dir)
		if err != nil {
			return nil, fmt.Errorf("docs corpus: %s: %w", s.Name, err)
		}
		var rels []string
		err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.HasSuffix(path, ".html") {
				return nil
			}
			rel, _ := filepath.Rel(dir, path)
			rel = filepath.ToSlash(rel)
			if _, _, ok := s.page(rel); ok {
				rels = append(rels, rel)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("docs corpus: %s: %w", s.Name, err)
		}
		target := s.Target
		if target == 0 {
			target = len(rels)
		}
		target = int(float64(target)*scale + 0.5)
		var site []DocPage
		for _, rel := range byHash(rels) {
			if len(site) == target {
				break
			}
			gen, lang, _ := s.page(rel)
			path := filepath.Join(dir, rel)
			b, err := os.ReadFile(path)
			if err != nil {
				return nil, fmt.Errorf("docs corpus: %w", err)
			}
			text, ok := DocTruth(gen, b)
			if !ok {
				continue
			}
			site = append(site, DocPage{
				ID: s.Name + "/" + rel, Site: s.Name, Generator: gen, Lang: lang,
				Path: path, URL: s.URL + rel, Text: text,
			})
		}
		slices.SortFunc(site, func(a, b DocPage) int { return strings.Compare(a.ID, b.ID) })
		out = append(out, site...)
	}
	return out, nil
}

// byHash returns rels ordered by a hash of the path: taking the first n
// gives a sample that is stable and spread over the site.
func byHash(rels []string) []string {
	h := func(s string) uint64 {
		f := fnv.New64a()
		f.Write([]byte(s))
		return f.Sum64()
	}
	out := slices.Clone(rels)
	slices.SortFunc(out, func(a, b string) int {
		if ha, hb := h(a), h(b); ha != hb {
			if ha < hb {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	return out
}

// minTruthWords is the fewest words a main block must hold for its page to
// be in the corpus: fewer is a redirect stub ("Redirecting to ...").
const minTruthWords = 5

// DocTruth returns the truth of one page made by generator gen: the text of
// the block the generator marks as the page's main content, one block a
// line, without what no reader of the text wants. Per generator:
//
//   - sphinx: the element with role="main" (div.body), without the
//     permalink marks ("¶", a.headerlink) and the tables of contents of
//     chapter pages (div.toctree-wrapper: lists of links to the pages of
//     the chapter).
//   - docbook (PostgreSQL): the body without the navigation bars above and
//     below the page (div.navheader, div.navfooter: prev, up, home, next)
//     and the tables of contents of chapter pages (div.toc).
//   - publican (Debian Handbook): the body without the site banner
//     (#banner), the prev/up/home/next bars (ul.docnav) and the tables of
//     contents (div.toc).
//   - javadoc: the main element without the tab buttons over summary
//     tables (div.table-tabs: "All Methods", "Static Methods", ...).
//   - rustdoc: #main-content without the out-of-band links beside headings
//     (.out-of-band: stable-since version, "source", "[−]"), the "source"
//     links (a.srclink), the "Expand description" toggles (summary.hideme)
//     the section marks (a.anchor, "§") and the links that run an example
//     in the playground (a.test-arrow, "Run").
//   - mdbook: the main element, as is (its prev/next arrows are outside).
//
// For every generator, invisible text (script, style, template, ... as
// internal/htmltext defines it; the hidden attribute) and buttons and form
// controls are not part of the truth. ok is false when the block is missing
// or holds fewer than minTruthWords words.
func DocTruth(gen string, page []byte) (text string, ok bool) {
	root, drop := docRoot(gen, page)
	if root == nil {
		return "", false
	}
	var sb strings.Builder
	blockText(&sb, root, drop, false)
	text = tidyLines(sb.String())
	return text, len(strings.Fields(text)) >= minTruthWords
}

// docRoot returns the main block of a page made by generator gen and
// what to leave out of it (see DocTruth); nil when there is none.
func docRoot(gen string, page []byte) (root *html.Node, drop func(*html.Node) bool) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil, nil
	}
	switch gen {
	case "sphinx":
		root = find(doc, func(n *html.Node) bool { return attr(n, "role") == "main" })
		drop = func(n *html.Node) bool { return hasClass(n, "headerlink") || hasClass(n, "toctree-wrapper") }
	case "docbook":
		root = find(doc, isAtom(atom.Body))
		drop = func(n *html.Node) bool {
			return hasClass(n, "navheader") || hasClass(n, "navfooter") || hasClass(n, "toc")
		}
	case "publican":
		root = find(doc, isAtom(atom.Body))
		drop = func(n *html.Node) bool {
			return attr(n, "id") == "banner" || hasClass(n, "docnav") || hasClass(n, "toc")
		}
	case "javadoc":
		root = find(doc, isAtom(atom.Main))
		drop = func(n *html.Node) bool { return hasClass(n, "table-tabs") }
	case "rustdoc":
		root = find(doc, func(n *html.Node) bool { return attr(n, "id") == "main-content" })
		drop = func(n *html.Node) bool {
			return hasClass(n, "out-of-band") || hasClass(n, "srclink") || hasClass(n, "anchor") || hasClass(n, "test-arrow") ||
				n.DataAtom == atom.Summary && hasClass(n, "hideme")
		}
	case "mdbook":
		root = find(doc, isAtom(atom.Main))
		drop = func(*html.Node) bool { return false }
	}
	return root, drop
}

// blockText writes the text under n, a line break around every element
// that is not inline.
func blockText(sb *strings.Builder, n *html.Node, drop func(*html.Node) bool, inPre bool) {
	switch n.Type {
	case html.TextNode:
		if inPre {
			sb.WriteString(n.Data)
		} else {
			// source line breaks are spaces; tidyLines collapses runs
			sb.WriteString(lineBreaks.Replace(n.Data))
		}
		return
	case html.ElementNode:
		if htmltext.Hidden(n.DataAtom) || drop(n) || hasAttr(n, "hidden") {
			return
		}
		switch n.DataAtom {
		case atom.Button, atom.Input, atom.Select, atom.Textarea, atom.Option:
			return
		case atom.Br:
			sb.WriteByte('\n')
			return
		}
	case html.DocumentNode:
	default:
		return
	}
	inline := n.Type == html.ElementNode && inlineAtoms[n.DataAtom]
	pre := n.DataAtom == atom.Pre
	if !inline {
		sb.WriteByte('\n')
	}
	if pre {
		sb.WriteString("\x00") // keep the lines of code: see tidyLines
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		blockText(sb, c, drop, inPre || pre)
	}
	if pre {
		sb.WriteString("\x01")
	}
	if !inline {
		sb.WriteByte('\n')
	}
}

var lineBreaks = strings.NewReplacer("\n", " ", "\r", " ", "\t", " ", "\f", " ")

// tidyLines collapses white space within lines (keeping it inside code,
// marked by NUL ... SOH) and drops empty lines.
func tidyLines(s string) string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s, 0)
		prose := s
		if i >= 0 {
			prose = s[:i]
		}
		for _, l := range strings.Split(prose, "\n") {
			if l = strings.Join(strings.Fields(l), " "); l != "" {
				out = append(out, l)
			}
		}
		if i < 0 {
			break
		}
		s = s[i+1:]
		j := strings.IndexByte(s, 1)
		if j < 0 {
			j = len(s)
		}
		code := strings.Trim(strings.ReplaceAll(s[:j], "\x00", ""), "\n")
		code = strings.ReplaceAll(code, "\x01", "")
		if strings.TrimSpace(code) != "" {
			out = append(out, strings.TrimRight(code, " \t\n"))
		}
		if j == len(s) {
			break
		}
		s = s[j+1:]
	}
	return strings.Join(out, "\n")
}

// inlineAtoms are the elements whose text runs on with their neighbours'.
var inlineAtoms = map[atom.Atom]bool{
	atom.A: true, atom.Abbr: true, atom.B: true, atom.Bdi: true, atom.Bdo: true,
	atom.Big: true, atom.Cite: true, atom.Code: true, atom.Data: true, atom.Del: true,
	atom.Dfn: true, atom.Em: true, atom.Font: true, atom.I: true, atom.Img: true,
	atom.Ins: true, atom.Kbd: true, atom.Mark: true, atom.Q: true, atom.S: true,
	atom.Samp: true, atom.Small: true, atom.Span: true, atom.Strong: true,
	atom.Sub: true, atom.Sup: true, atom.Time: true, atom.Tt: true, atom.U: true,
	atom.Var: true, atom.Wbr: true, atom.Label: true,
}

func isAtom(a atom.Atom) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.DataAtom == a }
}

// find returns the first element under n, in document order, for which f
// is true.
func find(n *html.Node, f func(*html.Node) bool) *html.Node {
	if n.Type == html.ElementNode && f(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if r := find(c, f); r != nil {
			return r
		}
	}
	return nil
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

func hasClass(n *html.Node, class string) bool {
	return slices.Contains(strings.Fields(attr(n, "class")), class)
}
