package store_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/store"
)

// rawServer answers every request on 127.0.0.1 with the bytes given for its
// path, as they are (httptest's server writes its own CRLF header), and
// closes the connection.
func rawServer(t *testing.T, answers map[string]string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer c.Close()
				br := bufio.NewReader(c)
				line, err := br.ReadString('\n')
				if err != nil {
					return
				}
				for {
					l, err := br.ReadString('\n')
					if err != nil || l == "\r\n" {
						break
					}
				}
				fields := strings.Fields(line)
				if len(fields) > 1 {
					c.Write([]byte(answers[fields[1]]))
				}
			})
		}
	})
	return "http://" + ln.Addr().String()
}

// warcioRecords has warcio.js's library read file: each record's type,
// target URI, WARC-Payload-Digest and, for a response, its payload as
// warcio splits it from the HTTP header.
type warcioRecord struct {
	Type, URI, Digest string
	Payload           []byte
}

func warcioRecords(t *testing.T, bin, file string) []warcioRecord {
	t.Helper()
	cli, err := filepath.EvalSymlinks(bin) // .../node_modules/warcio/dist/cli.js
	if err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`
import { WARCParser } from %q;
import fs from "node:fs";
for await (const r of new WARCParser(fs.createReadStream(process.argv[1]))) {
  const out = { Type: r.warcType, URI: r.warcTargetURI || "", Digest: r.warcPayloadDigest || "" };
  if (r.warcType === "response") out.Payload = Buffer.from(await r.readFully(false)).toString("base64");
  console.log(JSON.stringify(out));
}`, filepath.Join(filepath.Dir(cli), "index.js"))
	out, err := exec.Command("node", "--input-type=module", "-e", script, file).Output()
	if err != nil {
		t.Fatalf("warcio.js reading %s: %v", filepath.Base(file), err)
	}
	var recs []warcioRecord
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r struct {
			Type, URI, Digest, Payload string
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("warcio.js: line %q: %v", line, err)
		}
		p, _ := base64.StdEncoding.DecodeString(r.Payload)
		recs = append(recs, warcioRecord{r.Type, r.URI, r.Digest, p})
	}
	return recs
}

// TestWARCBareLFPoison is issue 32's item 2. Host A answers /poison with a
// header that ends at a bare LF (net/http accepts it) and a body that
// holds CRLF CRLF and then V; A's /copy serves V itself. Host B serves V.
// The WARC's payload digest for A's /poison must be that of the body the
// fetcher parsed, not of V (which made B's page a revisit of A's /poison,
// B's payload never archived); A's /copy must not make B's page a revisit
// either (payload dedup stays within a host). warcio.js reads B's record
// as a response holding B's payload.
func TestWARCBareLFPoison(t *testing.T) {
	bin := warcio(t)
	const v = "<html><body>B's own page, archived</body></html>"
	poison := "<script>alert('A')</script>\r\n\r\n" + v
	a := rawServer(t, map[string]string{
		"/poison": fmt.Sprintf("HTTP/1.1 200 OK\nContent-Type: text/html\nContent-Length: %d\n\n%s", len(poison), poison),
		"/copy":   fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(v), v),
	})
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(v))
	}))
	defer b.Close()

	dir := t.TempDir()
	w, f := warcFetcher(t, dir)
	parsed := map[string][]byte{} // URL -> the body the fetcher parsed
	for _, rawURL := range []string{a + "/poison", a + "/copy", b.URL + "/page"} {
		u, _ := url.Parse(rawURL)
		resp, err := f.Fetch(context.Background(), &fetch.Request{URL: u})
		if err != nil {
			t.Fatalf("Fetch(%s): %v", u, err)
		}
		parsed[rawURL] = resp.Body
	}
	if string(parsed[a+"/poison"]) != poison {
		t.Fatalf("the fetcher parsed A's /poison as %q, want %q", parsed[a+"/poison"], poison)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files := warcFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("%d files, want 1", len(files))
	}

	byURI := map[string]warcioRecord{}
	for _, r := range warcioRecords(t, bin, files[0]) {
		if r.Type == "response" || r.Type == "revisit" {
			byURI[r.URI] = r
		}
	}
	if r := byURI[a+"/poison"]; r.Type != "response" || r.Digest != sha1Base32([]byte(poison)) {
		t.Errorf("A's /poison: %s record, payload digest %s; want a response with the digest of what the fetcher parsed, %s (that of V: %s)",
			r.Type, r.Digest, sha1Base32([]byte(poison)), sha1Base32([]byte(v)))
	}
	r := byURI[b.URL+"/page"]
	if r.Type != "response" || !bytes.Equal(r.Payload, parsed[b.URL+"/page"]) || r.Digest != sha1Base32([]byte(v)) {
		t.Errorf("B's page: warcio.js reads a %s record, payload %q, digest %s; want a response holding %q", r.Type, r.Payload, r.Digest, v)
	}
	// Read here too: every response's digest is that of the body the
	// fetcher parsed (all are identity-encoded, with a Content-Length).
	for _, rec := range readWARC(t, files[0]) {
		uri := rec.header.Get("WARC-Target-URI")
		if rec.typ() != "response" {
			continue
		}
		if want := sha1Base32(parsed[uri]); rec.header.Get("WARC-Payload-Digest") != want {
			t.Errorf("%s: WARC-Payload-Digest %s, want %s", uri, rec.header.Get("WARC-Payload-Digest"), want)
		}
	}
}

