package feeds

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

const smNS = `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`

func gz(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func date(y int, m time.Month, d, hh, mm, ss, ns int, zone int) time.Time {
	return time.Date(y, m, d, hh, mm, ss, ns, time.FixedZone("", zone))
}

// locs renders entries compactly for comparison.
func locs(es []SitemapURL) string {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "%s", e.Loc)
		if !e.LastMod.IsZero() {
			fmt.Fprintf(&b, " lastmod=%s", e.LastMod.UTC().Format(time.RFC3339Nano))
		}
		if e.ChangeFreq != "" {
			fmt.Fprintf(&b, " changefreq=%s", e.ChangeFreq)
		}
		if e.HasPriority {
			fmt.Fprintf(&b, " priority=%g", e.Priority)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestReadSitemap(t *testing.T) {
	urlset := `<?xml version="1.0" encoding="UTF-8"?>
<urlset ` + smNS + `>
  <url>
    <loc>https://example.com/</loc>
    <lastmod>2026-01-02</lastmod>
    <changefreq>daily</changefreq>
    <priority>0.8</priority>
  </url>
  <url><loc>
     http://example.com/a?x=1&amp;y=2
  </loc><changefreq>Weekly</changefreq><priority>1.0</priority></url>
  <url><loc>https://example.com/b</loc><changefreq>sometimes</changefreq><priority>1.5</priority><lastmod>yesterday</lastmod></url>
</urlset>`
	urlsetWant := "https://example.com/ lastmod=2026-01-02T00:00:00Z changefreq=daily priority=0.8\n" +
		"http://example.com/a?x=1&y=2 changefreq=weekly priority=1\n" +
		"https://example.com/b\n"
	index := `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex ` + smNS + `>
  <sitemap><loc>https://example.com/sitemap1.xml.gz</loc><lastmod>2004-10-01T18:23:17+00:00</lastmod></sitemap>
  <sitemap><loc>https://example.com/sitemap2.xml.gz</loc></sitemap>
</sitemapindex>`
	indexWant := "https://example.com/sitemap1.xml.gz lastmod=2004-10-01T18:23:17Z\nhttps://example.com/sitemap2.xml.gz\n"

	tests := []struct {
		name        string
		in          []byte
		opts        *SitemapOptions
		urls, maps  string
		skipped     int
		truncated   bool
		wantErr     error // a sentinel, or nil
		errContains string
	}{
		{name: "urlset", in: []byte(urlset), urls: urlsetWant},
		{name: "index", in: []byte(index), maps: indexWant},
		{name: "gzip urlset", in: gz(t, []byte(urlset)), urls: urlsetWant},
		{name: "gzip index", in: gz(t, []byte(index)), maps: indexWant},
		{name: "gzip twice", in: gz(t, gz(t, []byte(urlset))), urls: urlsetWant},
		{name: "BOM and leading white space", in: []byte("\xef\xbb\xbf \r\n\t" + urlset), urls: urlsetWant},
		{name: "no namespace", in: []byte(`<urlset><url><loc>https://e.com/x</loc><priority>0</priority></url></urlset>`),
			urls: "https://e.com/x priority=0\n"},
		{name: "Google 0.84 namespace", in: []byte(`<urlset xmlns="http://www.google.com/schemas/sitemap/0.84"><url><loc>https://e.com/x</loc></url></urlset>`),
			urls: "https://e.com/x\n"},
		{name: "prefixed root", in: []byte(`<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://e.com/x</sm:loc></sm:url><url><loc>https://e.com/no-ns</loc></url><x:url xmlns:x="other"><x:loc>https://e.com/other-ns</x:loc></x:url><url><sm:loc>https://e.com/mixed</sm:loc></url></sm:urlset>`),
			urls: "https://e.com/x\nhttps://e.com/no-ns\nhttps://e.com/mixed\n"},
		{name: "extensions skipped", in: []byte(`<urlset ` + smNS + `
  xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
  xmlns:xhtml="http://www.w3.org/1999/xhtml"
  xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
 <url>
  <image:image><image:loc>https://cdn.e.com/img.png</image:loc></image:image>
  <image:loc>https://cdn.e.com/direct.png</image:loc>
  <xhtml:link rel="alternate" hreflang="de" href="https://e.com/de/x"/>
  <news:news><news:publication><news:name>N</news:name></news:publication><news:publication_date>2008-12-23</news:publication_date></news:news>
  <loc>https://e.com/x</loc>
  <unknown><loc>https://e.com/nested</loc></unknown>
 </url>
</urlset>`), urls: "https://e.com/x\n"},
		{name: "first field wins", in: []byte(`<urlset><url><loc>https://e.com/1</loc><loc>https://e.com/2</loc><priority>0.1</priority><priority>0.9</priority></url></urlset>`),
			urls: "https://e.com/1 priority=0.1\n"},
		{name: "skipped locs", in: []byte(`<urlset>
<url><loc>/relative</loc></url>
<url><loc>ftp://e.com/x</loc></url>
<url><loc>javascript:alert(1)</loc></url>
<url><loc>http:/nohost</loc></url>
<url><loc>http://e.com/%zz</loc></url>
<url><lastmod>2020</lastmod></url>
<url><loc></loc></url>
<url><loc>HTTPS://E.com/ok</loc></url>
<url><loc>https://e.com/` + strings.Repeat("a", maxSitemapLocLen) + `</loc></url>
</urlset>`), urls: "HTTPS://E.com/ok\n", skipped: 8},
		{name: "unescaped ampersand and HTML entity", in: []byte(`<urlset><url><loc>https://e.com/?a=1&b=2&amp;c=&eacute;</loc></url></urlset>`),
			urls: "https://e.com/?a=1&b=2&c=é\n"},
		{name: "CDATA loc", in: []byte(`<urlset><url><loc><![CDATA[https://e.com/?a=1&b=2]]></loc></url></urlset>`),
			urls: "https://e.com/?a=1&b=2\n"},
		{name: "latin1 declared", in: []byte("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><urlset><url><loc>https://e.com/caf\xe9</loc></url></urlset>"),
			urls: "https://e.com/café\n"},
		{name: "other encoding read as UTF-8", in: []byte(`<?xml version="1.0" encoding="Shift_JIS"?><urlset><url><loc>https://e.com/x</loc></url></urlset>`),
			urls: "https://e.com/x\n"},
		{name: "mismatched end tag", in: []byte(`<urlset><url><loc>https://e.com/1</lo></url><url><loc>https://e.com/2</loc></url></urlset>`),
			urls: "https://e.com/1\nhttps://e.com/2\n"},
		{name: "stray end tag", in: []byte(`<urlset><url><loc>https://e.com/1</loc></url></foo></url><url><loc>https://e.com/2</loc></url></urlset>`),
			urls: "https://e.com/1\nhttps://e.com/2\n"},
		{name: "missing entry end tag", in: []byte(`<urlset><url><loc>https://e.com/1</loc><url><loc>https://e.com/2</loc></url><url><loc>https://e.com/3</loc></urlset>`),
			urls: "https://e.com/1\nhttps://e.com/2\nhttps://e.com/3\n"},
		{name: "missing field end tag", in: []byte(`<urlset><url><loc>https://e.com/1<lastmod>2020</lastmod></url><url><priority>0.5<loc>https://e.com/2</loc></url></urlset>`),
			urls: "https://e.com/1\n", skipped: 1},
		{name: "namespace declared on the entry", in: []byte(`<urlset xmlns="S"><s:url xmlns:s="S"><s:loc>https://e.com/1</s:loc></s:url><url xmlns="T"><loc>https://e.com/t</loc></url><s:url><loc>https://e.com/undeclared-prefix</loc></s:url></urlset>`),
			urls: "https://e.com/1\n"},
		{name: "rest after root not read", in: []byte(`<urlset><url><loc>https://e.com/x</loc></url></urlset><garbage`),
			urls: "https://e.com/x\n"},

		{name: "text", in: []byte("https://e.com/1\r\n\nhttp://e.com/2\n  https://e.com/3  \nnot a url\n/rel\nhttps://e.com/\xff\nhttps://e.com/4"),
			urls: "https://e.com/1\nhttp://e.com/2\nhttps://e.com/3\nhttps://e.com/4\n", skipped: 3},
		{name: "text with BOM, gzipped", in: gz(t, []byte("\xef\xbb\xbfhttps://e.com/1\n")), urls: "https://e.com/1\n"},
		{name: "text long line skipped", in: []byte("https://e.com/" + strings.Repeat("a", 100_000) + "\nhttps://e.com/2\n"),
			urls: "https://e.com/2\n", skipped: 1},
		{name: "empty", in: nil},
		{name: "white space only", in: []byte(" \n\t ")},

		{name: "truncated XML", in: []byte(`<urlset><url><loc>https://e.com/1</loc></url><url><loc>https://e.com/2</lo`),
			urls: "https://e.com/1\n", wantErr: ErrSitemapSyntax, errContains: "unexpected EOF"},
		{name: "truncated gzip", in: gz(t, []byte(urlset))[:200], urls: "https://example.com/ lastmod=2026-01-02T00:00:00Z changefreq=daily priority=0.8\n",
			wantErr: ErrSitemapSyntax},
		{name: "corrupt gzip header", in: []byte("\x1f\x8b\x00garbage"), wantErr: ErrSitemapSyntax},
		{name: "gzip then garbage", in: append(gz(t, []byte(urlset)), "trailing junk"...), urls: urlsetWant},
		{name: "syntax error mid-file", in: []byte(`<urlset><url><loc>https://e.com/1</loc></url><url <<<>`),
			urls: "https://e.com/1\n", wantErr: ErrSitemapSyntax},
		{name: "HTML page", in: []byte(`<!DOCTYPE html><html><body><a href="https://e.com/">x</a></body></html>`),
			wantErr: ErrSitemapSyntax, errContains: "<html>"},
		{name: "RSS feed", in: []byte(`<rss version="2.0"><channel></channel></rss>`), wantErr: ErrSitemapSyntax},
		{name: "comment only", in: []byte(`<!-- nothing -->`), wantErr: ErrSitemapSyntax, errContains: "no root"},
		{name: "invalid character", in: []byte("<urlset><url><loc>https://e.com/1</loc></url>\x00</urlset>"), urls: "https://e.com/1\n", wantErr: ErrSitemapSyntax},

		{name: "MaxURLs", in: []byte(urlset), opts: &SitemapOptions{MaxURLs: 2},
			urls:      "https://example.com/ lastmod=2026-01-02T00:00:00Z changefreq=daily priority=0.8\nhttp://example.com/a?x=1&y=2 changefreq=weekly priority=1\n",
			truncated: true, wantErr: ErrSitemapTooLarge},
		{name: "MaxURLs text", in: []byte("https://e.com/1\nhttps://e.com/2\n"), opts: &SitemapOptions{MaxURLs: 1},
			urls: "https://e.com/1\n", truncated: true, wantErr: ErrSitemapTooLarge},
		{name: "MaxBytes exact", in: []byte(index), opts: &SitemapOptions{MaxBytes: int64(len(index))}, maps: indexWant},
		{name: "MaxBytes exceeded", in: []byte(index), opts: &SitemapOptions{MaxBytes: int64(len(index) - 1)},
			maps: indexWant, truncated: true, wantErr: ErrSitemapTooLarge},
		{name: "MaxBytes exceeded mid-entry", in: []byte(index), opts: &SitemapOptions{MaxBytes: int64(strings.Index(index, "sitemap2"))},
			maps: "https://example.com/sitemap1.xml.gz lastmod=2004-10-01T18:23:17Z\n", truncated: true, wantErr: ErrSitemapTooLarge},
		{name: "MaxBytes counts uncompressed bytes", in: gz(t, []byte(index)), opts: &SitemapOptions{MaxBytes: int64(len(index) - 1)},
			maps: indexWant, truncated: true, wantErr: ErrSitemapTooLarge},
		{name: "deep nesting", in: []byte(`<urlset><url><loc>https://e.com/1</loc></url>` + strings.Repeat("<a>", 100_000)),
			urls: "https://e.com/1\n", truncated: true, wantErr: ErrSitemapTooLarge, errContains: "nested"},
		{name: "huge token", in: []byte(`<urlset><url><loc>https://e.com/1</loc></url><x>` + strings.Repeat("y", 3<<20) + `</x></urlset>`),
			urls: "https://e.com/1\n", truncated: true, wantErr: ErrSitemapTooLarge, errContains: "token"},
		{name: "huge tag", in: []byte(`<urlset><url><loc>https://e.com/1</loc></url><x ` + strings.Repeat(`a="b" `, 1<<20)),
			urls: "https://e.com/1\n", truncated: true, wantErr: ErrSitemapTooLarge, errContains: "token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, slow := range []bool{false, true} {
				var r io.Reader = bytes.NewReader(tt.in)
				if slow {
					if len(tt.in) > 1<<20 {
						continue
					}
					r = iotest.OneByteReader(r)
				}
				sm, err := ReadSitemap(r, tt.opts)
				if sm == nil {
					t.Fatalf("nil Sitemap (err %v)", err)
				}
				if got := locs(sm.URLs); got != tt.urls {
					t.Errorf("URLs:\n%s\nwant:\n%s", got, tt.urls)
				}
				if got := locs(sm.Sitemaps); got != tt.maps {
					t.Errorf("Sitemaps:\n%s\nwant:\n%s", got, tt.maps)
				}
				if sm.Skipped != tt.skipped || sm.Truncated != tt.truncated {
					t.Errorf("Skipped, Truncated = %d, %v; want %d, %v", sm.Skipped, sm.Truncated, tt.skipped, tt.truncated)
				}
				if tt.wantErr == nil && err != nil || tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
					t.Errorf("err = %v; want %v", err, tt.wantErr)
				}
				if err != nil && !strings.Contains(err.Error(), tt.errContains) {
					t.Errorf("err = %q; want it to contain %q", err, tt.errContains)
				}
				if errors.Is(err, ErrSitemapTooLarge) && errors.Is(err, ErrSitemapSyntax) {
					t.Errorf("err %v wraps both sentinels", err)
				}
			}
		})
	}
}

