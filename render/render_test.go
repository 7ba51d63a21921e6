package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/fetch"
)

// childEnv makes the test binary a crawler-like child that starts a
// browser, prints its user-data-dir and pid, and waits to be killed
// (TestNoOrphanAfterKill).
const childEnv = "TRAWL_RENDER_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		child()
		return
	}
	os.Exit(m.Run())
}

func child() {
	path, err := FindChromium()
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	b, err := startBrowser(path, 20*time.Second, slog.New(slog.DiscardHandler))
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Printf("browser %d %s\n", b.pid, b.dir)
	select {} // until killed
}

// chromium returns the browser's path, skipping the test when there is
// none, or failing it when CI is set (CI installs chromium).
func chromium(tb testing.TB) string {
	tb.Helper()
	p, err := FindChromium()
	if err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("%v; CI is set, so this fails rather than skips", err)
		}
		tb.Skip(err)
	}
	return p
}

// loopback is an inner fetcher allowed to reach 127.0.0.0/8 only, whose
// dialer records every address it is asked to dial.
func loopback(tb testing.TB, dialled *[]string, mu *sync.Mutex) *fetch.HTTP {
	tb.Helper()
	var d net.Dialer
	return fetch.New(&fetch.Options{
		AllowNetworks: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")},
		Timeout:       5 * time.Second,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if dialled != nil {
				mu.Lock()
				*dialled = append(*dialled, addr)
				mu.Unlock()
			}
			return d.DialContext(ctx, network, addr)
		},
	})
}

func newFetcher(tb testing.TB, inner fetch.Fetcher, o Options) *Fetcher {
	tb.Helper()
	o.ExecPath = chromium(tb)
	f, err := New(inner, &o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	return f
}

func get(tb testing.TB, f fetch.Fetcher, rawURL string) (*fetch.Response, error) {
	tb.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return f.Fetch(ctx, &fetch.Request{URL: u})
}

const guardPage = `<!DOCTYPE html><html><head><title>t</title>
<script src="/lib.js"></script>
<script src="/secret.js"></script>
</head><body><p id=p>static</p>
<script>
document.body.insertAdjacentHTML("beforeend", '<a href="/built-by-script">built</a>');
fetch("/api/post", {method: "POST", body: "a=1"}).catch(function () {});
navigator.sendBeacon("/api/beacon", "bye");
fetch("http://169.254.169.254/latest/meta-data/").then(function () { document.body.dataset.meta = "reached"; }, function () { document.body.dataset.meta = "blocked"; });
try { new WebSocket("ws://" + location.host + "/ws"); } catch (e) {}
fetch("/api/data.json").then(function (r) { return r.json(); }).then(function (j) {
  document.body.insertAdjacentHTML("beforeend", '<a href="' + j.next + '">next</a>');
});
</script></body></html>`

// TestRenderGuards renders a page whose scripts write links, POST, beacon,
// ask robots.txt-disallowed and metadata URLs and open a WebSocket: the
// DOM has the script's links; the POST and beacon are blocked and counted;
// the metadata address is refused by the inner fetcher's guard without
// being dialled; the WebSocket never reaches the server (it fails in this
// Chromium even without the dead proxy, so this does not prove the proxy
// works); the server saw GETs only, the page itself once.
func TestRenderGuards(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path)
		mu.Unlock()
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, guardPage)
		case "/lib.js":
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, `document.title = "lib ran";`)
		case "/api/data.json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"next": "/from-xhr"}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	var dialled []string
	var reqs []Request
	f := newFetcher(t, loopback(t, &dialled, &mu), Options{
		OtherHosts: true, // so that the metadata fetch meets the guard, not the host rule
		Allowed:    func(_ context.Context, u *url.URL) bool { return u.Path != "/secret.js" },
		OnRequest:  func(_ *url.URL, r Request) { mu.Lock(); reqs = append(reqs, r); mu.Unlock() },
	})
	resp, err := get(t, f, srv.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`href="/built-by-script"`, `href="/from-xhr"`, `<title>lib ran</title>`, `data-meta="blocked"`, "<!DOCTYPE html>"} {
		if !bytes.Contains(resp.Body, []byte(want)) {
			t.Errorf("rendered DOM lacks %s:\n%s", want, resp.Body)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, a := range dialled {
		if strings.HasPrefix(a, "169.254.") {
			t.Errorf("the metadata address was dialled: %s", a)
		}
	}
	pages := 0
	for _, s := range seen {
		if !strings.HasPrefix(s, "GET ") {
			t.Errorf("server saw %s; only GETs may pass", s)
		}
		if s == "GET /" {
			pages++
		}
		if s == "GET /ws" {
			t.Errorf("the WebSocket reached the server: the browser went around interception")
		}
		if s == "GET /secret.js" {
			t.Errorf("robots.txt-disallowed /secret.js was fetched")
		}
	}
	if pages != 1 {
		t.Errorf("page fetched %d times, want 1 (the browser is served the fetched body)", pages)
	}
	st := f.Stats()
	want := map[Verdict]int64{BlockedMethod: 2, BlockedPrivate: 1, BlockedRobots: 1, Fetched: 2}
	for v, n := range want {
		if st.Requests[v] != n {
			t.Errorf("Stats.Requests[%s] = %d, want %d (requests %+v)", v, st.Requests[v], n, reqs)
		}
	}
	if st.Rendered != 1 || st.Starts != 1 {
		t.Errorf("Stats = %+v, want 1 rendered, 1 start", st)
	}
}

// TestRenderOtherHostBlocked: by default a sub-request to another host is
// blocked and reported, never made.
func TestRenderOtherHostBlocked(t *testing.T) {
	var other atomic.Int32
	o := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { other.Add(1) }))
	defer o.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<html><body><script src="%s/x.js"></script><img src="%s/i.png"></body></html>`, o.URL, o.URL)
	}))
	defer srv.Close()
	f := newFetcher(t, loopback(t, nil, nil), Options{Settle: 100 * time.Millisecond})
	if _, err := get(t, f, srv.URL+"/"); err != nil {
		t.Fatal(err)
	}
	if n := f.Stats().Requests[BlockedHost]; n != 2 || other.Load() != 0 {
		t.Errorf("blocked-host = %d, other host hit %d times; want 2 and 0", n, other.Load())
	}
}

// TestRenderCrashRetried kills the browser in the middle of a render (from
// a sub-request's handler): the page is rendered on a fresh browser.
func TestRenderCrashRetried(t *testing.T) {
	var f *Fetcher
	var killed atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><body><script src="/a.js"></script></body></html>`)
		case "/a.js":
			if !killed.Swap(true) {
				syscall.Kill(-f.browserPID(), syscall.SIGKILL)
				time.Sleep(200 * time.Millisecond)
			}
			fmt.Fprint(w, `document.body.insertAdjacentHTML("beforeend", '<a href="/after-crash">x</a>');`)
		}
	}))
	defer srv.Close()
	f = newFetcher(t, loopback(t, nil, nil), Options{Settle: 100 * time.Millisecond, Timeout: 5 * time.Second})
	resp, err := get(t, f, srv.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(resp.Body, []byte(`href="/after-crash"`)) {
		t.Errorf("DOM after the retry lacks the script's link:\n%s", resp.Body)
	}
	if st := f.Stats(); st.Retries != 1 || st.Starts != 2 || st.Rendered != 1 {
		t.Errorf("Stats = %+v, want 1 retry, 2 starts, 1 rendered", st)
	}
}

