package fetch

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/text/encoding/japanese"
)

// server starts a loopback test server and a fetcher allowed to reach it.
func server(t *testing.T, h http.HandlerFunc, opts *Options) (*HTTP, *url.URL) {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	var o Options
	if opts != nil {
		o = *opts
	}
	o.AllowPrivateNetworks = true
	f := New(&o)
	t.Cleanup(f.CloseIdleConnections)
	u, _ := url.Parse(ts.URL + "/page")
	return f, u
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func TestFetchBodies(t *testing.T) {
	html := []byte("<html><head><title>t</title></head><body>" + strings.Repeat("hello ", 100) + "</body></html>")
	win1252 := []byte("<html><body>caf\xe9 \x80</body></html>") // é and € in windows-1252
	sjis, _ := japanese.ShiftJIS.NewEncoder().Bytes([]byte("<html><body>日本語</body></html>"))
	var zl, fl bytes.Buffer
	zw := zlib.NewWriter(&zl)
	zw.Write(html)
	zw.Close()
	fw, _ := flate.NewWriter(&fl, flate.BestSpeed)
	fw.Write(html)
	fw.Close()

	tests := []struct {
		name     string
		header   map[string]string
		body     []byte
		wantType string
		wantCS   string
		wantBody string // substring of the decoded body
		wantErr  error
	}{
		{name: "plain html", header: map[string]string{"Content-Type": "text/html; charset=utf-8"}, body: html, wantType: "text/html", wantCS: "utf-8", wantBody: "hello hello"},
		{name: "gzip", header: map[string]string{"Content-Type": "text/html", "Content-Encoding": "gzip"}, body: gz(html), wantType: "text/html", wantBody: "<title>t</title>"},
		{name: "deflate zlib", header: map[string]string{"Content-Type": "text/html", "Content-Encoding": "deflate"}, body: zl.Bytes(), wantType: "text/html", wantBody: "<title>t</title>"},
		{name: "deflate raw", header: map[string]string{"Content-Type": "text/html", "Content-Encoding": "deflate"}, body: fl.Bytes(), wantType: "text/html", wantBody: "<title>t</title>"},
		{name: "charset from header", header: map[string]string{"Content-Type": "text/html; charset=windows-1252"}, body: win1252, wantType: "text/html", wantCS: "windows-1252", wantBody: "café €"},
		{name: "charset from meta", header: map[string]string{"Content-Type": "text/html"}, body: append([]byte(`<meta charset="iso-8859-1">`), win1252...), wantType: "text/html", wantCS: "windows-1252", wantBody: "café"},
		// UTF-8 after a first KiB of pure ASCII: x/net/html/charset guesses
		// windows-1252 from that KiB alone; the whole body decides.
		{name: "utf-8 after an ascii kilobyte", header: map[string]string{"Content-Type": "text/html"}, body: []byte("<html><body>" + strings.Repeat("plain ", 200) + "Gr\u00fc\u00dfe \u201cquoted\u201d</body></html>"), wantType: "text/html", wantCS: "utf-8", wantBody: "Grüße “quoted”"},
		// A stale Latin-1 <meta> over a UTF-8 body.
		{name: "utf-8 under a latin-1 meta", header: map[string]string{"Content-Type": "text/html"}, body: []byte("<meta charset=\"iso-8859-1\"><p>caf\u00e9</p>"), wantType: "text/html", wantCS: "utf-8", wantBody: "café"},
		{name: "shift_jis", header: map[string]string{"Content-Type": "text/html; charset=Shift_JIS"}, body: sjis, wantType: "text/html", wantCS: "shift_jis", wantBody: "日本語"},
		{name: "invalid utf-8 repaired", header: map[string]string{"Content-Type": "text/html; charset=utf-8"}, body: []byte("<p>a\xff\xfeb</p>"), wantType: "text/html", wantBody: "a\uFFFDb"},
		{name: "octet-stream sniffed as html", header: map[string]string{"Content-Type": "application/octet-stream"}, body: html, wantType: "text/html", wantBody: "hello"},
		{name: "missing type sniffed", header: map[string]string{"Content-Type": ""}, body: html, wantType: "text/html", wantBody: "hello"},
		{name: "image rejected", header: map[string]string{"Content-Type": "image/png"}, body: []byte("\x89PNG\r\n\x1a\n0000"), wantErr: ErrContentType},
		{name: "lying image header with html body", header: map[string]string{"Content-Type": "image/png"}, body: html, wantType: "text/html", wantBody: "hello"},
		{name: "pdf rejected", header: map[string]string{"Content-Type": "application/pdf"}, body: []byte("%PDF-1.4 ..."), wantErr: ErrContentType},
		{name: "unknown encoding", header: map[string]string{"Content-Type": "text/html", "Content-Encoding": "br"}, body: html, wantErr: ErrContentType},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, u := server(t, func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tt.header {
					w.Header()[k] = []string{v}
					if v == "" {
						w.Header()[k] = nil
					}
				}
				w.Write(tt.body)
			}, nil)
			resp, err := f.Fetch(context.Background(), &Request{URL: u})
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Fetch err = %v, want %v", err, tt.wantErr)
				}
				var fe *Error
				if !errors.As(err, &fe) || fe.URL != u.String() {
					t.Fatalf("err %v is not an *Error for %s", err, u)
				}
				return
			}
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			if resp.ContentType != tt.wantType {
				t.Errorf("ContentType = %q, want %q", resp.ContentType, tt.wantType)
			}
			if tt.wantCS != "" && resp.Charset != tt.wantCS {
				t.Errorf("Charset = %q, want %q", resp.Charset, tt.wantCS)
			}
			if !bytes.Contains(resp.Body, []byte(tt.wantBody)) {
				t.Errorf("Body = %q, want it to contain %q", resp.Body, tt.wantBody)
			}
			if resp.Truncated {
				t.Errorf("Truncated = true for a small body")
			}
		})
	}
}

