package trawl

import (
	"bytes"
	"strings"
	"testing"
)

func TestTrapShape(t *testing.T) {
	g := newTrapGuard(TrapLimits{})
	long := "http://a.test/" + strings.Repeat("x", 2100)
	tests := []struct {
		url  string
		want bool
	}{
		{"http://a.test/", true},
		{"http://a.test", true},
		{"http://a.test/repeat/again/again/again/", true},
		{"http://a.test/repeat/again/again/again/again/", false},
		{"http://a.test/lost/old/media/old/media/old/media/", true},
		{"http://a.test/lost/old/media/old/media/old/media/old/", false},
		{"http://a.test/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z/0/1/2/3/4/5", true},   // 32 segments
		{"http://a.test/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z/0/1/2/3/4/5/", false}, // 33
		{"http://a.test/x?a=/b/b/b/b/b", true},                                                    // the query is not the path
		{long, false},
		// More than 16 distinct segments before a repeat: the map path.
		{"http://a.test/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17/18/1/1/1", false},
		{"http://a.test/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17/18/1/1", true},
	}
	for _, tt := range tests {
		if got := g.shapeOK(tt.url); got != tt.want {
			t.Errorf("shapeOK(%.80q) = %v, want %v", tt.url, got, tt.want)
		}
	}
	off := newTrapGuard(NoTrapLimits())
	for _, tt := range tests {
		if !off.shapeOK(tt.url) {
			t.Errorf("with NoTrapLimits, shapeOK(%.80q) = false", tt.url)
		}
	}
}

func TestTrapTemplate(t *testing.T) {
	g := newTrapGuard(TrapLimits{})
	same := [][2]string{
		{"http://a.test/calendar/2026/01/", "http://a.test/calendar/1987/11/"},
		{"http://a.test/item?id=1&sid=x", "http://a.test/item?id=22&sid=yyy"},
		{"http://a.test/p/7.html#top", "http://a.test/p/123.html"},
		{"http://a.test/x?q=1/2", "http://a.test/x?q=abc"},
	}
	for _, p := range same {
		if g.template(p[0]) != g.template(p[1]) {
			t.Errorf("template(%q) != template(%q), want equal", p[0], p[1])
		}
	}
	differ := [][2]string{
		{"http://h1.test/calendar/2026/01/", "http://h2.test/calendar/2026/01/"},
		{"http://a.test/calendar/2026/01/", "http://a.test/calendar/2026/01/x"},
		{"http://a.test/item?id=1", "http://a.test/item?id=1&sid=x"},
		{"http://a.test/news/a-1.html", "http://a.test/news/b-1.html"},
		{"https://a.test/", "http://a.test/"},
	}
	for _, p := range differ {
		if g.template(p[0]) == g.template(p[1]) {
			t.Errorf("template(%q) == template(%q), want different", p[0], p[1])
		}
	}
}

func TestTrapStreak(t *testing.T) {
	g := newTrapGuard(TrapLimits{TemplateStreak: 3})
	const tpl = 42
	steps := []struct {
		in, out    int
		wantClosed bool
	}{
		{1, 0, false}, {1, 0, false},
		{0, 2, false}, // something new elsewhere: the streak starts over
		{0, 0, false}, // nothing new: no change
		{2, 0, false}, {1, 0, false}, {1, 0, true},
		{1, 0, true},  // more of itself: still closed
		{0, 5, false}, // something new elsewhere opens it again
	}
	for i, s := range steps {
		g.grew(tpl, s.in, s.out)
		if got := g.closed(tpl); got != s.wantClosed {
			t.Fatalf("step %d (%d in, %d out): closed = %v, want %v", i, s.in, s.out, got, s.wantClosed)
		}
	}
	if g.closed(7) {
		t.Error("an unseen template is closed")
	}
}

func TestTrapRepeatedText(t *testing.T) {
	g := newTrapGuard(TrapLimits{})
	if g.seenText("a.test", "Not found", "Sorry") {
		t.Error("first text reported as seen")
	}
	if !g.seenText("a.test", "Not found", "Sorry") {
		t.Error("same host, title and text not reported as seen")
	}
	if g.seenText("b.test", "Not found", "Sorry") || g.seenText("a.test", "Not Found", "Sorry") || g.seenText("a.test", "Not found", "Sorry!") {
		t.Error("another host, title or text reported as seen")
	}
	if g.seenText("a.test", "Frames", "") || g.seenText("a.test", "Frames", " ") {
		t.Error("a page without text reported as seen")
	}
	off := newTrapGuard(TrapLimits{Duplicates: DuplicatesFollowed})
	off.seenText("a.test", "t", "x")
	if off.seenText("a.test", "t", "x") {
		t.Error("DuplicatesFollowed: repeated text reported as seen")
	}
}