func TestW3CDatetime(t *testing.T) {
	tests := []struct {
		in   string
		want time.Time
	}{
		{"1997", date(1997, 1, 1, 0, 0, 0, 0, 0)},
		{"1997-07", date(1997, 7, 1, 0, 0, 0, 0, 0)},
		{"1997-07-16", date(1997, 7, 16, 0, 0, 0, 0, 0)},
		{"1997-07-16T19:20+01:00", date(1997, 7, 16, 19, 20, 0, 0, 3600)},
		{"1997-07-16T19:20:30+01:00", date(1997, 7, 16, 19, 20, 30, 0, 3600)},
		{"1997-07-16T19:20:30.45+01:00", date(1997, 7, 16, 19, 20, 30, 450_000_000, 3600)},
		{"1997-07-16T19:20:30.45Z", date(1997, 7, 16, 19, 20, 30, 450_000_000, 0)},
		{"1997-07-16T19:20Z", date(1997, 7, 16, 19, 20, 0, 0, 0)},
		{"1997-07-16T19:20:30-05:30", date(1997, 7, 16, 19, 20, 30, 0, -5*3600-1800)},
		// Deviations seen in the wild.
		{"1997-07-16T19:20:30", date(1997, 7, 16, 19, 20, 30, 0, 0)},
		{"1997-07-16T19:20", date(1997, 7, 16, 19, 20, 0, 0, 0)},
		{"1997-07-16 19:20:30+01:00", date(1997, 7, 16, 19, 20, 30, 0, 3600)},
		{"1997-07-16T19:20:30+0100", date(1997, 7, 16, 19, 20, 30, 0, 3600)},
		// Not dates.
		{"", time.Time{}},
		{"97", time.Time{}},
		{"1997-13", time.Time{}},
		{"1997-02-30", time.Time{}},
		{"16/07/1997", time.Time{}},
		{"1997-07-16T25:00Z", time.Time{}},
		{"Wed, 16 Jul 1997 19:20:30 GMT", time.Time{}},
	}
	for _, tt := range tests {
		if got := parseW3CDatetime(tt.in); !got.Equal(tt.want) {
			t.Errorf("parseW3CDatetime(%q) = %v; want %v", tt.in, got, tt.want)
		}
	}
}

