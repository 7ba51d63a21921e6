package extract

import (
	"bytes"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

func scriptURLs(t testing.TB, src string, opts *Options) []string {
	t.Helper()
	base, _ := url.Parse("https://example.com/js/app.js")
	var out []string
	for _, l := range ScriptLinks([]byte(src), base, opts) {
		if l.Kind != Script || l.Tag != "script" {
			t.Errorf("ScriptLinks: link %+v, want Kind Script, Tag script", l)
		}
		out = append(out, l.URL)
	}
	return out
}

// TestScriptLinks shows what the static reading of a script finds, and
// what it leaves alone, in a fetched .js file (resolved against its URL).
func TestScriptLinks(t *testing.T) {
	const js = "https://example.com/js/"
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{name: "literals that look like URLs", src: `var a = "/a.html", b = 'https://cdn.example/x.js', c = "img/logo.png", d = "//t.example/p";`,
			want: []string{"https://example.com/a.html", "https://cdn.example/x.js", js + "img/logo.png", "https://t.example/p"}},
		{name: "literals that do not", src: `var a = "text/html", b = "1/2/2026", c = "hello world.html", d = "a.b", e = "/", f = "mailto:x@y.z", g = "/Date(1700)/", h = "application/vnd.ms-excel", i = "#top", j = "http://localhost:8000/x.html", k = "https://www.example.com/a.html", l = "http://x.invalid/";`},
		{name: "sinks take any path", src: `fetch("items"); location = "next"; window.open("popup"); new Worker("w"); importScripts("lib"); new EventSource("events");`,
			want: []string{js + "items", js + "next", js + "popup", js + "w", js + "lib", js + "events"}},
		{name: "string methods are not location's", src: `s.replace("a", "b"); m.get("key"); x.assign("k");`},
		{name: "XMLHttpRequest", src: `var r = new XMLHttpRequest(); r.open('GET', "/get"); r.open("HEAD", "/head"); r.open("PUT", "/put"); r.open("DELETE", '/del.json');`,
			want: []string{"https://example.com/get", "https://example.com/head"}},
		{name: "fetch with a method", src: `fetch("/a", {method: "GET"}); fetch("/b", {method: "POST", body: x}); fetch("/c", {"method": 'PATCH'}); fetch(new Request("/d"));`,
			want: []string{"https://example.com/a", "https://example.com/d"}},
		{name: "jQuery and axios", src: `$.get("/g"); jQuery.getJSON("/j"); $.getScript("/s.js"); $("#x").load("/frag.html #part"); $.post("/p"); axios.get("/ax"); axios.post("/axp"); $.ajax("/aj"); $.ajax({type: "POST", url: "/ajp"}); jQuery.ajax({url: "/ajg"});`,
			want: []string{"https://example.com/g", "https://example.com/j", "https://example.com/s.js", "https://example.com/ax", "https://example.com/aj", "https://example.com/ajg"}},
		{name: "sendBeacon", src: `navigator.sendBeacon("/beacon.json", data);`},
		{name: "constant concatenation", src: "var base = 'https://api.example/v1'; let p = \"/users\"; const q = base + p; fetch(q + '?page=' + 2); fetch(base + `/items`);",
			want: []string{"https://api.example/v1", "https://example.com/users", "https://api.example/v1/users?page=2", "https://api.example/v1/items"}},
		{name: "unknown operands", src: `var u = "/user/" + id + "/profile.html"; var s = "/search?q=" + encodeURIComponent(q); go("/a" + (b ? "/x.html" : "/y.html"));`,
			want: []string{"https://example.com/search?q=", "https://example.com/x.html", "https://example.com/y.html"}},
		{name: "escapes", src: `var a = "\/esc\u002Fa.html", b = "/x\x2Ey.png", c = "/multi\
line.html";`,
			want: []string{"https://example.com/esc/a.html", "https://example.com/x.y.png", "https://example.com/multiline.html"}},
		{name: "regular expressions and comments", src: `var r = /"\/not.html"/g, x = a / 2 / "/div.html".length; // "/comment.html"
/* fetch("/block.html") */ if (/\/re\.html/.test(s)) {}`,
			want: []string{"https://example.com/div.html"}},
		{name: "templates", src: "var a = `/t.html`, b = `/x/${id}/y.html`, c = `${host}/z.html`;",
			want: []string{"https://example.com/t.html"}},
		{name: "imports", src: `import x from "./mod.js"; import "/side.js"; export * from '../lib/e.js'; const m = await import("./lazy.js");`,
			want: []string{js + "mod.js", "https://example.com/side.js", "https://example.com/lib/e.js", js + "lazy.js"}},
		{name: "history and JSON", src: `history.pushState(null, "", "/page/2"); x = {"url": "/u", "href": "https://t.example/h", "title": "a/b"};`,
			want: []string{"https://example.com/page/2", "https://example.com/u", "https://t.example/h"}},
		{name: "legacy octal escapes", src: `var v = {'url': '/?view\75snapshot'};`,
			want: []string{"https://example.com/?view=snapshot"}},
		{name: "load is jQuery's only", src: `gapi.load("iframes-styles-bubble", f); $("#x").load("part"); jQuery(el).load("/frag.html");`,
			want: []string{js + "part", "https://example.com/frag.html"}},
		{name: "suffixes of unknown starts", src: `s.src = (ssl ? "https://a.example/" : "http://b.example/") + "js/x.js"; u = p + "/y.html";`,
			want: []string{"https://a.example/", "http://b.example/"}},
		{name: "a host without its scheme", src: `var path = "static.cb.example.com/js/cb.js?uid=1"; var f = "main.min.js";`,
			want: []string{"https://static.cb.example.com/js/cb.js?uid=1", js + "main.min.js"}},
		{name: "names, not URLs", src: `googletag.defineSlot("/5850/site.desktop/home", [1, 1]); dataLayer.push({event: "gtm.js"}); require(["app/main.js"]); document.querySelector("a/b.html"); x = "/?wc-ajax=%%endpoint%%";`},
		{name: "broken script goes on", src: `var a = "unterminated
var b = "/after.html"; @@@ var c = '/c.html'`,
			want: []string{"https://example.com/after.html", "https://example.com/c.html"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := scriptURLs(t, tt.src, nil); !slices.Equal(got, tt.want) {
				t.Errorf("ScriptLinks(%q) =\n\t%s\nwant\n\t%s", tt.src, strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"))
			}
		})
	}
}

// TestScriptLinksHostile checks the bounds of the static reading on
// scripts built to make it work hard: it ends, keeps its caps, and spends
// time linear in the script's size.
func TestScriptLinksHostile(t *testing.T) {
	rep := func(s string, n int) string { return strings.Repeat(s, n) }
	tests := []struct {
		name    string
		src     string
		opts    *Options
		maxURLs int
	}{
		{name: "many literals", src: rep(`"/l.html",`, 200_000), maxURLs: maxJSURLs},
		{name: "deep nesting", src: rep("(", 100_000) + `fetch("/deep")` + rep(")", 100_000) + `;fetch("/after")`, maxURLs: 2},
		{name: "deep unclosed nesting", src: rep("{[(", 100_000) + `"/in.html"`, maxURLs: 1},
		{name: "long concatenation", src: `var a = "/` + rep(`x" + "`, 100_000) + `";`, maxURLs: 1},
		{name: "many constants", src: rep(`var a = "/k"; var b = a + a; var a = b + b;`, 20_000), maxURLs: maxJSURLs},
		{name: "templates in templates", src: rep("`${", 50_000) + rep("}`", 50_000), maxURLs: 0},
		{name: "unterminated regexp and strings", src: rep(`x = /[/ "/ '/ `+"`", 50_000), maxURLs: maxJSURLs},
		{name: "MaxScriptLen", src: rep(" ", 1000) + `fetch("/late")`, opts: &Options{MaxScriptLen: 1000}, maxURLs: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			got := scriptURLs(t, tt.src, tt.opts)
			if len(got) > tt.maxURLs {
				t.Errorf("%d URLs, want at most %d", len(got), tt.maxURLs)
			}
			if tt.name == "deep nesting" && !slices.Contains(got, "https://example.com/after") {
				t.Errorf("URLs %v: the fetch after the nesting is missing", got)
			}
			t.Logf("%d bytes, %d URLs, %v", len(tt.src), len(got), time.Since(start))
		})
	}
}

