package extract

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/internal/shareddata"
)

// tokenCase is HTML whose tokens have tripped tokenizers: every state of
// the tokenizer, and the ends of the input inside each.
var tokenCases = []string{
	``, `x`, `<`, `<<`, `<a`, `<a `, `<a>`, `<a/>`, `<br/>`, `<p a=/>`, `<p a=1 a=/>`, `<p A=1 a=/>`,
	`<a href="x/">`, `<a href=x/>`, `<a "b=c">`, `<a =b>`, `<a b =c>`, `<a b= c>`, `<a b=>`, `<a b='x>'>`,
	`<a b="x`, `<a b=x`, `<a b`, `<a b=`, `<a / b>`, `<a// b=1/ >`, `<A HREF=X>`, "<a\nhref\t=\f'x'\r>",
	`</`, `</>`, `</ a>`, `</a`, `</a b="c>">`, `</a/>`, `</1>`, `</ x`,
	`<!`, `<!>`, `<!-`, `<!--`, `<!-->`, `<!--->`, `<!---->`, `<!-- x -->`, `<!-- x --!>`, `<!-- x --!-->`,
	`<!-- x --! y -->`, `<!-- x -`, `<!-- x --`, `<!-- x --!`, `<!--a-->b`, `<!x>`, `<!x`, `<!D`, `<!DOCTYP`,
	`<!DOCTYPE`, `<!DOCTYPE `, `<!doctype html>`, `<!DocType html`, `<!DOCTYPEhtml>`, `<![CDATA[x]]>`, `<?xml x?>`, `<?x`,
	`a<b`, `a < b`, `a<1`, `a<=b`, `a<!b>c`, "a\r\nb\rc", "a\x00b", `a &amp; b &lt; &copy; &#65; &#x41; &bogus;`,
	`<script></script>`, `<script>a</script>`, `<script>a</SCRIPT >b`, `<script>a</scrip</script>`, `<script>a</script`,
	`<script>a</scriptx></script>`, `<script><!--</script>-->`, `<script><!-- <script> </script> --></script>`,
	`<script><!-- <script> </script> </script> -->x</script>`, `<script><!-- a --></script>`, `<script><!-></script>`,
	`<script><!--<</script>`, `<script><!--<x</script>`, `<script><!--<scriptx</script>`, `<script><!--<script </script>`,
	`<script><!--<script>--></script>`, `<script><!--<script>-<</script>`, `<script><!--<script></scri</script>-->`,
	`<script><!--<script></script></script>`, `<script><!--<script>--!></script>`, `<script>a<`, `<script>a</`, `<script><!`,
	`<script><!-`, `<script><!--`, `<script><!--<`, `<script><!--<s`, `<script><!--<script>`, `<script><!--<script><`,
	`<style>a</style>b`, `<style>a</sty</style>`, `<style>a</style`, `<title>a &amp; b</title>`, "<title>a\r\nb</title>",
	`<textarea>a<b></textarea>`, `<textarea>&lt;x</textarea>`, `<xmp><a></xmp>`, `<iframe><a></iframe>`, `<noscript><a href=/n></noscript>`,
	`<noembed>x</noembed>`, `<noframes>x</noframes>`, `<plaintext>a</plaintext><b>`, `<script/>x</script>`, `<title/>x</title>`,
	"<script>\x00</script>", "<title>\x00&amp;</title>", "<!-- \x00 -->", "<!DOCTYPE \x00>", `<svg><script>a<b></script></svg>`,
	`<svg><title><a href=/x>t</a></title></svg><title><b></title>`, `<math><style>x<i>y</i></style></math>`,
	"<a href='\x00'>", `<a ==/>`, `<a b=1 ==/>`, `<script><!--<1<script></script>x</script>`, `<script><!--<<script></script>x</script>`, `<a b="&amp;" c='&quot;&notin;&notit;'>`, `<img src=a.png srcset="b.png 1x, c.png 2x">`,
}

// tokens lists the tokens of src as an x/net/html Tokenizer (ref) or the
// Extractor's tokenizer reads them: type, raw bytes, Text and TagAttr. In
// SVG and MathML (a start tag of either until its end tag) it calls
// NextIsNotRawText after each start tag, as the Extractor does.
func tokens(src []byte, ref bool, r io.Reader, max int) []string {
	return tokensOf(src, ref, r, max, true)
}