// A response with no end of its header (a recording cut short, or bytes
// given to NewExchange) has no payload: its record carries no
// WARC-Payload-Digest (not that of an empty payload), and neither it nor a
// copy of it becomes a revisit; its index line has no digest. A header
// that ends at a bare LF has a payload, digested from there.
func TestWARCNoHeaderEnd(t *testing.T) {
	dir := t.TempDir()
	w, err := store.NewWARC(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	responses := []string{
		"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Cut: here",
		"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Cut: here",
		"HTTP/1.1 200 OK\nContent-Type: text/html\n\n<p>bare LF</p>",
		"HTTP/1.1 304 Not Modified\r\nETag: \"cut",
	}
	for i, resp := range responses {
		u, _ := url.Parse(fmt.Sprintf("http://h0.test/%d", i))
		ex := fetch.NewExchange(u, []byte(fmt.Sprintf("GET /%d HTTP/1.1\r\nHost: h0.test\r\n\r\n", i)), []byte(resp))
		ex.Status = 200
		if i == 3 {
			ex.Status = 304
		}
		if err := w.PutExchange(context.Background(), ex); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var resps []record
	for _, rec := range readWARC(t, warcFiles(t, dir)[0]) {
		if rec.typ() == "response" || rec.typ() == "revisit" {
			resps = append(resps, rec)
		}
	}
	if len(resps) != 4 {
		t.Fatalf("%d response and revisit records, want 4", len(resps))
	}
	// A 304 with no end of its header is no revisit (whose block would
	// be the header alone): its record holds all of it.
	if r := resps[3]; r.typ() != "response" || string(r.block) != responses[3] {
		t.Errorf("304 with no end of its header: %s record holding %q, want a response holding %q", r.typ(), r.block, responses[3])
	}
	for i, rec := range resps[:2] {
		if rec.typ() != "response" || len(rec.header.Values("WARC-Payload-Digest")) != 0 {
			t.Errorf("exchange %d, no end of its header: %s record, WARC-Payload-Digest %q; want a response with none", i, rec.typ(), rec.header.Values("WARC-Payload-Digest"))
		}
	}
	if d := resps[2].header.Get("WARC-Payload-Digest"); d != sha1Base32([]byte("<p>bare LF</p>")) {
		t.Errorf("bare LF header: WARC-Payload-Digest %q, want %s", d, sha1Base32([]byte("<p>bare LF</p>")))
	}
	for _, e := range readCDXJ(t, dir) {
		if want := e.URL != "http://h0.test/2"; (e.Digest == "") != want {
			t.Errorf("index line of %s: digest %q", e.URL, e.Digest)
		}
	}
}

// TestWARCBytesPastTheBody: a server sends bytes past the body's end (by
// Content-Length, and after the last chunk of a chunked body), which the
// fetcher never parses. The WARC record holds the header and the payload
// the fetcher parsed and not those bytes, and the payload digest is that
// of the body (read by warcio.js).
func TestWARCBytesPastTheBody(t *testing.T) {
	bin := warcio(t)
	const body, junk = "<p>the page</p>", "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsmuggled"
	chunked := fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(body), body)
	a := rawServer(t, map[string]string{
		"/length":  fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s%s", len(body), body, junk),
		"/chunked": "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked + junk,
	})
	dir := t.TempDir()
	w, f := warcFetcher(t, dir)
	for _, path := range []string{"/length", "/chunked"} {
		u, _ := url.Parse(a + path)
		resp, err := f.Fetch(context.Background(), &fetch.Request{URL: u})
		if err != nil {
			t.Fatalf("Fetch(%s): %v", u, err)
		}
		if string(resp.Body) != body {
			t.Fatalf("%s: the fetcher parsed %q, want %q", path, resp.Body, body)
		}
		// The server closes after its answer, but a client that has not
		// seen the close yet may send the next request on the same
		// connection and read the bytes past the body as its answer
		// (net/http drops a connection with unsolicited bytes only once
		// its read loop sees them): each path on a connection of its own.
		f.CloseIdleConnections()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files := warcFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("%d files, want 1", len(files))
	}
	got := 0
	for _, r := range warcioRecords(t, bin, files[0]) {
		if r.Type != "response" {
			continue
		}
		got++
		want := body
		if strings.HasSuffix(r.URI, "/chunked") {
			want = chunked // the payload as transferred
		}
		if string(r.Payload) != want {
			t.Errorf("%s: the record's payload is %q, want %q", r.URI, r.Payload, want)
		}
		if r.Digest != sha1Base32([]byte(want)) {
			t.Errorf("%s: payload digest %s, want %s, that of %q", r.URI, r.Digest, sha1Base32([]byte(want)), want)
		}
	}
	if got != 2 {
		t.Errorf("%d response records, want 2", got)
	}
}

// warcFetcher returns a WARC writer in dir and a fetcher (loopback
// allowed) that archives every exchange with it.
func warcFetcher(t *testing.T, dir string) (*store.WARC, *fetch.HTTP) {
	t.Helper()
	w, err := store.NewWARC(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := fetch.New(&fetch.Options{AllowPrivateNetworks: true, OnExchange: func(ctx context.Context, ex *fetch.Exchange) {
		if err := w.PutExchange(ctx, ex); err != nil {
			t.Errorf("PutExchange(%s): %v", ex.URL, err)
		}
	}})
	t.Cleanup(f.CloseIdleConnections)
	return w, f
}
