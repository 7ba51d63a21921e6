package maintext

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/internal/contenteval"
	"github.com/trawl-dev/trawl/internal/shareddata"
)

// contentSizes are synthetic page sizes in article paragraphs: a short
// post, a typical article and a long one (about 3 KB, 11 KB and 47 KB).
var contentSizes = [...]int{5, 40, 200}

func BenchmarkMainText(b *testing.B) {
	for _, n := range contentSizes {
		page, _ := contentPage(n)
		b.Run(fmt.Sprintf("%dKB", len(page)>>10), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				if _, err := Extract(strings.NewReader(page)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMainTextNode measures the finder alone, on a parsed page.
func BenchmarkExtractMarkdown(b *testing.B) {
	for _, n := range contentSizes {
		page, _ := contentPage(n)
		b.Run(fmt.Sprintf("%dKB", len(page)>>10), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				if _, err := ExtractMarkdown(strings.NewReader(page)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkMainTextNode(b *testing.B) {
	for _, n := range contentSizes {
		page, _ := contentPage(n)
		doc, err := html.Parse(strings.NewReader(page))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%dKB", len(page)>>10), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				ExtractNode(doc)
			}
		})
	}
}

func BenchmarkBTE(b *testing.B) {
	for _, n := range contentSizes {
		page, _ := contentPage(n)
		b.Run(fmt.Sprintf("%dKB", len(page)>>10), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				if _, err := BTE(strings.NewReader(page)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMainTextEvalPages runs Extract over the first 100 pages of the
// evaluation set when it is present (real-world markup).
func BenchmarkMainTextEvalPages(b *testing.B) {
	pages := evalLoad(b)
	var docs [][]byte
	for _, p := range pages[:min(100, len(pages))] {
		docs = append(docs, evalHTML(b, p.ID))
	}
	benchMainTextPages(b, docs)
}

// BenchmarkMainTextSnippetPages runs Extract over every tenth page of the
// snippet corpus when it is present (larger, multilingual pages from many
// sites).
func BenchmarkMainTextSnippetPages(b *testing.B) {
	dir := shareddata.Dir(b, evalCorpusDirs[contenteval.Snippets])
	docs, err := contenteval.LoadCorpus(contenteval.Snippets, dir)
	if err != nil {
		b.Fatal(err)
	}
	var pages [][]byte
	for i := 0; i < len(docs); i += 10 {
		p, err := contenteval.DocHTML(dir, docs[i])
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, p)
	}
	benchMainTextPages(b, pages)
}

// benchMainTextPages runs Extract over pages, read as the crawler passes
// them (a bytes.Reader each).
func benchMainTextPages(b *testing.B, pages [][]byte) {
	total := 0
	for _, p := range pages {
		total += len(p)
	}
	b.ReportAllocs()
	b.SetBytes(int64(total))
	for b.Loop() {
		for _, p := range pages {
			if _, err := Extract(bytes.NewReader(p)); err != nil {
				b.Fatal(err)
			}
		}
	}
}
