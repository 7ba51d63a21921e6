package extract

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/trawl-dev/trawl/internal/htmltext"
)

// tokenizerAttrs returns the attributes of the first start tag in tag as
// the x/net/html tokenizer sees them, undecoded, via Raw spans: the keys
// and values TagAttr would report before unescaping.
func scannerAttrs(tag []byte) (string, bool) {
	z := html.NewTokenizer(bytes.NewReader(tag))
	tt := z.Next()
	if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
		return "", false
	}
	raw := z.Raw()
	var e Extractor
	_, end := e.tagName(raw, 1)
	s := attrScanner{raw: raw, i: end}
	var b strings.Builder
	seen := map[string]bool{}
	for {
		k, v, ok := s.next()
		if !ok {
			break
		}
		kb := bytes.Clone(k)
		lowerASCII(kb) // as the tokenizer does: ASCII only
		lk := string(kb)
		if seen[lk] {
			continue
		}
		seen[lk] = true
		fmt.Fprintf(&b, "%q=%q ", lk, v)
	}
	return b.String(), true
}

func tokenizerAttrs(tag []byte) string {
	z := html.NewTokenizer(bytes.NewReader(tag))
	z.Next()
	var b strings.Builder
	for {
		k, v, more := z.TagAttr()
		if k != nil {
			fmt.Fprintf(&b, "%q=%q ", k, v)
		}
		if !more {
			return b.String()
		}
	}
}

// checkAttrScanner fails if attrScanner and the tokenizer disagree on the
// attributes of tag. Values with bytes that TagAttr would decode are out
// of scope: the Extractor sends those to TagAttr.
func checkAttrScanner(t *testing.T, tag []byte) {
	t.Helper()
	if needsDecode(tag) || bytes.ContainsAny(tag, "\n") {
		return
	}
	got, ok := scannerAttrs(tag)
	if !ok {
		return
	}
	if want := tokenizerAttrs(tag); got != want {
		t.Errorf("attrScanner(%q) = %s, tokenizer %s", tag, got, want)
	}
}

func TestAttrScannerMatchesTokenizer(t *testing.T) {
	for _, tag := range []string{
		`<a href="x">`, `<a href='x' title=y>`, `<a href=x/>`, `<a href = "x" >`, `<a/href=x>`,
		`<a href>`, `<a href=>`, `<a =href=x>`, `<a ==x>`, `<a href="x"title="y">`, `<a href=x rel=a/b>`,
		`<a HREF=X Href=Y>`, `<a href="unterminated>`, `<a   /  / href=y/>`, `<a b c d=e f>`, `<a href=" sp ace ">`,
		`<a x=">"y>`, `<img alt='' src=/i>`, `<a href='x'/>`, `<a h<ref=x>`, `<a "q"=1>`, `<a href=x	rel=y>`,
		`<A\fHREF=x>`, `<a href=x\f>`, `<a href=\fx>`,
	} {
		checkAttrScanner(t, []byte(strings.ReplaceAll(tag, `\f`, "\f")))
	}
}

// TestExtractorAllocs guards the zero-copy tier: over a whole page, a
// reused Extractor allocates nothing, however many links the page has;
// with Options.Speculative too, which finds URLs in the page's text and
// comments and its <base href>. (With x/net/html's Tokenizer, which copies
// every attribute name, it allocated 13 times per link.)
func TestExtractorAllocs(t *testing.T) {
	if testing.CoverMode() != "" || raceEnabled {
		t.Skip("allocation counts differ under -race and -cover")
	}
	for _, spec := range []bool{false, true} {
		for _, n := range []int{10, 1000} {
			var b bytes.Buffer
			b.WriteString(`<html lang=en><head><title>t</title><link rel=canonical href=/c><base href="/b/"></head><body>`)
			for i := range n {
				fmt.Fprintf(&b, `<p>para <a href="/p/%d?x=1&amp;y=2" rel=nofollow title=t>link <b>%d</b></a> <a href=x><img alt=i></a><iframe src=/f></iframe>`, i, i)
				fmt.Fprintf(&b, `<p>see http://t.example/%d.html, and/or not<!-- /old/%d.html and http://t.example/c.html -->`, i, i)
			}
			page := b.Bytes()
			r := bytes.NewReader(page)
			e := NewExtractor(&Options{Speculative: spec})
			links := 0
			run := func() {
				r.Reset(page)
				e.Reset(r)
				links = 0
				for e.Next() {
					links++
				}
			}
			run() // grow buffers
			got := testing.AllocsPerRun(20, run)
			wantLinks := 3*n + 1
			if spec {
				wantLinks += 1 + 3*n // the base, a URL in the text, two in the comment
			}
			if links != wantLinks {
				t.Fatalf("%d links, Speculative %v: Extractor found %d, want %d", n, spec, links, wantLinks)
			}
			if got != 0 {
				t.Errorf("%d links, Speculative %v: Extractor allocates %v per page, want 0", n, spec, got)
			}
		}
	}
}

