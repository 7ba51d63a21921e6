package maintext

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Work caps of the DOM finder, documented on Extract.
const (
	mcMaxInput = 8 << 20 // bytes read from the input
	mcMaxNodes = 1 << 20 // nodes visited in the tree
	mcMaxDepth = 256     // element nesting below which content is ignored
)

// mcBlock is one text block: the inline text between two block-level
// boundaries, with the features the finder scores it by.
type mcBlock struct {
	start, end int32   // text is buf[start:end]
	words      int32   // word count (runs of non-space; CJK runes count half)
	linkWords  int32   // words inside <a> elements
	stops      int32   // sentence-ending punctuation marks
	elem       int32   // innermost enclosing block element (index into elems)
	heading    int8    // 1..6 inside h1..h6, 0 otherwise
	negInline  bool    // all its words are inside inline elements with a negative hint or a caption class
	repeats    int32   // blocks on the page with the same text, itself included
	ld         float32 // share of words in the page's JSON-LD articleBody (if hasLD)
	linkAt     int32   // 1 + the words before its first linked word, 0 when none is linked
}

// mcElem is a block-level element; its blocks are blocks[lo:hi] because
// blocks are produced in document order.
type mcElem struct {
	lo, hi         int32
	parent         int32 // enclosing block element, -1 for the root
	ownNeg, ownPos bool  // class/id hints of the element itself
	neg, pos       int16 // hinted ancestors, itself included (set by resolveHints)
	tag            atom.Atom
	sig            uint32 // hash of tag and class: siblings alike in markup share it
	ownTeaser      bool   // one of a list of teasers (markTeaserLists)
	img            bool   // holds an image (not an icon) outside its block children
	articleBody    bool   // has itemprop=articleBody
	main           bool   // the page's main content by its markup: a main element or role="main"
	codes          int32  // code and pre elements inside (counted for main elements only)
	prev, next     int32  // the block element siblings before and after it, -1 for none
	teaser         int16  // teaser ancestors, itself included (set by resolveHints)
	anyImg         bool   // holds an image (not an icon) at any depth
	afterImg       bool   // follows, with no text in between, a sibling holding an image and no text
	lastChild      int32  // the last block element child so far, -1 for none
	captionClass   bool   // its class names a caption ("caption", "legend")
	description    bool   // has itemprop=description or is inside such an element
	anchorID       bool   // its negative hint is only its id, and that spells its heading (mcAnchorID)
}

// mcWalker segments a DOM tree into blocks.
type mcWalker struct {
	buf        []byte
	blocks     []mcBlock
	elems      []mcElem
	nodes      int
	title      string
	negBase    int16 // negative hints shared by all running text (see commonNeg)
	captionsOK bool  // keep image captions (no article around them)
	negRelax   bool  // blocks under at most negBase negative hints are plausible
	noHints    bool  // negative hints do not make blocks implausible
	reference  bool  // the container is a main element holding code: links are part of the text
	wt         mcWeights

	// accumulators of the block being built
	curStart                           int
	words, link, cjk, linkCJK          int
	linkAt                             int // 1 + the words before the first linked word of the block, 0 for none
	stops                              int
	inWord, space                      bool
	nonASCII                           bool     // the block holds a character other than ASCII
	inPre                              int      // pre elements open: white space is kept
	wantLinks                          bool     // record links (for Markdown)
	links                              []mcLink // the links of the blocks, in order (when wantLinks)
	markdown                           bool     // render the kept blocks as Markdown
	textPrefix, longPrefix, stopPrefix []int32  // prefix sums of blocks of running text, long ones and sentence marks (boxSums)
	codes                              int32    // code and pre elements seen so far
	anchors                            int32    // block elements whose id spells their heading (mcAnchorID)
	dot                                bool     // the last character was a '.' counted as a stop (after a digit)
	inLink                             int
	inNeg, negWords, negCJK            int // inline elements with a negative hint open; words and CJK runes inside them
	root                               *html.Node
	bodyLen                            int     // text bytes under root, for form decisions; -1 until known
	bodyMin                            int     // a lower bound of those bytes while bodyLen is unknown
	hasLD                              bool    // blocks have ld set: the page has a JSON-LD articleBody used as evidence
	wordPrefix, linkPrefix             []int32 // prefix sums of block words and linked words (set by resolveHints)

	// beforeRender, when set, is shown (and may change) the blocks
	// mainText keeps, and the container, before they are rendered. Only
	// tests set it (the learned second opinion of model_*_test.go).
	beforeRender func(keep []bool, c mcElem)
}

// mcIsBlock reports whether elements named a break the text flow into
// separate blocks.
func mcIsBlock(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Body,
		atom.Caption, atom.Center, atom.Dd, atom.Details, atom.Dialog, atom.Dir,
		atom.Div, atom.Dl, atom.Dt, atom.Fieldset, atom.Figcaption, atom.Figure,
		atom.Footer, atom.Form, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5,
		atom.H6, atom.Header, atom.Hgroup, atom.Hr, atom.Html, atom.Legend,
		atom.Li, atom.Main, atom.Menu, atom.Nav, atom.Ol, atom.P, atom.Pre,
		atom.Section, atom.Summary, atom.Table, atom.Tbody, atom.Td,
		atom.Tfoot, atom.Th, atom.Thead, atom.Tr, atom.Ul:
		return true
	}
	return false
}

