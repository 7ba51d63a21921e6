package crawltest

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/htmlindex"
)

var allFaults = Faults{
	Calendar: true, DeepPaths: true, SessionIDs: true, Soft404: true, MetaRefresh: true, RedirectChain: 3, RedirectLoop: true,
	Slow: 30 * time.Millisecond, Hang: true, Reset: true, ServerErrors: true, TooManyRequests: true,
	EndlessBody: true, HugeBody: true, GzipBomb: true, WrongContentType: true,
	InvalidUTF8: true, LegacyCharsets: true, MalformedHTML: true,
}

// do sends a GET and returns the response with the body unread.
func do(t *testing.T, ctx context.Context, c *http.Client, rawURL string) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c.Do(req)
}

func TestFaultEntriesLinkedAndAllowed(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 3, PagesPerHost: 10, Faults: allFaults})
	entries := w.FaultURLs()
	if len(entries) != 3*len(w.specialPaths(0)) || len(w.specialPaths(0)) != 19 {
		t.Fatalf("FaultURLs() = %d URLs, want 19 per host", len(entries))
	}
	for _, s := range w.Seeds() {
		_, b := get(t, w.Client(), s)
		links, _ := parsePage(t, s, b)
		have := map[string]bool{}
		for _, l := range links {
			have[l.url] = true
		}
		for _, e := range entries {
			if strings.HasPrefix(e, s) && !have[e] {
				t.Errorf("home page %s does not link %s", s, e)
			}
		}
	}
	for _, e := range entries {
		if w.Disallowed("polite", e) {
			t.Errorf("fault URL %s is disallowed", e)
		}
	}
	// Traps and faults do not change the ground truth.
	plain := NewTestWeb(t, &Options{Hosts: 3, PagesPerHost: 10})
	a, b := w.Reachable("polite"), plain.Reachable("polite")
	if strings.Join(a, " ") != strings.Join(b, " ") {
		t.Errorf("Reachable with faults (%d) differs from without (%d)", len(a), len(b))
	}
	// With every switch off, fault paths are 404.
	for _, e := range entries {
		e = strings.Replace(e, "?sid=", "?x=", 1)
		if r, _ := get(t, plain.Client(), e); r.StatusCode != http.StatusNotFound {
			t.Errorf("faults off: GET %s = %d, want 404", e, r.StatusCode)
		}
	}
}

func TestFaultCalendar(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 1, PagesPerHost: 5, Faults: Faults{Calendar: true}})
	u := "http://h0.test/calendar/2026/01/"
	for range 30 { // walk backwards: it never ends within reach
		r, b := get(t, w.Client(), u)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("GET %s = %d", u, r.StatusCode)
		}
		links, _ := parsePage(t, u, b)
		if len(links) != 2 {
			t.Fatalf("%s has %d links, want prev and next", u, len(links))
		}
		u = links[0].url
	}
	if u != "http://h0.test/calendar/2023/07/" {
		t.Errorf("30 months before 2026/01 = %s", u)
	}
	if r, _ := get(t, w.Client(), "http://h0.test/calendar/2026/13/"); r.StatusCode != http.StatusNotFound {
		t.Errorf("month 13 = %d, want 404", r.StatusCode)
	}
}

func TestFaultSoft404(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 1, PagesPerHost: 5, Faults: Faults{Soft404: true}})
	u := "http://h0.test/lost/"
	var first []byte
	for i := range 12 { // follow "old/" then "media/new/" in turn: deeper every step
		r, b := get(t, w.Client(), u)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("GET %s = %d, want a soft 404 (200)", u, r.StatusCode)
		}
		if first == nil {
			first = b
		} else if !bytes.Equal(b, first) {
			t.Fatalf("%s differs from /lost/: every soft 404 must be the same page", u)
		}
		links, _ := parsePage(t, u, b)
		if len(links) != 4 {
			t.Fatalf("%s has %d links, want 4", u, len(links))
		}
		u = links[i%2].url
	}
	if want := "http://h0.test/lost/" + strings.Repeat("old/media/new/", 6); u != want {
		t.Errorf("after 12 steps at %s, want %s", u, want)
	}
	if r, _ := get(t, w.Client(), "http://h0.test/lostandfound"); r.StatusCode != http.StatusNotFound {
		t.Errorf("a path outside /lost/ = %d, want 404", r.StatusCode)
	}
}

