package maintext

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/contenteval"
)

// The fit of the second opinion's model (model_impl_test.go), on the design
// folds (0 and 1) of both corpora only: TRAWL_CONTENT_FIT=1 go test
// -count=1 -run TestMainTextModelFit -v ./maintext. It prints the chosen
// model as Go source for mcDefaultModel, its design figures against the
// rules alone, and the generalisation checks: fitted on one corpus and
// scored on the other, and fitted on one design fold and scored on the
// other. Folds 2 to 4 are never read.
//
// Labels. Dragnet: a block is positive when its text, word for word
// (gapNorm), is in the truth; negative when it is not and no four
// consecutive words of it are (for a block of fewer than four words: when
// it is not in the truth); else unlabelled. Snippets: positive when it
// holds a "with" snippet, negative when it holds a "without" snippet, else
// (or both) unlabelled. Blocks without words are left out.
//
// Sample weights: on Dragnet each page weighs 1, shared by its labelled
// blocks in proportion to their words (the metric is a macro average of
// bag-of-words scores); on the snippets every labelled block weighs the
// same. Each corpus weighs half.

// fitPage is one design page as the rules left it.
type fitPage struct {
	corpus string
	fold   int
	site   string
	doc    contenteval.Doc
	truth  map[string]int
	texts  []string
	keep   []bool
	idx    []int // blocks with features
	feats  [][mcModelFeatures]float64
	label  []int8 // 1, 0, or -1 (unlabelled), per idx
	weight []float64
	base   contenteval.PageScore
}

// fitScorePage scores pred on the recorded page pg.
func fitScorePage(pg *fitPage, pred string) contenteval.PageScore {
	return contenteval.ScorePage(pg.doc, pred, pg.truth)
}

// fitLoad segments the design pages of corpus name and records the rules'
// choice, the features and the labels of their blocks.
func fitLoad(t *testing.T, name string) []*fitPage {
	c := evalLoadCorpus(t, name)
	var pages []*fitPage
	for i, w := range c.walkers {
		if !evalDesignFold(c.fold[i]) {
			continue
		}
		d := c.docs[i]
		pg := &fitPage{corpus: name, fold: c.fold[i], site: d.Site, doc: d, truth: c.truth[i]}
		pages = append(pages, pg)
		if w == nil {
			pg.base = fitScorePage(pg, "")
			continue
		}
		var keep []bool
		var cont mcElem
		w.beforeRender = func(k []bool, c mcElem) {
			keep = append([]bool(nil), k...)
			cont = c
		}
		out, _ := w.mainText(w.title)
		w.beforeRender = nil
		pg.base = fitScorePage(pg, out)
		if keep == nil {
			continue
		}
		pg.keep = keep
		for j := range w.blocks {
			b := &w.blocks[j]
			pg.texts = append(pg.texts, string(w.buf[b.start:b.end]))
		}
		if got := fitRender(pg, keep); got != out {
			t.Fatalf("%s %s: the rules' choice does not render as Extract's output", name, d.ID)
		}
		ctx := w.modelContext(keep)
		gold := ""
		if name == contenteval.Dragnet {
			gold = gapNorm(d.Text)
		}
		for j := range w.blocks {
			b := &w.blocks[j]
			if b.words == 0 {
				continue
			}
			var f [mcModelFeatures]float64
			w.modelFeatures(ctx, keep, cont, j, &f)
			pg.idx = append(pg.idx, j)
			pg.feats = append(pg.feats, f)
			pg.label = append(pg.label, fitLabel(name, pg.texts[j], gold, d))
		}
	}
	// Sample weights.
	total := 0.0
	for _, pg := range pages {
		pg.weight = make([]float64, len(pg.idx))
		sum := 0.0
		for k, j := range pg.idx {
			if pg.label[k] < 0 {
				continue
			}
			pg.weight[k] = 1
			if name == contenteval.Dragnet {
				pg.weight[k] = float64(len(strings.Fields(gapNorm(pg.texts[j]))))
			}
			sum += pg.weight[k]
		}
		if name == contenteval.Dragnet && sum > 0 {
			for k := range pg.weight {
				pg.weight[k] /= sum
			}
			sum = 1
		}
		total += sum
	}
	for _, pg := range pages {
		for k := range pg.weight {
			pg.weight[k] /= 2 * total
		}
	}
	return pages
}

