package extract

import "golang.org/x/net/html/atom"

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
