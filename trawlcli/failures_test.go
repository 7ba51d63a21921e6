package trawlcli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// brokenSite serves a home page linking to n missing pages and one good one.
func brokenSite(t *testing.T, n int) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<html><title>home</title><a href="/good">good</a>`)
			for i := range n {
				fmt.Fprintf(w, `<a href="/missing/%d">m</a>`, i)
			}
		case "/good":
			fmt.Fprint(w, `<html><title>good</title><p>fine</p>`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestFailedURLsListed: the summary lists the failed URLs with their
// error, the first 10 of them and how many there were; -v prints each on
// stderr; a clean run prints no such list.
func TestFailedURLsListed(t *testing.T) {
	srv := brokenSite(t, 12)
	code, stdout, stderr := run(t, "-allow-private", "-delay", "0", "-v", srv.URL+"/")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "failed URLs: the first 10 of 12") {
		t.Errorf("summary lacks the failed URLs' header:\n%s", stdout)
	}
	_, list, _ := strings.Cut(stdout, "failed URLs:")
	if got := strings.Count(list, "\n  "+srv.URL+"/missing/"); got != 10 {
		t.Errorf("summary lists %d failed URLs, want 10:\n%s", got, stdout)
	}
	if !strings.Contains(list, "404") {
		t.Errorf("the failed URLs' errors do not say 404:\n%s", list)
	}
	if got := strings.Count(stderr, "error: "+srv.URL+"/missing/"); got != 12 {
		t.Errorf("-v printed %d failures on stderr, want 12:\n%s", got, stderr)
	}

	clean := brokenSite(t, 0)
	code, stdout, stderr = run(t, "-allow-private", "-delay", "0", clean.URL+"/")
	if code != 0 || strings.Contains(stdout, "failed URLs") || strings.Contains(stdout, "errors:") || strings.Contains(stderr, "error: ") {
		t.Errorf("a clean site (its /sitemap.xml a 404): exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	few := brokenSite(t, 2)
	_, stdout, stderr = run(t, "-allow-private", "-delay", "0", few.URL+"/")
	if !strings.Contains(stdout, "failed URLs (2):") || strings.Contains(stderr, "error: ") {
		t.Errorf("2 failures without -v: stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
}

func TestByteSize(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1.00 KiB"}, {1536, "1.50 KiB"}, {50671746, "48.3 MiB"},
		{200 << 20, "200 MiB"}, {3 << 30, "3.00 GiB"},
	} {
		if got := byteSize(tc.n); got != tc.want {
			t.Errorf("byteSize(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
