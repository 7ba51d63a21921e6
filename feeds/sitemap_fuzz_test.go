package feeds

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"testing/iotest"
)

// FuzzReadSitemap checks the properties callers rely on for any input: no
// panic; never more entries than MaxURLs; every Loc an absolute http(s)
// URL with a host, trimmed; Truncated exactly when the error wraps
// ErrSitemapTooLarge; an error that wraps exactly one sentinel, or none;
// and the same result whether the reader returns the input whole or byte
// by byte, plain or gzipped.
//
//	go test -run='^$' -fuzz=FuzzReadSitemap -fuzztime=5m -parallel=1 ./feeds
func FuzzReadSitemap(f *testing.F) {
	f.Add([]byte(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://e.com/</loc><lastmod>2026-01-02T10:00:00+01:00</lastmod><changefreq>daily</changefreq><priority>0.8</priority></url></urlset>`))
	f.Add([]byte(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://e.com/s1.xml.gz</loc><lastmod>2004-10</lastmod></sitemap></sitemapindex>`))
	f.Add([]byte("https://e.com/1\r\nhttp://e.com/2\n\nnot a url\n"))
	f.Add([]byte(`<urlset xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><url><loc> https://e.com/?a=1&b=2 </loc><image:image><image:loc>https://e.com/i.png</image:loc></image:image></url><url><loc>/rel</loc></url></urlset>`))
	f.Add([]byte("\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><urlset><url><loc>https://e.com/caf\xe9</loc></url></urlset>"))
	f.Add([]byte(`<urlset><url><loc>https://e.com/1</loc></url><url><loc>https://e.com/2</lo`))
	f.Add([]byte(`<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc><![CDATA[https://e.com/x]]></sm:loc></sm:url></sm:urlset>`))
	f.Add(gz(f, []byte(`<urlset><url><loc>https://e.com/z</loc></url></urlset>`)))
	// Past the bounds below: five entries, more than 4096 bytes, deep
	// nesting, a long token.
	f.Add([]byte(`<urlset>` + strings.Repeat(`<url><loc>https://e.com/u</loc></url>`, 5) + `</urlset>`))
	f.Add([]byte(strings.Repeat("https://e.com/line\n", 5)))
	f.Add([]byte(`<sitemapindex><sitemap><loc>https://e.com/s</loc></sitemap><!--` + strings.Repeat("-", 4096) + `--></sitemapindex>`))
	f.Add([]byte(`<urlset><url><loc>https://e.com/1</loc></url>` + strings.Repeat("<a>", 70)))
	opts := &SitemapOptions{MaxURLs: 4, MaxBytes: 4096}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed) // reused: a writer costs about 1 MB
	f.Fuzz(func(t *testing.T, in []byte) {
		sm, err := ReadSitemap(bytes.NewReader(in), opts)
		if sm == nil {
			t.Fatalf("nil Sitemap, err %v", err)
		}
		if n := len(sm.URLs) + len(sm.Sitemaps); n > opts.MaxURLs {
			t.Errorf("%d entries > MaxURLs %d", n, opts.MaxURLs)
		}
		if len(sm.URLs) > 0 && len(sm.Sitemaps) > 0 {
			t.Errorf("both URLs and Sitemaps: %d, %d", len(sm.URLs), len(sm.Sitemaps))
		}
		for _, e := range append(sm.URLs[:len(sm.URLs):len(sm.URLs)], sm.Sitemaps...) {
			u, perr := url.Parse(e.Loc)
			if perr != nil || !u.IsAbs() || u.Host == "" || !(strings.EqualFold(u.Scheme, "http") || strings.EqualFold(u.Scheme, "https")) {
				t.Errorf("Loc %q is not an absolute http(s) URL (%v)", e.Loc, perr)
			}
			if strings.TrimSpace(e.Loc) != e.Loc {
				t.Errorf("Loc %q not trimmed", e.Loc)
			}
			if e.HasPriority && !(e.Priority >= 0 && e.Priority <= 1) || !e.HasPriority && e.Priority != 0 {
				t.Errorf("Priority %v, HasPriority %v", e.Priority, e.HasPriority)
			}
		}
		tooLarge, syntax := errors.Is(err, ErrSitemapTooLarge), errors.Is(err, ErrSitemapSyntax)
		if err != nil && tooLarge == syntax {
			t.Errorf("err %v wraps %v ErrSitemapTooLarge and %v ErrSitemapSyntax; want exactly one", err, tooLarge, syntax)
		}
		if sm.Truncated != tooLarge {
			t.Errorf("Truncated %v, err %v", sm.Truncated, err)
		}
		want := fmt.Sprintf("%+v %v", *sm, err)
		slow, serr := ReadSitemap(iotest.OneByteReader(bytes.NewReader(in)), opts)
		if got := fmt.Sprintf("%+v %v", *slow, serr); got != want {
			t.Errorf("one-byte reader differs:\n%s\nwhole:\n%s", got, want)
		}
		if len(in) >= 2 && in[0] == 0x1f && in[1] == 0x8b {
			return // gzipping it again would hide nothing new
		}
		buf.Reset()
		zw.Reset(&buf)
		zw.Write(in)
		zw.Close()
		z, zerr := ReadSitemap(bytes.NewReader(buf.Bytes()), opts)
		// The compressed bound can differ only when MaxBytes is hit.
		if got := fmt.Sprintf("%+v %v", *z, zerr); got != want && !tooLarge {
			t.Errorf("gzipped differs:\n%s\nplain:\n%s", got, want)
		}
	})
}
