package extract

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// testPage returns a deterministic page shaped like a news or blog article:
// head with meta, styles and scripts, a nav bar, an article of paragraphs,
// a sidebar, a footer, and nLinks links spread over them, padded to about
// size bytes.
func testPage(seed uint64, nLinks, size int) []byte {
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

var benchSizes = []struct {
	name         string
	links, bytes int
}{
	{"10links_20KB", 10, 20 << 10},
	{"30links_50KB", 30, 50 << 10},
	{"60links_50KB", 60, 50 << 10},
	{"60links_200KB", 60, 200 << 10},
}

func BenchmarkLinks(b *testing.B) {
	pageURL, _ := url.Parse("https://www.example.com/2026/11/22/story.html")
	for _, s := range benchSizes {
		page := testPage(1, s.links, s.bytes)
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				doc, err := Links(bytes.NewReader(page), pageURL, nil)
				if err != nil || len(doc.Links) < s.links {
					b.Fatalf("Links: %d links, err %v", len(doc.Links), err)
				}
			}
		})
	}
}

func BenchmarkExtractor(b *testing.B) {
	e := NewExtractor(nil)
	r := new(bytes.Reader)
	for _, s := range benchSizes {
		page := testPage(1, s.links, s.bytes)
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				r.Reset(page)
				e.Reset(r)
				for e.Next() {
				}
			}
		})
	}
}

// BenchmarkTokenizer is the floor: the x/net/html tokenizer alone.
func BenchmarkTokenizer(b *testing.B) {
	r := new(bytes.Reader)
	for _, s := range benchSizes {
		page := testPage(1, s.links, s.bytes)
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				r.Reset(page)
				z := html.NewTokenizer(r)
				for z.Next() != html.ErrorToken {
				}
			}
		})
	}
}
