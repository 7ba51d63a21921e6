package extract

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/trawl-dev/trawl/internal/contenteval"
)

// The content evaluation set (AGPL data, never copied into the repository)
// lives outside the module; see its README for the metric.
const (
	evalDir = "../../shared/data/content-eval"
	evalEnv = "TRAWL_CONTENT_EVAL" // "1" runs the full evaluation
)

// evalPage is one page of the evaluation set.
type evalPage = contenteval.Page

// evalFinder is a content finder under evaluation; html is UTF-8.
type evalFinder struct {
	name string
	find func(html []byte) string
}

// evalFinders returns the finders of this package and the visible-text
// floor.
func evalFinders() []evalFinder {
	return []evalFinder{
		{name: "trawl MainText (DOM)", find: func(b []byte) string {
			s, _ := MainText(bytes.NewReader(b))
			return s
		}},
		{name: "trawl BTE (Finn et al.)", find: func(b []byte) string {
			s, _ := BTE(bytes.NewReader(b))
			return s
		}},
		{name: "all visible text", find: evalVisibleText},
	}
}

// evalLoad reads the truth file, skipping the test when the data set is
// absent.
func evalLoad(tb testing.TB) []evalPage {
	tb.Helper()
	pages, err := contenteval.Load(evalDir)
	if errors.Is(err, os.ErrNotExist) {
		tb.Skipf("content evaluation data not found at %s; skipping", evalDir)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return pages
}

// evalHTML returns the page's HTML decoded to UTF-8 (the fetcher's job in a
// crawl).
func evalHTML(tb testing.TB, id string) []byte {
	tb.Helper()
	b, err := contenteval.HTML(evalDir, id)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// evalResult is a macro average over pages.
type evalResult struct {
	p, r, f1 float64
	n        int
}

func (e *evalResult) add(p, r, f1 float64) { e.p += p; e.r += r; e.f1 += f1; e.n++ }
func (e evalResult) mean() (p, r, f1 float64) {
	if e.n == 0 {
		return 0, 0, 0
	}
	n := float64(e.n)
	return e.p / n, e.r / n, e.f1 / n
}

// evalPerPage is one finder's score on one page.
type evalPerPage struct {
	id      string
	f1      float64
	p, r    float64
	predLen int
}

// evalRun scores finders on pages; results[finder][split].
func evalRun(tb testing.TB, pages []evalPage, finders []evalFinder) (map[string]map[string]*evalResult, map[string][]evalPerPage) {
	tb.Helper()
	res := make(map[string]map[string]*evalResult)
	per := make(map[string][]evalPerPage)
	for _, f := range finders {
		res[f.name] = map[string]*evalResult{"train": {}, "test": {}}
	}
	for _, pg := range pages {
		doc := evalHTML(tb, pg.ID)
		for _, f := range finders {
			pred := f.find(doc)
			p, r, f1, ok := contenteval.Score(pred, pg.Text)
			if !ok {
				continue
			}
			if res[f.name][pg.Split] == nil {
				res[f.name][pg.Split] = &evalResult{}
			}
			res[f.name][pg.Split].add(p, r, f1)
			per[f.name] = append(per[f.name], evalPerPage{id: pg.ID, f1: f1, p: p, r: r, predLen: len(pred)})
		}
	}
	return res, per
}

// evalTable formats results as a Markdown table.
func evalTable(finders []evalFinder, res map[string]map[string]*evalResult) string {
	var sb strings.Builder
	sb.WriteString("| finder | split | pages | P | R | F1 |\n|---|---|---|---|---|---|\n")
	for _, split := range []string{"test", "train"} {
		for _, f := range finders {
			e := res[f.name][split]
			if e == nil || e.n == 0 {
				continue
			}
			p, r, f1 := e.mean()
			fmt.Fprintf(&sb, "| %s | %s | %d | %.3f | %.3f | %.3f |\n", f.name, split, e.n, p, r, f1)
		}
	}
	return sb.String()
}

// evalVisibleText is the floor: all text outside script, style and
// noscript.
func evalVisibleText(b []byte) string {
	z := html.NewTokenizer(bytes.NewReader(b))
	var sb strings.Builder
	skip := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return sb.String()
		case html.TextToken:
			if skip == 0 {
				sb.Write(z.Text())
				sb.WriteByte(' ')
			}
		case html.StartTagToken:
			name, _ := z.TagName()
			switch atom.Lookup(name) {
			case atom.Script, atom.Style, atom.Noscript:
				skip++
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch atom.Lookup(name) {
			case atom.Script, atom.Style, atom.Noscript:
				if skip > 0 {
					skip--
				}
			}
		}
	}
}

// TestMainTextEvalSample scores the finders on a fixed sample of training
// pages and checks that the DOM finder beats BTE and the visible-text floor
// by a margin. It skips when the data set is absent.
func TestMainTextEvalSample(t *testing.T) {
	pages := evalLoad(t)
	var sample []evalPage
	for i, p := range pages {
		if p.Split == "train" && i%90 == 0 {
			sample = append(sample, p)
		}
	}
	finders := evalFinders()
	res, _ := evalRun(t, sample, finders)
	t.Logf("sample of %d train pages:\n%s", len(sample), evalTable(finders, res))
	_, _, dom := res[finders[0].name]["train"].mean()
	_, _, bte := res[finders[1].name]["train"].mean()
	_, _, vis := res[finders[2].name]["train"].mean()
	if dom < bte+0.05 {
		t.Errorf("MainText F1 %.3f, want at least BTE's %.3f + 0.05", dom, bte)
	}
	if dom < vis+0.2 {
		t.Errorf("MainText F1 %.3f, want at least visible text's %.3f + 0.2", dom, vis)
	}
}

// TestMainTextEval scores the finders on every page of both splits and
// prints the table. It runs only when TRAWL_CONTENT_EVAL=1. With
// TRAWL_CONTENT_EVAL_WORST=n it also lists the n worst train pages of the
// DOM finder (tuning aid: train only).
func TestMainTextEval(t *testing.T) {
	if os.Getenv(evalEnv) != "1" {
		t.Skipf("set %s=1 to run the full content evaluation", evalEnv)
	}
	pages := evalLoad(t)
	finders := evalFinders()
	if os.Getenv("TRAWL_CONTENT_EVAL_DOMONLY") == "1" {
		finders = finders[:1]
	}
	res, per := evalRun(t, pages, finders)
	t.Logf("content evaluation (bag-of-words, macro-averaged):\n%s", evalTable(finders, res))
	if n, _ := strconv.Atoi(os.Getenv("TRAWL_CONTENT_EVAL_WORST")); n > 0 {
		split := make(map[string]string)
		for _, p := range pages {
			split[p.ID] = p.Split
		}
		var train []evalPerPage
		for _, x := range per[finders[0].name] {
			if split[x.id] == "train" {
				train = append(train, x)
			}
		}
		key := func(x evalPerPage) float64 { return x.f1 }
		switch os.Getenv("TRAWL_CONTENT_EVAL_SORT") {
		case "p":
			key = func(x evalPerPage) float64 { return x.p }
		case "r":
			key = func(x evalPerPage) float64 { return x.r }
		}
		sort.Slice(train, func(i, j int) bool { return key(train[i]) < key(train[j]) })
		for _, x := range train[:min(n, len(train))] {
			t.Logf("%s F1=%.2f P=%.2f R=%.2f len=%d", x.id, x.f1, x.p, x.r, x.predLen)
		}
	}
}

// TestMainTextEvalDump prints the blocks of one training page with their
// scores (tuning aid): TRAWL_CONTENT_EVAL_PAGE=<id>.
func TestMainTextEvalDump(t *testing.T) {
	id := os.Getenv("TRAWL_CONTENT_EVAL_PAGE")
	if id == "" {
		t.Skip("set TRAWL_CONTENT_EVAL_PAGE=<id> to dump a page's blocks")
	}
	doc, err := html.Parse(bytes.NewReader(evalHTML(t, id)))
	if err != nil {
		t.Fatal(err)
	}
	w := mcSegment(doc)
	best, _ := w.container(true)
	for i := range w.blocks {
		b := &w.blocks[i]
		text := string(w.buf[b.start:b.end])
		if len(text) > 70 {
			text = text[:70]
		}
		e := w.elems[b.elem]
		t.Logf("%4d w=%3d l=%3d s=%2d h=%d neg=%d pos=%d %s score=%6.1f %q", i, b.words, b.linkWords, b.stops, b.heading, e.neg, e.pos, e.tag, w.score(b, true), text)
	}
	if best >= 0 {
		t.Logf("container %d %s blocks [%d,%d)", best, w.elems[best].tag, w.elems[best].lo, w.elems[best].hi)
	}
}

// TestMainTextTune searches the DOM finder's weights on the train split
// only (coordinate descent) and logs the best set: TRAWL_CONTENT_TUNE=1.
func TestMainTextTune(t *testing.T) {
	if os.Getenv("TRAWL_CONTENT_TUNE") != "1" {
		t.Skip("set TRAWL_CONTENT_TUNE=1 to tune the DOM finder's weights on train")
	}
	var walkers []*mcWalker
	var truths []string
	for _, p := range evalLoad(t) {
		if p.Split != "train" {
			continue
		}
		doc, err := html.Parse(bytes.NewReader(evalHTML(t, p.ID)))
		if err != nil {
			t.Fatal(err)
		}
		walkers = append(walkers, mcSegment(doc))
		truths = append(truths, p.Text)
	}
	eval := func(wt mcWeights) float64 {
		var sum float64
		for i, w := range walkers {
			w.wt = wt
			_, _, f1, _ := contenteval.Score(w.mainText(w.title), truths[i])
			sum += f1
		}
		return sum / float64(len(walkers))
	}
	wt := mcDefaultWeights()
	best := eval(wt)
	t.Logf("start F1 %.4f %+v", best, wt)
	params := []*float64{&wt.linkPenalty, &wt.blockCost, &wt.noStopCost, &wt.negFactor, &wt.negCost, &wt.posBoost, &wt.maxLinkShare, &wt.leadWords, &wt.siblingMin, &wt.siblingShare}
	for round := 0; round < 2; round++ {
		for k, p := range params {
			orig := *p
			for _, m := range []float64{0, 0.5, 0.75, 0.9, 1.1, 1.33, 2, 4} {
				*p = orig * m
				if orig == 0 {
					*p = m
				}
				if f := eval(wt); f > best+1e-4 {
					best, orig = f, *p
					t.Logf("param %d = %.3f: F1 %.4f", k, *p, f)
				}
			}
			*p = orig
		}
	}
	t.Logf("best F1 %.4f %+v", best, wt)
}
