package content

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	readability "github.com/go-shiori/go-readability"
	"github.com/markusmobius/go-trafilatura"

	"github.com/trawl-dev/trawl/internal/contenteval"
	"github.com/trawl-dev/trawl/internal/shareddata"
	"github.com/trawl-dev/trawl/maintext"
)

const (
	envVar = "TRAWL_CONTENT_EVAL"
	folds  = 5
)

// corpusDirs name the two evaluation sets in shared/data, read in place
// (never copied).
var corpusDirs = map[string]string{
	contenteval.Dragnet:  "content-eval",
	contenteval.Snippets: "content-eval-snippets",
}

// finder extracts main text from UTF-8 HTML.
type finder struct {
	name string
	find func(html []byte, pageURL *url.URL) string
}

func finders() []finder {
	return []finder{
		{name: "trawl maintext.Extract", find: func(b []byte, _ *url.URL) string {
			s, _ := maintext.Extract(bytes.NewReader(b))
			return s
		}},
		{name: "go-trafilatura (fallback off)", find: func(b []byte, u *url.URL) string {
			r, err := trafilatura.Extract(bytes.NewReader(b), trafilatura.Options{
				OriginalURL: u, ExcludeComments: true,
			})
			if err != nil || r == nil {
				return ""
			}
			return r.ContentText
		}},
		{name: "go-trafilatura (fallback on)", find: func(b []byte, u *url.URL) string {
			r, err := trafilatura.Extract(bytes.NewReader(b), trafilatura.Options{
				OriginalURL: u, EnableFallback: true, ExcludeComments: true,
			})
			if err != nil || r == nil {
				return ""
			}
			return r.ContentText
		}},
		{name: "go-readability", find: func(b []byte, u *url.URL) string {
			a, err := readability.FromReader(bytes.NewReader(b), u)
			if err != nil {
				return ""
			}
			return a.TextContent
		}},
		{name: "trawl maintext.BTE (Finn et al.)", find: func(b []byte, _ *url.URL) string {
			s, _ := maintext.BTE(bytes.NewReader(b))
			return s
		}},
	}
}

// TestCompare scores every finder on both corpora in one run and prints,
// per corpus, the whole-corpus figures, the mean and worst of 5 folds split
// by site, and the speed. Opt-in because it is slow (about two minutes):
//
//	cd bench && TRAWL_CONTENT_EVAL=1 go test -run TestCompare -v ./content
//
// TRAWL_CONTENT_EVAL_CORPUS=dragnet or snippets runs one corpus;
// TRAWL_CONTENT_EVAL_FINDERS=n runs the first n finders only.
func TestCompare(t *testing.T) {
	if os.Getenv(envVar) != "1" {
		t.Skipf("set %s=1 to run the content-finder comparison", envVar)
	}
	fs := finders()
	if n := os.Getenv("TRAWL_CONTENT_EVAL_FINDERS"); n != "" {
		var k int
		fmt.Sscan(n, &k)
		fs = fs[:max(1, min(k, len(fs)))]
	}
	for _, corpus := range []string{contenteval.Dragnet, contenteval.Snippets} {
		if c := os.Getenv("TRAWL_CONTENT_EVAL_CORPUS"); c != "" && c != corpus {
			continue
		}
		t.Run(corpus, func(t *testing.T) { compare(t, corpus, fs) })
	}
}

func compare(t *testing.T, corpus string, fs []finder) {
	dir := shareddata.Dir(t, corpusDirs[corpus])
	docs, err := contenteval.LoadCorpus(corpus, dir)
	if err != nil {
		t.Fatal(err)
	}
	type acc struct {
		all     contenteval.Tally
		fold    [folds]contenteval.Tally
		elapsed time.Duration
	}
	accs := make([]acc, len(fs))
	total := 0
	for _, d := range docs {
		b, err := contenteval.DocHTML(dir, d)
		if err != nil {
			t.Fatal(err)
		}
		total += len(b)
		u, err := url.Parse(d.URL)
		if err != nil || d.URL == "" {
			u, _ = url.Parse("http://example.com/")
		}
		k := contenteval.Fold(d.Site, folds)
		for i, f := range fs {
			start := time.Now()
			pred := f.find(b, u)
			accs[i].elapsed += time.Since(start)
			accs[i].all.Add(d, pred)
			accs[i].fold[k].Add(d, pred)
		}
	}
	var sb strings.Builder
	metric := "bag-of-words macro P/R/F1"
	if corpus == contenteval.Snippets {
		metric = "snippet micro P/R/F1"
	}
	fmt.Fprintf(&sb, "corpus %s: %d pages, %.0f MB, %s; folds by site (%d)\n", corpus, len(docs), float64(total)/1e6, metric, folds)
	sb.WriteString("| finder | P | R | F1 | F1 fold mean | F1 worst fold | P worst fold | ms/page | speed vs trafilatura (off) |\n|---|---|---|---|---|---|---|---|---|\n")
	ref := accs[0].elapsed
	for i, f := range fs {
		if f.name == "go-trafilatura (fallback off)" {
			ref = accs[i].elapsed
		}
	}
	for i, f := range fs {
		a := accs[i]
		p, r, f1 := a.all.PRF()
		mean, worst, worstP := 0.0, 1.0, 1.0
		for k := range folds {
			fp, _, ff := a.fold[k].PRF()
			mean += ff / folds
			worst = min(worst, ff)
			worstP = min(worstP, fp)
		}
		ms := a.elapsed.Seconds() * 1000 / float64(len(docs))
		fmt.Fprintf(&sb, "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f | %.1f× |\n",
			f.name, p, r, f1, mean, worst, worstP, ms, ref.Seconds()/a.elapsed.Seconds())
	}
	sb.WriteString("per fold (pages, P/R/F1):\n")
	for i, f := range fs {
		fmt.Fprintf(&sb, "  %-32s", f.name)
		for k := range folds {
			p, r, f1 := accs[i].fold[k].PRF()
			fmt.Fprintf(&sb, " | %d: %d %.3f/%.3f/%.3f", k, accs[i].fold[k].Pages, p, r, f1)
		}
		sb.WriteString("\n")
	}
	t.Log("\n" + sb.String())
}
