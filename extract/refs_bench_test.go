package extract

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// benchCSS is a style sheet of the usual shape: rules with a few url()s,
// comments, an @import and @font-face sources.
var benchCSS = []byte(`@import url("reset.css");
/* layout */
body { margin: 0; font: 16px/1.5 "Helvetica Neue", Arial, sans-serif; background: #fff url(img/bg.png) repeat-x }
` + strings.Repeat(`.card { border: 1px solid #ddd; padding: 1em; background-image: url('../img/card.svg') }
.icon-home { background: url(data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=) no-repeat }
@font-face { font-family: "F"; src: url(/fonts/f.woff2) format("woff2"), url(/fonts/f.woff) format("woff") }
`, 40))

func BenchmarkCSSLinks(b *testing.B) {
	base, _ := url.Parse("https://static.example/css/site.css")
	b.ReportAllocs()
	b.SetBytes(int64(len(benchCSS)))
	for b.Loop() {
		if links := CSSLinks(benchCSS, base, nil); len(links) != 122 {
			b.Fatalf("CSSLinks: %d links", len(links))
		}
	}
}

func BenchmarkParseSrcset(b *testing.B) {
	const srcset = "/img/photo-320.jpg 320w, /img/photo-640.jpg 640w, /img/photo-1280.jpg 1280w, /img/photo-2560.jpg?v=2,3 2560w"
	b.ReportAllocs()
	b.SetBytes(int64(len(srcset)))
	for b.Loop() {
		if n := len(ParseSrcset(srcset)); n != 4 {
			b.Fatalf("ParseSrcset: %d URLs", n)
		}
	}
}

func BenchmarkHeaderLinks(b *testing.B) {
	base, _ := url.Parse("https://example.com/a/b")
	h := http.Header{}
	h.Set("Location", "/moved")
	h.Add("Link", `</app.css>; rel=preload; as=style, </app.js>; rel=modulepreload, <https://example.com/a/c>; rel="next"; title="Page 2"`)
	h.Add("Link", `</feed.xml>; rel=alternate; type="application/rss+xml"`)
	b.ReportAllocs()
	for b.Loop() {
		if n := len(HeaderLinks(h, http.StatusFound, base, nil)); n != 5 {
			b.Fatalf("HeaderLinks: %d links", n)
		}
	}
}
