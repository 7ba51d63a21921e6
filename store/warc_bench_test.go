package store_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/store"
)

// exchanges fetches n pages of a crawltest web and keeps their exchanges.
func exchanges(tb testing.TB, n int) []*fetch.Exchange {
	tb.Helper()
	web := crawltest.NewTestWeb(tb, &crawltest.Options{Seed: 3, Hosts: 1, PagesPerHost: n})
	var out []*fetch.Exchange
	f := fetch.New(&fetch.Options{AllowPrivateNetworks: true, DialContext: web.DialContext,
		OnExchange: func(_ context.Context, ex *fetch.Exchange) {
			resp, _ := io.ReadAll(ex.Response())
			c := fetch.NewExchange(ex.URL, append([]byte(nil), ex.Request...), resp)
			c.Status, c.Date, c.RemoteAddr = ex.Status, ex.Date, ex.RemoteAddr
			out = append(out, c)
		}})
	defer f.CloseIdleConnections()
	for _, p := range web.Reachable("trawl") {
		if len(out) >= n {
			break
		}
		u, _ := url.Parse(p)
		f.Fetch(context.Background(), &fetch.Request{URL: u})
	}
	return out
}

// BenchmarkWARCPutExchange measures what writing one crawltest page's
// exchange costs: two records built (digests), gzipped and written, and
// its index line, at each gzip level (-4 FastGzip, the default; -3
// klauspost's stateless, -2 Huffman only, 1 to 9), with the request
// record compressed too (min=-1), and with no record compressed
// (min=1073741824: the digests, framing, index line and write alone).
// Bytes are the response's; cpu-ns/op is the process's CPU time and
// file-B/op the bytes written per exchange.
func BenchmarkWARCPutExchange(b *testing.B) {
	exs := exchanges(b, 50)
	var size int64
	for _, ex := range exs {
		size += ex.ResponseSize()
	}
	for _, c := range []struct{ level, min int }{{-4, 0}, {-4, -1}, {-3, 0}, {-3, -1}, {1, 0}, {1, -1}, {6, 0}, {9, 0}, {-2, 0}, {-4, 1 << 30}} {
		b.Run(fmt.Sprintf("gzip=%d/min=%d", c.level, c.min), func(b *testing.B) {
			dir := b.TempDir()
			w, err := store.NewWARC(dir, &store.WARCOptions{NoRevisits: true, GzipLevel: c.level, MinGzipSize: c.min, Now: func() time.Time { return time.Unix(0, 0) }})
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(size / int64(len(exs)))
			b.ReportAllocs()
			i := 0
			var ru0, ru1 syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
			for b.Loop() {
				if err := w.PutExchange(context.Background(), exs[i%len(exs)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
			cpu := time.Duration(ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano())
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
			w.Close()
			var total int64
			files, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
			for _, f := range files {
				fi, _ := os.Stat(f)
				total += fi.Size()
			}
			b.ReportMetric(float64(total)/float64(b.N), "file-B/op")
		})
	}
}

// BenchmarkWARCPutImage measures writing the exchange of a 100 KB JPEG
// (random bytes, which no deflate shrinks): its record is stored without
// trying to compress it.
func BenchmarkWARCPutImage(b *testing.B) {
	body := make([]byte, 100<<10)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range body {
		body[i] = byte(rng.Uint32())
	}
	resp := append(fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n", len(body)), body...)
	u, _ := url.Parse("http://h0.test/photo.jpg")
	ex := fetch.NewExchange(u, []byte("GET /photo.jpg HTTP/1.1\r\nHost: h0.test\r\n\r\n"), resp)
	ex.Status, ex.Date, ex.RemoteAddr = 200, time.Unix(0, 0), "127.0.0.1:80"
	w, err := store.NewWARC(b.TempDir(), &store.WARCOptions{NoRevisits: true})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if err := w.PutExchange(context.Background(), ex); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFastGzip measures FastGzip's encoder alone on crawltest
// responses (about 5.5 KB each); ratio is the output's size over the
// input's.
func BenchmarkFastGzip(b *testing.B) {
	var resps [][]byte
	var size int
	for _, ex := range exchanges(b, 50) {
		r, _ := io.ReadAll(ex.Response())
		resps = append(resps, r)
		size += len(r)
	}
	member := store.NewFastGzipMember()
	var out []byte
	b.SetBytes(int64(size / len(resps)))
	b.ReportAllocs()
	i, in, written := 0, 0, 0
	for b.Loop() {
		r := resps[i%len(resps)]
		out = member(out[:0], r)
		in += len(r)
		written += len(out)
		i++
	}
	b.ReportMetric(float64(written)/float64(in), "ratio")
}