func BenchmarkTrapGuard(b *testing.B) {
	g := newTrapGuard(TrapLimits{})
	urls := []string{
		"http://h12.test/news/story-1234.html",
		"http://h12.test/calendar/2026/01/",
		"https://example.com/a/b/c/d/e/f/index.html?id=123&sort=asc",
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, u := range urls {
			g.shapeOK(u)
			g.template(u)
		}
	}
}

// FuzzTrapGuard: the rules never panic, are deterministic, and a
// template ignores which digits a path holds.
func FuzzTrapGuard(f *testing.F) {
	for _, s := range []string{
		"http://h0.test/calendar/2026/01/", "http://h0.test/repeat/again/again/again/again/",
		"http://h0.test/lost/old/media/new/old/media/new/", "http://h0.test/news/a-1.html?sid=3k9x&x=1#f",
		"http://h0.test/refresh/11", "https://[::1]:8080/a//b///c", "http://a", "", "://", "http://a/?=&=&",
	} {
		f.Add(s)
	}
	g := newTrapGuard(TrapLimits{})
	f.Fuzz(func(t *testing.T, u string) {
		ok1, t1 := g.shapeOK(u), g.template(u)
		if ok2, t2 := g.shapeOK(u), g.template(u); ok1 != ok2 || t1 != t2 {
			t.Fatalf("rules not deterministic for %q", u)
		}
		// Swapping the digits of the path (before '?' and '#', after the
		// host) keeps the template.
		start := strings.Index(u, "://")
		if start < 0 {
			return
		}
		start += 3
		j := strings.IndexAny(u[start:], "/?#")
		if j < 0 {
			return
		}
		start += j
		end := len(u)
		if k := strings.IndexAny(u[start:], "?#"); k >= 0 {
			end = start + k
		}
		b := []byte(u)
		for i := start; i < end; i++ {
			if b[i] >= '0' && b[i] <= '9' {
				b[i] = '0' + (b[i]-'0'+7)%10
			}
		}
		if v := string(b); g.template(v) != g.template(u) {
			t.Errorf("template(%q) != template(%q)", u, v)
		}
	})
}

func TestXMLRoot(t *testing.T) {
	for body, want := range map[string]string{
		"\xef\xbb\xbf<?xml version=\"1.0\"?>\n<!-- c --><urlset xmlns=\"x\">":                   "urlset",
		"<!DOCTYPE rss><rss version=\"2.0\">":                                                   "rss",
		"<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY c \"&#169;\"> <!ENTITY x \">\">]><rss>": "rss",
		"<!DOCTYPE feed [ <!ELEMENT feed ANY> ]>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">": "feed",
		"<!DOCTYPE rss [ unterminated":                                                          "",
		"  <feed xmlns=\"http://www.w3.org/2005/Atom\">":                                        "feed",
		"<rdf:RDF xmlns:rdf=\"x\">":                                                             "RDF",
		"<html><body>":                                                                          "html",
		"plain text":                                                                            "",
		"<?xml unterminated":                                                                    "",
	} {
		if got := xmlRoot([]byte(body)); got != want {
			t.Errorf("xmlRoot(%q) = %q, want %q", body, got, want)
		}
	}
}

// shapeOK reports whether rawURL passes every shape rule.
func (g *trapGuard) shapeOK(rawURL string) bool { return g.shapeRule(rawURL) == ReasonNone }

// FuzzXMLRoot checks that xmlRoot never panics and returns either nothing
// or one XML name (no space, no '<', '>' or '/'), from the first 2 KiB.
func FuzzXMLRoot(f *testing.F) {
	f.Add([]byte("<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY x \"]>\">]><rss>"))
	f.Add([]byte("<!-- c --><feed xmlns=\"x\">"))
	f.Add([]byte("\xef\xbb\xbf<urlset>"))
	f.Fuzz(func(t *testing.T, body []byte) {
		root := xmlRoot(body)
		if strings.ContainsAny(root, " \t\r\n<>/") {
			t.Errorf("xmlRoot(%q) = %q, not a name", body, root)
		}
		if root != "" && !bytes.Contains(body[:min(len(body), 2048)], []byte(root)) {
			t.Errorf("xmlRoot(%q) = %q, not in the first 2 KiB", body, root)
		}
	})
}
