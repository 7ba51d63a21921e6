package crawltest

import (
	"html"
	"net/http"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Link constructs (Options.LinkConstructs): a small, fixed set of pages,
// a style sheet and header responses under /constructs/ on every host that
// together use every way an HTML page or an HTTP response can reference
// another URL, with the ground truth of what each references.
//
// The pages are written as templates. In a template, {HOST} is the host's
// authority, {NEXT} the next host's, {HOSTNAME} the host's name, and
// {{kind|construct|ref}} is a reference: it renders as ref, and the ground
// truth records ref resolved against the document's base with its kind and
// construct; {{kind|construct|ref|text}} renders as text instead (often
// nothing), for a URL a script builds rather than writes. The served bytes
// and the ground truth come from the same text, so they cannot drift
// apart.

// Reference is one URL that a construct page, style sheet or header
// response references, as Web.References reports it.
type Reference struct {
	// URL is the absolute URL referenced, resolved against the base that
	// applies (the page's <base href> or URL, the style sheet's URL, the
	// response's URL) and normalized like the URLs of Web.Reachable.
	URL string
	// Kind says what the reference is for. It is one of the kind names of
	// package extract ("navigation", "frame", "redirect", "form",
	// "sitemap", "feed", "embed", "style", "ping", "speculative",
	// "script"); or "form-post" for the action of a POST form or of a
	// submit button in one, which a crawler must not fetch (it is none of
	// extract's kinds); "js-post" for a URL a script sends a POST to,
	// which a crawler must not fetch either; or "js-only" for a URL that
	// only running JavaScript reaches (a script computes it: a browser is
	// needed). "script" URLs are those a static reading of a script finds
	// (literals, constant concatenations, fetch, location ...).
	Kind string
	// Construct names the construct, such as "img[srcset]",
	// "link[rel=stylesheet]", "svg use[xlink:href]", "<style> @import",
	// "css url()", "Link rel=preload" or "Location (201)".
	Construct string

	unwritten bool // not in the served bytes as such: a script builds it
}

// constructsIndex is the path of the index page the home pages link to.
const constructsIndex = "/constructs/"

// constructTargetDir is the directory of the referenced targets.
const constructTargetDir = "/constructs/t/"

// cres is a construct resource: a page, the style sheet or a header
// response.
type cres struct {
	path    string
	status  int
	ctype   string
	headers [][2]string // header name, value template
	body    string      // template
	base    string      // template of the base of body references; "" for the resource's URL
}

// constructResources are the construct resources every host serves. A
// resource with an empty ctype is an HTML document.
var constructResources = []cres{
	{path: constructsIndex, body: indexTpl},
	{path: "/constructs/pages/html.html", body: htmlTpl},
	{path: "/constructs/pages/media.html", body: mediaTpl},
	{path: "/constructs/pages/forms.html", body: formsTpl},
	{path: "/constructs/pages/svg.html", body: svgTpl},
	{path: "/constructs/pages/css.html", body: cssTpl},
	{path: "/constructs/pages/srcdoc.html", body: srcdocTpl},
	{path: "/constructs/pages/base.html", body: baseTpl, base: "http://{HOST}/constructs/t/based/"},
	{path: "/constructs/pages/frames.html", body: framesTpl},
	{path: "/constructs/pages/speculative.html", body: speculativeTpl},
	{path: "/constructs/pages/scripts.html", body: scriptsTpl},
	{path: "/constructs/app.js", ctype: "application/javascript", body: appJSTpl},
	{path: "/constructs/style.css", ctype: "text/css", body: styleTpl},
	{path: "/constructs/h/link.html", body: headerPage("Link header"), headers: [][2]string{
		{"Link", `<{{embed|Link rel=preload|../t/hdr-link-preload.png}}>; rel=preload; as=image, ` +
			`<{{navigation|Link rel=next|http://{HOST}/constructs/t/hdr-link-next.html}}>; rel="next"`},
		{"Link", `<{{style|Link rel=stylesheet|/constructs/t/hdr-link-style.css}}>; rel="stylesheet", ` +
			`<{{navigation|Link rel=prev|../t/hdr-link-prev.html}}>; rel=prev; title="back, to the start", ` +
			`<{{feed|Link rel=alternate type=atom|../t/hdr-link-feed.atom}}>; rel="alternate"; type="application/atom+xml", ` +
			`<{{embed|Link rel=icon|../t/hdr-link-icon.png}}>; rel=icon, ` +
			`<{{sitemap|Link rel=sitemap|../t/hdr-link-sitemap.xml}}>; rel="sitemap"`},
	}},
	{path: "/constructs/h/refresh.html", body: headerPage("Refresh header"), headers: [][2]string{
		{"Refresh", "0; url={{redirect|Refresh|../t/hdr-refresh.html}}"},
	}},
	{path: "/constructs/h/content-location.html", body: headerPage("Content-Location header"), headers: [][2]string{
		{"Content-Location", "{{redirect|Content-Location|/constructs/t/hdr-content-location.html}}"},
	}},
	{path: "/constructs/h/redirect", status: http.StatusFound, body: headerPage("Found"), headers: [][2]string{
		{"Location", "{{redirect|Location (302)|../t/hdr-location.html}}"},
	}},
	{path: "/constructs/created", status: http.StatusCreated, body: headerPage("Created"), headers: [][2]string{
		{"Location", "{{redirect|Location (201)|t/created.html}}"},
	}},
}

func headerPage(title string) string {
	return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Constructs: " + title +
		"</title></head><body><p>The references of this response are in its headers.</p></body></html>\n"
}

const indexTpl = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Link constructs</title>
</head>
<body>
<h1>Link constructs</h1>
<ul>
<li><a href="{{navigation|a[href]|pages/html.html}}">Document links</a></li>
<li><a href="{{navigation|a[href]|pages/media.html}}">Embedded resources</a></li>
<li><a href="{{navigation|a[href]|pages/forms.html}}">Forms</a></li>
<li><a href="{{navigation|a[href]|pages/svg.html}}">SVG</a></li>
<li><a href="{{navigation|a[href]|pages/css.html}}">CSS</a></li>
<li><a href="{{navigation|a[href]|pages/srcdoc.html}}">iframe srcdoc</a></li>
<li><a href="{{navigation|a[href]|pages/base.html}}">base href</a></li>
<li><a href="{{navigation|a[href]|pages/frames.html}}">Frames</a></li>
<li><a href="{{navigation|a[href]|pages/speculative.html}}">Speculative URLs</a></li>
<li><a href="{{navigation|a[href]|pages/scripts.html}}">Scripts</a></li>
<li><a href="{{navigation|a[href]|h/link.html}}">Link header</a></li>
<li><a href="{{navigation|a[href]|h/refresh.html}}">Refresh header</a></li>
<li><a href="{{navigation|a[href]|h/content-location.html}}">Content-Location header</a></li>
<li><a href="{{navigation|a[href]|h/redirect}}">Redirect</a></li>
<li><a href="{{navigation|a[href]|created}}">201 Created</a></li>
</ul>
</body>
</html>
`

const htmlTpl = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Constructs: document links</title>
<meta http-equiv="refresh" content="3600; url={{redirect|meta[http-equiv=refresh]|../t/meta-refresh.html}}">
<meta http-equiv="Content-Location" content="{{navigation|meta[http-equiv=content-location]|../t/meta-content-location.html}}">
<link rel="stylesheet" href="{{style|link[rel=stylesheet]|../style.css}}">
<link rel="alternate" hreflang="fr" href="{{navigation|link[rel=alternate]|../t/link-alternate-fr.html}}">
<link rel="alternate" type="application/rss+xml" title="RSS" href="{{feed|link[rel=alternate type=rss]|../t/link-feed.rss}}">
<link rel="alternate" type="application/atom+xml" title="Atom" href="{{feed|link[rel=alternate type=atom]|/constructs/t/link-feed.atom}}">
<link rel="next" href="{{navigation|link[rel=next]|../t/link-next.html}}">
<link rel="prev" href="{{navigation|link[rel=prev]|../t/link-prev.html}}">
<link rel="canonical" href="{{navigation|link[rel=canonical]|http://{HOST}/constructs/t/link-canonical.html}}">
<link rel="preload" as="image" href="{{embed|link[rel=preload]|../t/link-preload.png}}">
<link rel="prefetch" href="{{embed|link[rel=prefetch]|../t/link-prefetch.js}}">
<link rel="modulepreload" href="{{embed|link[rel=modulepreload]|../t/link-modulepreload.js}}">
<link rel="icon" type="image/png" href="{{embed|link[rel=icon]|../t/link-icon.png}}">
<link rel="shortcut icon" href="{{embed|link[rel=shortcut icon]|//{HOST}/constructs/t/link-shortcut-icon.png}}">
<link rel="manifest" href="{{embed|link[rel=manifest]|../t/link-manifest.webmanifest}}">
<link rel="sitemap" type="application/xml" href="{{sitemap|link[rel=sitemap]|../t/link-sitemap.xml}}">
<script src="{{embed|script[src]|../t/script-src.js}}"></script>
<script>
  // A link that only running JavaScript follows.
  var next = "{{script|script text|../t/js-script.html}}";
  function go() { window.location.href = next; }
</script>
</head>
<body>
<h1>Document links</h1>
<p><a href="{{navigation|a[href]|../t/a-relative.html}}">relative</a>
<a href="{{navigation|a[href]|/constructs/t/a-root.html}}">root-relative</a>
<a href="{{navigation|a[href]|http://{HOST}/constructs/t/a-absolute.html}}">absolute</a>
<a href="{{navigation|a[href]|//{HOST}/constructs/t/a-protocol-relative.html}}">protocol-relative</a>
<a href=" {{navigation|a[href]|../t/a-spaces.html}} ">spaces around</a>
<a href="{{navigation|a[href]|../t/a-query.html?a=1&amp;b=2}}">entity in the query</a>
<a href="{{navigation|a[href]|../t/a-fragment.html#part}}">fragment</a>
<a href="{{navigation|a[href]|http://{NEXT}/constructs/t/a-cross-host.html}}">another host</a>
<a href="{{navigation|a[href]|../t/a-ping-href.html}}" ping="{{ping|a[ping]|../t/ping-1.txt}} {{ping|a[ping]|/constructs/t/ping-2.txt}}">with ping</a></p>
<p><img src="{{embed|img[src]|../t/map.png}}" usemap="#m" alt="map">
<map name="m"><area shape="rect" coords="0,0,10,10" href="{{navigation|area[href]|../t/area-href.html}}" alt="area"></map></p>
<blockquote cite="{{navigation|blockquote[cite]|../t/blockquote-cite.html}}"><p>Quoted.</p></blockquote>
<p><q cite="{{navigation|q[cite]|../t/q-cite.html}}">short quote</q>
<del cite="{{navigation|del[cite]|../t/del-cite.html}}">removed</del>
<ins cite="{{navigation|ins[cite]|../t/ins-cite.html}}">added</ins></p>
<iframe src="{{frame|iframe[src]|../t/iframe-src.html}}" title="frame"></iframe>
<p><button type="button" onclick="location.href='{{script|onclick|../t/js-onclick.html}}'">Go</button>
<a href="javascript:go()">script</a> <a href="mailto:webmaster@{HOSTNAME}">mail</a>
<a href="data:text/html,%3Cp%3Edata%3C/p%3E">data</a> <a href="tel:+15555550100">phone</a></p>
</body>
</html>
`

const mediaTpl = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Constructs: embedded resources</title>
</head>
<body background="{{embed|body[background]|../t/body-background.png}}">
<h1>Embedded resources</h1>
<p><img src="{{embed|img[src]|../t/img-src.png}}" alt="src" srcset="{{embed|img[srcset]|../t/img-srcset-1x.png}} 1x, {{embed|img[srcset]|../t/img-srcset-2x.png}} 2x">
<img src="{{embed|img[src]|../t/img-widths.png}}" alt="widths" sizes="(max-width: 600px) 480px, 800px" srcset="{{embed|img[srcset]|../t/img,comma-480.png}} 480w,{{embed|img[srcset]|/constructs/t/img-srcset-800.png}} 800w,
  {{embed|img[srcset]|../t/img-srcset-1600.png}}  1600w">
<img src="{{embed|img[src]|../t/img-lowsrc-main.png}}" lowsrc="{{embed|img[lowsrc]|../t/img-lowsrc.png}}" alt="lowsrc">
<img src="{{embed|img[src]|../t/img-dynsrc-still.png}}" dynsrc="{{embed|img[dynsrc]|../t/img-dynsrc.mp4}}" alt="dynsrc">
<img src="{{embed|img[src]|../t/img-longdesc.png}}" longdesc="{{navigation|img[longdesc]|../t/img-longdesc.html}}" alt="longdesc">
<img src="data:image/png;base64,iVBORw0KGgo=" alt="inline"></p>
<picture>
<source type="image/png" srcset="{{embed|source[srcset]|../t/picture-source-1x.png}} 1x, {{embed|source[srcset]|../t/picture-source-1.5x.png}} 1.5x">
<source media="(min-width: 800px)" srcset="{{embed|source[srcset]|../t/picture-source-plain.png}}">
<img src="{{embed|img[src]|../t/picture-img.png}}" alt="picture">
</picture>
<audio controls src="{{embed|audio[src]|../t/audio-src.mp3}}"></audio>
<audio controls><source src="{{embed|source[src]|../t/audio-source.mp3}}" type="audio/mpeg"></audio>
<video controls poster="{{embed|video[poster]|../t/video-poster.png}}" src="{{embed|video[src]|../t/video-src.mp4}}">
<source src="{{embed|source[src]|../t/video-source.mp4}}" type="video/mp4">
<track kind="subtitles" srclang="en" src="{{embed|track[src]|../t/track-src.vtt}}">
</video>
<embed src="{{embed|embed[src]|../t/embed-src.pdf}}" type="application/pdf">
<object data="{{embed|object[data]|/constructs/t/object-data.pdf}}" codebase="{{embed|object[codebase]|../t/object-codebase/}}" type="application/pdf"></object>
<applet code="{{embed|applet[code]|/constructs/t/applet-code.class}}" codebase="{{embed|applet[codebase]|../t/applet-codebase/}}" archive="{{embed|applet[archive]|/constructs/t/applet-archive.jar}}" width="1" height="1"></applet>
<p><input type="image" src="{{embed|input[src]|../t/input-src.png}}" alt="image input"></p>
<table background="{{embed|table[background]|../t/table-background.png}}"><tr><td background="{{embed|td[background]|../t/td-background.png}}">cell</td></tr></table>
</body>
</html>
`

const formsTpl = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Constructs: forms</title>
</head>
<body>
<h1>Forms</h1>
<form action="{{form|form[action]|../t/form-get.html}}">
<input type="text" name="q"> <input type="submit" value="Search">
<input type="submit" formaction="{{form|input[formaction]|../t/form-get-input-formaction.html}}" value="Search elsewhere">
<button formaction="{{form|button[formaction]|../t/form-get-button-formaction.html}}">Search there</button>
</form>
<form method="GET" action="{{form|form[action]|/constructs/t/form-get-explicit.html}}"><input type="text" name="x"><button>Go</button></form>
<form method="post" action="{{form-post|form[action]|../t/form-post.html}}">
<input type="text" name="comment"> <button>Send</button>
<button formaction="{{form-post|button[formaction]|../t/form-post-button-formaction.html}}">Send elsewhere</button>
</form>
<isindex action="{{form|isindex[action]|../t/isindex-action.html}}" prompt="Search">
</body>
</html>
`

const svgTpl = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Constructs: SVG</title>
</head>
<body>
<h1>SVG</h1>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100">
<image href="{{embed|svg image[href]|../t/svg-image-href.png}}" width="10" height="10"/>
<image xlink:href="{{embed|svg image[xlink:href]|../t/svg-image-xlink.png}}" width="10" height="10"/>
<use href="{{embed|svg use[href]|../t/svg-use-href.svg#icon}}"/>
<use xlink:href="{{embed|svg use[xlink:href]|../t/svg-use-xlink.svg#icon}}"/>
<a href="{{navigation|svg a[href]|../t/svg-a-href.html}}"><text x="0" y="20">href</text></a>
<a xlink:href="{{navigation|svg a[xlink:href]|../t/svg-a-xlink.html}}"><text x="0" y="40">xlink</text></a>
<script href="{{embed|svg script[href]|../t/svg-script-href.js}}"></script>
<script xlink:href="{{embed|svg script[xlink:href]|../t/svg-script-xlink.js}}"></script>
</svg>
</body>
</html>
`

const cssTpl = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Constructs: CSS</title>
<link rel="stylesheet" href="{{style|link[rel=stylesheet]|/constructs/style.css}}">
<style>
@import "{{style|<style> @import|../t/style-import-string.css}}";
@import url({{style|<style> @import|../t/style-import-url.css}}) screen;
body { background: url({{embed|<style> url()|../t/style-url-bare.png}}) no-repeat; }
.q1 { background-image: url("{{embed|<style> url()|../t/style-url-double.png}}"); }
.q2 { background-image: url('{{embed|<style> url()|../t/style-url-single.png}}'); }
.sp { background: url(  {{embed|<style> url()|../t/style-url-spaces.png}}  ); }
@font-face { font-family: "T"; src: url({{embed|<style> url()|../t/style-font.woff2}}) format("woff2"); }
.inline { background: url(data:image/png;base64,iVBORw0KGgo=); }
/* .old { background: url(../t/style-commented-out.png); } */
</style>
</head>
<body>
<h1>CSS</h1>
<div style="background-image: url('{{embed|style="" url()|../t/style-attr-div.png}}')">div</div>
<p style="background:url({{embed|style="" url()|../t/style-attr-p.png}})">p</p>
<p style="color: #333">no URL here</p>
</body>
</html>
`

const srcdocTpl = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Constructs: iframe srcdoc</title>
</head>
<body>
<h1>iframe srcdoc</h1>
<iframe title="srcdoc" srcdoc="&lt;!DOCTYPE html&gt;&lt;p&gt;&lt;a href=&quot;{{navigation|iframe[srcdoc] a[href]|../t/srcdoc-a.html}}&quot;&gt;a link&lt;/a&gt; &lt;img src=&quot;{{embed|iframe[srcdoc] img[src]|../t/srcdoc-img.png}}&quot; alt=&quot;&quot;&gt;&lt;/p&gt;"></iframe>
</body>
</html>
`

const baseTpl = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Constructs: base href</title>
<base href="{{speculative|base[href]|http://{HOST}/constructs/t/based/}}">
<link rel="stylesheet" href="{{style|link[rel=stylesheet]|../../style.css}}">
<style>.b { background: url({{embed|<style> url()|style-bg.png}}); }</style>
</head>
<body>
<h1>base href</h1>
<p><a href="{{navigation|a[href]|a-based.html}}">relative to the base</a>
<a href="{{navigation|a[href]|../based-parent.html}}">the base's parent</a>
<a href="{{navigation|a[href]|/constructs/t/base-root.html}}">root-relative</a>
<img src="{{embed|img[src]|img-based.png}}" alt="based"></p>
<iframe title="srcdoc" srcdoc="&lt;p&gt;&lt;a href=&quot;{{navigation|iframe[srcdoc] a[href]|srcdoc-based.html}}&quot;&gt;x&lt;/a&gt;&lt;/p&gt;"></iframe>
<div style="background: url({{embed|style="" url()|style-attr-based.png}})">div</div>
</body>
</html>
`

const framesTpl = `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Frameset//EN" "{{speculative|DOCTYPE system identifier|http://www.w3.org/TR/html4/frameset.dtd}}">
<html>
<head>
<meta charset="utf-8">
<title>Constructs: frames</title>
</head>
<frameset cols="50%,50%">
<frame src="{{frame|frame[src]|../t/frame-src-1.html}}">
<frame src="{{frame|frame[src]|/constructs/t/frame-src-2.html}}">
<noframes>This page uses frames.</noframes>
</frameset>
</html>
`

// speculativeTpl holds URLs where the markup promises no reference
// (Heritrix's speculative links), and the references the issue-35 reading
// of the web found missing: html[manifest], link[rel=import].
const speculativeTpl = `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "{{speculative|DOCTYPE system identifier|../t/spec-doctype.dtd}}">
<html lang="en" manifest="{{embed|html[manifest]|../t/spec-manifest.appcache}}">
<head>
<meta charset="utf-8">
<title>Constructs: speculative URLs</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="msapplication-TileImage" content="{{speculative|meta[name=msapplication-TileImage]|../t/spec-tile.png}}">
<meta property="og:image" content="{{speculative|meta[property=og:image]|http://{HOST}/constructs/t/spec-og.png}}">
<meta http-equiv="Content-Security-Policy" content="img-src * data:; report-uri {{speculative|meta[http-equiv=Content-Security-Policy] report-uri|/constructs/t/spec-csp-report.txt}}">
<link rel="import" href="{{navigation|link[rel=import]|../t/spec-import.html}}">
<!--[if lt IE 9]><link rel="stylesheet" href="{{speculative|conditional comment link[href]|../t/spec-ie.css}}"><![endif]-->
</head>
<body>
<h1>Speculative URLs</h1>
<p>This page also lives at {{speculative|text URL|http://{HOST}/constructs/t/spec-text-absolute.html}}; its
sequel is {{speculative|text path|/constructs/t/spec-text-path.html}}. Neither and/or nor /usr/bin/env nor
1/2/2026 is a link.</p>
<!-- moved from {{speculative|comment URL|../t/spec-comment.html}} -->
<!-- <a href="{{speculative|comment a[href]|../t/spec-comment-a.html}}">an old link</a> -->
<p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="{{speculative|img[data-src]|../t/spec-lazy.png}}" alt="lazy"></p>
<noscript><p><img src="{{speculative|noscript img[src]|../t/spec-noscript.png}}" alt=""></p></noscript>
<object data="{{embed|object[data]|../t/spec-object.swf}}" type="application/x-shockwave-flash">
<param name="movie" value="{{speculative|param[value]|../t/spec-param.swf}}"><param name="quality" value="high">
</object>
<p><a href="{{navigation|a[href]|../t/spec-a-ping.html}}" ping="{{ping|a[ping]|../t/spec-ping.txt}}">pinged</a></p>
</body>
</html>
`

// ScriptBuiltText is a paragraph the scripts construct page
// (/constructs/pages/scripts.html, with Options.LinkConstructs) has only
// once its script has run: content that needs a browser. Its bytes hold
// the text base64-encoded, so no static reading finds it.
const ScriptBuiltText = "This paragraph was written by a script, after the page loaded."

// scriptsTpl references URLs from scripts: those a static reading finds
// (script), those it must leave alone because a script POSTs to them
// (js-post), and those only running the script reaches (js-only).
// http://169.254.169.254/ is a cloud metadata address: a crawler's guard
// must refuse it whatever finds it.
const scriptsTpl = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Constructs: scripts</title>
<script src="{{embed|script[src]|../app.js}}"></script>
<script>
  var base = "{{script|script string literal|../t/}}";
  fetch(base + "js-concat" + ".html"){{script|script concatenation|../t/js-concat.html|}};
  fetch("{{script|fetch()|../t/js-fetch.json}}");
  var xhr = new XMLHttpRequest();
  xhr.open("GET", "{{script|XMLHttpRequest.open GET|/constructs/t/js-xhr.json}}");
  xhr.open("POST", "{{js-post|XMLHttpRequest.open POST|../t/js-xhr-post.json}}");
  fetch("{{js-post|fetch() POST|../t/js-fetch-post.json}}", {method: "POST", body: "a=1"});
  if (window.jQuery) {
    jQuery.get("{{script|$.get|../t/js-jquery-get.html}}");
    jQuery.ajax({url: "{{js-post|$.ajax POST|../t/js-ajax-post.html}}", type: "POST"});
  }
  function go(n) {
    if (n) { window.location.href = "{{script|location.href|../t/js-location.html}}"; }
    else { window.open("{{script|window.open|../t/js-open.html}}"); }
  }
  fetch("{{script|fetch() of a metadata address|http://169.254.169.254/latest/meta-data/}}").catch(function () {});
  var built = atob("Li4vdC9qcy1idWlsdC5odG1s"){{js-only|script-built URL|../t/js-built.html|}};
  document.addEventListener("DOMContentLoaded", function () {
    var a = document.createElement("a");
    a.href = built;
    a.textContent = "built by a script";
    document.body.appendChild(a);
    var p = document.createElement("p"); // ScriptBuiltText, encoded so that no static reading finds it
    p.textContent = atob("VGhpcyBwYXJhZ3JhcGggd2FzIHdyaXR0ZW4gYnkgYSBzY3JpcHQsIGFmdGVyIHRoZSBwYWdlIGxvYWRlZC4=");
    document.body.appendChild(p);
  });
</script>
</head>
<body onload="document.title += '.'">
<h1>Scripts</h1>
<p><a href="javascript:location.assign('{{script|javascript: URL|../t/js-javascript-url.html}}')">go</a>
<button type="button" onclick="go(1)">location</button></p>
</body>
</html>
`

// appJSTpl is /constructs/app.js, a fetched script: its URLs resolve
// against its own URL, as trawl reads a script alone (a browser would use
// the document's).
const appJSTpl = `/* constructs: a script of its own */
var api = "{{script|.js string literal|t/js-file-literal.json}}";
fetch("{{script|.js fetch()|/constructs/t/js-file-fetch.json}}").then(function (r) { return r.json(); });
navigator.sendBeacon("{{js-post|.js sendBeacon|t/js-file-beacon.txt}}", "bye");
`

// styleTpl is /constructs/style.css. Its references resolve against its own
// URL, in another directory than the pages that link it.
const styleTpl = `@charset "utf-8";
@import "{{style|css @import|t/sheet-import-string.css}}";
@import url("{{style|css @import|t/sheet-import-url.css}}");
body { background: url({{embed|css url()|t/sheet-bg.png}}); }
@font-face { font-family: "S"; src: url("{{embed|css url()|t/sheet-font.woff2}}") format("woff2"), url({{embed|css url()|t/sheet-font.woff}}) format("woff"); }
.logo { background-image: url('{{embed|css url()|t/sheet-logo.png}}'); }
.root { background: url({{embed|css url()|/constructs/t/sheet-root.png}}); }
.inline { background: url(data:image/gif;base64,R0lGODlhAQABAAAAACw=); }
/* .old { background: url(t/sheet-commented-out.png); } */
`

// rawRef is a reference as a template writes it.
type rawRef struct {
	kind, construct, ref string
	unwritten            bool // rendered as other text: a script builds the URL
}

// expand renders template tpl for host h and returns the text and the
// references it makes, in order.
func (w *Web) expand(h int, tpl string) (string, []rawRef) {
	next := w.hosts[(h+1)%len(w.hosts)].authority
	tpl = strings.NewReplacer("{HOST}", w.hosts[h].authority, "{NEXT}", next, "{HOSTNAME}", w.hosts[h].name).Replace(tpl)
	var b strings.Builder
	var refs []rawRef
	for {
		i := strings.Index(tpl, "{{")
		if i < 0 {
			b.WriteString(tpl)
			return b.String(), refs
		}
		j := strings.Index(tpl[i:], "}}")
		parts := strings.SplitN(tpl[i+2:i+j], "|", 4)
		b.WriteString(tpl[:i])
		r := rawRef{kind: parts[0], construct: parts[1], ref: parts[2]}
		if len(parts) == 4 {
			b.WriteString(parts[3])
			r.unwritten = true
		} else {
			b.WriteString(parts[2])
		}
		refs = append(refs, r)
		tpl = tpl[i+j+2:]
	}
}

// resolveRef resolves ref against base and normalizes it. HTML attribute
// values are entity-decoded and trimmed first, as an HTML parser does.
func resolveRef(base *url.URL, ref string, isHTML bool) (string, bool) {
	if isHTML {
		ref = strings.TrimSpace(html.UnescapeString(ref))
	}
	u, err := base.Parse(ref)
	if err != nil {
		return "", false
	}
	return normalizeURL(u.String())
}

// constructRes returns the construct resource at path, if any.
func constructRes(path string) (*cres, bool) {
	for i := range constructResources {
		if constructResources[i].path == path {
			return &constructResources[i], true
		}
	}
	return nil, false
}

func (c *cres) isHTML() bool { return c.ctype == "" }

// references returns the references of resource c on host h: its headers'
// first, then its body's.
func (w *Web) references(h int, c *cres) []Reference {
	self, _ := url.Parse("http://" + w.hosts[h].authority + c.path)
	var out []Reference
	add := func(base *url.URL, refs []rawRef, isHTML bool) {
		for _, r := range refs {
			if u, ok := resolveRef(base, r.ref, isHTML); ok {
				out = append(out, Reference{URL: u, Kind: r.kind, Construct: r.construct, unwritten: r.unwritten})
			}
		}
	}
	for _, hv := range c.headers {
		_, refs := w.expand(h, hv[1])
		add(self, refs, false)
	}
	base := self
	if c.base != "" {
		b, _ := w.expand(h, c.base)
		base, _ = url.Parse(b)
	}
	_, refs := w.expand(h, c.body)
	add(base, refs, c.isHTML())
	return out
}

// References returns the ground truth of what the construct resource at
// rawURL references (Options.LinkConstructs): for a page, every URL its
// HTML references, in document order, including those in its <style>
// blocks, style attributes and iframe srcdoc documents; for
// /constructs/style.css, its url() and @import references; for a header
// response, the references its headers carry (Link, Refresh,
// Content-Location, Location), in header order. It returns nil for every
// other URL, ordinary pages included, and when LinkConstructs is off.
//
// URLs are normalized as Reachable's are; a URL can appear more than once
// when several constructs reference it. javascript:, mailto:, tel: and
// data: URLs, URLs in comments and the <base href> itself are never
// references.
func (w *Web) References(rawURL string) []Reference {
	if !w.opts.LinkConstructs {
		return nil
	}
	h, pq, ok := w.locate(rawURL)
	if !ok {
		return nil
	}
	c, ok := constructRes(pq)
	if !ok {
		return nil
	}
	return w.references(h, c)
}

// ConstructURLs returns, sorted, the normalized URLs that
// Options.LinkConstructs adds to every host (none when it is off): the index
// /constructs/, the construct pages, /constructs/style.css, the header
// responses, and every target a construct of the host references, whatever
// its kind (form-post and js-only targets included: they answer a GET
// too), with its query if the reference has one. Every host serves the same
// paths, and every reference of a construct resource is one of these URLs,
// so a crawl that follows the constructs is finite.
func (w *Web) ConstructURLs() []string {
	if !w.opts.LinkConstructs {
		return nil
	}
	var out []string
	for h := range w.hosts {
		a := "http://" + w.hosts[h].authority
		for _, c := range constructResources {
			out = append(out, a+c.path)
		}
		for _, p := range w.ctargets {
			out = append(out, a+p)
		}
	}
	sort.Strings(out)
	return out
}

// constructTargets returns, sorted, the targets under /constructs/t/ that
// the constructs reference, as path and query, and the set of their paths.
// They are the same on every host.
func (w *Web) constructTargets() (targets []string, paths map[string]bool) {
	seen := make(map[string]bool)
	paths = make(map[string]bool)
	for i := range constructResources {
		for _, r := range w.references(0, &constructResources[i]) {
			_, pq, ok := w.locate(r.URL)
			if !ok || !strings.HasPrefix(pq, constructTargetDir) || seen[pq] {
				continue
			}
			seen[pq] = true
			targets = append(targets, pq)
			p, _, _ := strings.Cut(pq, "?")
			paths[p] = true
		}
	}
	sort.Strings(targets)
	return targets, paths
}

// serveConstruct answers a request for path under /constructs/.
func (w *Web) serveConstruct(rw http.ResponseWriter, r *http.Request, h int, p, query string) {
	if c, ok := constructRes(p); ok && query == "" {
		hdr := rw.Header()
		for _, hv := range c.headers {
			v, _ := w.expand(h, hv[1])
			hdr.Add(hv[0], v)
		}
		body, _ := w.expand(h, c.body)
		ctype := c.ctype
		if ctype == "" {
			ctype = "text/html; charset=utf-8"
		}
		status := c.status
		if status == 0 {
			status = http.StatusOK
		}
		hdr.Set("Content-Type", ctype)
		hdr.Set("Content-Length", strconv.Itoa(len(body)))
		rw.WriteHeader(status)
		if r.Method != http.MethodHead {
			rw.Write([]byte(body))
		}
		return
	}
	// Targets answer whatever the query (a GET form adds one).
	if !w.ctargetPaths[p] {
		http.NotFound(rw, r)
		return
	}
	ctype, body := w.targetBody(h, p)
	w.write(rw, r, ctype, body)
}

// tinyPNG is a valid 1×1 grey PNG.
const tinyPNG = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\b\x00\x00\x00\x00:~\x9bU" +
	"\x00\x00\x00\x0eIDATx\xdab\xfa\x0f\b\x00\x00\xff\xff\x01\x05\x01\x02G\xb5w\xbb\x00\x00\x00\x00IEND\xaeB`\x82"

// targetTypes maps the extension of a target to its Content-Type.
var targetTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	"":             "text/html; charset=utf-8", // directories (object and applet codebase)
	".png":         "image/png",
	".css":         "text/css",
	".js":          "application/javascript",
	".vtt":         "text/vtt",
	".mp3":         "audio/mpeg",
	".mp4":         "video/mp4",
	".pdf":         "application/pdf",
	".class":       "application/java-vm",
	".jar":         "application/java-archive",
	".svg":         "image/svg+xml",
	".woff":        "font/woff",
	".woff2":       "font/woff2",
	".txt":         "text/plain; charset=utf-8",
	".webmanifest": "application/manifest+json",
	".rss":         "application/rss+xml",
	".atom":        "application/atom+xml",
	".xml":         "application/xml",
	".json":        "application/json",
	".dtd":         "application/xml-dtd",
	".appcache":    "text/cache-manifest",
	".swf":         "application/x-shockwave-flash",
}

