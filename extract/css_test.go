package extract

import (
	"net/url"
	"strings"
	"testing"
)

const testCSSURL = "https://static.example/css/site.css"

func TestCSSLinks(t *testing.T) {
	const dir = "https://static.example/css/"
	tests := []struct {
		name string
		css  string
		want []ref
	}{
		{name: "unquoted", css: `a{background:url(img/bg.png)}`, want: []ref{{"css", Embed, dir + "img/bg.png"}}},
		{name: "quoted", css: `a{b:url("q.png")} b{c:url('s.png')}`, want: []ref{{"css", Embed, dir + "q.png"}, {"css", Embed, dir + "s.png"}}},
		{name: "spaces inside", css: "a{b:url(  sp.png\t)} c{d:url( \"qs.png\" )}", want: []ref{{"css", Embed, dir + "sp.png"}, {"css", Embed, dir + "qs.png"}}},
		{name: "root and absolute", css: `a{b:url(/r.png)} c{d:url(https://o.example/x.woff2)} e{f:url(//cdn.example/y.svg)}`,
			want: []ref{{"css", Embed, "https://static.example/r.png"}, {"css", Embed, "https://o.example/x.woff2"}, {"css", Embed, "https://cdn.example/y.svg"}}},
		{name: "case", css: `a{b:URL(up.png)} c{d:Url(mixed.png)}`, want: []ref{{"css", Embed, dir + "up.png"}, {"css", Embed, dir + "mixed.png"}}},
		{name: "escapes unquoted", css: `a{b:url(a\29 b.png)} c{d:url(c\).png)} e{f:url(\66 oo.png)}`,
			want: []ref{{"css", Embed, dir + "a)b.png"}, {"css", Embed, dir + "c).png"}, {"css", Embed, dir + "foo.png"}}},
		{name: "escapes quoted", css: `a{b:url("x\"y.png")} c{d:url('\41 .png')}`,
			want: []ref{{"css", Embed, dir + "x%22y.png"}, {"css", Embed, dir + "A.png"}}},
		{name: "escaped function name", css: `a{b:u\72l(esc.png)} c{d:\75 rl(esc2.png)}`,
			want: []ref{{"css", Embed, dir + "esc.png"}, {"css", Embed, dir + "esc2.png"}}},
		{name: "import string", css: `@import "print.css" print; @IMPORT 'Upper.css';`,
			want: []ref{{"css", Style, dir + "print.css"}, {"css", Style, dir + "Upper.css"}}},
		{name: "import url", css: `@import url(other.css) screen; @import url("q.css");`,
			want: []ref{{"css", Style, dir + "other.css"}, {"css", Style, dir + "q.css"}}},
		{name: "import with comment", css: `@import /* why */ "c.css";`, want: []ref{{"css", Style, dir + "c.css"}}},
		{name: "string after import statement is no import", css: `@import "a.css"; a{content:"b.css"}`, want: []ref{{"css", Style, dir + "a.css"}}},
		{name: "comments skipped", css: `/* url(no.png) @import "no.css"; */ a{b:url(yes.png)} /* unterminated url(no2.png)`,
			want: []ref{{"css", Embed, dir + "yes.png"}}},
		{name: "strings are not urls", css: `a{content:"url(no.png)"} b{c:'url(no2.png)'}`},
		{name: "bad urls", css: `a{b:url(a"b.png)} c{d:url(a b.png)} e{f:url(a(b.png)} g{h:url(ok.png)}`,
			want: []ref{{"css", Embed, dir + "ok.png"}}},
		{name: "not url functions", css: `a{b:myurl(x.png); c:10url(y.png); d:-url(z.png); e:#url(w.png)}`},
		{name: "namespace skipped", css: `@namespace url(http://www.w3.org/1999/xhtml); @namespace svg "http://www.w3.org/2000/svg"; a{b:url(n.png)}`,
			want: []ref{{"css", Embed, dir + "n.png"}}},
		{name: "image-set", css: `a{background-image:image-set("a.png" 1x, url(b.png) 2x, 'c.avif' type("image/avif"))} b{c:-webkit-image-set("w.png" 1x)} d{content:"not.png"}`,
			want: []ref{{"css", Embed, dir + "a.png"}, {"css", Embed, dir + "b.png"}, {"css", Embed, dir + "c.avif"}, {"css", Embed, dir + "w.png"}}},
		{name: "font-face src", css: `@font-face{font-family:F;src:url(f.woff2) format("woff2"),url(f.woff) format("woff")}`,
			want: []ref{{"css", Embed, dir + "f.woff2"}, {"css", Embed, dir + "f.woff"}}},
		{name: "dropped schemes and fragments", css: `a{b:url(data:image/png;base64,AAAA)} c{d:url(#svgfilter)} e{f:url()} g{h:url("")} i{j:url(javascript:x)}`},
		{name: "bad string", css: "@import \"broken\n; a{b:url(after.png)}", want: []ref{{"css", Embed, dir + "after.png"}}},
		{name: "line continuation", css: "@import \"li\\\nne.css\";", want: []ref{{"css", Style, dir + "line.css"}}},
		{name: "unterminated at end", css: `a{b:url(end.png`, want: []ref{{"css", Embed, dir + "end.png"}}},
		{name: "unterminated string at end", css: `@import "end.css`, want: []ref{{"css", Style, dir + "end.css"}}},
		{name: "duplicates kept", css: `a{b:url(d.png)} c{d:url(d.png)}`, want: []ref{{"css", Embed, dir + "d.png"}, {"css", Embed, dir + "d.png"}}},
	}
	base := mustParse(t, testCSSURL)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CSSLinks([]byte(tt.css), base, nil)
			if g, w := formatRefs(got), formatWant(tt.want); g != w {
				t.Errorf("CSSLinks(%q):%s\nwant:%s", tt.css, g, w)
			}
		})
	}
}

