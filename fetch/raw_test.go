package fetch

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// wireServer is a loopback HTTP/1.1 server that answers each request with
// canned bytes, keeping connections alive, and remembers the request bytes
// it read, so tests compare what the fetcher recorded with what crossed the
// wire.
type wireServer struct {
	ln       net.Listener
	answers  map[string][]byte // path -> the whole response
	mu       sync.Mutex
	requests [][]byte
	conns    int
}

func newWireServer(t *testing.T, answers map[string][]byte) *wireServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &wireServer{ln: ln, answers: answers}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns++
			s.mu.Unlock()
			wg.Go(func() { s.serve(c) })
		}
	})
	return s
}

func (s *wireServer) serve(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	for {
		var req bytes.Buffer
		for {
			line, err := br.ReadString('\n')
			req.WriteString(line)
			if err != nil {
				return
			}
			if line == "\r\n" {
				break
			}
		}
		s.mu.Lock()
		s.requests = append(s.requests, bytes.Clone(req.Bytes()))
		s.mu.Unlock()
		path := strings.Fields(req.String())[1]
		if _, err := c.Write(s.answers[path]); err != nil {
			return
		}
	}
}

func (s *wireServer) url(path string) *url.URL {
	u, _ := url.Parse("http://" + s.ln.Addr().String() + path)
	return u
}

type captured struct {
	url       string
	status    int
	truncated bool
	request   []byte
	response  []byte
}

func recordingFetcher(t *testing.T, o Options) (*HTTP, func() []captured) {
	t.Helper()
	var mu sync.Mutex
	var got []captured
	o.AllowPrivateNetworks = true
	o.OnExchange = func(_ context.Context, ex *Exchange) {
		b, err := io.ReadAll(ex.Response())
		if err != nil {
			t.Errorf("reading the exchange: %v", err)
		}
		if int64(len(b)) != ex.ResponseSize() {
			t.Errorf("ResponseSize() = %d, read %d", ex.ResponseSize(), len(b))
		}
		mu.Lock()
		got = append(got, captured{ex.URL.String(), ex.Status, ex.Truncated, bytes.Clone(ex.Request), b})
		mu.Unlock()
	}
	f := New(&o)
	t.Cleanup(f.CloseIdleConnections)
	return f, func() []captured {
		mu.Lock()
		defer mu.Unlock()
		return append([]captured(nil), got...)
	}
}

func TestExchangeIsTheWireBytes(t *testing.T) {
	page := gz([]byte("<html><body>" + strings.Repeat("gzip me ", 200) + "</body></html>"))
	big := bytes.Repeat([]byte("<p>0123456789</p>\n"), 40000) // 720 KB: spooled to a file
	chunked := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n" +
		"5\r\n<html\r\n8\r\n>chunked\r\n0\r\n\r\n"
	answers := map[string][]byte{
		"/gz": append([]byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"+
			"Content-Encoding: gzip\r\nContent-Length: %d\r\n\r\n", len(page))), page...),
		"/big":        append([]byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n", len(big))), big...),
		"/chunked":    []byte(chunked),
		"/redirect":   []byte("HTTP/1.1 301 Moved Permanently\r\nLocation: /gz\r\nContent-Length: 9\r\n\r\nmoved on\n"),
		"/missing":    []byte("HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n\r\nnot found\n"),
		"/same":       []byte("HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n"),
		"/robots.txt": []byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 24\r\n\r\nUser-agent: *\nDisallow:\n"),
	}
	s := newWireServer(t, answers)
	f, got := recordingFetcher(t, Options{})
	ctx := context.Background()
	paths := []string{"/gz", "/big", "/chunked", "/redirect", "/missing", "/same"}
	for _, p := range paths {
		req := &Request{URL: s.url(p)}
		if p == "/same" {
			req.ETag = `"x"`
		}
		f.Fetch(ctx, req)
	}
	resp, err := f.Get(ctx, s.url("/robots.txt"))
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(resp.Body)
	resp.Body.Close()
	paths = append(paths, "/robots.txt")

	ex := got()
	if len(ex) != len(paths) {
		t.Fatalf("%d exchanges recorded, want %d", len(ex), len(paths))
	}
	s.mu.Lock()
	reqs, conns := s.requests, s.conns
	s.mu.Unlock()
	for i, p := range paths {
		e := ex[i]
		if e.url != s.url(p).String() {
			t.Errorf("exchange %d: URL %s, want %s", i, e.url, s.url(p))
		}
		if !bytes.Equal(e.response, answers[p]) {
			t.Errorf("%s: response recorded (%d bytes) differs from the %d bytes served:\n%.200q", p, len(e.response), len(answers[p]), e.response)
		}
		if !bytes.Equal(e.request, reqs[i]) {
			t.Errorf("%s: request recorded\n%q\nwant what the server read\n%q", p, e.request, reqs[i])
		}
		if e.truncated {
			t.Errorf("%s: Truncated, want whole", p)
		}
	}
	if ex[5].status != 304 || ex[3].status != 301 || ex[4].status != 404 {
		t.Errorf("statuses %d %d %d, want 301 404 304", ex[3].status, ex[4].status, ex[5].status)
	}
	// Drained responses keep the connection alive: one connection
	// served everything (the fetches were sequential).
	if conns != 1 {
		t.Errorf("the server saw %d connections, want 1 (keep-alive)", conns)
	}
}

