package store_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"encoding/base32"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/store"
)

// fixedClock makes crawltest's pages, and their Date headers, the same on
// every request, so archived responses can be compared with fresh ones.
var fixedClock = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func archiveWeb(t *testing.T) *crawltest.Web {
	t.Helper()
	return crawltest.NewTestWeb(t, &crawltest.Options{
		Seed: 7, Hosts: 3, PagesPerHost: 30,
		Now: func() time.Time { return fixedClock }, Epoch: fixedClock.Add(-24 * time.Hour),
		Faults: crawltest.Faults{RedirectChain: 2, ServerErrors: true},
	})
}

// crawlToWARC crawls web into a WARC store in a new directory.
func crawlToWARC(t *testing.T, web *crawltest.Web, o *store.WARCOptions, more ...trawl.Option) (string, *store.WARC) {
	t.Helper()
	dir := t.TempDir()
	w, err := store.NewWARC(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	opts := append([]trawl.Option{
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay, Adaptive: -1}),
		trawl.WithLimits(trawl.Limits{MaxRetries: -1}),
		trawl.WithWorkers(4),
		trawl.WithStore(w),
	}, more...)
	c, err := trawl.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return dir, w
}

// record is a WARC record as parsed here, by hand, from the gzip members:
// deliberately not with the library that wrote it.
type record struct {
	header http.Header // WARC header fields
	block  []byte
	file   string
	offset int64 // of its gzip member in the file
}

func (r record) typ() string { return r.header.Get("WARC-Type") }

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// readWARC parses every record of a .warc.gz file, one gzip member each.
func readWARC(t *testing.T, path string) []record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cr := &countingReader{r: f}
	br := bufio.NewReader(cr)
	var out []record
	for {
		offset := cr.n - int64(br.Buffered())
		if _, err := br.Peek(1); err == io.EOF {
			return out
		}
		zr, err := gzip.NewReader(br) // reads through br's ReadByte: no further than the member
		if err != nil {
			t.Fatalf("%s: record %d: %v", path, len(out), err)
		}
		zr.Multistream(false) // one member: one record
		data, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%s: record %d: %v", path, len(out), err)
		}
		r := parseRecord(t, data, filepath.Base(path))
		r.offset = offset
		out = append(out, r)
	}
}

func parseRecord(t *testing.T, data []byte, file string) record {
	t.Helper()
	head, rest, ok := bytes.Cut(data, []byte("\r\n\r\n"))
	if !ok || !bytes.HasPrefix(head, []byte("WARC/1.1\r\n")) {
		t.Fatalf("%s: not a WARC/1.1 record: %.80q", file, data)
	}
	h := http.Header{}
	for _, line := range strings.Split(string(head), "\r\n")[1:] {
		k, v, _ := strings.Cut(line, ":")
		h.Add(k, strings.TrimSpace(v))
	}
	n, err := strconv.Atoi(h.Get("Content-Length"))
	if err != nil || n+4 != len(rest) || !bytes.HasSuffix(rest, []byte("\r\n\r\n")) {
		t.Fatalf("%s: Content-Length %q, block and trailer of %d bytes", file, h.Get("Content-Length"), len(rest))
	}
	return record{header: h, block: rest[:n], file: file}
}

func sha1Base32(b []byte) string {
	s := sha1.Sum(b)
	return "sha1:" + base32.StdEncoding.EncodeToString(s[:])
}

func warcFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	if len(files) == 0 {
		t.Fatalf("no .warc.gz in %s", dir)
	}
	if open, _ := filepath.Glob(filepath.Join(dir, "*.open")); len(open) > 0 {
		t.Errorf("files left open after Close: %v", open)
	}
	return files
}

