package maintext

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Extract returns the main content of the HTML page read from r (the
// article, post or story, without navigation, advertising, related links,
// comments and footers) as plain text shaped as the page is: paragraphs,
// headings and code blocks separated by blank lines; code (pre) with its
// line breaks and indentation; the items of a list, the rows of a table
// and the terms and definitions of a definition list one a line, the
// cells of a row joined by " | "; <br> kept as a line break. White space
// outside code is collapsed. It returns "" when the
// page has no text or no part of it reads as an article (a link list, a
// menu, fragments without sentences): never the whole page instead.
// [ExtractWithReason] says which. See the package documentation for the
// algorithm and its measured accuracy.
//
// The input is expected to be UTF-8 (as delivered by trawl's fetcher; wrap
// other encodings with golang.org/x/net/html/charset.NewReader); invalid
// bytes come out as U+FFFD, so the result is always valid UTF-8, and
// characters written decomposed come out composed (Unicode normalization
// form C, see the package documentation; not in the BTE fallback
// below). Any input
// is accepted, however malformed, and work is bounded: at most 8 MiB are
// read from r, at most 1,048,576 nodes of the parsed tree are visited and
// content nested deeper than 256 elements is ignored. Should the HTML
// parser give up on the page (golang.org/x/net/html refuses more than 512
// open elements), the result of [BTE] on the same bytes is returned
// instead. The only error is one returned by r, wrapped. A reader that
// can seek (an [io.ReadSeeker] such as *bytes.Reader) is parsed as it is
// read, without a copy of the page, and read a second time, from where it
// started, only for that fallback.
func Extract(r io.Reader) (string, error) {
	res, err := ExtractWithReason(r)
	return res.Text, err
}

// Reason says how [ExtractWithReason] came to its result, in particular
// why the text is empty.
type Reason uint8

const (
	// ReasonFound means an article was found: Text holds it.
	ReasonFound Reason = iota
	// ReasonNoText means the page has no visible text at all.
	ReasonNoText
	// ReasonNoArticle means the page has text but no part of it reads as
	// an article: only link lists, menus, short fragments without
	// sentences, text repeated across the page, or boilerplate boxes.
	// Text is empty, not the whole page.
	ReasonNoArticle
	// ReasonUnparsed means the HTML parser gave up on the page (more than
	// 512 open elements); Text is the result of [BTE] on the same bytes.
	ReasonUnparsed
)

// String returns the reason in a few words, for logs.
func (r Reason) String() string {
	switch r {
	case ReasonFound:
		return "article found"
	case ReasonNoText:
		return "no text"
	case ReasonNoArticle:
		return "no article"
	case ReasonUnparsed:
		return "unparsed, BTE used"
	}
	return "Reason(" + strconv.Itoa(int(r)) + ")"
}

// Result is the result of [ExtractWithReason].
type Result struct {
	Text   string // the main text, as Extract returns it
	Reason Reason // ReasonFound when Text holds an article
}

// ExtractWithReason is [Extract] with the reason for its result, so that
// a caller can tell a page without an article (Reason ReasonNoArticle or
// ReasonNoText, Text empty) from one whose article was found.
func ExtractWithReason(r io.Reader) (Result, error) {
	return extractFrom(r, false)
}

// extractFrom is ExtractWithReason, rendering Markdown when md is set.
func extractFrom(r io.Reader, md bool) (Result, error) {
	// A reader that can seek back (bytes.Reader, as the crawler passes
	// the body) is parsed as it is read, without a copy of the page; it
	// is read again only for the BTE fallback.
	if rs, ok := r.(io.ReadSeeker); ok {
		if start, err := rs.Seek(0, io.SeekCurrent); err == nil {
			er := &mcErrReader{r: io.LimitReader(rs, mcMaxInput)}
			doc, err := html.Parse(er)
			if er.err != nil {
				return Result{}, fmt.Errorf("maintext: %w", er.err)
			}
			if err == nil {
				return extractNode(doc, md), nil
			}
			if _, err := rs.Seek(start, io.SeekStart); err != nil {
				return Result{}, fmt.Errorf("maintext: %w", err)
			}
		}
	}
	page, err := io.ReadAll(io.LimitReader(r, mcMaxInput))
	if err != nil {
		return Result{}, fmt.Errorf("maintext: %w", err)
	}
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		// The parser gives up on pathological nesting (more than 512 open
		// elements); the token-level finder still works there.
		s, err := BTE(bytes.NewReader(page))
		return Result{Text: s, Reason: ReasonUnparsed}, err
	}
	return extractNode(doc, md), nil
}

// mcErrReader remembers the first error other than io.EOF returned by r,
// so that a read error is told apart from the parser giving up.
type mcErrReader struct {
	r   io.Reader
	err error
}

func (e *mcErrReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF && e.err == nil {
		e.err = err
	}
	return n, err
}

// ExtractNode is [Extract] on a page that is already parsed: n is
// normally the document node returned by html.Parse, but any node works
// (only its subtree is considered, and a title is looked for in it). The
// tree is not modified, so several goroutines may run ExtractNode on one
// tree at once. The same caps as Extract apply, except the input size cap.
func ExtractNode(n *html.Node) string {
	return ExtractNodeWithReason(n).Text
}

// ExtractNodeWithReason is [ExtractNode] with the reason for its result.
func ExtractNodeWithReason(n *html.Node) Result {
	return extractNode(n, false)
}

// extractNode is ExtractNodeWithReason, rendering Markdown when md is set.
func extractNode(n *html.Node, md bool) Result {
	if n == nil {
		return Result{Reason: ReasonNoText}
	}
	w := mcSegmentLinks(n, md)
	w.markdown = md
	text, reason := w.mainText(w.title)
	return Result{Text: text, Reason: reason}
}

// mcSegment splits the page under n into blocks.
func mcSegment(n *html.Node) *mcWalker { return mcSegmentLinks(n, false) }

// mcSegmentLinks is mcSegment, recording the links of the text when links
// is set.
func mcSegmentLinks(n *html.Node, links bool) *mcWalker {
	root := mcFind(n, atom.Body)
	if root == nil {
		root = n
	}
	w := &mcWalker{title: mcTitle(n), wt: mcDefaultWeights(), root: root, bodyLen: -1, wantLinks: links}
	w.elems = append(w.elems, mcElem{tag: atom.Body, parent: -1, lastChild: -1, prev: -1, next: -1})
	w.walk(root, 0, 0, false)
	w.flush(0)
	w.elems[0].hi = int32(len(w.blocks))
	w.resolveHints()
	w.mcEvidence(mcJSONLDBody(n))
	return w
}

