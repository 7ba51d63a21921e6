package maintext

import (
	"strings"
	"testing"
)

// shapeIntro is running text enough for the finder to see an article.
const shapeIntro = `<p>The crawler reads every page of the site once and keeps the text a reader sees, as the paragraphs below explain in some detail.</p>`

// shapeOutro closes the article with a second paragraph of running text.
const shapeOutro = `<p>That is all there is to it: the frontier keeps the queue, and the fetcher obeys the rules of every host it visits.</p>`

// TestMainTextShape checks the shape of the text: code keeps its line
// breaks and indentation, list items, table rows and the terms and
// definitions of a definition list are one a line, table cells of a row
// are joined by " | ", headings and paragraphs are blocks of their own,
// separated by a blank line.
func TestMainTextShape(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string // each must be in the text, as written
		wantNot    []string
	}{
		{
			name: "code keeps its lines",
			body: "<h2>Loops</h2>" + shapeIntro + "<pre>\n# count to three\nfor i in range(3):\n\tif i:\n        print(i)  # indented\n\n<span class=\"k\">return</span> None\n   </pre>" + shapeOutro,
			want: []string{"Loops\n\nThe crawler reads", "\n\n# count to three\nfor i in range(3):\n\tif i:\n        print(i)  # indented\n\nreturn None\n\nThat is all"},
		},
		{
			name: "code indented on its first line",
			body: shapeIntro + "<pre>    indented(first)\nflush()</pre>" + shapeOutro,
			want: []string{"\n\n    indented(first)\nflush()\n\n"},
		},
		{
			name: "code with line breaks written as br",
			body: shapeIntro + "<pre><code>a := 1<br>b := 2</code></pre>" + shapeOutro,
			want: []string{"\n\na := 1\nb := 2\n\n"},
		},
		{
			name: "white space outside code still collapses",
			body: "<p>The crawler   reads\n   every page of the site once and keeps the text a reader sees, as the paragraphs below explain.</p>" + shapeOutro,
			want: []string{"The crawler reads every page"},
		},
		{
			name: "list items one a line",
			body: shapeIntro + "<ul><li>robots.txt is obeyed</li><li>one request at a time per host</li><li>a delay between requests</li></ul>" + shapeOutro,
			want: []string{"\n\nrobots.txt is obeyed\none request at a time per host\na delay between requests\n\n"},
		},
		{
			name: "nested lists one item a line",
			body: shapeIntro + "<ol><li>fetch<ul><li>robots.txt first</li><li>then the page</li></ul></li><li>store the page</li></ol>" + shapeOutro,
			want: []string{"\n\nfetch\nrobots.txt first\nthen the page\nstore the page\n\n"},
		},
		{
			name: "paragraphs inside one list item stay paragraphs",
			body: shapeIntro + "<ul><li><p>The first point of the list, in a paragraph of its own.</p><p>Its second paragraph, with more to say.</p></li><li><p>The second point.</p></li></ul>" + shapeOutro,
			want: []string{"in a paragraph of its own.\n\nIts second paragraph, with more to say.\nThe second point."},
		},
		{
			name: "table rows one a line, cells joined",
			body: shapeIntro + "<table><thead><tr><th>Method</th><th>Description</th></tr></thead><tbody><tr><td><code>Push(u)</code></td><td>queues a URL</td></tr><tr><td><code>Next(ctx)</code></td><td>waits for the next URL</td></tr></tbody></table>" + shapeOutro,
			want: []string{"\n\nMethod | Description\nPush(u) | queues a URL\nNext(ctx) | waits for the next URL\n\n"},
		},
		{
			name: "definition list one term or definition a line",
			body: shapeIntro + "<dl><dt>Crawl-delay</dt><dd>seconds between two requests</dd><dt>Sitemap</dt><dd>where the sitemap is</dd></dl>" + shapeOutro,
			want: []string{"\n\nCrawl-delay\nseconds between two requests\nSitemap\nwhere the sitemap is\n\n"},
		},
		{
			name:    "headings on their own line, without permalink marks",
			body:    "<h1>The frontier<a class=\"headerlink\" href=\"#frontier\">¶</a></h1>" + shapeIntro + "<h2>Queues <em>and</em> hosts<a href=\"#q\">§</a></h2>" + shapeOutro,
			want:    []string{"The frontier\n\nThe crawler reads", "explain in some detail.\n\nQueues and hosts\n\nThat is all"},
			wantNot: []string{"detail. Queues", "hosts That", "¶", "§"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := `<html><head><title>Shapes</title></head><body><nav><a href="/">Home</a> <a href="/docs">Docs</a></nav><main>` + tt.body + `</main><footer>© 2026 Example</footer></body></html>`
			got, err := Extract(strings.NewReader(page))
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