func TestWARCRecordsEveryExchange(t *testing.T) {
	web := archiveWeb(t)
	dir, w := crawlToWARC(t, web, &store.WARCOptions{Outlinks: true, Info: map[string]string{"robots": "obey"}})

	var recs []record
	for _, f := range warcFiles(t, dir) {
		rs := readWARC(t, f)
		if len(rs) == 0 || rs[0].typ() != "warcinfo" {
			t.Fatalf("%s does not begin with a warcinfo record", f)
		}
		if info := string(rs[0].block); !strings.Contains(info, "software: trawl") || !strings.Contains(info, "robots: obey") {
			t.Errorf("warcinfo = %q", info)
		}
		recs = append(recs, rs...)
	}
	byID := map[string]record{}
	types := map[string]int{}
	for _, r := range recs {
		byID[r.header.Get("WARC-Record-ID")] = r
		types[r.typ()]++
	}
	t.Logf("records: %v", types)

	// Every digest, recomputed: the block's, and the payload's (the HTTP
	// body after the header, as it came off the wire).
	statuses := map[int]int{}
	responses := map[string]bool{}
	for _, r := range recs {
		if d := r.header.Get("WARC-Block-Digest"); d != sha1Base32(r.block) {
			t.Errorf("%s %s: block digest %s, recomputed %s", r.typ(), r.header.Get("WARC-Target-URI"), d, sha1Base32(r.block))
		}
		switch r.typ() {
		case "response":
			_, body, ok := bytes.Cut(r.block, []byte("\r\n\r\n"))
			if !ok {
				t.Fatalf("response without an HTTP header: %.80q", r.block)
			}
			if d := r.header.Get("WARC-Payload-Digest"); d != sha1Base32(body) {
				t.Errorf("response %s: payload digest %s, recomputed %s", r.header.Get("WARC-Target-URI"), d, sha1Base32(body))
			}
			resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(r.block)), nil)
			if err != nil {
				t.Fatalf("response %s: %v", r.header.Get("WARC-Target-URI"), err)
			}
			statuses[resp.StatusCode/100]++
			responses[r.header.Get("WARC-Target-URI")] = true
			fallthrough
		case "revisit":
			to := r.header.Get("WARC-Concurrent-To")
			if req, ok := byID[to]; !ok || req.typ() != "request" || req.header.Get("WARC-Target-URI") != r.header.Get("WARC-Target-URI") {
				t.Errorf("%s %s: WARC-Concurrent-To %q is not its request", r.typ(), r.header.Get("WARC-Target-URI"), to)
			}
		case "request":
			if !bytes.HasPrefix(r.block, []byte("GET ")) || !bytes.Contains(r.block, []byte("\r\nUser-Agent: trawl/")) {
				t.Errorf("request record %.80q", r.block)
			}
		}
		if r.typ() == "revisit" {
			first, ok := byID[r.header.Get("WARC-Refers-To")]
			if r.header.Get("WARC-Profile") != "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest" || !ok ||
				first.header.Get("WARC-Payload-Digest") != r.header.Get("WARC-Payload-Digest") ||
				first.header.Get("WARC-Target-URI") != r.header.Get("WARC-Refers-To-Target-URI") ||
				first.header.Get("WARC-Date") != r.header.Get("WARC-Refers-To-Date") {
				t.Errorf("revisit %s does not refer to a response with its payload: %v", r.header.Get("WARC-Target-URI"), r.header)
			}
		}
	}
	// Every request the web saw is in the archive: robots.txt, the
	// redirects and the 5xx included.
	log := web.Log().Requests()
	if got := types["request"]; got != len(log) {
		t.Errorf("%d request records, the web served %d requests", got, len(log))
	}
	if types["revisit"] == 0 {
		t.Error("no revisit record: crawltest has exact copies of pages")
	}
	if types["metadata"] == 0 {
		t.Error("no metadata (outlinks) record with Outlinks set")
	}
	for _, k := range []int{2, 3, 5} {
		if statuses[k] == 0 {
			t.Errorf("no %dxx response archived (statuses %v)", k, statuses)
		}
	}
	for _, h := range web.Hosts() {
		if !responses["http://"+h+"/robots.txt"] {
			t.Errorf("robots.txt of %s not archived", h)
		}
	}
	if n, rv := w.Records(); n != int64(len(recs)-len(warcFiles(t, dir))) || rv != int64(types["revisit"]) {
		t.Errorf("Records() = %d, %d; files hold %d records (warcinfo aside) and %d revisits", n, rv, len(recs)-len(warcFiles(t, dir)), types["revisit"])
	}
}

