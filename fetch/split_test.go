package fetch

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"testing"
)

// clientOffset is where net/http's client begins the body of response:
// http.ReadResponse in the transport's loop, which skips interim (1xx but
// 101) responses, read through a bufio.Reader of size buf; false when it
// fails.
func clientOffset(response []byte, buf int) (int, bool) {
	r := bytes.NewReader(response)
	br := bufio.NewReaderSize(r, buf)
	req, _ := http.NewRequest(http.MethodGet, "http://example.com/", nil)
	for {
		resp, err := http.ReadResponse(br, req)
		if err != nil {
			return 0, false
		}
		if resp.StatusCode >= 100 && resp.StatusCode <= 199 && resp.StatusCode != 101 {
			continue
		}
		// ReadResponse reads no body: what it took is the header.
		return len(response) - r.Len() - br.Buffered(), true
	}
}

// splitCases: header and payload, or, with noEnd, bytes with no end of the
// header.
var splitCases = []struct {
	name            string
	header, payload string
	noEnd           bool
}{
	{name: "CRLF", header: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n", payload: "<p>"},
	{name: "bare LF", header: "HTTP/1.1 200 OK\nContent-Type: text/html\nContent-Length: 20\n\n", payload: "<script>x</script>\r\n\r\nV"},
	{name: "LF then CRLF", header: "HTTP/1.1 200 OK\nA: b\r\n\n", payload: "body\r\n\r\n"},
	{name: "a value ending in CR", header: "HTTP/1.1 200 OK\r\nA: b\r\r\n\r\n", payload: "body"},
	{name: "continued by a blank-looking line", header: "HTTP/1.1 200 OK\r\nA: b\r\n \r\n\r\n", payload: "body"},
	{name: "continued by a tab", header: "HTTP/1.1 200 OK\nA: b\n\tc\n\n", payload: "body"},
	{name: "no header fields", header: "HTTP/1.1 204 No Content\r\n\r\n"},
	{name: "interim responses skipped", header: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\nLink: </a.css>\n\nHTTP/1.1 200 OK\r\n\r\n", payload: "body"},
	{name: "101 is final", header: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n", payload: "HTTP/1.1 200 OK\r\n\r\n"},
	{name: "no end", header: "HTTP/1.1 200 OK\r\nA: b\r\n", noEnd: true},
	{name: "CRLF CR LF", header: "HTTP/1.1 200 OK\r\nA: b\r\n\r \n", noEnd: true},
	{name: "interim then nothing", header: "HTTP/1.1 103 Early Hints\r\n\r\n", noEnd: true},
	{name: "continuation at the end", header: "HTTP/1.1 200 OK\r\nA: b\r\n ", noEnd: true},
	{name: "empty", noEnd: true},
}

func TestPayloadOffset(t *testing.T) {
	for _, tt := range splitCases {
		t.Run(tt.name, func(t *testing.T) {
			response := []byte(tt.header + tt.payload)
			off, ok := payloadOffset(response)
			if ok == tt.noEnd || ok && off != len(tt.header) {
				t.Errorf("payloadOffset(%q) = %d, %v; want %d, %v", response, off, ok, len(tt.header), !tt.noEnd)
			}
			// The table agrees with net/http where net/http accepts.
			if want, ok := clientOffset(response, 4096); ok && (tt.noEnd || want != len(tt.header)) {
				t.Errorf("net/http begins the body of %q at %d; the table says %d, %v", response, want, len(tt.header), !tt.noEnd)
			}
		})
	}
}

// FuzzPayloadOffset compares payloadOffset with net/http's client (see
// clientOffset) on any bytes: where net/http reads a response, the payload
// begins where it began the body, whatever its read buffer's size. And a
// prefix of the bytes has either no header end or the same.
func FuzzPayloadOffset(f *testing.F) {
	for _, tt := range splitCases {
		f.Add([]byte(tt.header+tt.payload), uint16(len(tt.header)))
	}
	f.Add([]byte("HTTP/1.0 200 OK\r\nSet-Cookie: a=b\r\nX: \t y\r\n  z\r\n\r\n"), uint16(7))
	f.Add([]byte("HTTP/1.1 200\nContent-Length: 3\n\nabc"), uint16(9))
	f.Add([]byte("HTTP/1.1 +10 odd\r\n\r\n"), uint16(1))
	f.Add([]byte("HTTP/1.1  199  x\r\nA:\r\n\r\nHTTP/1.1 200 OK\r\nB: c\r\n\r\n"), uint16(30))
	f.Add([]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"), uint16(40))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		// The bytes as they are (net/http rejects most), and a response
		// built from them (which it mostly reads).
		for _, response := range [][]byte{data, responseFrom(data)} {
			off, ok := payloadOffset(response)
			for _, buf := range []int{16, 4096} {
				want, wok := clientOffset(response, buf)
				if wok && (!ok || off != want) {
					t.Fatalf("payloadOffset(%q) = %d, %v; net/http (buffer %d) began the body at %d", response, off, ok, buf, want)
				}
			}
			if ok && (off < 0 || off > len(response)) {
				t.Fatalf("payloadOffset(%q) = %d, out of range", response, off)
			}
			k := int(cut) % (len(response) + 1)
			if poff, pok := payloadOffset(response[:k]); pok && (!ok || poff != off) {
				t.Fatalf("payloadOffset of the first %d bytes of %q = %d, of all = %d, %v", k, response, poff, off, ok)
			}
			// The response an archive records ends after the payload
			// begins and within the bytes held, at the end of the bytes
			// when the header has none.
			ex := NewExchange(nil, []byte("GET / HTTP/1.1\r\n\r\n"), response)
			n := ex.ResponseSize()
			if got, _ := io.Copy(io.Discard, ex.Response()); got != n || n > int64(len(response)) || ok && n < int64(off) || !ok && n != int64(len(response)) {
				t.Fatalf("%q (payload at %d, %v): ResponseSize() = %d, Response() reads %d", response, off, ok, n, got)
			}
		}
	})
}

// responseFrom builds from data one or more responses (interim ones first),
// each a status line and header fields, with lines ending in CRLF, LF, or
// what only looks like an end (CR CR LF, SP CRLF), some continued on lines
// that begin with a space or a tab; the rest of data is the body.
func responseFrom(data []byte) []byte {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		c := data[0]
		data = data[1:]
		return int(c)
	}
	ends := []string{"\r\n", "\n", "\r\n", "\n", "\r\r\n", " \r\n", "\t\n"}
	statuses := []string{"200 OK", "103 Early Hints", "100 Continue", "101 Switching Protocols", "204 No Content", "199 x", "404", " 200  OK", "+10 x"}
	var b []byte
	for range 1 + next()%3 {
		b = append(b, "HTTP/1.1 "...)
		b = append(b, statuses[next()%len(statuses)]...)
		b = append(b, ends[next()%4]...)
		for range next() % 5 {
			b = append(b, "X-"...)
			b = append(b, byte('a'+next()%26))
			b = append(b, ": v"...)
			b = append(b, ends[next()%len(ends)]...)
			switch next() % 4 {
			case 0:
				b = append(b, " more"...)
				b = append(b, ends[next()%len(ends)]...)
			case 1:
				b = append(b, '\t')
				b = append(b, ends[next()%len(ends)]...)
			}
		}
		b = append(b, ends[next()%len(ends)]...) // the empty line, mostly
	}
	return append(b, data...)
}

func BenchmarkPayloadOffset(b *testing.B) {
	resp := []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 5500\r\n" +
		"Date: Mon, 02 Jan 2006 15:04:05 GMT\r\nLast-Modified: Mon, 02 Jan 2006 15:04:05 GMT\r\n" +
		"ETag: \"abcdef0123456789\"\r\nCache-Control: max-age=3600\r\nServer: nginx\r\n\r\n")
	resp = append(resp, bytes.Repeat([]byte("<p>text</p>\n"), 450)...)
	b.SetBytes(int64(len(resp)))
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := payloadOffset(resp); !ok {
			b.Fatal("no header end")
		}
	}
}