// mcFind returns the first element named a in n's subtree in document
// order, visiting a bounded number of nodes.
func mcFind(n *html.Node, a atom.Atom) *html.Node {
	visited := 0
	var rec func(n *html.Node, depth int) *html.Node
	rec = func(n *html.Node, depth int) *html.Node {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if visited++; visited > mcMaxNodes {
				return nil
			}
			if c.Type != html.ElementNode {
				continue
			}
			if c.DataAtom == a {
				return c
			}
			if depth < mcMaxDepth {
				if f := rec(c, depth+1); f != nil {
					return f
				}
			}
		}
		return nil
	}
	if n.Type == html.ElementNode && n.DataAtom == a {
		return n
	}
	return rec(n, 0)
}

// mcTitle returns the text of the document's <title>.
func mcTitle(n *html.Node) string {
	t := mcFind(n, atom.Title)
	if t == nil {
		return ""
	}
	var sb strings.Builder
	for c := t.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			sb.WriteString(c.Data)
		}
	}
	return sb.String()
}

// mcWeights are the scoring weights of the DOM finder.
type mcWeights struct {
	linkPenalty  float64 // cost of a linked word relative to the gain of a plain word
	blockCost    float64 // fixed cost of every block
	noStopCost   float64 // extra cost of a block without sentence punctuation
	negFactor    float64 // share of the score kept inside a negatively hinted element
	negCost      float64 // extra cost per word inside a negatively hinted element
	posBoost     float64 // gain multiplier inside a positively hinted element
	maxLinkShare float64 // blocks with a larger share of linked words are dropped
	leadWords    float64 // words allowed between the headline and the container
	siblingMin   float64 // least score of a sibling element taken in with the container
	siblingShare float64 // least score of such a sibling relative to the container's

	teaserLinkShare float64 // least share of linked words in a list of teasers
	leadMinWords    float64 // least words of a block kept between headline and container
	tailWords       float64 // edge blocks without a sentence mark shorter than this go
	bylineWords     float64 // longest byline kept right after the headline (0: none)
	captionWords    float64 // most words of an element with an image taken as its caption
	ldGain          float64 // gain per word of a block found in the JSON-LD articleBody
	bodyShare       float64 // least score of the one itemprop=articleBody element, relative to the best, to be the container
	boxShare        float64 // a closing box holds fewer words than this share of the paragraphs before it (0: no box is dropped)
	textBoxes       float64 // 1: negative hints of boxes of running text inside the text are void (see textBox); 0: never
	textBoxSame     float64 // 1: a box of running text alike in markup to one inside the text is one too, wherever it stands (see textBoxSigs); 0: never
	shortMain       float64 // 1: a main element of stubWords words or fewer around the container is kept whole, as when no article is found (see keepStub); 0: only then
	stubWords       float64 // most words of a main element kept whole when no article is found (see keepStub); 0: never
	anchorIDs       float64 // a negative id that spells its element's heading is no hint when this many ids or more on the page spell theirs (see mcAnchorID); 0: never
	mainWiden       float64 // the container widens to the main element around it when that holds this many code elements or more (see mainAround); 0: never
}

// mcDefaultWeights returns the default weights: the first ten were tuned
// on the Dragnet train split before the others existed; the others are
// round values chosen by hand on the design folds (see
// docs/maintext-evaluation.md).
func mcDefaultWeights() mcWeights {
	return mcWeights{
		linkPenalty:  1.77,
		blockCost:    1.6,
		noStopCost:   2.7,
		negFactor:    0.53,
		negCost:      7.2,
		posBoost:     1.37,
		maxLinkShare: 0.8,
		leadWords:    60,
		siblingMin:   4,
		siblingShare: 0.05,

		teaserLinkShare: 0.4,
		leadMinWords:    8,
		tailWords:       10,
		bylineWords:     15,
		captionWords:    25,
		ldGain:          0.5,
		bodyShare:       0.3,
		boxShare:        1.0 / 3,
		mainWiden:       2,
		stubWords:       50,
		textBoxes:       1,
		textBoxSame:     1,
		shortMain:       1,
		anchorIDs:       3,
	}
}

// score returns the content score of block b: positive for blocks that look
// like running text, negative for boilerplate.
func (w *mcWalker) score(b *mcBlock, hints bool) float64 {
	words, links := float64(b.words), float64(b.linkWords)
	wt := &w.wt
	s := (words - links) - wt.linkPenalty*links - wt.blockCost
	if b.stops == 0 && b.heading == 0 {
		s -= wt.noStopCost
	}
	if b.repeats >= 3 {
		s = -words - wt.blockCost
	}
	if wt.ldGain > 0 && w.evidenced(b) {
		// Text the page's JSON-LD articleBody also holds is article text,
		// whatever its links and markup.
		return max(s, 0) + wt.ldGain*words
	}
	if hints {
		e := &w.elems[b.elem]
		if e.teaser > 0 {
			// A list of teasers inside an article (related stories, "see
			// also") neither extends nor splits it.
			return min(s, 0)
		}
		// A fragment (a caption, a "load notes" line) inside a negatively
		// hinted element costs what any fragment costs: the per-word
		// penalty is for boilerplate text (comments, bios, disclaimers),
		// and charging it to a fragment would split an article in two.
		switch {
		case e.neg > w.negBase:
			if !w.weak(b) {
				s = wt.negFactor*s - wt.negCost*words
			}
		case e.pos > 0 && s > 0:
			s *= wt.posBoost
		}
	}
	return s
}

