package feeds_test

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/trawl-dev/trawl/feeds"
)

func ExampleReadSitemap() {
	body := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/</loc><lastmod>2026-11-02</lastmod><changefreq>daily</changefreq><priority>1.0</priority></url>
  <url><loc>https://example.com/about?a=1&amp;b=2</loc></url>
  <url><loc>/relative/is/skipped</loc></url>
</urlset>`
	sm, err := feeds.ReadSitemap(strings.NewReader(body), nil)
	if err != nil {
		// sm still holds what was read: with ErrSitemapTooLarge, the
		// first 50,000 entries; with ErrSitemapSyntax, those before the
		// fault.
		fmt.Println(err)
	}
	for _, u := range sm.URLs {
		fmt.Println(u.Loc, u.LastMod.Format("2006-01-02"), u.ChangeFreq, u.Priority, u.HasPriority)
	}
	fmt.Println("skipped:", sm.Skipped)
	// Output:
	// https://example.com/ 2026-11-02 daily 1 true
	// https://example.com/about?a=1&b=2 0001-01-01  0 false
	// skipped: 1
}

func ExampleReadFeed() {
	body := `<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Example news</title>
  <entry><title>First</title><link href="/2026/first.html"/><published>2026-11-02T10:00:00Z</published></entry>
  <entry><title>Second</title><link href="https://example.com/2026/second.html"/></entry>
</feed>`
	feedURL, _ := url.Parse("https://example.com/feed.atom")
	feed, err := feeds.ReadFeed(strings.NewReader(body), feedURL, nil)
	if err != nil {
		fmt.Println(err)
	}
	fmt.Println(feed.Title)
	for _, it := range feed.Items {
		fmt.Println(it.URL, it.Title, it.Published.Format("2006-01-02"))
	}
	// Output:
	// Example news
	// https://example.com/2026/first.html First 2026-11-02
	// https://example.com/2026/second.html Second 0001-01-01
}
