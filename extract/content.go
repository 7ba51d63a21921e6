package extract

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// MainText returns the main content of the HTML page read from r (the
// article, post or story, without navigation, advertising, related links,
// comments and footers) as plain text: one paragraph per block, separated
// by blank lines, with <br> kept as a line break. It returns "" when the
// page has no text. It is the best content-block finder in this package;
// see "Main content" in the package documentation for the algorithm and its
// measured accuracy.
//
// The input is expected to be UTF-8 (as delivered by trawl's fetcher; wrap
// other encodings with golang.org/x/net/html/charset.NewReader); invalid
// bytes come out as U+FFFD, so the result is always valid UTF-8. Any input
// is accepted, however malformed, and work is bounded: at most 8 MiB are
// read from r, at most 1,048,576 nodes of the parsed tree are visited and
// content nested deeper than 256 elements is ignored. Should the HTML
// parser give up on the page (golang.org/x/net/html refuses more than 512
// open elements), the result of [BTE] on the same bytes is returned
// instead. The only error is one returned by r, wrapped.
func MainText(r io.Reader) (string, error) {
	page, err := io.ReadAll(io.LimitReader(r, mcMaxInput))
	if err != nil {
		return "", fmt.Errorf("extract: main text: %w", err)
	}
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		// The parser gives up on pathological nesting (more than 512 open
		// elements); the token-level finder still works there.
		return BTE(bytes.NewReader(page))
	}
	return MainTextNode(doc), nil
}

// MainTextNode is [MainText] on a page that is already parsed: n is
// normally the document node returned by html.Parse, but any node works
// (only its subtree is considered, and a title is looked for in it). The
// tree is not modified, so several goroutines may run MainTextNode on one
// tree at once. The same caps as MainText apply, except the input size cap.
func MainTextNode(n *html.Node) string {
	if n == nil {
		return ""
	}
	w := mcSegment(n)
	return w.mainText(w.title)
}

// mcSegment splits the page under n into blocks.
func mcSegment(n *html.Node) *mcWalker {
	root := mcFind(n, atom.Body)
	if root == nil {
		root = n
	}
	w := &mcWalker{title: mcTitle(n), wt: mcDefaultWeights(), root: root, bodyLen: -1}
	w.elems = append(w.elems, mcElem{tag: atom.Body, parent: -1})
	w.walk(root, 0, 0, false)
	w.flush(0)
	w.elems[0].hi = int32(len(w.blocks))
	w.resolveHints()
	return w
}

// mcFind returns the first element named a in n's subtree in document
// order, visiting a bounded number of nodes.
func mcFind(n *html.Node, a atom.Atom) *html.Node {
	visited := 0
	var rec func(n *html.Node, depth int) *html.Node
	rec = func(n *html.Node, depth int) *html.Node {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if visited++; visited > mcMaxNodes {
				return nil
			}
			if c.Type != html.ElementNode {
				continue
			}
			if c.DataAtom == a {
				return c
			}
			if depth < mcMaxDepth {
				if f := rec(c, depth+1); f != nil {
					return f
				}
			}
		}
		return nil
	}
	if n.Type == html.ElementNode && n.DataAtom == a {
		return n
	}
	return rec(n, 0)
}

// mcTitle returns the text of the document's <title>.
func mcTitle(n *html.Node) string {
	t := mcFind(n, atom.Title)
	if t == nil {
		return ""
	}
	var sb strings.Builder
	for c := t.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			sb.WriteString(c.Data)
		}
	}
	return sb.String()
}

// mcWeights are the scoring weights of the DOM finder.
type mcWeights struct {
	linkPenalty  float64 // cost of a linked word relative to the gain of a plain word
	blockCost    float64 // fixed cost of every block
	noStopCost   float64 // extra cost of a block without sentence punctuation
	negFactor    float64 // share of the score kept inside a negatively hinted element
	negCost      float64 // extra cost per word inside a negatively hinted element
	posBoost     float64 // gain multiplier inside a positively hinted element
	maxLinkShare float64 // blocks with a larger share of linked words are dropped
	leadWords    float64 // words allowed between the headline and the container
	siblingMin   float64 // least score of a sibling element taken in with the container
	siblingShare float64 // least score of such a sibling relative to the container's
	dateBlocks   int     // short blocks with digits kept just above the headline
}

// mcDefaultWeights returns the weights tuned on the train split of the
// evaluation set.
func mcDefaultWeights() mcWeights {
	return mcWeights{
		linkPenalty:  1.77,
		blockCost:    1.6,
		noStopCost:   2.7,
		negFactor:    0.53,
		negCost:      7.2,
		posBoost:     1.37,
		maxLinkShare: 0.8,
		leadWords:    60,
		siblingMin:   4,
		siblingShare: 0.05,
		dateBlocks:   2,
	}
}

// score returns the content score of block b: positive for blocks that look
// like running text, negative for boilerplate.
func (w *mcWalker) score(b *mcBlock, hints bool) float64 {
	words, links := float64(b.words), float64(b.linkWords)
	wt := &w.wt
	s := (words - links) - wt.linkPenalty*links - wt.blockCost
	if b.stops == 0 && b.heading == 0 {
		s -= wt.noStopCost
	}
	if b.repeats >= 3 {
		s = -words - wt.blockCost
	}
	if hints {
		e := &w.elems[b.elem]
		switch {
		case e.neg > 0:
			s = wt.negFactor*s - wt.negCost*words
		case e.pos > 0 && s > 0:
			s *= wt.posBoost
		}
	}
	return s
}

