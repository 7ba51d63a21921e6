package fetch

import (
	"bytes"
	stdgzip "compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"syscall"
	"testing"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"

	"github.com/trawl-dev/trawl/internal/testpage"
)

// gzipped returns page compressed as nginx's gzip (level 1) sends it.
func gzipped(tb testing.TB, page []byte) []byte {
	tb.Helper()
	var z bytes.Buffer
	w, err := stdgzip.NewWriterLevel(&z, 1)
	if err != nil {
		tb.Fatal(err)
	}
	w.Write(page)
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return z.Bytes()
}

// BenchmarkInflate compares the gzip readers the fetcher could use on a
// 50 KB page: compress/gzip's and klauspost/compress's, each new for every
// body (what the fetcher did) or reset (what it does: a kept reader).
// cpu-ns/op is the process's CPU time per body.
func BenchmarkInflate(b *testing.B) {
	page := testpage.Article(1, 60, 50<<10)
	z := gzipped(b, page)
	r := bytes.NewReader(z)
	readers := []struct {
		name string
		read func() (int64, error)
	}{
		{"impl=stdlib/new", func() (int64, error) {
			r.Reset(z)
			zr, err := stdgzip.NewReader(r)
			if err != nil {
				return 0, err
			}
			return io.Copy(io.Discard, zr)
		}},
		{"impl=klauspost/new", func() (int64, error) {
			r.Reset(z)
			zr, err := gzip.NewReader(r)
			if err != nil {
				return 0, err
			}
			return io.Copy(io.Discard, zr)
		}},
	}
	std, _ := stdgzip.NewReader(bytes.NewReader(z))
	readers = append(readers, struct {
		name string
		read func() (int64, error)
	}{"impl=stdlib/reset", func() (int64, error) {
		r.Reset(z)
		if err := std.Reset(r); err != nil {
			return 0, err
		}
		return io.Copy(io.Discard, std)
	}})
	kp, _ := gzip.NewReader(bytes.NewReader(z))
	readers = append(readers, struct {
		name string
		read func() (int64, error)
	}{"impl=klauspost/reset", func() (int64, error) {
		r.Reset(z)
		if err := kp.Reset(r); err != nil {
			return 0, err
		}
		return io.Copy(io.Discard, kp)
	}})
	for _, rd := range readers {
		b.Run(rd.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			cpu0 := cpuNanos()
			for b.Loop() {
				if n, err := rd.read(); err != nil || n != int64(len(page)) {
					b.Fatalf("read %d bytes, err %v; want %d", n, err, len(page))
				}
			}
			b.ReportMetric(float64(cpuNanos()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkFetchGzip is a whole fetch of a gzipped 50 KB page over
// loopback: what the fetcher allocates and spends per compressed page.
func BenchmarkFetchGzip(b *testing.B) {
	page := testpage.Article(1, 60, 50<<10)
	z := gzipped(b, page)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(z)
	}))
	defer ts.Close()
	f := New(&Options{AllowPrivateNetworks: true})
	defer f.CloseIdleConnections()
	u, _ := url.Parse(ts.URL)
	b.ReportAllocs()
	b.SetBytes(int64(len(page)))
	cpu0 := cpuNanos()
	for b.Loop() {
		resp, err := f.Fetch(context.Background(), &Request{URL: u})
		if err != nil || !bytes.Equal(resp.Body, page) {
			b.Fatalf("Fetch: %d bytes, err %v", len(resp.Body), err)
		}
	}
	b.ReportMetric(float64(cpuNanos()-cpu0)/float64(b.N), "cpu-ns/op")
}

// cpuNanos is the process's CPU time (user + system) so far: on a shared
// machine a steadier figure than wall time (the server's CPU counts in the
// fetch benchmark too).
func cpuNanos() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// postgresPage is a page of the PostgreSQL manual as bench/docsites.sh
// serves it (13,965 bytes, about the site's mean of 13.8 KB; 5.3 KB
// gzipped at nginx's level 1). The benchmarks that use it skip when the
// Debian package postgresql-doc-15 is not installed.
const postgresPage = "/usr/share/doc/postgresql-doc-15/html/wal-reliability.html"

// BenchmarkBodyPostgres is the fetcher's body path (readBody: inflating,
// sniffing, limiting, the charset, the copy out) on a real page gzipped as
// nginx sends it, against inflating alone (a kept klauspost flate reader
// into a kept buffer, the floor of any gzip body path) and the same page
// not compressed. The response body is an io.Reader only, as net/http's
// is, so the gzip reader reads it through its bufio.Reader as in a crawl.
func BenchmarkBodyPostgres(b *testing.B) {
	page, err := os.ReadFile(postgresPage)
	if err != nil {
		b.Skipf("%v (bench/docsites.sh install)", err)
	}
	z := gzipped(b, page)
	f := New(nil)
	body := func(enc string, data []byte) func() ([]byte, error) {
		r := bytes.NewReader(nil)
		hresp := &http.Response{Header: http.Header{"Content-Type": {"text/html"}}, ContentLength: -1}
		if enc != "" {
			hresp.Header.Set("Content-Encoding", enc)
		}
		return func() ([]byte, error) {
			r.Reset(data)
			hresp.Body = io.NopCloser(struct{ io.Reader }{r})
			resp := new(Response)
			err := f.readBody(hresp, resp)
			return resp.Body, err
		}
	}
	var out bytes.Buffer
	fr := flate.NewReader(nil)
	inflate := func() ([]byte, error) {
		// The gzip header nginx writes is 10 bytes, with no optional
		// fields; the trailer (CRC and size) is left unread.
		if err := fr.(flate.Resetter).Reset(bytes.NewReader(z[10:]), nil); err != nil {
			return nil, err
		}
		out.Reset()
		_, err := out.ReadFrom(fr)
		return out.Bytes(), err
	}
	for _, bc := range []struct {
		name string
		read func() ([]byte, error)
	}{
		{"path=inflate-only", inflate},
		{"path=readBody/gzip", body("gzip", z)},
		{"path=readBody/identity", body("", page)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			cpu0 := cpuNanos()
			for b.Loop() {
				if got, err := bc.read(); err != nil || !bytes.Equal(got, page) {
					b.Fatalf("read %d bytes, err %v; want %d", len(got), err, len(page))
				}
			}
			b.ReportMetric(float64(cpuNanos()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
