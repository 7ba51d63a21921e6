package robots_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"

	"github.com/trawl-dev/trawl/robots"
)

func ExampleParse() {
	rules, _ := robots.Parse([]byte(`
User-agent: *
Disallow: /private/
Allow: /private/press/
Disallow: /*.pdf$

User-agent: trawl
Disallow: /drafts/
`))
	// A full User-Agent string is matched on its product token, "trawl".
	const ua = "trawl/0.1 (+https://example.com/bot)"
	fmt.Println(rules.Allowed(ua, "https://example.com/drafts/1"))
	fmt.Println(rules.Allowed(ua, "https://example.com/private/a")) // trawl's group replaces "*"
	fmt.Println(rules.Allowed("otherbot", "https://example.com/private/a"))
	fmt.Println(rules.Allowed("otherbot", "/private/press/today"))   // longest match wins
	fmt.Println(rules.Allowed("otherbot", "/report.pdf?download=1")) // "$" anchors the end
	// Output:
	// false
	// true
	// false
	// true
	// true
}

func ExampleRules_CrawlDelay() {
	rules, _ := robots.Parse([]byte(`Sitemap: https://example.com/sitemap.xml
User-agent: *
Crawl-delay: 2.5
Disallow: /search
Sitemap: https://example.com/news.xml
`))
	fmt.Println(rules.CrawlDelay("trawl"))
	fmt.Println(rules.Sitemaps())
	// Output:
	// 2.5s
	// [https://example.com/sitemap.xml https://example.com/news.xml]
}

func ExampleCache() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /admin\n")
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()

	// The Cache follows redirects itself: the client must not.
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
	fetch := func(ctx context.Context, u *url.URL) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("User-Agent", "trawl/0.1 (+https://example.com/bot)")
		return client.Do(req)
	}
	cache := robots.NewCache(fetch, nil)

	page, _ := url.Parse(srv.URL + "/admin/users")
	_, fresh := cache.Peek(page)
	fmt.Println("cached before:", fresh)
	rules, err := cache.Rules(context.Background(), page)
	if err != nil {
		fmt.Println(err) // rules is still usable: DisallowAll or the last good copy
	}
	fmt.Println("allowed:", rules.Allowed("trawl", page.String()))
	_, fresh = cache.Peek(page)
	fmt.Println("cached after:", fresh)
	// Output:
	// cached before: false
	// allowed: false
	// cached after: true
}
