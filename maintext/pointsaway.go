package maintext

// Rules that drop the lines kept with the article that point away from
// it.

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// negInlineWalk visits the inline element c, which has a negative class
// or id hint (a rating widget's or a byline's span) or a class naming a
// caption (a photo's caption or credit written as a span), counting the
// words inside it as under that hint.
func (w *mcWalker) negInlineWalk(c *html.Node, depth int, elem int32, inArticle bool) {
	w.inNeg++
	if c.DataAtom == atom.A {
		w.inLink++
		w.walk(c, depth, elem, inArticle)
		w.inLink--
	} else {
		w.walk(c, depth, elem, inArticle)
	}
	w.inNeg--
}

// negInlineOut reports whether block b is all text of inline elements
// with a negative hint ("<span class=post-ratings>", "<span
// class=byline>") or a caption class ("<span class=img-caption>"):
// such text is the boilerplate or the caption the class names, though
// its element is no block of its own.
func (w *mcWalker) negInlineOut(b *mcBlock) bool {
	return b.negInline && !w.noHints && !w.negRelax
}

// mcStampUp is how many levels above a time-stamp line the item of a
// list of comments is looked for.
const mcStampUp = 6

// dropStampedItems drops the kept blocks of a list of comments (or of
// other posts) kept with the article: three or more sibling elements
// built from one template (mcSignature), each holding a short line with
// a clock time ("posted on 25 October 2012 at 2:11 AM by ..."), when
// their kept words are fewer than the kept words outside them (the
// article is elsewhere; on a live blog the items are the article).
func (w *mcWalker) dropStampedItems(keep []bool) {
	type key struct {
		parent int32
		sig    uint32
	}
	count := map[key]int32{}
	last := map[key]int32{} // the last item counted, so that each counts once
	var held []int32        // the elements holding a time-stamped line, each once per key
	for i, k := range keep {
		b := &w.blocks[i]
		if !k || !w.stampLine(b) {
			continue
		}
		for e, up := b.elem, 0; e > 0 && up < mcStampUp; e, up = w.elems[e].parent, up+1 {
			x := &w.elems[e]
			kk := key{x.parent, x.sig}
			if l, ok := last[kk]; ok && l == e {
				continue
			}
			last[kk] = e
			count[kk]++
			held = append(held, e)
		}
	}
	// The items: elements of a template three or more of which hold a
	// time-stamped line, each holding one (a sibling of the same
	// template without one, such as the article's own paragraph, is no
	// item).
	var items []int32
	for _, e := range held {
		if x := &w.elems[e]; count[key{x.parent, x.sig}] >= 3 {
			items = append(items, e)
		}
	}
	if len(items) == 0 {
		return
	}
	in := make([]bool, len(keep))
	for _, e := range items {
		for i := w.elems[e].lo; i < w.elems[e].hi; i++ {
			in[i] = true
		}
	}
	inside, outside := int32(0), int32(0)
	for i, k := range keep {
		if !k {
			continue
		}
		if in[i] {
			inside += w.blocks[i].words
		} else {
			outside += w.blocks[i].words
		}
	}
	if inside >= outside {
		return
	}
	for i := range keep {
		if in[i] {
			keep[i] = false
		}
	}
}

// stampLine reports whether block b is a short line (fewer than 20
// words, no heading, no code or table cell) holding a clock time: one or
// two digits, a colon, two digits ("10:22", "9:04 AM").
func (w *mcWalker) stampLine(b *mcBlock) bool {
	if b.heading != 0 || b.words >= 20 || w.elems[b.elem].tag == atom.Pre || w.inCell(b.elem) {
		return false
	}
	text := w.buf[b.start:b.end]
	digit := func(i int) bool { return i >= 0 && i < len(text) && '0' <= text[i] && text[i] <= '9' }
	for i := 0; i < len(text); i++ {
		if text[i] == ':' && digit(i-1) && !digit(i-3) && digit(i+1) && digit(i+2) && !digit(i+3) {
			return true
		}
	}
	return false
}

// mcContainsFold reports whether s contains the lowercase ASCII word sub,
// ignoring ASCII case.
func mcContainsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for ; j < len(sub); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != sub[j] {
				break
			}
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}
