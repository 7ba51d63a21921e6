package trawl

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// Without WithHTML callbacks a page costs no DOM parse: runHTML returns at
// once, with no allocation.
func TestRunHTMLWithoutCallbacksAllocatesNothing(t *testing.T) {
	c, err := New(WithSeeds("http://a.test/"))
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse("http://a.test/")
	p := &Page{URL: u, ContentType: "text/html", Body: []byte(strings.Repeat("<p>text <a href=x>x</a></p>", 200))}
	ctx := context.Background()
	if n := testing.AllocsPerRun(100, func() { c.runHTML(ctx, p) }); n != 0 {
		t.Errorf("runHTML without callbacks: %v allocations, want 0", n)
	}
	// With one, it parses (and allocates).
	calls := 0
	c2, err := New(WithSeeds("http://a.test/"), WithHTML("a", func(context.Context, *Element) { calls++ }))
	if err != nil {
		t.Fatal(err)
	}
	c2.runHTML(ctx, p)
	if calls != 200 {
		t.Errorf("callback called %d times, want 200", calls)
	}
	// Not for other types.
	calls = 0
	c2.runHTML(ctx, &Page{URL: u, ContentType: "text/plain", Body: p.Body})
	if calls != 0 {
		t.Errorf("callback called %d times on text/plain", calls)
	}
}

func TestNodeText(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{in: "<div> a  b\n\tc </div>", want: "a b c"},
		{in: "<div>a<script>x()</script><style>p{}</style>b</div>", want: "ab"},
		{in: "<div><p>one</p><p>two</p>three<br>four</div>", want: "one two three four"},
		{in: "<div>caf\u00e9&nbsp;au&nbsp;lait</div>", want: "café au lait"},
		{in: "<div>   </div>", want: ""},
		{in: "<div><span>a</span><span>b</span></div>", want: "ab"},
	}
	for _, tt := range tests {
		doc, err := html.Parse(strings.NewReader(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		body := doc.FirstChild.LastChild // <html><head/><body>
		if got := nodeText(body.FirstChild); got != tt.want {
			t.Errorf("nodeText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzNodeText: whatever the markup, the text has no leading, trailing or
// doubled spaces.
func FuzzNodeText(f *testing.F) {
	for _, s := range []string{"<p> a </p>", "<div>x<br>y</div>", "\u00a0\u00a0a", "<script>1</script>z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		doc, err := html.Parse(strings.NewReader(s))
		if err != nil {
			return
		}
		got := nodeText(doc)
		if strings.HasPrefix(got, " ") || strings.HasSuffix(got, " ") || strings.Contains(got, "  ") {
			t.Errorf("nodeText(%q) = %q: stray spaces", s, got)
		}
	})
}

// BenchmarkRunHTML is the cost WithHTML adds to a page: one DOM parse and
// the matching of two selectors ("none" is a crawl without callbacks).
func BenchmarkRunHTML(b *testing.B) {
	u, _ := url.Parse("http://a.test/")
	ctx := context.Background()
	for _, n := range []int{10, 100, 1000} {
		body := []byte("<html><head><title>t</title></head><body><article><h1>Title</h1>" +
			strings.Repeat(`<p>Some text with <a href="/x">a link</a> and more words.</p>`, n) + "</article></body></html>")
		p := &Page{URL: u, ContentType: "text/html", Body: body}
		for _, sel := range []bool{false, true} {
			var opts []Option
			name := "none"
			if sel {
				name = "selectors"
				opts = []Option{
					WithHTML("article h1", func(_ context.Context, e *Element) { _ = e.Text() }),
					WithHTML("a[href]", func(_ context.Context, e *Element) { _ = e.Attr("href") }),
				}
			}
			c, err := New(append([]Option{WithSeeds("http://a.test/")}, opts...)...)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/paragraphs=%d", name, n), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(body)))
				for b.Loop() {
					c.runHTML(ctx, p)
				}
			})
		}
	}
}