func TestCSSLinksBounds(t *testing.T) {
	base := mustParse(t, testCSSURL)
	css := strings.Repeat("a{b:url(x.png)}", 100)
	if got := CSSLinks([]byte(css), base, &Options{MaxLinks: 7}); len(got) != 7 {
		t.Errorf("CSSLinks with MaxLinks 7: %d links", len(got))
	}
	long := "a{b:url(" + strings.Repeat("l", 100) + ")} c{d:url(short.png)}"
	if got := CSSLinks([]byte(long), base, &Options{MaxAttrLen: 50}); formatRefs(got) != formatWant([]ref{{"css", Embed, "https://static.example/css/short.png"}}) {
		t.Errorf("CSSLinks with MaxAttrLen 50:%s", formatRefs(got))
	}
	// A nil base keeps only absolute URLs.
	got := CSSLinks([]byte(`a{b:url(rel.png)} c{d:url(https://abs.example/a.png)}`), nil, nil)
	if formatRefs(got) != formatWant([]ref{{"css", Embed, "https://abs.example/a.png"}}) {
		t.Errorf("CSSLinks with nil base:%s", formatRefs(got))
	}
}

// TestCSSLinksHostile checks that the scan stays linear on inputs built to
// make a naive scanner rescan: unclosed comments, strings and url()s, and
// nested url( openings.
func TestCSSLinksHostile(t *testing.T) {
	base := mustParse(t, testCSSURL)
	for _, css := range []string{
		strings.Repeat("url(", 1<<16),
		strings.Repeat("/*", 1<<16),
		strings.Repeat(`"\`, 1<<16),
		strings.Repeat("@import ", 1<<15),
		strings.Repeat("image-set(", 1<<15),
		strings.Repeat("url(a\\", 1<<15),
		strings.Repeat("u\\72l(", 1<<15),
	} {
		var s cssScanner
		s.reset([]byte(css))
		steps := 0
		for {
			_, _, ok := s.next()
			if !ok {
				break
			}
			steps++
		}
		if steps > len(css) {
			t.Errorf("%d references from %d bytes", steps, len(css))
		}
		_ = CSSLinks([]byte(css), base, nil)
	}
}

// TestCSSLinksMatchesStyleElement checks that inline CSS in a <style>
// element yields what CSSLinks yields for the same CSS, resolved against
// the document's base.
func TestCSSLinksMatchesStyleElement(t *testing.T) {
	css := `@import "a.css"; p{background:url(/b.png)} q{c:url( 'c d.png' )}`
	page := mustParse(t, testPageURL)
	want := CSSLinks([]byte(css), page, nil)
	for i := range want {
		want[i].Tag = "style"
	}
	doc, err := Links(strings.NewReader("<style>"+css+"</style>"), page, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, w := formatRefs(doc.Links), formatRefs(want); got != w {
		t.Errorf("<style>: %s\nCSSLinks:%s", got, w)
	}
	if len(want) != 3 {
		t.Errorf("CSSLinks found %d references, want 3", len(want))
	}
}

func TestParseSrcset(t *testing.T) {
	tests := []struct {
		srcset string
		want   []string
	}{
		{"", nil},
		{"   ", nil},
		{"a.png", []string{"a.png"}},
		{"a.png 1x, b.png 2x", []string{"a.png", "b.png"}},
		{"a.png 100w, b.png 200w", []string{"a.png", "b.png"}},
		{"a.png 100w 50h", []string{"a.png"}},
		{"a.png 1x,b.png 2x", []string{"a.png", "b.png"}},
		{" \t\na.png\n1x ,\n b.png\t2x\n", []string{"a.png", "b.png"}},
		// Commas inside a URL stay; trailing ones end it.
		{"/img?w=1,2 2x", []string{"/img?w=1,2"}},
		{"a.png,b.png", []string{"a.png,b.png"}},
		{"a.png, b.png", []string{"a.png", "b.png"}},
		{"a.png,,, b.png", []string{"a.png", "b.png"}},
		{", , a.png ,,, ", []string{"a.png"}},
		{"data:image/png;base64,iVBORw0KGgo= 1x, b.png 2x", []string{"data:image/png;base64,iVBORw0KGgo=", "b.png"}},
		{"a.png 1x, ", []string{"a.png"}},
		// Valid numbers.
		{"a.png 1.5x", []string{"a.png"}},
		{"a.png .5x", []string{"a.png"}},
		{"a.png 1e1x", []string{"a.png"}},
		{"a.png 2E-1x", []string{"a.png"}},
		{"a.png 0x", []string{"a.png"}},
		{"a.png -0x", []string{"a.png"}},
		// Invalid descriptors drop their candidate only.
		{"a.png 2q, b.png", []string{"b.png"}},
		{"a.png 1x 2x, b.png", []string{"b.png"}},
		{"a.png 0w, b.png", []string{"b.png"}},
		{"a.png 100h, b.png", []string{"b.png"}},
		{"a.png 100w 1x, b.png", []string{"b.png"}},
		{"a.png -1x, b.png", []string{"b.png"}},
		{"a.png 1.x, b.png", []string{"b.png"}},
		{"a.png +1x, b.png", []string{"b.png"}},
		{"a.png 1X, b.png", []string{"b.png"}},
		{"a.png 1.5w, b.png", []string{"b.png"}},
		{"a.png x, b.png", []string{"b.png"}},
		{"a.png 100w 0h, b.png", []string{"b.png"}},
		// Parentheses group a descriptor: the comma inside does not split.
		{"a.png (foo, bar) 1x, b.png", []string{"b.png"}},
		{"a.png 1x (unclosed, b.png 2x", nil},
	}
	for _, tt := range tests {
		got := ParseSrcset(tt.srcset)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
			t.Errorf("ParseSrcset(%q) = %q, want %q", tt.srcset, got, tt.want)
		}
	}
}

func TestCSSLinksNormalizer(t *testing.T) {
	// CSSLinks uses the Normalizer of Options, as Links does.
	base, _ := url.Parse(testCSSURL)
	got := CSSLinks([]byte(`a{b:url(HTTP://X.EXAMPLE:80/a/../b.png)}`), base, nil)
	if formatRefs(got) != formatWant([]ref{{"css", Embed, "http://x.example/b.png"}}) {
		t.Errorf("CSSLinks normalization:%s", formatRefs(got))
	}
}