// TestExtractorAllocsAllKinds is TestExtractorAllocs on a page with every
// reference kind but srcdoc (which starts a tokenizer of its own): queued
// links, srcset, pings, CSS and forms allocate nothing either.
func TestExtractorAllocsAllKinds(t *testing.T) {
	if testing.CoverMode() != "" || raceEnabled {
		t.Skip("allocation counts differ under -race and -cover")
	}
	for _, n := range []int{10, 800} { // 800 × 12 links: under MaxLinks
		var b bytes.Buffer
		b.WriteString(`<html><head><link rel=stylesheet href=/s.css><style>@import "i.css"; p{background:url(/bg.png)}</style></head><body>`)
		for i := range n {
			fmt.Fprintf(&b, `<p style="background:url('/p%d.png')"><img src=/i%d.png srcset="a.png 1x, b.png 2x" alt=x><a href=/a%d ping="/p1 /p2">a</a>`+
				`<form action=/f><button formaction=/b>b</button></form><blockquote cite=/c>q</blockquote><script src=/s.js></script><svg><use href="u.svg#i"/></svg>`, i, i, i)
		}
		page := b.Bytes()
		r := bytes.NewReader(page)
		e := NewExtractor(nil)
		links := 0
		run := func() {
			r.Reset(page)
			e.Reset(r)
			links = 0
			for e.Next() {
				links++
			}
		}
		run() // grow buffers
		got := testing.AllocsPerRun(20, run)
		if links != 12*n+3 {
			t.Fatalf("%d links: Extractor found %d, want %d", n, links, 12*n+3)
		}
		if got != 0 {
			t.Errorf("%d links: Extractor allocates %v per page, want 0", n, got)
		}
	}
}

func TestExtractorReuse(t *testing.T) {
	pages := []string{
		`<title>one</title><a href=/a>A</a><meta name=robots content=noindex><base href=/b/>`,
		`<html lang=fr><a href=/c>C</a><link rel=canonical href=/canon>`,
	}
	e := NewExtractor(nil)
	for round := range 2 {
		for _, p := range pages {
			e.Reset(strings.NewReader(p))
			var got []string
			for e.Next() {
				l := e.Link()
				got = append(got, fmt.Sprintf("%s %s %s", l.Tag, l.Href, l.Text))
			}
			base, _ := e.BaseHref()
			canon, _ := e.CanonicalHref()
			summary := fmt.Sprintf("%q title=%q robots=%+v base=%q canon=%q lang=%q", got, e.Title(), e.Robots(), base, canon, e.Lang())

			fresh := NewExtractor(nil)
			fresh.Reset(strings.NewReader(p))
			var want []string
			for fresh.Next() {
				l := fresh.Link()
				want = append(want, fmt.Sprintf("%s %s %s", l.Tag, l.Href, l.Text))
			}
			base, _ = fresh.BaseHref()
			canon, _ = fresh.CanonicalHref()
			wantSummary := fmt.Sprintf("%q title=%q robots=%+v base=%q canon=%q lang=%q", want, fresh.Title(), fresh.Robots(), base, canon, fresh.Lang())
			if summary != wantSummary {
				t.Errorf("round %d: reused Extractor on %q: %s, fresh: %s", round, p, summary, wantSummary)
			}
		}
	}
}

// repeatReader yields prefix, then unit n times (forever if n < 0), then
// suffix, filling each Read like a network body reader would.
type repeatReader struct {
	prefix, unit, suffix []byte
	n                    int
	buf                  []byte
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(r.buf) == 0 {
			switch {
			case r.prefix != nil:
				r.buf, r.prefix = r.prefix, nil
			case r.n != 0:
				r.buf = r.unit
				r.n--
			case r.suffix != nil:
				r.buf, r.suffix = r.suffix, nil
			default:
				if n == 0 {
					return 0, io.EOF
				}
				return n, nil
			}
		}
		k := copy(p[n:], r.buf)
		r.buf = r.buf[k:]
		n += k
	}
	return n, nil
}

