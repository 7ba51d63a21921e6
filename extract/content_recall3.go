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