func TestFetchLimits(t *testing.T) {
	t.Run("truncated", func(t *testing.T) {
		f, u := server(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Write(bytes.Repeat([]byte("x"), 5000))
		}, &Options{MaxBodyBytes: 1000})
		resp, err := f.Fetch(context.Background(), &Request{URL: u})
		if err != nil {
			t.Fatal(err)
		}
		if !resp.Truncated || len(resp.Body) != 1000 {
			t.Fatalf("Truncated=%v len=%d, want true 1000", resp.Truncated, len(resp.Body))
		}
	})
	t.Run("endless body cut", func(t *testing.T) {
		f, u := server(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			chunk := bytes.Repeat([]byte("<p>more</p>"), 1000)
			for r.Context().Err() == nil {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}, &Options{MaxBodyBytes: 1 << 20})
		resp, err := f.Fetch(context.Background(), &Request{URL: u})
		if err != nil {
			t.Fatal(err)
		}
		if !resp.Truncated || len(resp.Body) != 1<<20 {
			t.Fatalf("Truncated=%v len=%d", resp.Truncated, len(resp.Body))
		}
	})
	t.Run("gzip bomb", func(t *testing.T) {
		bomb := gz(bytes.Repeat([]byte{' '}, 50<<20)) // ~50 KB compressed, 50 MB inflated
		f, u := server(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(bomb)
		}, nil)
		_, err := f.Fetch(context.Background(), &Request{URL: u})
		if !errors.Is(err, ErrDecompressionBomb) {
			t.Fatalf("err = %v, want ErrDecompressionBomb", err)
		}
		if Kind(err) != "bomb" || Transient(err) {
			t.Errorf("Kind=%q Transient=%v", Kind(err), Transient(err))
		}
	})
	t.Run("huge header", func(t *testing.T) {
		f, u := server(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Big", strings.Repeat("a", 64<<10))
			w.Write([]byte("hi"))
		}, &Options{MaxHeaderBytes: 16 << 10})
		if _, err := f.Fetch(context.Background(), &Request{URL: u}); err == nil {
			t.Fatal("Fetch with a 64 KiB header under a 16 KiB limit succeeded")
		}
	})
	t.Run("timeout", func(t *testing.T) {
		release := make(chan struct{})
		defer close(release)
		f, u := server(t, func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}, &Options{Timeout: 50 * time.Millisecond})
		_, err := f.Fetch(context.Background(), &Request{URL: u})
		if Kind(err) != "timeout" || !Transient(err) {
			t.Fatalf("err = %v, Kind %q Transient %v; want a transient timeout", err, Kind(err), Transient(err))
		}
	})
	t.Run("connection reset", func(t *testing.T) {
		f, u := server(t, func(w http.ResponseWriter, r *http.Request) {
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.(*net.TCPConn).SetLinger(0)
			conn.Close()
		}, nil)
		_, err := f.Fetch(context.Background(), &Request{URL: u})
		if err == nil || Kind(err) != "connection" || !Transient(err) {
			t.Fatalf("err = %v, Kind %q Transient %v", err, Kind(err), Transient(err))
		}
	})
}