// TestHostilePages checks that bounds hold on pages built to exhaust
// memory: the output is capped, Truncated is set, and the scan ends even
// when the input never does.
func TestHostilePages(t *testing.T) {
	tests := []struct {
		name      string
		r         func() io.Reader
		opts      *Options
		maxLinks  int
		wantLinks int
		slow      bool // skipped under -race, where it takes seconds
	}{
		{name: "1e6 links", r: func() io.Reader {
			return &repeatReader{prefix: []byte("<html><body>"), unit: []byte(`<a href="/l">x</a>`), n: 1_000_000, suffix: []byte("</body></html>")}
		}, maxLinks: DefaultMaxLinks, wantLinks: DefaultMaxLinks, slow: true},
		{name: "endless links, small MaxLinks", r: func() io.Reader {
			return &repeatReader{unit: []byte(`<a href=/l>x</a><area href=/a>`), n: -1}
		}, opts: &Options{MaxLinks: 100, MaxTokens: 100_000}, maxLinks: 100, wantLinks: 100},
		{name: "endless text", r: func() io.Reader {
			return &repeatReader{prefix: []byte("<p>"), unit: []byte("lorem ipsum "), n: -1}
		}, opts: &Options{MaxTokenLen: 1 << 20}, maxLinks: DefaultMaxLinks},
		{name: "endless attribute", r: func() io.Reader {
			return &repeatReader{prefix: []byte(`<a href="/x`), unit: []byte("xxxxxxxx"), n: -1}
		}, opts: &Options{MaxTokenLen: 1 << 20}},
		{name: "endless anchor text", r: func() io.Reader {
			return &repeatReader{prefix: []byte(`<a href="/x">`), unit: []byte("word <b>bold</b> "), n: -1}
		}, opts: &Options{MaxTokens: 200_000}, wantLinks: 1},
		{name: "endless script", r: func() io.Reader {
			return &repeatReader{prefix: []byte(`<a href=/before>b</a><script>`), unit: []byte("var x = 1;"), n: -1}
		}, opts: &Options{MaxTokenLen: 1 << 20}, wantLinks: 1},
		{name: "endless nesting", r: func() io.Reader {
			return &repeatReader{unit: []byte(`<div><svg><template><a href=/n>`), n: -1}
		}, opts: &Options{MaxTokens: 100_000, MaxLinks: 50}, wantLinks: 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.slow && raceEnabled {
				t.Skip("bounds test too slow under -race; run without -race")
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			doc, err := Links(tt.r(), mustParse(t, testPageURL), tt.opts)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatalf("Links: %v", err)
			}
			if !doc.Truncated {
				t.Errorf("Truncated = false, want true")
			}
			if len(doc.Links) != tt.wantLinks {
				t.Errorf("len(Links) = %d, want %d", len(doc.Links), tt.wantLinks)
			}
			if len(doc.Text) > DefaultMaxTextLen {
				t.Errorf("len(Text) = %d, over DefaultMaxTextLen", len(doc.Text))
			}
			for _, l := range doc.Links {
				if len(l.Text) > DefaultMaxLinkTextLen {
					t.Errorf("len(Link.Text) = %d, over DefaultMaxLinkTextLen", len(l.Text))
				}
			}
			// The tokenizer buffer (2 × MaxTokenLen at most) dominates.
			if heap := after.HeapInuse; heap > before.HeapInuse+64<<20 {
				t.Errorf("heap grew by %d MB, want < 64 MB", (heap-before.HeapInuse)>>20)
			}
		})
	}
}

func TestReadError(t *testing.T) {
	errBoom := fmt.Errorf("boom")
	r := io.MultiReader(strings.NewReader(`<title>T</title><a href=/a>a</a><a href=/b>b`), &errReader{errBoom})
	doc, err := Links(r, mustParse(t, testPageURL), nil)
	if err == nil || !strings.Contains(err.Error(), "extract: read: boom") {
		t.Fatalf("Links with failing reader: err = %v, want extract: read: boom", err)
	}
	if len(doc.Links) != 2 || doc.Title != "T" {
		t.Errorf("Links with failing reader: %d links, title %q; want the 2 links and title read before the error", len(doc.Links), doc.Title)
	}
}

type errReader struct{ err error }

