package extract

import (
	"bytes"
	"unicode/utf8"

	"golang.org/x/net/html/atom"
	"golang.org/x/text/unicode/norm"
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

// nfcBlock composes the decomposed characters in the text of the block
// being ended, w.buf[w.curStart:]: a page may spell "ü" as "u" and a
// combining diaeresis, or a Bengali vowel sign in its two parts, and
// that text is the same as the composed one readers search for and
// compare with. Each sequence of a character and the marks that combine
// with it is written in Unicode normalization form C, except that a
// character standing alone that form C would replace by another single
// character (a canonical singleton) is left as the page wrote it: the
// Kelvin sign stays one, not a "K", and so does a CJK compatibility
// ideograph. The check is one pass over the block (ASCII passes
// at once); only a block that fails it is rewritten, in one more pass.
func (w *mcWalker) nfcBlock() {
	b := w.buf[w.curStart:]
	if norm.NFC.IsNormal(b) {
		return
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
}