func TestWARCNoRevisitsAndRotation(t *testing.T) {
	web := archiveWeb(t)
	dir, _ := crawlToWARC(t, web, &store.WARCOptions{NoRevisits: true, MaxFileSize: 20 << 10})
	files := warcFiles(t, dir)
	if len(files) < 3 {
		t.Errorf("%d files with MaxFileSize 20 KiB, want several", len(files))
	}
	if !slices.IsSorted(files) {
		t.Errorf("file names do not sort in order of writing: %v", files)
	}
	for _, f := range files {
		rs := readWARC(t, f)
		if rs[0].typ() != "warcinfo" {
			t.Errorf("%s does not begin with warcinfo", f)
		}
		for _, r := range rs {
			if r.typ() == "revisit" {
				t.Errorf("revisit record with NoRevisits: %s", r.header.Get("WARC-Target-URI"))
			}
		}
	}
}

// Conditional GETs answered 304 are revisits, profile server-not-modified.
func TestWARCNotModified(t *testing.T) {
	web := archiveWeb(t)
	dir := t.TempDir()
	w, err := store.NewWARC(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := fetch.New(&fetch.Options{AllowPrivateNetworks: true, DialContext: web.DialContext,
		OnExchange: func(ctx context.Context, ex *fetch.Exchange) {
			if err := w.PutExchange(ctx, ex); err != nil {
				t.Error(err)
			}
		}})
	defer f.CloseIdleConnections()
	u, _ := url.Parse(web.Seeds()[0])
	first, err := f.Fetch(context.Background(), &fetch.Request{URL: u})
	if err != nil || first.ETag == "" {
		t.Fatalf("Fetch: %v, ETag %q", err, first.ETag)
	}
	again, err := f.Fetch(context.Background(), &fetch.Request{URL: u, ETag: first.ETag})
	if err != nil || !again.NotModified {
		t.Fatalf("conditional Fetch: %v, not modified %v", err, again != nil && again.NotModified)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range warcFiles(t, dir) {
		for _, r := range readWARC(t, f) {
			got = append(got, r.typ())
			if r.typ() == "revisit" {
				if p := r.header.Get("WARC-Profile"); p != "http://netpreserve.org/warc/1.1/revisit/server-not-modified" {
					t.Errorf("304 revisit profile %q", p)
				}
				if !bytes.HasPrefix(r.block, []byte("HTTP/1.1 304 ")) {
					t.Errorf("304 revisit block %.60q", r.block)
				}
			}
		}
	}
	if want := []string{"warcinfo", "response", "request", "revisit", "request"}; !slices.Equal(got, want) {
		t.Errorf("records %v, want %v", got, want)
	}
}

// A replay server built from the CDXJ index and the WARC files serves back
// what the crawltest web served, byte for byte.
func TestWARCReplay(t *testing.T) {
	web := archiveWeb(t)
	dir, _ := crawlToWARC(t, web, nil)
	idx := readCDXJ(t, dir)
	if len(idx) == 0 {
		t.Fatal("empty CDXJ index")
	}
	replay := httptest.NewServer(replayHandler(t, dir, idx))
	defer replay.Close()

	n, revisits := 0, 0
	for key, e := range idx {
		if e.Mime == "warc/revisit" {
			revisits++
		}
		// The archived request, sent again to the web and to the replay
		// server: the two answers must be the same bytes.
		req := archivedRequest(t, dir, e)
		live := roundTrip(t, func() (net.Conn, error) { return web.DialContext(context.Background(), "tcp", hostOf(e.URL)) }, req)
		back := roundTrip(t, func() (net.Conn, error) { return net.Dial("tcp", replay.Listener.Addr().String()) }, req)
		if !bytes.Equal(live, back) {
			t.Errorf("%s (%s): replayed %d bytes differ from the %d the web serves:\nreplayed %.300q\nlive     %.300q", e.URL, key, len(back), len(live), back, live)
		}
		n++
	}
	t.Logf("%d archived responses replayed and compared, %d of them revisits", n, revisits)
	if revisits == 0 {
		t.Error("no revisit replayed")
	}
}

type cdxjFields struct {
	URL, Mime, Status, Digest, Length, Offset, Filename string
}

func readCDXJ(t *testing.T, dir string) map[string]cdxjFields {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.cdxj"))
	if len(files) != 1 {
		t.Fatalf("CDXJ files %v, want one", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if !slices.IsSorted(lines) {
		t.Error("CDXJ index not sorted")
	}
	out := map[string]cdxjFields{}
	for _, l := range lines {
		parts := strings.SplitN(l, " ", 3)
		if len(parts) != 3 {
			t.Fatalf("CDXJ line %q", l)
		}
		var f cdxjFields
		if err := json.Unmarshal([]byte(parts[2]), &f); err != nil {
			t.Fatalf("CDXJ line %q: %v", l, err)
		}
		if parts[0] != store.SURT(f.URL) {
			t.Errorf("CDXJ key %q, want SURT(%q) = %q", parts[0], f.URL, store.SURT(f.URL))
		}
		out[parts[0]+" "+parts[1]+" "+f.URL] = f
	}
	return out
}

// member reads the record an index entry points at: one gzip member at
// offset, length bytes long.
func member(t *testing.T, dir string, e cdxjFields) record {
	t.Helper()
	off, _ := strconv.ParseInt(e.Offset, 10, 64)
	n, err := strconv.ParseInt(e.Length, 10, 64)
	if err != nil {
		t.Fatalf("%s: length %q", e.URL, e.Length)
	}
	f, err := os.Open(filepath.Join(dir, e.Filename))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(io.NewSectionReader(f, off, n))
	if err != nil {
		t.Fatalf("%s at %s+%d: %v", e.URL, e.Filename, off, err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s at %s+%d: %v", e.URL, e.Filename, off, err)
	}
	return parseRecord(t, data, e.Filename)
}

// replayHandler serves the archived response for the request's URL, as it
// was received, on the hijacked connection.
func replayHandler(t *testing.T, dir string, idx map[string]cdxjFields) http.HandlerFunc {
	byURL := map[string]cdxjFields{}
	for _, e := range idx {
		byURL[e.URL] = e
	}
	return func(rw http.ResponseWriter, r *http.Request) {
		e, ok := byURL["http://"+r.Host+r.RequestURI]
		if !ok {
			http.NotFound(rw, r)
			return
		}
		rec := member(t, dir, e)
		block := rec.block
		if rec.typ() == "revisit" {
			// Its own HTTP header, the payload of the response it
			// refers to, as a replay tool does.
			first, ok := byURL[rec.header.Get("WARC-Refers-To-Target-URI")]
			if !ok {
				t.Errorf("revisit of %s refers to %s, not in the index", e.URL, rec.header.Get("WARC-Refers-To-Target-URI"))
				return
			}
			_, payload, _ := bytes.Cut(member(t, dir, first).block, []byte("\r\n\r\n"))
			block = append(bytes.Clone(block), payload...)
		}
		conn, buf, err := http.NewResponseController(rw).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		buf.Write(block)
		buf.Flush()
	}
}

// archivedRequest is the request record concurrent to the response e.
func archivedRequest(t *testing.T, dir string, e cdxjFields) []byte {
	t.Helper()
	resp := member(t, dir, e)
	to := resp.header.Get("WARC-Concurrent-To")
	for _, r := range readWARC(t, filepath.Join(dir, e.Filename)) {
		if r.header.Get("WARC-Record-ID") == to {
			return r.block
		}
	}
	t.Fatalf("%s: no request record %s", e.URL, to)
	return nil
}

// roundTrip sends req on a new connection and returns the whole response
// as read.
func roundTrip(t *testing.T, dial func() (net.Conn, error), req []byte) []byte {
	t.Helper()
	conn, err := dial()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := conn.Write(req); err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	resp, err := http.ReadResponse(bufio.NewReader(io.TeeReader(conn, &raw)), nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return raw.Bytes()
}

func hostOf(rawURL string) string {
	h := strings.TrimPrefix(rawURL, "http://")
	h, _, _ = strings.Cut(h, "/")
	if !strings.Contains(h, ":") {
		h += ":80"
	}
	return h
}

// A record larger than the in-memory limit is compressed straight into the
// file, and reads back whole, with its index entry.
func TestWARCLargeRecord(t *testing.T) {
	dir := t.TempDir()
	w, err := store.NewWARC(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	body := bytes.Repeat([]byte("<p>large and compressible</p>\n"), 100_000) // 3 MB
	resp := append([]byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n", len(body))), body...)
	u, _ := url.Parse("http://h0.test/large")
	ex := fetch.NewExchange(u, []byte("GET /large HTTP/1.1\r\nHost: h0.test\r\n\r\n"), resp)
	ex.Status, ex.Date, ex.RemoteAddr = 200, fixedClock, "127.0.0.1:80"
	if err := w.PutExchange(context.Background(), ex); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	recs := readWARC(t, warcFiles(t, dir)[0])
	if len(recs) != 3 || recs[1].typ() != "response" || !bytes.Equal(recs[1].block, resp) {
		t.Fatalf("%d records; the response does not read back whole", len(recs))
	}
	if d := recs[1].header.Get("WARC-Payload-Digest"); d != sha1Base32(body) {
		t.Errorf("payload digest %s, want %s", d, sha1Base32(body))
	}
	for _, e := range readCDXJ(t, dir) {
		if got := member(t, dir, e); !bytes.Equal(got.block, resp) {
			t.Errorf("the index entry (offset %s, length %s) does not give the record", e.Offset, e.Length)
		}
	}
}

// A response whose payload is compressed already (a Content-Encoding, or a
// compressed media type) goes in its member without deflate, small or
// large; others are deflated. The bodies here all compress well, so the
// member's length tells which happened; every record reads back whole.
func TestWARCCompressedPayloadStored(t *testing.T) {
	small := bytes.Repeat([]byte("<p>compressible text</p>\n"), 400)    // 10 KB
	large := bytes.Repeat([]byte("<p>compressible text</p>\n"), 80_000) // 2 MB: compressed as it is written
	cases := []struct {
		name, header string
		body         []byte
		stored       bool
	}{
		{"html", "Content-Type: text/html", small, false},
		{"gzip encoded", "Content-Type: text/html\r\nContent-Encoding: gzip", small, true},
		{"br encoded, lower-case name", "content-type: text/html\r\ncontent-encoding:br", small, true},
		{"identity encoding", "Content-Type: text/html\r\nContent-Encoding: identity", small, false},
		{"png", "Content-Type: image/png", small, true},
		{"svg", "Content-Type: image/svg+xml; charset=utf-8", small, false},
		{"video", "Content-Type: VIDEO/MP4", small, true},
		{"zip", "Content-Type: application/zip", small, true},
		{"large png", "Content-Type: image/png", large, true},
		{"large html", "Content-Type: text/html", large, false},
	}
	dir := t.TempDir()
	w, err := store.NewWARC(dir, &store.WARCOptions{NoRevisits: true})
	if err != nil {
		t.Fatal(err)
	}
	resps := map[string][]byte{}
	for i, c := range cases {
		u, _ := url.Parse(fmt.Sprintf("http://h0.test/%d", i))
		resp := append([]byte(fmt.Sprintf("HTTP/1.1 200 OK\r\n%s\r\nContent-Length: %d\r\n\r\n", c.header, len(c.body))), c.body...)
		resps[u.String()] = resp
		ex := fetch.NewExchange(u, []byte(fmt.Sprintf("GET /%d HTTP/1.1\r\nHost: h0.test\r\n\r\n", i)), resp)
		ex.Status, ex.Date, ex.RemoteAddr = 200, fixedClock, "127.0.0.1:80"
		if err := w.PutExchange(context.Background(), ex); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	idx := readCDXJ(t, dir)
	if len(idx) != len(cases) {
		t.Fatalf("%d index entries, want %d", len(idx), len(cases))
	}
	for _, e := range idx {
		var i int
		fmt.Sscanf(e.URL, "http://h0.test/%d", &i)
		c := cases[i]
		n, _ := strconv.Atoi(e.Length)
		if stored := n > len(c.body); stored != c.stored {
			t.Errorf("%s: member of %d bytes for a %d-byte body: stored %v, want %v", c.name, n, len(c.body), stored, c.stored)
		}
		if got := member(t, dir, e); !bytes.Equal(got.block, resps[e.URL]) {
			t.Errorf("%s: the record does not read back whole", c.name)
		}
	}
}

// A store closed before any record leaves no file behind: no WARC file
// (they are opened with the first record) and no empty index.
func TestWARCNothingWritten(t *testing.T) {
	dir := t.TempDir()
	w, err := store.NewWARC(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("files left: %v", left)
	}
}

// With MaxRevisitDigests, a payload whose digest was forgotten for newer
// ones is written in full again; one still remembered is a revisit that
// refers to its first response.
func TestWARCMaxRevisitDigests(t *testing.T) {
	for _, c := range []struct {
		max  int
		want []string // the record types of the responses, in order
	}{
		{0, []string{"response", "response", "revisit", "revisit"}},
		{1, []string{"response", "response", "response", "revisit"}},
	} {
		dir := t.TempDir()
		w, err := store.NewWARC(dir, &store.WARCOptions{MaxRevisitDigests: c.max})
		if err != nil {
			t.Fatal(err)
		}
		// Payloads a, b, a, a: with room for one digest, b makes the store
		// forget a, so the first copy of a is written in full again.
		for i, body := range []string{"payload a", "payload b", "payload a", "payload a"} {
			u, _ := url.Parse(fmt.Sprintf("http://h0.test/%d", i))
			resp := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
			ex := fetch.NewExchange(u, []byte(fmt.Sprintf("GET /%d HTTP/1.1\r\nHost: h0.test\r\n\r\n", i)), []byte(resp))
			ex.Status, ex.Date, ex.RemoteAddr = 200, fixedClock.Add(time.Duration(i)*time.Second), "127.0.0.1:80"
			if err := w.PutExchange(context.Background(), ex); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		var got []string
		ids := map[string]string{} // target URI -> record ID
		for _, r := range readWARC(t, warcFiles(t, dir)[0]) {
			switch r.typ() {
			case "response":
				ids[r.header.Get("WARC-Target-URI")] = r.header.Get("WARC-Record-ID")
			case "revisit":
				// It refers to the latest full copy of its payload.
				target := r.header.Get("WARC-Refers-To-Target-URI")
				if ids[target] == "" || r.header.Get("WARC-Refers-To") != ids[target] {
					t.Errorf("max %d: revisit of %s refers to %s %s, not to a response written before", c.max, r.header.Get("WARC-Target-URI"), target, r.header.Get("WARC-Refers-To"))
				}
				if want := map[int]string{0: "http://h0.test/0", 1: "http://h0.test/2"}[c.max]; target != want {
					t.Errorf("max %d: revisit refers to %s, want %s", c.max, target, want)
				}
			default:
				continue
			}
			got = append(got, r.typ())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("max %d: records %v, want %v", c.max, got, c.want)
		}
	}
}
