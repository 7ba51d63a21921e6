package robots

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// sampleRobots builds a robots.txt of about size bytes in the shape of real
// files: a few named groups, a "*" group, wildcards, comments, sitemaps.
func sampleRobots(size int) []byte {
	var b bytes.Buffer
	b.WriteString("# robots.txt\nSitemap: https://example.com/sitemap.xml\n\nUser-agent: googlebot\nUser-agent: bingbot\nDisallow: /search\nAllow: /search/about\n\n")
	for i := 0; b.Len() < size; i++ {
		if i%50 == 0 {
			fmt.Fprintf(&b, "\nUser-agent: %s/1.0\nCrawl-delay: 1\n", botName(i/50))
		}
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "Disallow: /section%d/private/\n", i)
		case 1:
			fmt.Fprintf(&b, "Allow: /section%d/private/public-*.html$\n", i)
		case 2:
			fmt.Fprintf(&b, "Disallow: /*?session%d=\n", i)
		default:
			fmt.Fprintf(&b, "# comment %d\n", i)
		}
	}
	b.WriteString("\nUser-agent: *\nDisallow: /cgi-bin/\nDisallow: /*.pdf$\nAllow: /public/\n")
	return b.Bytes()
}

// botName returns a distinct product token for group n: bot-a, bot-b, ...,
// bot-ba, ... (product tokens have no digits).
func botName(n int) string {
	name := ""
	for {
		name = string(rune('a'+n%26)) + name
		n /= 26
		if n == 0 {
			return "bot-" + name
		}
	}
}

// allRulesOneGroup is a 500 KiB file whose ~25,000 rules all apply to every
// crawler and none matches the benchmark URL: the worst case for Allowed.
func allRulesOneGroup() []byte {
	var b bytes.Buffer
	b.WriteString("User-agent: *\n")
	for i := 0; b.Len() < 500<<10; i++ {
		fmt.Fprintf(&b, "Disallow: /s%d/*.x\n", i)
	}
	return b.Bytes()
}

func BenchmarkParse(b *testing.B) {
	for _, size := range []int{1 << 10, 32 << 10, 500 << 10} {
		body := sampleRobots(size)
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if _, err := Parse(body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkAllowed(b *testing.B) {
	benches := []struct {
		name   string
		robots []byte
		agent  string
		url    string
	}{
		{name: "small", robots: []byte("User-agent: *\nDisallow: /private/\nAllow: /private/ok\n"), agent: "trawl/0.1", url: "https://example.com/private/ok/page.html?x=1"},
		{name: "32KiB-star-group", robots: sampleRobots(32 << 10), agent: "trawl/0.1", url: "https://example.com/section7/private/public-x.html"},
		{name: "32KiB-named-group", robots: sampleRobots(32 << 10), agent: "bot-c/2.0", url: "https://example.com/section101/private/public-x.html"},
		{name: "500KiB-named-group", robots: sampleRobots(500 << 10), agent: "bot-c/2.0", url: "https://example.com/section101/private/public-x.html"},
		{name: "500KiB-25k-rules-no-match", robots: allRulesOneGroup(), agent: "trawl", url: "https://example.com/s1/page.html"},
		{name: "pathological-2000-stars", robots: []byte("User-agent: *\nDisallow: /" + strings.Repeat("*a", 2000) + "*b$\n"), agent: "trawl", url: "/" + strings.Repeat("a", 10_000)},
	}
	for _, bb := range benches {
		r, _ := Parse(bb.robots)
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r.Allowed(bb.agent, bb.url)
			}
		})
	}
}

func BenchmarkCacheRules(b *testing.B) {
	body := sampleRobots(4 << 10)
	fetch := func(ctx context.Context, u *url.URL) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Body: io.NopCloser(bytes.NewReader(body))}, nil
	}
	c := NewCache(fetch, nil)
	const hosts = 1024
	us := make([]*url.URL, hosts)
	for i := range us {
		us[i], _ = url.Parse(fmt.Sprintf("https://h%d.example.com/page", i))
		if _, err := c.Rules(context.Background(), us[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			r, _ := c.Rules(context.Background(), us[i%hosts])
			r.Allowed("trawl", "/section7/private/x")
			i++
		}
	})
}
