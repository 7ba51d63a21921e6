package robots

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

func mustParse(t testing.TB, body string) *Rules {
	t.Helper()
	r, err := Parse([]byte(body))
	if err != nil {
		t.Fatalf("Parse(%q): %v", body, err)
	}
	return r
}

func TestAllowed(t *testing.T) {
	tests := []struct {
		name   string
		robots string
		agent  string
		url    string
		want   bool
	}{
		{name: "no rules", robots: "", agent: "trawl", url: "/x", want: true},
		{name: "rule before first user-agent is ignored, rest kept", robots: "Disallow: /a\nUser-agent: *\nDisallow: /b\n", agent: "trawl", url: "/b", want: false},
		{name: "rule before first user-agent applies to nobody", robots: "Disallow: /a\nUser-agent: *\nDisallow: /b\n", agent: "trawl", url: "/a", want: true},
		{name: "garbage lines do not void the file", robots: "<html>\nUser-agent: *\n{\"x\": 1}\n\x00\xff\xfe\nDisallow: /b\nthis is not a rule\n", agent: "trawl", url: "/b/c", want: false},
		{name: "garbage line does not end a group", robots: "User-agent: trawl\nDisallow: /a\n???\nDisallow: /b\n", agent: "trawl", url: "/b", want: false},
		{name: "longest match wins", robots: "User-agent: *\nDisallow: /a\nAllow: /a/b\n", agent: "x", url: "/a/b/c", want: true},
		{name: "longest match wins regardless of order", robots: "User-agent: *\nAllow: /a/b\nDisallow: /a/b/c\n", agent: "x", url: "/a/b/c", want: false},
		{name: "allow wins a tie", robots: "User-agent: *\nDisallow: /a\nAllow: /a\n", agent: "x", url: "/a", want: true},
		{name: "allow wins a tie between wildcard rules", robots: "User-agent: *\nDisallow: /*.x\nAllow: /a*x\n", agent: "x", url: "/a.x", want: true},
		{name: "wildcard rule priority is its length", robots: "User-agent: *\nDisallow: /a/b\nAllow: /*.html\n", agent: "x", url: "/a/b.html", want: true},
		{name: "star in the middle", robots: "User-agent: *\nDisallow: /a*/c\n", agent: "x", url: "/a/b/c/d", want: false},
		{name: "star needs the later literal", robots: "User-agent: *\nDisallow: /a*/c\n", agent: "x", url: "/a/b/d", want: true},
		{name: "dollar anchors", robots: "User-agent: *\nDisallow: /*.pdf$\n", agent: "x", url: "/f.pdf?x=1", want: true},
		{name: "dollar anchors match", robots: "User-agent: *\nDisallow: /*.pdf$\n", agent: "x", url: "https://h/d/f.pdf", want: false},
		{name: "dollar not at end is literal", robots: "User-agent: *\nDisallow: /a$b\n", agent: "x", url: "/a$b", want: false},
		{name: "query is matched", robots: "User-agent: *\nDisallow: /*?sessionid=\n", agent: "x", url: "http://h/p?sessionid=2", want: false},
		{name: "fragment is not matched", robots: "User-agent: *\nDisallow: /p$\n", agent: "x", url: "http://h/p#frag", want: false},
		{name: "hash in a rule starts a comment", robots: "User-agent: *\nDisallow: /p#q\n", agent: "x", url: "http://h/p", want: false},
		{name: "full user-agent string matches its product token", robots: "User-agent: trawl\nDisallow: /\n", agent: "trawl/0.1 (+https://example.com/bot)", url: "/x", want: false},
		{name: "product token is case-insensitive", robots: "User-agent: TRAWL\nDisallow: /\n", agent: "Trawl", url: "/x", want: false},
		{name: "product token in file with version", robots: "User-agent: trawl/2.0\nDisallow: /\n", agent: "trawl", url: "/x", want: false},
		{name: "token is not a prefix match", robots: "User-agent: trawler\nDisallow: /\n", agent: "trawl", url: "/x", want: true},
		{name: "specific group replaces star", robots: "User-agent: *\nDisallow: /a\nUser-agent: trawl\nDisallow: /b\n", agent: "trawl", url: "/a", want: true},
		{name: "star group is the fallback", robots: "User-agent: *\nDisallow: /a\nUser-agent: trawl\nDisallow: /b\n", agent: "other", url: "/a", want: false},
		{name: "repeated groups merge", robots: "User-agent: trawl\nDisallow: /a\nUser-agent: b\nDisallow: /b\nUser-agent: trawl\nDisallow: /c\n", agent: "trawl", url: "/c", want: false},
		{name: "repeated groups merge, first part", robots: "User-agent: trawl\nDisallow: /a\nUser-agent: b\nDisallow: /b\nUser-agent: trawl\nDisallow: /c\n", agent: "trawl", url: "/a", want: false},
		{name: "merged groups keep others apart", robots: "User-agent: trawl\nDisallow: /a\nUser-agent: b\nDisallow: /b\nUser-agent: trawl\nDisallow: /c\n", agent: "trawl", url: "/b", want: true},
		{name: "longest match across merged groups", robots: "User-agent: trawl\nAllow: /a/b\nUser-agent: x\nDisallow: /\nUser-agent: trawl\nDisallow: /a\n", agent: "trawl", url: "/a/b", want: true},
		{name: "several user-agents share a group", robots: "User-agent: a\nUser-agent: trawl\nDisallow: /x\n", agent: "trawl", url: "/x", want: false},
		{name: "sitemap does not end a group", robots: "User-agent: a\nSitemap: http://h/s.xml\nUser-agent: trawl\nDisallow: /x\n", agent: "a", url: "/x", want: false},
		{name: "empty disallow allows", robots: "User-agent: *\nDisallow:\n", agent: "x", url: "/x", want: true},
		{name: "robots.txt always allowed", robots: "User-agent: *\nDisallow: /\n", agent: "x", url: "http://h/robots.txt", want: true},
		{name: "robots.txt with query always allowed", robots: "User-agent: *\nDisallow: /\n", agent: "x", url: "/robots.txt?x", want: true},
		{name: "robots.txt prefix is not special", robots: "User-agent: *\nDisallow: /\n", agent: "x", url: "/robots.txt.bak", want: false},
		{name: "non-ASCII rule matches the encoded URL", robots: "User-agent: *\nDisallow: /ü\n", agent: "x", url: "/%C3%BC", want: false},
		{name: "lower-case escapes in rules are normalized", robots: "User-agent: *\nDisallow: /%c3%bc\n", agent: "x", url: "/%C3%BC", want: false},
		{name: "escaped unreserved octet is not decoded (Google)", robots: "User-agent: *\nDisallow: /%61\n", agent: "x", url: "/a", want: true},
		{name: "empty URL is the root", robots: "User-agent: *\nDisallow: /$\n", agent: "x", url: "", want: false},
		{name: "path-only URL", robots: "User-agent: *\nDisallow: /x?y\n", agent: "x", url: "/x?y=1", want: false},
		{name: "CRLF line endings", robots: "User-agent: *\r\nDisallow: /x\r\n", agent: "x", url: "/x", want: false},
		{name: "CR line endings", robots: "User-agent: *\rDisallow: /x\r", agent: "x", url: "/x", want: false},
		{name: "comment after value", robots: "User-agent: * # everyone\nDisallow: /x # private\n", agent: "x", url: "/x/y", want: false},
		{name: "value is case-sensitive", robots: "User-agent: *\nDisallow: /X\n", agent: "x", url: "/x", want: true},
		{name: "index.html allows the directory", robots: "User-agent: *\nDisallow: /\nAllow: /d/index.html\n", agent: "x", url: "/d/", want: true},
		{name: "index.html does not allow subpaths", robots: "User-agent: *\nDisallow: /\nAllow: /d/index.html\n", agent: "x", url: "/d/e", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mustParse(t, tt.robots)
			if got := r.Allowed(tt.agent, tt.url); got != tt.want {
				t.Errorf("Parse(%q).Allowed(%q, %q) = %v, want %v", tt.robots, tt.agent, tt.url, got, tt.want)
			}
		})
	}
}