// TestScriptsInPage checks that inline scripts resolve against the
// document's base, that Options.Scripts alone finds no speculative URLs
// and the other way round, and that the Extractor's bounds hold for
// script links.
func TestScriptsInPage(t *testing.T) {
	page := `<base href="https://cdn.example/b/"><script>fetch("api/x")</script><p>http://t.example/text.html</p>`
	kinds := func(opts *Options) string {
		var b strings.Builder
		for _, l := range linksOf(t, page, opts).Links {
			fmt.Fprintf(&b, "%s %s;", l.Kind, l.URL)
		}
		return b.String()
	}
	if got, want := kinds(&Options{Scripts: true}), "script https://cdn.example/b/api/x;"; got != want {
		t.Errorf("Scripts: %s, want %s", got, want)
	}
	if got, want := kinds(&Options{Speculative: true}), "speculative https://cdn.example/b/;speculative http://t.example/text.html;"; got != want {
		t.Errorf("Speculative: %s, want %s", got, want)
	}
	var b bytes.Buffer
	b.WriteString("<script>")
	for i := range 3000 {
		fmt.Fprintf(&b, `fetch("/f%d");`, i)
	}
	b.WriteString("</script>")
	doc := linksOf(t, b.String(), &Options{Scripts: true, MaxLinks: 500})
	if len(doc.Links) != 500 || !doc.Truncated {
		t.Errorf("3000 fetches, MaxLinks 500: %d links, Truncated %v; want 500, true", len(doc.Links), doc.Truncated)
	}
}

