package urlnorm

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

// checkNormalized asserts the properties of a normalized URL s: http(s)
// only, a fixed point of Normalize (under n), and re-parsed to the same
// string by net/url and by Resolve.
func checkNormalized(t *testing.T, n *Normalizer, in, s string) {
	t.Helper()
	if !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "https://") {
		t.Fatalf("Normalize(%.300q) = %.300q, not http(s)", in, s)
	}
	if strings.IndexByte(s, '#') >= 0 {
		t.Fatalf("Normalize(%.300q) = %.300q, has a fragment", in, s)
	}
	again, err := n.Normalize(s)
	if err != nil || again != s {
		t.Fatalf("Normalize(%.300q) = %.300q, %v; want %.300q (idempotence, from %.300q)", s, again, err, s, in)
	}
	u, err := url.Parse(s)
	if err != nil {
		t.Fatalf("url.Parse(%.300q) (normalized from %.300q): %v", s, in, err)
	}
	if u.String() != s {
		t.Fatalf("url.Parse(%.300q).String() = %.300q (normalized from %.300q)", s, u.String(), in)
	}
	r, err := Resolve(nil, s)
	if err != nil || r.String() != s {
		t.Fatalf("Resolve(nil, %.300q) = %v, %v; want %.300q (normalized from %.300q)", s, r, err, s, in)
	}
}

func checkError(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, ErrScheme) && !errors.Is(err, ErrInvalid) {
		t.Fatalf("%s: error %v wraps neither ErrScheme nor ErrInvalid", what, err)
	}
	if !strings.HasPrefix(err.Error(), "urlnorm: ") {
		t.Fatalf("%s: error %.300q lacks the package prefix", what, err)
	}
}

var allOptions = []Option{
	WithSortQuery(true), WithRemoveTracking(true), WithRemoveSessionIDs(true),
	WithRemoveDirectoryIndex(true), WithFoldWWW(true),
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		"http://example.com/", "HTTP://Example.COM:80/a/./b/../c?#frag",
		"https://bücher.example/%7euser/%2fx?q=%41%zz", "http://[::1]:8080/p",
		"http://0x7f.1/", "mailto:a@b", "http://a/b;jsessionid=1?utm_source=x&b=2&a=1",
		"http://www.example.com/index.html?", " http://h/\t\na ", "http://user:p%40ss@h/",
		// Cases from the hardening issue: trap URLs and addresses that
		// embed IPv4 in IPv6.
		"http://h0.test/calendar/2026/01/", "http://h0.test/repeat/again/again/again/again/",
		"http://h0.test/lost/old/media/new/old/index.html", "http://h0.test/news/a-1.html?sid=3k9x",
		"http://[64:ff9b::7f00:1]/", "http://[2002:7f00:1::]:80/", "http://[::7f00:1]/", "http://198.18.0.1/",
		"http://255.255.255.255/", "http://[::ffff:127.0.0.1]/x",
	} {
		f.Add(s)
	}
	opt := New(allOptions...)
	f.Fuzz(func(t *testing.T, raw string) {
		for _, n := range []*Normalizer{{}, opt} {
			s, err := n.Normalize(raw)
			slow, slowErr := n.resolveSlow(nil, raw)
			if (err == nil) != (slowErr == nil) || s != slow {
				t.Fatalf("Normalize(%.300q) = %.300q, %v; slow path %.300q, %v", raw, s, err, slow, slowErr)
			}
			if err != nil {
				checkError(t, "Normalize("+raw+")", err)
				continue
			}
			checkNormalized(t, n, raw, s)
		}
	})
}

func FuzzResolve(f *testing.F) {
	for _, c := range [][2]string{
		{"http://example.com/a/b", "c"}, {"http://example.com/a/b", "../../../x?y#z"},
		{"https://Example.com:443/a/", "//other.org:8080/p"}, {"http://h/a?q", ""},
		{"http://h/a?q", "#f"}, {"http://h/a", "?x=%7e"}, {"http://h/", "\\\\evil/x"},
		{"http://h/", "javascript:void(0)"}, {"http://h/~a/b c", "d%2Fe/./f/.."},
		{"http://h/", " https://ΕΛ.example/ "}, {"http://h/", "http:x"}, {"http://h/", "/%2e%2E/a"},
	} {
		f.Add(c[0], c[1])
	}
	var n Normalizer
	f.Fuzz(func(t *testing.T, rawBase, ref string) {
		base, err := url.Parse(rawBase)
		if err != nil {
			return
		}
		before := base.String()
		u, err := Resolve(base, ref)
		if err != nil {
			checkError(t, "Resolve", err)
		} else if u.Scheme != "http" && u.Scheme != "https" || !u.IsAbs() {
			t.Fatalf("Resolve(%.300q, %.300q) = %.300q, not absolute http(s)", rawBase, ref, u)
		}
		got, err := n.ResolveString(base, ref)
		if base.String() != before {
			t.Fatalf("ResolveString modified base %.300q to %.300q", before, base.String())
		}
		slow, slowErr := n.resolveSlow(base, ref)
		if fast, ok, fastErr := n.resolveFast(base, ref); ok {
			if (fastErr == nil) != (slowErr == nil) || fast != slow {
				t.Fatalf("base %.300q ref %.300q: fast path %.300q, %v; slow path %.300q, %v", rawBase, ref, fast, fastErr, slow, slowErr)
			}
		}
		if (err == nil) != (slowErr == nil) || got != slow {
			t.Fatalf("ResolveString(%.300q, %.300q) = %.300q, %v; slow path %.300q, %v", rawBase, ref, got, err, slow, slowErr)
		}
		if err != nil {
			checkError(t, "ResolveString", err)
			return
		}
		checkNormalized(t, &n, ref, got)
	})
}
