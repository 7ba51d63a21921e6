package maintext

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/contenteval"
)

// TestMainTextEvalPrecisionGap says what the boilerplate Extract keeps is
// made of: TRAWL_CONTENT_EVAL_PGAP=1 on the design folds (0 and 1),
// unseen on folds 2 to 4 (sums only; rules are never chosen from them). A
// kept block is boilerplate when its text is not in the truth (Dragnet:
// word for word, in order) or it holds a "without" snippet (the
// snippets). Each such block is put in one kind, the first that fits: a
// heading, a fragment (no sentence mark, few words: a byline, a date, a
// label, a share line; see weak), mostly links (half of its words or
// more), an item of a list or a row of a table, running text outside the
// container (a sibling taken in, a standfirst, a lead), or running text
// in the container. For each kind it reports the precision the output
// would gain with those blocks dropped (the kept blocks joined by blank
// lines, before and after), and for the snippets how many "without"
// snippets they hold.
func TestMainTextEvalPrecisionGap(t *testing.T) {
	mode := os.Getenv("TRAWL_CONTENT_EVAL_PGAP")
	if mode != "1" && mode != "unseen" {
		t.Skip("set TRAWL_CONTENT_EVAL_PGAP=1 (design folds) or unseen (folds 2 to 4) to break down the boilerplate Extract keeps")
	}
	inFolds, folds := evalDesignFold, "design folds"
	if mode == "unseen" {
		inFolds = func(f int) bool { return !evalDesignFold(f) }
		folds = "unseen folds 2-4"
	}
	kinds := []string{"headings", "fragments (bylines, dates, labels)", "mostly links", "list items and table rows",
		"running text outside the container", "running text in the container"}
	for _, name := range []string{contenteval.Dragnet, contenteval.Snippets} {
		c := evalLoadCorpus(t, name)
		var base, all contenteval.Tally
		var dropped [6]contenteval.Tally
		var held [6]int
		for i, w := range c.walkers {
			if !inFolds(c.fold[i]) {
				continue
			}
			d := c.docs[i]
			if w == nil {
				base.AddTokens(d, "", c.truth[i])
				all.AddTokens(d, "", c.truth[i])
				for k := range dropped {
					dropped[k].AddTokens(d, "", c.truth[i])
				}
				continue
			}
			var keep []bool
			var cont mcElem
			w.beforeRender = func(k []bool, ce mcElem) { keep, cont = append([]bool(nil), k...), ce }
			pred, _ := w.mainText(w.title)
			w.beforeRender = nil
			all.AddTokens(d, pred, c.truth[i])
			gold := ""
			if name == contenteval.Dragnet {
				gold = gapNorm(d.Text)
			}
			kind := make([]int, len(w.blocks)) // -1: kept and text, or not kept
			var parts []string
			for j := range w.blocks {
				kind[j] = -1
				if keep == nil || !keep[j] {
					continue
				}
				b := &w.blocks[j]
				text := string(w.buf[b.start:b.end])
				parts = append(parts, text)
				if name == contenteval.Dragnet && strings.Contains(gold, gapNorm(text)) {
					continue
				}
				if name == contenteval.Snippets {
					if _, _, fp := contenteval.ScoreSnippets(text, nil, d.Without); fp == 0 {
						continue
					}
				}
				switch {
				case b.heading != 0:
					kind[j] = 0
				case w.weak(b):
					kind[j] = 1
				case 2*b.linkWords >= b.words:
					kind[j] = 2
				case w.place(b.elem).item >= 0:
					kind[j] = 3
				case int32(j) < cont.lo || int32(j) >= cont.hi:
					kind[j] = 4
				default:
					kind[j] = 5
				}
				if name == contenteval.Snippets {
					_, _, fp := contenteval.ScoreSnippets(text, nil, d.Without)
					held[kind[j]] += fp
				}
			}
			base.AddTokens(d, strings.Join(parts, "\n\n"), c.truth[i])
			for k := range dropped {
				var sb strings.Builder
				for j := range w.blocks {
					if keep == nil || !keep[j] || kind[j] == k {
						continue
					}
					if sb.Len() > 0 {
						sb.WriteString("\n\n")
					}
					sb.Write(w.buf[w.blocks[j].start:w.blocks[j].end])
				}
				dropped[k].AddTokens(d, sb.String(), c.truth[i])
			}
		}
		p0, _, _ := base.PRF()
		pa, ra, fa := all.PRF()
		var sb strings.Builder
		for k := range dropped {
			p, _, _ := dropped[k].PRF()
			fmt.Fprintf(&sb, "\n  %s: %+.4f", kinds[k], p-p0)
			if name == contenteval.Snippets {
				fmt.Fprintf(&sb, " (%d snippets)", held[k])
			}
		}
		t.Logf("%s, %s: P/R/F1 %.4f/%.4f/%.4f (blocks joined: P %.4f); precision gained by dropping the boilerplate kept that is%s", name, folds, pa, ra, fa, p0, sb.String())
	}
}
