package bench

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/extract"
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
		page := linkPage(1, s.links, s.bytes)
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
		page := linkPage(1, s.links, s.bytes)
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
		page := linkPage(1, s.links, s.bytes)
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
		page := linkPage(1, s.links, s.bytes)
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
		page := linkPage(1, s.links, s.bytes)
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

// linkPage returns a deterministic page shaped like a news article: head
// with meta, style and script, nav, article paragraphs with inline links,
// sidebar, footer; nLinks <a> links, padded to about size bytes.
func linkPage(seed uint64, nLinks, size int) []byte {
	rng := rand.New(rand.NewPCG(seed, 42))
	words := strings.Fields("the crawler fetched a page and found links in its body while the frontier " +
		"kept hosts polite robots text index search news world sport business culture " +
		"science technology opinion video market report analysis review update")
	sentence := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[rng.IntN(len(words))])
		}
		return b.String()
	}
	var b bytes.Buffer
	link := 0
	a := func(attrs string) {
		switch rng.IntN(4) {
		case 0:
			fmt.Fprintf(&b, `<a href="/section/%s/%d"%s>%s</a>`, words[rng.IntN(len(words))], link, attrs, sentence(2))
		case 1:
			fmt.Fprintf(&b, `<a href="https://www.example.com/2026/11/%d/story-%d.html?ref=home&amp;pos=%d"%s>%s</a>`, rng.IntN(28)+1, link, link, attrs, sentence(5))
		case 2:
			fmt.Fprintf(&b, `<a class="card__link" href="../tags/%s"%s><img src="/img/%d.jpg" alt="%s"></a>`, words[rng.IntN(len(words))], attrs, link, sentence(3))
		default:
			fmt.Fprintf(&b, `<a href="http://other%d.example.org/path/to/page-%d"%s rel="nofollow">%s</a>`, rng.IntN(9), link, attrs, sentence(3))
		}
		link++
	}
	b.WriteString(`<!DOCTYPE html><html lang="en-GB"><head><meta charset="utf-8"><title>` + sentence(8) + ` | Example News</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="index, follow, max-image-preview:large">
<link rel="canonical" href="https://www.example.com/2026/11/22/story.html"><link rel="stylesheet" href="/css/site.css">
<link rel="alternate" type="application/rss+xml" href="/feed.xml" title="Example feed">
<style>body{font-family:sans-serif;margin:0}.nav a{color:#333;text-decoration:none}.card{display:grid;grid-template-columns:1fr 2fr}` + strings.Repeat(".x{color:red}", 150) + `</style>
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());` + strings.Repeat("var a=1<2&&b>3;", 200) + `</script>
</head><body class="article"><header class="site-header"><nav class="nav"><ul>`)
	nav := nLinks / 5
	for range nav {
		b.WriteString(`<li class="nav__item">`)
		a(` class="nav__link"`)
		b.WriteString("</li>\n")
	}
	b.WriteString(`</ul></nav></header><main><article><h1>` + sentence(10) + `</h1><p class="byline">By <span>Jane Doe</span></p>`)
	body := nLinks - 2*nav
	paras := 12
	for p := range paras {
		b.WriteString("<p>")
		b.WriteString(sentence(40 + rng.IntN(40)))
		for range body / paras {
			b.WriteString(" ")
			a("")
			b.WriteString(" " + sentence(10))
		}
		if p == 0 {
			for range body % paras {
				a("")
			}
		}
		b.WriteString("</p>\n")
		if p%4 == 3 {
			b.WriteString(`<div class="ad" data-slot="mid"><script async src="https://ads.example.net/ad.js"></script><!-- ad slot --></div>` + "\n")
		}
	}
	b.WriteString(`</article><aside class="sidebar"><h2>Most read</h2><ol>`)
	for range nav {
		b.WriteString("<li>")
		a("")
		b.WriteString("</li>")
	}
	b.WriteString(`</ol></aside></main><footer><p>&copy; 2026 Example &amp; Co. ` + sentence(20) + `</p>`)
	for b.Len() < size-200 {
		b.WriteString(`<div class="footer__block" data-track="footer"><p>` + sentence(30) + "</p></div>\n")
	}
	b.WriteString(`</footer><script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle"}</script></body></html>`)
	return b.Bytes()
}