// mcSkipped reports whether elements named a never hold main text. It is
// not the visible-text rule of internal/htmltext: noembed and noframes,
// which that rule hides, are read here (skipping them too changes the
// output on a few evaluation pages).
func mcSkipped(a atom.Atom) bool {
	switch a {
	case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Head,
		atom.Title, atom.Svg, atom.Math, atom.Iframe, atom.Object, atom.Embed,
		atom.Canvas, atom.Video, atom.Audio, atom.Select, atom.Option,
		atom.Button, atom.Input, atom.Textarea, atom.Map, atom.Frameset,
		atom.Frame, atom.Link, atom.Meta,
		atom.Label,       // names a form control (a comment form inside a form that wraps the page)
		atom.Rt, atom.Rp: // ruby annotations (readings of East Asian text), not text of their own
		return true
	}
	return false
}

// mcIsStop reports whether r ends a sentence in common scripts.
func mcIsStop(r rune) bool {
	switch r {
	case '.', '!', '?', '。', '！', '？', '؟', '।', '։', '።':
		return true
	}
	return false
}

// mcIsCJK reports whether r belongs to a script written without spaces
// between words.
func mcIsCJK(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r) || unicode.Is(unicode.Thai, r))
}

// text appends the character data s to the current block, collapsing
// whitespace and counting words.
func (w *mcWalker) text(s string) {
	for i := 0; i < len(s); {
		c := s[i]
		var r rune
		n := 1
		if c < utf8.RuneSelf {
			r = rune(c)
		} else {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		i += n
		if r < utf8.RuneSelf && (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v') || r >= utf8.RuneSelf && unicode.IsSpace(r) {
			w.inWord = false
			if w.inPre > 0 {
				w.preSpace(r)
				continue
			}
			w.space = len(w.buf) > w.curStart
			continue
		}
		if w.space {
			if last := w.buf[len(w.buf)-1]; last != '\n' {
				w.buf = append(w.buf, ' ')
			}
			w.space = false
		}
		if r < utf8.RuneSelf {
			w.buf = append(w.buf, c)
		} else {
			w.buf = utf8.AppendRune(w.buf, r) // also turns invalid bytes into U+FFFD
			w.nonASCII = true
		}
		switch {
		case r >= 0x2E80 && mcIsCJK(r):
			w.cjk++
			w.negCJK += min(w.inNeg, 1)
			if w.inLink > 0 {
				w.linkCJK++
			}
			w.inWord = false
		case !w.inWord:
			w.inWord = true
			w.words++
			w.negWords += min(w.inNeg, 1)
			if w.inLink > 0 {
				w.link++
				if w.linkAt == 0 {
					w.linkAt = w.words
				}
			}
		}
		// A full stop inside a number or a date ("3.5", "11.04.2020")
		// ends no sentence.
		if w.dot && '0' <= r && r <= '9' {
			w.stops--
		}
		w.dot = false
		if mcIsStop(r) {
			w.stops++
			w.dot = r == '.' && len(w.buf) >= 2 && '0' <= w.buf[len(w.buf)-2] && w.buf[len(w.buf)-2] <= '9'
		}
		// The rest of a word of ASCII characters that are neither space
		// nor sentence marks changes no count: it is copied at once.
		if r < utf8.RuneSelf && !w.dot {
			j := i
			for j < len(s) && mcPlainASCII(s[j]) {
				j++
			}
			w.buf = append(w.buf, s[i:j]...)
			i = j
		}
	}
}

// preSpace writes white space r inside preformatted text (pre) as it is:
// line breaks and indentation are the code's. Line breaks before the
// block's first character are left out (flush trims those after its last);
// other white space is written as a space, a tab as a tab.
func (w *mcWalker) preSpace(r rune) {
	switch r {
	case '\n', '\r', '\f', '\v', '\u2028', '\u2029':
		if len(w.buf) > w.curStart {
			w.buf = append(w.buf, '\n')
		}
	case '\t':
		w.buf = append(w.buf, '\t')
	default:
		w.buf = append(w.buf, ' ')
	}
	w.space = false
}

// mcPlainASCII reports whether c is an ASCII character that text counts
// as nothing but part of the word it is in: no space, no control
// character, no sentence mark.
func mcPlainASCII(c byte) bool {
	return ' ' < c && c < utf8.RuneSelf && c != '.' && c != '!' && c != '?'
}

// lineBreak handles <br>.
func (w *mcWalker) lineBreak() {
	w.inWord, w.space = false, false
	n := len(w.buf)
	if n == w.curStart || n-w.curStart >= 2 && w.buf[n-1] == '\n' && w.buf[n-2] == '\n' {
		return
	}
	w.buf = append(w.buf, '\n')
}

// flush ends the current block, attributing it to element elem.
func (w *mcWalker) flush(elem int32) {
	// Trim trailing white space (line breaks; in code, also spaces).
	for len(w.buf) > w.curStart && (w.buf[len(w.buf)-1] == '\n' || w.buf[len(w.buf)-1] == ' ' || w.buf[len(w.buf)-1] == '\t') {
		w.buf = w.buf[:len(w.buf)-1]
	}
	if w.nfcBlock() {
		w.dropLinks(w.curStart) // offsets changed: the block is written without its links
	}
	if n := w.words + (w.cjk+1)/2; n > 0 && len(w.buf) > w.curStart {
		b := mcBlock{
			start:     int32(w.curStart),
			end:       int32(len(w.buf)),
			words:     int32(n),
			linkWords: int32(w.link + (w.linkCJK+1)/2),
			linkAt:    int32(w.linkAt),
			stops:     int32(w.stops),
			elem:      elem,
			negInline: w.negWords+(w.negCJK+1)/2 >= n && w.negWords+w.negCJK > 0,
		}
		if elem >= 0 {
			switch t := w.elems[elem].tag; t {
			case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
				b.heading = int8(t.String()[1] - '0')
			}
		}
		w.blocks = append(w.blocks, b)
	} else {
		w.buf = w.buf[:w.curStart]
		w.dropLinks(w.curStart)
	}
	w.curStart = len(w.buf)
	w.words, w.link, w.cjk, w.linkCJK, w.stops = 0, 0, 0, 0, 0
	w.linkAt = 0
	w.negWords, w.negCJK = 0, 0
	w.dot = false
	w.inWord, w.space = false, false
	w.nonASCII = false
}

// walk visits the children of n.
func (w *mcWalker) walk(n *html.Node, depth int, elem int32, inArticle bool) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.nodes++
		if w.nodes > mcMaxNodes {
			return
		}
		switch c.Type {
		case html.TextNode:
			w.text(c.Data)
		case html.ElementNode:
			w.element(c, depth+1, elem, inArticle)
		}
	}
}

