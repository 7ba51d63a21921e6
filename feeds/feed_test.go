package feeds

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// items renders feed items compactly for comparison.
func items(f *Feed) string {
	var b strings.Builder
	fmt.Fprintf(&b, "title=%q\n", f.Title)
	for _, it := range f.Items {
		fmt.Fprintf(&b, "%s %q", it.URL, it.Title)
		if !it.Published.IsZero() {
			fmt.Fprintf(&b, " %s", it.Published.UTC().Format(time.RFC3339))
		}
		b.WriteString("\n")
	}
	return b.String()
}

const smallRSS = `<rss version="2.0"><channel><item><link>https://e.com/1</link></item></channel></rss>`

func TestReadFeed(t *testing.T) {
	base, _ := url.Parse("https://blog.example.com/feeds/main.xml")
	tests := []struct {
		name      string
		in        string
		opts      *FeedOptions
		want      string
		truncated bool
		wantErr   error
	}{
		{name: "RSS 2.0", in: `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel>
 <title> The   Blog </title><link>https://blog.example.com/</link>
 <item><title>First</title><link>https://blog.example.com/2026/first</link><pubDate>Mon, 02 Nov 2026 10:00:00 GMT</pubDate></item>
 <item><title>Relative</title><link>/2026/second?a=1&amp;b=2</link></item>
 <item><title>Guid only</title><guid>https://blog.example.com/p?id=3</guid></item>
 <item><title>Guid not a URL</title><guid isPermaLink="false">tag:blog.example.com,2026:4</guid></item>
 <item><title>Mail</title><link>mailto:me@example.com</link></item>
 <item><title>Upper case</title><link>HTTPS://Blog.Example.COM:443/a/../b#frag</link></item>
</channel></rss>`,
			want: "title=\"The Blog\"\n" +
				"https://blog.example.com/2026/first \"First\" 2026-11-02T10:00:00Z\n" +
				"https://blog.example.com/2026/second?a=1&b=2 \"Relative\"\n" +
				"https://blog.example.com/p?id=3 \"Guid only\"\n" +
				"https://blog.example.com/b \"Upper case\"\n"},
		{name: "Atom 1.0 with relative links and xml:base", in: `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://other.example.org/site/">
 <title type="text">Atom &amp; Eve</title>
 <link href="/"/>
 <entry><title>Absolute</title><link href="https://a.example/1"/><published>2026-11-01T08:00:00+01:00</published></entry>
 <entry><title>Relative to feed xml:base</title><link rel="alternate" href="posts/2"/><updated>2026-11-03T00:00:00Z</updated></entry>
 <entry xml:base="https://third.example/x/"><title>Entry xml:base</title><link rel="alternate" href="../y/3"/></entry>
 <entry><title>Enclosure first</title><link rel="enclosure" href="/audio.mp3"/><link rel="alternate" href="/posts/4"/></entry>
 <entry><title>No link</title></entry>
</feed>`,
			want: "title=\"Atom & Eve\"\n" +
				"https://a.example/1 \"Absolute\" 2026-11-01T07:00:00Z\n" +
				"https://other.example.org/site/posts/2 \"Relative to feed xml:base\" 2026-11-03T00:00:00Z\n" +
				"https://third.example/y/3 \"Entry xml:base\"\n" +
				"https://other.example.org/posts/4 \"Enclosure first\"\n"},
		{name: "Atom without xml:base resolves against the feed URL", in: `<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
 <entry><title>A</title><link href="../2026/a.html"/></entry></feed>`,
			want: "title=\"T\"\nhttps://blog.example.com/2026/a.html \"A\"\n"},
		{name: "RSS 1.0 (RDF)", in: `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
 <channel rdf:about="https://rdf.example/"><title>RDF site</title><link>https://rdf.example/</link></channel>
 <item rdf:about="https://rdf.example/1"><title>One</title><link>https://rdf.example/1</link><dc:date>2026-10-31T12:00:00Z</dc:date></item>
 <item rdf:about="https://rdf.example/2"><title>Two</title><link>/2</link></item>
</rdf:RDF>`,
			want: "title=\"RDF site\"\nhttps://rdf.example/1 \"One\" 2026-10-31T12:00:00Z\nhttps://blog.example.com/2 \"Two\"\n"},
		{name: "RSS 0.91", in: `<rss version="0.91"><channel><title>Old</title><item><title>x</title><link>http://old.example/x</link></item></channel></rss>`,
			want: "title=\"Old\"\nhttp://old.example/x \"x\"\n"},
		{name: "lenient: unescaped ampersand, control characters, undeclared prefix", in: "<rss version=\"2.0\"><channel><title>A & B\x01</title>" +
			"<item><foo:bar>x</foo:bar><title>T</title><link>https://e.com/?a=1&b=2</link></item></channel></rss>",
			want: "title=\"A & B\"\nhttps://e.com/?a=1&b=2 \"T\"\n"},
		{name: "latin1 declared", in: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss version=\"2.0\"><channel><title>Caf\xe9</title>" +
			"<item><title>\xe9t\xe9</title><link>https://e.com/\xe9</link></item></channel></rss>",
			want: "title=\"Café\"\nhttps://e.com/%C3%A9 \"été\"\n"},

		{name: "truncated feed: the items before the cut", in: `<rss version="2.0"><channel><title>T</title><item><link>https://e.com/1</link></item><item><link>https://e.com/2</li`,
			want: "title=\"T\"\nhttps://e.com/1 \"\"\n", wantErr: ErrFeedSyntax},
		{name: "truncated Atom", in: `<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><entry><link href="https://e.com/1"/></entry><entry><link href="https://e.com/2"/>`,
			want: "title=\"T\"\nhttps://e.com/1 \"\"\n", wantErr: ErrFeedSyntax},
		{name: "syntax error mid-feed", in: `<rss version="2.0"><channel><title>T</title><item><link>https://e.com/1</link></item><item><link>https://e.com/2</link><<<</item></channel></rss>`,
			want: "title=\"T\"\nhttps://e.com/1 \"\"\n", wantErr: ErrFeedSyntax},
		{name: "stray end tag", in: `<rss version="2.0"><channel><item><link>https://e.com/1</link></item></foo><item><link>https://e.com/2</link></item></channel></rss>`,
			want: "title=\"\"\nhttps://e.com/1 \"\"\nhttps://e.com/2 \"\"\n"},
		{name: "mismatched end tag", in: `<rss version="2.0"><channel><item><link>https://e.com/1</lin></item><item><title>Two</title><link>https://e.com/2</link></item></channel></rss>`,
			want: "title=\"\"\nhttps://e.com/1 \"\"\nhttps://e.com/2 \"Two\"\n"},
		{name: "unclosed HTML in a description", in: `<rss version="2.0"><channel><item><description>a<br>b<p>c</description><link>https://e.com/1</link></item><item><link>https://e.com/2</link></item></channel></rss>`,
			want: "title=\"\"\nhttps://e.com/1 \"\"\nhttps://e.com/2 \"\"\n"},
		{name: "Atom stray end tag", in: `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://e.com/1"/></entry></foo><entry><link href="https://e.com/2"/></entry></feed>`,
			want: "title=\"\"\nhttps://e.com/1 \"\"\nhttps://e.com/2 \"\"\n"},
		{name: "not a feed", in: `<html><body>hello</body></html>`, want: "title=\"\"\n", wantErr: ErrFeedSyntax},
		{name: "empty", in: ``, want: "title=\"\"\n", wantErr: ErrFeedSyntax},
		{name: "JSON Feed refused", in: `{"version": "https://jsonfeed.org/version/1.1", "title": "J", "items": [{"id": "1", "url": "https://e.com/1"}]}`,
			want: "title=\"\"\n", wantErr: ErrFeedSyntax},

		{name: "MaxItems", opts: &FeedOptions{MaxItems: 2}, in: `<rss version="2.0"><channel><title>T</title>
<item><link>https://e.com/1</link></item><item><link>https://e.com/2</link></item><item><link>https://e.com/3</link></item></channel></rss>`,
			want: "title=\"T\"\nhttps://e.com/1 \"\"\nhttps://e.com/2 \"\"\n", truncated: true, wantErr: ErrFeedTooLarge},
		{name: "MaxItems Atom entries count without links", opts: &FeedOptions{MaxItems: 1}, in: `<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
<entry><title>no link</title></entry><entry><link href="https://e.com/2"/></entry></feed>`,
			want: "title=\"T\"\n", truncated: true, wantErr: ErrFeedTooLarge},
		{name: "MaxBytes cuts before the open item", opts: &FeedOptions{MaxBytes: 150}, in: `<rss version="2.0"><channel><title>T</title>
<item><link>https://e.com/1</link></item><item><link>https://e.com/2</link><description>` + strings.Repeat("long ", 100) + `</description></item></channel></rss>`,
			want: "title=\"T\"\nhttps://e.com/1 \"\"\n", truncated: true, wantErr: ErrFeedTooLarge},
		{name: "MaxBytes exact", opts: &FeedOptions{MaxBytes: int64(len(smallRSS))}, in: smallRSS,
			want: "title=\"\"\nhttps://e.com/1 \"\"\n"},
		{name: "MaxBytes one less", opts: &FeedOptions{MaxBytes: int64(len(smallRSS) - 1)}, in: smallRSS,
			want: "title=\"\"\nhttps://e.com/1 \"\"\n", truncated: true, wantErr: ErrFeedTooLarge},
		{name: "deep nesting", in: `<rss version="2.0"><channel><title>T</title><item><link>https://e.com/1</link></item><item><link>https://e.com/2</link><x:a xmlns:x="u">` +
			strings.Repeat("<x:a>", 100_000), want: "title=\"T\"\nhttps://e.com/1 \"\"\n", truncated: true, wantErr: ErrFeedTooLarge},
		{name: "element count", in: `<rss version="2.0"><channel><title>T</title><item><link>https://e.com/1</link></item>` +
			strings.Repeat("<x/>", 200_000) + `</channel></rss>`, want: "title=\"T\"\nhttps://e.com/1 \"\"\n", truncated: true, wantErr: ErrFeedTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ReadFeed(strings.NewReader(tt.in), base, tt.opts)
			if f == nil {
				t.Fatalf("nil Feed, err %v", err)
			}
			if got := items(f); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
			if f.Truncated != tt.truncated {
				t.Errorf("Truncated = %v; want %v", f.Truncated, tt.truncated)
			}
			if tt.wantErr == nil && err != nil || tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("err = %v; want %v", err, tt.wantErr)
			}
			if len(tt.in) < 1<<16 {
				slow, serr := ReadFeed(iotest.OneByteReader(strings.NewReader(tt.in)), base, tt.opts)
				if items(slow) != items(f) || fmt.Sprint(serr) != fmt.Sprint(err) {
					t.Errorf("one-byte reader: %s %v", items(slow), serr)
				}
			}
		})
	}
}

