package maintext

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// contentVocabulary holds the words synthetic pages are made of.
const contentVocabulary = `the crawler fetched every page of the site while the
frontier kept one queue per host and the scheduler waited between requests so that no
server was overloaded and robots rules were obeyed before each fetch of a new document`

// contentSentence returns a deterministic sentence of n words.
func contentSentence(r *rand.Rand, n int) string {
	contentWords := strings.Fields(contentVocabulary)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = contentWords[r.IntN(len(contentWords))]
	}
	return strings.ToUpper(ws[0][:1]) + strings.Join(ws, " ")[1:] + "."
}

// contentPage returns a synthetic news page with navigation, a sidebar, an
// article of the given number of paragraphs, comments and a footer, and
// the article's paragraphs.
func contentPage(paragraphs int) (page string, article []string) {
	r := rand.New(rand.NewPCG(1, uint64(paragraphs)))
	var sb strings.Builder
	sb.WriteString(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>Crawler news: Polite crawling at scale</title>
<style>body{font-family:serif}</style><script>var analytics = {id: "UA-1"};</script></head><body>
<div id="header"><a href="/"><img src="/logo.png" alt="Crawler news"></a><ul class="menu">`)
	for i := range 12 {
		fmt.Fprintf(&sb, `<li><a href="/section/%d">Section %d</a></li>`, i, i)
	}
	sb.WriteString(`</ul></div><div id="wrapper"><div class="main"><div class="post">
<h1>Polite crawling at scale</h1><p class="byline">By A. Writer, 1 July 2026</p>`)
	for i := range paragraphs {
		p := contentSentence(r, 12+r.IntN(20)) + " " + contentSentence(r, 8+r.IntN(20))
		article = append(article, p)
		if i == paragraphs/2 {
			sb.WriteString(`<div class="ad-box"><a href="/ad">Buy the best crawler now</a></div>`)
		}
		fmt.Fprintf(&sb, "<p>%s</p>\n", p)
	}
	sb.WriteString(`<div class="share"><a href="#">Share</a> <a href="#">Tweet</a> <a href="#">Email</a></div>
</div><div id="comments"><h3>3 comments</h3>`)
	for range 3 {
		fmt.Fprintf(&sb, `<div class="comment"><p>%s</p><a href="#">Reply</a></div>`, contentSentence(r, 15))
	}
	sb.WriteString(`<form action="/comment"><textarea name="c"></textarea><input type="submit" value="Post"></form></div></div>
<div class="sidebar"><h3>Most read</h3><ul>`)
	for i := range 10 {
		fmt.Fprintf(&sb, `<li><a href="/story/%d">%s</a></li>`, i, contentSentence(r, 7))
	}
	sb.WriteString(`</ul></div></div><footer><p>Copyright 2026 Crawler news. All rights reserved.</p>
<a href="/about">About</a> <a href="/privacy">Privacy</a></footer><!-- generated --></body></html>`)
	return sb.String(), article
}

func TestMainTextSyntheticPage(t *testing.T) {
	page, article := contentPage(8)
	got, err := Extract(strings.NewReader(page))
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	for _, p := range article {
		if !strings.Contains(got, p) {
			t.Errorf("Extract missing paragraph %q\ngot:\n%s", p, got)
		}
	}
	if !strings.HasPrefix(got, "Polite crawling at scale\n\nBy A. Writer, 1 July 2026\n\n") {
		t.Errorf("Extract does not start with headline and byline:\n%s", got)
	}
	for _, noise := range []string{"Section 3", "Buy the best", "Tweet", "comments", "Reply", "Most read", "Copyright", "Privacy", "analytics", "font-family"} {
		if strings.Contains(got, noise) {
			t.Errorf("Extract kept boilerplate %q:\n%s", noise, got)
		}
	}
}

func TestMainText(t *testing.T) {
	long := "Die Suchmaschine lädt jede Seite einmal herunter, beachtet die Regeln der robots-Datei und wartet zwischen zwei Anfragen an denselben Server. "
	tests := []struct {
		name      string
		html      string
		want      string
		wantNot   []string
		wantExact bool
	}{
		{name: "empty", html: "", want: "", wantExact: true},
		{name: "no text", html: "<html><body><img src=x><script>var a = 1;</script></body></html>", want: "", wantExact: true},
		{name: "single paragraph", html: "<p>Hello,   crawling\n world.</p>", want: "Hello, crawling world.", wantExact: true},
		{name: "br is a line break", html: "<p>" + long + "<br>Zweite Zeile hier.</p>", want: strings.TrimSpace(long) + "\nZweite Zeile hier.", wantExact: true},
		{
			name: "non-English article wins over link lists",
			html: `<body><ul><li><a href=1>Startseite</a></li><li><a href=2>Nachrichten</a></li><li><a href=3>Sport</a></li></ul>
<div><p>` + long + `</p><p>` + long + `</p></div><nav>Menü Links Hilfe</nav></body>`,
			want:    strings.TrimSpace(long),
			wantNot: []string{"Startseite", "Menü"},
		},
		{
			name:    "CJK article",
			html:    `<body><div><a href=/>首页</a> <a href=/n>新闻</a></div><article><h1>网络爬虫</h1><p>网络爬虫是一种按照一定的规则，自动地抓取万维网信息的程序或者脚本。它们被广泛用于搜索引擎。</p></article></body>`,
			want:    "网络爬虫\n\n网络爬虫是一种按照一定的规则",
			wantNot: []string{"首页", "新闻"},
		},
		{
			name:    "hidden and script content removed",
			html:    `<body><div style="display: none">Hidden teaser text. With sentences.</div><p>` + long + `<script>document.write("injected")</script></p><div hidden>also hidden</div></body>`,
			want:    strings.TrimSpace(long),
			wantNot: []string{"Hidden teaser", "injected", "also hidden"},
		},
		{
			name:    "comments section removed",
			html:    `<body><div class="entry"><p>` + long + `</p><p>` + long + `</p></div><div id="comments"><p>` + strings.Repeat("Toller Artikel, danke schön. ", 10) + `</p></div></body>`,
			want:    strings.TrimSpace(long),
			wantNot: []string{"Toller Artikel"},
		},
		{
			name: "headline matched from title",
			html: `<html><head><title>Robots and rate limits | Example site</title></head><body>
<div class="top"><h2>Example site</h2></div><h1><a href="/p">Robots and rate limits</a></h1><div class="text"><p>` + long + `</p><p>` + long + `</p></div></body></html>`,
			want:    "Robots and rate limits\n\n" + strings.TrimSpace(long),
			wantNot: []string{"Example site"},
		},
		{name: "malformed", html: "<p>Unclosed <b>bold <i>text. More text here.</p></div></span><td>cell", want: "Unclosed bold text. More text here."},
		{name: "invalid UTF-8", html: "<p>caf\xe9 au lait. Mit Milch.</p>", want: "caf\uFFFD au lait. Mit Milch.", wantExact: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Extract(strings.NewReader(tt.html))
			if err != nil {
				t.Fatalf("Extract(%q): %v", tt.html, err)
			}
			if tt.wantExact && got != tt.want || !tt.wantExact && !strings.Contains(got, tt.want) {
				t.Errorf("Extract(%q) = %q, want %q (exact: %v)", tt.html, got, tt.want, tt.wantExact)
			}
			for _, n := range tt.wantNot {
				if strings.Contains(got, n) {
					t.Errorf("Extract(%q) = %q, should not contain %q", tt.html, got, n)
				}
			}
		})
	}
}

func TestMainTextNode(t *testing.T) {
	page, _ := contentPage(5)
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Extract(strings.NewReader(page))
	if got := ExtractNode(doc); got != want {
		t.Errorf("ExtractNode = %q, want Extract's %q", got, want)
	}
	if got := ExtractNode(nil); got != "" {
		t.Errorf("ExtractNode(nil) = %q, want empty", got)
	}
}

// contentErrReader fails after returning its data.
type contentErrReader struct{ data string }

func (e *contentErrReader) Read(p []byte) (int, error) {
	if e.data == "" {
		return 0, fmt.Errorf("disk on fire")
	}
	n := copy(p, e.data)
	e.data = e.data[n:]
	return n, nil
}

func TestMainTextReadError(t *testing.T) {
	if _, err := Extract(&contentErrReader{data: "<p>partial"}); err == nil || !strings.HasPrefix(err.Error(), "maintext: ") {
		t.Errorf("Extract(failing reader) error = %v, want an error prefixed %q", err, "maintext: ")
	}
	if _, err := BTE(&contentErrReader{data: "<p>partial"}); err == nil || !strings.HasPrefix(err.Error(), "maintext: ") {
		t.Errorf("BTE(failing reader) error = %v, want an error prefixed %q", err, "maintext: ")
	}
}

func TestMainTextDeepNesting(t *testing.T) {
	const depth = 5000
	page := strings.Repeat("<div>", depth) + "<p>Deep text. Very deep.</p>" + strings.Repeat("</div>", depth) +
		"<p>Shallow text that is long enough to be chosen as the main content of this page.</p>"
	got, err := Extract(strings.NewReader(page))
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	if !strings.Contains(got, "Shallow text") {
		t.Errorf("Extract(%d nested divs) = %q, want the shallow paragraph", depth, got)
	}
	// Below the parser's own limit, the walker's depth cap applies.
	doc, err := html.Parse(strings.NewReader(strings.Repeat("<span>", 300) + "<p>Deep text.</p>"))
	if err != nil {
		t.Fatal(err)
	}
	w := mcSegment(doc)
	for _, b := range w.blocks {
		if strings.Contains(string(w.buf[b.start:b.end]), "Deep text") {
			t.Errorf("segmentation kept text nested deeper than %d elements", mcMaxDepth)
		}
	}
}

// bteBrute is the quadratic search the paper describes.
func bteBrute(isTag []bool) (start, end, score int) {
	score = -1
	for i := range isTag {
		for j := i; j < len(isTag); j++ {
			s := 0
			for k, tag := range isTag {
				if k < i || k > j {
					if tag {
						s++
					}
				} else if !tag {
					s++
				}
			}
			if s > score {
				start, end, score = i, j+1, s
			}
		}
	}
	return start, end, score
}

// bteScore evaluates the objective for window [start, end).
func bteScore(isTag []bool, start, end int) int {
	s := 0
	for k, tag := range isTag {
		if (k < start || k >= end) == tag {
			s++
		}
	}
	return s
}

func TestBTEWindow(t *testing.T) {
	tests := []struct {
		name       string
		tokens     string // t = tag, w = word
		start, end int
	}{
		{name: "empty", tokens: "", start: 0, end: 0},
		{name: "one word", tokens: "w", start: 0, end: 1},
		{name: "one tag", tokens: "t", start: 0, end: 1},
		{name: "text between markup", tokens: "tttwwwwttt", start: 3, end: 7},
		{name: "isolated tag inside text", tokens: "ttwwwtwwwtt", start: 2, end: 9},
		{name: "two text regions, larger wins", tokens: "ttwwttttwwwwtt", start: 8, end: 12},
		{name: "all words", tokens: "wwww", start: 0, end: 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isTag := make([]bool, len(tt.tokens))
			for i, c := range tt.tokens {
				isTag[i] = c == 't'
			}
			if s, e := BTEWindow(isTag); s != tt.start || e != tt.end {
				t.Errorf("BTEWindow(%s) = [%d, %d), want [%d, %d)", tt.tokens, s, e, tt.start, tt.end)
			}
		})
	}
}

// TestBTEWindowOptimal checks the linear algorithm against the quadratic
// search on random sequences.
func TestBTEWindowOptimal(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for n := 1; n < 300; n++ {
		isTag := make([]bool, 1+r.IntN(40))
		for i := range isTag {
			isTag[i] = r.IntN(3) == 0 || (i/5)%3 == 0
		}
		bs, be, want := bteBrute(isTag)
		s, e := BTEWindow(isTag)
		if got := bteScore(isTag, s, e); got != want || s != bs || e != be {
			t.Fatalf("BTEWindow(%v) = [%d, %d) scoring %d, want [%d, %d) scoring %d", isTag, s, e, got, bs, be, want)
		}
	}
}

func TestBTE(t *testing.T) {
	page := `<html><head><title>t</title><script>var x = "not text";</script></head><body>
<div><a href=1>Home</a></div><div><a href=2>News</a></div><div><a href=3>Sport</a></div>
<p>The main text of the page is here, in one long paragraph with many words and no tags at all inside.</p>
<p>Second paragraph continues the story.</p>
<div><a href=4>About</a></div><div><a href=5>Contact</a></div><div><a href=6>Jobs</a></div></body></html>`
	got, err := BTE(strings.NewReader(page))
	if err != nil {
		t.Fatalf("BTE: %v", err)
	}
	want := "The main text of the page is here, in one long paragraph with many words and no tags at all inside.\n\nSecond paragraph continues the story."
	if got != want {
		t.Errorf("BTE = %q, want %q", got, want)
	}
	if got, _ := BTE(strings.NewReader("")); got != "" {
		t.Errorf("BTE(\"\") = %q, want empty", got)
	}
}

func FuzzMainText(f *testing.F) {
	page, _ := contentPage(3)
	for _, s := range []string{
		"", "<p>x</p>", page, "<div><p>a<br><br><br>b</div>", "<table><tr><td>a<td>b</table>",
		"\xff\xfe<p>\x00</p>", "<svg><p>text</p></svg>", "<form><div>" + strings.Repeat("<p>word word. ", 20) + "</form>",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := Extract(strings.NewReader(in))
		if err != nil {
			t.Fatalf("Extract(%q): %v", in, err)
		}
		if !utf8.ValidString(got) {
			t.Errorf("Extract(%q) = %q, not valid UTF-8", in, got)
		}
		// Every output byte comes from the input, except U+FFFD for an
		// invalid byte (3 for 1) and entity expansions (at most 3 bytes
		// for an entity of 2 or more bytes).
		if len(got) > 3*len(in) {
			t.Errorf("Extract(%q) returned %d bytes for %d input bytes", in, len(got), len(in))
		}
		if again, _ := Extract(strings.NewReader(in)); again != got {
			t.Errorf("Extract(%q) not deterministic: %q then %q", in, got, again)
		}
		md, err := ExtractMarkdown(strings.NewReader(in))
		if err != nil {
			t.Fatalf("ExtractMarkdown(%q): %v", in, err)
		}
		if !utf8.ValidString(md) || (md == "") != (got == "") {
			t.Errorf("ExtractMarkdown(%q) = %q (Extract %q): invalid UTF-8, or empty when Extract is not or the reverse", in, md, got)
		}
		bte, err := BTE(strings.NewReader(in))
		if err != nil {
			t.Fatalf("BTE(%q): %v", in, err)
		}
		if !utf8.ValidString(bte) || len(bte) > 3*len(in) {
			t.Errorf("BTE(%q) = %q: invalid UTF-8 or too long", in, bte)
		}
	})
}