// mainText selects the main content among the blocks and renders it; the
// reason says why the text is empty, if it is.
func (w *mcWalker) mainText(title string) (string, Reason) {
	if len(w.blocks) == 0 {
		return "", ReasonNoText
	}
	w.negBase = w.commonNeg()
	best, prefix := w.container(true)
	if best < 0 {
		best, prefix = w.container(false)
	}
	if best < 0 {
		return "", ReasonNoArticle
	}
	best = w.textContainer(best, prefix)
	c := w.elems[best]
	// A run of sibling elements may beat the best single element: an
	// article split into sections, or paragraphs each in its own wrapper.
	// It replaces the element when it reaches beyond it and adds more than
	// a sibling must score to be taken in.
	if !c.articleBody {
		top := prefix[c.hi] - prefix[c.lo]
		least := max(w.wt.siblingMin, w.wt.siblingShare*top)
		if r, ok := w.bestRun(prefix); ok && (r.lo < c.lo || r.hi > c.hi) && prefix[r.hi]-prefix[r.lo] > top+least {
			c = r
		}
	}
	// A reference page (an API class, a manual section) is made of many
	// small parts, signatures, summary tables, terms and definitions,
	// and its best element is one of them. When the page marks its main
	// content (main, role="main") around the container and that holds
	// code (mainWiden code or pre elements or more: documentation, not
	// a news story, whose main element holds teasers and pleas as well),
	// the container is the main element; the rules below still drop
	// what is not plausible in it.
	w.reference = false
	if m := w.mainAround(c); m >= 0 && w.wt.mainWiden > 0 && float64(w.elems[m].codes) >= w.wt.mainWiden {
		c = w.elems[m]
		w.reference = true
	}
	keep := w.keepBlocks(c, prefix, title)
	if w.needCaptions(keep, c) || w.photoStory(keep, c) {
		// A short text beside an image is a caption when there is an
		// article around it; when there is none it is the post itself
		// (a photo or comic post).
		w.captionsOK = true
		keep = w.keepBlocks(c, prefix, title)
		w.captionsOK = false
	}
	// When the container sits above the negative hints that every block
	// of running text shares (a page builder's "widget" boxes), those
	// hints must not empty it either.
	if !w.hasText(keep) && w.negBase > 0 {
		w.negRelax = true
		keep = w.keepBlocks(c, prefix, title)
		w.negRelax = false
	}
	// When the class names led to no text at all, the container found
	// without them may hold some: running text that every hint on the
	// page scored away (a live blog under "comment" classes, a video's
	// description in a "teaser" paragraph). Its negative hints are then
	// ignored too, and it must hold running text.
	if !w.hasText(keep) {
		if alt, prefix2 := w.container(false); alt >= 0 {
			w.noHints = true
			keep2 := w.keepBlocks(w.elems[alt], prefix2, title)
			w.noHints = false
			if w.textWords(keep2) > 0 {
				keep = keep2
			}
		}
	}
	// A short page whose main element the page marks (a stub of a
	// manual: a title and one line; an API page of one member) is that
	// text, though it has no sentence or the article rules keep only a
	// part of it.
	if w.wt.stubWords > 0 && (!w.hasText(keep) || w.wt.shortMain > 0 && w.mainAround(c) >= 0) {
		w.keepStub(keep, w.wt.stubWords)
	}
	// Headings alone (a section front's title over its link lists) are
	// no article.
	if !w.hasText(keep) {
		return "", ReasonNoArticle
	}
	if w.beforeRender != nil {
		w.beforeRender(keep, c)
	}
	if w.markdown {
		return w.renderMarkdown(keep), ReasonFound
	}
	// A text the article repeats is written each time: a note under
	// every function it applies to, a table's values.
	var sb strings.Builder
	size := 0
	for i, k := range keep {
		if k {
			size += int(w.blocks[i].end-w.blocks[i].start) + 2
		}
	}
	sb.Grow(size)
	prev := mcPlace{item: -1, cell: -1, list: -1}
	for i, k := range keep {
		if !k {
			continue
		}
		b := w.blocks[i]
		at := w.place(b.elem)
		if sb.Len() > 0 {
			sb.WriteString(w.separator(prev, at))
		}
		prev = at
		sb.Write(w.buf[b.start:b.end])
	}
	if sb.Len() == 0 {
		return "", ReasonNoArticle
	}
	return sb.String(), ReasonFound
}

// keepStub keeps the blocks of the page's one main element (main,
// role="main") when it holds stubWords words or fewer, at most half of
// them in links, and a block other than a heading: the whole of a short
// page, which the rules for articles find too thin.
func (w *mcWalker) keepStub(keep []bool, most float64) {
	m := int32(-1)
	for i := range w.elems {
		if w.elems[i].main {
			if m >= 0 {
				return
			}
			m = int32(i)
		}
	}
	if m < 0 {
		return
	}
	e := w.elems[m]
	words := w.wordPrefix[e.hi] - w.wordPrefix[e.lo]
	links := w.linkPrefix[e.hi] - w.linkPrefix[e.lo]
	if words == 0 || float64(words) > most || 2*links > words {
		return
	}
	clear(keep)
	text := false
	for i := e.lo; i < e.hi; i++ {
		if b := &w.blocks[i]; w.plausible(b, e) {
			keep[i] = true
			text = text || b.heading == 0
		}
	}
	if !text {
		clear(keep[e.lo:e.hi])
	}
}

// mainAround returns the innermost element around c that the page marks
// as its main content (main, role="main"), or -1.
func (w *mcWalker) mainAround(c mcElem) int32 {
	for e := c.parent; e >= 0; e = w.elems[e].parent {
		if w.elems[e].main {
			return e
		}
	}
	return -1
}

// mcPlace is where a block sits in the lists and tables of the page: the
// innermost item (li, dt, dd or table row) around it, the table cell (td,
// th) it is in when that is inside the item, and the list the item belongs
// to (ul, ol, menu, dl or table); -1 for none.
type mcPlace struct{ item, cell, list int32 }

// place returns the place of a block whose innermost block element is e.
func (w *mcWalker) place(e int32) mcPlace {
	p := mcPlace{item: -1, cell: -1, list: -1}
	for ; e >= 0; e = w.elems[e].parent {
		switch t := w.elems[e].tag; {
		case p.item < 0 && (t == atom.Td || t == atom.Th):
			if p.cell < 0 {
				p.cell = e
			}
		case p.item < 0 && (t == atom.Li || t == atom.Dt || t == atom.Dd || t == atom.Tr):
			p.item = e
		case p.item >= 0 && mcListOf(w.elems[p.item].tag, t):
			p.list = e
			return p
		}
	}
	return p
}

// mcListOf reports whether an element named list holds items named item.
func mcListOf(item, list atom.Atom) bool {
	switch item {
	case atom.Li:
		return list == atom.Ul || list == atom.Ol || list == atom.Menu || list == atom.Dir
	case atom.Dt, atom.Dd:
		return list == atom.Dl
	case atom.Tr:
		return list == atom.Table
	}
	return false
}

// within reports whether element e is x or inside it.
func (w *mcWalker) within(e, x int32) bool {
	for ; e >= 0; e = w.elems[e].parent {
		if e == x {
			return true
		}
	}
	return false
}

