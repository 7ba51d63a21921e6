package extract

// Rules for pages that fail as a whole: the container read the wrong
// way, or the wrong container.

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