// tokensOf is tokens; allAttrs false reads TagAttr only for the tags
// whose attributes the Extractor cannot decode itself (those holding '&',
// CR or NUL), and quotes nothing, which makes it cheap enough for corpora.
func tokensOf(src []byte, ref bool, r io.Reader, max int, allAttrs bool) []string {
	type tz interface {
		Next() html.TokenType
		Raw() []byte
		Text() []byte
		TagAttr() ([]byte, []byte, bool)
		NextIsNotRawText()
		Err() error
	}
	var z tz
	if ref {
		z = html.NewTokenizer(bytes.NewReader(src))
	} else {
		var t tokenizer
		if r == nil {
			r = bytes.NewReader(src)
		}
		t.reset(r, max)
		z = &t
	}
	var out []string
	foreign := 0
	for range 1 << 20 {
		tt := z.Next()
		if tt == html.ErrorToken {
			if err := z.Err(); err != io.EOF {
				out = append(out, fmt.Sprintf("error %v", err))
			}
			return out
		}
		raw := string(z.Raw())
		var s string
		if allAttrs {
			s = fmt.Sprintf("%v %q", tt, raw)
		} else {
			s = tt.String() + " " + raw
		}
		switch tt {
		case html.TextToken, html.CommentToken, html.DoctypeToken:
			if allAttrs {
				s += fmt.Sprintf(" text %q", z.Text())
			} else {
				s += " text " + string(z.Text())
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			for allAttrs || strings.ContainsAny(raw, "&\r\x00") {
				k, v, more := z.TagAttr()
				s += fmt.Sprintf(" %q=%q", k, v)
				if !more {
					break
				}
			}
			name := strings.ToLower(strings.TrimLeft(strings.FieldsFunc(raw, func(r rune) bool {
				return r == ' ' || r == '>' || r == '/' || r == '\n' || r == '\t' || r == '\r' || r == '\f'
			})[0], "<"))
			if tt == html.StartTagToken && (name == "svg" || name == "math") {
				foreign++
			}
			if foreign > 0 {
				z.NextIsNotRawText()
			}
		case html.EndTagToken:
			if l := strings.ToLower(raw); foreign > 0 && (strings.HasPrefix(l, "</svg") || strings.HasPrefix(l, "</math")) {
				foreign--
			}
		}
		out = append(out, s)
	}
	panic("tokens: no end")
}

// compareTokens fails t where the two tokenizers differ on src, read
// whole, a byte at a time and in halves.
func compareTokens(t *testing.T, name string, src []byte) {
	t.Helper()
	compareTokensOf(t, name, src, true)
}

func compareTokensOf(t *testing.T, name string, src []byte, allAttrs bool) {
	t.Helper()
	compareTokensReaders(t, name, src, allAttrs, true)
}

func compareTokensReaders(t *testing.T, name string, src []byte, allAttrs, chunked bool) {
	t.Helper()
	want := tokensOf(bytes.Clone(src), true, nil, 1<<30, allAttrs)
	readers := map[string]func() io.Reader{
		"whole":    func() io.Reader { return bytes.NewReader(bytes.Clone(src)) },
		"one byte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(bytes.Clone(src))) },
		"halves":   func() io.Reader { return iotest.HalfReader(bytes.NewReader(bytes.Clone(src))) },
	}
	for rn, r := range readers {
		if rn != "whole" && !chunked {
			continue
		}
		got := tokensOf(nil, false, r(), 1<<30, allAttrs)
		if d := firstDiff(want, got); d >= 0 {
			t.Errorf("%s (%s): token %d differs:\n x/net/html %s\n tokenizer  %s", name, rn, d, at(want, d), at(got, d))
			return
		}
	}
}

func firstDiff(a, b []string) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

func at(s []string, i int) string {
	if i < len(s) {
		if len(s[i]) > 300 {
			return s[i][:300] + "…"
		}
		return s[i]
	}
	return "(none)"
}

func TestTokenizerCases(t *testing.T) {
	for _, c := range tokenCases {
		compareTokens(t, fmt.Sprintf("%q", c), []byte(c))
		// Each case also in the middle of a page and followed by markup.
		compareTokens(t, fmt.Sprintf("%q in a page", c), []byte("<p>a"+c+"<a href=/z>z</a> <!-- c -->"))
	}
}

// TestTokenizerCorpora compares the tokenizers on real pages of the shared
// content-evaluation data (1,379 + 945 pages from many sites and
// generators) and on the fuzz corpus: by default every eighth page read
// whole and every fortieth also a byte at a time and in halves;
// with TRAWL_TOKENIZER_ALL=1 every page all three ways (a minute
// without the race detector).
func TestTokenizerCorpora(t *testing.T) {
	all := os.Getenv("TRAWL_TOKENIZER_ALL") != ""
	n := 0
	for _, set := range []string{"content-eval", "content-eval-snippets"} {
		dir := filepath.Join(shareddata.Dir(t, set), "pages")
		files, err := filepath.Glob(filepath.Join(dir, "*.html*"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no pages (%v)", dir, err)
		}
		if testing.Short() {
			files = files[:50]
		}
		for i, f := range files {
			if !all && i%8 != 0 {
				continue
			}
			compareTokensReaders(t, f, readPage(t, f), false, all || i%40 == 0)
			n++
		}
	}
	fuzz, _ := filepath.Glob("testdata/fuzz/FuzzLinks/*")
	for _, f := range fuzz {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if s, ok := fuzzString(b); ok {
			compareTokens(t, f, []byte(s))
			n++
		}
	}
	t.Logf("%d documents tokenized alike", n)
}

// fuzzString reads the string of a one-string fuzz corpus file.
func fuzzString(b []byte) (string, bool) {
	lines := strings.SplitN(string(b), "\n", 3)
	if len(lines) < 2 || !strings.HasPrefix(lines[1], "string(") {
		return "", false
	}
	var s string
	if _, err := fmt.Sscanf(strings.TrimSuffix(strings.TrimPrefix(lines[1], "string("), ")"), "%q", &s); err != nil {
		return "", false
	}
	return s, true
}

func readPage(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(name, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// FuzzTokenizer: on any input, the tokenizer reads the tokens of
// x/net/html's.
func FuzzTokenizer(f *testing.F) {
	for _, c := range tokenCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		compareTokens(t, "input", []byte(s))
	})
}

// TestTokenizerTooLong: a token longer than the bound ends the stream with
// errTokenTooLong, after the text, raw text or comment cut at the bound;
// the tokens before it are whole.
func TestTokenizerTooLong(t *testing.T) {
	long := strings.Repeat("x", 100)
	for _, c := range []struct {
		src   string
		want  []string // the tokens, before the error if any
		noErr bool
	}{
		{"<p>" + long, []string{`StartTag "<p>"`, `Text "` + long[:40] + `"`}, false},
		{"<p><!--" + long + "-->", []string{`StartTag "<p>"`, `Comment "<!--` + long[:36] + `"`}, false},
		{"<p><script>" + long + "</script>", []string{`StartTag "<p>"`, `StartTag "<script>"`, `Text "` + long[:40] + `"`}, false},
		{"<p><a href=" + long + ">", []string{`StartTag "<p>"`}, false},
		// The byte after '<' counts: 39 bytes of text and the '<' fill
		// the bound, and the tokenizer must see one more to end the text.
		{"<p>" + long[:39] + "<b>", []string{`StartTag "<p>"`, `Text "` + long[:39] + `<"`}, false},
		{"<p>" + long[:38] + "<b>", []string{`StartTag "<p>"`, `Text "` + long[:38] + `"`, `StartTag "<b>"`}, true},
	} {
		for _, r := range []io.Reader{strings.NewReader(c.src), iotest.OneByteReader(strings.NewReader(c.src))} {
			got := tokens(nil, false, r, 40)
			if hasErr := len(got) > 0 && strings.HasPrefix(got[len(got)-1], "error "); hasErr == c.noErr {
				t.Errorf("%q: tokens %q; want an error at the end: %v", c.src, got, !c.noErr)
				continue
			}
			var heads []string
			for _, g := range got {
				if strings.HasPrefix(g, "error") {
					if g != "error "+errTokenTooLong.Error() {
						t.Errorf("%q: %s, want %v", c.src, g, errTokenTooLong)
					}
					continue
				}
				heads = append(heads, strings.SplitN(g, " text ", 2)[0])
				heads[len(heads)-1] = strings.SplitN(heads[len(heads)-1], ` ""=`, 2)[0]
			}
			if strings.Join(heads, "|") != strings.Join(c.want, "|") {
				t.Errorf("%q: tokens\n %q\nwant\n %q", c.src, heads, c.want)
			}
		}
	}
}

// TestTokenizerManyAttributes: a start tag of many attributes (unique
// names, then each again, then a self-closing end whose verdict depends
// on which were kept) reads as x/net/html reads it, and in time linear in
// its length (a quadratic scan of 200,000 names would not end within the
// test binary's timeout).
func TestTokenizerManyAttributes(t *testing.T) {
	var b strings.Builder
	b.WriteString("<p>x<svg ")
	const n = 100000
	for i := range n {
		fmt.Fprintf(&b, "a%d=%d ", i, i)
	}
	for i := range n {
		fmt.Fprintf(&b, "A%d=/ ", i)
	}
	b.WriteString("b=/>y<a c=1 C=/>z")
	src := []byte(b.String())
	want := tokensOf(bytes.Clone(src), true, nil, 1<<30, false)
	got := tokensOf(nil, false, bytes.NewReader(src), 1<<30, false)
	if d := firstDiff(want, got); d >= 0 {
		t.Fatalf("token %d differs:\n x/net/html %s\n tokenizer  %s", d, at(want, d), at(got, d))
	}
	// The svg's last kept attribute is b, whose value "/" ends it: not
	// self-closing; the a's is c=1 (C repeats it): self-closing.
	if len(got) != 6 || !strings.HasPrefix(got[2], "StartTag <svg") || !strings.HasPrefix(got[4], "SelfClosingTag <a") {
		for i := range got {
			got[i] = at(got, i)
		}
		t.Errorf("tokens %q", got)
	}
}