func TestExchangeTruncated(t *testing.T) {
	body := bytes.Repeat([]byte("a"), 10000)
	answers := map[string][]byte{
		"/long": append([]byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n", len(body))), body...),
	}
	s := newWireServer(t, answers)
	f, got := recordingFetcher(t, Options{MaxBodyBytes: 100, ReadBufferSize: 256})
	resp, err := f.Fetch(context.Background(), &Request{URL: s.url("/long")})
	if err != nil || !resp.Truncated {
		t.Fatalf("Fetch: %v, truncated %v", err, resp != nil && resp.Truncated)
	}
	ex := got()
	if len(ex) != 1 || !ex[0].truncated {
		t.Fatalf("exchanges %+v, want one marked Truncated", ex)
	}
	if !bytes.HasPrefix(answers["/long"], ex[0].response) || len(ex[0].response) < 100 {
		t.Errorf("a truncated response must be a prefix of what was served, %d bytes long at least", 100)
	}
}

func TestNoExchangeWithoutHook(t *testing.T) {
	f := New(&Options{AllowPrivateNetworks: true})
	if f.transport.DialTLSContext != nil || !f.transport.ForceAttemptHTTP2 {
		t.Error("a fetcher without OnExchange must keep the default transport (HTTP/2, no recording)")
	}
}

// Over TLS the bytes recorded are those inside it, and the fetcher speaks
// HTTP/1.1 even to a server that offers HTTP/2.
func TestExchangeOverTLS(t *testing.T) {
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(rw, "<html>%s</html>", r.Proto)
	}))
	ts.EnableHTTP2 = true
	ts.StartTLS()
	defer ts.Close()
	f, got := recordingFetcher(t, Options{})
	f.transport.TLSClientConfig = ts.Client().Transport.(*http.Transport).TLSClientConfig // trusts the test certificate
	u, _ := url.Parse(ts.URL + "/tls")
	resp, err := f.Fetch(context.Background(), &Request{URL: u})
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Body) != "<html>HTTP/1.1</html>" {
		t.Errorf("body %q: the server did not see HTTP/1.1", resp.Body)
	}
	ex := got()
	if len(ex) != 1 || !bytes.HasPrefix(ex[0].request, []byte("GET /tls HTTP/1.1\r\n")) ||
		!bytes.HasPrefix(ex[0].response, []byte("HTTP/1.1 200 OK\r\n")) || !bytes.HasSuffix(ex[0].response, []byte("<html>HTTP/1.1</html>")) {
		t.Errorf("exchanges over TLS: %+v", ex)
	}
}

