package fetch

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"

	"github.com/trawl-dev/trawl/internal/shareddata"
)

// compareEncoding fails t unless determineEncoding answers for body and
// contentType what golang.org/x/net/html/charset.DetermineEncoding does:
// the same name, certainty and kind of encoding, decoding every byte
// alike. It reports whether prescan was sure of its answer (x/net was not
// asked).
func compareEncoding(t testing.TB, what string, body []byte, contentType string) (sure bool) {
	t.Helper()
	we, wname, wcertain := charset.DetermineEncoding(body, contentType)
	ge, gname, gcertain := determineEncoding(body, contentType)
	if gname != wname || gcertain != wcertain || !sameEncoding(ge, we) {
		t.Errorf("%s: determineEncoding = %T %q %v, x/net's DetermineEncoding = %T %q %v", what, ge, gname, gcertain, we, wname, wcertain)
	}
	head := body[:min(len(body), 1024)]
	_, _, sure = prescan(head)
	return sure
}

// sameEncoding reports whether a and b are both nil or of one type and
// decode all 256 byte values and a UTF-16 pair alike.
func sameEncoding(a, b encoding.Encoding) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if reflect.TypeOf(a) != reflect.TypeOf(b) {
		return false
	}
	var in []byte
	for c := range 256 {
		in = append(in, byte(c))
	}
	in = append(in, 0xd8, 0x3d, 0xde, 0x00)
	da, errA := a.NewDecoder().Bytes(in)
	db, errB := b.NewDecoder().Bytes(in)
	return bytes.Equal(da, db) && (errA == nil) == (errB == nil)
}

