package extract

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
)

const testPageURL = "https://example.com/dir/page.html"

func mustParse(t testing.TB, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("url.Parse(%q): %v", raw, err)
	}
	return u
}

func linksOf(t testing.TB, page string, opts *Options) *Document {
	t.Helper()
	doc, err := Links(strings.NewReader(page), mustParse(t, testPageURL), opts)
	if err != nil {
		t.Fatalf("Links(%q): %v", page, err)
	}
	return doc
}

func formatLinks(ls []Link) string {
	var b strings.Builder
	for _, l := range ls {
		fmt.Fprintf(&b, "\n\t{%s %s %q %q rel=%q}", l.Tag, l.Kind, l.URL, l.Text, l.Rel)
	}
	return b.String()
}

func TestLinks(t *testing.T) {
	a := func(url, text string) Link { return Link{URL: url, Text: text, Tag: "a", Kind: Navigation} }
	tests := []struct {
		name string
		html string
		want []Link
	}{
		{name: "relative", html: `<a href="b.html">B</a>`, want: []Link{a("https://example.com/dir/b.html", "B")}},
		{name: "root relative", html: `<a href="/x/y">x</a>`, want: []Link{a("https://example.com/x/y", "x")}},
		{name: "parent", html: `<a href="../up/z">z</a>`, want: []Link{a("https://example.com/up/z", "z")}},
		{name: "redundant dots", html: `<a href="./a/../b/./c">c</a>`, want: []Link{a("https://example.com/dir/b/c", "c")}},
		{name: "absolute", html: `<a href="http://other.example/p?q=1">o</a>`, want: []Link{a("http://other.example/p?q=1", "o")}},
		{name: "host case", html: `<a href="HTTP://Other.EXAMPLE/P">o</a>`, want: []Link{a("http://other.example/P", "o")}},
		{name: "scheme relative", html: `<a href="//cdn.example/lib/x">c</a>`, want: []Link{a("https://cdn.example/lib/x", "c")}},
		{name: "query only", html: `<a href="?page=2">next</a>`, want: []Link{a("https://example.com/dir/page.html?page=2", "next")}},
		{name: "fragment dropped", html: `<a href="b.html#sec">b</a>`, want: []Link{a("https://example.com/dir/b.html", "b")}},
		{name: "in-page fragment skipped", html: `<a href="#top">top</a><a href=" #x">x</a>`},
		{name: "empty href skipped", html: `<a href="">e</a><a href>e</a><a href="  ">e</a>`},
		{name: "no href", html: `<a name="x">anchor</a><a>plain</a>`},
		{name: "other schemes skipped", html: `<a href="mailto:a@b.c">m</a><a href="javascript:void(0)">j</a><a href="tel:+1">t</a><a href="data:text/html,x">d</a><a href="ftp://f.example/x">f</a>`},
		{name: "javascript with tab", html: "<a href=\"java\tscript:alert(1)\">j</a>"},
		{name: "surrounding space", html: `<a href="  /x  ">x</a>`, want: []Link{a("https://example.com/x", "x")}},
		{name: "character references", html: `<a href="/s?a=1&amp;b=2&#38;c=3">s</a>`, want: []Link{a("https://example.com/s?a=1&b=2&c=3", "s")}},
		{name: "legacy entity in attribute kept", html: `<a href="/s?x=1&copy=2">s</a>`, want: []Link{a("https://example.com/s?x=1&copy=2", "s")}},
		{name: "unquoted and single quoted", html: `<a href=/u1>1</a><a href='/u2'>2</a>`, want: []Link{a("https://example.com/u1", "1"), a("https://example.com/u2", "2")}},
		{name: "upper case", html: `<A HREF="/up">Up</A>`, want: []Link{a("https://example.com/up", "Up")}},
		{name: "first duplicate attribute wins", html: `<a href="/one" HREF="/two">d</a>`, want: []Link{a("https://example.com/one", "d")}},
		{name: "text collapsed", html: "<a href=/t>  Hello \n\t <b>big</b>&nbsp;world  </a>", want: []Link{a("https://example.com/t", "Hello big world")}},
		{name: "text across block", html: "<a href=/t><div>one</div><div>two</div></a>", want: []Link{a("https://example.com/t", "one two")}},
		{name: "text without script", html: "<a href=/t>go<script>var x='<b>';</script><style>b{}</style>!</a>", want: []Link{a("https://example.com/t", "go!")}},
		{name: "image alt", html: `<a href=/i><img src=x.png alt=" Logo  here "></a>`, want: []Link{
			{URL: "https://example.com/dir/x.png", Text: "Logo here", Tag: "img", Kind: Embed}, a("https://example.com/i", "Logo here")}},
		{name: "title attribute", html: `<a href=/i title="Go home"><img src=x.png></a>`, want: []Link{
			{URL: "https://example.com/dir/x.png", Tag: "img", Kind: Embed}, a("https://example.com/i", "Go home")}},
		{name: "text beats alt", html: `<a href=/i><img alt=logo>Home</a>`, want: []Link{a("https://example.com/i", "Home")}},
		{name: "unclosed anchor closed by next", html: `<a href=/1>one<a href=/2>two`, want: []Link{a("https://example.com/1", "one"), a("https://example.com/2", "two")}},
		{name: "anchor open at EOF", html: `<p><a href=/e>end`, want: []Link{a("https://example.com/e", "end")}},
		{name: "truncated tag at EOF", html: `<a href=/ok>ok</a><a href="/cut`, want: []Link{a("https://example.com/ok", "ok")}},
		{name: "rel values", html: `<a href=/r rel="NoFollow ugc  sponsored external">r</a>`,
			want: []Link{{URL: "https://example.com/r", Text: "r", Tag: "a", Kind: Navigation, Rel: RelNofollow | RelUGC | RelSponsored | RelExternal}}},
		{name: "rel next prev", html: `<a href=/2 rel=next>n</a><a href=/0 rel=previous>p</a>`,
			want: []Link{{URL: "https://example.com/2", Text: "n", Tag: "a", Kind: Navigation, Rel: RelNext}, {URL: "https://example.com/0", Text: "p", Tag: "a", Kind: Navigation, Rel: RelPrev}}},
		{name: "area", html: `<map><area shape=rect href="/map/1" alt="Region one" rel=nofollow></map>`,
			want: []Link{{URL: "https://example.com/map/1", Text: "Region one", Tag: "area", Kind: Navigation, Rel: RelNofollow}}},
		{name: "iframe and frame", html: `<iframe src="/embed" title="Video"><a href=/inside>x</a></iframe><frameset><frame src="f.html"></frameset>`,
			want: []Link{{URL: "https://example.com/embed", Text: "Video", Tag: "iframe", Kind: Frame}, {URL: "https://example.com/dir/f.html", Tag: "frame", Kind: Frame}}},
		{name: "link elements", html: `<head><link rel=canonical href="/c"><link rel="alternate" hreflang=de href="/de/"><link rel=next href="?p=2"><link rel=prev href="?p=0"><link rel=stylesheet href=/s.css><link rel="alternate stylesheet" href=/alt.css><link rel=icon href=/i.ico><link rel=preload href=/f.woff></head>`,
			want: []Link{
				{URL: "https://example.com/c", Tag: "link", Kind: Navigation, Rel: RelCanonical},
				{URL: "https://example.com/de/", Tag: "link", Kind: Navigation, Rel: RelAlternate},
				{URL: "https://example.com/dir/page.html?p=2", Tag: "link", Kind: Navigation, Rel: RelNext},
				{URL: "https://example.com/dir/page.html?p=0", Tag: "link", Kind: Navigation, Rel: RelPrev},
				// Subresources, reported since issue 16 with their kind.
				{URL: "https://example.com/s.css", Tag: "link", Kind: Style},
				{URL: "https://example.com/alt.css", Tag: "link", Kind: Style, Rel: RelAlternate},
				{URL: "https://example.com/i.ico", Tag: "link", Kind: Embed},
				{URL: "https://example.com/f.woff", Tag: "link", Kind: Embed},
			}},
		{name: "feed title", html: `<link rel=alternate type="application/atom+xml" title="Feed" href=/feed>`,
			want: []Link{{URL: "https://example.com/feed", Text: "Feed", Tag: "link", Kind: Feed, Rel: RelAlternate}}},
		{name: "meta refresh", html: `<meta http-equiv="Refresh" content="5; URL='/next'">`, want: []Link{{URL: "https://example.com/next", Tag: "meta", Kind: Redirect}}},
		{name: "meta refresh bare", html: `<meta http-equiv=refresh content="0;url=http://r.example/x">`, want: []Link{{URL: "http://r.example/x", Tag: "meta", Kind: Redirect}}},
		{name: "meta refresh without url", html: `<meta http-equiv=refresh content="3">`},
		{name: "base href", html: `<base href="https://cdn.example/base/"><a href="x">x</a>`, want: []Link{a("https://cdn.example/base/x", "x")}},
		{name: "relative base", html: `<base href="/other/"><a href="x">x</a>`, want: []Link{a("https://example.com/other/x", "x")}},
		{name: "first base wins", html: `<base href="/one/"><base href="/two/"><a href="x">x</a>`, want: []Link{a("https://example.com/one/x", "x")}},
		{name: "base applies to earlier links", html: `<link rel=canonical href="c"><base href="/b/"><a href="x">x</a>`,
			want: []Link{{URL: "https://example.com/b/c", Tag: "link", Kind: Navigation, Rel: RelCanonical}, a("https://example.com/b/x", "x")}},
		{name: "base without href ignored", html: `<base target=_blank><base href="/b/"><a href="x">x</a>`, want: []Link{a("https://example.com/b/x", "x")}},
		{name: "links in comments and scripts ignored", html: `<!-- <a href=/c>c</a> --><script>document.write('<a href="/s">s</a>')</script><noscript><a href=/n>n</a></noscript><textarea><a href=/t>t</a></textarea>`},
		{name: "svg anchor", html: `<svg><title>icon</title><a href="/svg">s</a></svg>`, want: []Link{a("https://example.com/svg", "s")}},
		{name: "adjacent duplicates", html: `<a href=/d><img alt=pic></a><a href=/d>Dup</a>`, want: []Link{a("https://example.com/d", "pic"), a("https://example.com/d", "Dup")}},
		{name: "malformed", html: `<a href="/m" <b>broken</a><<<>>><a href=/ok2>ok</a`, want: []Link{a("https://example.com/m", "broken"), a("https://example.com/ok2", "ok")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := linksOf(t, tt.html, nil)
			if got, want := formatLinks(doc.Links), formatLinks(tt.want); got != want {
				t.Errorf("Links(%q):%s\nwant:%s", tt.html, got, want)
			}
		})
	}
}