// fitLabel labels one block (see the comment at the top).
func fitLabel(name, text, gold string, d contenteval.Doc) int8 {
	if name == contenteval.Dragnet {
		t := gapNorm(text)
		if strings.TrimSpace(t) == "" {
			return -1
		}
		ws := strings.Fields(t)
		if strings.Contains(gold, t) {
			if len(ws) < 4 {
				return -1 // a word or two the article may hold by chance
			}
			return 1
		}
		if len(ws) < 4 {
			return 0
		}
		for i := 0; i+4 <= len(ws); i++ {
			if strings.Contains(gold, " "+strings.Join(ws[i:i+4], " ")+" ") {
				return -1
			}
		}
		return 0
	}
	tp, _, _ := contenteval.ScoreSnippets(text, d.With, nil)
	_, _, fp := contenteval.ScoreSnippets(text, nil, d.Without)
	switch {
	case tp > 0 && fp == 0:
		return 1
	case fp > 0 && tp == 0:
		return 0
	}
	return -1
}

// fitRender is mainText's rendering of the choice keep.
func fitRender(pg *fitPage, keep []bool) string {
	var sb strings.Builder
	for j, k := range keep {
		if !k {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteString("\n\n")
		}
		sb.WriteString(pg.texts[j])
	}
	return sb.String()
}

// fitMask lists the features left out (TRAWL_CONTENT_FIT_DROP: indices).
func fitMask(t *testing.T) [mcModelFeatures]bool {
	var m [mcModelFeatures]bool
	for _, s := range strings.Split(os.Getenv("TRAWL_CONTENT_FIT_DROP"), ",") {
		if s == "" {
			continue
		}
		k, err := strconv.Atoi(s)
		if err != nil || k < 0 || k >= mcModelFeatures {
			t.Fatalf("TRAWL_CONTENT_FIT_DROP: bad %q", s)
		}
		m[k] = true
	}
	return m
}

// fitLogistic fits an L2-regularised logistic regression on the labelled
// blocks of pages by Newton's method (IRLS) on standardised features, and
// returns it in raw units (the scaling folded into the constants).
func fitLogistic(pages []*fitPage, lambda float64, mask [mcModelFeatures]bool, kept bool) mcLogistic {
	const d = mcModelFeatures + 1
	var mean, sd [mcModelFeatures]float64
	wsum := 0.0
	each := func(fn func(x *[mcModelFeatures]float64, y, wt float64)) {
		for _, pg := range pages {
			for k, j := range pg.idx {
				if pg.label[k] >= 0 && pg.weight[k] > 0 && pg.keep[j] == kept {
					fn(&pg.feats[k], float64(pg.label[k]), pg.weight[k])
				}
			}
		}
	}
	each(func(x *[mcModelFeatures]float64, _, wt float64) {
		wsum += wt
		for k := range x {
			mean[k] += wt * x[k]
		}
	})
	for k := range mean {
		mean[k] /= wsum
	}
	each(func(x *[mcModelFeatures]float64, _, wt float64) {
		for k := range x {
			sd[k] += wt * (x[k] - mean[k]) * (x[k] - mean[k])
		}
	})
	for k := range sd {
		sd[k] = math.Sqrt(sd[k] / wsum)
		if sd[k] < 1e-9 || mask[k] {
			sd[k] = 0
		}
	}
	std := func(x *[mcModelFeatures]float64, z *[d]float64) {
		z[0] = 1
		for k := range x {
			if sd[k] > 0 {
				z[k+1] = (x[k] - mean[k]) / sd[k]
			} else {
				z[k+1] = 0
			}
		}
	}
	var beta [d]float64
	for iter := 0; iter < 50; iter++ {
		var h [d][d]float64
		var g [d]float64
		var z [d]float64
		each(func(x *[mcModelFeatures]float64, y, wt float64) {
			std(x, &z)
			s := 0.0
			for k := range z {
				s += beta[k] * z[k]
			}
			p := 1 / (1 + math.Exp(-s))
			for a := range z {
				g[a] += wt / wsum * (p - y) * z[a]
				for b := range z {
					h[a][b] += wt / wsum * p * (1 - p) * z[a] * z[b]
				}
			}
		})
		for a := 1; a < d; a++ {
			g[a] += lambda * beta[a]
			h[a][a] += lambda
			if sd[a-1] == 0 {
				h[a][a] += 1 // a left-out feature stays at 0
			}
		}
		h[0][0] += 1e-9
		step := fitSolve(h, g)
		change := 0.0
		for k := range beta {
			beta[k] -= step[k]
			change = max(change, math.Abs(step[k]))
		}
		if change < 1e-8 {
			break
		}
	}
	m := mcLogistic{bias: beta[0]}
	for k := range m.coef {
		if sd[k] > 0 {
			m.coef[k] = beta[k+1] / sd[k]
			m.bias -= beta[k+1] * mean[k] / sd[k]
		}
	}
	return m
}