// TestPrescanCases compares the byte-level prescan with x/net's
// tokenizer-based one on hostile and ordinary heads, each also cut at every
// length (a tag cut by the end of the first KiB is no tag to x/net).
func TestPrescanCases(t *testing.T) {
	cases := []struct {
		name, head string
		want       string // the name x/net answers, documenting the case
	}{
		{name: "meta charset", head: `<html><head><meta charset="iso-8859-2"><title>x</title>`, want: "iso-8859-2"},
		{name: "pragma", head: `<meta http-equiv="Content-Type" content="text/html; charset=KOI8-R">`, want: "koi8-r"},
		{name: "pragma after content", head: `<meta content="text/html; charset=koi8-r" http-equiv=content-type>`, want: "koi8-r"},
		{name: "content without pragma", head: `<meta content="text/html; charset=koi8-r"><p>é`, want: "windows-1252"},
		{name: "pragma of another kind", head: `<meta http-equiv="refresh" content="0; charset=koi8-r">`, want: "windows-1252"},
		{name: "xhtml self-closing", head: `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN" "x.dtd"><html><head><meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-15" />`, want: "iso-8859-15"},
		{name: "meta in a comment", head: `<!-- <meta charset="koi8-r"> --><meta charset="iso-8859-5">`, want: "iso-8859-5"},
		{name: "comment ended by --!>", head: `<!-- x --!><meta charset="koi8-r">`, want: "koi8-r"},
		{name: "short comments", head: `<!--><meta charset="koi8-r">`, want: "koi8-r"},
		{name: "short comment 2", head: `<!---><meta charset="koi8-r">`, want: "koi8-r"},
		{name: "dashes in a comment", head: `<!-- a -- > - --- ! --!x --!--><meta charset="koi8-r">`, want: "koi8-r"},
		{name: "unterminated comment", head: `<!-- <meta charset="koi8-r">`, want: "windows-1252"},
		{name: "meta in a script", head: `<script>var s = '<meta charset="koi8-r">';</script><meta charset="iso-8859-5">`, want: "iso-8859-5"},
		{name: "script end tag in other case", head: `<script>x</SCRIPT ><meta charset="koi8-r">`, want: "koi8-r"},
		{name: "script false end", head: `<script>"</scripts>"; '</script'</script><meta charset="koi8-r">`, want: "koi8-r"},
		{name: "escaped script", head: `<script><!-- <script> </script> <meta charset="koi8-r"> --></script><meta charset="iso-8859-5">`, want: "iso-8859-5"},
		{name: "meta in a title", head: `<title><meta charset="koi8-r"></title><meta charset="iso-8859-5">`, want: "iso-8859-5"},
		{name: "meta in a textarea, noscript, style", head: `<textarea><meta charset=koi8-r></textarea><noscript><meta charset=koi8-r></noscript><style>/*<meta charset=koi8-r>*/</style><meta charset=iso-8859-5>`, want: "iso-8859-5"},
		{name: "unterminated title", head: `<title><meta charset="koi8-r">`, want: "windows-1252"},
		{name: "plaintext", head: `<plaintext><meta charset="koi8-r">`, want: "windows-1252"},
		{name: "unquoted", head: `<META CHARSET=koi8-r>`, want: "koi8-r"},
		{name: "unquoted then slash", head: `<meta charset=koi8-r/>`, want: "windows-1252"},
		{name: "single quotes", head: `<meta charset='koi8-r'>`, want: "koi8-r"},
		{name: "spaces around =", head: "<meta charset \t=\n 'koi8-r' >", want: "koi8-r"},
		{name: "quote with > inside", head: `<meta name="a>b" charset="koi8-r">`, want: "koi8-r"},
		{name: "quote with > in another tag", head: `<link title="<meta charset=koi8-r>"><meta charset=iso-8859-5>`, want: "iso-8859-5"},
		{name: "charset in content quoted", head: `<meta http-equiv=content-type content='text/html; charset="koi8-r"'>`, want: "koi8-r"},
		{name: "charset= twice in content", head: `<meta http-equiv=content-type content="charset x; charset=koi8-r">`, want: "koi8-r"},
		{name: "duplicate charset", head: `<meta charset=koi8-r charset=iso-8859-5>`, want: "koi8-r"},
		{name: "duplicate charset other case", head: `<meta CHARSET=nonsense charset=koi8-r><meta charset=iso-8859-5>`, want: "iso-8859-5"},
		{name: "unknown label", head: `<meta charset="nonsense"><meta charset=koi8-r>`, want: "koi8-r"},
		{name: "charset after content", head: `<meta http-equiv=content-type content="text/html; charset=koi8-r" charset=nonsense><meta charset=iso-8859-5>`, want: "iso-8859-5"},
		{name: "utf-16 label", head: `<meta charset="UTF-16LE">`, want: "utf-8"},
		{name: "utf-16 in content", head: `<meta http-equiv="Content-Type" content="text/html; charset=utf-16">`, want: "utf-8"},
		{name: "x-user-defined", head: `<meta charset="x-user-defined">`, want: "x-user-defined"},
		{name: "character reference", head: `<meta charset="koi8&#45;r">`, want: "koi8-r"},
		{name: "carriage return in value", head: "<meta http-equiv=content-type content=\"text/html;\r\ncharset=koi8-r\">", want: "koi8-r"},
		{name: "NUL in name", head: "<meta\x00 charset=koi8-r><meta charset=iso-8859-5>", want: "iso-8859-5"},
		{name: "NUL in value", head: "<meta charset=\"koi8-r\x00\"><meta charset=iso-8859-5>", want: "iso-8859-5"},
		{name: "meta as end tag", head: `</meta charset=koi8-r><meta charset=iso-8859-5>`, want: "iso-8859-5"},
		{name: "end tag with quoted >", head: `</p title=">"<meta charset=koi8-r>"><meta charset=iso-8859-5>`, want: "iso-8859-5"},
		{name: "bogus comments", head: `<!x <meta charset=koi8-r>><? <meta charset=koi8-r> ?></ x<meta charset=koi8-r>></><meta charset=iso-8859-5>`, want: "iso-8859-5"},
		{name: "cdata", head: `<![CDATA[<meta charset=koi8-r>]]><meta charset=iso-8859-5>`, want: "iso-8859-5"},
		{name: "less-than in text", head: `a < b <3 <<meta charset=koi8-r>`, want: "koi8-r"},
		{name: "metadata is not meta", head: `<metadata charset=koi8-r><meta/charset=iso-8859-5>`, want: "iso-8859-5"},
		{name: "equals first in a key", head: `<meta =charset=koi8-r charset=iso-8859-5>`, want: "iso-8859-5"},
		{name: "empty value then >", head: `<meta charset=><meta charset=koi8-r>`, want: "koi8-r"},
		{name: "svg style", head: `<svg><style><meta charset=koi8-r></style></svg><meta charset=iso-8859-5>`, want: "iso-8859-5"},
		{name: "no meta", head: `<html><head><title>x</title></head><body>plain</body>`, want: "windows-1252"},
		{name: "no meta, UTF-8 text", head: `<p>naïve café`, want: "utf-8"},
		{name: "empty", head: ``, want: "windows-1252"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, name, _ := charset.DetermineEncoding([]byte(c.head), "text/html"); name != c.want {
				t.Errorf("x/net's DetermineEncoding(%q) = %q, the case says %q", c.head, name, c.want)
			}
			for _, ct := range []string{"text/html", "text/html; charset=utf-8", "text/html; charset=nonsense", ""} {
				compareEncoding(t, c.head+" "+ct, []byte(c.head), ct)
			}
			for n := range len(c.head) {
				compareEncoding(t, c.head[:n], []byte(c.head[:n]), "text/html")
			}
		})
	}
	// Byte order marks, and a <meta> past the first KiB or cut by it.
	long := strings.Repeat("<p>filler text</p>\n", 60)
	for _, body := range []string{
		"\xfe\xff\x00<", "\xff\xfe<\x00", "\xef\xbb\xbf<meta charset=koi8-r>",
		long + `<meta charset=koi8-r>`,
		long[:1024-10] + `<meta charset=koi8-r>`,
		long[:1024-22] + `<meta charset=koi8-r>`,
		long[:1000] + "é" + `<meta charset=koi8-r>`,
	} {
		compareEncoding(t, body, []byte(body), "text/html")
	}
}