// element visits element c.
func (w *mcWalker) element(c *html.Node, depth int, elem int32, inArticle bool) {
	a := c.DataAtom
	if depth > mcMaxDepth || mcSkipped(a) || mcHidden(c) {
		return
	}
	neg, pos := mcHints(c)
	switch a {
	case atom.Figcaption, atom.Dialog:
		// Captions and photo credits; modal dialogs (consent, newsletter).
		return
	case atom.Br:
		w.lineBreak()
		return
	case atom.Img:
		if !mcSmallImage(c) {
			w.elems[elem].img = true
		}
		return
	case atom.Nav, atom.Aside, atom.Footer, atom.Menu:
		return
	case atom.A:
		// A permalink mark ("¶", "§", "#" linking to the heading or
		// definition it follows) is no text.
		if mcPermalink(c) {
			return
		}
	case atom.Summary:
		// The label of an open disclosure ("Expand description") is a
		// control; a summary holding a heading or a sentence is text.
		if mcToggleLabel(c) {
			return
		}
	case atom.Header:
		if !inArticle {
			neg = true
		}
	case atom.Form:
		// Comment and search forms go; a form wrapping the whole page
		// (ASP.NET) stays.
		if w.bodyTextOver(2 * mcTextLen(c, 1<<30)) {
			return
		}
	case atom.Article, atom.Main:
		inArticle = true
		pos = true
	}
	if neg && pos {
		neg, pos = mcIDNeg(c), false
	}
	if !mcIsBlock(a) && (neg || mcCaptionClass(c)) {
		w.negInlineWalk(c, depth, elem, inArticle)
		return
	}
	if a == atom.Code || a == atom.Pre {
		w.codes++
	}
	if !mcIsBlock(a) {
		if a == atom.A && !w.selfAnchor(c, elem) {
			start := len(w.buf)
			w.inLink++
			w.walk(c, depth, elem, inArticle)
			w.inLink--
			if w.wantLinks {
				w.addLink(c, start)
			}
			return
		}
		w.walk(c, depth, elem, inArticle)
		return
	}
	w.flush(elem)
	e := mcElem{lo: int32(len(w.blocks)), tag: a, parent: elem, ownNeg: neg, ownPos: pos, sig: mcSignature(c), articleBody: mcIsArticleBody(c), lastChild: -1,
		captionClass: mcCaptionClass(c), main: a == atom.Main || mcRole(c) == "main"}
	e.prev, e.next = w.elems[elem].lastChild, -1
	if prev := w.elems[elem].lastChild; prev >= 0 {
		w.elems[prev].next = int32(len(w.elems))
		p := &w.elems[prev]
		e.afterImg = (p.img || p.anyImg) && p.lo == p.hi && p.hi == e.lo
	}
	e.description = w.elems[elem].description || mcIsDescription(c)
	if anchor, idNeg := mcAnchorID(c); anchor {
		w.anchors++
		e.anchorID = neg && idNeg
	}
	idx := int32(len(w.elems))
	w.elems[elem].lastChild = idx
	w.elems = append(w.elems, e)
	if a == atom.Pre {
		w.inPre++
	}
	codes := w.codes
	w.walk(c, depth, idx, inArticle)
	w.flush(idx)
	if a == atom.Pre {
		w.inPre--
	}
	x := &w.elems[idx]
	x.hi = int32(len(w.blocks))
	if x.main {
		x.codes = w.codes - codes
	}
	if x.img || x.anyImg {
		w.elems[elem].anyImg = true
	}
}

// textBox reports whether element x is a box of running text set inside
// the text of its parent: its nearest sibling before it that is no such
// box holds running text or is the parent's heading, and one of the
// mcBoxNext siblings after it that are no boxes holds running text, all
// without a negative hint. Such a box is a note, a tip or a "back to basics" box of
// a manual, part of the text it interrupts, and its negative hint (a
// "sidebar" or "note" class) is void. A box of links, of fragments or of
// one sentence (related stories, a pull quote, a plea to subscribe) is
// not one (a box of one sentence needs mcBoxWords words in a block), nor
// is a box before or after all of the text.
func (w *mcWalker) textBox(x int32) bool {
	if !w.boxOfText(x) {
		return false
	}
	prev := w.elems[x].prev
	for prev >= 0 && w.elems[prev].ownNeg && w.runningText(prev, 1) {
		prev = w.elems[prev].prev
	}
	if prev < 0 || w.elems[prev].ownNeg || !w.runningText(prev, 1) && !w.headingOnly(prev) {
		return false
	}
	// The text goes on after the box, in its parent or, when the box
	// ends its section, in the sections after (mcBoxUp levels up).
	for up, e := 0, x; up <= mcBoxUp && e > 0; up, e = up+1, w.elems[e].parent {
		// Running text in one of the next mcBoxNext siblings that are
		// not boxes (a short line introducing a list may come first).
		next, seen := w.elems[e].next, 0
		for ; next >= 0 && seen < mcBoxNext; next = w.elems[next].next {
			if w.elems[next].ownNeg {
				if w.runningText(next, 1) {
					continue // another box
				}
				return false
			}
			if w.runningText(next, 1) {
				return true
			}
			seen++
		}
		if seen > 0 {
			return false
		}
	}
	return false
}

