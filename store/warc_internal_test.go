package store

import (
	"bytes"
	"crypto/sha1"
	"encoding/base32"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/trawl-dev/trawl/fetch"
)

func digestOf(b []byte) string {
	d := sha1.Sum(b)
	return "sha1:" + base32.StdEncoding.EncodeToString(d[:])
}

// FuzzScanHTTP checks the one pass that splits a response into header and
// payload where the fetcher's parse ended it (fetch.Exchange.PayloadOffset)
// and digests both, with the response arriving in pieces of every size
// (the end of the header may straddle two reads). A response with no end
// of its header has no payload.
func FuzzScanHTTP(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html>hello</html>"), uint8(3))
	f.Add([]byte("HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n"), uint8(1))
	f.Add([]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"), uint8(2))
	f.Add([]byte("HTTP/1.1 200 OK\nContent-Type: text/html\n\n<script>x</script>\r\n\r\nV"), uint8(4))
	f.Add([]byte("HTTP/1.1 200 OK\r\nCut: inside the header"), uint8(5))
	f.Add([]byte(""), uint8(0))
	u, _ := url.Parse("http://h0.test/")
	f.Fuzz(func(t *testing.T, data []byte, piece uint8) {
		buf := make([]byte, int(piece)%16+1)
		off, ok := fetch.NewExchange(u, nil, data).PayloadOffset()
		if !ok {
			off = -1
		}
		var s httpScanner
		// Twice: the scanner is reused.
		for range 2 {
			if err := s.scan(iotest.HalfReader(bytes.NewReader(data)), buf, off); err != nil {
				t.Fatal(err)
			}
		}
		if s.size != int64(len(data)) {
			t.Fatalf("size %d, want %d", s.size, len(data))
		}
		if !ok {
			if s.hasPayload() || len(s.header) != 0 || s.payloadSize != 0 {
				t.Fatalf("no end of the header in %q, yet a payload (%v) of %d bytes after %d", data, s.hasPayload(), s.payloadSize, len(s.header))
			}
			if s.blockDigest(); string(s.digests[0]) != digestOf(data) {
				t.Fatalf("block digest %s, want %s", s.digests[0], digestOf(data))
			}
			return
		}
		if !s.hasPayload() || !bytes.Equal(s.header, data[:off]) {
			t.Fatalf("header %q, want %q", s.header, data[:off])
		}
		if s.payloadSize != int64(len(data))-off {
			t.Fatalf("payload size %d, want %d", s.payloadSize, int64(len(data))-off)
		}
		// The raw payload sum keys the revisit index: valid as soon as
		// scan returns, before any digest is rendered.
		if s.payloadSum != sha1.Sum(data[off:]) {
			t.Fatalf("payload sum %x, want %x", s.payloadSum, sha1.Sum(data[off:]))
		}
		block, payload := string(s.blockDigest()), string(s.payloadDigest())
		if block != digestOf(data) || payload != digestOf(data[off:]) {
			t.Fatalf("digests %s %s, want %s %s", block, payload, digestOf(data), digestOf(data[off:]))
		}
	})
}

func FuzzSURT(f *testing.F) {
	for _, s := range []string{"http://www.Example.com/A?b=C", "https://h0.test:8443/x y", "http://[::1]:80/", "mailto:x", "http://a.b/%20?q= r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rawURL string) {
		k := SURT(rawURL)
		if strings.ContainsAny(k, " \r\n") {
			t.Fatalf("SURT(%q) = %q: a CDXJ key must hold no space or line break", rawURL, k)
		}
		if want := surtReference(rawURL); k != want {
			t.Fatalf("SURT(%q) = %q, want %q", rawURL, k, want)
		}
		// The store keys a record with the URL it was given, parsed,
		// rather than with its string parsed again: the same key.
		if u, err := url.Parse(rawURL); err == nil && u.Host != "" {
			if got := string(escapeControls(appendSURT(nil, u))); got != SURT(u.String()) {
				t.Fatalf("SURT of %q parsed = %q, of its String() %q = %q", rawURL, got, u.String(), SURT(u.String()))
			}
		}
	})
}

// surtReference is SURT written plainly (with strings.Split and
// strings.Builder), against which the allocation-free one is checked.
func surtReference(rawURL string) string {
	s := rawURL
	if u, err := url.Parse(rawURL); err != nil || u.Host == "" {
		s = strings.ToLower(rawURL)
	} else {
		labels := strings.Split(strings.ToLower(u.Hostname()), ".")
		if len(labels) > 1 && labels[0] == "www" {
			labels = labels[1:]
		}
		slices.Reverse(labels)
		s = strings.Join(labels, ",")
		if p := u.Port(); p != "" && !(p == "80" && u.Scheme == "http") && !(p == "443" && u.Scheme == "https") {
			s += ":" + p
		}
		path := u.EscapedPath()
		if path == "" {
			path = "/"
		}
		s += ")" + strings.ToLower(path)
		if u.RawQuery != "" {
			s += "?" + strings.ToLower(u.RawQuery)
		}
	}
	var b strings.Builder
	for _, r := range []byte(s) {
		if r <= ' ' || r == 0x7f {
			fmt.Fprintf(&b, "%%%02X", r)
		} else {
			b.WriteByte(r)
		}
	}
	return b.String()
}

func TestSURT(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{in: "https://www.Example.com/A?b=C", want: "com,example)/a?b=c"},
		{in: "http://h1.test/", want: "test,h1)/"},
		{in: "http://h1.test:8080/x", want: "test,h1:8080)/x"},
		{in: "http://h1.test:80/x", want: "test,h1)/x"},
		{in: "http://h1.test", want: "test,h1)/"},
	} {
		if got := SURT(tt.in); got != tt.want {
			t.Errorf("SURT(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The hand-written CDXJ line's JSON is, byte for byte, what encoding/json
// writes for the map of its fields.
func FuzzCDXJLine(f *testing.F) {
	f.Add("http://h1.test/a?b=\"c\"", "text/html", "sha1:ABC", "f.warc.gz", int64(10), int64(20), 200, false)
	f.Add("http://x/\x01\xff", "", "ABC", "", int64(0), int64(-1), 0, true)
	f.Add("http://x/", "", "", "f.warc.gz", int64(0), int64(5), 200, false)
	f.Add("http://x/?a=1&b=<2>\xff\xfe\u2028", "text/html; charset=\"x\"", "sha1:A:B", "f\\g", int64(1), int64(0), 404, false)
	f.Fuzz(func(t *testing.T, u, mime, digest, file string, offset, length int64, status int, revisit bool) {
		e := cdxjEntry{url: u, mime: mime, digest: digest, file: file, offset: offset, length: length, status: status, date: time.Unix(0, 0)}
		if revisit {
			e.kind = "revisit"
			mime = "warc/revisit"
		}
		line := e.line()
		_, js, _ := bytes.Cut(bytes.TrimSuffix(line, []byte("\n")), []byte(" {"))
		js = append([]byte("{"), js...)
		fields := map[string]string{
			"filename": file,
			"mime":     mime,
			"offset":   strconv.FormatInt(offset, 10),
			"status":   strconv.Itoa(status),
			"url":      u,
		}
		if length >= 0 {
			fields["length"] = strconv.FormatInt(length, 10)
		}
		if digest != "" { // none: a response with no end of its header
			fields["digest"] = digest[strings.IndexByte(digest, ':')+1:]
		}
		want, err := json.Marshal(fields)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(js, want) {
			t.Fatalf("line %q: JSON\n%s\nwant (encoding/json)\n%s", line, js, want)
		}
	})
}