func TestFaultMetaRefresh(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 1, PagesPerHost: 5, Faults: Faults{MetaRefresh: true}})
	for n, want := range map[int]string{1: "url=/refresh/2", 41: "url=/refresh/42"} {
		u := "http://h0.test/refresh/" + strconv.Itoa(n)
		r, b := get(t, w.Client(), u)
		if r.StatusCode != http.StatusOK || !bytes.Contains(b, []byte(want)) || !bytes.Contains(b, []byte("step "+strconv.Itoa(n)+" ")) {
			t.Errorf("GET %s = %d %q, want a refresh to the next step", u, r.StatusCode, b)
		}
	}
	for _, p := range []string{"/refresh/0", "/refresh/01", "/refresh/x"} {
		if r, _ := get(t, w.Client(), "http://h0.test"+p); r.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", p, r.StatusCode)
		}
	}
}

func TestFaultSlowRobots(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 4, PagesPerHost: 5, Faults: Faults{SlowRobots: time.Hour}})
	// Host 3 sends its header, then one byte, then waits an hour.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, err := do(t, ctx, w.Client(), "http://h3.test/robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	if r.StatusCode != http.StatusOK || r.ContentLength < 10 {
		t.Fatalf("slow robots.txt: status %d, length %d", r.StatusCode, r.ContentLength)
	}
	var one [4]byte
	if n, err := r.Body.Read(one[:]); n != 1 || err != nil {
		t.Fatalf("first read = %d, %v; want one byte", n, err)
	}
	cancel() // the handler must notice and return, or Close would wait an hour
	r.Body.Close()
	// Other hosts answer at once.
	if r, b := get(t, w.Client(), "http://h2.test/robots.txt"); r.StatusCode != http.StatusOK || len(b) == 0 {
		t.Errorf("h2 robots.txt = %d, %d bytes", r.StatusCode, len(b))
	}
}

func TestFaultDeepPaths(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 1, PagesPerHost: 5, Faults: Faults{DeepPaths: true}})
	u := "http://h0.test/repeat/"
	for range 20 {
		r, b := get(t, w.Client(), u)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("GET %s = %d", u, r.StatusCode)
		}
		links, _ := parsePage(t, u, b)
		u = links[0].url
	}
	if want := "http://h0.test/repeat/" + strings.Repeat("again/", 20); u != want {
		t.Errorf("after 20 steps at %s, want %s", u, want)
	}
}

func TestFaultSessionIDs(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 2, PagesPerHost: 20, Faults: Faults{SessionIDs: true}})
	seen := map[string]bool{}
	u := w.FaultURLs()[0]
	for range 10 {
		if seen[u] {
			t.Fatalf("session URL %s repeats", u)
		}
		seen[u] = true
		r, b := get(t, w.Client(), u)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("GET %s = %d", u, r.StatusCode)
		}
		links, _ := parsePage(t, u, b)
		next := ""
		for _, l := range links {
			if strings.HasPrefix(l.url, "http://h0.test/") {
				if !strings.Contains(l.url, "?sid=") {
					t.Fatalf("%s links %s without a session id", u, l.url)
				}
				if next == "" && !seen[l.url] {
					next = l.url
				}
			}
		}
		u = next
	}
}

func TestFaultRedirects(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 1, PagesPerHost: 10, Faults: Faults{RedirectChain: 5, RedirectLoop: true}})
	u := w.FaultURLs()[0]
	var codes []int
	for range 10 {
		r, _ := get(t, w.Client(), u)
		if r.StatusCode == http.StatusOK {
			break
		}
		codes = append(codes, r.StatusCode)
		loc, err := r.Location()
		if err != nil {
			t.Fatalf("%s: %d without Location", u, r.StatusCode)
		}
		u = loc.String()
	}
	if len(codes) != 5 || !w.isPageURL(u) {
		t.Errorf("chain: %v redirects ending at %s, want 5 ending at a page", codes, u)
	}
	if codes[0] != 301 || codes[1] != 302 || codes[2] != 307 || codes[3] != 308 {
		t.Errorf("chain codes %v, want 301 302 307 308 301", codes)
	}
	// The loop, followed by a client that follows redirects, fails.
	c := &http.Client{Transport: w.Client().Transport}
	if _, err := c.Get(w.FaultURLs()[1]); err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") {
		t.Errorf("redirect loop: err = %v, want too many redirects", err)
	}
}

func TestFaultSlow(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 1, PagesPerHost: 5, Faults: Faults{Slow: 50 * time.Millisecond}})
	start := time.Now()
	r, _ := get(t, w.Client(), "http://h0.test/fault/slow")
	if el := time.Since(start); r.StatusCode != http.StatusOK || el < 50*time.Millisecond {
		t.Errorf("slow: %d after %v, want 200 after at least 50ms", r.StatusCode, el)
	}
}

