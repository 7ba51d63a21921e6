package maintext

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/internal/contenteval"
	"github.com/trawl-dev/trawl/internal/shareddata"
)

// The content evaluation set (AGPL data, never copied into the repository)
// lives outside the module; see its README for the metric.
// evalDataSet is the shared data set of the Dragnet corpus (see
// internal/shareddata).
const evalDataSet = "content-eval"

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
		{name: "trawl Extract (DOM)", find: func(b []byte) string {
			s, _ := Extract(bytes.NewReader(b))
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
// absent (failing it when CI is set: shareddata.Dir).
func evalLoad(tb testing.TB) []evalPage {
	tb.Helper()
	pages, err := contenteval.Load(shareddata.Dir(tb, evalDataSet))
	if err != nil {
		tb.Fatal(err)
	}
	return pages
}

// evalHTML returns the page's HTML decoded to UTF-8 (the fetcher's job in a
// crawl).
func evalHTML(tb testing.TB, id string) []byte {
	tb.Helper()
	b, err := contenteval.HTML(shareddata.Dir(tb, evalDataSet), id)
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

// evalVisibleText is the floor: all the visible text of the page, as the
// crawler's link extractor gives it (extract.Document.Text; see
// internal/htmltext for what is visible).
func evalVisibleText(b []byte) string {
	doc, err := extract.Links(bytes.NewReader(b), nil, &extract.Options{MaxTextLen: len(b)})
	if err != nil {
		return ""
	}
	return doc.Text
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
		t.Errorf("Extract F1 %.3f, want at least BTE's %.3f + 0.05", dom, bte)
	}
	if dom < vis+0.2 {
		t.Errorf("Extract F1 %.3f, want at least visible text's %.3f + 0.2", dom, vis)
	}
}
