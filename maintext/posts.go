package maintext

// Rules that take in more of a post than the container scoring finds: its
// continuation and neighbouring posts of annotated links, a container of
// headings only giving way, the post's title and standfirst, bare web
// addresses after its paragraphs, and composed characters.

import (
	"bytes"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/text/unicode/norm"
)

// keepContinuation keeps the paragraphs that go on right after the
// container c in a sibling element under one negative hint of its own (a
// blog's "more" part of a post, cut off under the fold: id="more",
// class="asset-more"): when the blocks right after c, inside c's parent,
// are a run of at least mcBoxParas paragraphs (p or blockquote) of running
// text without links, under no teaser list and at most one negative hint
// more than c's parent (a disclaimer in a sidebar has two), and hold more
// words than c's kept text, they are more of the article. Comments are no such run (each opens with a byline of
// links), nor is an author box or a disclaimer (one or two paragraphs).
func (w *mcWalker) keepContinuation(keep []bool, c mcElem) {
	p := c.parent
	if p < 0 || c.hi >= w.elems[p].hi {
		return
	}
	kept := int32(0)
	for i := c.lo; i < c.hi; i++ {
		if keep[i] {
			kept += w.blocks[i].words
		}
	}
	end, words := c.hi, int32(0)
	for ; end < w.elems[p].hi; end++ {
		b := &w.blocks[end]
		e := &w.elems[b.elem]
		if b.heading != 0 || b.linkWords > 0 || b.stops == 0 || w.weak(b) || e.tag != atom.P && e.tag != atom.Blockquote ||
			e.teaser > c.teaser || e.neg > w.elems[p].neg+1 {
			break
		}
		words += b.words
	}
	if end-c.hi < mcBoxParas || words <= kept {
		return
	}
	for i := c.hi; i < end; i++ {
		keep[i] = true
	}
}

// textContainer returns best, the container, unless all its blocks are
// headings: a headline scoring more than the short post under it (a
// comic's one-line introduction heavy with links). Then it returns the
// best-scoring element that holds a block of running text scoring above
// zero, if one scores above zero; else best.
func (w *mcWalker) textContainer(best int, prefix []float64) int {
	c := &w.elems[best]
	for i := c.lo; i < c.hi; i++ {
		if w.blocks[i].heading == 0 {
			return best
		}
	}
	// hasText[e]: e holds a block of running text scoring above zero.
	// Blocks are in document order and an element's blocks are
	// contiguous, so one pass over the blocks marks each block's
	// element and ancestors until one is already marked.
	hasText := make([]bool, len(w.elems))
	for i := range w.blocks {
		b := &w.blocks[i]
		if b.heading != 0 || b.stops == 0 || w.weak(b) || prefix[i+1] <= prefix[i] {
			continue
		}
		for e := b.elem; e >= 0 && !hasText[e]; e = w.elems[e].parent {
			hasText[e] = true
		}
	}
	alt, altScore := -1, 0.0
	for i, e := range w.elems {
		if s := prefix[e.hi] - prefix[e.lo]; hasText[i] && s > altScore {
			alt, altScore = i, s
		}
	}
	if alt < 0 {
		return best
	}
	return alt
}

// keepLinkPost keeps a list of annotated links right before or after the
// container c, inside c's parent: a link post (a blog's "links of the
// day", a deals roundup) whose items each say something beyond their
// link ("via netzpolitik.org", "– I would slowly back away."). The run
// of blocks next to c that are all in a list of teasers one level below
// c's, under no more negative hints than c and without headings, is kept
// when it holds mcBoxParas or more teaser items, at least half of which
// hold mcLinkNote or more words outside links. A list of related
// articles (titles that are links, nothing more) stays out, and so does
// any list under a heading of its own.
func (w *mcWalker) keepLinkPost(keep []bool, c mcElem) {
	p := c.parent
	if p < 0 {
		return
	}
	lo, hi := w.elems[p].lo, w.elems[p].hi
	in := func(i int32) bool {
		b := &w.blocks[i]
		e := &w.elems[b.elem]
		return b.heading == 0 && e.teaser == c.teaser+1 && e.neg <= c.neg
	}
	run := func(from, to, step int32) {
		items, noted := 0, 0
		item, note := int32(-1), int32(0)
		endItem := func() {
			if item >= 0 {
				items++
				if note >= mcLinkNote {
					noted++
				}
			}
		}
		i := from
		for ; i != to && in(i); i += step {
			// The teaser element that holds block i: its item.
			e := w.blocks[i].elem
			for !w.elems[e].ownTeaser {
				e = w.elems[e].parent
			}
			if e != item {
				endItem()
				item, note = e, 0
			}
			note += w.blocks[i].words - w.blocks[i].linkWords
		}
		endItem()
		if items < mcBoxParas || 2*noted < items {
			return
		}
		for j := from; j != i; j += step {
			keep[j] = true
		}
	}
	if c.hi < hi {
		run(c.hi, hi, 1)
	}
	if c.lo > lo {
		run(c.lo-1, lo-1, -1)
	}
}

// mcLinkNote is how many words outside its link make a teaser an
// annotated link (keepLinkPost).
const mcLinkNote = 3

// needCaptions reports whether the container c must be read again with
// captions kept (a photo or comic post, whose only text is the one beside
// its image): when nothing but headings is kept, and also when a byline
// or standfirst above c is kept but no block of c other than a heading,
// while c holds a caption.
func (w *mcWalker) needCaptions(keep []bool, c mcElem) bool {
	if !w.hasText(keep) {
		return true
	}
	caption := false
	for i := c.lo; i < c.hi; i++ {
		if keep[i] && w.blocks[i].heading == 0 {
			return false
		}
		caption = caption || w.caption(&w.blocks[i])
	}
	return caption
}

