package extract

import (
	"fmt"
	"strings"
	"testing"
)

// ref is a reference as the construct tests compare it.
type ref struct {
	tag  string
	kind Kind
	url  string
}

func formatRefs(ls []Link) string {
	var b strings.Builder
	for _, l := range ls {
		fmt.Fprintf(&b, "\n\t{%s %s %s}", l.Tag, l.Kind, l.URL)
	}
	return b.String()
}

func formatWant(rs []ref) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "\n\t{%s %s %s}", r.tag, r.kind, r.url)
	}
	return b.String()
}

// TestConstructs shows, for every construct the package doc lists, that
// its references are found, tagged with the right Kind and resolved
// against the right base: the document URL (testPageURL,
// https://example.com/dir/page.html), a <base href>, a codebase, or, for a
// form without action, the document URL even under a <base>.
func TestConstructs(t *testing.T) {
	const (
		doc = "https://example.com/dir/"
		cdn = "https://cdn.example/b/"
	)
	tests := []struct {
		construct string
		html      string
		want      []ref
	}{
		{construct: "a[href]", html: `<a href="x.html">x</a>`,
			want: []ref{{"a", Navigation, doc + "x.html"}}},
		{construct: "a[href] under base", html: `<base href="https://cdn.example/b/"><a href="x.html">x</a>`,
			want: []ref{{"a", Navigation, cdn + "x.html"}}},
		{construct: "area[href]", html: `<map><area href="/m1" alt=m></map>`,
			want: []ref{{"area", Navigation, "https://example.com/m1"}}},
		{construct: "a[ping]", html: `<a href="/x" ping="/p1  https://t.example/p2">x</a>`,
			want: []ref{{"a", Navigation, "https://example.com/x"}, {"a", Ping, "https://example.com/p1"}, {"a", Ping, "https://t.example/p2"}}},
		{construct: "a[ping] of unclosed anchors", html: `<a href=/1 ping=/p1>1<a href=/2 ping=/p2>2`,
			want: []ref{{"a", Navigation, "https://example.com/1"}, {"a", Ping, "https://example.com/p1"}, {"a", Navigation, "https://example.com/2"}, {"a", Ping, "https://example.com/p2"}}},
		{construct: "area[ping]", html: `<area href="/x" ping="p">`,
			want: []ref{{"area", Navigation, "https://example.com/x"}, {"area", Ping, doc + "p"}}},
		{construct: "ping without href skipped", html: `<a ping="/p1">x</a><area ping="/p2"><a href="javascript:x" ping="/p3">j</a>`},
		{construct: "link rel=canonical next prev alternate", html: `<link rel=canonical href=/c><link rel=next href=n><link rel=prev href=p><link rel=alternate hreflang=de href=/de/>`,
			want: []ref{{"link", Navigation, "https://example.com/c"}, {"link", Navigation, doc + "n"}, {"link", Navigation, doc + "p"}, {"link", Navigation, "https://example.com/de/"}}},
		{construct: "link rel=alternate feed", html: `<link rel=alternate type="application/rss+xml" href=/rss><link rel="Alternate" type="Application/Atom+XML; charset=utf-8" href=/atom><link rel=alternate type=application/feed+json href=/json>`,
			want: []ref{{"link", Feed, "https://example.com/rss"}, {"link", Feed, "https://example.com/atom"}, {"link", Feed, "https://example.com/json"}}},
		{construct: "link rel=stylesheet", html: `<link rel=stylesheet href=s.css><link rel="alternate stylesheet" href=alt.css>`,
			want: []ref{{"link", Style, doc + "s.css"}, {"link", Style, doc + "alt.css"}}},
		{construct: "link rel=icon preload prefetch modulepreload manifest", html: `<link rel="shortcut icon" href=/f.ico><link rel=apple-touch-icon href=/t.png><link rel=preload as=font href=/f.woff2><link rel=prefetch href=/next.js><link rel=modulepreload href=/m.js><link rel=manifest href=/app.webmanifest>`,
			want: []ref{{"link", Embed, "https://example.com/f.ico"}, {"link", Embed, "https://example.com/t.png"}, {"link", Embed, "https://example.com/f.woff2"},
				{"link", Embed, "https://example.com/next.js"}, {"link", Embed, "https://example.com/m.js"}, {"link", Embed, "https://example.com/app.webmanifest"}}},
		{construct: "link rel=preload imagesrcset", html: `<link rel=preload as=image href=hero.jpg imagesrcset="hero-1x.jpg 1x, hero-2x.jpg 2x">`,
			want: []ref{{"link", Embed, doc + "hero.jpg"}, {"link", Embed, doc + "hero-1x.jpg"}, {"link", Embed, doc + "hero-2x.jpg"}}},
		{construct: "link rel=sitemap", html: `<link rel=sitemap type=application/xml href=/sitemap.xml>`,
			want: []ref{{"link", Sitemap, "https://example.com/sitemap.xml"}}},
		{construct: "link rel=author license search", html: `<link rel=author href=/me><link rel=license href=/cc><link rel=search type="application/opensearchdescription+xml" href=/os.xml>`,
			want: []ref{{"link", Navigation, "https://example.com/me"}, {"link", Navigation, "https://example.com/cc"}, {"link", Navigation, "https://example.com/os.xml"}}},
		{construct: "link origins and no rel skipped", html: `<link rel=preconnect href=https://fonts.example><link rel=dns-prefetch href=//cdn.example><link href=/norel>`},
		{construct: "base", html: `<img src=early.png><base href="/assets/"><img src=late.png>`,
			want: []ref{{"img", Embed, "https://example.com/assets/early.png"}, {"img", Embed, "https://example.com/assets/late.png"}}},
		{construct: "frame[src] iframe[src]", html: `<frameset><frame src=f.html></frameset><iframe src="/if"></iframe>`,
			want: []ref{{"frame", Frame, doc + "f.html"}, {"iframe", Frame, "https://example.com/if"}}},
		{construct: "iframe[srcdoc]", html: `<iframe src=/outer srcdoc="<p><a href=in.html>in</a><img src=&quot;p.png&quot;></p>"></iframe>`,
			want: []ref{{"iframe", Frame, "https://example.com/outer"}, {"a", Navigation, doc + "in.html"}, {"img", Embed, doc + "p.png"}}},
		{construct: "iframe[srcdoc] under base", html: `<base href="https://cdn.example/b/"><iframe srcdoc="<a href=in.html>in</a>"></iframe>`,
			want: []ref{{"a", Navigation, cdn + "in.html"}}},
		{construct: "iframe[srcdoc] with its own base", html: `<iframe srcdoc="<base href=/s/><a href=in.html>in</a>"></iframe>`,
			want: []ref{{"a", Navigation, "https://example.com/s/in.html"}}},
		{construct: "iframe[srcdoc] refresh navigates the frame", html: `<iframe srcdoc="<meta http-equiv=refresh content='0; url=/r'>"></iframe>`,
			want: []ref{{"meta", Frame, "https://example.com/r"}}},
		{construct: "img[src]", html: `<img src="i.png" alt="I">`,
			want: []ref{{"img", Embed, doc + "i.png"}}},
		{construct: "img[srcset]", html: `<img srcset="s1.png 1x, /s2.png 2x, https://c.example/s3.png 300w">`,
			want: []ref{{"img", Embed, doc + "s1.png"}, {"img", Embed, "https://example.com/s2.png"}, {"img", Embed, "https://c.example/s3.png"}}},
		{construct: "img[lowsrc] img[dynsrc] img[longdesc]", html: `<img src=a.png lowsrc=low.png dynsrc=clip.avi longdesc=desc.html>`,
			want: []ref{{"img", Embed, doc + "a.png"}, {"img", Embed, doc + "low.png"}, {"img", Embed, doc + "clip.avi"}, {"img", Navigation, doc + "desc.html"}}},
		{construct: "picture/source[src|srcset]", html: `<picture><source srcset="w.webp 1x, w2.webp 2x" type=image/webp><img src=f.jpg></picture><video><source src=v.mp4></video>`,
			want: []ref{{"source", Embed, doc + "w.webp"}, {"source", Embed, doc + "w2.webp"}, {"img", Embed, doc + "f.jpg"}, {"source", Embed, doc + "v.mp4"}}},
		{construct: "audio video track", html: `<audio src=a.mp3></audio><video src=v.webm poster=p.jpg><track src=t.vtt kind=captions></video>`,
			want: []ref{{"audio", Embed, doc + "a.mp3"}, {"video", Embed, doc + "v.webm"}, {"video", Embed, doc + "p.jpg"}, {"track", Embed, doc + "t.vtt"}}},
		{construct: "embed[src]", html: `<embed src=/e.swf type=application/x-shockwave-flash>`,
			want: []ref{{"embed", Embed, "https://example.com/e.swf"}}},
		{construct: "object[data]", html: `<object data="movie.swf"></object>`,
			want: []ref{{"object", Embed, doc + "movie.swf"}}},
		{construct: "object[data|codebase]", html: `<object data="movie.swf" codebase="/plugins/"></object>`,
			want: []ref{{"object", Embed, "https://example.com/plugins/movie.swf"}, {"object", Embed, "https://example.com/plugins/"}}},
		{construct: "object[codebase] under base", html: `<base href="https://cdn.example/b/"><object data="m.swf" codebase="p/"></object>`,
			want: []ref{{"object", Embed, cdn + "p/m.swf"}, {"object", Embed, cdn + "p/"}}},
		{construct: "applet[code|codebase|archive]", html: `<applet code="Main.class" codebase="/java/" archive="a.jar, lib/b.jar"></applet>`,
			want: []ref{{"applet", Embed, "https://example.com/java/Main.class"}, {"applet", Embed, "https://example.com/java/a.jar"},
				{"applet", Embed, "https://example.com/java/lib/b.jar"}, {"applet", Embed, "https://example.com/java/"}}},
		{construct: "script[src]", html: `<script src="app.js"></script><script>var u = "/not-a-ref.js";</script>`,
			want: []ref{{"script", Embed, doc + "app.js"}}},
		{construct: "input[src]", html: `<input type=image src=go.png alt=Go>`,
			want: []ref{{"input", Embed, doc + "go.png"}}},
		{construct: "form[action] GET", html: `<form action="/search"><input name=q></form><form method=GET action=s2></form><form method=bogus action=s3></form>`,
			want: []ref{{"form", Form, "https://example.com/search"}, {"form", Form, doc + "s2"}, {"form", Form, doc + "s3"}}},
		{construct: "form[action] POST and dialog skipped", html: `<form method=post action=/login></form><form method=" POST " action=/x></form><form method=dialog action=/d></form>`},
		{construct: "form without action", html: `<base href="https://cdn.example/b/"><form><input name=q></form><form action=""></form>`,
			want: []ref{{"form", Form, testPageURL}, {"form", Form, testPageURL}}},
		{construct: "button/input[formaction]", html: `<form action=/get><button formaction=/b1>b</button><input type=submit formaction=/i1><button formaction=/b2 formmethod=post>p</button></form>` +
			`<form method=post action=/post><button formaction=/b3>x</button><input type=submit formaction=/i2 formmethod=get></form>` +
			`<button formaction=/b4>no form</button><button form=f2 formaction=/b5>owner elsewhere</button><input form=f2 formaction=/i3 formmethod=post>`,
			want: []ref{{"form", Form, "https://example.com/get"}, {"button", Form, "https://example.com/b1"}, {"input", Form, "https://example.com/i1"},
				{"input", Form, "https://example.com/i2"}, {"button", Form, "https://example.com/b5"}}},
		{construct: "isindex[action]", html: `<isindex action="/idx" prompt="Search">`,
			want: []ref{{"isindex", Form, "https://example.com/idx"}}},
		{construct: "blockquote/q/del/ins[cite]", html: `<blockquote cite="/src1">b</blockquote><q cite=src2>q</q><del cite=/why>d</del><ins cite="https://ins.example/">i</ins>`,
			want: []ref{{"blockquote", Navigation, "https://example.com/src1"}, {"q", Navigation, doc + "src2"}, {"del", Navigation, "https://example.com/why"}, {"ins", Navigation, "https://ins.example/"}}},
		{construct: "body/table/td[background]", html: `<body background=bg.gif><table background=/t.png><tr><td background=c.jpg>x<th background=h.jpg>y</table>`,
			want: []ref{{"body", Embed, doc + "bg.gif"}, {"table", Embed, "https://example.com/t.png"}, {"td", Embed, doc + "c.jpg"}, {"th", Embed, doc + "h.jpg"}}},
		{construct: "meta refresh", html: `<meta http-equiv=refresh content="3; url=next.html">`,
			want: []ref{{"meta", Redirect, doc + "next.html"}}},
		{construct: "meta content-location", html: `<meta http-equiv="Content-Location" content=" /canonical-ish ">`,
			want: []ref{{"meta", Navigation, "https://example.com/canonical-ish"}}},
		{construct: "svg a[href|xlink:href]", html: `<svg><a xlink:href="/x1"><text>x</text></a><a href="/x2" xlink:href="/no">y</a></svg>`,
			want: []ref{{"a", Navigation, "https://example.com/x1"}, {"a", Navigation, "https://example.com/x2"}}},
		{construct: "svg image/use[href|xlink:href]", html: `<svg><image href="i.svg"/><image xlink:href="/j.png"/><use href="sprite.svg#icon"/><use xlink:href="#local"/></svg>`,
			want: []ref{{"image", Embed, doc + "i.svg"}, {"image", Embed, "https://example.com/j.png"}, {"use", Embed, doc + "sprite.svg"}}},
		{construct: "svg script[href|xlink:href]", html: `<svg><script href="s.js"></script><script xlink:href="/t.js"/></svg><script src=h.js></script>`,
			want: []ref{{"script", Embed, doc + "s.js"}, {"script", Embed, "https://example.com/t.js"}, {"script", Embed, doc + "h.js"}}},
		{construct: "image outside svg is img", html: `<image src=legacy.png>`,
			want: []ref{{"img", Embed, doc + "legacy.png"}}},
		{construct: "style element", html: `<style>@import "print.css"; body { background: url(/bg.png) } /* url(no.png) */</style>`,
			want: []ref{{"style", Style, doc + "print.css"}, {"style", Embed, "https://example.com/bg.png"}}},
		{construct: "style element under base", html: `<base href="https://cdn.example/b/"><style>@import url(a.css); p{background:url('p.png')}</style>`,
			want: []ref{{"style", Style, cdn + "a.css"}, {"style", Embed, cdn + "p.png"}}},
		{construct: "style attribute", html: `<div style="background-image: url(&quot;hero.jpg&quot;)">x</div><p style="color:red">`,
			want: []ref{{"style", Embed, doc + "hero.jpg"}}},
		{construct: "style attribute on a link element", html: `<a href=/x style="background:url(/a.png)">x</a>`,
			want: []ref{{"style", Embed, "https://example.com/a.png"}, {"a", Navigation, "https://example.com/x"}}},
		{construct: "unfollowable schemes and fragments dropped", html: `<img src="data:image/png;base64,AAAA"><script src="javascript:x"></script><form action="mailto:a@b.c"></form><use href="#i"></use><video poster="#p"></video>`},
		{construct: "duplicates kept in order", html: `<img src=d.png><a href=d.png><img src=d.png alt=again></a><link rel=icon href=d.png>`,
			want: []ref{{"img", Embed, doc + "d.png"}, {"img", Embed, doc + "d.png"}, {"a", Navigation, doc + "d.png"}, {"link", Embed, doc + "d.png"}}},
	}
	for _, tt := range tests {
		t.Run(tt.construct, func(t *testing.T) {
			doc := linksOf(t, tt.html, nil)
			if got, want := formatRefs(doc.Links), formatWant(tt.want); got != want {
				t.Errorf("Links(%q):%s\nwant:%s", tt.html, got, want)
			}
			// SkipText changes nothing here.
			skip := linksOf(t, tt.html, &Options{SkipText: true})
			if got, want := formatRefs(skip.Links), formatRefs(doc.Links); got != want {
				t.Errorf("Links(%q) with SkipText:%s\nwithout:%s", tt.html, got, want)
			}
		})
	}
}

