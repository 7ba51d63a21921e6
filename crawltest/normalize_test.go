package crawltest

import (
	"net/url"
	"strings"
	"testing"
)

func TestNormalizeURL(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{in: "http://h1.test/", want: "http://h1.test/", ok: true},
		{in: "HTTP://H1.TEST:80/a/./b/../c.html?#frag", want: "http://h1.test/a/c.html", ok: true},
		{in: "http://h1.test", want: "http://h1.test/", ok: true},
		{in: "http://h1.test/%7euser/%2f%41?q=%7e%2f", want: "http://h1.test/~user/%2FA?q=~%2F", ok: true},
		{in: "https://h1.test:443/x", want: "https://h1.test/x", ok: true},
		{in: "http://h1.test:8080/x", want: "http://h1.test:8080/x", ok: true},
		{in: "http://h1.test/../../x", want: "http://h1.test/x", ok: true},
		{in: "mailto:a@b.c", ok: false},
		{in: "/relative", ok: false},
		{in: "javascript:void(0)", ok: false},
	}
	for _, tt := range tests {
		got, ok := normalizeURL(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("normalizeURL(%q) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRelPath(t *testing.T) {
	tests := []struct{ dir, target, want string }{
		{dir: "/", target: "/news/a-1.html", want: "news/a-1.html"},
		{dir: "/news/", target: "/news/a-1.html", want: "a-1.html"},
		{dir: "/news/", target: "/blog/a-1.html", want: "../blog/a-1.html"},
		{dir: "/news/", target: "/", want: "../"},
		{dir: "/", target: "/", want: "./"},
	}
	for _, tt := range tests {
		got := relPath(tt.dir, tt.target)
		base, _ := url.Parse("http://h0.test" + tt.dir)
		ref, _ := url.Parse(got)
		if got != tt.want || base.ResolveReference(ref).Path != tt.target {
			t.Errorf("relPath(%q, %q) = %q, want %q", tt.dir, tt.target, got, tt.want)
		}
	}
}

// FuzzNormalizeURL checks that normalization is idempotent and yields URLs
// without fragments, empty queries or dot segments.
func FuzzNormalizeURL(f *testing.F) {
	f.Add("HTTP://H1.TEST:80/a/./b/../c.html?#frag")
	f.Add("http://h1.test/%7e%2F?%41")
	f.Fuzz(func(t *testing.T, raw string) {
		n, ok := normalizeURL(raw)
		if !ok {
			return
		}
		n2, ok2 := normalizeURL(n)
		if !ok2 || n2 != n {
			t.Fatalf("normalizeURL(%q) = %q, but normalizeURL(%q) = %q, %v", raw, n, n, n2, ok2)
		}
		rest := n[strings.Index(n, "://")+3:]
		path := rest[strings.IndexByte(rest, '/'):]
		if q := strings.IndexByte(path, '?'); q >= 0 {
			path = path[:q]
		}
		if strings.Contains(n, "#") || strings.IndexByte(n, '?') == len(n)-1 || strings.Contains(path, "/./") || strings.Contains(path, "/../") ||
			strings.HasSuffix(path, "/.") || strings.HasSuffix(path, "/..") {
			t.Fatalf("normalizeURL(%q) = %q, not normalized", raw, n)
		}
	})
}