// waitLog polls the log until cond holds, for at most 10s.
func waitLog(t *testing.T, w *Web, cond func(*Log) bool) *Log {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		l := w.Log()
		if cond(l) {
			return l
		}
		if time.Now().After(deadline) {
			t.Fatalf("log condition not met; log: %+v", l.Requests())
		}
		time.Sleep(time.Millisecond)
	}
}

func TestFaultHang(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 1, PagesPerHost: 5, Faults: Faults{Hang: true}})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := do(t, ctx, w.Client(), "http://h0.test/fault/hang")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("hang: err = %v, want deadline exceeded", err)
	}
	l := waitLog(t, w, func(l *Log) bool { return l.Len() == 1 && !l.Requests()[0].End.IsZero() })
	if got := l.Requests()[0].Status; got != 0 {
		t.Errorf("hung request logged with status %d, want 0", got)
	}
}

func TestFaultReset(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 1, PagesPerHost: 5, Faults: Faults{Reset: true}})
	if r, err := w.Client().Get("http://h0.test/fault/reset"); err == nil {
		r.Body.Close()
		t.Errorf("reset: got %d, want an error", r.StatusCode)
	}
	if r, _ := get(t, w.Client(), "http://h0.test/"); r.StatusCode != http.StatusOK {
		t.Errorf("after a reset the host answers %d", r.StatusCode)
	}
}

func TestFaultStatusCodes(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 2, PagesPerHost: 5, Faults: Faults{ServerErrors: true, TooManyRequests: true}})
	tests := []struct {
		url        string
		want       int
		retryAfter string
	}{
		{url: "http://h0.test/fault/500", want: 500},
		{url: "http://h0.test/fault/502", want: 502},
		{url: "http://h0.test/fault/503", want: 503, retryAfter: "1"},
		{url: "http://h0.test/fault/503", want: 503, retryAfter: "1"},
		{url: "http://h0.test/fault/429", want: 429, retryAfter: "1"},
		{url: "http://h0.test/fault/429", want: 200},
		{url: "http://h1.test/fault/429", want: 429, retryAfter: "1"},
	}
	for _, tt := range tests {
		r, _ := get(t, w.Client(), tt.url)
		if r.StatusCode != tt.want || r.Header.Get("Retry-After") != tt.retryAfter {
			t.Errorf("GET %s = %d Retry-After %q, want %d %q", tt.url, r.StatusCode, r.Header.Get("Retry-After"), tt.want, tt.retryAfter)
		}
	}
}

func TestFaultBodies(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 1, PagesPerHost: 5, Faults: Faults{EndlessBody: true, HugeBody: true, GzipBomb: true}})
	raw := &http.Client{Transport: &http.Transport{DialContext: w.DialContext, DisableCompression: true}}
	defer raw.CloseIdleConnections()

	r, err := raw.Get("http://h0.test/fault/endless")
	if err != nil {
		t.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, io.LimitReader(r.Body, 2<<20))
	r.Body.Close()
	if n != 2<<20 || r.ContentLength != -1 {
		t.Errorf("endless: read %d of 2 MiB, Content-Length %d", n, r.ContentLength)
	}

	r, err = raw.Get("http://h0.test/fault/huge")
	if err != nil {
		t.Fatal(err)
	}
	n, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 1<<20))
	r.Body.Close()
	if r.ContentLength != HugeBodySize || n != 1<<20 {
		t.Errorf("huge: Content-Length %d, read %d", r.ContentLength, n)
	}

	r, err = raw.Get("http://h0.test/fault/gzip-bomb")
	if err != nil {
		t.Fatal(err)
	}
	member := w.bombMember()
	zr, err := gzip.NewReader(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(io.LimitReader(zr, 2<<20))
	r.Body.Close()
	if r.Header.Get("Content-Encoding") != "gzip" || len(out) != 2<<20 || strings.Trim(string(out), " ") != "" {
		t.Errorf("gzip bomb: encoding %q, inflated %d bytes", r.Header.Get("Content-Encoding"), len(out))
	}
	zm, _ := gzip.NewReader(bytes.NewReader(member))
	one, _ := io.ReadAll(zm)
	if int64(len(member))*(GzipBombSize>>20) != r.ContentLength || len(one) != 1<<20 {
		t.Errorf("gzip bomb: %d members of %d bytes, Content-Length %d, member inflates to %d", GzipBombSize>>20, len(member), r.ContentLength, len(one))
	}
	if ratio := GzipBombSize / r.ContentLength; ratio < 500 {
		t.Errorf("gzip bomb ratio %d, want > 500", ratio)
	}
}