func TestAllowAllDisallowAll(t *testing.T) {
	tests := []struct {
		name  string
		rules *Rules
		url   string
		want  bool
	}{
		{name: "allow all", rules: AllowAll(), url: "http://h/private", want: true},
		{name: "disallow all", rules: DisallowAll(), url: "http://h/", want: false},
		{name: "disallow all keeps robots.txt", rules: DisallowAll(), url: "http://h/robots.txt", want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.rules.Allowed("trawl", tt.url); got != tt.want {
				t.Errorf("Allowed(%q, %q) = %v, want %v", "trawl", tt.url, got, tt.want)
			}
			if d := tt.rules.CrawlDelay("trawl"); d != 0 {
				t.Errorf("CrawlDelay(%q) = %v, want 0", "trawl", d)
			}
			if s := tt.rules.Sitemaps(); s != nil {
				t.Errorf("Sitemaps() = %q, want nil", s)
			}
		})
	}
}

func TestPathOf(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{in: "", want: "/"},
		{in: "http://h", want: "/"},
		{in: "http://h/", want: "/"},
		{in: "http://h/a/b?c=d#e", want: "/a/b?c=d"},
		{in: "http://h?q", want: "/?q"},
		{in: "http://h;p", want: "/;p"},
		{in: "http://h#/x", want: "/"},
		{in: "https://user@h:8080/x", want: "/x"},
		{in: "//h/x", want: "/x"},
		{in: "/x?y", want: "/x?y"},
		{in: "/x?y#z", want: "/x?y"},
		{in: "/", want: "/"},
		{in: "/#", want: "/"},
		{in: "/x?u=http://a/b", want: "/x?u=http://a/b"},
		{in: "h/x", want: "/x"},
		{in: "?q", want: "/?q"},
	}
	for _, tt := range tests {
		if got := pathOf(tt.in); got != tt.want {
			t.Errorf("pathOf(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCrawlDelay(t *testing.T) {
	tests := []struct {
		name   string
		robots string
		agent  string
		want   time.Duration
	}{
		{name: "none", robots: "User-agent: *\nDisallow: /x\n", agent: "trawl", want: 0},
		{name: "integer", robots: "User-agent: *\nCrawl-delay: 10\n", agent: "trawl", want: 10 * time.Second},
		{name: "fraction", robots: "User-agent: *\nCrawl-delay: 0.5\n", agent: "trawl", want: 500 * time.Millisecond},
		{name: "case-insensitive key", robots: "User-agent: *\nCRAWL-DELAY: 2\n", agent: "trawl", want: 2 * time.Second},
		{name: "malformed ignored", robots: "User-agent: *\nCrawl-delay: soon\n", agent: "trawl", want: 0},
		{name: "negative ignored", robots: "User-agent: *\nCrawl-delay: -3\n", agent: "trawl", want: 0},
		{name: "NaN ignored", robots: "User-agent: *\nCrawl-delay: NaN\n", agent: "trawl", want: 0},
		{name: "huge clamped", robots: "User-agent: *\nCrawl-delay: 1e300\n", agent: "trawl", want: MaxCrawlDelay},
		{name: "infinity clamped", robots: "User-agent: *\nCrawl-delay: +Inf\n", agent: "trawl", want: MaxCrawlDelay},
		{name: "outside any group ignored", robots: "Crawl-delay: 5\nUser-agent: *\nDisallow: /\n", agent: "trawl", want: 0},
		{name: "specific group wins", robots: "User-agent: *\nCrawl-delay: 9\nDisallow: /x\nUser-agent: trawl\nCrawl-delay: 1\n", agent: "trawl/1.0", want: time.Second},
		{name: "star fallback", robots: "User-agent: *\nCrawl-delay: 9\nDisallow: /x\nUser-agent: trawl\nCrawl-delay: 1\n", agent: "other", want: 9 * time.Second},
		{name: "crawl-delay does not end a group (RFC 9309 2.2.4)", robots: "User-agent: *\nCrawl-delay: 9\nUser-agent: trawl\nDisallow: /a\n", agent: "trawl", want: 9 * time.Second},
		{name: "merged groups take the largest", robots: "User-agent: trawl\nCrawl-delay: 1\nDisallow: /a\nUser-agent: trawl\nCrawl-delay: 3\n", agent: "trawl", want: 3 * time.Second},
		{name: "specific group without delay does not inherit star", robots: "User-agent: *\nCrawl-delay: 9\nDisallow: /x\nUser-agent: trawl\nDisallow: /a\n", agent: "trawl", want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mustParse(t, tt.robots)
			if got := r.CrawlDelay(tt.agent); got != tt.want {
				t.Errorf("Parse(%q).CrawlDelay(%q) = %v, want %v", tt.robots, tt.agent, got, tt.want)
			}
		})
	}
}

func TestSitemaps(t *testing.T) {
	body := "Sitemap: https://h/a.xml\nUser-agent: *\nsitemap: https://h/b.xml # b\nDisallow: /\nSite-map: https://h/a.xml\nSitemap:\nSITEMAP: https://other/c.xml\n"
	r := mustParse(t, body)
	want := []string{"https://h/a.xml", "https://h/b.xml", "https://other/c.xml"}
	got := r.Sitemaps()
	if !slices.Equal(got, want) {
		t.Fatalf("Parse(%q).Sitemaps() = %q, want %q", body, got, want)
	}
	got[0] = "changed"
	if again := r.Sitemaps(); again[0] != want[0] {
		t.Errorf("Sitemaps()[0] = %q after the caller modified an earlier result, want %q", again[0], want[0])
	}
}

func TestLimits(t *testing.T) {
	t.Run("rules beyond MaxRules are ignored", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("User-agent: *\n")
		for i := range MaxRules {
			fmt.Fprintf(&b, "Disallow: /r%d\n", i)
		}
		b.WriteString("Disallow: /last\n")
		r := mustParse(t, b.String())
		if !r.Allowed("x", "/last") {
			t.Errorf("Allowed(%q, %q) = false, want true (rule %d beyond MaxRules)", "x", "/last", MaxRules+1)
		}
		if r.Allowed("x", fmt.Sprintf("/r%d", MaxRules-1)) {
			t.Errorf("Allowed(%q, %q) = true, want false (rule within MaxRules)", "x", fmt.Sprintf("/r%d", MaxRules-1))
		}
	})
	t.Run("long line is cut at MaxLineLength", func(t *testing.T) {
		prefix := "Disallow: /"
		long := strings.Repeat("a", MaxLineLength-len(prefix)) + "ZZZ"
		r := mustParse(t, "User-agent: *\n"+prefix+long+"\nDisallow: /next\n")
		cut := "/" + long[:MaxLineLength-len(prefix)]
		if r.Allowed("x", cut+"b") {
			t.Errorf("Allowed of the cut rule's prefix = true, want false")
		}
		if r.Allowed("x", "/next") {
			t.Errorf("Allowed(%q, %q) = true, want false: the line after a long line is lost", "x", "/next")
		}
	})
	t.Run("user-agent lines beyond MaxUserAgents are ignored", func(t *testing.T) {
		var b strings.Builder
		for i := range MaxUserAgents {
			fmt.Fprintf(&b, "User-agent: bot-%c%c%c\n", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26)
		}
		b.WriteString("Disallow: /a\nUser-agent: trawl\nDisallow: /b\n")
		r := mustParse(t, b.String())
		if !r.Allowed("trawl", "/b") {
			t.Errorf("Allowed(%q, %q) = false, want true (user-agent line beyond MaxUserAgents)", "trawl", "/b")
		}
		if r.Allowed("bot-aaa", "/a") {
			t.Errorf("Allowed(%q, %q) = true, want false", "bot-aaa", "/a")
		}
		if !r.Allowed("bot-aaa", "/b") {
			t.Errorf("Allowed(%q, %q) = false, want true: the ignored user-agent line still starts a new group", "bot-aaa", "/b")
		}
	})
}

