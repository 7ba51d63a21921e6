package feeds

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/trawl-dev/trawl/urlnorm"
)

// FuzzReadFeed checks the properties callers rely on for any input: no
// panic (in ReadFeed or in gofeed); a Feed always; at most MaxItems items;
// every item URL an absolute http(s) URL that normalizes to itself; titles
// bounded; Truncated exactly when the error wraps ErrFeedTooLarge; an
// error that wraps exactly one sentinel, or none; and the same result for
// the same input, whether the reader returns it whole or byte by byte.
//
//	go test -run='^$' -fuzz=FuzzReadFeed -fuzztime=5m -parallel=1 ./feeds
func FuzzReadFeed(f *testing.F) {
	f.Add([]byte(`<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><item><title>A</title><link>/a</link><pubDate>Mon, 02 Nov 2026 10:00:00 GMT</pubDate></item><item><guid>https://e.com/g</guid></item></channel></rss>`))
	f.Add([]byte(`<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://o.example/s/"><title>T</title><entry xml:base="x/"><link rel="alternate" href="../y"/><updated>2026-11-03T00:00:00Z</updated></entry></feed>`))
	f.Add([]byte(`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><channel><title>R</title></channel><item rdf:about="https://r.example/1"><link>https://r.example/1</link></item></rdf:RDF>`))
	f.Add([]byte("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss><channel><title>Caf\xe9 & co</title><item><link>https://e.com/?a=1&b=2</link></item></channel></rss>"))
	f.Add([]byte(`<rss version="2.0"><channel><item><link>https://e.com/1</link></item><item><x:a xmlns:x="u"><x:a><x:a>`))
	f.Add([]byte(`{"version":"https://jsonfeed.org/version/1.1","items":[]}`))
	// Past the bounds below: five items, more than 4096 bytes, deep nesting.
	f.Add([]byte(`<rss version="2.0"><channel>` + strings.Repeat(`<item><link>https://e.com/i</link></item>`, 5) + `</channel></rss>`))
	f.Add([]byte(`<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="/a"/></entry><entry><summary>` + strings.Repeat("x", 4096) + `</summary></entry></feed>`))
	f.Add([]byte(`<rss version="2.0"><channel><item><link>https://e.com/1</link></item><item>` + strings.Repeat("<x>", 300)))
	norm := urlnorm.New()
	base, _ := url.Parse("https://feeds.example.com/dir/feed.xml")
	opts := &FeedOptions{MaxItems: 4, MaxBytes: 4096, Normalizer: norm}
	f.Fuzz(func(t *testing.T, in []byte) {
		feed, err := ReadFeed(bytes.NewReader(in), base, opts)
		if feed == nil {
			t.Fatalf("nil Feed, err %v", err)
		}
		if len(feed.Items) > opts.MaxItems {
			t.Errorf("%d items > MaxItems %d", len(feed.Items), opts.MaxItems)
		}
		if len(feed.Title) > maxFeedTitleLen {
			t.Errorf("len(Title) = %d", len(feed.Title))
		}
		for _, it := range feed.Items {
			u, perr := url.Parse(it.URL)
			if perr != nil || !u.IsAbs() || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
				t.Errorf("item URL %q is not an absolute http(s) URL (%v)", it.URL, perr)
			}
			if again, nerr := norm.Normalize(it.URL); nerr != nil || again != it.URL {
				t.Errorf("Normalize(%q) = %q, %v; want it unchanged", it.URL, again, nerr)
			}
			if len(it.Title) > maxFeedTitleLen || strings.TrimSpace(it.Title) != it.Title {
				t.Errorf("item title %q", it.Title)
			}
			if utf8.Valid(in) && !utf8.ValidString(it.Title) {
				t.Errorf("item title %q not UTF-8", it.Title)
			}
		}
		tooLarge, syntax := errors.Is(err, ErrFeedTooLarge), errors.Is(err, ErrFeedSyntax)
		if err != nil && tooLarge == syntax {
			t.Errorf("err %v wraps %v ErrFeedTooLarge and %v ErrFeedSyntax; want exactly one", err, tooLarge, syntax)
		}
		if feed.Truncated != tooLarge {
			t.Errorf("Truncated %v, err %v", feed.Truncated, err)
		}
		want := fmt.Sprintf("%+v %v", *feed, err)
		again, aerr := ReadFeed(bytes.NewReader(in), base, opts)
		if got := fmt.Sprintf("%+v %v", *again, aerr); got != want {
			t.Errorf("second run differs:\n%s\nfirst:\n%s", got, want)
		}
		slow, serr := ReadFeed(iotest.OneByteReader(bytes.NewReader(in)), base, opts)
		if got := fmt.Sprintf("%+v %v", *slow, serr); got != want {
			t.Errorf("one-byte reader differs:\n%s\nwhole:\n%s", got, want)
		}
	})
}
