package maintext

import (
	"strings"
	"testing"
)

// TestExtractMarkdown checks the Markdown rendering of the main content on
// a small hand-written page: headings by level, links, fenced code keeping
// its lines, nested and ordered lists, a pipe table with its separator
// line and an escaped pipe, a definition list, and nothing from outside
// the article.
func TestExtractMarkdown(t *testing.T) {
	page := `<html><head><title>Loops</title></head><body><nav><a href="/">Home</a> <a href="/docs">Docs</a></nav><main>
<h1>Control flow</h1><p>This paragraph explains how the <a href="/code">code below</a> works, with <a href="#note">a note</a> and words enough to be running text.</p>
<h2>Example</h2><pre># a comment
for x in range(3):
    print(x)</pre>
<p>More paragraphs follow, explaining the lists and tables that come next in this example page.</p>
<ul><li>first item of the list</li><li>second item<ul><li>nested one</li></ul></li></ul><ol><li>step one</li><li>step two</li></ol>
<table><tr><th>Name</th><th>Value</th></tr><tr><td>a|b</td><td>1</td></tr></table>
<dl><dt>term</dt><dd>its definition here</dd></dl><p>The end of it, in a last paragraph that has words enough.</p></main><footer>© 2026 Example</footer></body></html>`
	got, err := ExtractMarkdown(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# Control flow\n\nThis paragraph explains how the [code below](/code) works, with a note and words",
		"\n\n## Example\n\n```\n# a comment\nfor x in range(3):\n    print(x)\n```\n\n",
		"\n\n- first item of the list\n- second item\n  - nested one\n\n1. step one\n1. step two\n\n",
		"\n\n| Name | Value |\n|---|---|\n| a\\|b | 1 |\n\n",
		"\n\n**term**\nits definition here\n\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("ExtractMarkdown lacks %q\ngot:\n%s", want, got)
		}
	}
	for _, not := range []string{"Home", "Docs", "2026", "[a note]"} {
		if strings.Contains(got, not) {
			t.Errorf("ExtractMarkdown holds %q\ngot:\n%s", not, got)
		}
	}
	// The plain text is the same with or without links recorded.
	plain, _ := Extract(strings.NewReader(page))
	if strings.Contains(plain, "[") || !strings.Contains(plain, "how the code below works") {
		t.Errorf("Extract = %q: want plain text", plain)
	}
}

// TestExtractMarkdownEmpty checks that ExtractMarkdown gives "" exactly
// when Extract does.
func TestExtractMarkdownEmpty(t *testing.T) {
	for _, page := range []string{
		"",
		`<html><body><nav><a href="/a">A</a> <a href="/b">B</a></nav></body></html>`,
		`<html><body><ul><li><a href="/1">One</a></li><li><a href="/2">Two</a></li><li><a href="/3">Three</a></li></ul></body></html>`,
	} {
		text, _ := Extract(strings.NewReader(page))
		md, _ := ExtractMarkdown(strings.NewReader(page))
		if (text == "") != (md == "") {
			t.Errorf("page %q: Extract %q, ExtractMarkdown %q", page, text, md)
		}
	}
}
