package robots

import (
	"bytes"
	"slices"
	"testing"
)

// garbage are lines that are no directive: inserting them anywhere between
// lines must not change any verdict.
var garbage = []string{
	"<html><body>not a robots.txt</body></html>",
	"{\"json\": true}",
	"\x00\x01\x02\xff\xfe",
	"~~~ garbage ~~~",
	"three words here",
	"#",
	"   \t ",
	": value without key",
	"unknown-field: /x",
}

// withGarbage inserts a garbage line after every line break of body.
func withGarbage(body []byte) []byte {
	var b bytes.Buffer
	n := 0
	for i := 0; i < len(body); i++ {
		c := body[i]
		b.WriteByte(c)
		if c == '\n' || (c == '\r' && (i+1 == len(body) || body[i+1] != '\n')) {
			b.WriteString(garbage[n%len(garbage)])
			b.WriteByte('\n')
			n++
		}
	}
	return b.Bytes()
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /private\nAllow: /private/ok\nCrawl-delay: 2\nSitemap: https://h/s.xml\n"), "trawl/0.1", "/private/x")
	f.Add([]byte("Disallow: /a\nUser-agent: trawl\r\nDisallow: /*.pdf$\r\n"), "Trawl", "https://h/a/b.pdf")
	f.Add([]byte("\xEF\xBB\xBFuser-agent FooBot\ndisallow /\n"), "FooBot", "")
	f.Add([]byte("User-agent: *\nDisallow: /*a*a*a*a*a*a*b$\n"), "x", "/aaaaaaaaaaaaaaaaaaaaaaaa")
	f.Fuzz(func(t *testing.T, body []byte, agent, rawURL string) {
		r, err := Parse(body)
		if err != nil || r == nil {
			t.Fatalf("Parse(%q) = (%v, %v), want rules and no error", body, r, err)
		}
		if !r.Allowed(agent, "/robots.txt") || !r.Allowed(agent, "http://h/robots.txt") {
			t.Fatalf("Parse(%q).Allowed(%q, /robots.txt) = false, want true", body, agent)
		}
		got := r.Allowed(agent, rawURL)
		delay := r.CrawlDelay(agent)
		sitemaps := r.Sitemaps()

		// Deterministic.
		r2, _ := Parse(body)
		if r2.Allowed(agent, rawURL) != got || r2.CrawlDelay(agent) != delay || !slices.Equal(r2.Sitemaps(), sitemaps) {
			t.Fatalf("Parse(%q) is not deterministic for (%q, %q)", body, agent, rawURL)
		}
		if r.Allowed(agent, rawURL) != got {
			t.Fatalf("Allowed(%q, %q) is not deterministic", agent, rawURL)
		}

		// Bounded work: what Parse keeps grows linearly with the input and
		// within the documented limits.
		rules := 0
		for _, g := range r.groups {
			rules += len(g.rules)
		}
		if rules > MaxRules {
			t.Fatalf("Parse kept %d rules, more than MaxRules", rules)
		}
		if limit := int64(306*len(body) + 556); r.size > limit {
			t.Fatalf("Parse(%d bytes) retains ~%d bytes, want at most %d", len(body), r.size, limit)
		}
		if d := r.CrawlDelay(agent); d < 0 || d > MaxCrawlDelay {
			t.Fatalf("CrawlDelay(%q) = %v, want within [0, %v]", agent, d, MaxCrawlDelay)
		}

		// Garbage lines between valid lines change nothing.
		g, _ := Parse(withGarbage(body))
		if g.Allowed(agent, rawURL) != got || g.CrawlDelay(agent) != delay || !slices.Equal(g.Sitemaps(), sitemaps) {
			t.Fatalf("garbage lines changed the verdict for (%q, %q):\nbody %q\nwith garbage %q", agent, rawURL, body, withGarbage(body))
		}
	})
}
