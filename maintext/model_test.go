package maintext

import (
	"math"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// modelPage has an article (one paragraph of it half links), a comment
// under a negative hint, and a captioned image after the article.
const modelPage = `<html><head><title>Crawlers and hosts</title></head><body>
<article>
<h1>Crawlers and hosts</h1>
<p>The crawler waited for the host to answer before it asked for the next document. It kept the rules it had read.</p>
<p>See <a href="/a">the robots rules</a>, <a href="/b">the delay header</a> and the notes for more details about it.</p>
<p>Each host got its own queue, so a slow server never held the others back. The scheduler picked the next host by time.</p>
</article>
<div class="comments"><p>I ran the same crawler on my own server and it obeyed every rule it was given by the host.</p></div>
<div><img src="x.jpg" width="400" height="300"><p>The server room</p></div>
</body></html>`

func modelWalker(t *testing.T, page string) *mcWalker {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	return mcSegment(doc)
}

// TestMainTextSecondOpinion checks that a model's opinion flips blocks
// the way its thresholds say, and that the gate keeps captions out. The
// models are hand-set, not fitted: each leans on one feature.
func TestMainTextSecondOpinion(t *testing.T) {
	var dropLinks, addNeg mcModel
	dropLinks.drop.bias = 5
	dropLinks.drop.coef[mfLinkShare] = -20 // a block half links: logit -5
	dropLinks.logitHi, dropLinks.logitLo = math.Inf(1), 0
	addNeg.add.bias = -5
	addNeg.add.coef[mfNeg] = 10
	addNeg.add.coef[mfCaption] = 10
	addNeg.logitHi, addNeg.logitLo = 0, math.Inf(-1)
	addNeg.gate = true
	addAll := addNeg
	addAll.gate = false
	fitted := mcDefaultModel() // its thresholds are off: the rules' choice stands
	const (
		linked  = "See the robots rules"
		comment = "I ran the same crawler"
		caption = "The server room"
	)
	for _, tc := range []struct {
		name      string
		model     *mcModel
		has, lost []string
	}{
		{"rules alone", nil, []string{linked, "Each host got"}, []string{comment, caption}},
		{"the fitted model, thresholds off", &fitted, []string{linked, "Each host got"}, []string{comment, caption}},
		{"drop a block half links", &dropLinks, []string{"The crawler waited", "Each host got"}, []string{linked, comment}},
		{"add the hinted comment, gate keeps the caption out", &addNeg, []string{linked, comment}, []string{caption}},
		{"without the gate the caption comes back", &addAll, []string{linked, comment, caption}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := modelWalker(t, modelPage)
			if tc.model != nil {
				w.beforeRender = func(keep []bool, c mcElem) { w.secondOpinion(*tc.model, keep, c) }
			}
			got, reason := w.mainText(w.title)
			if reason != ReasonFound {
				t.Fatalf("reason %v", reason)
			}
			for _, s := range tc.has {
				if !strings.Contains(got, s) {
					t.Errorf("lost %q; got:\n%s", s, got)
				}
			}
			for _, s := range tc.lost {
				if strings.Contains(got, s) {
					t.Errorf("kept %q; got:\n%s", s, got)
				}
			}
		})
	}
}

// TestMainTextModelFeatures checks the context features against a choice
// made by hand: the distance to the nearest other kept block, the share
// of the parent's other words kept, and the share of kept words after.
func TestMainTextModelFeatures(t *testing.T) {
	w := modelWalker(t, `<body><div><p>one two three.</p><p>four five.</p><p>six.</p></div>`+
		strings.Repeat(`<p>x.</p>`, 12)+`<p>seven eight.</p></body>`)
	n := len(w.blocks)
	if n != 16 {
		t.Fatalf("%d blocks, want 16", n)
	}
	keep := make([]bool, n)
	keep[0], keep[2], keep[n-1] = true, true, true
	w.negBase = w.commonNeg()
	ctx := w.modelContext(keep)
	c := w.elems[w.blocks[0].elem]
	var f [mcModelFeatures]float64
	for _, tc := range []struct {
		i                  int
		dist, parent, tail float64
	}{
		{0, 0.2, 1.0 / 3, 3.0 / 6},  // the next kept block is 2 away; of "four five. six." one word kept
		{1, 0.1, 4.0 / 4, 3.0 / 6},  // dropped: both neighbours kept, the other 4 words of the div all kept
		{2, 0.2, 3.0 / 5, 2.0 / 6},  // block 0 is 2 away
		{8, 0.6, 6.0 / 19, 2.0 / 6}, // 6 blocks from block 2, 7 from the last; the body's other words: 6 of 19 kept
		{n - 1, 1, 4.0 / 18, 0},     // the nearest other kept block is 13 away: capped
	} {
		w.modelFeatures(ctx, keep, c, tc.i, &f)
		if math.Abs(f[mfDistance]-tc.dist) > 1e-9 || math.Abs(f[mfParentKept]-tc.parent) > 1e-9 || math.Abs(f[mfTail]-tc.tail) > 1e-9 {
			t.Errorf("block %d: distance %.3f, parent kept %.3f, tail %.3f; want %.3f, %.3f, %.3f",
				tc.i, f[mfDistance], f[mfParentKept], f[mfTail], tc.dist, tc.parent, tc.tail)
		}
	}
}