// keepLinkedTitle keeps the heading that opens the container c, or that
// stands right before it inside c's parent, when only its link kept it
// out: a post's title written as a link to the post itself
// (<h2><a href=permalink>...</a></h2>). It must be an h1 to h3 under no
// more negative hints or teasers than c.
func (w *mcWalker) keepLinkedTitle(keep []bool, c mcElem) {
	i := c.lo
	if i >= c.hi || w.blocks[i].heading == 0 {
		i--
		if i < 0 || c.parent < 0 || i < w.elems[c.parent].lo {
			return
		}
	}
	b := &w.blocks[i]
	e := &w.elems[b.elem]
	if keep[i] || b.heading == 0 || b.heading > 3 || e.neg > c.neg || e.teaser > c.teaser ||
		float64(b.linkWords) <= w.wt.maxLinkShare*float64(b.words) {
		return
	}
	keep[i] = true
}

// mcIsDescription reports whether element c has itemprop=description: in
// schema.org microdata, the summary of the item it belongs to.
func mcIsDescription(c *html.Node) bool { return mcItemprop(c, "description") }

// keepDescription keeps the standfirst that the page marks up as the
// article's description (itemprop=description) between the headline h
// and the container c, whatever its length and class names (a news
// system's "teaser-text" over the body): the blocks of such elements
// that lie after h and before c, are no headings, sit in no list of
// teasers below c's and are not mostly links. An author's description
// (a bio) stands elsewhere: after the text or in a sidebar.
func (w *mcWalker) keepDescription(keep []bool, c mcElem, h int32) {
	for i := h + 1; i < c.lo; i++ {
		b := &w.blocks[i]
		e := &w.elems[b.elem]
		if e.description && b.heading == 0 && e.teaser <= c.teaser && 2*b.linkWords <= b.words {
			keep[i] = true
		}
	}
}

// keepOpeningHeading keeps the heading that opens a post right before its
// container c when the headline h found by the title is another heading
// above it (a blog's name that the page title also names, "Blog name:
// Post title") or none: an h1 to h3 without links, the last block before
// c, whose element is a sibling of c's under no more negative hints or
// teasers than c. A date header right over it (see dateHeader) is kept
// with it, as it is with the headline.
func (w *mcWalker) keepOpeningHeading(keep []bool, c mcElem, h int32) {
	i := c.lo - 1
	if c.parent < 0 || i <= h || i < w.elems[c.parent].lo || keep[i] {
		return
	}
	b := &w.blocks[i]
	e := &w.elems[b.elem]
	if b.heading == 0 || b.heading > 3 || b.linkWords > 0 || e.parent != c.parent || e.neg > c.neg || e.teaser > c.teaser {
		return
	}
	keep[i] = true
	if i > 0 && !keep[i-1] && w.dateHeader(&w.blocks[i-1], b) {
		keep[i-1] = true
	}
}

// keepURLParagraphs keeps the paragraphs (p) that are one bare link, its
// text a web address ("http://example.org/petition"), right after a kept
// paragraph of running text (or after another such address), both
// children of one element, under no more negative hints or teasers than
// it: a post's source or reference, written out, is part of the post,
// though it is all link and has no sentence.
func (w *mcWalker) keepURLParagraphs(keep []bool) {
	for i := 1; i < len(keep); i++ {
		b := &w.blocks[i]
		e := &w.elems[b.elem]
		if keep[i] || !keep[i-1] || e.tag != atom.P || b.heading != 0 || b.linkWords != b.words || !mcBareURL(w.buf[b.start:b.end]) {
			continue
		}
		prev := &w.blocks[i-1]
		pe := &w.elems[prev.elem]
		if pe.tag != atom.P || pe.parent != e.parent || e.neg > pe.neg || e.teaser > pe.teaser || prev.heading != 0 ||
			!mcBareURL(w.buf[prev.start:prev.end]) && (prev.stops == 0 || w.weak(prev)) {
			continue
		}
		keep[i] = true
	}
}

// mcBareURL reports whether text is one web address: no space, opening
// with "http://", "https://" or "www.".
func mcBareURL(text []byte) bool {
	if bytes.ContainsAny(text, " \n") {
		return false
	}
	for _, p := range [...]string{"http://", "https://", "www."} {
		if len(text) > len(p) && bytes.EqualFold(text[:len(p)], []byte(p)) {
			return true
		}
	}
	return false
}

// nfcBlock composes the decomposed characters in the text of the block
// being ended, w.buf[w.curStart:], and reports whether it rewrote it: a page may spell "ü" as "u" and a
// combining diaeresis, or a Bengali vowel sign in its two parts, and
// that text is the same as the composed one readers search for and
// compare with. Each sequence of a character and the marks that combine
// with it is written in Unicode normalization form C, except that a
// character standing alone that form C would replace by another single
// character (a canonical singleton) is left as the page wrote it: the
// Kelvin sign stays one, not a "K", and so does a CJK compatibility
// ideograph. The check is one pass over the block (ASCII passes
// at once); only a block that fails it is rewritten, in one more pass.
func (w *mcWalker) nfcBlock() (changed bool) {
	b := w.buf[w.curStart:]
	if !w.nonASCII || norm.NFC.IsNormal(b) { // ASCII text is in form C
		return false
	}
	out := make([]byte, 0, len(b))
	var it norm.Iter
	it.Init(norm.NFC, b)
	for !it.Done() {
		from := it.Pos()
		seg := it.Next()
		if src := b[from:it.Pos()]; utf8.RuneCount(src) == 1 && utf8.RuneCount(seg) == 1 {
			seg = src
		}
		out = append(out, seg...)
	}
	w.buf = append(w.buf[:w.curStart], out...)
	return true
}