func (r *errReader) Read([]byte) (int, error) { return 0, r.err }

func TestAppendCollapsed(t *testing.T) {
	tests := []struct {
		dst, src string
		sep      byte
		limit    int
		want     string
		wantSep  byte
		wantFull bool
	}{
		{src: "  a  b\t\nc  ", limit: 100, want: "a b c", wantSep: ' '},
		{dst: "x", src: "y", sep: '\n', limit: 100, want: "x\ny"},
		{dst: "x", src: " y", sep: '\n', limit: 100, want: "x\ny"},
		{src: "a\u00a0\u00a0b\u00a0", limit: 100, want: "a b", wantSep: ' '},
		{src: "\u00e9\u00e9\u00e9", limit: 5, want: "\u00e9\u00e9", wantFull: true},
		{src: "ab cd", limit: 3, want: "ab", wantFull: true},
		{src: "one two three four five six seven eight nine", limit: 100, want: "one two three four five six seven eight nine"},
		{src: "one two  three\tfour\u00a0five \u00a9six\x01seven", limit: 100, want: "one two three four five \u00a9six\x01seven"},
		{src: "abcdefghij klmnopqrstuvwxyz", limit: 15, want: "abcdefghij klmn", wantFull: true},
		{src: "ab cd", limit: 4, want: "ab c", wantFull: true},
		{src: "\xc2", limit: 10, want: "\xc2"},
		{src: "a\xc2 b", limit: 10, want: "a\xc2 b"},
	}
	for _, tt := range tests {
		sep := tt.sep
		got, full := appendCollapsed([]byte(tt.dst), []byte(tt.src), &sep, tt.limit)
		if string(got) != tt.want || full != tt.wantFull || sep != tt.wantSep {
			t.Errorf("appendCollapsed(%q, %q, %q, %d) = %q, sep %q, full %v; want %q, %q, %v",
				tt.dst, tt.src, tt.sep, tt.limit, got, sep, full, tt.want, tt.wantSep, tt.wantFull)
		}
	}
}

// checkReadAttrs fails if readAttrs (raw scan with the common-case decoder)
// and the tokenizer's TagAttr disagree on the attributes the Extractor uses
// from the first tag of tag.
func checkReadAttrs(t *testing.T, tag []byte) {
	t.Helper()
	format := func(a attrs) string {
		return fmt.Sprintf("href=%q src=%q rel=%q alt=%q title=%q name=%q content=%q http-equiv=%q lang=%q "+
			"srcset=%q lowsrc=%q dynsrc=%q longdesc=%q ping=%q poster=%q data=%q codebase=%q code=%q archive=%q "+
			"action=%q formaction=%q method=%q formmethod=%q cite=%q background=%q style=%q type=%q xlink:href=%q srcdoc=%q",
			a.href, a.src, a.rel, a.alt, a.title, a.name, a.content, a.httpEquiv, a.lang,
			a.srcset, a.lowsrc, a.dynsrc, a.longdesc, a.ping, a.poster, a.data, a.codebase, a.code, a.archive,
			a.action, a.formaction, a.method, a.formmethod, a.cite, a.background, a.style, a.typ, a.xlinkHref, a.srcdoc) +
			fmt.Sprintf(" imagesrcset=%q form=%q", a.imagesrcset, a.form)
	}
	e := NewExtractor(nil)
	e.Reset(bytes.NewReader(tag))
	tt := e.z.Next()
	if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
		return
	}
	raw := e.z.Raw()
	name, end := e.tagName(raw, 1)
	if k, kEnd := e.tagKindAt(raw, 1); k != tagKindOf(name) || kEnd != end {
		t.Errorf("tagKindAt(%q) = %d, %d; tagName and tagKindOf: %d, %d", raw, k, kEnd, tagKindOf(name), end)
	}
	got := format(e.readAttrs(raw, end, wantAll))

	ref := NewExtractor(nil)
	ref.Reset(bytes.NewReader(tag))
	ref.z.Next()
	var at attrs
	for {
		k, v, more := ref.z.TagAttr()
		if k != nil {
			at.set(k, v, wantAll)
		}
		if !more {
			break
		}
	}
	if want := format(at); got != want {
		t.Errorf("readAttrs(%q):\n%s\nTagAttr:\n%s", tag, got, want)
	}
	// Asking for fewer attributes gives the same values for those.
	for _, want := range []attrSet{wantHref | wantTitle | wantRel, wantSrc | wantTitle, wantName | wantContent | wantHTTPEquiv, wantLang, wantAlt,
		wantSrc | wantSrcset | wantLowsrc | wantDynsrc | wantLongdesc | wantAlt, wantStyle, wantData | wantCodebase, wantFormaction | wantFormmethod, wantHref | wantXlinkHref} {
		// A fresh token each time: the fallback to TagAttr reads a
		// token's attributes once.
		e := NewExtractor(nil)
		e.Reset(bytes.NewReader(tag))
		e.z.Next()
		raw := e.z.Raw()
		sub := e.readAttrs(raw, end, want)
		if sub.seen != at.seen&want {
			t.Errorf("readAttrs(%q, %b) found %b, want %b", tag, want, sub.seen, at.seen&want)
		}
		for _, f := range []struct {
			bit      attrSet
			got, all []byte
		}{{wantHref, sub.href, at.href}, {wantSrc, sub.src, at.src}, {wantRel, sub.rel, at.rel}, {wantAlt, sub.alt, at.alt},
			{wantTitle, sub.title, at.title}, {wantName, sub.name, at.name}, {wantContent, sub.content, at.content},
			{wantHTTPEquiv, sub.httpEquiv, at.httpEquiv}, {wantLang, sub.lang, at.lang},
			{wantSrcset, sub.srcset, at.srcset}, {wantLowsrc, sub.lowsrc, at.lowsrc}, {wantDynsrc, sub.dynsrc, at.dynsrc},
			{wantLongdesc, sub.longdesc, at.longdesc}, {wantStyle, sub.style, at.style}, {wantData, sub.data, at.data},
			{wantCodebase, sub.codebase, at.codebase}, {wantFormaction, sub.formaction, at.formaction},
			{wantFormmethod, sub.formmethod, at.formmethod}, {wantXlinkHref, sub.xlinkHref, at.xlinkHref}} {
			if want&f.bit != 0 && string(f.got) != string(f.all) {
				t.Errorf("readAttrs(%q, %b): attribute %b = %q, want %q", tag, want, f.bit, f.got, f.all)
			}
		}
	}
	if h := onlyHref(raw, end); h != nil && string(h) != string(at.href) {
		t.Errorf("onlyHref(%q) = %q, TagAttr href %q", tag, h, at.href)
	}
}