// FuzzScriptLinks checks, for any script: no panic; every link an
// absolute http(s) URL that normalizes to itself, of Kind Script; at most
// maxJSURLs links; the same result twice (the scanner's reused buffers
// leak nothing from one script into the next).
//
//	go test -run='^$' -fuzz=FuzzScriptLinks -fuzztime=5m -parallel=1 ./extract
func FuzzScriptLinks(f *testing.F) {
	f.Add(`var base = "/api"; fetch(base + "/x"); x.open("POST", "/p"); location.href = '/n' + 1;`)
	f.Add(`$.ajax({url: "/a", type: "POST"}); r = /"\/re/g; s = ` + "`/t/${a + `/in`}/z`" + `; import("./m.js")`)
	f.Add(`a = "\u{1F600}/\x41.html"; b = "\u00zz"; c = "/ok.html"; window.open("/w", "_blank")`)
	f.Add(`{"@context": "https://schema.org", "url": "https://t.example/", "logo": "/logo.png"}`)
	f.Add(`<!-- var a = "/html-comment.html"; --> b = "/after.html"`)
	base, _ := url.Parse("https://example.com/js/app.js")
	opts := &Options{MaxScriptLen: 1 << 16}
	f.Fuzz(func(t *testing.T, src string) {
		links := ScriptLinks([]byte(src), base, opts)
		if len(links) > maxJSURLs {
			t.Errorf("%d links > maxJSURLs", len(links))
		}
		norm := normalizerOf(nil)
		for _, l := range links {
			u, err := url.Parse(l.URL)
			if err != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || l.Kind != Script {
				t.Errorf("link %+v: not an absolute http(s) Script link (err %v)", l, err)
			}
			if again, err := norm.Normalize(l.URL); err != nil || again != l.URL {
				t.Errorf("Normalize(%q) = %q, %v; want it unchanged", l.URL, again, err)
			}
		}
		var s jsScanner
		lim := opts.limits()
		var first, second []string
		s.scan([]byte(src), lim, func(v []byte) { first = append(first, string(v)) })
		s.scan([]byte("var junk = '/junk.html'; fetch(`/j`"), lim, func([]byte) {})
		s.scan([]byte(src), lim, func(v []byte) { second = append(second, string(v)) })
		if !slices.Equal(first, second) {
			t.Errorf("reused scanner differs:\n%q\nfirst:\n%q", second, first)
		}
	})
}

// TestHasOnAttr checks the quick look for on* attributes against the
// attribute scanner, which reads tags as the tokenizer does: it must not
// miss one.
func TestHasOnAttr(t *testing.T) {
	for _, raw := range []string{`<p onclick="x">`, `<p ONLOAD=x>`, "<p\ton=x>", `<p one>`, `<p class=on>`, `<p data-on="1">`,
		`<p>`, `<a href="/on" title='on x'>`, `<a/onclick=x>`, `<a x="a" on=1>`, `<a =on>`, `<a x= "on" y=on>`, `<a x="unclosed on>`,
		`<a x=y/on>`, `<a x = 'q' ONx>`, `<img src=a.png alt="o n">`} {
		want := false
		s := attrScanner{raw: []byte(raw), i: 2}
		for {
			k, _, ok := s.next()
			if !ok {
				break
			}
			if len(k) >= 2 && k[0]|0x20 == 'o' && k[1]|0x20 == 'n' {
				want = true
			}
		}
		// No on* attribute missed; a false alarm only costs the scan.
		if got := hasOnAttr([]byte(raw), 2); want && !got {
			t.Errorf("hasOnAttr(%q) = false, the attribute scanner finds an on* attribute", raw)
		}
	}
}
