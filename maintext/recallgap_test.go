package maintext

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/trawl-dev/trawl/internal/contenteval"
)

// TestMainTextEvalRecallGap says where the recall Extract misses on the
// design folds (0 and 1) goes: TRAWL_CONTENT_EVAL_GAP=1. A dropped block
// whose whole text is in the truth (Dragnet: word for word, in order; the
// snippets: it holds a "with" snippet that the output misses) is put in
// one kind, the first that fits: a teaser list's item (related stories),
// a caption or credit, another fragment (a byline, a date, a label: see
// weak), running text under a negative class or id hint (comments,
// author boxes, but also article text on a page that names its regions
// badly), or other running text. For each kind it reports the recall the
// output would gain with those blocks kept. The first three are kinds
// the issue asks to remove; the last two are the misses to work on. A
// tuning aid: it never shows pages of folds 2 to 4.
//
// TRAWL_CONTENT_EVAL_GAP=unseen gives the same sums for folds 2 to 4
// instead, and nothing else: no page, no snippet. It says what the recall
// missed on unseen sites is made of, for the figures of the package doc;
// rules are never chosen from it.
func TestMainTextEvalRecallGap(t *testing.T) {
	mode := os.Getenv("TRAWL_CONTENT_EVAL_GAP")
	if mode != "1" && mode != "unseen" {
		t.Skip("set TRAWL_CONTENT_EVAL_GAP=1 (design folds) or unseen (folds 2 to 4) to break down the recall Extract misses")
	}
	inFolds, folds := evalDesignFold, "design folds"
	if mode == "unseen" {
		inFolds = func(f int) bool { return !evalDesignFold(f) }
		folds = "unseen folds 2-4"
	}
	kinds := []string{"teaser-list items", "captions and credits", "other fragments (bylines, dates, labels)",
		"running text under a negative class or id hint", "other running text"}
	for _, name := range []string{contenteval.Dragnet, contenteval.Snippets} {
		c := evalLoadCorpus(t, name)
		var base float64
		var gain [5]float64
		pages, snippets := 0, 0
		for i, w := range c.walkers {
			if !inFolds(c.fold[i]) || w == nil {
				continue
			}
			d := c.docs[i]
			kept := make([]bool, len(w.blocks))
			w.beforeRender = func(keep []bool, _ mcElem) { copy(kept, keep) }
			pred, _ := w.mainText(w.title)
			w.beforeRender = nil
			kind := func(b *mcBlock) int {
				e := &w.elems[b.elem]
				switch {
				case e.teaser > 0:
					return 0
				case w.caption(b) || w.credit(b):
					return 1
				case w.weak(b):
					return 2
				case e.neg > 0:
					return 3
				}
				return 4
			}
			if name == contenteval.Dragnet {
				pages++
				gold := gapNorm(d.Text)
				_, r, _, _ := contenteval.Score(pred, d.Text)
				base += r
				var more [5]strings.Builder
				for j := range w.blocks {
					b := &w.blocks[j]
					text := string(w.buf[b.start:b.end])
					if kept[j] || !strings.Contains(gold, gapNorm(text)) || strings.TrimSpace(gapNorm(text)) == "" {
						continue
					}
					k := kind(b)
					more[k].WriteString("\n\n")
					more[k].WriteString(text)
				}
				for k := range more {
					_, rk, _, _ := contenteval.Score(pred+more[k].String(), d.Text)
					gain[k] += rk - r
				}
				continue
			}
			snippets += len(d.With)
			for _, s := range d.With {
				if tp, _, _ := contenteval.ScoreSnippets(pred, []string{s}, nil); tp > 0 {
					base++
					continue
				}
				for j := range w.blocks {
					b := &w.blocks[j]
					if kept[j] {
						continue
					}
					if tp, _, _ := contenteval.ScoreSnippets(string(w.buf[b.start:b.end]), []string{s}, nil); tp > 0 {
						gain[kind(b)]++
						break
					}
				}
			}
		}
		n := float64(pages)
		if name == contenteval.Snippets {
			n = float64(snippets)
		}
		var sb strings.Builder
		for k, g := range gain {
			fmt.Fprintf(&sb, "\n  %s: %+.4f", kinds[k], g/n)
		}
		t.Logf("%s, %s: recall %.4f; gained by keeping the dropped blocks of the truth that are%s", name, folds, base/n, sb.String())
	}
}

// gapNorm is s lowercased, with every run of characters other than letters
// and digits one space, and a space at each end: two texts compare word
// for word.
func gapNorm(s string) string {
	var sb strings.Builder
	sb.WriteByte(' ')
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		sb.WriteString(f)
		sb.WriteByte(' ')
	}
	return sb.String()
}
