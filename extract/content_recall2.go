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