// separator returns what is written between two kept blocks, the first at
// place a, the next at place b: " | " between the cells of one table row,
// a line break between the items of one list (or a list and the items
// nested in it: one item, one row, one term or definition a line), a blank
// line otherwise (paragraphs, headings, code, and paragraphs inside one
// item).
func (w *mcWalker) separator(a, b mcPlace) string {
	switch {
	case a.item < 0 || b.item < 0:
		return "\n\n"
	case a.item == b.item:
		if a.cell >= 0 && b.cell >= 0 && a.cell != b.cell && w.elems[a.item].tag == atom.Tr {
			return " | "
		}
		return "\n\n"
	case a.list >= 0 && a.list == b.list,
		w.within(b.item, a.item),                // a list nested in the item before
		b.list >= 0 && w.within(a.item, b.list): // the next item after a nested list
		return "\n"
	}
	return "\n\n"
}

// weak reports whether block b is a fragment rather than running text: no
// sentence mark, few words, not a heading, not code (pre). Bylines,
// datelines, share bars, "filed under" lines and credits look like this.
func (w *mcWalker) weak(b *mcBlock) bool {
	return b.heading == 0 && b.stops == 0 && float64(b.words) < w.wt.tailWords && w.elems[b.elem].tag != atom.Pre
}

// trim drops from the kept blocks the fragments at the edges of the
// article (weak blocks before its first and after its last paragraph of
// running text) and headings that head nothing (followed by no kept block,
// or by a heading of the same or a higher level).
func (w *mcWalker) trim(keep []bool) {
	// On a reference page, fragments before and after the text
	// (signatures, labels, "See also" lines) are part of it.
	last := -1
	var dropped []int
	for i := len(keep) - 1; i >= 0 && !w.reference; i-- {
		if !keep[i] {
			continue
		}
		if b := &w.blocks[i]; b.heading == 0 && !w.weak(b) {
			last = i
			break
		}
		keep[i] = false
		dropped = append(dropped, i)
	}
	// A list or table closing the article (facts, ingredients, figures)
	// is made of fragments too, but three or more items of it are no
	// dateline or share bar.
	w.keepListTail(keep, dropped)
	dropped = dropped[:0]
	for i := range keep {
		if w.reference {
			break
		}
		if !keep[i] {
			continue
		}
		if b := &w.blocks[i]; b.heading != 0 || !w.weak(b) {
			w.keepListHead(keep, dropped, i)
			w.reattachLead(keep, dropped, i)
			break
		}
		keep[i] = false
		dropped = append(dropped, i)
	}
	// A fragment written as one more paragraph of the article right
	// after its last one (a signature, a closing greeting) belongs to it.
	// (Before the first one, the same is a dateline as often.)
	w.reattach(keep, last)
	w.dropLabels(keep)
	w.dropPointers(keep)
	w.dropTrailingPointers(keep)
	w.dropStampedItems(keep)
	w.dropWording(keep)
	// Neither rule drops a paragraph, so both read the same sums.
	sum, par := w.textParas(keep)
	w.dropInlineBoxes(keep, sum, par)
	w.dropClosingBox(keep, sum, par)
	next := int8(0) // heading level of the next kept block, 0 for text, -1 for none
	next = -1
	for i := len(keep) - 1; i >= 0; i-- {
		if !keep[i] {
			continue
		}
		h := w.blocks[i].heading
		if h != 0 && (next == -1 || next != 0 && next <= h) {
			keep[i] = false
			continue
		}
		next = h
	}
}

// dropLabels drops the kept headings below h1 that introduce boilerplate
// rather than text: short (fewer than tailWords words, no sentence mark),
// and the block right after one is dropped for sitting in a list of
// teasers or under more negative hints than the heading ("More on this"
// over related stories, "Further information:" over a link box).
func (w *mcWalker) dropLabels(keep []bool) {
	for i := 0; i+1 < len(keep); i++ {
		b := &w.blocks[i]
		if !keep[i] || keep[i+1] || b.heading <= 1 || b.stops > 0 || float64(b.words) >= w.wt.tailWords {
			continue
		}
		n := &w.blocks[i+1]
		ne, be := &w.elems[n.elem], &w.elems[b.elem]
		if ne.teaser > be.teaser || ne.neg > be.neg {
			keep[i] = false
		}
	}
}

// dropClosingBox drops the boxes closing the article: when the kept
// paragraphs (p elements of running text) that hold the most words are
// children of one element, at least three of them, the div and section
// elements after its last such paragraph, both children of that element
// and children of its ancestors that come after it, are boxes set after
// the text (a subscription or donation appeal, a "while you are here"
// note, a citation box, a company fact box, an author box), not more of
// it, when the kept blocks in them hold fewer words than boxShare of
// those paragraphs'. A box that holds code (pre), a table, or, for a
// section element, a heading with a paragraph of running text under it
// is more of the article and stays (its words still count toward the
// share): a technical post that ends on a code sample, a last section.
// So does a box that holds mcBoxParas or more paragraphs (p) of running
// text or list items of it (li of tailWords words or more: a recipe's
// steps, not a list of specifications): a last part of the text in a
// wrapper of its own, an excerpt's note, a "see also" passage, a recipe
// card; appeals and author boxes are shorter.
func (w *mcWalker) dropClosingBox(keep []bool, sum []mcParaSum, par int32) {
	if w.wt.boxShare <= 0 || par < 0 || sum[par].paras < 3 {
		return
	}
	// par and its ancestors: a box is a child of one of them.
	for e := par; e >= 0; e = w.elems[e].parent {
		sum[e].anc = true
	}
	anc := func(e int32) bool { return sum[e].anc }
	// The blocks of one box are consecutive (blocks come in document
	// order), so a box is read whole before the next: cur is the box
	// being read, its blocks are box[from:], and article says it holds
	// more of the article (code, a table, a section's heading with a
	// paragraph under it, mcBoxParas paragraphs of running text), which
	// stays, though its words count toward the share.
	var box []int32
	n := int32(0)
	cur, from := int32(-1), 0
	heading, article, paraRun := false, false, 0
	endBox := func() {
		if article {
			box = box[:from]
		}
	}
	for i := sum[par].last + 1; i < int32(len(keep)); i++ {
		if !keep[i] {
			continue
		}
		// The child of par or of an ancestor that holds block i, looked
		// up a few levels.
		e := w.blocks[i].elem
		for up := 0; e >= 0 && w.elems[e].parent >= 0 && !anc(w.elems[e].parent) && up < mcBoxDepth; up++ {
			e = w.elems[e].parent
		}
		if e < 0 || anc(e) || w.elems[e].parent < 0 || !anc(w.elems[e].parent) ||
			w.elems[e].tag != atom.Div && w.elems[e].tag != atom.Section {
			continue
		}
		if e != cur {
			endBox()
			cur, from = e, len(box)
			heading, article, paraRun = false, false, 0
		}
		b := &w.blocks[i]
		t := w.elems[b.elem].tag
		switch {
		case b.heading != 0:
			heading = true
		case t == atom.Pre || w.inCell(b.elem),
			heading && t == atom.P && !w.weak(b) && w.elems[e].tag == atom.Section:
			article = true
		}
		if (t == atom.P || t == atom.Li && float64(b.words) >= w.wt.tailWords) && b.heading == 0 && !w.weak(b) && b.stops > 0 {
			if paraRun++; paraRun >= mcBoxParas {
				article = true
			}
		}
		box = append(box, i)
		n += b.words
	}
	endBox()
	if float64(n) >= w.wt.boxShare*float64(sum[par].words) {
		return
	}
	for _, i := range box {
		keep[i] = false
	}
}