// TestPrescanSure checks that the common heads are answered by the
// byte-level prescan itself, without x/net's.
func TestPrescanSure(t *testing.T) {
	for _, head := range []string{
		`<?xml version="1.0" encoding="UTF-8" standalone="no"?>` + "\n" + `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd"><html xmlns="http://www.w3.org/1999/xhtml"><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8" /><title>30.1. Reliability</title>`,
		"<!DOCTYPE html>\n<html lang=en><head><title>x</title><script>var a = 1 < 2;</script><meta charset=utf-8>",
		"<!DOCTYPE html><!-- generated --><html><body><p>no meta at all</p>",
	} {
		if !compareEncoding(t, head, []byte(head), "text/html") {
			t.Errorf("prescan(%q) is not sure", head)
		}
	}
}

// TestPrescanCorpora compares the two prescans on every page of the shared
// content-evaluation corpora (2,324 pages from many sites, generators and
// charsets), as served with no charset in the Content-Type.
func TestPrescanCorpora(t *testing.T) {
	n, unsure := 0, 0
	names := map[string]int{}
	for _, set := range []string{"content-eval", "content-eval-snippets"} {
		files, err := filepath.Glob(filepath.Join(shareddata.Dir(t, set), "pages", "*.html.gz"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no pages (%v)", set, err)
		}
		if testing.Short() {
			files = files[:50]
		}
		for _, f := range files {
			body := readGzipFile(t, f)
			if !compareEncoding(t, f, body, "text/html") {
				unsure++
			}
			_, name, _ := determineEncoding(body, "text/html")
			names[name]++
			n++
		}
	}
	t.Logf("%d pages alike (%d answered by x/net's prescan); encodings %v", n, unsure, names)
}

func readGzipFile(t *testing.T, name string) []byte {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return b
}

// FuzzPrescan compares determineEncoding with x/net's DetermineEncoding on
// generated heads.
func FuzzPrescan(f *testing.F) {
	for _, s := range []string{
		`<meta charset="koi8-r">`,
		`<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />`,
		`<!-- <meta charset=koi8-r> --!><meta charset=utf-16>`,
		`<script><!--<script></script>--></script><meta charset=koi8-r>`,
		`<title>x</title ><meta content='charset="koi8-r"' http-equiv=content-type>`,
		`</p a=">"><!x><?y></><meta =x charset=&#107;oi8-r>`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		compareEncoding(t, "fuzz", b, "text/html")
	})
}

// BenchmarkDetermineEncoding is the encoding of a PostgreSQL manual page's
// head, found by the byte-level prescan and by x/net's.
func BenchmarkDetermineEncoding(b *testing.B) {
	head := []byte(`<?xml version="1.0" encoding="UTF-8" standalone="no"?>` + "\n" + `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd"><html xmlns="http://www.w3.org/1999/xhtml"><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8" /><title>30.1. Reliability</title><link rel="stylesheet" type="text/css" href="stylesheet.css" /><link rev="made" href="pgsql-docs@lists.postgresql.org" /><meta name="generator" content="DocBook XSL Stylesheets Vsnapshot" />`)
	for _, impl := range []struct {
		name string
		fn   func([]byte, string) (encoding.Encoding, string, bool)
	}{{"impl=prescan", determineEncoding}, {"impl=xnet", charset.DetermineEncoding}} {
		b.Run(impl.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(head)))
			for b.Loop() {
				if _, name, _ := impl.fn(head, "text/html"); name != "utf-8" {
					b.Fatalf("name %q", name)
				}
			}
		})
	}
}
