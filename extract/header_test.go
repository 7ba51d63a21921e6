package extract

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

const testResponseURL = "https://example.com/dir/resp?q=1"

func formatHeaderLinks(ls []Link) string {
	var b strings.Builder
	for _, l := range ls {
		fmt.Fprintf(&b, "\n\t{%s %s %s rel=%q text=%q}", l.Tag, l.Kind, l.URL, l.Rel, l.Text)
	}
	return b.String()
}

func TestHeaderLinks(t *testing.T) {
	type hl struct {
		tag  string
		kind Kind
		url  string
		rel  Rel
		text string
	}
	tests := []struct {
		name   string
		status int
		header map[string][]string
		want   []hl
	}{
		{name: "location 301", status: 301, header: map[string][]string{"Location": {"/moved"}},
			want: []hl{{"location", Redirect, "https://example.com/moved", 0, ""}}},
		{name: "location relative to response URL", status: 302, header: map[string][]string{"Location": {"next?a=1"}},
			want: []hl{{"location", Redirect, "https://example.com/dir/next?a=1", 0, ""}}},
		{name: "location 303 307 308 all count", status: 308, header: map[string][]string{"Location": {"https://other.example/x", "/second"}},
			want: []hl{{"location", Redirect, "https://other.example/x", 0, ""}}},
		{name: "location 201", status: 201, header: map[string][]string{"Location": {"/created/1"}},
			want: []hl{{"location", Redirect, "https://example.com/created/1", 0, ""}}},
		{name: "location ignored on 200", status: 200, header: map[string][]string{"Location": {"/no"}}},
		{name: "location ignored on 404", status: 404, header: map[string][]string{"Location": {"/no"}}},
		{name: "content-location", status: 200, header: map[string][]string{"Content-Location": {"/doc.en.html"}},
			want: []hl{{"content-location", Redirect, "https://example.com/doc.en.html", 0, ""}}},
		{name: "refresh", status: 200, header: map[string][]string{"Refresh": {"5; url=/later"}},
			want: []hl{{"refresh", Redirect, "https://example.com/later", 0, ""}}},
		{name: "refresh without url", status: 200, header: map[string][]string{"Refresh": {"30"}}},
		{name: "order", status: 302, header: map[string][]string{"Link": {"</l>; rel=next"}, "Refresh": {"0;url=/r"}, "Content-Location": {"/c"}, "Location": {"/loc"}},
			want: []hl{{"location", Redirect, "https://example.com/loc", 0, ""}, {"content-location", Redirect, "https://example.com/c", 0, ""},
				{"refresh", Redirect, "https://example.com/r", 0, ""}, {"link", Navigation, "https://example.com/l", RelNext, ""}}},
		{name: "link several values", status: 200, header: map[string][]string{"Link": {`</style.css>; rel=stylesheet, <next.html>; rel="next", <https://cdn.example/f.woff2>; rel=preload; as=font`}},
			want: []hl{{"link", Style, "https://example.com/style.css", 0, ""}, {"link", Navigation, "https://example.com/dir/next.html", RelNext, ""},
				{"link", Embed, "https://cdn.example/f.woff2", 0, ""}}},
		{name: "link several fields", status: 200, header: map[string][]string{"Link": {`</a>; rel=prev`, `</b>; rel=next`}},
			want: []hl{{"link", Navigation, "https://example.com/a", RelPrev, ""}, {"link", Navigation, "https://example.com/b", RelNext, ""}}},
		{name: "link commas and semicolons in URI and quotes", status: 200, header: map[string][]string{"Link": {`</a,b;c>; rel="alternate"; title="x, y; z", </d>;rel=next`}},
			want: []hl{{"link", Navigation, "https://example.com/a,b;c", RelAlternate, "x, y; z"}, {"link", Navigation, "https://example.com/d", RelNext, ""}}},
		{name: "link rel list", status: 200, header: map[string][]string{"Link": {`</p>; rel="prev nofollow"`}},
			want: []hl{{"link", Navigation, "https://example.com/p", RelPrev | RelNofollow, ""}}},
		{name: "link kinds", status: 200, header: map[string][]string{"Link": {
			`</i.png>; rel=icon, </s.xml>; rel=sitemap, </feed>; rel=alternate; type="application/atom+xml", </de/>; rel=alternate; hreflang=de, </c>; rel=canonical, </m.js>; rel=modulepreload`}},
			want: []hl{{"link", Embed, "https://example.com/i.png", 0, ""}, {"link", Sitemap, "https://example.com/s.xml", 0, ""},
				{"link", Feed, "https://example.com/feed", RelAlternate, ""}, {"link", Navigation, "https://example.com/de/", RelAlternate, ""},
				{"link", Navigation, "https://example.com/c", RelCanonical, ""}, {"link", Embed, "https://example.com/m.js", 0, ""}}},
		{name: "link origins and missing rel skipped", status: 200, header: map[string][]string{"Link": {`<https://fonts.example>; rel=preconnect, </norel>; title=x, <//dns.example>; rel=dns-prefetch`}}},
		{name: "link first rel wins, names case-insensitive", status: 200, header: map[string][]string{"Link": {`</x>; REL=Stylesheet; rel=next`}},
			want: []hl{{"link", Style, "https://example.com/x", 0, ""}}},
		{name: "link quoted-pair", status: 200, header: map[string][]string{"Link": {`</q>; rel="next"; title="a \"q\" b"`}},
			want: []hl{{"link", Navigation, "https://example.com/q", RelNext, `a "q" b`}}},
		{name: "link whitespace", status: 200, header: map[string][]string{"Link": {" \t</w> \t; \trel \t= \tnext \t, </v>;rel=prev"}},
			want: []hl{{"link", Navigation, "https://example.com/w", RelNext, ""}, {"link", Navigation, "https://example.com/v", RelPrev, ""}}},
		{name: "link malformed values skipped", status: 200, header: map[string][]string{"Link": {`garbage; rel=next, "quoted, <no>", </ok>; rel=next; junk "x,y" ; rel=prev, </ok2> stray; rel=prev, <unterminated`}},
			want: []hl{{"link", Navigation, "https://example.com/ok", RelNext, ""}, {"link", Navigation, "https://example.com/ok2", RelPrev, ""}}},
		{name: "link anchor parameter kept", status: 200, header: map[string][]string{"Link": {`</t>; rel=next; anchor="#frag"`}},
			want: []hl{{"link", Navigation, "https://example.com/t", RelNext, ""}}},
		{name: "unfollowable dropped", status: 301, header: map[string][]string{"Location": {"mailto:x@example.com"}, "Link": {`<#top>; rel=next, <>; rel=next, <javascript:x>; rel=next`}}},
	}
	base := mustParse(t, testResponseURL)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, vs := range tt.header {
				for _, v := range vs {
					h.Add(k, v)
				}
			}
			var want []Link
			for _, w := range tt.want {
				want = append(want, Link{URL: w.url, Text: w.text, Tag: w.tag, Kind: w.kind, Rel: w.rel})
			}
			got := HeaderLinks(h, tt.status, base, nil)
			if g, w := formatHeaderLinks(got), formatHeaderLinks(want); g != w {
				t.Errorf("HeaderLinks(%v, %d):%s\nwant:%s", tt.header, tt.status, g, w)
			}
		})
	}
}

func TestHeaderLinksBounds(t *testing.T) {
	base := mustParse(t, testResponseURL)
	h := http.Header{}
	h.Set("Link", strings.Repeat("</x>; rel=next, ", 100))
	if got := HeaderLinks(h, 200, base, &Options{MaxLinks: 5}); len(got) != 5 {
		t.Errorf("HeaderLinks with MaxLinks 5: %d links", len(got))
	}
	h = http.Header{}
	h.Set("Location", "/"+strings.Repeat("x", 100))
	if got := HeaderLinks(h, 301, base, &Options{MaxAttrLen: 50}); len(got) != 0 {
		t.Errorf("HeaderLinks with MaxAttrLen 50: %d links", len(got))
	}
	h = http.Header{}
	h.Set("Location", "rel")
	h.Set("Link", "<https://abs.example/>; rel=next")
	if got := HeaderLinks(h, 301, nil, nil); formatHeaderLinks(got) != formatHeaderLinks([]Link{{URL: "https://abs.example/", Tag: "link", Kind: Navigation, Rel: RelNext}}) {
		t.Errorf("HeaderLinks with nil base:%s", formatHeaderLinks(got))
	}
}