// textBoxSigs returns the markup signatures (tag and class) of the
// elements with a negative hint that are boxes of running text inside the
// text (textBox), and the index of the last block of running text outside
// every element with a negative hint (-1 for none). A box of the same
// markup elsewhere on the page that holds running text is one of them
// when running text follows it or it stands in a section under its
// heading (inSubsection): at the end of a section, after a figure, in a
// list item (a manual's notes and tips, alike all through the page). Nil
// when there are none (or textBoxSame is 0).
func (w *mcWalker) textBoxSigs() (map[uint32]bool, int32) {
	if w.wt.textBoxes <= 0 || w.wt.textBoxSame <= 0 {
		return nil, -1
	}
	var sigs map[uint32]bool
	for i := range w.elems {
		if e := &w.elems[i]; e.ownNeg && !sigs[e.sig] && w.textBox(int32(i)) {
			if sigs == nil {
				sigs = map[uint32]bool{}
			}
			sigs[e.sig] = true
		}
	}
	if sigs == nil {
		return nil, -1
	}
	// Elements come after their parents: one pass finds those under a
	// negative hint.
	underNeg := make([]bool, len(w.elems))
	for i := range w.elems {
		e := &w.elems[i]
		underNeg[i] = e.ownNeg || e.parent >= 0 && underNeg[e.parent]
	}
	last := int32(-1)
	for i := len(w.blocks) - 1; i >= 0; i-- {
		if b := &w.blocks[i]; w.textBlock(b) && !underNeg[b.elem] {
			last = int32(i)
			break
		}
	}
	return sigs, last
}

// inSubsection reports whether element x stands in a section under its
// heading: its parent's first block, before x, is a heading of level 2 to
// 6.
func (w *mcWalker) inSubsection(x int32) bool {
	p := w.elems[x].parent
	if p < 0 {
		return false
	}
	pe := &w.elems[p]
	return pe.lo < w.elems[x].lo && w.blocks[pe.lo].heading >= 2
}

// boxOfText reports whether element x is a box of running text, as
// textBox asks of one, wherever it stands.
func (w *mcWalker) boxOfText(x int32) bool {
	return w.runningText(x, 1) && (w.sentences(x) >= 2 || w.longText(x))
}

// mcBoxUp is how many levels above a box textBox looks for the text
// after it, and mcBoxNext how many siblings after it.
const (
	mcBoxUp   = 2
	mcBoxNext = 3
)

// longText reports whether element x holds a block of running text of
// mcBoxWords words or more.
func (w *mcWalker) longText(x int32) bool {
	e := &w.elems[x]
	w.boxSums()
	return w.longPrefix[e.hi] > w.longPrefix[e.lo]
}

// boxSums fills the prefix sums textBox reads (once a page), so that each
// question about an element is answered in constant time.
func (w *mcWalker) boxSums() {
	if w.textPrefix != nil {
		return
	}
	n := len(w.blocks) + 1
	sums := make([]int32, 3*n)
	w.textPrefix, w.longPrefix, w.stopPrefix = sums[:n:n], sums[n:2*n:2*n], sums[2*n:]
	for i := range w.blocks {
		b := &w.blocks[i]
		t, l := int32(0), int32(0)
		if w.textBlock(b) {
			t = 1
			if b.words >= mcBoxWords {
				l = 1
			}
		}
		w.textPrefix[i+1] = w.textPrefix[i] + t
		w.longPrefix[i+1] = w.longPrefix[i] + l
		w.stopPrefix[i+1] = w.stopPrefix[i] + b.stops
	}
}

// mcBoxWords is the fewest words of a box of one sentence in textBox.
const mcBoxWords = 20

// sentences returns the sentence marks in element x's blocks.
func (w *mcWalker) sentences(x int32) int32 {
	e := &w.elems[x]
	w.boxSums()
	return w.stopPrefix[e.hi] - w.stopPrefix[e.lo]
}

// headingOnly reports whether element x holds headings and nothing else.
func (w *mcWalker) headingOnly(x int32) bool {
	e := &w.elems[x]
	for i := e.lo; i < e.hi; i++ {
		if w.blocks[i].heading == 0 {
			return false
		}
	}
	return e.hi > e.lo
}

// textBlock reports whether b is running text: a sentence mark,
// mcBoxTextWords words or more, few links.
func (w *mcWalker) textBlock(b *mcBlock) bool {
	return b.stops > 0 && b.words >= mcBoxTextWords && 4*b.linkWords < b.words
}

// runningText reports whether element x holds n or more blocks of
// running text.
func (w *mcWalker) runningText(x int32, n int) bool {
	e := &w.elems[x]
	w.boxSums()
	return int(w.textPrefix[e.hi]-w.textPrefix[e.lo]) >= n
}

// mcBoxTextWords is the fewest words of a block of running text in
// textBox.
const mcBoxTextWords = 10

