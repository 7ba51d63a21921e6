package extract

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/trawl-dev/trawl/urlnorm"
)

// FuzzLinks checks the properties callers rely on for any input: no
// panic; every link an absolute http(s) URL that normalizes to itself;
// every bound kept; the same result for the same input, whether the reader
// returns it whole or byte by byte; the same links and signals with
// SkipText (where anchor text is collected on its own rather than read off
// the page text); and the Extractor's attribute scanner agreeing with the
// tokenizer. With Options.Speculative and Options.Scripts, the same URL
// properties and determinism hold, and, when neither run is truncated,
// the links of the other kinds are those found without them.
//
//	go test -run='^$' -fuzz=FuzzLinks -fuzztime=5m -parallel=1 ./extract
func FuzzLinks(f *testing.F) {
	f.Add(`<a href="/x">x</a>`)
	// Trap pages from the hardening issue: a meta-refresh chain, a soft
	// 404 with relative links, a calendar.
	f.Add(`<meta http-equiv="refresh" content="0; url=/refresh/2"><title>Step 1</title><p>step 1`)
	f.Add(`<meta http-equiv=REFRESH content='5;URL="../x?a=1"'>`)
	f.Add(`<ul><li><a href="old/">Older</a><li><a href="media/new/">New</a><li><a href=index.html>Index</a></ul>`)
	f.Add(`<h1>Events</h1><a href="/calendar/2025/12/">Previous month</a><a href="/calendar/2026/02/">Next month</a>`)
	// Every construct of issue 16.
	f.Add(`<img src=a.png srcset="b.png 1x, c.png 2x" lowsrc=l.png longdesc=d.html><picture><source srcset="w.webp 100w"></picture>` +
		`<video src=v.mp4 poster=p.jpg><track src=t.vtt></video><audio src=a.mp3></audio><embed src=e.swf>`)
	f.Add(`<object data=m.swf codebase=/cb/></object><applet code=M.class codebase=/j/ archive="a.jar, b.jar"></applet>` +
		`<script src=s.js></script><input type=image src=i.png><isindex action=/idx>`)
	f.Add(`<form action=/s><button formaction=/b>b</button></form><form method=post action=/p><input formaction=/g formmethod=get></form><form></form>`)
	f.Add(`<blockquote cite=/c>q</blockquote><q cite=q>x</q><body background=bg.gif><table background=t.png><td background=c.png>` +
		`<meta http-equiv=content-location content=/cl><a href=/x ping="/p1 /p2">x</a>`)
	f.Add(`<svg><a xlink:href=/sa>s</a><image href=i.svg /><use xlink:href="sp.svg#i"/><script href=s.js></script></svg>`)
	f.Add(`<style>@import "a.css"; p{background:url(/b.png)}</style><div style="background:url('c.png')">x</div>`)
	f.Add(`<link rel=stylesheet href=s.css><link rel=icon href=f.ico><link rel=sitemap href=/sm.xml><link rel=alternate type=application/rss+xml href=/rss>`)
	f.Add(`<iframe src=/f srcdoc="<base href=/s/><a href=in>in</a><iframe srcdoc='<img src=deep.png>'></iframe>"></iframe>`)
	// Issue 35: speculative URLs and scripts.
	f.Add(`<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN" "http://www.w3.org/TR/x.dtd"><!--[if IE]><link rel=stylesheet href=ie.css><![endif]--><p>see http://t.example/a.html</p>`)
	f.Add(`<meta http-equiv=Content-Security-Policy content="report-uri /r"><meta name=msapplication-config content=/bc.xml><object><param name=movie value=m.swf></object><base href=/b/><img data-src=/l.jpg><noscript><a href=/n>n</a></noscript>`)
	f.Add(`<script>var b = "/api"; fetch(b + "/x"); x.open("POST", "/p"); location.href = '/n' + 1; $.ajax({url: "/a", type: "POST"}); r = /"\/re/g;</script><a href="javascript:open('/j')" onclick="location='/o'">j</a>`)
	norm := urlnorm.New()
	page, _ := url.Parse("https://example.com/dir/page.html?q=1")
	opts := &Options{MaxLinks: 8, MaxLinkTextLen: 16, MaxTextLen: 64, MaxAttrLen: 256, MaxTokens: 4096, MaxTokenLen: 4096}
	f.Fuzz(func(t *testing.T, html string) {
		doc, err := Links(strings.NewReader(html), page, opts)
		if err != nil {
			t.Fatalf("Links: %v", err)
		}
		if len(doc.Links) > opts.MaxLinks {
			t.Errorf("len(Links) = %d > MaxLinks %d", len(doc.Links), opts.MaxLinks)
		}
		if len(doc.Text) > opts.MaxTextLen || len(doc.Title) > maxTitleLen || len(doc.Lang) > maxLangLen {
			t.Errorf("bounds: len(Text) %d, len(Title) %d, len(Lang) %d", len(doc.Text), len(doc.Title), len(doc.Lang))
		}
		validIn := utf8.ValidString(html)
		if validIn && (!utf8.ValidString(doc.Text) || !utf8.ValidString(doc.Title)) {
			t.Errorf("valid UTF-8 input gave invalid Text %q or Title %q", doc.Text, doc.Title)
		}
		urls := doc.Links
		if doc.Canonical != "" {
			urls = append(urls[:len(urls):len(urls)], Link{URL: doc.Canonical})
		}
		for _, l := range doc.Links {
			if l.Kind < Navigation || l.Kind > Ping {
				t.Errorf("link %q has invalid kind %d", l.URL, l.Kind)
			}
		}
		for _, l := range urls {
			u, err := url.Parse(l.URL)
			if err != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				t.Errorf("Link URL %q is not an absolute http(s) URL (err %v)", l.URL, err)
			}
			if again, err := norm.Normalize(l.URL); err != nil || again != l.URL {
				t.Errorf("Normalize(%q) = %q, %v; want it unchanged", l.URL, again, err)
			}
			if len(l.Text) > opts.MaxLinkTextLen {
				t.Errorf("len(Link.Text) = %d > %d", len(l.Text), opts.MaxLinkTextLen)
			}
			if validIn && !utf8.ValidString(l.Text) {
				t.Errorf("Link.Text %q is not valid UTF-8", l.Text)
			}
		}
		want := fmt.Sprintf("%+v", *doc)
		again, _ := Links(strings.NewReader(html), page, opts)
		if got := fmt.Sprintf("%+v", *again); got != want {
			t.Errorf("second run differs:\n%s\nfirst:\n%s", got, want)
		}
		slow, _ := Links(iotest.OneByteReader(strings.NewReader(html)), page, opts)
		if got := fmt.Sprintf("%+v", *slow); got != want {
			t.Errorf("one-byte reader differs:\n%s\nwhole:\n%s", got, want)
		}
		skipOpts := *opts
		skipOpts.SkipText = true
		skip, _ := Links(strings.NewReader(html), page, &skipOpts)
		if skip.Text != "" {
			t.Errorf("SkipText: Text = %q, want empty", skip.Text)
		}
		noText := *doc
		noText.Text, noText.Truncated = "", false
		skip.Truncated = false // the page text may have set it without SkipText
		if got, want := fmt.Sprintf("%+v", *skip), fmt.Sprintf("%+v", noText); got != want {
			t.Errorf("SkipText differs:\n%s\nwithout:\n%s", got, want)
		}
		checkAttrScanner(t, []byte(html))
		checkReadAttrs(t, []byte(html))

		inf := *opts
		inf.Speculative, inf.Scripts = true, true
		idoc, err := Links(strings.NewReader(html), page, &inf)
		if err != nil {
			t.Fatalf("Links (inferred): %v", err)
		}
		if len(idoc.Links) > inf.MaxLinks {
			t.Errorf("inferred: len(Links) = %d > MaxLinks %d", len(idoc.Links), inf.MaxLinks)
		}
		var declared []string
		for _, l := range idoc.Links {
			if l.Kind < Navigation || l.Kind > Script {
				t.Errorf("inferred: link %q has invalid kind %d", l.URL, l.Kind)
			}
			u, err := url.Parse(l.URL)
			if err != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				t.Errorf("inferred: Link URL %q is not an absolute http(s) URL (err %v)", l.URL, err)
			}
			if again, err := norm.Normalize(l.URL); err != nil || again != l.URL {
				t.Errorf("inferred: Normalize(%q) = %q, %v; want it unchanged", l.URL, again, err)
			}
			if !l.Kind.Inferred() {
				declared = append(declared, fmt.Sprintf("%+v", l))
			}
		}
		iwant := fmt.Sprintf("%+v", *idoc)
		islow, _ := Links(iotest.OneByteReader(strings.NewReader(html)), page, &inf)
		if got := fmt.Sprintf("%+v", *islow); got != iwant {
			t.Errorf("inferred: one-byte reader differs:\n%s\nwhole:\n%s", got, iwant)
		}
		if !doc.Truncated && !idoc.Truncated {
			var plain []string
			for _, l := range doc.Links {
				plain = append(plain, fmt.Sprintf("%+v", l))
			}
			if got, want := strings.Join(declared, "\n"), strings.Join(plain, "\n"); got != want {
				t.Errorf("declared links with inferred on:\n%s\nwithout:\n%s", got, want)
			}
		}
	})
}