func TestFetchStatuses(t *testing.T) {
	f, u := server(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("s") {
		case "redirect":
			w.Header().Set("Location", "../other?x=1")
			w.WriteHeader(http.StatusMovedPermanently)
		case "404":
			http.NotFound(w, r)
		case "429":
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
		case "503":
			w.WriteHeader(http.StatusServiceUnavailable)
		case "cond":
			if r.Header.Get("If-None-Match") == `"v1"` {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			w.Header().Set("ETag", `"v1"`)
			w.Header().Set("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT")
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<p>v1</p>"))
		}
	}, nil)
	get := func(q string, etag string) (*Response, error) {
		v := *u
		v.RawQuery = "s=" + q
		return f.Fetch(context.Background(), &Request{URL: &v, ETag: etag})
	}

	resp, err := get("redirect", "")
	if err != nil || resp.Status != 301 || resp.Location == nil || resp.Location.Path != "/other" || resp.Location.RawQuery != "x=1" {
		t.Errorf("redirect: resp=%+v err=%v; want 301 with Location /other?x=1", resp, err)
	}
	resp, err = get("404", "")
	if !errors.Is(err, ErrStatus) || resp == nil || resp.Status != 404 || Transient(err) || Kind(err) != "status-4xx" {
		t.Errorf("404: resp=%v err=%v Transient=%v", resp, err, Transient(err))
	}
	resp, err = get("429", "")
	if !Transient(err) || resp.RetryAfter != 7*time.Second {
		t.Errorf("429: Transient=%v RetryAfter=%v, want true 7s", Transient(err), resp.RetryAfter)
	}
	_, err = get("503", "")
	if !Transient(err) || Kind(err) != "status-5xx" {
		t.Errorf("503: Transient=%v Kind=%q", Transient(err), Kind(err))
	}
	resp, err = get("cond", "")
	if err != nil || resp.ETag != `"v1"` || resp.LastModified.IsZero() || resp.NotModified {
		t.Fatalf("cond first: %+v %v", resp, err)
	}
	resp, err = get("cond", resp.ETag)
	if err != nil || !resp.NotModified || resp.Status != 304 {
		t.Errorf("cond second: NotModified=%v Status=%d err=%v, want 304", resp.NotModified, resp.Status, err)
	}
}

func TestPrivateNetworkGuard(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("secret")) }))
	defer ts.Close()
	u, _ := url.Parse(ts.URL)
	_, port, _ := net.SplitHostPort(u.Host)

	f := New(nil)
	defer f.CloseIdleConnections()
	for _, host := range []string{u.Host, "localhost:" + port, "[::1]:" + port, "0.0.0.0:" + port} {
		v := *u
		v.Host = host
		_, err := f.Fetch(context.Background(), &Request{URL: &v})
		if !errors.Is(err, ErrPrivateAddress) {
			t.Errorf("Fetch(%s) err = %v, want ErrPrivateAddress", v.String(), err)
		}
	}

	// A custom dialer is guarded by the connection's remote address.
	custom := New(&Options{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		return net.Dial("tcp", u.Host)
	}})
	defer custom.CloseIdleConnections()
	pub, _ := url.Parse("http://public.example/")
	if _, err := custom.Fetch(context.Background(), &Request{URL: pub}); !errors.Is(err, ErrPrivateAddress) {
		t.Errorf("custom dialer to loopback: err = %v, want ErrPrivateAddress", err)
	}
	if _, err := custom.Get(context.Background(), pub); !errors.Is(err, ErrPrivateAddress) {
		t.Errorf("Get through custom dialer to loopback: err = %v, want ErrPrivateAddress", err)
	}
}

