package report_test

import (
	"bufio"
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// The report is checked in a real browser: headless Chromium (the Debian
// package "chromium", which .ci/run installs) renders it to a screenshot
// and dumps its DOM, and logs every console message to stderr.

// chromium returns the browser to test with: $TRAWL_CHROMIUM, or chromium
// (or chromium-browser, google-chrome) on $PATH. Without one the test is
// skipped, unless CI is set, when it fails.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("TRAWL_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "headless Chromium not found (install the chromium package, or set TRAWL_CHROMIUM): the report is not checked in a browser"
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// runChromium runs the browser headless on the file at path with extra
// args and returns its stdout and the console messages it logged.
func runChromium(t *testing.T, browser, path string, args ...string) (stdout []byte, console []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	all := append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
		"--disable-extensions", "--user-data-dir=" + t.TempDir(), "--enable-logging=stderr",
		// Any attempt to reach the network fails at once.
		"--host-resolver-rules=MAP * ~NOTFOUND",
	}, args...)
	all = append(all, "file://"+path)
	cmd := exec.CommandContext(ctx, browser, all...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", browser, err, lastLines(errOut.String(), 20))
	}
	sc := bufio.NewScanner(&errOut)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		// [pid:tid:date:INFO:CONSOLE:1] "message", source: file:///... (1)
		if l := sc.Text(); strings.Contains(l, ":CONSOLE") {
			console = append(console, l)
		}
	}
	return out.Bytes(), console
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// The console check can fail: a page with a console.error call and an
// uncaught exception is caught.
func TestChromiumSeesConsoleErrors(t *testing.T) {
	browser := chromium(t)
	path := filepath.Join(t.TempDir(), "bad.html")
	bad := `<!DOCTYPE html><html><body><p id="x">x</p><script>console.error("deliberate"); notDefined();</script></body></html>`
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, console := runChromium(t, browser, path, "--dump-dom")
	if !bytes.Contains(dom, []byte(`id="x"`)) {
		t.Errorf("DOM dump lacks the page:\n%s", dom)
	}
	joined := strings.Join(console, "\n")
	if !strings.Contains(joined, "deliberate") || !strings.Contains(joined, "notDefined") {
		t.Errorf("console messages not caught; got:\n%s", joined)
	}
}

func TestReportInChromium(t *testing.T) {
	browser := chromium(t)
	rep, st := crawlReport(t)
	path := writeReport(t, rep)

	// The DOM: every chart is an SVG that drew something, every table has
	// its rows.
	dom, console := runChromium(t, browser, path, "--dump-dom")
	if len(console) > 0 {
		t.Errorf("console messages while loading the report:\n%s", strings.Join(console, "\n"))
	}
	doc, err := html.Parse(bytes.NewReader(dom))
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*html.Node{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				switch a.Key {
				case "id":
					byID[a.Val] = n
				case "src", "href":
					t.Errorf("<%s %s=%q> in the DOM: the report must need nothing outside itself", n.Data, a.Key, a.Val)
				}
			}
			if n.Data == "script" || n.Data == "link" {
				t.Errorf("<%s> in the DOM", n.Data)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	count := func(n *html.Node, tags ...string) int {
		k := 0
		var f func(*html.Node)
		f = func(n *html.Node) {
			for _, tag := range tags {
				if n.Type == html.ElementNode && n.Data == tag {
					k++
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				f(c)
			}
		}
		f(n)
		return k
	}
	for _, id := range reportIDs {
		n := byID[id]
		if n == nil {
			t.Errorf("no element #%s in the rendered DOM", id)
			continue
		}
		switch {
		case strings.HasPrefix(id, "chart-"):
			if n.Data != "svg" {
				t.Errorf("#%s is <%s>, want <svg>", id, n.Data)
			}
			if count(n, "rect", "path") == 0 {
				t.Errorf("#%s draws nothing", id)
			}
		case id == "table-hosts":
			if rows := count(n, "tr") - 1; rows != rep.HostsTotal {
				t.Errorf("#table-hosts has %d rows, want %d hosts", rows, rep.HostsTotal)
			}
		case strings.HasPrefix(id, "table-"):
			if count(n, "tr") < 2 {
				t.Errorf("#%s has no rows", id)
			}
		}
	}
	if st.Fetch.Pages == 0 {
		t.Fatal("nothing crawled")
	}

	// The screenshot: a PNG of the window's size with charts in it (many
	// colours, not a blank page).
	shot := filepath.Join(t.TempDir(), "report.png")
	_, console = runChromium(t, browser, path, "--screenshot="+shot, "--window-size=1400,2400", "--hide-scrollbars")
	if len(console) > 0 {
		t.Errorf("console messages while rendering the report:\n%s", strings.Join(console, "\n"))
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1400 || b.Dy() != 2400 {
		t.Errorf("screenshot is %v, want 1400x2400", b.Size())
	}
	if colours, inked := inkOf(img); colours < 16 || inked < 0.02 {
		t.Errorf("screenshot has %d colours, %.1f%% non-white pixels: looks blank", colours, 100*inked)
	}
	if dir := os.Getenv("TRAWL_REPORT_OUT"); dir != "" {
		// Keep the files to look at.
		for _, p := range []string{path, shot} {
			if b, err := os.ReadFile(p); err == nil {
				os.WriteFile(filepath.Join(dir, filepath.Base(p)), b, 0o644)
			}
		}
	}
}

// inkOf counts an image's distinct colours and the share of pixels that
// are not white.
func inkOf(img image.Image) (colours int, inked float64) {
	seen := map[uint32]bool{}
	b := img.Bounds()
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[(r>>8)<<16|(g>>8)<<8|bl>>8] = true
			if r < 0xf000 || g < 0xf000 || bl < 0xf000 {
				n++
			}
		}
	}
	return len(seen), float64(n) / float64(b.Dx()*b.Dy())
}
