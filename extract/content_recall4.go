package extract

import (
	"bytes"

	"golang.org/x/net/html/atom"
)

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
