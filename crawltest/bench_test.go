package crawltest

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"testing"
)

// BenchmarkServe measures how many pages per second the web serves to one
// keep-alive client, the whole HTTP round trip included.
func BenchmarkServe(b *testing.B) {
	for _, size := range []struct{ hosts, pages int }{{20, 50}, {1000, 1000}} {
		b.Run(fmt.Sprintf("hosts=%d/pages=%d", size.hosts, size.pages), func(b *testing.B) {
			w := NewTestWeb(b, &Options{Hosts: size.hosts, PagesPerHost: size.pages})
			c := w.Client()
			n, total := 0, int64(0)
			b.ReportAllocs()
			for b.Loop() {
				h, id := n%size.hosts, (n*7919)%size.pages
				n++
				resp, err := c.Get(w.pageURL(h, id))
				if err != nil {
					b.Fatal(err)
				}
				m, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				total += m
			}
			b.SetBytes(total / int64(n))
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}

// BenchmarkServeParallel is BenchmarkServe with concurrent clients.
func BenchmarkServeParallel(b *testing.B) {
	w := NewTestWeb(b, &Options{Hosts: 100, PagesPerHost: 100})
	c := &http.Client{Transport: &http.Transport{DialContext: w.DialContext, MaxIdleConnsPerHost: 64}}
	defer c.CloseIdleConnections()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		n := 0
		for pb.Next() {
			n++
			resp, err := c.Get(w.pageURL(n%100, (n*31)%100))
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}

// BenchmarkRender measures generating and rendering one page, without HTTP.
func BenchmarkRender(b *testing.B) {
	w := NewTestWeb(b, &Options{Hosts: 100, PagesPerHost: 1000})
	n := 0
	var total int64
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		n++
		d := w.build(n%100, (n*7919)%1000, "", fixedNow, true)
		buf.Reset()
		total += int64(len(w.renderTo(&buf, d)))
	}
	b.SetBytes(total / int64(n))
}

// BenchmarkReachable measures the ground-truth crawl over the generator.
func BenchmarkReachable(b *testing.B) {
	for _, size := range []struct{ hosts, pages int }{{20, 50}, {100, 1000}} {
		b.Run(fmt.Sprintf("hosts=%d/pages=%d", size.hosts, size.pages), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w := NewTestWeb(b, &Options{Hosts: size.hosts, PagesPerHost: size.pages})
				if len(w.Reachable("bench")) == 0 {
					b.Fatal("nothing reachable")
				}
				w.Close()
			}
		})
	}
}