func TestReadFeedNilBase(t *testing.T) {
	in := `<rss version="2.0"><channel><item><link>/rel</link></item><item><link>https://e.com/abs</link></item></channel></rss>`
	f, err := ReadFeed(strings.NewReader(in), nil, nil)
	if err != nil || items(f) != "title=\"\"\nhttps://e.com/abs \"\"\n" {
		t.Errorf("%s %v", items(f), err)
	}
}

func TestReadFeedReaderError(t *testing.T) {
	boom := errors.New("connection reset")
	f, err := ReadFeed(io.MultiReader(strings.NewReader(`<rss version="2.0"><channel>`), iotest.ErrReader(boom)), nil, nil)
	if !errors.Is(err, boom) || errors.Is(err, ErrFeedSyntax) || f == nil {
		t.Errorf("err = %v, feed %v; want the reader's error alone", err, f)
	}
}

// TestReadFeedHostile checks that the inputs that exhaust gofeed on its
// own (measured: 10 MiB of <item/> takes 1.5 GB and a minute; 2 million
// nested elements overflow its stack, a fatal error) are cut short.
func TestReadFeedHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads 10 MiB inputs")
	}
	n := DefaultMaxFeedBytes
	for name, in := range map[string]string{
		"items": `<rss version="2.0"><channel>` + strings.Repeat("<item/>", n/7),
		"deep":  `<rss version="2.0"><channel><item><x:a xmlns:x="u">` + strings.Repeat("<x:a>", n/5),
		"atom":  `<feed xmlns="http://www.w3.org/2005/Atom"><entry><content type="xhtml">` + strings.Repeat("<div>", n/5),
	} {
		f, err := ReadFeed(bytes.NewReader([]byte(in)), nil, nil)
		if !errors.Is(err, ErrFeedTooLarge) || !f.Truncated {
			t.Errorf("%s: err %v, Truncated %v", name, err, f.Truncated)
		}
	}
}