func TestReadAttrsDecoding(t *testing.T) {
	for _, tag := range []string{
		`<a href="/s?a=1&amp;b=2&amp;c=3" title="x &quot;y&quot; &lt;z&gt; &apos;">`,
		`<a href="/s?a=1&copy=2">`, `<a href="/s?a=1&amp">`, `<a href="&#38;x" title="&amp;">`,
		"<a href=\"/a\r\nb\rc\x00d\" rel=\"no&amp;follow\">", `<a title="&amp;" href="&eacute;">`,
		`<meta name=robots content="noindex&amp;">`, `<a href="/x&" title=&amp;>`,
		`<img srcset="a.png?x=1&amp;y=2 1x" style="background:url(&quot;a&quot;)" longdesc="&eacute;">`,
		`<object data="m&amp;.swf" codebase="&lt;cb&gt;">`, `<svg><a xlink:href="&#x2F;x" href="&eacute;">`,
	} {
		checkReadAttrs(t, []byte(tag))
	}
}

// rawLinks runs a fresh Extractor with opts over page and returns its links
// and page text, formatted.
func rawLinks(t *testing.T, page string, opts *Options) (links, text string, truncated bool) {
	t.Helper()
	e := NewExtractor(opts)
	e.Reset(strings.NewReader(page))
	var b strings.Builder
	for e.Next() {
		l := e.Link()
		fmt.Fprintf(&b, "[%s %s %q]", l.Tag, l.Href, l.Text)
	}
	return b.String(), string(e.Text()), e.Truncated()
}

