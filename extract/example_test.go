package extract_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/trawl-dev/trawl/extract"
)

func ExampleLinks() {
	page := `<html lang="en"><head>
<title>Trawl  news</title>
<meta name="robots" content="noarchive">
<link rel="canonical" href="/news/today?utm=x">
<base href="https://example.com/news/">
</head><body>
<nav><a href="/">Home</a> <a href="#main">Skip</a></nav>
<p>Read <a href="story-1.html#comments">the <b>first</b>
   story</a> or <a href="https://other.example/" rel="nofollow ugc">a forum post</a>.</p>
<a href="mailto:editor@example.com">Mail us</a>
<a href="archive/"><img src="a.png" alt="Archive"></a>
</body></html>`
	pageURL, _ := url.Parse("https://example.com/news/today")
	doc, err := extract.Links(strings.NewReader(page), pageURL, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("title %q, lang %s, canonical %s, robots %+v\n", doc.Title, doc.Lang, doc.Canonical, doc.Robots)
	for _, l := range doc.Links {
		fmt.Printf("%-4s %-10s %s %q [%s]\n", l.Tag, l.Kind, l.URL, l.Text, l.Rel)
	}
	// Output:
	// title "Trawl news", lang en, canonical https://example.com/news/today?utm=x, robots {NoIndex:false NoFollow:false NoArchive:true NoSnippet:false}
	// link navigation https://example.com/news/today?utm=x "" [canonical]
	// a    navigation https://example.com/ "Home" []
	// a    navigation https://example.com/news/story-1.html "the first story" []
	// a    navigation https://other.example/ "a forum post" [nofollow ugc]
	// img  embed      https://example.com/news/a.png "Archive" []
	// a    navigation https://example.com/news/archive/ "Archive" []
}

func ExampleCSSLinks() {
	css := []byte(`@import url("print.css") print;
body { background: url(../img/bg.png) }
@font-face { src: url(data:font/woff2;base64,AAAA), url('/fonts/f.woff') }`)
	sheet, _ := url.Parse("https://example.com/static/css/site.css")
	for _, l := range extract.CSSLinks(css, sheet, nil) {
		fmt.Println(l.Kind, l.URL)
	}
	// Output:
	// style https://example.com/static/css/print.css
	// embed https://example.com/static/img/bg.png
	// embed https://example.com/fonts/f.woff
}

func ExampleHeaderLinks() {
	h := http.Header{}
	h.Set("Location", "/new/place")
	h.Add("Link", `</app.css>; rel=preload; as=style, </page/2>; rel="next"`)
	h.Add("Link", `</feed.xml>; rel=alternate; type="application/rss+xml"; title="News, daily"`)
	resp, _ := url.Parse("https://example.com/old/place")
	for _, l := range extract.HeaderLinks(h, http.StatusMovedPermanently, resp, nil) {
		fmt.Printf("%-8s %-10s %s %q\n", l.Tag, l.Kind, l.URL, l.Text)
	}
	// Output:
	// location redirect   https://example.com/new/place ""
	// link     embed      https://example.com/app.css ""
	// link     navigation https://example.com/page/2 ""
	// link     feed       https://example.com/feed.xml "News, daily"
}

func ExampleParseSrcset() {
	fmt.Printf("%q\n", extract.ParseSrcset("small.jpg 480w, /img?w=800,h=600 800w, bad.jpg 2q, large.jpg 2x"))
	// Output:
	// ["small.jpg" "/img?w=800,h=600" "large.jpg"]
}

func ExampleParseRobots() {
	fmt.Printf("%+v\n", extract.ParseRobots("noindex, FOLLOW", ""))
	fmt.Printf("%+v\n", extract.ParseRobots("none", ""))
	// X-Robots-Tag values may name the robot they are for.
	fmt.Printf("%+v\n", extract.ParseRobots("otherbot: noindex", "trawlbot"))
	fmt.Printf("%+v\n", extract.ParseRobots("trawlbot: nofollow", "trawlbot"))
	// Output:
	// {NoIndex:true NoFollow:false NoArchive:false NoSnippet:false}
	// {NoIndex:true NoFollow:true NoArchive:false NoSnippet:false}
	// {NoIndex:false NoFollow:false NoArchive:false NoSnippet:false}
	// {NoIndex:false NoFollow:true NoArchive:false NoSnippet:false}
}

func ExampleRobotsFromHeader() {
	h := http.Header{}
	h.Add("X-Robots-Tag", "noarchive")
	h.Add("X-Robots-Tag", "trawlbot: noindex, nofollow")
	fmt.Printf("%+v\n", extract.RobotsFromHeader(h, "trawlbot"))
	// Output:
	// {NoIndex:true NoFollow:true NoArchive:true NoSnippet:false}
}

func ExampleExtractor() {
	pages := []string{
		`<title>One</title><a href="/a" rel="next">Next page</a><iframe src="/ad"></iframe>`,
		`<title>Two</title><meta http-equiv="refresh" content="0; url=/moved">`,
	}
	e := extract.NewExtractor(nil) // reuse one per goroutine
	for _, p := range pages {
		e.Reset(strings.NewReader(p))
		for e.Next() {
			l := e.Link() // slices valid until the next call to Next
			fmt.Printf("%s %s %q [%s]\n", l.Tag, l.Href, l.Text, l.Rel)
		}
		fmt.Printf("title %s\n", e.Title())
	}
	// Output:
	// a /a "Next page" [next]
	// iframe /ad "" []
	// title One
	// meta /moved "" []
	// title Two
}
