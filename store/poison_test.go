package store_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/store"
)

// TestWARCBareLFHeaderNoPoison: host A answers with a header whose lines
// end in a bare LF, as net/http accepts, and a body that holds, after a
// CRLFCRLF, the page host B serves. The WARC writer must split A's
// response where the fetcher did, so that B's page is recorded as a
// response of its own, not as a revisit of A's record; warcio.js, which
// reads the files, agrees.
func TestWARCBareLFHeaderNoPoison(t *testing.T) {
	const v = "<html><body><p>the page of host B, served normally</p></body></html>"
	script := "<script>alert('A')</script>"
	poison := fmt.Sprintf("HTTP/1.1 200 OK\nContent-Type: text/html\nContent-Length: %d\n\n%s\r\n\r\n%s", len(script), script, v)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				br := bufio.NewReader(conn)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					switch {
					case req.URL.Path == "/robots.txt":
						fmt.Fprint(conn, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
					case req.Host == "a.test":
						fmt.Fprint(conn, poison)
						return // the extra bytes must not be read as another response
					default:
						fmt.Fprintf(conn, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(v), v)
					}
				}
			}()
		}
	}()
	dir := t.TempDir()
	w, err := store.NewWARC(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := trawl.New(trawl.WithSeeds("http://a.test/poison", "http://b.test/page"),
		trawl.WithDialContext(func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, l.Addr().String())
		}),
		trawl.WithAllowPrivateNetworks(true), trawl.WithWorkers(1),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}), trawl.WithStore(w))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var b, a *record
	files := warcFiles(t, dir)
	for _, f := range files {
		for _, r := range readWARC(t, f) {
			switch r.header.Get("WARC-Target-URI") {
			case "http://b.test/page":
				if r.typ() != "request" {
					b = &r
				}
			case "http://a.test/poison":
				if r.typ() == "response" {
					a = &r
				}
			}
		}
	}
	if b == nil || b.typ() != "response" || !bytes.Contains(b.block, []byte(v)) {
		t.Fatalf("b.test/page recorded as %v, want a response record holding B's page", b)
	}
	if a == nil {
		t.Fatal("no response record for a.test/poison")
	}
	// A's payload digest is the digest of what follows its (bare-LF)
	// header, which starts with what Go read as A's body.
	block := a.block
	i := bytes.Index(block, []byte("\n\n"))
	if i < 0 || !strings.HasPrefix(string(block[i+2:]), script) || a.header.Get("WARC-Payload-Digest") != sha1Base32(block[i+2:]) {
		t.Errorf("a.test/poison: payload digest %s, want that of the bytes after its bare-LF header (%s); block %q", a.header.Get("WARC-Payload-Digest"), sha1Base32(block[i+2:]), block)
	}
	bin := warcio(t)
	for _, f := range files {
		for _, x := range warcioIndex(t, bin, f) {
			if x.URI == "http://b.test/page" && x.Type == "revisit" {
				t.Errorf("warcio.js reads b.test/page as a revisit record")
			}
		}
	}
}