func TestFaultWrongContentType(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 1, PagesPerHost: 5, Faults: Faults{WrongContentType: true}})
	r, b := get(t, w.Client(), "http://h0.test/fault/wrong-type.html")
	if r.Header.Get("Content-Type") != "image/png" || !bytes.HasPrefix(b, []byte("<!DOCTYPE html>")) {
		t.Errorf("wrong-type.html: %s %q", r.Header.Get("Content-Type"), b[:16])
	}
	r, b = get(t, w.Client(), "http://h0.test/fault/binary.html")
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") || !bytes.HasPrefix(b, []byte("\x89PNG")) || utf8.Valid(b) {
		t.Errorf("binary.html: %s, starts %q", r.Header.Get("Content-Type"), b[:8])
	}
}

func TestFaultEncodings(t *testing.T) {
	for _, f := range []Faults{{}, {InvalidUTF8: true, LegacyCharsets: true, MalformedHTML: true}} {
		w := NewTestWeb(t, &Options{Seed: 12, Hosts: 3, PagesPerHost: 80, Faults: f})
		invalid, malformed := 0, 0
		kinds := map[int]int{}
		for _, u := range w.Pages() {
			h, id, _ := w.locatePage(u)
			p := w.content(w.page(h, id))
			r, b := get(t, w.Client(), u)
			ct := r.Header.Get("Content-Type")
			switch {
			case p.charset != csUTF8:
				kinds[p.charset]++
				name := charsetNames[p.charset]
				if charsetInHeader(p.charset) != strings.Contains(ct, name) {
					t.Errorf("%s: Content-Type %q for charset %s", u, ct, name)
				}
				if !charsetInHeader(p.charset) && !bytes.Contains(b, []byte("charset="+name)) && !bytes.Contains(b, []byte(`charset="`+name)) {
					t.Errorf("%s: no meta charset %s", u, name)
				}
				enc, err := htmlindex.Get(name)
				if err != nil {
					t.Fatal(err)
				}
				dec, err := enc.NewDecoder().Bytes(b)
				if err != nil || !strings.Contains(string(dec), legacyText[p.charset]) {
					t.Errorf("%s: decoded %s page lacks its text (err %v)", u, name, err)
				}
				if utf8.Valid(b) {
					t.Errorf("%s: %s page is valid UTF-8", u, name)
				}
			case p.badUTF8:
				invalid++
				if utf8.Valid(b) || ct != "text/html; charset=utf-8" {
					t.Errorf("%s: want invalid UTF-8 declared as UTF-8, got valid=%v %q", u, utf8.Valid(b), ct)
				}
			default:
				if !utf8.Valid(b) {
					t.Errorf("%s: invalid UTF-8 with the switch off", u)
				}
			}
			if p.malformed {
				malformed++
				if bytes.Contains(b, []byte("</html>")) || !bytes.Contains(b, []byte("<!-- old menu")) {
					t.Errorf("%s: malformed page looks well formed", u)
				}
			} else if !p.frameset && !bytes.HasSuffix(b, []byte("</html>\n")) {
				t.Errorf("%s: well-formed page does not end with </html>", u)
			}
		}
		on := f.InvalidUTF8
		if on != (invalid > 0) || on != (malformed > 0) || on != (len(kinds) == 6) {
			t.Errorf("faults %+v: %d invalid, %d malformed, charset kinds %v", f, invalid, malformed, kinds)
		}
	}
}

func TestRobotsVariety(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 8, PagesPerHost: 5, RobotsVariety: true})
	want := []int{200, 200, 200, 200, 404, 500, 301, 200}
	for i, code := range want {
		r, b := get(t, w.Client(), "http://h"+string(rune('0'+i))+".test/robots.txt")
		if r.StatusCode != code {
			t.Errorf("h%d robots.txt = %d, want %d", i, r.StatusCode, code)
		}
		if i == 7 && len(b) <= 1<<20 {
			t.Errorf("h7 robots.txt is %d bytes, want > 1 MiB", len(b))
		}
	}
	if !w.Disallowed("polite", "http://h5.test/") || w.Disallowed("polite", "http://h5.test/robots.txt") {
		t.Error("robots.txt 500 must disallow everything but itself")
	}
	if w.Disallowed("evilbot", "http://h4.test/") {
		t.Error("robots.txt 404 must allow everything")
	}
}