// A resource of a type the fetcher does not accept is recorded as far as
// it was read, marked Truncated; accepted (an archive crawl's "*/*"), it is
// recorded whole.
func TestExchangeNonHTML(t *testing.T) {
	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0, 1, 2, 3}, 5000)...)
	answers := map[string][]byte{
		"/img.png": append([]byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: %d\r\n\r\n", len(png))), png...),
	}
	s := newWireServer(t, answers)
	for _, tt := range []struct {
		accept    []string
		truncated bool
	}{
		{accept: nil, truncated: true},
		{accept: []string{"*/*"}, truncated: false},
	} {
		f, got := recordingFetcher(t, Options{AcceptTypes: tt.accept, ReadBufferSize: 1024})
		f.Fetch(context.Background(), &Request{URL: s.url("/img.png")})
		ex := got()
		if len(ex) != 1 || ex[0].truncated != tt.truncated || !bytes.HasPrefix(answers["/img.png"], ex[0].response) {
			t.Fatalf("AcceptTypes %v: %d exchanges, truncated %v, want %v", tt.accept, len(ex), len(ex) == 1 && ex[0].truncated, tt.truncated)
		}
		if !tt.truncated && !bytes.Equal(ex[0].response, answers["/img.png"]) {
			t.Errorf("AcceptTypes %v: %d bytes recorded, want all %d", tt.accept, len(ex[0].response), len(answers["/img.png"]))
		}
	}
}

// BenchmarkFetchRecording measures what recording the exchange adds to a
// fetch (Options.OnExchange set, reading the response once, as a WARC
// store does) for a 5.5 KB page, the size of scenario A's: compare
// record=off with record=on. cpu-ns/op is the process's CPU time, server
// included.
func BenchmarkFetchRecording(b *testing.B) {
	page := bytes.Repeat([]byte("<p>some text <a href='/x'>link</a></p>\n"), 140)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	defer ts.Close()
	u, _ := url.Parse(ts.URL)
	for _, record := range []bool{false, true} {
		b.Run(fmt.Sprintf("record=%v", record), func(b *testing.B) {
			o := &Options{AllowPrivateNetworks: true}
			var n int64
			if record {
				o.OnExchange = func(_ context.Context, ex *Exchange) {
					m, _ := io.Copy(io.Discard, ex.Response())
					n += m
				}
			}
			f := New(o)
			defer f.CloseIdleConnections()
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			var ru0, ru1 syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
			for b.Loop() {
				resp, err := f.Fetch(context.Background(), &Request{URL: u})
				if err != nil || len(resp.Body) != len(page) {
					b.Fatal(err)
				}
			}
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
			cpu := ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano()
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
			if record && n < int64(b.N)*int64(len(page)) {
				b.Fatalf("recorded %d bytes for %d fetches", n, b.N)
			}
		})
	}
}

// TestExchangeRecordersReused: the fetcher reuses its recorders (and their
// buffers) from one request to the next; concurrent fetches of responses
// of different sizes (one larger than a kept buffer, one spooled to a
// file) each still get exactly their own bytes.
func TestExchangeRecordersReused(t *testing.T) {
	answers := map[string][]byte{}
	for i, n := range []int{10, 3000, 100 << 10, 300 << 10} {
		body := bytes.Repeat([]byte{byte('a' + i)}, n)
		answers[fmt.Sprintf("/p%d", i)] = append([]byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n", n)), body...)
	}
	s := newWireServer(t, answers)
	f, got := recordingFetcher(t, Options{MaxBodyBytes: 1 << 20})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 12 {
				f.Fetch(context.Background(), &Request{URL: s.url(fmt.Sprintf("/p%d", (g+i)%4))})
			}
		})
	}
	wg.Wait()
	ex := got()
	if len(ex) != 48 {
		t.Fatalf("%d exchanges recorded, want 48", len(ex))
	}
	for _, e := range ex {
		u, _ := url.Parse(e.url)
		if want := answers[u.Path]; !bytes.Equal(e.response, want) {
			t.Errorf("%s: recorded %d bytes (%.40q…), want the %d served", u.Path, len(e.response), e.response, len(want))
		}
		if !bytes.HasPrefix(e.request, []byte("GET "+u.Path+" HTTP/1.1\r\n")) || !bytes.HasSuffix(e.request, []byte("\r\n\r\n")) {
			t.Errorf("%s: request recorded %q", u.Path, e.request)
		}
	}
}