// TestRawLinkKindBase checks the Extractor's RawLink: Kind, and Base for
// a codebase, unresolved.
func TestRawLinkKindBase(t *testing.T) {
	e := NewExtractor(nil)
	e.Reset(strings.NewReader(`<object data=m.swf codebase="/cb/"></object><a href=/x ping=/p>x</a><img srcset="a.png 1x,b.png 2x">`))
	var b strings.Builder
	for e.Next() {
		l := e.Link()
		fmt.Fprintf(&b, "[%s %s %s base=%s]", l.Tag, l.Kind, l.Href, l.Base)
	}
	want := "[object embed m.swf base=/cb/][object embed /cb/ base=][a navigation /x base=][a ping /p base=][img embed a.png base=][img embed b.png base=]"
	if got := b.String(); got != want {
		t.Errorf("Extractor links:\n%s\nwant:\n%s", got, want)
	}
}

// TestMaxLinksAcrossQueue checks that links queued several to an element
// (srcset, pings, CSS, srcdoc) respect MaxLinks and set Truncated.
func TestMaxLinksAcrossQueue(t *testing.T) {
	for _, page := range []string{
		`<img srcset="1.png 1x, 2.png 2x, 3.png 3x, 4.png 4x">`,
		`<a href=/x ping="/1 /2 /3 /4">x</a>`,
		`<style>a{b:url(1)} b{b:url(2)} c{b:url(3)} d{b:url(4)}</style>`,
		`<iframe srcdoc="<a href=1>1</a><a href=2>2</a><a href=3>3</a><a href=4>4</a>"></iframe>`,
	} {
		doc := linksOf(t, page, &Options{MaxLinks: 3})
		if len(doc.Links) != 3 || !doc.Truncated {
			t.Errorf("Links(%q, MaxLinks 3) = %d links, Truncated %v; want 3, true", page, len(doc.Links), doc.Truncated)
		}
	}
}