// refMatch is the dynamic-programming matcher of Google's reference parser,
// quadratic but obviously right, for the differential test.
func refMatch(path, pattern string) bool {
	pos := []int{0}
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		if c == '$' && i == len(pattern)-1 {
			return pos[len(pos)-1] == len(path)
		}
		if c == '*' {
			next := []int{}
			for p := pos[0]; p <= len(path); p++ {
				next = append(next, p)
			}
			pos = next
			continue
		}
		var next []int
		for _, p := range pos {
			if p < len(path) && path[p] == c {
				next = append(next, p+1)
			}
		}
		if len(next) == 0 {
			return false
		}
		pos = next
	}
	return true
}

func TestMatchAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "ab/*$"
	gen := func(n int, alpha string) string {
		b := make([]byte, rng.IntN(n))
		for i := range b {
			b[i] = alpha[rng.IntN(len(alpha))]
		}
		return string(b)
	}
	for range 20000 {
		pat := gen(8, alphabet)
		path := gen(10, "ab/$")
		r := compile(pat, false)
		if got, want := r.match(path), refMatch(path, pat); got != want {
			t.Fatalf("match(path %q, pattern %q) = %v, want %v", path, pat, got, want)
		}
	}
}

func TestPathologicalPattern(t *testing.T) {
	// 2,000 stars and a path of 100,000 bytes: a backtracking matcher would
	// never finish; the segment matcher does one pass.
	pattern := "/" + strings.Repeat("*a", 2000) + "*b$"
	path := "/" + strings.Repeat("a", 100_000)
	r := mustParse(t, "User-agent: *\nDisallow: "+pattern+"\n")
	if !r.Allowed("x", path) {
		t.Errorf("Allowed(pathological, no b) = false, want true")
	}
	if r.Allowed("x", path+"b") {
		t.Errorf("Allowed(pathological, ends in b) = true, want false")
	}
	if r.Allowed("x", path+"/b") {
		t.Errorf("Allowed(pathological, ends in /b) = true, want false")
	}
}