// fitSolve solves h x = g by Gaussian elimination with partial pivoting.
func fitSolve(h [mcModelFeatures + 1][mcModelFeatures + 1]float64, g [mcModelFeatures + 1]float64) [mcModelFeatures + 1]float64 {
	const d = mcModelFeatures + 1
	for c := range d {
		p := c
		for r := c + 1; r < d; r++ {
			if math.Abs(h[r][c]) > math.Abs(h[p][c]) {
				p = r
			}
		}
		h[c], h[p] = h[p], h[c]
		g[c], g[p] = g[p], g[c]
		for r := c + 1; r < d; r++ {
			f := h[r][c] / h[c][c]
			for k := c; k < d; k++ {
				h[r][k] -= f * h[c][k]
			}
			g[r] -= f * g[c]
		}
	}
	var x [d]float64
	for r := d - 1; r >= 0; r-- {
		s := g[r]
		for k := r + 1; k < d; k++ {
			s -= h[r][k] * x[k]
		}
		x[r] = s / h[r][r]
	}
	return x
}

// fitApply is secondOpinion on a recorded page: the choice after the
// model.
func fitApply(pg *fitPage, m mcModel) ([]bool, bool) {
	var keep []bool
	for k, j := range pg.idx {
		flip := m.flips(pg.keep[j], &pg.feats[k])
		if flip {
			if keep == nil {
				keep = append([]bool(nil), pg.keep...)
			}
			keep[j] = !keep[j]
		}
	}
	return keep, keep != nil
}

// fitEval scores model m on the pages of corpus name that pass in, and
// the rules alone; up and down count pages whose score moved, sites the
// sites of those pages.
func fitEval(pages []*fitPage, name string, m mcModel, in func(*fitPage) bool) (with, without contenteval.Tally, up, down, sites int) {
	seen := map[string]bool{}
	for _, pg := range pages {
		if pg.corpus != name || !in(pg) {
			continue
		}
		without.AddScore(pg.base)
		s := pg.base
		if keep, ok := fitApply(pg, m); ok {
			s = fitScorePage(pg, fitRender(pg, keep))
		}
		with.AddScore(s)
		delta := s.F1 - pg.base.F1 + float64(s.TP-pg.base.TP) - float64(s.FP-pg.base.FP)
		switch {
		case delta > 1e-9:
			up++
		case delta < -1e-9:
			down++
		default:
			continue
		}
		seen[pg.site] = true
	}
	return with, without, up, down, len(seen)
}

func fitGain(with, without contenteval.Tally) float64 {
	_, _, a := with.PRF()
	_, _, b := without.PRF()
	return a - b
}

// fitConfig is one choice of regularisation and thresholds.
type fitConfig struct {
	lambda, hi, lo float64 // hi 0: never add; lo 0: never drop
}

func (c fitConfig) String() string {
	return fmt.Sprintf("lambda=%g hi=%g lo=%g", c.lambda, c.hi, c.lo)
}

func fitThresholds(m mcModel, c fitConfig) mcModel {
	m.logitHi, m.logitLo = math.Inf(1), math.Inf(-1)
	if c.hi > 0 {
		m.logitHi = mcLogit(c.hi)
	}
	if c.lo > 0 {
		m.logitLo = mcLogit(c.lo)
	}
	return m
}

