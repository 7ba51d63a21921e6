// Package testpage generates deterministic, realistic HTML pages for
// benchmarks and tests of trawl and its bench module, so both measure the
// same bytes.
package testpage

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Article returns a deterministic page shaped like a news or blog article:
// head with meta, styles and scripts, a nav bar, an article of paragraphs,
// a sidebar, a footer, and nLinks links spread over them, padded to about
// size bytes.
func Article(seed uint64, nLinks, size int) []byte {
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