func TestKindNames(t *testing.T) {
	for k := Navigation; k <= Ping; k++ {
		got, err := ParseKind(k.String())
		if err != nil || got != k {
			t.Errorf("ParseKind(%q) = %v, %v; want %v", k.String(), got, err, k)
		}
	}
	if _, err := ParseKind("Navigation"); err == nil {
		t.Errorf("ParseKind(%q) succeeded, want an error", "Navigation")
	}
	if s := Kind(0).String(); s != "Kind(0)" {
		t.Errorf("Kind(0).String() = %q", s)
	}
	want := "navigation frame redirect form sitemap feed embed style ping"
	var names []string
	for k := Navigation; k <= Ping; k++ {
		names = append(names, k.String())
	}
	if got := strings.Join(names, " "); got != want {
		t.Errorf("kind names = %q, want %q", got, want)
	}
}

// TestTagAttrOnce checks a tag whose attributes go through the tokenizer's
// TagAttr twice (the tag's own, then its style attribute), which yields
// them only once: the Extractor keeps what it read.
func TestTagAttrOnce(t *testing.T) {
	doc := linksOf(t, `<img src="&eacute;.png" style="background:url(&eacute;2.png)"><td background="b&eacute;.gif" style="x:url(&quot;s&eacute;.png&quot;)">`, nil)
	want := []ref{{"img", Embed, "https://example.com/dir/%C3%A9.png"}, {"style", Embed, "https://example.com/dir/%C3%A92.png"},
		{"td", Embed, "https://example.com/dir/b%C3%A9.gif"}, {"style", Embed, "https://example.com/dir/s%C3%A9.png"}}
	if got, w := formatRefs(doc.Links), formatWant(want); got != w {
		t.Errorf("Links:%s\nwant:%s", got, w)
	}
}

func TestSrcdocDepth(t *testing.T) {
	page := `<iframe srcdoc="<img src=one.png><iframe srcdoc='<img src=two.png><iframe srcdoc=&quot;<img src=three.png>&quot;></iframe>'></iframe>"></iframe>`
	want := []ref{{"img", Embed, "https://example.com/dir/one.png"}, {"img", Embed, "https://example.com/dir/two.png"}}
	if got := linksOf(t, page, nil).Links; formatRefs(got) != formatWant(want) {
		t.Errorf("Links(%q):%s\nwant:%s", page, formatRefs(got), formatWant(want))
	}
}