// fitChoose fits on the pages passing train (labels of the corpora in
// fitOn) and chooses lambda and the thresholds by the F1 gain on those
// pages of the corpora in chooseOn: the largest sum of gains among the
// choices where no corpus loses. It returns the model, the choice and
// whether any choice gained.
func fitChoose(t *testing.T, pages []*fitPage, train func(*fitPage) bool, fitOn, chooseOn []string, mask [mcModelFeatures]bool, verbose bool) (mcModel, fitConfig, bool) {
	var sub []*fitPage
	for _, pg := range pages {
		if train(pg) && fitContains(fitOn, pg.corpus) {
			sub = append(sub, pg)
		}
	}
	type cand struct {
		cfg   fitConfig
		gains []float64
		sum   float64
		m     mcModel
	}
	var cands []cand
	for _, lambda := range []float64{1e-4, 1e-3, 1e-2, 1e-1} {
		base := mcModel{add: fitLogistic(sub, lambda, mask, false), drop: fitLogistic(sub, lambda, mask, true), gate: true}
		for _, hi := range []float64{0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98} {
			for _, lo := range []float64{0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5} {
				cfg := fitConfig{lambda, hi, lo}
				m := fitThresholds(base, cfg)
				cd := cand{cfg: cfg, m: m}
				for _, name := range chooseOn {
					with, without, _, _, _ := fitEval(pages, name, m, train)
					g := fitGain(with, without)
					cd.gains = append(cd.gains, g)
					cd.sum += g
				}
				cands = append(cands, cd)
			}
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].sum > cands[b].sum })
	if verbose {
		for _, cd := range cands[:min(15, len(cands))] {
			t.Logf("  %v: F1 gains %v", cd.cfg, fitRound(cd.gains))
		}
	}
	for _, cd := range cands {
		ok := cd.sum > 0
		for _, g := range cd.gains {
			ok = ok && g >= 0
		}
		if ok {
			return cd.m, cd.cfg, true
		}
	}
	m := fitThresholds(mcModel{add: fitLogistic(sub, 1e-2, mask, false), drop: fitLogistic(sub, 1e-2, mask, true), gate: true}, fitConfig{})
	return m, fitConfig{lambda: 1e-2}, false
}

func fitContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func fitRound(xs []float64) []string {
	var out []string
	for _, x := range xs {
		out = append(out, fmt.Sprintf("%+.4f", x))
	}
	return out
}

// fitSource prints m as the body of mcDefaultModel.
func fitSource(m mcModel, cfg fitConfig) string {
	names := []string{"mfLogWords", "mfLinkShare", "mfStops", "mfHeading", "mfWeak", "mfRepeated", "mfNeg",
		"mfTeaser", "mfCaption", "mfInContainer", "mfDistance", "mfParentKept", "mfTail"}
	var sb strings.Builder
	fmt.Fprintf(&sb, "\treturn mcModel{\n")
	for _, part := range []struct {
		name string
		l    mcLogistic
	}{{"add", m.add}, {"drop", m.drop}} {
		fmt.Fprintf(&sb, "\t\t%s: mcLogistic{\n\t\t\tcoef: [mcModelFeatures]float64{\n", part.name)
		for k, c := range part.l.coef {
			fmt.Fprintf(&sb, "\t\t\t\t%s: %s,\n", names[k], strconv.FormatFloat(c, 'g', 4, 64))
		}
		fmt.Fprintf(&sb, "\t\t\t},\n\t\t\tbias: %s,\n\t\t},\n", strconv.FormatFloat(part.l.bias, 'g', 4, 64))
	}
	hi, lo := "math.Inf(1)", "math.Inf(-1)"
	if cfg.hi > 0 {
		hi = fmt.Sprintf("mcLogit(%g)", cfg.hi)
	}
	if cfg.lo > 0 {
		lo = fmt.Sprintf("mcLogit(%g)", cfg.lo)
	}
	fmt.Fprintf(&sb, "\t\tlogitHi: %s,\n\t\tlogitLo: %s,\n\t\tgate:    true,\n\t}\n", hi, lo)
	return sb.String()
}