// mcPermalink reports whether link c is a permalink mark: a link to a
// fragment of the page (href="#...") whose text is one symbol, no letter
// or digit.
func mcPermalink(c *html.Node) bool {
	href := false
	for _, at := range c.Attr {
		if at.Key == "href" {
			href = len(at.Val) > 1 && at.Val[0] == '#'
			break
		}
	}
	if !href {
		return false
	}
	t := c.FirstChild
	if t == nil || t.NextSibling != nil || t.Type != html.TextNode {
		return false
	}
	s := strings.TrimSpace(t.Data)
	r, n := utf8.DecodeRuneInString(s)
	return n > 0 && n == len(s) && !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// mcToggleLabel reports whether c, a summary element, is the label of an
// open details element: a few words, no heading, no sentence mark.
func mcToggleLabel(c *html.Node) bool {
	p := c.Parent
	if p == nil || p.DataAtom != atom.Details || !mcHasAttr(p, "open") {
		return false
	}
	n := 0
	var walk func(*html.Node) bool
	walk = func(x *html.Node) bool {
		for y := x.FirstChild; y != nil; y = y.NextSibling {
			switch y.Type {
			case html.ElementNode:
				if y.DataAtom == atom.H1 || y.DataAtom == atom.H2 || y.DataAtom == atom.H3 || y.DataAtom == atom.H4 || y.DataAtom == atom.H5 || y.DataAtom == atom.H6 || !walk(y) {
					return false
				}
			case html.TextNode:
				if strings.ContainsAny(y.Data, ".!?") {
					return false
				}
				n += len(strings.Fields(y.Data))
				if n > 3 {
					return false
				}
			}
		}
		return true
	}
	return walk(c) && n > 0
}

func mcHasAttr(c *html.Node, key string) bool {
	for _, at := range c.Attr {
		if at.Key == key {
			return true
		}
	}
	return false
}

// mcLink is a link in the text: buf[start:end] is its text.
type mcLink struct {
	start, end int32
	href       string
}

// addLink records link c, whose text starts at start in buf, when it has
// text and points elsewhere than a fragment of the page.
func (w *mcWalker) addLink(c *html.Node, start int) {
	href := ""
	for _, at := range c.Attr {
		if at.Key == "href" {
			href = strings.TrimSpace(at.Val)
			break
		}
	}
	if href == "" || href[0] == '#' || len(href) >= 11 && strings.EqualFold(href[:11], "javascript:") {
		return
	}
	if start < len(w.buf) && w.buf[start] == ' ' {
		start++ // the space before the link's first word
	}
	if start < w.curStart || start >= len(w.buf) {
		return
	}
	w.links = append(w.links, mcLink{start: int32(start), end: int32(len(w.buf)), href: href})
}

// dropLinks forgets the links at or after offset from.
func (w *mcWalker) dropLinks(from int) {
	for len(w.links) > 0 && int(w.links[len(w.links)-1].start) >= from {
		w.links = w.links[:len(w.links)-1]
	}
}

// selfAnchor reports whether link c, inside block element elem, is a
// heading's anchor: a link in a heading to a fragment of the page itself
// (href="#..."), which documentation generators wrap around or beside
// every section title. Its words are the heading's, not a link's.
func (w *mcWalker) selfAnchor(c *html.Node, elem int32) bool {
	switch w.elems[elem].tag {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
	default:
		return false
	}
	for _, at := range c.Attr {
		if at.Key == "href" {
			return strings.HasPrefix(at.Val, "#") && len(at.Val) > 1
		}
	}
	return false
}

// resolveHints sets the cumulative hint counts of the elements. A
// negative hint is void on an element that holds more than half the words
// of the page and its longest block: that is a page wrapper with an
// unlucky name, not a boilerplate box.
func (w *mcWalker) resolveHints() {
	prefix := make([]int32, len(w.blocks)+1)
	longest, total := 0, int32(0)
	for i, b := range w.blocks {
		prefix[i+1] = prefix[i] + b.words
		if b.words > w.blocks[longest].words {
			longest = i
		}
		total += b.words
	}
	// The keys are slices of one copy of the text, not a string per block.
	text := string(w.buf)
	seen := make(map[string]int32, len(w.blocks))
	for _, b := range w.blocks {
		seen[text[b.start:b.end]]++
	}
	for i := range w.blocks {
		b := &w.blocks[i]
		b.repeats = seen[text[b.start:b.end]]
	}
	w.wordPrefix = prefix
	w.linkPrefix = make([]int32, len(w.blocks)+1)
	for i, b := range w.blocks {
		w.linkPrefix[i+1] = w.linkPrefix[i] + b.linkWords
	}
	w.markTeaserLists()
	encloses := w.enclosesBody()
	entries := w.entryBoxes()
	boxSigs, lastText := w.textBoxSigs()
	for i := range w.elems {
		e := &w.elems[i]
		neg, pos, teaser := e.ownNeg, e.ownPos, e.ownTeaser
		if 2*(prefix[e.hi]-prefix[e.lo]) > total && int(e.lo) <= longest && longest < int(e.hi) && !entries(int32(i)) || encloses != nil && encloses[i] ||
			neg && w.wt.textBoxes > 0 && (w.textBox(int32(i)) || boxSigs[e.sig] && w.boxOfText(int32(i)) && (e.hi <= lastText || w.inSubsection(int32(i)))) ||
			neg && e.anchorID && w.wt.anchorIDs > 0 && float64(w.anchors) >= w.wt.anchorIDs {
			neg, teaser = false, false
		}
		e.neg, e.pos, e.teaser = 0, 0, 0
		if e.parent >= 0 {
			p := w.elems[e.parent]
			e.neg, e.pos, e.teaser = p.neg, p.pos, p.teaser
		}
		if teaser {
			e.teaser++
		}
		if neg {
			e.neg++
		}
		if pos {
			e.pos++
		}
	}
}

// enclosesBody reports, per element, whether it encloses the page's one
// element marked itemprop=articleBody: the page itself says that the
// article lies inside, so such an element is no boilerplate box,
// whatever its class name. It is nil when the page marks no body or
// several.
func (w *mcWalker) enclosesBody() []bool {
	body := -1
	for i := range w.elems {
		e := &w.elems[i]
		if e.articleBody {
			if body >= 0 {
				return nil
			}
			body = i
		}
	}
	if body < 0 {
		return nil
	}
	out := make([]bool, len(w.elems))
	for e := w.elems[body].parent; e >= 0; e = w.elems[e].parent {
		out[e] = true
	}
	return out
}

// bodyTextOver reports whether the page holds more than x text bytes
// (mcTextLen of root). It counts only as far as it must: most forms are
// small, and the page's text need not be counted to the end for them.
func (w *mcWalker) bodyTextOver(x int) bool {
	if w.bodyLen >= 0 {
		return w.bodyLen > x
	}
	if w.bodyMin > x {
		return true
	}
	// mcTextLen stops once past its limit; a total within it is the
	// whole count, a larger one a lower bound of it. The limit at least
	// doubles the bound known, so that however many forms ask, the page
	// is counted over no more than about 24 times (log2 of mcMaxInput).
	limit := max(x, 2*w.bodyMin)
	n := mcTextLen(w.root, limit)
	if n <= limit {
		w.bodyLen = n
		return n > x
	}
	w.bodyMin = n
	return true
}

// mcTextLen returns the number of non-space text bytes under n, stopping
// once it exceeds limit.
func mcTextLen(n *html.Node, limit int) int {
	total, visited := 0, 0
	var rec func(n *html.Node, depth int)
	rec = func(n *html.Node, depth int) {
		for c := n.FirstChild; c != nil && total <= limit && visited < mcMaxNodes; c = c.NextSibling {
			visited++
			switch c.Type {
			case html.TextNode:
				total += len(strings.TrimSpace(c.Data))
			case html.ElementNode:
				if depth < mcMaxDepth && !mcSkipped(c.DataAtom) {
					rec(c, depth+1)
				}
			}
		}
	}
	rec(n, 0)
	return total
}

// mcHidden reports whether c is hidden from readers by its attributes, or
// is a landmark or control that never holds main text by its ARIA role
// (navigation, menus, search, buttons, toolbars).
func mcHidden(c *html.Node) bool {
	for _, at := range c.Attr {
		switch at.Key {
		case "hidden":
			return true
		case "class":
			if mcHiddenClass(at.Val) {
				return true
			}
		case "aria-modal":
			return true
		case "style":
			if mcStyleHides(at.Val) {
				return true
			}
		case "role":
			switch strings.ToLower(strings.TrimSpace(at.Val)) {
			case "navigation", "complementary", "contentinfo", "menu", "menubar", "search", "button", "toolbar":
				return true
			}
		}
	}
	return false
}

// mcRole returns c's ARIA role, lower case.
func mcRole(c *html.Node) string {
	for _, at := range c.Attr {
		if at.Key == "role" {
			return strings.ToLower(strings.TrimSpace(at.Val))
		}
	}
	return ""
}

// mcStyleHides reports whether an inline style contains display:none or
// visibility:hidden, ignoring case and spaces.
func mcStyleHides(style string) bool {
	var b [64]byte
	k := 0
	for i := 0; i < len(style); i++ {
		c := style[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		case c == ';':
			if s := string(b[:k]); s == "display:none" || s == "visibility:hidden" ||
				strings.HasPrefix(s, "display:none!") || strings.HasPrefix(s, "visibility:hidden!") {
				return true
			}
			k = 0
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		if k < len(b) {
			b[k] = c
			k++
		}
	}
	s := string(b[:k])
	return s == "display:none" || s == "visibility:hidden" ||
		strings.HasPrefix(s, "display:none!") || strings.HasPrefix(s, "visibility:hidden!")
}

// mcAnchorID reports whether element c has an id that spells the heading
// that opens c, an anchor the page made from the title of a section or a
// member ("more-control-flow-tools" on "4.8. More Control Flow Tools",
// "menuKeyTyped(...)" on a method "menuKeyTyped"), and whether its
// negative hint, if it has one, comes from that id alone. Id and heading
// are compared on their letters and digits in lower case, leading digits
// (section numbers) left out: one starts with the other, and both have
// mcAnchorMin or more.
func mcAnchorID(c *html.Node) (anchor, idNegOnly bool) {
	id, classNeg := "", false
	for _, at := range c.Attr {
		switch at.Key {
		case "class":
			classNeg, _ = mcClassHint(at.Val)
		case "id":
			id = at.Val
		}
	}
	if id == "" {
		return false, false
	}
	h := mcOpeningHeading(c)
	if h == nil {
		return false, false
	}
	var sb strings.Builder
	mcAppendText(&sb, h, 256)
	nid, nh := mcAlnumLower(id), mcAlnumLower(sb.String())
	if min(len(nid), len(nh)) < mcAnchorMin || !strings.HasPrefix(nid, nh) && !strings.HasPrefix(nh, nid) {
		return false, false
	}
	idNeg, _ := mcClassHint(id)
	return true, idNeg && !classNeg
}

// mcAnchorMin is the fewest letters and digits of an id and a heading
// that mcAnchorID compares.
const mcAnchorMin = 4

// mcOpeningHeading returns the heading (h1 to h6) that opens element c:
// c itself, or the first heading inside it with no text before it,
// looked for among the first mcOpeningNodes nodes; nil when there is
// none.
func mcOpeningHeading(c *html.Node) *html.Node {
	visited := 0
	var rec func(n *html.Node) (h *html.Node, stop bool)
	rec = func(n *html.Node) (*html.Node, bool) {
		switch n.DataAtom {
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
			return n, true
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			if visited++; visited > mcOpeningNodes {
				return nil, true
			}
			switch ch.Type {
			case html.TextNode:
				if strings.TrimSpace(ch.Data) != "" {
					return nil, true
				}
			case html.ElementNode:
				if mcSkipped(ch.DataAtom) {
					continue
				}
				if h, stop := rec(ch); stop {
					return h, true
				}
			}
		}
		return nil, false
	}
	h, _ := rec(c)
	return h
}

// mcOpeningNodes is how many nodes mcOpeningHeading visits at most.
const mcOpeningNodes = 64

// mcAppendText appends the text under n to sb, up to about limit bytes.
func mcAppendText(sb *strings.Builder, n *html.Node, limit int) {
	for c := n.FirstChild; c != nil && sb.Len() < limit; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			sb.WriteString(c.Data)
		case html.ElementNode:
			if !mcSkipped(c.DataAtom) {
				mcAppendText(sb, c, limit)
			}
		}
	}
}