func TestDocument(t *testing.T) {
	tests := []struct {
		name    string
		html    string
		opts    *Options
		want    Document // Links and Base are not compared
		wantURL string   // Base
	}{
		{name: "title", html: "<title>\n  A  &amp; B </title><svg><title>icon</title></svg>",
			want: Document{Title: "A & B", Text: "icon"}, wantURL: testPageURL},
		{name: "svg title is not the title", html: "<svg><title>icon</title></svg><title>Real</title>",
			want: Document{Title: "Real", Text: "icon"}, wantURL: testPageURL},
		{name: "lang attribute", html: `<html lang=" de-AT "><meta http-equiv=content-language content=fr>`,
			want: Document{Lang: "de-AT"}, wantURL: testPageURL},
		{name: "content-language", html: `<html><meta http-equiv="Content-Language" content="fr-CA, en">`,
			want: Document{Lang: "fr-CA"}, wantURL: testPageURL},
		{name: "robots", html: `<meta name="ROBOTS" content="NoIndex, follow">`,
			want: Document{Robots: Robots{NoIndex: true}}, wantURL: testPageURL},
		{name: "robots none", html: `<meta name=robots content=none>`,
			want: Document{Robots: Robots{NoIndex: true, NoFollow: true}}, wantURL: testPageURL},
		{name: "bot meta", html: `<meta name=robots content=all><meta name=TrawlBot content="nofollow, noarchive"><meta name=otherbot content=noindex>`,
			opts: &Options{BotName: "trawlbot"},
			want: Document{Robots: Robots{NoFollow: true, NoArchive: true}}, wantURL: testPageURL},
		{name: "bot meta without BotName", html: `<meta name=trawlbot content=noindex>`,
			want: Document{}, wantURL: testPageURL},
		{name: "canonical", html: `<link rel=canonical href="/Canon#x"><link rel=canonical href=/second>`,
			want: Document{Canonical: "https://example.com/Canon"}, wantURL: testPageURL},
		{name: "canonical against base", html: `<base href="https://b.example/d/"><link rel=canonical href="c">`,
			want: Document{Canonical: "https://b.example/d/c"}, wantURL: "https://b.example/d/"},
		{name: "bad base ignored", html: `<base href="javascript:x">`, want: Document{}, wantURL: testPageURL},
		{name: "text blocks", html: "<head><title>T</title><style>p{}</style></head><body><h1>Head  line</h1><p>One <b>bold</b>\n word.</p><ul><li>a</li><li>b</li></ul>x<br>y<script>no()</script><noscript>ns</noscript><template><p>tpl</p></template><p>end</p>",
			want: Document{Title: "T", Text: "Head line\nOne bold word.\na\nb\nx y\nend"}, wantURL: testPageURL},
		{name: "text bounded", html: "<p>" + strings.Repeat("word ", 100) + "</p>", opts: &Options{MaxTextLen: 12},
			want: Document{Text: "word word wo", Truncated: true}, wantURL: testPageURL},
		{name: "text of textarea", html: "<textarea>typed <b></textarea>", want: Document{Text: "typed <b>"}, wantURL: testPageURL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := linksOf(t, tt.html, tt.opts)
			got := fmt.Sprintf("%+v", Document{Title: doc.Title, Robots: doc.Robots, Canonical: doc.Canonical, Lang: doc.Lang, Text: doc.Text, Truncated: doc.Truncated})
			if want := fmt.Sprintf("%+v", tt.want); got != want {
				t.Errorf("Links(%q) = %s, want %s", tt.html, got, want)
			}
			if doc.Base.String() != tt.wantURL {
				t.Errorf("Links(%q).Base = %q, want %q", tt.html, doc.Base, tt.wantURL)
			}
		})
	}
}