// mcParaSum is what the kept paragraphs (p elements of running text)
// that are children of one element add up to.
type mcParaSum struct {
	words, paras int32
	first, last  int32 // their first and last blocks
	anc          bool  // dropClosingBox: the element is par or one of its ancestors
}

// textParas sums the kept paragraphs per parent element. par is the
// element whose paragraphs hold the most words, -1 when there is none.
func (w *mcWalker) textParas(keep []bool) (sum []mcParaSum, par int32) {
	sum = make([]mcParaSum, len(w.elems))
	par = -1
	for i, k := range keep {
		b := &w.blocks[i]
		if !k || b.heading != 0 || w.weak(b) || w.elems[b.elem].tag != atom.P {
			continue
		}
		p := w.elems[b.elem].parent
		if p < 0 {
			continue
		}
		if sum[p].paras == 0 {
			sum[p].first = int32(i)
		}
		sum[p].last = int32(i)
		sum[p].words += b.words
		sum[p].paras++
		if par < 0 || sum[p].words > sum[par].words {
			par = p
		}
	}
	return sum, par
}

// inCell reports whether element e is a table cell or in one (a cell's
// text is often in a p of its own).
func (w *mcWalker) inCell(e int32) bool {
	for up := 0; e >= 0 && up < 3; up++ {
		if t := w.elems[e].tag; t == atom.Td || t == atom.Th {
			return true
		}
		e = w.elems[e].parent
	}
	return false
}

// mcBoxDepth is how many levels below par or its ancestors a block of a
// closing box is looked for.
const mcBoxDepth = 16

// mcDeckSkip is how many fragments (a date, a byline, a reading time) may
// stand between the headline and its deck (chosen on the design folds: 3
// found fewer decks, 9 no more).
const mcDeckSkip = 5

// mcBetweenItems is how many table cells or list items make a sibling
// between two kept blocks more of the article (keepTablesBetween).
const mcBetweenItems = 3

// mcBoxParas is how many paragraphs of running text make a box after the
// last paragraph more of the article (chosen on the design folds: 2 kept
// too many boxes).
const mcBoxParas = 3

// keepListTail keeps again the blocks that trim dropped after the last
// paragraph (dropped holds them in reverse document order) when they
// open with three or more items of lists or tables (li, dt, dd, td, th),
// possibly under headings: the run of such items and headings is kept.
func (w *mcWalker) keepListTail(keep []bool, dropped []int) {
	items, n := 0, 0
	for k := len(dropped) - 1; k >= 0; k-- {
		if b := &w.blocks[dropped[k]]; b.heading == 0 {
			if t := w.elems[b.elem].tag; t != atom.Li && t != atom.Dd && t != atom.Dt && t != atom.Td && t != atom.Th {
				break
			}
			items++
		}
		n++
	}
	if items < 3 {
		return
	}
	for k := len(dropped) - 1; k >= len(dropped)-n; k-- {
		keep[dropped[k]] = true
	}
}

// keepListHead keeps again the list items that trim dropped before block
// first, the first block of running text (dropped holds them in document
// order), when first is an item of the same list (or of a list nested in
// it): the short items that open a list (an agenda, a feature list)
// belong to it as much as its longer ones.
func (w *mcWalker) keepListHead(keep []bool, dropped []int, first int) {
	if w.elems[w.blocks[first].elem].tag != atom.Li {
		return
	}
	for k := len(dropped) - 1; k >= 0; k-- {
		e := &w.elems[w.blocks[dropped[k]].elem]
		if e.tag != atom.Li || e.parent < 0 || w.elems[e.parent].hi <= int32(first) {
			return
		}
		keep[dropped[k]] = true
	}
}

// reattach keeps again the fragments that trim dropped right after block
// at, the last paragraph of running text, when they are paragraphs of
// their own like it: plain text (no link) in a sibling element of the
// same tag, plausible in its region. Code (pre) among those siblings is
// taken too: a how-to that ends on commands, each under a short label.
func (w *mcWalker) reattach(keep []bool, at int) {
	if at < 0 {
		return
	}
	ref := &w.elems[w.blocks[at].elem]
	for i := at + 1; i < len(keep); i++ {
		b := &w.blocks[i]
		e := &w.elems[b.elem]
		if b.heading != 0 || b.linkWords > 0 || b.elem == w.blocks[at].elem || e.parent != ref.parent || e.tag != ref.tag && e.tag != atom.Pre || !w.plausible(b, *ref) {
			return
		}
		keep[i] = true
	}
}

// reattachLead keeps again the fragments that trim dropped right before
// block first, the first paragraph of running text, when they are
// paragraphs of their own like it: plain text (no link, no digit) of at
// least three words in a sibling element of the same tag, plausible in its
// region. Datelines and credits, which hold digits or fewer words, go.
func (w *mcWalker) reattachLead(keep []bool, dropped []int, first int) {
	ref := &w.elems[w.blocks[first].elem]
	for k, at := len(dropped)-1, first; k >= 0 && dropped[k] == at-1; k, at = k-1, at-1 {
		b := &w.blocks[dropped[k]]
		e := &w.elems[b.elem]
		if b.linkWords > 0 || b.words < 3 || b.elem == w.blocks[first].elem || e.parent != ref.parent || e.tag != ref.tag || !w.plausible(b, *ref) ||
			bytes.ContainsAny(w.buf[b.start:b.end], "0123456789") {
			return
		}
		keep[dropped[k]] = true
	}
}