// mainText selects the main content among the blocks and renders it.
func (w *mcWalker) mainText(title string) string {
	if len(w.blocks) == 0 {
		return ""
	}
	best, prefix := w.container(true)
	if best < 0 {
		best, prefix = w.container(false)
	}
	if best < 0 {
		best = 0
	}
	c := w.elems[best]
	keep := make([]bool, len(w.blocks))
	w.keepRegion(keep, c, c.neg)
	// Take in sibling elements that score well too: articles split by an
	// advertisement or a figure into several containers.
	if p := c.parent; p >= 0 && w.wt.siblingShare > 0 {
		top := prefix[c.hi] - prefix[c.lo]
		least := max(w.wt.siblingMin, w.wt.siblingShare*top)
		for i := best + 1; i < len(w.elems); i++ {
			e := w.elems[i]
			if e.lo >= w.elems[p].hi {
				break
			}
			if e.parent == p && prefix[e.hi]-prefix[e.lo] > least {
				w.keepRegion(keep, e, e.neg)
			}
		}
		for i := best - 1; i > int(p); i-- {
			e := w.elems[i]
			if e.parent == p && prefix[e.hi]-prefix[e.lo] > least {
				w.keepRegion(keep, e, e.neg)
			}
		}
	}
	if h := int32(w.headline(title, c.hi)); h >= 0 {
		keep[h] = true
		// Keep the byline, dateline and standfirst between a headline and
		// the container, when they are short.
		if h < c.lo {
			n := int32(0)
			for i := h + 1; i < c.lo; i++ {
				n += w.blocks[i].words
			}
			if float64(n) <= w.wt.leadWords {
				for i := h + 1; i < c.lo; i++ {
					if b := &w.blocks[i]; w.plausible(b, w.elems[b.elem].neg) {
						keep[i] = true
					}
				}
			}
		}
		// A dateline often sits just above the headline: keep short
		// blocks with digits there.
		for i, k := h-1, 0; i >= 0 && k < w.wt.dateBlocks; i, k = i-1, k+1 {
			b := &w.blocks[i]
			if b.words > 8 || b.linkWords > 0 || !mcHasDigit(w.buf[b.start:b.end]) {
				break
			}
			keep[i] = true
		}
	}
	var sb strings.Builder
	emitted := make(map[string]bool)
	for i, k := range keep {
		if !k {
			continue
		}
		b := w.blocks[i]
		text := w.buf[b.start:b.end]
		if b.repeats > 1 {
			if emitted[string(text)] {
				continue
			}
			emitted[string(text)] = true
		}
		if sb.Len() > 0 {
			sb.WriteString("\n\n")
		}
		sb.Write(text)
	}
	return sb.String()
}

// keepRegion marks the plausible blocks of element e.
func (w *mcWalker) keepRegion(keep []bool, e mcElem, neg int16) {
	for i := e.lo; i < e.hi; i++ {
		if w.plausible(&w.blocks[i], neg) {
			keep[i] = true
		}
	}
}

// plausible reports whether block b may be content once its region is
// chosen: not mostly links and not inside a negatively hinted element below
// the hint level neg of the region.
func (w *mcWalker) plausible(b *mcBlock, neg int16) bool {
	return w.elems[b.elem].neg <= neg && float64(b.linkWords) <= w.wt.maxLinkShare*float64(b.words)
}

// container returns the index of the block element whose blocks have the
// largest total score, or -1 when no element scores above zero, and the
// prefix sums of the block scores.
func (w *mcWalker) container(hints bool) (int, []float64) {
	prefix := make([]float64, len(w.blocks)+1)
	for i := range w.blocks {
		prefix[i+1] = prefix[i] + w.score(&w.blocks[i], hints)
	}
	best, bestScore := -1, 0.0
	for i, e := range w.elems {
		s := prefix[e.hi] - prefix[e.lo]
		if s > bestScore {
			best, bestScore = i, s
		}
	}
	return best, prefix
}

// headline returns the index of the block before end that best matches the
// document title, or -1.
func (w *mcWalker) headline(title string, end int32) int {
	tt := mcWordSet(title)
	best, bestScore := -1, 0.0
	for i := int32(0); i < end; i++ {
		b := &w.blocks[i]
		if b.heading == 0 || b.heading > 3 {
			continue
		}
		text := string(w.buf[b.start:b.end])
		hw := mcWords(text)
		if len(hw) == 0 {
			continue
		}
		shared := 0
		for _, x := range hw {
			if tt[x] {
				shared++
			}
		}
		// Most of the heading's words must be in the title; among such
		// headings the one sharing most words wins, the first on ties.
		s := float64(shared)
		if 2*shared < len(hw) {
			s = 0
		}
		if len(tt) == 0 && b.heading == 1 {
			s = 0.5
		}
		if s > bestScore {
			best, bestScore = int(i), s
		}
	}
	return best
}

// mcHasDigit reports whether s contains a decimal digit of any script.
func mcHasDigit(s []byte) bool {
	for _, r := range string(s) {
		if unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// mcWords splits s into lowercase words at runs of characters that are
// neither letters nor digits.
func mcWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// mcWordSet returns the set of mcWords(s).
func mcWordSet(s string) map[string]bool {
	m := make(map[string]bool)
	for _, x := range mcWords(s) {
		m[x] = true
	}
	return m
}