// targetType returns the Content-Type a construct target at path answers
// with, by its extension.
func targetType(p string) string {
	ext := path.Ext(p)
	if strings.HasSuffix(p, "/") {
		ext = ""
	}
	return targetTypes[ext]
}

// targetBody returns the Content-Type and body of the target at path p on
// host h: a small body of a plausible type that references nothing new
// (feeds and sitemaps list only the host's home page).
func (w *Web) targetBody(h int, p string) (string, []byte) {
	ctype := targetType(p)
	name := p[len(constructTargetDir):]
	home := "http://" + w.hosts[h].authority + "/"
	var body string
	switch path.Ext(p) {
	case ".png":
		body = tinyPNG
	case ".css":
		body = "/* " + name + " */\nbody { margin: 0; }\n"
	case ".js":
		body = "/* " + name + " */\nvoid 0;\n"
	case ".vtt":
		body = "WEBVTT\n\n00:00.000 --> 00:01.000\n" + name + "\n"
	case ".mp3":
		// An ID3v2 header and one silent MPEG-1 Layer III frame header.
		body = "ID3\x03\x00\x00\x00\x00\x00\x00\xff\xfb\x90\x00" + strings.Repeat("\x00", 32)
	case ".mp4":
		body = "\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isommp41\x00\x00\x00\x08free"
	case ".pdf":
		body = "%PDF-1.4\n% " + name + "\n%%EOF\n"
	case ".class":
		body = "\xca\xfe\xba\xbe\x00\x00\x00\x34"
	case ".jar":
		body = "PK\x05\x06" + strings.Repeat("\x00", 18) // an empty zip archive
	case ".svg":
		body = `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><symbol id="icon"><rect width="1" height="1"/></symbol></svg>` + "\n"
	case ".woff":
		body = "wOFF\x00\x01\x00\x00" + strings.Repeat("\x00", 36)
	case ".woff2":
		body = "wOF2\x00\x01\x00\x00" + strings.Repeat("\x00", 40)
	case ".txt":
		body = "pong\n"
	case ".json":
		body = `{"target": "` + name + `"}` + "\n"
	case ".dtd":
		body = "<!-- " + name + " -->\n<!ELEMENT html ANY>\n"
	case ".appcache":
		body = "CACHE MANIFEST\n# " + name + "\n"
	case ".swf":
		body = "FWS\x0a\x10\x00\x00\x00" // an empty Flash file header
	case ".webmanifest":
		body = `{"name": "crawltest", "display": "browser"}` + "\n"
	case ".rss":
		body = `<?xml version="1.0" encoding="UTF-8"?>` + "\n<rss version=\"2.0\"><channel><title>" + name + "</title><link>" + home +
			"</link><description>Constructs feed</description><item><title>Home</title><link>" + home + "</link></item></channel></rss>\n"
	case ".atom":
		body = `<?xml version="1.0" encoding="UTF-8"?>` + "\n<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>" + name + "</title><id>" + home +
			"</id><updated>2025-01-01T00:00:00Z</updated><entry><title>Home</title><id>" + home + "</id><link href=\"" + home +
			"\"/><updated>2025-01-01T00:00:00Z</updated></entry></feed>\n"
	case ".xml":
		body = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
			"<url><loc>" + home + "</loc></url></urlset>\n"
	default:
		body = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Target " + name +
			"</title></head><body><p>Target " + name + ".</p></body></html>\n"
	}
	return ctype, []byte(body)
}
