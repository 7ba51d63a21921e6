package content

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	readability "github.com/go-shiori/go-readability"
	"github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html/charset"

	"github.com/trawl-dev/trawl/extract"
)

const (
	dataDir = "../../../shared/data/content-eval"
	envVar  = "TRAWL_CONTENT_EVAL"
)

// page is one line of truth.jsonl.
type page struct {
	ID    string `json:"id"`
	URL   string `json:"url"`
	Text  string `json:"text"`
	Split string `json:"split"`
}

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
	f, err := os.Open(filepath.Join(dataDir, "truth.jsonl"))
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("content evaluation data not found at %s; skipping", dataDir)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var pages []page
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var p page
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("truth.jsonl: %v", err)
		}
		pages = append(pages, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return pages
}

// readHTML returns the page decoded to UTF-8, as trawl's fetcher would.
func readHTML(t *testing.T, id string) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join(dataDir, "pages", id+".html.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	enc, _, _ := charset.DetermineEncoding(raw, "")
	out, err := enc.NewDecoder().Bytes(raw)
	if err != nil {
		return bytes.ToValidUTF8(raw, []byte("\uFFFD"))
	}
	return out
}

// tokens is the README's tokenizer: lowercase, split at runs of
// non-letter/digit characters, as a multiset.
func tokens(s string) map[string]int {
	m := make(map[string]int)
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		m[w]++
	}
	return m
}

// score returns bag-of-words P, R, F1; ok is false for an empty truth.
func score(pred, truth string) (p, r, f1 float64, ok bool) {
	pt, tt := tokens(pred), tokens(truth)
	np, nt, shared := 0, 0, 0
	for _, c := range tt {
		nt += c
	}
	if nt == 0 {
		return 0, 0, 0, false
	}
	for w, c := range pt {
		np += c
		shared += min(c, tt[w])
	}
	if np == 0 {
		return 0, 0, 0, true
	}
	p, r = float64(shared)/float64(np), float64(shared)/float64(nt)
	if p+r > 0 {
		f1 = 2 * p * r / (p + r)
	}
	return p, r, f1, true
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
			p, r, f1, ok := score(pred, pg.Text)
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