func TestSitemapPriorityChangeFreq(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{{"0.5", 0.5, true}, {"0", 0, true}, {"1", 1, true}, {"1.0", 1, true}, {".3", 0.3, true},
		{"-0.1", 0, false}, {"1.01", 0, false}, {"NaN", 0, false}, {"high", 0, false}, {"", 0, false}, {"Inf", 0, false}} {
		if p, ok := parsePriority([]byte(tt.in)); p != tt.want || ok != tt.ok {
			t.Errorf("parsePriority(%q) = %v, %v; want %v, %v", tt.in, p, ok, tt.want, tt.ok)
		}
	}
	for in, want := range map[string]string{"always": "always", "HOURLY": "hourly", "Daily": "daily", "weekly": "weekly",
		"monthly": "monthly", "yearly": "yearly", "never": "never", "often": "", "": "", "monthlyy": "", "a": ""} {
		if got := parseChangeFreq([]byte(in)); got != want {
			t.Errorf("parseChangeFreq(%q) = %q; want %q", in, got, want)
		}
	}
}

// bigURLSet returns a urlset of n URLs, or a text sitemap of them.
func bigURLSet(n int, text bool) []byte {
	var b bytes.Buffer
	if !text {
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<urlset " + smNS + ">\n")
	}
	for i := range n {
		if text {
			fmt.Fprintf(&b, "https://www.example.com/articles/%d/some-title-of-the-article\n", i)
		} else {
			fmt.Fprintf(&b, "<url><loc>https://www.example.com/articles/%d/some-title-of-the-article</loc><lastmod>2026-11-%02dT10:00:00+00:00</lastmod><changefreq>weekly</changefreq><priority>0.5</priority></url>\n", i, 1+i%28)
		}
	}
	if !text {
		b.WriteString("</urlset>\n")
	}
	return b.Bytes()
}

