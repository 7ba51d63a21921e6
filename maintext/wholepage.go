package maintext

// Rules for pages that fail as a whole: the container read the wrong
// way, or the wrong container.

import "golang.org/x/net/html/atom"

// photoStory reports whether the container c is a photo story: its
// captions, read as text, hold more running text than the rest of it
// that is kept. A gallery post or a home story tells its story in the
// lines under its pictures, each a sentence or more; an article with a
// few illustrations has captions too, but far less of them than text.
func (w *mcWalker) photoStory(keep []bool, c mcElem) bool {
	capWords, capBlocks, text := int32(0), 0, int32(0)
	for i := c.lo; i < c.hi; i++ {
		b := &w.blocks[i]
		if b.heading != 0 || w.weak(b) || b.stops == 0 {
			continue
		}
		if keep[i] {
			text += b.words
			continue
		}
		e := &w.elems[b.elem]
		if w.caption(b) && !w.credit(b) && e.neg <= c.neg && e.teaser <= c.teaser && float64(b.linkWords) <= w.wt.maxLinkShare*float64(b.words) {
			capWords += b.words
			capBlocks++
		}
	}
	return capBlocks >= mcBetweenItems && capWords > text
}

// mcEntryShare is the least share of an element's words that a list of
// entries in it must hold for the element to be a box of entries
// (chosen on the design folds: the boxes of comments and slides found
// there hold 85 % and more, the page wrappers around an article and its
// comments 60 % and less).
const mcEntryShare = 0.75

// entryBoxes returns a test of whether element e is a box of entries:
// mcEntryShare of its words or more are in a list of entries, three or
// more sibling elements of one template (as in markTeaserLists), neither
// paragraphs, headings nor sections, each holding running text (a
// sentence mark, not a fragment): a comment thread, a slide show. The
// page-wrapper exception of resolveHints does not void the negative hint
// of such a box, however many of the page's words it holds: a thread of
// comments or a slide show that outgrew the article above it is still
// no part of it. The work is done once, on the first call for an element
// with a negative or teaser hint of its own (the test is false for others:
// they have nothing to void).
func (w *mcWalker) entryBoxes() func(e int32) bool {
	var sub []int32 // the most words of a list of entries in e or below it
	return func(e int32) bool {
		el := &w.elems[e]
		if !el.ownNeg && !el.ownTeaser {
			return false // nothing to void or keep
		}
		if sub == nil {
			sub = w.entryWords()
		}
		return float64(sub[e]) >= mcEntryShare*float64(w.wordPrefix[el.hi]-w.wordPrefix[el.lo]) && sub[e] > 0
	}
}

// entryWords returns, per element, the most words that one list of
// entries (see entryBoxes) holds in it or in an element below it. It is
// linear in the number of blocks and elements.
func (w *mcWalker) entryWords() []int32 {
	n := len(w.elems)
	// text[e]: e holds a block of running text. Blocks come in document
	// order, so marking each block's element and its ancestors stops at
	// the first one already marked.
	text := make([]bool, n)
	for i := range w.blocks {
		b := &w.blocks[i]
		if b.heading != 0 || b.stops == 0 || w.weak(b) {
			continue
		}
		for e := b.elem; e >= 0 && !text[e]; e = w.elems[e].parent {
			text[e] = true
		}
	}
	type group struct {
		parent int32
		sig    uint32
	}
	type tally struct{ items, words int32 }
	groups := make(map[group]tally)
	for i := 1; i < n; i++ {
		c := &w.elems[i]
		if !text[i] || c.parent < 0 {
			continue
		}
		switch c.tag {
		case atom.P, atom.Section, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
			continue
		}
		g := group{c.parent, c.sig}
		t := groups[g]
		t.items++
		t.words += w.wordPrefix[c.hi] - w.wordPrefix[c.lo]
		groups[g] = t
	}
	sub := make([]int32, n)
	for g, t := range groups {
		if t.items >= 3 && t.words > sub[g.parent] {
			sub[g.parent] = t.words
		}
	}
	// Elements come in document order, each after its parent: a pass
	// from the last carries each maximum up to the parent.
	for i := n - 1; i >= 1; i-- {
		if p := w.elems[i].parent; p >= 0 && sub[i] > sub[p] {
			sub[p] = sub[i]
		}
	}
	return sub
}
