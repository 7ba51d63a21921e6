package trawlcli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl"
)

// program is a site spider, as examples/sitespider.
func program() *Command {
	return &Command{
		Name:  "testspider",
		Usage: "testspider crawls for tests.",
		Crawl: func(ctx context.Context, s *Session) error {
			c, err := trawl.New(append(s.Options(), trawl.WithSeeds(s.Seeds()...), trawl.WithFilters(trawl.SameHost(s.Seeds()...)))...)
			if err != nil {
				return err
			}
			return s.Run(ctx, c)
		},
	}
}

func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = program().Run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestExitCodes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string // in stderr
	}{
		{name: "help", args: []string{"-h"}, code: 0, want: "Usage: testspider"},
		{name: "unknown flag", args: []string{"-bogus"}, code: 2, want: "flag provided but not defined"},
		{name: "no urls", args: nil, code: 2, want: "no start URLs"},
		{name: "bad url", args: []string{"mailto:a@b"}, code: 2, want: "seed"},
		{name: "no scheme", args: []string{"example.com"}, code: 2, want: `did you mean "https://example.com"`},
		{name: "bad number", args: []string{"-max-pages", "x", "http://a.test/"}, code: 2, want: "invalid value"},
		{name: "negative", args: []string{"-concurrency", "0", "http://a.test/"}, code: 2, want: "workers"},
		{name: "bad follow kind", args: []string{"-follow", "navigation,pictures", "http://a.test/"}, code: 2, want: `unknown link kind "pictures"`},
		{name: "missing seeds file", args: []string{"-seeds", "/nonexistent/seeds.txt"}, code: 2, want: "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := run(t, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, tt.code, tt.want)
			}
		})
	}
}

func TestDemo(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := run(t, "-demo", "-out", dir, "-max-pages", "25", "-progress=false")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"demo: serving a synthetic web", "crawled 25 pages", "output: " + dir} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	urls, err := os.ReadFile(filepath.Join(dir, "urls.txt"))
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(string(urls), "\n")
	if n == 0 || n > 25 {
		t.Errorf("urls.txt has %d lines, want 1..25", n)
	}
	stats, err := os.ReadFile(filepath.Join(dir, "stats.txt"))
	if err != nil || !strings.HasPrefix(string(stats), "Maximum size: ") {
		t.Errorf("stats.txt = %q, %v", stats, err)
	}
}

func TestSeedsFileAndProgress(t *testing.T) {
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	os.WriteFile(seeds, []byte("# comment\n\nhttp://h1.test/\n"), 0o644)
	code, stdout, stderr := run(t, "-demo", "-seeds", seeds, "-max-depth", "1", "-progress", "-out", filepath.Join(dir, "out"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// Only the seed from the file (depth 1) is crawled, on its host.
	if !strings.Contains(stdout, "crawled 1 pages") {
		t.Errorf("want exactly the seed crawled:\n%s", stdout)
	}
	if !strings.Contains(stderr, "pages/s") {
		t.Errorf("-progress printed no progress line: %q", stderr)
	}
}

func TestFeature(t *testing.T) {
	var gotFlag string
	p := program()
	p.Features = []Feature{{
		Flags: func(fs *flag.FlagSet) { fs.StringVar(&gotFlag, "topic", "", "topic words") },
		Setup: func(*Session) ([]trawl.Option, error) {
			return []trawl.Option{trawl.WithLimits(trawl.Limits{MaxPages: 3})}, nil
		},
		Summary: func(w io.Writer, st trawl.Stats) { fmt.Fprintf(w, "feature summary: %d fetched\n", st.Fetch.Pages) },
	}}
	var out, errOut bytes.Buffer
	code := p.Run(context.Background(), []string{"-demo", "-topic", "cats", "-out", t.TempDir()}, &out, &errOut)
	if code != 0 || gotFlag != "cats" || !strings.Contains(out.String(), "crawled 3 pages") || !strings.Contains(out.String(), "feature summary: 3 fetched") {
		t.Errorf("exit %d, flag %q, stdout %q, stderr %q", code, gotFlag, out.String(), errOut.String())
	}
}

// TestPrivateSeedsFail: a crawl whose only seed is on loopback, without
// -allow-private, fails with exit 1 and says why.
func TestPrivateSeedsFail(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("request %s reached a loopback server without -allow-private", r.URL)
	}))
	defer srv.Close()
	code, stdout, stderr := run(t, "-progress=false", srv.URL+"/")
	if code != 1 || !strings.Contains(stderr, "private") || !strings.Contains(stderr, "-allow-private") {
		t.Errorf("exit %d, stderr %q; want exit 1 and an error naming -allow-private", code, stderr)
	}
	if !strings.Contains(stdout, "private: 1 URLs refused") || strings.Contains(stdout, "1 denied by robots.txt") {
		t.Errorf("summary does not report the private refusal as such:\n%s", stdout)
	}
}

// TestHostBudget: -host-budget caps the URLs queued per host.
func TestHostBudget(t *testing.T) {
	code, stdout, stderr := run(t, "-demo", "-progress=false", "-host-budget", "4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var pages int
	if _, err := fmt.Sscanf(stdout[strings.Index(stdout, "crawled "):], "crawled %d pages", &pages); err != nil {
		t.Fatalf("no page count in %q: %v", stdout, err)
	}
	if pages == 0 || pages > 5*4 { // the demo web has 5 hosts
		t.Errorf("crawled %d pages with a budget of 4 URLs for each of 5 hosts", pages)
	}
}

// TestFollowAndArchiveFlags: -follow and -archive reach the crawler.
func TestFollowAndArchiveFlags(t *testing.T) {
	pages := func(args ...string) int {
		t.Helper()
		code, stdout, stderr := run(t, append([]string{"-demo", "-progress=false"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var n int
		if _, err := fmt.Sscanf(stdout[strings.Index(stdout, "crawled "):], "crawled %d pages", &n); err != nil {
			t.Fatalf("no page count in %q: %v", stdout, err)
		}
		return n
	}
	all := pages()
	if seeds := pages("-follow", "redirect"); seeds == 0 || seeds >= all {
		t.Errorf("-follow redirect crawled %d pages, the default %d; want the seeds only", seeds, all)
	}
	if archived := pages("-archive"); archived < all {
		t.Errorf("-archive crawled %d pages, fewer than the default %d", archived, all)
	}
}

// -allow-network takes prefixes or addresses, and refuses anything else.
func TestAllowNetworkFlag(t *testing.T) {
	if code, _, stderr := run(t, "-allow-network", "not-a-prefix", "http://a.test/"); code != 2 || !strings.Contains(stderr, "-allow-network") {
		t.Errorf("-allow-network not-a-prefix: exit %d, stderr %q; want 2 naming the flag", code, stderr)
	}
	code, stdout, stderr := run(t, "-demo", "-progress=false", "-allow-network", "127.0.0.0/8,::1", "-max-pages", "5")
	if code != 0 || !strings.Contains(stdout, "crawled 5 pages") {
		t.Errorf("-demo with -allow-network 127.0.0.0/8: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// -allow-host takes host names and refuses addresses (which -allow-network
// takes) and empty names.
func TestAllowHostFlag(t *testing.T) {
	for _, bad := range []string{"127.0.0.1", "a.test,,b.test", "10.0.0.0/8", "a.test:80"} {
		if code, _, stderr := run(t, "-allow-host", bad, "http://a.test/"); code != 2 || !strings.Contains(stderr, "-allow-host") {
			t.Errorf("-allow-host %q: exit %d, stderr %q; want 2 naming the flag", bad, code, stderr)
		}
	}
}