func TestLinkTextBound(t *testing.T) {
	long := strings.Repeat("é", 200) // 400 bytes
	doc := linksOf(t, `<a href=/l>`+long+`</a><a href=/t title="`+long+`">`, &Options{MaxLinkTextLen: 101})
	if len(doc.Links) != 2 {
		t.Fatalf("Links: got %d links, want 2", len(doc.Links))
	}
	for _, l := range doc.Links {
		if want := strings.Repeat("é", 50); l.Text != want {
			t.Errorf("Link(%s).Text = %q (%d bytes), want 50 × é", l.URL, l.Text, len(l.Text))
		}
	}
	if doc.Truncated {
		t.Errorf("Truncated = true for a per-link cap, want false")
	}
}

func TestAttrTooLong(t *testing.T) {
	doc := linksOf(t, `<a href="/`+strings.Repeat("x", 100)+`">long</a><a href=/short>s</a>`, &Options{MaxAttrLen: 50})
	if got := formatLinks(doc.Links); got != formatLinks([]Link{{URL: "https://example.com/short", Text: "s", Tag: "a", Kind: Navigation}}) {
		t.Errorf("Links with MaxAttrLen 50:%s", got)
	}
}

func TestNilPageURL(t *testing.T) {
	doc, err := Links(strings.NewReader(`<a href="/rel">r</a><a href="https://abs.example/x">a</a>`), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Link{{URL: "https://abs.example/x", Text: "a", Tag: "a", Kind: Navigation}}
	if got := formatLinks(doc.Links); got != formatLinks(want) {
		t.Errorf("Links(nil page URL):%s\nwant:%s", got, formatLinks(want))
	}
}

func TestRefreshURL(t *testing.T) {
	tests := []struct {
		content string
		want    string
		ok      bool
	}{
		{content: "5; url=/next", want: "/next", ok: true},
		{content: "5;URL=/next", want: "/next", ok: true},
		{content: "  0 ;  url = '/q uoted' trailing", want: "/q uoted", ok: true},
		{content: `1, "/dq"`, want: "/dq", ok: true},
		{content: "3; /bare", want: "/bare", ok: true},
		{content: "2.5; url=/frac", want: "/frac", ok: true},
		{content: ".5 url=/dot", want: "/dot", ok: true},
		{content: "0; urlx", want: "urlx", ok: true},
		{content: "5", ok: false},
		{content: "5;", ok: false},
		{content: "url=/x", ok: false},
		{content: "5x; url=/x", ok: false},
		{content: "", ok: false},
	}
	for _, tt := range tests {
		t.Run(tt.content, func(t *testing.T) {
			got, ok := refreshURL([]byte(tt.content))
			if string(got) != tt.want || ok != tt.ok {
				t.Errorf("refreshURL(%q) = %q, %v, want %q, %v", tt.content, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestLinksDocumentsAreTheirOwn checks that a Document stays as it was
// when later calls reuse Links's pooled Extractors and their buffers.
func TestLinksDocumentsAreTheirOwn(t *testing.T) {
	base, _ := url.Parse("http://a.test/dir/page.html")
	first := `<html lang="en"><title>First page</title><body><p>alpha beta gamma</p><a href="one.html">first link</a>` +
		`<p>` + strings.Repeat("padding ", 40) + `</p></body></html>` // longer than the later pages: their text fits its buffer
	doc1, err := Links(strings.NewReader(first), base, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := *doc1
	wantLinks := append([]Link(nil), doc1.Links...)
	for i := range 3 {
		other := `<html lang="de"><title>Zweite Seite ` + strings.Repeat("x", i*10) + `</title><p>delta epsilon zeta eta theta</p><a href="two.html">second link text</a>`
		if _, err := Links(strings.NewReader(other), base, nil); err != nil {
			t.Fatal(err)
		}
	}
	if doc1.Title != want.Title || doc1.Text != want.Text || doc1.Lang != want.Lang || !slices.Equal(doc1.Links, wantLinks) {
		t.Errorf("first Document changed by later calls: title %q text %q lang %q links %v; want %q %q %q %v",
			doc1.Title, doc1.Text, doc1.Lang, doc1.Links, want.Title, want.Text, want.Lang, wantLinks)
	}
	if doc1.Title != "First page" || !strings.Contains(doc1.Text, "alpha beta gamma") || len(doc1.Links) != 1 || doc1.Links[0].URL != "http://a.test/dir/one.html" {
		t.Errorf("first Document = title %q, text %q, links %v", doc1.Title, doc1.Text, doc1.Links)
	}
}