// keepRegion marks the plausible blocks of element e.
func (w *mcWalker) keepRegion(keep []bool, e, region mcElem) {
	for i := e.lo; i < e.hi; i++ {
		if w.plausible(&w.blocks[i], region) {
			keep[i] = true
		}
	}
}

// plausible reports whether block b may be content once its region is
// chosen: not mostly links, not inside a negatively hinted element or
// a list of teasers below those of the region, and not a one-word
// fragment repeated three or more times on the page (the label of ad
// slots or share bars: "Advertisement", "Share"; a table's cells, "Yes"
// or "No" in every row, are not labels). On a reference page (the
// container is a main element holding code) lists of links, lists of
// entries and repeated labels ("Returns:", "Throws:") are content too;
// only list items that are one link and nothing else (a table of
// contents) still go.
func (w *mcWalker) plausible(b *mcBlock, region mcElem) bool {
	e := &w.elems[b.elem]
	if w.wt.ldGain > 0 && w.evidenced(b) {
		return true
	}
	if b.repeats >= 3 && b.words == 1 && w.weak(b) && !w.inCell(b.elem) && !w.reference {
		return false
	}
	if w.negInlineOut(b) {
		return false
	}
	return (e.neg <= region.neg || w.noHints || w.negRelax && e.neg <= w.negBase) && (e.teaser <= region.teaser || w.reference) && !w.caption(b) && !w.credit(b) &&
		(float64(b.linkWords) <= w.wt.maxLinkShare*float64(b.words) || w.reference && !(e.tag == atom.Li && b.linkWords == b.words))
}

// evidenced reports whether the page's JSON-LD articleBody holds block b
// (most of its words, and at least three).
func (w *mcWalker) evidenced(b *mcBlock) bool {
	return w.hasLD && b.ld >= 0.7 && b.words >= 3
}

// caption reports whether block b is an image caption or credit: the text
// of a short element that holds an image, or whose parent does, or that
// follows an element holding only an image, or whose class (or its
// parent's) names a caption.
func (w *mcWalker) caption(b *mcBlock) bool {
	if b.heading != 0 || w.wt.captionWords <= 0 || w.captionsOK {
		return false
	}
	for e, up := b.elem, 0; e >= 0 && up < 2; e, up = w.elems[e].parent, up+1 {
		el := &w.elems[e]
		// A short element whose class names a caption is one, its
		// image wherever the page put it.
		if el.captionClass {
			return float64(w.wordPrefix[el.hi]-w.wordPrefix[el.lo]) <= w.wt.captionWords
		}
		// An image inside a paragraph or list item illustrates its
		// text (a recipe step, a product description); that text is no
		// caption.
		// A short element right after a sibling that holds an image and
		// no text is that image's caption (a paragraph there is text).
		if el.afterImg && el.tag != atom.P && el.tag != atom.Li {
			return float64(w.wordPrefix[el.hi]-w.wordPrefix[el.lo]) <= w.wt.captionWords
		}
		if !el.img || up == 0 && (el.tag == atom.P || el.tag == atom.Li) {
			continue
		}
		return float64(w.wordPrefix[el.hi]-w.wordPrefix[el.lo]) <= w.wt.captionWords
	}
	return false
}

// credit reports whether block b is a photo credit or copyright line
// standing among the article's paragraphs: a short block (at most
// captionWords words, no heading) holding the copyright sign or opening
// with a credit label, or a copyright notice of any length (a block
// opening with the sign: "© 2022 Example News. All rights reserved ...").
func (w *mcWalker) credit(b *mcBlock) bool {
	if b.heading != 0 || w.captionsOK {
		return false
	}
	text := w.buf[b.start:b.end]
	if bytes.HasPrefix(bytes.TrimLeft(text, " ("), []byte("\u00a9")) {
		return true
	}
	if float64(b.words) > w.wt.captionWords {
		return false
	}
	return bytes.Contains(text, []byte("\u00a9")) || mcCreditLabel(text)
}

// mcCreditLabels are the labels that introduce a photo credit.
var mcCreditLabels = [...]string{"foto", "fotos", "photo", "photos", "credit", "credits", "cr\u00e9dit", "cr\u00e9dits", "bild", "image", "picture"}

// mcCreditLabel reports whether text opens with a credit label: one of
// mcCreditLabels followed by a colon ("Foto:", "(Credit:"). Longer labels
// ("Photo credit:") are left alone: Dragnet's annotators count such lines
// as text, the snippet annotators do not.
func mcCreditLabel(text []byte) bool {
	text = bytes.TrimLeft(text, " (")
	words := 0
	for len(text) > 0 {
		if text[0] == ':' {
			return words == 1
		}
		n := bytes.IndexAny(text, " :")
		if n < 0 {
			return false
		}
		word := text[:n]
		label := false
		for _, l := range mcCreditLabels {
			if len(word) == len(l) && bytes.EqualFold(word, []byte(l)) {
				label = true
				break
			}
		}
		if !label {
			return false
		}
		words++
		text = bytes.TrimLeft(text[n:], " ")
	}
	return false
}

// container returns the index of the block element whose blocks have the
// largest total score, or -1 when no element scores above zero, and the
// prefix sums of the block scores.
func (w *mcWalker) container(hints bool) (int, []float64) {
	prefix := make([]float64, len(w.blocks)+1)
	for i := range w.blocks {
		prefix[i+1] = prefix[i] + w.score(&w.blocks[i], hints)
	}
	best, bestScore := -1, 0.0
	body, bodies := -1, 0
	for i, e := range w.elems {
		s := prefix[e.hi] - prefix[e.lo]
		if s > bestScore {
			best, bestScore = i, s
		}
		if e.articleBody {
			body = i
			bodies++
		}
	}
	// A page that declares one element its articleBody (schema.org
	// microdata) gets that element, when it holds text worth taking.
	if hints && bodies == 1 && w.wt.bodyShare > 0 {
		if e := w.elems[body]; prefix[e.hi]-prefix[e.lo] > w.wt.bodyShare*bestScore {
			best = body
		}
	}
	return best, prefix
}