func TestMainTextModelFit(t *testing.T) {
	if os.Getenv("TRAWL_CONTENT_FIT") != "1" {
		t.Skip("set TRAWL_CONTENT_FIT=1 to fit the second opinion's model on the design folds")
	}
	mask := fitMask(t)
	var pages []*fitPage
	corpora := []string{contenteval.Dragnet, contenteval.Snippets}
	for _, name := range corpora {
		pages = append(pages, fitLoad(t, name)...)
	}
	for _, name := range corpora {
		pos, neg, un := 0, 0, 0
		for _, pg := range pages {
			if pg.corpus != name {
				continue
			}
			for _, l := range pg.label {
				switch l {
				case 1:
					pos++
				case 0:
					neg++
				default:
					un++
				}
			}
		}
		t.Logf("%s design blocks: %d positive, %d negative, %d unlabelled", name, pos, neg, un)
	}
	all := func(*fitPage) bool { return true }
	// Headroom: every labelled block set to its label (an oracle).
	for _, name := range corpora {
		var with, without contenteval.Tally
		var n [2][2]int
		for _, pg := range pages {
			if pg.corpus != name {
				continue
			}
			without.AddScore(pg.base)
			if pg.keep == nil {
				with.AddScore(pg.base)
				continue
			}
			keep := append([]bool(nil), pg.keep...)
			for k, j := range pg.idx {
				if l := pg.label[k]; l >= 0 {
					n[mcBoolInt(keep[j])][l]++
					keep[j] = l == 1
				}
			}
			with.AddScore(fitScorePage(pg, fitRender(pg, keep)))
		}
		t.Logf("%s design oracle %s against rules %s; dropped neg/pos %d/%d, kept neg/pos %d/%d", name, evalLine(with), evalLine(without), n[0][0], n[0][1], n[1][0], n[1][1])
	}

	// The model: fitted on both corpora's design folds, chosen on both.
	t.Logf("fit on both corpora, design folds 0-1; best choices:")
	m, cfg, ok := fitChoose(t, pages, all, corpora, corpora, mask, true)
	t.Logf("chosen %v (a choice where no corpus loses: %v); model:\n%s", cfg, ok, fitSource(m, cfg))
	for _, name := range corpora {
		with, without, up, down, sites := fitEval(pages, name, m, all)
		t.Logf("%s design: model %s, rules alone %s; pages up %d, down %d, sites %d", name, evalLine(with), evalLine(without), up, down, sites)
	}

	// (a) Across corpora: fit and choose on one, score the other.
	for i, name := range corpora {
		other := corpora[1-i]
		mo, co, oko := fitChoose(t, pages, all, []string{name}, []string{name}, mask, false)
		with, without, up, down, sites := fitEval(pages, other, mo, all)
		w2, wo2, _, _, _ := fitEval(pages, name, mo, all)
		t.Logf("fitted on %s design only (%v, gain there %v; %v): %s design %s against rules alone %s (up %d down %d, sites %d)",
			name, co, oko, fitRound([]float64{fitGain(w2, wo2)}), other, evalLine(with), evalLine(without), up, down, sites)
	}

	// (b) Site-grouped cross-fit within the design folds: fit and choose
	// on one fold (both corpora), score the other.
	var fits []mcModel
	for k := range 2 {
		train := func(pg *fitPage) bool { return pg.fold == k }
		held := func(pg *fitPage) bool { return pg.fold != k }
		mk, ck, okk := fitChoose(t, pages, train, corpora, corpora, mask, false)
		fits = append(fits, mk)
		for _, name := range corpora {
			with, without, up, down, sites := fitEval(pages, name, mk, held)
			t.Logf("fitted on fold %d (%v; %v), %s fold %d: %s against rules alone %s (F1 %+.4f; up %d down %d, sites %d)",
				k, ck, okk, name, 1-k, evalLine(with), evalLine(without), fitGain(with, without), up, down, sites)
		}
	}
	for _, part := range []string{"add", "drop"} {
		var sb strings.Builder
		get := func(m mcModel) mcLogistic {
			if part == "add" {
				return m.add
			}
			return m.drop
		}
		for a := range mcModelFeatures {
			x, y, z := get(m).coef[a], get(fits[0]).coef[a], get(fits[1]).coef[a]
			fmt.Fprintf(&sb, " %d:%.3g/%.3g/%.3g(sd %.2g)", a, x, y, z, math.Abs(y-z)/2)
		}
		t.Logf("%s coefficients (all / fold 0 / fold 1, sd of the two):%s", part, sb.String())
	}
}

func mcBoolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}