// TestExchangePayloadOffset: hostile servers on loopback send headers that
// end at a bare LF, interim responses, continued lines, and a header too
// large to stay in memory (spooled to the file); PayloadOffset is where
// the body the fetcher parsed begins in the bytes recorded.
func TestExchangePayloadOffset(t *testing.T) {
	body := "<script>x()</script>\r\n\r\n<p>after a CRLF CRLF</p>"
	long := strings.Repeat("X-Pad: "+strings.Repeat("p", 990)+"\n", 300) // 300 KB: spooled
	answers := map[string][]byte{}
	for path, header := range map[string]string{
		"/crlf":    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n",
		"/lf":      "HTTP/1.1 200 OK\nContent-Type: text/html\nContent-Length: %d\n\n",
		"/mixed":   "HTTP/1.1 200 OK\r\nContent-Type: text/html\nContent-Length: %d\r\n\n",
		"/interim": "HTTP/1.1 103 Early Hints\nLink: </s.css>\n\nHTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\nContent-Type: text/html\nContent-Length: %d\n\n",
		"/folded":  "HTTP/1.1 200 OK\nContent-Type: text/html\nX-Folded: a\n \r\n\tb\r\nContent-Length: %d\n\n",
		"/long":    "HTTP/1.1 200 OK\nContent-Type: text/html\n" + long + "Content-Length: %d\n\n",
	} {
		answers[path] = append(fmt.Appendf(nil, header, len(body)), body...)
	}
	s := newWireServer(t, answers)
	type seen struct {
		off      int64
		ok       bool
		response []byte
	}
	got := map[string]seen{}
	f := New(&Options{AllowPrivateNetworks: true, OnExchange: func(_ context.Context, ex *Exchange) {
		b, _ := io.ReadAll(ex.Response())
		off, ok := ex.PayloadOffset()
		got[ex.URL.Path] = seen{off, ok, b}
	}})
	defer f.CloseIdleConnections()
	for path := range answers {
		resp, err := f.Fetch(context.Background(), &Request{URL: s.url(path)})
		if err != nil {
			t.Fatalf("Fetch(%s): %v", path, err)
		}
		if string(resp.Body) != body {
			t.Fatalf("%s: the fetcher parsed the body %q, want %q", path, resp.Body, body)
		}
		g := got[path]
		if !bytes.Equal(g.response, answers[path]) {
			t.Fatalf("%s: %d bytes recorded, want the %d served", path, len(g.response), len(answers[path]))
		}
		if !g.ok || string(g.response[g.off:]) != body {
			t.Errorf("%s: PayloadOffset() = %d, %v: the payload recorded is %.60q, want the body parsed, %.60q", path, g.off, g.ok, g.response[min(g.off, int64(len(g.response))):], body)
		}
	}
	// Bytes with no end of the header have no payload.
	if off, ok := NewExchange(s.url("/x"), nil, []byte("HTTP/1.1 200 OK\r\nA: b\r\n")).PayloadOffset(); ok {
		t.Errorf("PayloadOffset() of a header with no end = %d, true", off)
	}
}

// BenchmarkResponseEnd measures what finding a recorded response's end
// costs an archive (Exchange.ResponseSize reads it again as net/http
// does), for a 20 KB page with a Content-Length and chunked.
func BenchmarkResponseEnd(b *testing.B) {
	body := strings.Repeat("<p>twenty bytes.</p>", 1000)
	u, _ := url.Parse("http://a.test/")
	for name, resp := range map[string]string{
		"length":  fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(body), body),
		"chunked": fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n", len(body), body),
	} {
		b.Run(name, func(b *testing.B) {
			raw := []byte(resp)
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				if n := NewExchange(u, []byte("GET / HTTP/1.1\r\n\r\n"), raw).ResponseSize(); n != int64(len(raw)) {
					b.Fatalf("ResponseSize() = %d, want %d", n, len(raw))
				}
			}
		})
	}
}
