package content

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	readability "github.com/go-shiori/go-readability"
	"github.com/markusmobius/go-trafilatura"

	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/internal/contenteval"
)

const (
	dataDir = "../../../shared/data/content-eval"
	envVar  = "TRAWL_CONTENT_EVAL"
)

// page is one line of truth.jsonl.
type page = contenteval.Page

// finder extracts main text from UTF-8 HTML.
type finder struct {
	name string
	find func(html []byte, pageURL *url.URL) string
}

func finders() []finder {
	return []finder{
		{name: "trawl extract.MainText (DOM)", find: func(b []byte, _ *url.URL) string {
			s, _ := extract.MainText(bytes.NewReader(b))
			return s
		}},
		{name: "trawl extract.BTE (Finn et al.)", find: func(b []byte, _ *url.URL) string {
			s, _ := extract.BTE(bytes.NewReader(b))
			return s
		}},
		{name: "go-readability", find: func(b []byte, u *url.URL) string {
			a, err := readability.FromReader(bytes.NewReader(b), u)
			if err != nil {
				return ""
			}
			return a.TextContent
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
		{name: "go-trafilatura (fallback off)", find: func(b []byte, u *url.URL) string {
			r, err := trafilatura.Extract(bytes.NewReader(b), trafilatura.Options{
				OriginalURL: u, ExcludeComments: true,
			})
			if err != nil || r == nil {
				return ""
			}
			return r.ContentText
		}},
	}
}

func loadPages(t *testing.T) []page {
	t.Helper()
	pages, err := contenteval.Load(dataDir)
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("content evaluation data not found at %s; skipping", dataDir)
	}
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

// readHTML returns the page decoded to UTF-8, as trawl's fetcher would.
func readHTML(t *testing.T, id string) []byte {
	t.Helper()
	b, err := contenteval.HTML(dataDir, id)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCompare scores every finder on the test split in one run and prints
// the table. Opt-in: TRAWL_CONTENT_EVAL=1 (TRAWL_CONTENT_EVAL_SPLIT=train
// or all to score another split).
func TestCompare(t *testing.T) {
	if os.Getenv(envVar) != "1" {
		t.Skipf("set %s=1 to run the content-finder comparison", envVar)
	}
	split := os.Getenv("TRAWL_CONTENT_EVAL_SPLIT")
	if split == "" {
		split = "test"
	}
	pages := loadPages(t)
	fs := finders()
	type sum struct {
		p, r, f1 float64
		n        int
		elapsed  time.Duration
		bytes    int
	}
	sums := make([]sum, len(fs))
	for _, pg := range pages {
		if split != "all" && pg.Split != split {
			continue
		}
		doc := readHTML(t, pg.ID)
		u, err := url.Parse(pg.URL)
		if err != nil || pg.URL == "" {
			u, _ = url.Parse("http://example.com/")
		}
		for i, f := range fs {
			start := time.Now()
			pred := f.find(doc, u)
			sums[i].elapsed += time.Since(start)
			sums[i].bytes += len(doc)
			p, r, f1, ok := contenteval.Score(pred, pg.Text)
			if !ok {
				continue
			}
			sums[i].p += p
			sums[i].r += r
			sums[i].f1 += f1
			sums[i].n++
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "split %s, bag-of-words macro averages (README metric)\n", split)
	sb.WriteString("| finder | pages | P | R | F1 | MB/s |\n|---|---|---|---|---|---|\n")
	for i, f := range fs {
		s := sums[i]
		if s.n == 0 {
			continue
		}
		n := float64(s.n)
		mbps := float64(s.bytes) / 1e6 / s.elapsed.Seconds()
		fmt.Fprintf(&sb, "| %s | %d | %.3f | %.3f | %.3f | %.1f |\n", f.name, s.n, s.p/n, s.r/n, s.f1/n, mbps)
	}
	t.Log("\n" + sb.String())
}
