package bench

import (
	"bytes"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/internal/testpage"
)

// Link extraction, side by side: what Colly does for every page (build a
// goquery document, select a[href], take the text, resolve the href with
// net/url) against trawl's extract.Links (streaming tokenizer, text, rel,
// page signals, WHATWG resolution and normalization with urlnorm) and
// against its zero-copy Extractor (no resolution).
//
//	cd bench && for i in 1 2 3 4 5; do go test -run='^$' -bench='Goquery|Trawl' . ; done | tee x.txt
//	~/go/bin/benchstat x.txt
//
// Rounds in a shell loop rather than -count=5 interleave the three sides
// in time, so load from other processes on a shared machine hits them
// alike. Besides wall time each benchmark reports cpu-ns/op and cpu-MB/s:
// the process CPU time (all threads, GC included) per operation, which
// waiting for a busy CPU does not inflate.

var linkPageSizes = []struct {
	name         string
	links, bytes int
}{
	{"10links_20KB", 10, 20 << 10},
	{"30links_50KB", 30, 50 << 10},
	{"60links_50KB", 60, 50 << 10},
	{"60links_200KB", 60, 200 << 10},
}

var linkPageURL, _ = url.Parse("https://www.example.com/2026/11/22/story.html")

// processCPU returns the CPU time this process has used, in all threads.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuLoop runs op b.N times and reports CPU time per op and CPU throughput
// next to the usual wall-clock figures.
func cpuLoop(b *testing.B, size int, op func()) {
	b.Helper()
	b.ReportAllocs()
	b.SetBytes(int64(size))
	start := processCPU()
	for b.Loop() {
		op()
	}
	cpu := processCPU() - start
	n := b.N
	if cpu > 0 && n > 0 {
		perOp := float64(cpu.Nanoseconds()) / float64(n)
		b.ReportMetric(perOp, "cpu-ns/op")
		b.ReportMetric(float64(size)/perOp*1e3, "cpu-MB/s")
	}
}

func BenchmarkGoquery(b *testing.B) {
	for _, s := range linkPageSizes {
		page := testpage.Article(1, s.links, s.bytes)
		b.Run(s.name, func(b *testing.B) {
			cpuLoop(b, len(page), func() {
				if n := goqueryLinks(page, linkPageURL); n < s.links {
					b.Fatalf("goquery found %d links, want >= %d", n, s.links)
				}
			})
		})
	}
}

// goqueryLinks does what Colly does for OnHTML("a[href]") plus
// Request.AbsoluteURL: parse a DOM, honour <base href>, and for each
// match take the text and resolve the href.
func goqueryLinks(page []byte, pageURL *url.URL) int {
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(page))
	if err != nil {
		return 0
	}
	base := pageURL
	if href, ok := doc.Find("base[href]").Attr("href"); ok {
		if u, err := pageURL.Parse(href); err == nil {
			base = u
		}
	}
	n := 0
	doc.Find("a[href]").Each(func(_ int, s *goquery.Selection) {
		href, _ := s.Attr("href")
		text := s.Text()
		if strings.HasPrefix(href, "#") {
			return
		}
		u, err := base.Parse(href)
		if err != nil {
			return
		}
		u.Fragment = ""
		if abs := u.String(); abs != "" && text != "\x00" {
			n++
		}
	})
	return n
}

func BenchmarkTrawlLinks(b *testing.B) {
	for _, s := range linkPageSizes {
		page := testpage.Article(1, s.links, s.bytes)
		b.Run(s.name, func(b *testing.B) {
			cpuLoop(b, len(page), func() {
				doc, err := extract.Links(bytes.NewReader(page), linkPageURL, nil)
				if err != nil || len(doc.Links) < s.links {
					b.Fatalf("extract.Links found %d links (err %v), want >= %d", len(doc.Links), err, s.links)
				}
			})
		})
	}
}

func BenchmarkTrawlExtractor(b *testing.B) {
	e := extract.NewExtractor(nil)
	r := new(bytes.Reader)
	for _, s := range linkPageSizes {
		page := testpage.Article(1, s.links, s.bytes)
		b.Run(s.name, func(b *testing.B) {
			cpuLoop(b, len(page), func() {
				r.Reset(page)
				e.Reset(r)
				n := 0
				for e.Next() {
					n++
				}
				if n < s.links {
					b.Fatalf("Extractor found %d links, want >= %d", n, s.links)
				}
			})
		})
	}
}

// BenchmarkTokenizer is the floor for any x/net/html client: the
// tokenizer alone, visiting every token and doing nothing with it.
func BenchmarkTokenizer(b *testing.B) {
	r := new(bytes.Reader)
	for _, s := range linkPageSizes {
		page := testpage.Article(1, s.links, s.bytes)
		b.Run(s.name, func(b *testing.B) {
			cpuLoop(b, len(page), func() {
				r.Reset(page)
				z := html.NewTokenizer(r)
				for z.Next() != html.ErrorToken {
				}
			})
		})
	}
}

// TestLinkCounts checks that both sides see the same <a> links on the
// benchmark pages, so that the benchmarks compare equal work.
func TestLinkCounts(t *testing.T) {
	for _, s := range linkPageSizes {
		page := testpage.Article(1, s.links, s.bytes)
		doc, err := extract.Links(bytes.NewReader(page), linkPageURL, nil)
		if err != nil {
			t.Fatal(err)
		}
		anchors := 0
		for _, l := range doc.Links {
			if l.Tag == "a" {
				anchors++
			}
		}
		if gq := goqueryLinks(page, linkPageURL); gq != anchors || anchors < s.links {
			t.Errorf("%s: goquery %d links, trawl %d <a> links, generator %d", s.name, gq, anchors, s.links)
		}
	}
}
