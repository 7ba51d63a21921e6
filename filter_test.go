package trawl

import (
	"net/url"
	"regexp"
	"testing"
)

func req(t *testing.T, rawURL string, depth int) *Candidate {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	return &Candidate{URL: u, Depth: depth}
}

func TestFilters(t *testing.T) {
	tests := []struct {
		name   string
		filter Filter
		url    string
		depth  int
		want   bool
	}{
		{name: "same host", filter: SameHost("http://A.test/x"), url: "http://a.test/y", want: true},
		{name: "same host other scheme", filter: SameHost("http://a.test/"), url: "https://a.test/y", want: true},
		{name: "same host other port", filter: SameHost("http://a.test/"), url: "http://a.test:8080/", want: false},
		{name: "same host subdomain", filter: SameHost("http://a.test/"), url: "http://b.a.test/", want: false},
		{name: "same domain subdomain", filter: SameDomain("http://www.example.co.uk/"), url: "http://news.example.co.uk/x", want: true},
		{name: "same domain other", filter: SameDomain("http://www.example.co.uk/"), url: "http://example.com/", want: false},
		{name: "same domain suffix only", filter: SameDomain("http://www.example.co.uk/"), url: "http://other.co.uk/", want: false},
		{name: "under path below", filter: UnderPath("http://a.test/b/c.html"), url: "http://a.test/b/d/e.html", want: true},
		{name: "under path dir itself", filter: UnderPath("http://a.test/b/c.html"), url: "http://a.test/b/", want: true},
		{name: "under path sibling prefix", filter: UnderPath("http://a.test/b/c.html"), url: "http://a.test/bc", want: false},
		{name: "under path parent", filter: UnderPath("http://a.test/b/c.html"), url: "http://a.test/", want: false},
		{name: "under path other host", filter: UnderPath("http://a.test/b/"), url: "http://b.test/b/x", want: false},
		{name: "regexp match", filter: MatchURL(regexp.MustCompile(`/news/`)), url: "http://a.test/news/1", want: true},
		{name: "regexp deny", filter: Not(MatchURL(regexp.MustCompile(`\?`))), url: "http://a.test/x?y", want: false},
		{name: "binary ext", filter: SkipExtensions(), url: "http://a.test/x.JPG", want: false},
		{name: "pdf", filter: SkipExtensions(), url: "http://a.test/doc.pdf", want: false},
		{name: "html ext", filter: SkipExtensions(), url: "http://a.test/x.html", want: true},
		{name: "no ext", filter: SkipExtensions(), url: "http://a.test/dir/", want: true},
		{name: "custom ext", filter: SkipExtensions(".php"), url: "http://a.test/x.jpg", want: true},
		{name: "all", filter: All(SameHost("http://a.test/"), SkipExtensions()), url: "http://a.test/x.png", want: false},
		{name: "all empty", filter: All(), url: "http://a.test/", want: true},
		{name: "any", filter: Any(SameHost("http://b.test/"), SameHost("http://a.test/")), url: "http://a.test/", want: true},
		{name: "any empty", filter: Any(), url: "http://a.test/", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.filter.Allow(req(t, tt.url, tt.depth)); got != tt.want {
				t.Errorf("Allow(%q) = %v, want %v", tt.url, got, tt.want)
			}
		})
	}
}

func TestProductToken(t *testing.T) {
	for ua, want := range map[string]string{
		"trawl/0.1 (+https://x)": "trawl",
		"MyBot":                  "mybot",
		"Foo Bar":                "foo",
	} {
		if got := productToken(ua); got != want {
			t.Errorf("productToken(%q) = %q, want %q", ua, got, want)
		}
	}
}
