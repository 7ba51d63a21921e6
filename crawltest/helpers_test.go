package crawltest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// found is a link found in a page by a real HTML5 tokenizer.
type found struct {
	url      string // normalized, "" for links that are not http(s)
	nofollow bool
}

// parsePage extracts the links of an HTML page the way a browser-faithful
// crawler does: <base href>, a/area href, frame/iframe src, rel=nofollow,
// <meta name=robots>. It knows nothing of the generator.
func parsePage(t testing.TB, pageURL string, body []byte) (links []found, metaNofollow bool) {
	t.Helper()
	base, err := url.Parse(pageURL)
	if err != nil {
		t.Fatalf("url.Parse(%q): %v", pageURL, err)
	}
	z := html.NewTokenizer(bytes.NewReader(body))
	var raw []struct {
		href     string
		nofollow bool
	}
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		attr := func(name string) (string, bool) {
			for _, a := range tok.Attr {
				if a.Key == name {
					return a.Val, true
				}
			}
			return "", false
		}
		switch tok.Data {
		case "base":
			if h, ok := attr("href"); ok {
				if b, err := base.Parse(h); err == nil {
					base = b
				}
			}
		case "meta":
			if n, _ := attr("name"); strings.EqualFold(n, "robots") {
				c, _ := attr("content")
				c = strings.ToLower(c)
				if strings.Contains(c, "nofollow") || strings.Contains(c, "none") {
					metaNofollow = true
				}
			}
		case "a", "area":
			if h, ok := attr("href"); ok {
				rel, _ := attr("rel")
				raw = append(raw, struct {
					href     string
					nofollow bool
				}{h, strings.Contains(strings.ToLower(rel), "nofollow")})
			}
		case "frame", "iframe":
			if h, ok := attr("src"); ok {
				raw = append(raw, struct {
					href     string
					nofollow bool
				}{h, false})
			}
		}
	}
	for _, r := range raw {
		u, err := base.Parse(strings.TrimSpace(r.href))
		if err != nil {
			t.Errorf("page %s: bad href %q: %v", pageURL, r.href, err)
			continue
		}
		n, _ := normalizeURL(u.String())
		links = append(links, found{url: n, nofollow: r.nofollow})
	}
	return links, metaNofollow
}

// get fetches rawURL with c and returns the response with its body read.
func get(t testing.TB, c *http.Client, rawURL string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		t.Fatalf("NewRequest(%q): %v", rawURL, err)
	}
	req.Header.Set("User-Agent", "crawltest-test/1.0")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", rawURL, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: reading body: %v", rawURL, err)
	}
	return resp, b
}

// politeCrawl crawls w over HTTP from its seeds as a polite crawler does,
// using only what the responses say plus w.Disallowed for robots.txt (whose
// own agreement with the served robots.txt is tested separately). It
// returns the depth of every ordinary page fetched.
func politeCrawl(t testing.TB, w *Web, ua string) map[string]int {
	t.Helper()
	c := w.Client()
	onWeb := make(map[string]bool)
	for _, s := range w.Seeds() {
		u, _ := url.Parse(s)
		onWeb[u.Host] = true
	}
	depth := make(map[string]int)
	seen := make(map[string]bool)
	type item struct {
		u string
		d int
	}
	var queue []item
	push := func(u string, d int) {
		if seen[u] {
			return
		}
		seen[u] = true
		pu, err := url.Parse(u)
		if err != nil || !onWeb[pu.Host] || w.Disallowed(ua, u) {
			return
		}
		queue = append(queue, item{u, d})
	}
	for _, s := range w.Seeds() {
		push(s, 1)
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		resp, body := get(t, c, it.u)
		if resp.StatusCode != http.StatusOK {
			continue
		}
		if _, ok := w.Page(it.u); ok {
			depth[it.u] = it.d
		}
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			continue
		}
		xr := strings.ToLower(resp.Header.Get("X-Robots-Tag"))
		links, nofollow := parsePage(t, it.u, body)
		if nofollow || strings.Contains(xr, "nofollow") || strings.Contains(xr, "none") {
			continue
		}
		for _, l := range links {
			if l.url != "" && !l.nofollow {
				push(l.url, it.d+1)
			}
		}
	}
	return depth
}