// TestAnchorText checks anchor text in the cases where the Extractor reads
// it off the page text and where it collects it on its own: the same text
// either way, with SkipText (always on its own) as the reference.
func TestAnchorText(t *testing.T) {
	tests := []struct {
		name      string
		page      string
		opts      Options
		wantLinks string
		wantText  string
	}{
		{name: "plain", page: `<p>before <a href=/a>the link</a> after`,
			wantLinks: `[a /a "the link"]`, wantText: "before the link after"},
		{name: "references in anchor and page", page: `<p>x &amp; y <a href=/a>b &amp; c</a> &lt;z&gt;`,
			wantLinks: `[a /a "b & c"]`, wantText: "x & y b & c <z>"},
		{name: "reference as the whole anchor", page: `<a href=/a>&amp;</a><a href=/b>&nbsp;x&nbsp;</a>`,
			wantLinks: `[a /a "&"][a /b "x"]`, wantText: "& x"},
		{name: "blocks inside", page: `<p>intro<a href=/a><div>one</div><div>two</div></a>outro`,
			wantLinks: `[a /a "one two"]`, wantText: "intro\none\ntwo\noutro"},
		{name: "separator before anchor", page: `<p>intro</p><a href=/a>x</a>`,
			wantLinks: `[a /a "x"]`, wantText: "intro\nx"},
		{name: "whitespace tokens", page: "<a href=/a>\n<b>x</b>\n<b>y</b>\n</a>",
			wantLinks: `[a /a "x y"]`, wantText: "x y"},
		{name: "no space between tokens", page: `<a href=/a>x<b>y</b>z</a>`,
			wantLinks: `[a /a "xyz"]`, wantText: "xyz"},
		{name: "hidden content", page: `<a href=/a>x<script>var s</script><template>t</template>y</a>`,
			wantLinks: `[a /a "xy"]`, wantText: "xy"},
		{name: "image fallback", page: `<p>p <a href=/a><img alt="the alt"></a> q`,
			wantLinks: `[a /a "the alt"]`, wantText: "p q"},
		{name: "next anchor ends one", page: `<a href=/a>one <a href=/b>two</a>`,
			wantLinks: `[a /a "one"][a /b "two"]`, wantText: "one two"},
		{name: "end of input ends one", page: `<a href=/a>one two`,
			wantLinks: `[a /a "one two"]`, wantText: "one two"},
		{name: "anchor text cut", page: `<a href=/a>abcdef ghij</a> tail`, opts: Options{MaxLinkTextLen: 8},
			wantLinks: `[a /a "abcdef g"]`, wantText: "abcdef ghij tail"},
		{name: "anchor text cut, then a short token", page: " <a href=/a>0000 00<b>0</b></a>", opts: Options{MaxLinkTextLen: 5},
			wantLinks: `[a /a "00000"]`, wantText: "0000 000"},
		{name: "anchor text cut after a space", page: "<a href=/a> 0000 00<b>0</b></a>", opts: Options{MaxLinkTextLen: 5},
			wantLinks: `[a /a "0000"]`, wantText: "0000 000"},
		{name: "page text fills inside anchor", page: `<p>one two <a href=/a>three four five</a> six`, opts: Options{MaxTextLen: 12},
			wantLinks: `[a /a "three four five"]`, wantText: "one two thre"},
		{name: "page text full before anchor", page: `<p>one two three <a href=/a>four</a>`, opts: Options{MaxTextLen: 5},
			wantLinks: `[a /a "four"]`, wantText: "one t"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			links, text, _ := rawLinks(t, tt.page, &tt.opts)
			if links != tt.wantLinks || text != tt.wantText {
				t.Errorf("Extractor(%q): links %s, text %q; want %s, %q", tt.page, links, text, tt.wantLinks, tt.wantText)
			}
			skip := tt.opts
			skip.SkipText = true
			links, text, _ = rawLinks(t, tt.page, &skip)
			if links != tt.wantLinks || text != "" {
				t.Errorf("Extractor(%q) with SkipText: links %s, text %q; want %s, \"\"", tt.page, links, text, tt.wantLinks)
			}
		})
	}
}

// TestLinkTextIsolated checks that appending to a link's Text, which may be
// a slice of the page text, cannot overwrite the page text.
func TestLinkTextIsolated(t *testing.T) {
	e := NewExtractor(nil)
	e.Reset(strings.NewReader(`<a href=/a>first</a> second`))
	if !e.Next() {
		t.Fatal("Next() = false, want a link")
	}
	l := e.Link()
	_ = append(l.Text, "XXXXXXXX"...)
	for e.Next() {
	}
	if got := string(e.Text()); got != "first second" {
		t.Errorf("Text() = %q after appending to a Link.Text, want %q", got, "first second")
	}
}