// collapseRef is the obvious byte-at-a-time whitespace collapse that
// appendCollapsed must equal.
func collapseRef(src []byte) []byte {
	var out []byte
	pending := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if isSpace(c) || c == 0xC2 && i+1 < len(src) && src[i+1] == 0xA0 {
			if c == 0xC2 {
				i++
			}
			pending = len(out) > 0
			continue
		}
		if pending {
			out = append(out, ' ')
			pending = false
		}
		out = append(out, c)
	}
	return out
}

func FuzzAppendCollapsed(f *testing.F) {
	f.Add("  one two\u00a0 three\t\n four ", 7)
	f.Add("\xc2\xa0\xc2 x \xc2\xa9y", 3)
	f.Fuzz(func(t *testing.T, s string, limit int) {
		if limit <= 0 || limit > 1<<20 {
			limit = 1 << 20
		}
		var sep byte
		got, _ := appendCollapsed(nil, []byte(s), &sep, limit)
		// appendRawText is the same, or gives up on a byte Text decodes.
		var rawSep byte
		raw, _, ok := appendRawText(nil, []byte(s), &rawSep, limit)
		if ok && (string(raw) != string(got) || rawSep != sep) {
			t.Fatalf("appendRawText(%q, limit %d) = %q, sep %q; appendCollapsed %q, %q", s, limit, raw, rawSep, got, sep)
		}
		if !ok && !strings.ContainsAny(s, "&\r\x00") {
			t.Fatalf("appendRawText(%q) gave up, with nothing to decode", s)
		}
		want := collapseRef([]byte(s))
		if len(got) > limit {
			t.Fatalf("appendCollapsed(%q, limit %d) = %q, longer than limit", s, limit, got)
		}
		if len(want) <= limit {
			if string(got) != string(want) {
				t.Fatalf("appendCollapsed(%q) = %q, want %q", s, got, want)
			}
			return
		}
		// Cut: a prefix of the full result, ending neither in a space
		// nor inside a rune that the input had whole.
		if !strings.HasPrefix(string(want), string(got)) || strings.HasSuffix(string(got), " ") {
			t.Fatalf("appendCollapsed(%q, limit %d) = %q, not a clean prefix of %q", s, limit, got, want)
		}
		if len(got) < limit-utf8.UTFMax-1 {
			t.Fatalf("appendCollapsed(%q, limit %d) = %q, cut too short", s, limit, got)
		}
	})
}
