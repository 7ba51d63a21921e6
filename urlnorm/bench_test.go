package urlnorm

import (
	"net/url"
	"testing"

	"github.com/PuerkitoBio/purell"
)

// benchHrefs is a mix of hrefs as they appear in real pages, resolved
// against benchBase.
var benchHrefs = []string{
	"/",
	"/news/2024/11/22/story-title-here.html",
	"../sport/football/index.html",
	"article.html?id=12345&page=2",
	"https://cdn.example.net/static/js/app.min.js?v=3.2.1",
	"//fonts.example.org/css?family=Open+Sans",
	"#comments",
	"?page=3",
	"/search?q=go+crawler&lang=en",
	"https://www.example.com/about/team/",
	"mailto:editor@example.com",
	"./images/photo%201.jpg",
}

const benchBase = "https://www.example.com/news/2024/11/21/yesterday.html"

func BenchmarkResolveString(b *testing.B) {
	base, err := url.Parse(benchBase)
	if err != nil {
		b.Fatal(err)
	}
	n := New()
	b.Run("mix", func(b *testing.B) {
		b.ReportAllocs()
		size := 0
		for _, h := range benchHrefs {
			size += len(h)
		}
		b.SetBytes(int64(size / len(benchHrefs)))
		i := 0
		for b.Loop() {
			_, _ = n.ResolveString(base, benchHrefs[i%len(benchHrefs)])
			i++
		}
	})
	for _, tc := range []struct{ name, href string }{
		{name: "relative", href: "../sport/football/index.html"},
		{name: "absolute", href: "https://cdn.example.net/static/js/app.min.js?v=3.2.1"},
		{name: "non-ASCII", href: "/wiki/Café_au_lait"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(tc.href)))
			for b.Loop() {
				_, _ = n.ResolveString(base, tc.href)
			}
		})
	}
	b.Run("slow-path/mix", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_, _ = n.resolveSlow(base, benchHrefs[i%len(benchHrefs)])
			i++
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			i := 0
			for pb.Next() {
				_, _ = n.ResolveString(base, benchHrefs[i%len(benchHrefs)])
				i++
			}
		})
	})
}

var benchURLs = []string{
	"https://www.example.com/news/2024/11/22/story-title-here.html",
	"HTTP://Example.COM:80/a/./b/../c/%7euser?#frag",
	"https://shop.example.org/p/123?color=red&size=m&utm_source=news",
	"http://example.com/search?q=a%2fb&x=%41",
}

func BenchmarkNormalize(b *testing.B) {
	for _, tc := range []struct {
		name string
		n    *Normalizer
	}{
		{name: "default", n: New()},
		{name: "all-options", n: New(allOptions...)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				_, _ = tc.n.Normalize(benchURLs[i%len(benchURLs)])
				i++
			}
		})
	}
	// purell with its safe flags plus fragment and dot-segment removal, for
	// the comparison in doc.go (it also gets %2f and %41 wrong or right
	// only with FlagDecodeUnnecessaryEscapes, which decodes reserved bytes).
	b.Run("purell", func(b *testing.B) {
		b.ReportAllocs()
		flags := purell.FlagsSafe | purell.FlagRemoveFragment | purell.FlagRemoveDotSegments
		i := 0
		for b.Loop() {
			_, _ = purell.NormalizeURLString(benchURLs[i%len(benchURLs)], flags)
			i++
		}
	})
}

func BenchmarkKey(b *testing.B) {
	u, err := url.Parse(benchBase)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = Key(u)
	}
}