// headline returns the index of the block before end that best matches the
// document title, or -1. A heading in a list of teasers is a teaser's
// title, not the page's.
func (w *mcWalker) headline(title string, end int32) int {
	tt := mcWordSet(title)
	best, bestScore, bestShare := -1, 0.0, 0.0
	for i := int32(0); i < end; i++ {
		b := &w.blocks[i]
		if b.heading == 0 || b.heading > 3 || w.elems[b.elem].teaser > 0 {
			continue
		}
		text := string(w.buf[b.start:b.end])
		hw := mcWords(text)
		if len(hw) == 0 {
			continue
		}
		shared := 0
		for _, x := range hw {
			if tt[x] {
				shared++
			}
		}
		// Most of the heading's words must be in the title; among such
		// headings the one sharing most words wins, on ties the one with
		// the larger share of its words in the title, then the last (the
		// article's title below a site name that shares as many words).
		s := float64(shared)
		if 2*shared < len(hw) {
			s = 0
		}
		if len(tt) == 0 && b.heading == 1 {
			s = 0.5
		}
		if share := float64(shared) / float64(len(hw)); s > bestScore || s > 0 && s == bestScore && share > 0 && share >= bestShare {
			best, bestScore, bestShare = int(i), s, share
		}
	}
	return best
}

// mcWords splits s into lowercase words at runs of characters that are
// neither letters nor digits.
func mcWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// mcWordSet returns the set of mcWords(s).
func mcWordSet(s string) map[string]bool {
	m := make(map[string]bool)
	for _, x := range mcWords(s) {
		m[x] = true
	}
	return m
}

// commonNeg returns the number of negatively hinted elements that enclose
// every block of running text on the page (0 for most pages): a hint shared
// by all of the text tells nothing about any of it.
func (w *mcWalker) commonNeg() int16 {
	base := int16(-1)
	for i := range w.blocks {
		b := &w.blocks[i]
		if b.heading != 0 || w.score(b, false) <= 0 {
			continue
		}
		if n := w.elems[b.elem].neg; base < 0 || n < base {
			base = n
		}
	}
	return max(base, 0)
}

// keepBlocks returns the blocks kept as the article when the container is
// element best: its plausible blocks, siblings that score well, the
// headline, a standfirst and the first byline, trimmed.
func (w *mcWalker) keepBlocks(c mcElem, prefix []float64, title string) []bool {
	keep := make([]bool, len(w.blocks))
	w.keepRegion(keep, c, c)
	// Take in sibling elements that score well too: articles split by an
	// advertisement or a figure into several containers.
	top := prefix[c.hi] - prefix[c.lo]
	least := max(w.wt.siblingMin, w.wt.siblingShare*top)
	if p := c.parent; p >= 0 && w.wt.siblingShare > 0 {
		for i := int(p) + 1; i < len(w.elems); i++ {
			e := w.elems[i]
			if e.lo >= w.elems[p].hi {
				break
			}
			if e.parent == p && (e.hi <= c.lo || e.lo >= c.hi) && prefix[e.hi]-prefix[e.lo] > least {
				w.keepRegion(keep, e, e)
			}
		}
		// Text directly inside the parent, beside the container, is a
		// sibling too: a paragraph left without its own element.
		for i := w.elems[p].lo; i < w.elems[p].hi; i++ {
			if b := &w.blocks[i]; b.elem == p && prefix[i+1]-prefix[i] > least && w.plausible(b, c) {
				keep[i] = true
			}
		}
	}
	w.keepTablesBetween(keep, c)
	w.keepContinuation(keep, c)
	w.keepLinkPost(keep, c)
	if c.tag == atom.P {
		w.keepNextParagraphs(keep, c, prefix)
	}
	w.keepLead(keep, c, prefix)
	w.keepLinkedTitle(keep, c)
	w.keepURLParagraphs(keep)
	w.trim(keep)
	if h := int32(w.headline(title, c.hi)); h >= 0 {
		keep[h] = true
		// Keep a standfirst between a headline and the container: running
		// text (a sentence mark, enough words), not bylines, datelines,
		// share bars or captions, when all there is short.
		if h < c.lo {
			n := int32(0)
			for i := h + 1; i < c.lo; i++ {
				n += w.blocks[i].words
			}
			// Only blocks after the last teaser in between: text above
			// a list of teasers (an author box over related posts) is
			// no standfirst.
			from := h + 1
			for i := from; i < c.lo; i++ {
				if w.elems[w.blocks[i].elem].teaser > c.teaser {
					from = i + 1
				}
			}
			if float64(n) <= w.wt.leadWords {
				for i := from; i < c.lo; i++ {
					if b := &w.blocks[i]; w.plausible(b, w.elems[b.elem]) && b.stops > 0 && float64(b.words) >= w.wt.leadMinWords {
						keep[i] = true
					}
				}
			}
		}
		w.keepDescription(keep, c, h)
		w.keepOpeningHeading(keep, c, h)
		// Keep a date header right over the headline: a heading of a
		// higher level, a few words with a digit and no link (a blog's
		// "Sunday, October 14, 2012" over each post's title).
		if h > 0 && !keep[h-1] && w.dateHeader(&w.blocks[h-1], &w.blocks[h]) {
			keep[h-1] = true
		}
		// Keep a deck right after the headline: a heading of a lower
		// level, plain text (no link) of at least leadMinWords words.
		k := h + 1
		if int(k) < len(keep) {
			if b := &w.blocks[k]; b.heading > w.blocks[h].heading && b.linkWords == 0 && float64(b.words) >= w.wt.leadMinWords && w.plausible(b, w.elems[b.elem]) {
				keep[k] = true
			}
		}
		// The same deck after a few fragments (date, byline, reading time)
		// set between it and the headline: up to mcDeckSkip of them.
		for j := k; int(j) < len(keep) && j-k <= mcDeckSkip; j++ {
			b := &w.blocks[j]
			if b.heading == 0 && w.weak(b) && !keep[j] {
				continue
			}
			if j > k && !keep[j] && b.heading > w.blocks[h].heading && b.linkWords == 0 && float64(b.words) >= w.wt.leadMinWords && w.plausible(b, w.elems[b.elem]) {
				keep[j] = true
			}
			break
		}
		// Keep the first byline: a short block right after the headline
		// (bylines further down, author boxes and repeats go).
		if w.wt.bylineWords > 0 && int(k) < len(keep) && !keep[k] {
			b := &w.blocks[k]
			if b.heading == 0 && float64(b.words) <= w.wt.bylineWords && 2*b.linkWords <= b.words {
				keep[k] = true
			}
		}
	}
	return keep
}