func TestSkipText(t *testing.T) {
	page := `<html lang=de><title>T</title><meta name=robots content=nofollow><link rel=canonical href=/c>` +
		`<p>` + strings.Repeat("word ", 40) + `<a href=/a title=t>A <b>b</b></a><area href=/r alt=r><a href=/i><img alt=i></a>`
	opts := &Options{MaxTextLen: 50}
	full := linksOf(t, page, opts)
	skip := linksOf(t, page, &Options{MaxTextLen: 50, SkipText: true})
	if skip.Text != "" {
		t.Errorf("SkipText: Text = %q, want empty", skip.Text)
	}
	if !full.Truncated || skip.Truncated {
		t.Errorf("Truncated = %v, with SkipText %v; want true (page text cut), false", full.Truncated, skip.Truncated)
	}
	if got, want := formatLinks(skip.Links), formatLinks(full.Links); got != want || len(full.Links) != 4 {
		t.Errorf("SkipText: Links%s\nwant (as without):%s", got, want)
	}
	if skip.Title != full.Title || skip.Robots != full.Robots || skip.Canonical != full.Canonical || skip.Lang != full.Lang {
		t.Errorf("SkipText: signals %q %+v %q %q, want %q %+v %q %q",
			skip.Title, skip.Robots, skip.Canonical, skip.Lang, full.Title, full.Robots, full.Canonical, full.Lang)
	}
}

// TestMaxTokenLen checks the token bound at its edge: a tag of exactly
// MaxTokenLen bytes is read, a longer one stops the scan, and how the
// reader splits the input makes no difference.
func TestMaxTokenLen(t *testing.T) {
	tests := []struct {
		name      string
		page      string
		wantLinks string
		wantTrunc bool
	}{
		{name: "tag of MaxTokenLen bytes", page: `<a href="/abcd">x</a>`, wantLinks: `[a /abcd "x"]`},
		{name: "longer tag", page: `<a href="/abcde">x</a>`, wantTrunc: true},
		{name: "long text", page: `<a href="/a">` + strings.Repeat("y", 40) + `</a>`, wantLinks: `[a /a "` + strings.Repeat("y", 16) + `"]`, wantTrunc: true},
		{name: "many short tokens", page: strings.Repeat(`<a href="/abcd">x</a>`, 3), wantLinks: strings.Repeat(`[a /abcd "x"]`, 3)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range []struct {
				name string
				r    io.Reader
			}{{"whole", strings.NewReader(tt.page)}, {"byte by byte", iotest.OneByteReader(strings.NewReader(tt.page))}} {
				e := NewExtractor(&Options{MaxTokenLen: 16})
				e.Reset(r.r)
				var b strings.Builder
				for e.Next() {
					l := e.Link()
					fmt.Fprintf(&b, "[%s %s %q]", l.Tag, l.Href, l.Text)
				}
				if got := b.String(); got != tt.wantLinks || e.Truncated() != tt.wantTrunc || e.Err() != nil {
					t.Errorf("%s: links %s, Truncated %v, Err %v; want %s, %v, nil", r.name, got, e.Truncated(), e.Err(), tt.wantLinks, tt.wantTrunc)
				}
			}
		})
	}
}

func TestOnlyHref(t *testing.T) {
	tests := []struct {
		tag  string
		want string // "<nil>" for nil
	}{
		{tag: `<a href="/x">`, want: "/x"},
		{tag: `<a href="">`, want: ""},
		{tag: `<a href="/x" title=t>`, want: "<nil>"},
		{tag: `<a href="/x&amp;y">`, want: "<nil>"},
		{tag: `<a HREF="/x">`, want: "<nil>"},
		{tag: `<a href='/x'>`, want: "<nil>"},
		{tag: `<a href="/x`, want: "<nil>"},
		{tag: `<a href="/x"/>`, want: "<nil>"},
	}
	for _, tt := range tests {
		var e Extractor
		_, end := e.tagName([]byte(tt.tag), 1)
		got := "<nil>"
		if h := onlyHref([]byte(tt.tag), end); h != nil {
			got = string(h)
		}
		if got != tt.want {
			t.Errorf("onlyHref(%q) = %s, want %s", tt.tag, got, tt.want)
		}
		if tt.want != "<nil>" {
			checkReadAttrs(t, []byte(tt.tag))
			if at := e.readAttrs([]byte(tt.tag), end, wantAll); string(at.href) != got {
				t.Errorf("onlyHref(%q) = %q, readAttrs finds %q", tt.tag, got, at.href)
			}
		}
	}
}

