package maintext

import (
	"strings"
	"testing"
)

// TestMainTextReferencePages checks the rules for documentation and
// reference pages on small hand-written pages: a main element holding
// code is the container, a short main element is the text of a stub
// page, and a heading's anchor link is no link.
func TestMainTextReferencePages(t *testing.T) {
	// An API page: one paragraph of running text, then signatures,
	// a summary table of fragments and terms with short definitions.
	api := func(codes int) string {
		var sb strings.Builder
		sb.WriteString(`<html><head><title>Class Queue</title></head><body><nav><a href="/">Home</a> <a href="/api">API</a></nav><main><h1>Class Queue</h1>`)
		sb.WriteString(`<p>A queue of URLs that hands each host's URLs out one at a time and remembers which it has seen, so that no URL is fetched twice.</p>`)
		sb.WriteString(`<h2>Method Summary</h2><div class="summary"><div>void</div><div>` + code("push(URL u)", codes > 0) + `</div><div>Adds a URL</div><div>URL</div><div>` + code("next()", codes > 1) + `</div><div>Takes the next URL</div><div>int</div><div>` + code("len()", codes > 2) + `</div><div>Counts the URLs</div></div>`)
		sb.WriteString(`<h2>Method Details</h2><h3>push</h3><div>public void push(URL u)</div><dl><dt>Parameters:</dt><dd>u - the URL</dd><dt>Throws:</dt><dd>Full - if no room is left</dd></dl>`)
		sb.WriteString(`<h3>next</h3><div>public URL next()</div><p>Takes the URL whose host may be contacted soonest, and waits until it may be.</p>`)
		sb.WriteString(`</main><footer>Copyright 2026 Example Inc. All rights reserved.</footer></body></html>`)
		return sb.String()
	}
	tests := []struct {
		name, page    string
		want, wantNot []string
	}{
		{
			name:    "API page with code: the whole main element",
			page:    api(3),
			want:    []string{"A queue of URLs", "push(URL u)", "Takes the next URL", "Method Details", "public void push(URL u)", "u - the URL", "Full - if no room is left"},
			wantNot: []string{"Home", "Copyright"},
		},
		{
			name:    "the same page without code: the article rules alone",
			page:    api(0),
			want:    []string{"A queue of URLs"},
			wantNot: []string{"Takes the next URL", "Home", "Copyright"},
		},
		{
			name:    "stub page: a title and one line",
			page:    `<html><head><title>abi_efiapi - The Unstable Book</title></head><body><div class="menu"><h1 class="menu-title">The Unstable Book</h1></div><nav><a href="/a">Chapter 1</a> <a href="/b">Chapter 2</a></nav><main><h1><a class="header" href="#abi_efiapi"><code>abi_efiapi</code></a></h1><p>The tracking issue for this feature is: <a href="https://example.org/issues/65815">#65815</a></p><hr></main></body></html>`,
			want:    []string{"abi_efiapi\n\nThe tracking issue for this feature is: #65815"},
			wantNot: []string{"The Unstable Book", "Chapter"},
		},
		{
			name:    "stub of links only is no text",
			page:    `<html><head><title>Index</title></head><body><main><h1>Index</h1><p><a href="/a">Alpha</a> <a href="/b">Beta</a> <a href="/c">Gamma</a></p></main></body></html>`,
			wantNot: []string{"Alpha", "Index"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Extract(strings.NewReader(tt.page))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("Extract lacks %q\ngot: %q", w, got)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("Extract holds %q\ngot: %q", w, got)
				}
			}
		})
	}
}

// code writes s as a code element, or as plain text.
func code(s string, asCode bool) string {
	if asCode {
		return "<code>" + s + "</code>"
	}
	return s
}