// keepTablesBetween keeps the sibling elements of container c that lie
// between two kept blocks of its parent, none of whose blocks is kept,
// and hold mcBetweenItems or more table cells or list items, or are a
// run of mcBetweenItems or more p elements of one block each: a data
// table, a list of figures or of places between the paragraphs of an
// article scores below zero (many short items) and so is no sibling worth
// taking in on its score, yet it is part of the text around it. Its
// blocks must be plausible as c's are (no more negative hints or
// teasers, few links).
func (w *mcWalker) keepTablesBetween(keep []bool, c mcElem) {
	p := c.parent
	if p < 0 {
		return
	}
	first, last := int32(-1), int32(-1)
	for i := w.elems[p].lo; i < w.elems[p].hi; i++ {
		if keep[i] {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return
	}
	var run []int32
	flush := func() {
		if len(run) >= mcBetweenItems {
			for _, b := range run {
				if w.plausible(&w.blocks[b], c) {
					keep[b] = true
				}
			}
		}
		run = run[:0]
	}
	for i := int(p) + 1; i < len(w.elems); i++ {
		e := w.elems[i]
		if e.lo >= w.elems[p].hi {
			break
		}
		if e.parent != p {
			continue
		}
		if e.lo <= first || e.hi > last {
			flush()
			continue
		}
		items, kept := 0, false
		for j := e.lo; j < e.hi; j++ {
			kept = kept || keep[j]
			if w.inCell(w.blocks[j].elem) || w.elems[w.blocks[j].elem].tag == atom.Li {
				items++
			}
		}
		if !kept && items >= mcBetweenItems {
			w.keepRegion(keep, e, c)
		}
		// Short p elements one after another, none kept, are a list
		// written as paragraphs.
		if !kept && e.tag == atom.P && e.hi == e.lo+1 {
			run = append(run, e.lo)
			continue
		}
		flush()
	}
	flush()
}

// dateHeader reports whether block b, right before headline h, is a date
// set over it: a heading of a higher level than h, no link, no sentence
// mark, fewer than tailWords words, one of them holding a digit.
func (w *mcWalker) dateHeader(b, h *mcBlock) bool {
	if b.heading == 0 || b.heading >= h.heading || b.linkWords > 0 || b.stops > 0 || float64(b.words) >= w.wt.tailWords {
		return false
	}
	for _, r := range string(w.buf[b.start:b.end]) {
		if unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// keepNextParagraphs keeps, after a container c that is one paragraph,
// the paragraphs right after it in sibling p elements that are running
// text (a sentence mark, not a fragment) scoring at least zero: a short
// post whose second paragraph is heavy with links scores too little to
// be a sibling worth taking in, yet goes on from the first.
func (w *mcWalker) keepNextParagraphs(keep []bool, c mcElem, prefix []float64) {
	if c.parent < 0 {
		return
	}
	for i := c.hi; i < w.elems[c.parent].hi; i++ {
		b := &w.blocks[i]
		e := &w.elems[b.elem]
		if e.parent != c.parent || e.tag != atom.P || b.heading != 0 || b.stops == 0 || w.weak(b) || prefix[i+1] < prefix[i] || !w.plausible(b, c) {
			return
		}
		keep[i] = true
	}
}

// textWords returns the words of the kept blocks other than headings.
func (w *mcWalker) textWords(keep []bool) int32 {
	n := int32(0)
	for i, k := range keep {
		if b := &w.blocks[i]; k && b.heading == 0 && !w.weak(b) {
			n += b.words
		}
	}
	return n
}

// keepLead keeps the lead paragraphs right before the container c, such
// as a standfirst set apart from the body by a photo and an author box:
// blocks of running text (a sentence mark) scoring more than siblingMin,
// separated from the container and from each other by no heading and by
// no more than leadWords words of other blocks. A container that opens
// with a heading of its own has no lead.
func (w *mcWalker) keepLead(keep []bool, c mcElem, prefix []float64) {
	if c.lo >= c.hi || w.blocks[c.lo].heading != 0 {
		return // the container opens with its own heading
	}
	gap := int32(0)
	for i := int(c.lo) - 1; i >= 0; i-- {
		b := &w.blocks[i]
		if b.heading != 0 {
			return
		}
		if b.stops > 0 && prefix[i+1]-prefix[i] > w.wt.siblingMin && w.plausible(b, w.elems[b.elem]) {
			keep[i] = true
			gap = 0
			continue
		}
		if gap += b.words; float64(gap) > w.wt.leadWords {
			return
		}
	}
}

// hasText reports whether keep holds a block other than a heading.
func (w *mcWalker) hasText(keep []bool) bool {
	for i, k := range keep {
		if k && w.blocks[i].heading == 0 {
			return true
		}
	}
	return false
}

// bestRun returns the run of consecutive children of one element (child
// elements and text directly inside it) whose blocks score highest, as an
// element: its parent is the element the children belong to. An article
// split into sibling sections, or one whose paragraphs sit in separate
// wrappers, is such a run.
func (w *mcWalker) bestRun(prefix []float64) (mcElem, bool) {
	// Children of each element in document order, as linked lists.
	first := make([]int32, 2*len(w.elems)) // then next
	next := first[len(w.elems):]
	for i := range first {
		first[i] = -1
	}
	for i := len(w.elems) - 1; i >= 1; i-- {
		if p := w.elems[i].parent; p >= 0 {
			next[i], first[p] = first[p], int32(i)
		}
	}
	var best mcElem
	bestScore, found := 0.0, false
	for p := range w.elems {
		pe := &w.elems[p]
		sum, start := 0.0, int32(-1)
		item := func(lo, hi int32) {
			if lo >= hi {
				return
			}
			if sum <= 0 {
				sum, start = 0, lo
			}
			sum += prefix[hi] - prefix[lo]
			if sum > bestScore {
				bestScore, found = sum, true
				best = mcElem{lo: start, hi: hi, parent: int32(p), tag: pe.tag, neg: pe.neg, pos: pe.pos, teaser: pe.teaser}
			}
		}
		pos := pe.lo
		for ch := first[p]; ch >= 0; ch = next[ch] {
			e := &w.elems[ch]
			for ; pos < e.lo; pos++ {
				item(pos, pos+1)
			}
			item(e.lo, e.hi)
			pos = max(pos, e.hi)
		}
		for ; pos < pe.hi; pos++ {
			item(pos, pos+1)
		}
	}
	return best, found
}