// mcAlnumLower returns the letters and digits of s in lower case, but
// the digits before the first letter.
func mcAlnumLower(s string) string {
	var sb strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			sb.WriteRune(unicode.ToLower(r))
		case unicode.IsDigit(r) && sb.Len() > 0:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// mcHints classifies an element by the conventional words in its class,
// id and itemprop attributes: neg for navigation, comments, sharing,
// advertising and similar boilerplate containers, pos for article bodies.
// These are markup conventions, not natural-language stop lists; they
// only adjust the density-based scores.
func mcHints(c *html.Node) (neg, pos bool) {
	if c.DataAtom == atom.Body || c.DataAtom == atom.Html {
		return false, false
	}
	for _, at := range c.Attr {
		switch at.Key {
		case "class", "id":
			n, p := mcClassHint(at.Val)
			neg = neg || n
			pos = pos || p
		case "itemprop":
			if strings.EqualFold(at.Val, "articleBody") || strings.EqualFold(at.Val, "text") {
				pos = true
			}
		}
	}
	return neg, pos
}

// mcClassHint classifies a class or id attribute value. Each name in it
// (a whitespace-separated word) is split into tokens (runs of letters and
// digits); a name with a boilerplate token is negative even when it also
// has an article token ("entry-meta", "article-related", "post-author":
// parts of an article that are not its text), and a name with only article
// tokens is positive.
func mcClassHint(v string) (neg, pos bool) {
	var b [32]byte
	k := 0
	nameNeg, namePos := false, false
	check := func() {
		if k == 0 || k > len(b) {
			k = 0
			return
		}
		t := string(b[:k])
		k = 0
		if mcNegToken(t) || mcCompoundNeg(t) {
			nameNeg = true
		} else if mcPosToken(t) {
			namePos = true
		}
	}
	endName := func() {
		check()
		if nameNeg {
			neg = true
		} else if namePos {
			pos = true
		}
		nameNeg, namePos = false, false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			endName()
			continue
		default:
			check()
			continue
		}
		if k < len(b) {
			b[k] = c
		}
		k++
	}
	endName()
	return neg, pos
}

