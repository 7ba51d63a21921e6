package maintext

// Rules that drop what sits inside or right after the article without
// being part of it: pointer lines ("Read also: <link>"), short boxes of
// div text between its paragraphs, and the class and id hints that name
// a post's meta box.

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// mcPointerLabel is the most words of the label of a pointer line
// ("Read also:", "Le puede interesar:"; chosen on the design folds: 4
// also took "Continue reading at Example:", the rest of an excerpt).
const mcPointerLabel = 3

// dropPointers drops the pointer lines set among the article's
// paragraphs: lines each a short plain label ending in a colon followed
// by a link to another article ("Read also: <a>headline</a>"), with a
// kept paragraph (p) of running text right before them and one, or a
// heading, right after them (among the kept blocks), all children of one
// element. Such a line points away from the text around it; it is no part
// of it.
func (w *mcWalker) dropPointers(keep []bool) {
	var run []int       // pointer lines after the last kept paragraph of running text
	parent := int32(-1) // the parent of that paragraph, -1 when the last kept block is none
	for i, k := range keep {
		if !k {
			continue
		}
		b := &w.blocks[i]
		e := &w.elems[b.elem]
		if parent >= 0 && e.parent == parent && w.pointer(b) {
			run = append(run, i)
			continue
		}
		text := b.heading == 0 && b.stops > 0 && !w.weak(b) && e.tag == atom.P
		if parent >= 0 && e.parent == parent && (text || b.heading != 0) {
			for _, j := range run {
				keep[j] = false
			}
		}
		run = run[:0]
		parent = -1
		if text {
			parent = e.parent
		}
	}
}

// dropTrailingPointers drops the pointer lines kept after the article's
// last paragraph of running text: a contact box's "Website:
// <a>example.com</a>" and "Facebook: <a>...</a>" lines.
func (w *mcWalker) dropTrailingPointers(keep []bool) {
	last := -1
	for i, k := range keep {
		if b := &w.blocks[i]; k && b.heading == 0 && b.stops > 0 && !w.weak(b) && !w.pointer(b) {
			last = i
		}
	}
	if last < 0 {
		return
	}
	for i := last + 1; i < len(keep); i++ {
		if keep[i] && w.pointer(&w.blocks[i]) {
			keep[i] = false
		}
	}
}

// pointer reports whether block b is a pointer line: a p or div element,
// not in a list item, a definition or a table cell (there a label and a
// link are a reference, part of the text), whose linked words are at
// least half of its words and all come after its plain words (at most
// mcPointerLabel), which its first colon ends. A link before the colon
// ("<a>Availability</a>: Unix.") is a label of the text, not a pointer
// away from it.
func (w *mcWalker) pointer(b *mcBlock) bool {
	label := b.words - b.linkWords
	if b.heading != 0 || label < 1 || label > mcPointerLabel || 2*b.linkWords < b.words || b.linkAt != label+1 {
		return false
	}
	e := &w.elems[b.elem]
	if e.tag != atom.P && e.tag != atom.Div || w.inCell(b.elem) || e.parent >= 0 && (w.elems[e.parent].tag == atom.Li || w.elems[e.parent].tag == atom.Dd) {
		return false
	}
	text := w.buf[b.start:b.end]
	colon := bytes.IndexByte(text, ':')
	if colon < 0 {
		return false
	}
	return int32(len(bytes.Fields(text[:colon+1]))) == label
}

// mcCompoundNeg reports whether a class/id token is an article word
// run together with "meta" ("postmetadata", "entrymeta"): the metadata
// line of a post (date, categories, "filed under"), as "post-meta" is.
func mcCompoundNeg(t string) bool {
	if len(t) < 8 || t[0] != 'p' && t[0] != 'e' && t[0] != 'a' && t[0] != 's' {
		return false // too short, or no article word first
	}
	for _, p := range [...]string{"post", "entry", "article", "story"} {
		if len(t) > len(p) && t[:len(p)] == p && strings.HasPrefix(t[len(p):], "meta") {
			return true
		}
	}
	return false
}

// mcIDNeg reports whether element c's id names a boilerplate box while its
// class names an article part ("post" with id "author"): the id, unique on
// the page, names this one element; the class is shared by its kind. An
// element the page declares its article body (itemprop) is never one.
func mcIDNeg(c *html.Node) bool {
	idNeg, classNeg, classPos := false, false, false
	for _, at := range c.Attr {
		switch at.Key {
		case "id":
			idNeg, _ = mcClassHint(at.Val)
		case "class":
			classNeg, classPos = mcClassHint(at.Val)
		case "itemprop":
			if strings.EqualFold(at.Val, "articleBody") || strings.EqualFold(at.Val, "text") {
				return false
			}
		}
	}
	return idNeg && classPos && !classNeg
}

// dropInlineBoxes drops the boxes set between the article's paragraphs
// (a newsletter sign-up, a teaser) in markup that does not name them:
// when three or more kept paragraphs (p elements of running text) are
// children of one element and hold more words than those of any other, a
// div child of that element lying between its first and its last such
// paragraph whose kept blocks are all div text (no p, list item, table
// cell, code or heading), together fewer than captionWords words, at
// least one of them running text (a box of fragments alone may be the
// subheading of the paragraph after it: "10", "Maori Warrior Masks").
func (w *mcWalker) dropInlineBoxes(keep []bool, sum []mcParaSum, par int32) {
	if par < 0 || sum[par].paras < 3 {
		return
	}
	pe := &w.elems[par]
	for i := int(par) + 1; i < len(w.elems); i++ {
		e := &w.elems[i]
		if e.lo >= pe.hi {
			break
		}
		if e.parent != par || e.tag != atom.Div || e.lo <= sum[par].first || e.hi > sum[par].last {
			continue
		}
		n, kept, text := int32(0), false, false
		for j := e.lo; j < e.hi && n >= 0; j++ {
			if !keep[j] {
				continue
			}
			b := &w.blocks[j]
			if b.heading != 0 || w.elems[b.elem].tag != atom.Div {
				n = -1 // not a box of div text
				break
			}
			kept = true
			n += b.words
			text = text || !w.weak(b)
		}
		if !kept || n < 0 || !text || float64(n) >= w.wt.captionWords {
			continue
		}
		for j := e.lo; j < e.hi; j++ {
			keep[j] = false
		}
	}
}
