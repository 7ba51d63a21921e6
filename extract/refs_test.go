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
	inferred := &Options{Speculative: true, Scripts: true}
	tests := []struct {
		construct string
		html      string
		opts      *Options // nil: defaults
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
		{construct: "html[manifest]", html: `<html manifest=app.appcache><p>x`,
			want: []ref{{"html", Embed, doc + "app.appcache"}}},
		{construct: "link rel=import", html: `<link rel=import href=/imports/c.html>`,
			want: []ref{{"link", Navigation, "https://example.com/imports/c.html"}}},
		{construct: "nothing inferred by default", html: `<!-- http://t.example/c.html --><p>http://t.example/t.html <base href=/b/><img data-src=/l.png><noscript><img src=/n.png></noscript><script>fetch("/f")</script><a href="javascript:open('/j.html')" onclick="location='/o'">j</a>`},
		// Speculative (Options.Speculative)
		{construct: "text URLs", opts: inferred, html: `<p>See http://t.example/a.html, or (https://t.example/p?q=1&amp;r=2). Also /docs/b.html and ../up.htm; not and/or, /usr/bin/python, node.js, www.t.example, http://[::1]/x, http://localhost:8000/.` +
			` See library(http://lib.example/) or http://h.example/a.&#160;b.</p>`,
			want: []ref{{"#text", Speculative, "http://t.example/a.html"}, {"#text", Speculative, "https://t.example/p?q=1&r=2"}, {"#text", Speculative, "https://example.com/docs/b.html"}, {"#text", Speculative, "https://example.com/up.htm"},
				{"#text", Speculative, "http://lib.example/"}, {"#text", Speculative, "http://h.example/a"}}},
		{construct: "comment URLs", opts: inferred, html: `<!-- moved to http://t.example/old.html --><p>x</p>`,
			want: []ref{{"!--", Speculative, "http://t.example/old.html"}}},
		{construct: "commented-out markup", opts: inferred, html: `<!-- <a href="old.html">old</a> <img src=/o.png> -->`,
			want: []ref{{"a", Speculative, doc + "old.html"}, {"img", Speculative, "https://example.com/o.png"}}},
		{construct: "IE conditional comment", opts: inferred, html: `<!--[if lt IE 9]><script src="/ie.js"></script><link rel=stylesheet href=ie.css><![endif]-->`,
			want: []ref{{"script", Speculative, "https://example.com/ie.js"}, {"link", Speculative, doc + "ie.css"}}},
		{construct: "DOCTYPE system identifier", opts: inferred, html: `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"><p>x`,
			want: []ref{{"!doctype", Speculative, "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"}}},
		{construct: "meta[content]", opts: inferred, html: `<meta name=msapplication-TileImage content=/tile.png><meta name=msapplication-config content=/browserconfig.xml>` +
			`<meta property=og:image content="https://cdn.example/og.jpg"><meta name=viewport content="width=device-width, initial-scale=1"><meta http-equiv=X-UA-Compatible content="IE=edge">` +
			`<meta http-equiv=Content-Type content="text/html; charset=utf-8"><meta name=theme-color content="#ffffff"><meta name=description content="The guide, also at http://t.example/guide.html">` +
			`<meta http-equiv=Content-Security-Policy content="default-src 'self'; report-uri /csp-report https://r.example/csp; report-to g">` +
			`<meta name=msapplication-task content="name=Home;action-uri=https://t.example/;icon-uri=https://t.example/f.ico">`,
			want: []ref{{"meta", Speculative, "https://example.com/tile.png"}, {"meta", Speculative, "https://example.com/browserconfig.xml"}, {"meta", Speculative, "https://cdn.example/og.jpg"},
				{"meta", Speculative, "http://t.example/guide.html"}, {"meta", Speculative, "https://example.com/csp-report"}, {"meta", Speculative, "https://r.example/csp"},
				{"meta", Speculative, "https://t.example/"}, {"meta", Speculative, "https://t.example/f.ico"}}},
		{construct: "object param[value]", opts: inferred, html: `<object data=m.swf><param name=movie value=movie.swf><param name=quality value=high><param name=FlashVars value="a=1&amp;b=2"><param name=bg value="/bg.png"></object>`,
			want: []ref{{"object", Embed, doc + "m.swf"}, {"param", Speculative, doc + "movie.swf"}, {"param", Speculative, "https://example.com/bg.png"}}},
		{construct: "base href itself", opts: inferred, html: `<base href="/b/"><a href=x>x</a>`,
			want: []ref{{"base", Speculative, "https://example.com/b/"}, {"a", Navigation, "https://example.com/b/x"}}},
		{construct: "relative base href itself", opts: inferred, html: `<base href="b/"><a href=x>x</a>`,
			want: []ref{{"base", Speculative, doc + "b/"}, {"a", Navigation, doc + "b/x"}}},
		{construct: "lazy-loading attributes", opts: inferred, html: `<img src="data:image/gif;base64,R0lGOD" data-src="/real.jpg" data-srcset="r1.jpg 1x, r2.jpg 2x" alt=lazy><iframe data-src=/embed.html></iframe><img data-original=/o.jpg data-lazy-src=/l.jpg>`,
			want: []ref{{"img", Speculative, "https://example.com/real.jpg"}, {"img", Speculative, doc + "r1.jpg"}, {"img", Speculative, doc + "r2.jpg"},
				{"iframe", Speculative, "https://example.com/embed.html"}, {"img", Speculative, "https://example.com/o.jpg"}, {"img", Speculative, "https://example.com/l.jpg"}}},
		{construct: "noscript markup", opts: inferred, html: `<noscript><img src="/fallback.png"><a href=nojs.html>no JS</a><a href="http://ad.example/j;ord='+rnd+'">ad</a></noscript>`,
			want: []ref{{"img", Speculative, "https://example.com/fallback.png"}, {"a", Speculative, doc + "nojs.html"}}},
		// Script (Options.Scripts)
		{construct: "script string literals", opts: inferred, html: `<script>var u = "/page/a.html", t = "text/html", n = "x", d = "1/2/2026", m = 'img/logo.png', r = /\/not\/a\.html/g;</script>`,
			want: []ref{{"script", Script, "https://example.com/page/a.html"}, {"script", Script, doc + "img/logo.png"}}},
		{construct: "script fetch XMLHttpRequest jQuery", opts: inferred, html: `<script>fetch("api/items"); var x = new XMLHttpRequest(); x.open("GET", "/xhr"); x.open("POST", "/xhr-post");` +
			` $.get("/jq"); $.post("/jq-post"); $.ajax({url: "/ajax", type: "GET"}); $.ajax({url: "/ajax-post", method: "POST"}); fetch("/f-post", {method: "post"}); navigator.sendBeacon("/beacon");</script>`,
			want: []ref{{"script", Script, doc + "api/items"}, {"script", Script, "https://example.com/xhr"}, {"script", Script, "https://example.com/jq"}, {"script", Script, "https://example.com/ajax"}}},
		{construct: "script location window.open", opts: inferred, html: `<script>location.href = "next"; window.location = "/w"; location.assign("/as"); location.replace("/rp"); window.open("/popup"); history.pushState({}, "", "/state");</script>`,
			want: []ref{{"script", Script, doc + "next"}, {"script", Script, "https://example.com/w"}, {"script", Script, "https://example.com/as"},
				{"script", Script, "https://example.com/rp"}, {"script", Script, "https://example.com/popup"}, {"script", Script, "https://example.com/state"}}},
		{construct: "script constant concatenation", opts: inferred, html: `<script>var base = "/api"; const v = 2; const ver = "2"; fetch(base + "/v" + ver + "/list"); var u = "/u/" + id + "/x.html"; var q = "/search?q=" + term; var w = ` + "`/t/${id}/y.html`" + `;</script>`,
			want: []ref{{"script", Script, "https://example.com/api"}, {"script", Script, "https://example.com/api/v2/list"}, {"script", Script, "https://example.com/search?q="}}},
		{construct: "on* attributes", opts: inferred, html: `<button onclick="location.href='/clicked'">Go</button><body onload="init(&quot;/loaded.html&quot;)"><div ONMOUSEOVER="x()">y</div>`,
			want: []ref{{"handler", Script, "https://example.com/clicked"}, {"handler", Script, "https://example.com/loaded.html"}}},
		{construct: "javascript: URLs", opts: inferred, html: `<a href="javascript:window.open('/popup%2Ehtml')">x</a><area href="javascript:location='/area.html'">`,
			want: []ref{{"javascript:", Script, "https://example.com/popup.html"}, {"javascript:", Script, "https://example.com/area.html"}}},
		{construct: "script types and src", opts: inferred, html: `<script type="text/template"><a href="/tpl.html"></a></script><script src=s.js>fetch("/ignored")</script><script type=application/ld+json>{"url": "https://t.example/ld"}</script><script type=module>import x from "./m.js"; import("/dyn.js")</script>`,
			want: []ref{{"script", Embed, doc + "s.js"}, {"script", Script, "https://t.example/ld"}, {"script", Script, doc + "m.js"}, {"script", Script, "https://example.com/dyn.js"}}},
		{construct: "unfollowable schemes and fragments dropped", html: `<img src="data:image/png;base64,AAAA"><script src="javascript:x"></script><form action="mailto:a@b.c"></form><use href="#i"></use><video poster="#p"></video>`},
		{construct: "duplicates kept in order", html: `<img src=d.png><a href=d.png><img src=d.png alt=again></a><link rel=icon href=d.png>`,
			want: []ref{{"img", Embed, doc + "d.png"}, {"img", Embed, doc + "d.png"}, {"a", Navigation, doc + "d.png"}, {"link", Embed, doc + "d.png"}}},
	}
	for _, tt := range tests {
		t.Run(tt.construct, func(t *testing.T) {
			opts := Options{}
			if tt.opts != nil {
				opts = *tt.opts
			}
			doc := linksOf(t, tt.html, &opts)
			if got, want := formatRefs(doc.Links), formatWant(tt.want); got != want {
				t.Errorf("Links(%q):%s\nwant:%s", tt.html, got, want)
			}
			// SkipText changes nothing here.
			opts.SkipText = true
			skip := linksOf(t, tt.html, &opts)
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