// mcNegToken reports whether a class/id token names a boilerplate container.
func mcNegToken(t string) bool {
	switch t {
	case "ad", "ads", "adv", "advert", "aside", "tags", "tag", "rss", "rail", "extra", "links",
		"more", "toc", "bio", "meta", "cta", "topics", "keywords", "credit", "credits":
		return true
	}
	if t == "" {
		return false
	}
	// Boilerplate prefixes, by first letter (this runs for every class
	// and id token of the page).
	switch t[0] {
	case 'a':
		return mcHasPrefix(t, "advert", "author", "avatar")
	case 'b':
		return mcHasPrefix(t, "breadcrumb", "banner", "byline", "breaking")
	case 'c':
		return mcHasPrefix(t, "comment", "cookie", "consent", "copyright")
	case 'd':
		return mcHasPrefix(t, "disqus", "disclaimer", "donate")
	case 'f':
		return mcHasPrefix(t, "footer", "follow")
	case 'g':
		return mcHasPrefix(t, "gdpr")
	case 'h':
		return mcHasPrefix(t, "hashtag")
	case 'l':
		return mcHasPrefix(t, "login")
	case 'm':
		return mcHasPrefix(t, "menu", "masthead", "modal")
	case 'n':
		return mcHasPrefix(t, "nav", "newsletter")
	case 'o':
		return mcHasPrefix(t, "outbrain")
	case 'p':
		return mcHasPrefix(t, "promo", "popular", "pagination", "pager", "popup", "profile")
	case 'r':
		return mcHasPrefix(t, "respond", "reply", "related", "recommend", "readmore", "rating", "recirc")
	case 's':
		return mcHasPrefix(t, "sidebar", "share", "sharing", "social", "sponsor", "subscribe", "signup", "skip", "subscription")
	case 't':
		return mcHasPrefix(t, "trending", "taboola", "toolbar", "tagcloud", "teaser")
	case 'w':
		return mcHasPrefix(t, "widget")
	}
	return false
}