func TestQuotedEnd(t *testing.T) {
	for _, s := range []string{
		``, `"`, `abc"`, `abcdefgh"`, `abcdefghijklmnop"rest"`, `abcdefg&hij"`, `a&b"`, "abcdefgh\rij\"",
		`abcdefghijklmnopqrstuvwx`, `x"&`, "abcdefghijkl\x00\"", `0123456789abcdef&"`, `01234567"89&`,
	} {
		b := []byte(s)
		k, plain := quotedEnd(b, '"')
		wantK := bytes.IndexByte(b, '"')
		v := b
		if wantK >= 0 {
			v = b[:wantK]
		}
		wantPlain := !bytes.ContainsFunc(v, func(r rune) bool { return r < ' ' || r == '&' })
		if k != wantK || plain != wantPlain {
			t.Errorf("quotedEnd(%q) = %d, %v; want %d, %v", s, k, plain, wantK, wantPlain)
		}
	}
}

// TestTagKindAt checks the word-at-a-time path against tagName and
// tagKindOf for every tag name the Extractor knows, in both cases, and for
// names it must not confuse with them.
func TestTagKindAt(t *testing.T) {
	names := []string{"a", "p", "div", "li", "h1", "nav", "head", "main", "aside", "header", "section", "article",
		"fieldset", "figcaption", "blockquote", "plaintext", "noscript", "noembed", "noframes", "template", "textarea",
		"html", "br", "td", "th", "body", "table", "form", "q", "del", "ins", "image", "use", "source", "audio", "track",
		"embed", "video", "object", "applet", "script", "style", "input", "button", "isindex", "wbr", "img", "area",
		"frame", "iframe", "link", "meta", "base", "title", "xmp", "svg", "math",
		"a\x00", "a\x00b", "\x00a", "ab", "sectionx", "abcdefgh", "abcdefg", "sectio", "SeCtIoN", "h\x80", "\xc1", "blockquot", "blockquotes", "figcaptions", "p\x00\x00", "\xc3\xa9", "nav1", ""}
	var e Extractor
	for _, n := range names {
		for _, name := range []string{n, strings.ToUpper(n)} {
			for _, tail := range []string{">", " x=1>", "/>", "\t>", "", "\x01>", "\x00>", "\x01 >", "é>"} {
				tag := "<" + name + tail
				lower, end := e.tagName([]byte(tag), 1)
				want := tagKindOf(lower)
				// Exactly the tag, and the tag followed in its array by
				// bytes that tagKindAt may read but must ignore.
				for _, after := range []string{"", ">>>>>>>>>", "xxxxxxxxx", "\x00\x00\x00\x00\x00\x00\x00\x00\x00", "         "} {
					raw := []byte(tag + after)[:len(tag)]
					if got, gotEnd := e.tagKindAt(raw, 1); got != want || gotEnd != end {
						t.Errorf("tagKindAt(%q, then %q) = %d, %d; want %d, %d", raw, after, got, gotEnd, want, end)
					}
				}
			}
		}
	}
}

// TestTextRuleIsHTMLText checks that the elements whose text the Extractor
// leaves out of Document.Text are those internal/htmltext hides, the one
// definition of visible text trawl's packages share.
func TestTextRuleIsHTMLText(t *testing.T) {
	hidden := map[tagKind]bool{tagScript: true, tagStyle: true, tagRawSkip: true, tagNoscript: true, tagIframe: true, tagTitle: true, tagTemplate: true}
	for _, name := range []string{"script", "style", "noscript", "noembed", "noframes", "template", "iframe", "title",
		"textarea", "xmp", "plaintext", "p", "div", "a", "svg", "math", "object", "video", "audio", "button", "select",
		"option", "form", "head", "body", "html", "img", "frame", "frameset", "canvas", "label", "table", "td", "br"} {
		if got, want := hidden[tagKindOf([]byte(name))], htmltext.Hidden(atom.Lookup([]byte(name))); got != want {
			t.Errorf("<%s>: Extractor hides its text %v, htmltext.Hidden %v", name, got, want)
		}
	}
	doc, err := Links(strings.NewReader("<title>T</title><p>a<script>s</script><style>c</style><noscript>n</noscript>"+
		"<noembed>e</noembed><noframes>f</noframes><template>t</template><iframe>i</iframe><textarea> x </textarea>b"), nil, nil)
	if err != nil || doc.Text != "a x b" {
		t.Errorf("Links(...).Text = %q, %v; want %q", doc.Text, err, "a x b")
	}
}