// TestSitemapProtocolLimits reads files of exactly 50,000 and of 50,001
// URLs with the default options.
func TestSitemapProtocolLimits(t *testing.T) {
	for _, text := range []bool{false, true} {
		for _, n := range []int{50_000, 50_001} {
			for _, zip := range []bool{false, true} {
				if zip && n == 50_000 {
					continue // gzip changes nothing here; spare the time
				}
				in := bigURLSet(n, text)
				if zip {
					in = gz(t, in)
				}
				sm, err := ReadSitemap(bytes.NewReader(in), nil)
				name := fmt.Sprintf("text=%v n=%d gzip=%v", text, n, zip)
				if len(sm.URLs) != 50_000 {
					t.Errorf("%s: %d URLs; want 50000", name, len(sm.URLs))
				}
				last := sm.URLs[len(sm.URLs)-1].Loc
				if want := "https://www.example.com/articles/49999/some-title-of-the-article"; last != want {
					t.Errorf("%s: last URL %q; want %q", name, last, want)
				}
				if over := n > 50_000; sm.Truncated != over || errors.Is(err, ErrSitemapTooLarge) != over || !over && err != nil {
					t.Errorf("%s: Truncated %v, err %v", name, sm.Truncated, err)
				}
			}
		}
	}
}

// TestSitemapGzipBomb reads a small gzip stream that expands to 64 MiB:
// MaxBytes stops the decompression.
func TestSitemapGzipBomb(t *testing.T) {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	io.WriteString(w, `<urlset><url><loc>https://e.com/1</loc></url><!--`)
	spaces := bytes.Repeat([]byte{' '}, 1<<20)
	for range 64 {
		w.Write(spaces)
	}
	io.WriteString(w, `--><url><loc>https://e.com/2</loc></url></urlset>`)
	w.Close()
	if buf.Len() > 100<<10 {
		t.Fatalf("bomb is %d bytes", buf.Len())
	}
	for _, max := range []int64{1 << 20, 8 << 20} {
		sm, err := ReadSitemap(bytes.NewReader(buf.Bytes()), &SitemapOptions{MaxBytes: max})
		if !errors.Is(err, ErrSitemapTooLarge) || !sm.Truncated || locs(sm.URLs) != "https://e.com/1\n" {
			t.Errorf("MaxBytes %d: %v, %+v", max, err, sm)
		}
	}
	// With the default 50 MiB the comment exceeds the token bound first.
	sm, err := ReadSitemap(bytes.NewReader(buf.Bytes()), nil)
	if !errors.Is(err, ErrSitemapTooLarge) || locs(sm.URLs) != "https://e.com/1\n" {
		t.Errorf("default options: %v, %+v", err, sm)
	}
}