// TestRenderHangFails: a page whose script never yields is tried twice,
// then fails with ErrRender; the static body is not passed off as
// rendered, and the fetcher renders the next page.
func TestRenderHangFails(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/hang" {
			fmt.Fprint(w, `<html><body><script>for (;;) {}</script></body></html>`)
			return
		}
		fmt.Fprint(w, `<html><body><script>document.write('<a href="/ok">ok</a>')</script></body></html>`)
	}))
	defer srv.Close()
	f := newFetcher(t, loopback(t, nil, nil), Options{Settle: 50 * time.Millisecond, Timeout: 500 * time.Millisecond})
	_, err := get(t, f, srv.URL+"/hang")
	if !errors.Is(err, ErrRender) {
		t.Fatalf("Fetch(/hang) error = %v, want ErrRender", err)
	}
	resp, err := get(t, f, srv.URL+"/fine")
	if err != nil || !bytes.Contains(resp.Body, []byte(`href="/ok"`)) {
		t.Fatalf("Fetch(/fine) after a hang = %v, %v; want the rendered link", err, resp)
	}
	if st := f.Stats(); st.Retries != 1 || st.Failed != 1 {
		t.Errorf("Stats = %+v, want 1 retry and 1 failure", st)
	}
}

// TestCloseLeavesNothing: after Close no process names the browser's
// user-data-dir and the directory is gone.
func TestCloseLeavesNothing(t *testing.T) {
	b, err := startBrowser(chromium(t), 20*time.Second, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if len(UsingDir(b.dir)) == 0 {
		t.Fatal("no process found with the browser's user-data-dir: the check below would prove nothing")
	}
	b.close()
	if pids := UsingDir(b.dir); len(pids) > 0 {
		t.Errorf("processes left after close: %v", pids)
	}
	if _, err := os.Stat(b.dir); !os.IsNotExist(err) {
		t.Errorf("user-data-dir %s left after close (%v)", b.dir, err)
	}
}

// TestNoOrphanAfterKill starts this test binary as a child that starts a
// browser, kills the child with SIGKILL, and checks that no process of the
// browser survives it.
func TestNoOrphanAfterKill(t *testing.T) {
	chromium(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	var dir string
	line := make([]byte, 4096)
	n, _ := out.Read(line)
	if _, err := fmt.Sscanf(string(line[:n]), "browser %d %s", &pid, &dir); err != nil {
		cmd.Process.Kill()
		t.Fatalf("child said %q: %v", line[:n], err)
	}
	defer os.RemoveAll(dir) // the killed child cannot remove it
	if len(UsingDir(dir)) == 0 {
		t.Fatal("no browser process found before the kill")
	}
	cmd.Process.Kill() // SIGKILL: no deferred cleanup runs in the child
	cmd.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for {
		left := UsingDir(dir)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("browser processes %v survived kill -9 of their crawler", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
