package extract

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/urlnorm"
)

// checkLinkURLs fails unless every link is an absolute http(s) URL that
// normalizes to itself, with a valid Kind.
func checkLinkURLs(t *testing.T, norm *urlnorm.Normalizer, links []Link) {
	t.Helper()
	for _, l := range links {
		u, err := url.Parse(l.URL)
		if err != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			t.Errorf("link URL %q is not an absolute http(s) URL (err %v)", l.URL, err)
		}
		if again, err := norm.Normalize(l.URL); err != nil || again != l.URL {
			t.Errorf("Normalize(%q) = %q, %v; want it unchanged", l.URL, again, err)
		}
		if l.Kind < Navigation || l.Kind > Ping {
			t.Errorf("link %q has invalid kind %d", l.URL, l.Kind)
		}
	}
}

// FuzzCSSLinks checks, for any style sheet: no panic; every URL absolute
// http(s) and normalized; the bounds; at most one reference per 5 input
// bytes ("url(" plus a byte, or a quoted string after @import); the same
// result twice; and, for CSS that a <style> element holds whole, the same
// references from Links over <style>CSS</style>.
//
//	go test -run='^$' -fuzz=FuzzCSSLinks -fuzztime=5m -parallel=1 ./extract
func FuzzCSSLinks(f *testing.F) {
	for _, s := range []string{
		`a{background:url(img/bg.png)}`,
		`@import "print.css" print; @import url(x.css);`,
		`a{b:url("x\"y.png")} c{d:url(a\29 b.png)} e{f:u\72l(esc.png)}`,
		`/* url(no.png) */ a{b:url( sp.png )} c{d:url(a"b)} e{f:myurl(x)}`,
		`@namespace url(http://www.w3.org/1999/xhtml); a{b:image-set("a.png" 1x, url(b.png) 2x, 'c.avif' type("image/avif"))}`,
		"@import \"li\\\nne.css\"; @import \"bad\nstring\";",
		`@font-face{src:url(data:font/woff2;base64,AAAA) format("woff2"),url(//cdn.example/f.woff)}`,
		`url(`, `"\`, `/*`, `@import`, `u\`,
	} {
		f.Add(s)
	}
	norm := urlnorm.New()
	base, _ := url.Parse("https://static.example/css/site.css")
	opts := &Options{MaxLinks: 16, MaxAttrLen: 256}
	f.Fuzz(func(t *testing.T, css string) {
		links := CSSLinks([]byte(css), base, opts)
		if len(links) > opts.MaxLinks {
			t.Errorf("%d links > MaxLinks %d", len(links), opts.MaxLinks)
		}
		checkLinkURLs(t, norm, links)
		var s cssScanner
		s.reset([]byte(css))
		n := 0
		for {
			ref, kind, ok := s.next()
			if !ok {
				break
			}
			n++
			if kind != Embed && kind != Style {
				t.Errorf("cssScanner kind %v for %q", kind, ref)
			}
		}
		if n > len(css)/5+1 {
			t.Errorf("%d references from %d bytes", n, len(css))
		}
		want := fmt.Sprint(links)
		if again := fmt.Sprint(CSSLinks([]byte(css), base, opts)); again != want {
			t.Errorf("second run differs:\n%s\nfirst:\n%s", again, want)
		}
		if strings.Contains(css, "</") || strings.ContainsAny(css, "\x00\r") || len(links) == opts.MaxLinks {
			return
		}
		doc, err := Links(strings.NewReader("<style>"+css+"</style>"), base, opts)
		if err != nil {
			t.Fatal(err)
		}
		for i := range links {
			links[i].Tag = "style"
		}
		if got := fmt.Sprint(doc.Links); got != fmt.Sprint(links) {
			t.Errorf("<style> gives\n%s\nCSSLinks\n%s", got, fmt.Sprint(links))
		}
	})
}

// FuzzParseSrcset checks, for any srcset value: no panic; every URL
// non-empty, free of whitespace, not starting or ending with a comma, and
// a substring of the input; no more URLs than the input has bytes; and
// that joining the result with ", " and parsing again gives it back.
//
//	go test -run='^$' -fuzz=FuzzParseSrcset -fuzztime=5m -parallel=1 ./extract
func FuzzParseSrcset(f *testing.F) {
	for _, s := range []string{
		"a.png 1x, b.png 2x", "a.png 100w, b.png 200w 100h", "/img?w=1,2 2x", "a.png,b.png", ", , a.png ,,, ",
		"a.png (foo, bar) 1x, b.png", "a.png 1e1x, b.png -0x, c.png .5x", "a.png 1x (unclosed, b.png",
		"data:image/png;base64,iVBORw0KGgo= 1x", "a.png 0w, b 1.x, c +1x, d 1X",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		urls := ParseSrcset(s)
		total := 0
		for _, u := range urls {
			total += len(u)
			if u == "" || strings.ContainsAny(u, " \t\n\f\r") || u[0] == ',' || u[len(u)-1] == ',' || !strings.Contains(s, u) {
				t.Errorf("ParseSrcset(%q): bad URL %q", s, u)
			}
		}
		if total > len(s) {
			t.Errorf("ParseSrcset(%q): %d URL bytes from %d", s, total, len(s))
		}
		if again := ParseSrcset(strings.Join(urls, ", ")); strings.Join(again, "\x00") != strings.Join(urls, "\x00") {
			t.Errorf("ParseSrcset(%q) = %q, but joined and parsed again %q", s, urls, again)
		}
	})
}

// FuzzHeaderLinks checks, for any Location, Link and Refresh values and
// status: no panic; every URL absolute http(s) and normalized; the
// bounds; Location only for 3xx and 201; the same result twice.
//
//	go test -run='^$' -fuzz=FuzzHeaderLinks -fuzztime=5m -parallel=1 ./extract
func FuzzHeaderLinks(f *testing.F) {
	f.Add(301, "/moved", `</style.css>; rel=stylesheet, <next.html>; rel="next"`, "5; url=/later")
	f.Add(201, "created/1", `</a,b;c>; rel="alternate"; title="x, y; z", </d>;rel=next`, "")
	f.Add(200, "", `garbage; rel=next, "quoted, <no>", </ok>; rel=next; junk "x,y" ; rel=prev, <unterminated`, "0")
	f.Add(302, "//other.example/x", `</q>; REL="prev nofollow"; title="a \"q\" b", </f>; rel=alternate; type="application/rss+xml"`, "1;URL='q'")
	norm := urlnorm.New()
	base, _ := url.Parse("https://example.com/dir/resp?q=1")
	opts := &Options{MaxLinks: 8, MaxAttrLen: 256, MaxLinkTextLen: 16}
	f.Fuzz(func(t *testing.T, status int, location, link, refresh string) {
		h := http.Header{}
		h.Set("Location", location)
		h.Add("Link", link)
		h.Add("Link", link)
		h.Set("Refresh", refresh)
		links := HeaderLinks(h, status, base, opts)
		if len(links) > opts.MaxLinks {
			t.Errorf("%d links > MaxLinks %d", len(links), opts.MaxLinks)
		}
		checkLinkURLs(t, norm, links)
		for _, l := range links {
			if l.Tag == "location" && status != 201 && (status < 300 || status > 399) {
				t.Errorf("Location reported for status %d", status)
			}
			if len(l.Text) > opts.MaxLinkTextLen {
				t.Errorf("len(Text) = %d > %d", len(l.Text), opts.MaxLinkTextLen)
			}
		}
		if again := HeaderLinks(h, status, base, opts); fmt.Sprint(again) != fmt.Sprint(links) {
			t.Errorf("second run differs:\n%v\nfirst:\n%v", again, links)
		}
	})
}