func TestAllowedDoesNotAllocate(t *testing.T) {
	r := mustParse(t, "User-agent: trawl\nDisallow: /private\nAllow: /*.html$\nUser-agent: *\nDisallow: /\n")
	allocs := testing.AllocsPerRun(100, func() {
		if r.Allowed("Trawl/1.0 (+https://example.com/bot)", "https://example.com/private/x.html") != true {
			panic("unexpected verdict")
		}
	})
	if allocs != 0 {
		t.Errorf("Allowed allocates %v times per call, want 0", allocs)
	}
}

// TestManyAgents checks the agent lookup (a sorted list searched by binary
// search) on a file naming many agents, in no particular order, one of them
// in two groups.
func TestManyAgents(t *testing.T) {
	name := func(i int) string { return "Bot" + string(rune('a'+i/26)) + string(rune('a'+i%26)) }
	var b strings.Builder
	const n = 60
	for i := range n {
		j := (i * 37) % n
		fmt.Fprintf(&b, "User-agent: %s\nDisallow: /only-%d\n\n", name(j), j)
	}
	b.WriteString("User-agent: botah\nDisallow: /also-7\n\nUser-agent: *\nDisallow: /\n")
	r, err := Parse([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		agent := strings.ToLower(name(i)) + "/1.0"
		if r.Allowed(agent, fmt.Sprintf("/only-%d", i)) || !r.Allowed(agent, fmt.Sprintf("/only-%d", (i+1)%n)) {
			t.Errorf("%s: not given its own group", agent)
		}
	}
	if name(7) != "Botah" || r.Allowed("BOTAH", "/also-7") || r.Allowed("botah", "/only-7") {
		t.Error("botah: its two groups are not merged")
	}
	for _, agent := range []string{"bot", "botaaa", "bota", "zzz", "a", "botcz"} {
		if r.Allowed(agent, "/x") {
			t.Errorf("%s: not given the * group", agent)
		}
	}
}