// mcHasPrefix reports whether t starts with one of ps.
func mcHasPrefix(t string, ps ...string) bool {
	for _, p := range ps {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// mcPosToken reports whether a class/id token names an article body.
func mcPosToken(t string) bool {
	if t == "" {
		return false
	}
	// By first letter, as in mcNegToken.
	switch t[0] {
	case 'a':
		return strings.HasPrefix(t, "article")
	case 'b':
		return mcHasPrefix(t, "body", "blog")
	case 'c':
		return strings.HasPrefix(t, "content")
	case 'e':
		return strings.HasPrefix(t, "entry")
	case 'h':
		return strings.HasPrefix(t, "hentry")
	case 'm':
		return strings.HasPrefix(t, "main")
	case 'p':
		return strings.HasPrefix(t, "post")
	case 's':
		return strings.HasPrefix(t, "story")
	case 't':
		return strings.HasPrefix(t, "text")
	}
	return false
}

// mcHiddenClass reports whether a class attribute names one of the common
// "visually hidden" utility classes (text for screen readers only, which a
// reader of the page never sees).
func mcHiddenClass(v string) bool {
	for len(v) > 0 {
		// The class names, split at ASCII white space; an ASCII name can
		// match only a name of its own length (a non-ASCII one may fold
		// to one of another: "ſ" is an "s").
		i, ascii := 0, true
		for ; i < len(v); i++ {
			c := v[i]
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' {
				break
			}
			ascii = ascii && c < utf8.RuneSelf
		}
		f := v[:i]
		v = v[min(i+1, len(v)):]
		// Tailwind writes an !important utility with a leading '!'.
		f = strings.TrimPrefix(f, "!")
		if len(f) < 4 || len(f) > 18 {
			continue
		}
		for _, h := range [...]string{"hidden", "sr-only", "screen-reader-text", "visually-hidden", "visuallyhidden",
			"screenreader", "screen-reader-only", "element-invisible", "d-none", "hide"} {
			if (!ascii || len(f) == len(h)) && strings.EqualFold(f, h) {
				return true
			}
		}
	}
	return false
}

// mcSignature hashes an element's tag and class attribute (FNV-1a), so
// that siblings built from one template compare equal.
func mcSignature(c *html.Node) uint32 {
	h := uint32(2166136261)
	mix := func(s string) {
		for i := 0; i < len(s); i++ {
			h ^= uint32(s[i])
			h *= 16777619
		}
	}
	mix(c.Data)
	id := ""
	for _, at := range c.Attr {
		switch at.Key {
		case "class":
			mix("\x00")
			mix(at.Val[:min(len(at.Val), 256)])
			return h
		case "id":
			id = at.Val
		}
	}
	// Without a class, an id tells the page's regions (header, content,
	// sidebar, footer) apart.
	if id != "" {
		mix("\x01")
		mix(id[:min(len(id), 256)])
	}
	return h
}

// mcTeaserWords is the most words of one teaser in a list of teasers.
const mcTeaserWords = 80

// markTeaserLists marks as boilerplate the repeated sibling patterns of
// link lists: three or more sibling elements built from one template
// (same tag and class), nearly all short (at most mcTeaserWords words)
// and with a link, whose words are together at
// least teaserLinkShare links. Those are lists of teasers (related
// articles, "read more", most popular), not paragraphs of an article.
func (w *mcWalker) markTeaserLists() {
	type group struct {
		parent        int32
		sig           uint32
		n, withLink   int
		words, linked int32
	}
	// Groups are indexed by parent and signature; of[i] is the group of
	// element i, -1 until known.
	index := make(map[[2]uint32]int32)
	var groups []group
	of := make([]int32, len(w.elems))
	for i := 1; i < len(w.elems); i++ {
		e := &w.elems[i]
		of[i] = -1
		if e.parent < 0 || e.lo == e.hi {
			continue
		}
		k := [2]uint32{uint32(e.parent), e.sig}
		gi, ok := index[k]
		if !ok {
			gi = int32(len(groups))
			groups = append(groups, group{parent: e.parent, sig: e.sig})
			index[k] = gi
		}
		of[i] = gi
		g := &groups[gi]
		g.n++
		words := w.wordPrefix[e.hi] - w.wordPrefix[e.lo]
		linked := w.linkPrefix[e.hi] - w.linkPrefix[e.lo]
		if linked > 0 && words <= mcTeaserWords {
			g.withLink++
		}
		g.words += words
		g.linked += linked
	}
	for i := 1; i < len(w.elems); i++ {
		e := &w.elems[i]
		gi := of[i]
		if gi < 0 {
			// An empty element is marked with the group of its
			// siblings alike, as a member.
			var ok bool
			if gi, ok = index[[2]uint32{uint32(e.parent), e.sig}]; !ok {
				continue
			}
		}
		g := &groups[gi]
		if g.n < 3 || 4*g.withLink < 3*g.n || float64(g.linked) < w.wt.teaserLinkShare*float64(g.words) {
			continue
		}
		e.ownTeaser = true
	}
}

// mcSmallImage reports whether img element c is an icon or emoji by its
// declared size (width or height under 50 pixels).
func mcSmallImage(c *html.Node) bool {
	for _, at := range c.Attr {
		if at.Key == "width" || at.Key == "height" {
			v := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(at.Val), "px"))
			if n, err := strconv.Atoi(v); err == nil && n < 50 {
				return true
			}
		}
	}
	return false
}

// mcCaptionClass reports whether c's class attribute names a caption: it
// contains "caption" (also "figcaption", "img__caption") or "legend", in
// any case.
func mcCaptionClass(c *html.Node) bool {
	for _, at := range c.Attr {
		if at.Key == "class" {
			v := at.Val[:min(len(at.Val), 256)]
			if mcContainsFold(v, "caption") || mcContainsFold(v, "legend") {
				return true
			}
			// Unicode lowercasing makes more names match ("CAPT\u0130ON"),
			// but only in a value that is not all ASCII.
			if mcASCII(v) {
				return false
			}
			v = strings.ToLower(v)
			return strings.Contains(v, "caption") || strings.Contains(v, "legend")
		}
	}
	return false
}

// mcASCII reports whether s is all ASCII.
func mcASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// mcIsArticleBody reports whether c is marked itemprop=articleBody.
func mcIsArticleBody(c *html.Node) bool { return mcItemprop(c, "articleBody") }

// mcItemprop reports whether one of c's microdata item properties
// (itemprop, a space-separated list) is name.
func mcItemprop(c *html.Node, name string) bool {
	for _, at := range c.Attr {
		if at.Key == "itemprop" {
			for _, f := range strings.Fields(at.Val) {
				if strings.EqualFold(f, name) {
					return true
				}
			}
		}
	}
	return false
}