func TestDNSCache(t *testing.T) {
	var lookups atomic.Int32
	now := time.Unix(1000, 0)
	d := newDialer(Options{DNSCacheTTL: time.Minute, Now: func() time.Time { return now }})
	d.lookupNetIP = func(ctx context.Context, network, host string) ([]netip.Addr, error) {
		lookups.Add(1)
		if host == "nx.example" {
			return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		}
		return []netip.Addr{netip.MustParseAddr("93.184.216.34")}, nil
	}
	for i := range 5 {
		if _, err := d.lookup(context.Background(), "a.example"); err != nil {
			t.Fatal(err)
		}
		if got := lookups.Load(); got != 1 {
			t.Fatalf("after %d lookups of a cached name, resolver called %d times, want 1", i+1, got)
		}
	}
	now = now.Add(2 * time.Minute)
	d.lookup(context.Background(), "a.example")
	if got := lookups.Load(); got != 2 {
		t.Fatalf("after expiry resolver called %d times, want 2", got)
	}
	if _, err := d.lookup(context.Background(), "nx.example"); err == nil {
		t.Fatal("lookup of a missing name succeeded")
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"", 0}, {"120", 2 * time.Minute}, {"-5", 0}, {"abc", 0},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0},
		{"999999999", 7 * 24 * time.Hour},
	}
	for _, tt := range tests {
		if got := ParseRetryAfter(tt.in, now); got != tt.want {
			t.Errorf("ParseRetryAfter(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestErrorFormat(t *testing.T) {
	e := &Error{URL: "http://a/", StatusCode: 503, Err: ErrStatus}
	if got, want := e.Error(), "fetch http://a/: status 503: fetch: error status"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(fmt.Errorf("wrap: %w", e), ErrStatus) {
		t.Error("errors.Is through a wrapped *Error failed")
	}
}

func BenchmarkFetch(b *testing.B) {
	page := bytes.Repeat([]byte("<p>some text <a href='/x'>link</a></p>\n"), 1000)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	defer ts.Close()
	f := New(&Options{AllowPrivateNetworks: true})
	defer f.CloseIdleConnections()
	u, _ := url.Parse(ts.URL)
	b.ReportAllocs()
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		resp, err := f.Fetch(context.Background(), &Request{URL: u})
		if err != nil || len(resp.Body) != len(page) {
			b.Fatal(err)
		}
	}
	_ = io.Discard
}

// TestTransportOptions checks that the connection options reach the
// Transport, with their documented defaults.
func TestTransportOptions(t *testing.T) {
	tests := []struct {
		name                  string
		opts                  *Options
		idle, perHost, rd, wr int
	}{
		{name: "defaults", opts: nil, idle: 1024, perHost: 4, rd: 1 << 10, wr: 512},
		{name: "set", opts: &Options{MaxIdleConns: 64, MaxConnsPerHost: 2, ReadBufferSize: 8 << 10, WriteBufferSize: 512},
			idle: 64, perHost: 2, rd: 8 << 10, wr: 512},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := New(tt.opts).transport
			if tr.MaxIdleConns != tt.idle || tr.MaxIdleConnsPerHost != tt.perHost || tr.MaxConnsPerHost != tt.perHost ||
				tr.ReadBufferSize != tt.rd || tr.WriteBufferSize != tt.wr {
				t.Errorf("Transport: MaxIdleConns %d, per host idle %d / max %d, buffers %d/%d; want %d, %d/%d, %d/%d",
					tr.MaxIdleConns, tr.MaxIdleConnsPerHost, tr.MaxConnsPerHost, tr.ReadBufferSize, tr.WriteBufferSize,
					tt.idle, tt.perHost, tt.perHost, tt.rd, tt.wr)
			}
		})
	}
}

// TestLongResponseHeader checks that a response whose header lines are
// longer than the connection's read buffer is read whole, header and body.
func TestLongResponseHeader(t *testing.T) {
	long := strings.Repeat("v", 6<<10)
	body := "<html><body>" + strings.Repeat("<p>text</p>", 1000) + "</body></html>"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("X-Long", long)
		io.WriteString(w, body)
	}))
	defer srv.Close()
	f := New(&Options{AllowPrivateNetworks: true})
	u, err := url.Parse(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // the second fetch reuses the connection
		resp, err := f.Fetch(context.Background(), &Request{URL: u})
		if err != nil {
			t.Fatalf("fetch %d: %v", i, err)
		}
		if got := resp.Header.Get("X-Long"); got != long {
			t.Errorf("fetch %d: X-Long has %d bytes, want %d", i, len(got), len(long))
		}
		if string(resp.Body) != body {
			t.Errorf("fetch %d: body has %d bytes, want %d", i, len(resp.Body), len(body))
		}
	}
}

// TestFetchBinaryAndWildcards: accepted binary bodies come back byte for
// byte (no UTF-8 repair, no charset); "type/*" and "*/*" accept by pattern.
func TestFetchBinaryAndWildcards(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe\x80")
	gzBody := gz([]byte("<urlset></urlset>"))
	tests := []struct {
		name    string
		accept  []string
		ctype   string
		body    []byte
		wantErr bool
	}{
		{name: "image/* takes png", accept: []string{"text/html", "image/*"}, ctype: "image/png", body: png},
		{name: "gzip file", accept: []string{"application/gzip"}, ctype: "application/gzip", body: gzBody},
		{name: "*/* takes pdf", accept: []string{"*/*"}, ctype: "application/pdf", body: []byte("%PDF-1.4 \xe2\x28\xa1")},
		{name: "image/* refuses pdf", accept: []string{"image/*"}, ctype: "application/pdf", body: []byte("%PDF-1.4"), wantErr: true},
		{name: "image/* is no prefix match", accept: []string{"image/*"}, ctype: "imagex/png", body: []byte("\x00\x01\x02 not an image"), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, u := server(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.ctype)
				w.Write(tt.body)
			}, &Options{AcceptTypes: tt.accept})
			resp, err := f.Fetch(context.Background(), &Request{URL: u})
			if tt.wantErr {
				if !errors.Is(err, ErrContentType) {
					t.Fatalf("Fetch err = %v, want ErrContentType", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			if !bytes.Equal(resp.Body, tt.body) || resp.Charset != "" || resp.ContentType != tt.ctype {
				t.Errorf("Body %q, Charset %q, ContentType %q; want %q byte for byte, no charset, %s", resp.Body, resp.Charset, resp.ContentType, tt.body, tt.ctype)
			}
		})
	}
}