// TestSitemapEmptyGzipMembers: a stream of empty gzip members produces no
// bytes but is still cut off by the compressed-size bound.
func TestSitemapEmptyGzipMembers(t *testing.T) {
	empty := gz(t, nil)
	in := bytes.Repeat(empty, (64<<10)/len(empty)+1)
	sm, err := ReadSitemap(bytes.NewReader(in), &SitemapOptions{MaxBytes: 1024})
	if !errors.Is(err, ErrSitemapTooLarge) || len(sm.URLs) != 0 {
		t.Errorf("%v, %+v", err, sm)
	}
}

func TestReadSitemapReaderError(t *testing.T) {
	boom := errors.New("connection reset")
	r := io.MultiReader(strings.NewReader(`<urlset><url><loc>https://e.com/1</loc></url><url>`), iotest.ErrReader(boom))
	sm, err := ReadSitemap(r, nil)
	if !errors.Is(err, boom) || errors.Is(err, ErrSitemapSyntax) || errors.Is(err, ErrSitemapTooLarge) {
		t.Errorf("err = %v; want the reader's error alone", err)
	}
	if locs(sm.URLs) != "https://e.com/1\n" {
		t.Errorf("URLs = %q", locs(sm.URLs))
	}
	// Inside gzip too.
	z := gz(t, []byte(`<urlset><url><loc>https://e.com/1</loc></url>`+strings.Repeat(" ", 100_000)))
	r = io.MultiReader(bytes.NewReader(z[:len(z)/2]), iotest.ErrReader(boom))
	if _, err := ReadSitemap(r, nil); !errors.Is(err, boom) || errors.Is(err, ErrSitemapSyntax) {
		t.Errorf("gzip: err = %v; want the reader's error alone", err)
	}
}

// BenchmarkReadSitemap reads a urlset of 50,000 URLs (the protocol's
// maximum), plain and gzipped, and the same URLs as a text sitemap; and a
// urlset of 200 URLs, the size of a crawltest host's, whose B/op is mostly
// the readers' buffers. SetBytes is the uncompressed size.
func BenchmarkReadSitemap(b *testing.B) {
	for _, bc := range []struct {
		name      string
		text, zip bool
		n         int
	}{{"xml", false, false, 50_000}, {"xml.gz", false, true, 50_000}, {"text", true, false, 50_000}, {"text.gz", true, true, 50_000}, {"xml-200", false, false, 200}} {
		in := bigURLSet(bc.n, bc.text)
		size := int64(len(in))
		if bc.zip {
			in = gz(b, in)
		}
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				sm, err := ReadSitemap(bytes.NewReader(in), nil)
				if err != nil || len(sm.URLs) != bc.n {
					b.Fatalf("%d URLs, %v", len(sm.URLs), err)
				}
			}
		})
	}
}
