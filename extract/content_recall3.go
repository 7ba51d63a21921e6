package extract

import (
	"strings"

	"golang.org/x/net/html"
)

// mcIsDescription reports whether element c has itemprop=description: in
// schema.org microdata, the summary of the item it belongs to.
func mcIsDescription(c *html.Node) bool {
	for _, at := range c.Attr {
		if at.Key == "itemprop" {
			for _, f := range strings.Fields(at.Val) {
				if strings.EqualFold(f, "description") {
					return true
				}
			}
		}
	}
	return false
}

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
