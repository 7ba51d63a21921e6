package trawlcli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestReplayFlag: a crawl recorded with -warc DIR runs again with -replay
// DIR against a stopped server and stores the same pages; without
// -replay the same run fails to fetch anything.
func TestReplayFlag(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<html><title>home</title><a href="/a">a</a><a href="/b">b</a></html>`)
		case "/a", "/b":
			fmt.Fprintf(w, `<html><title>page %s</title><p>text of %s</p></html>`, r.URL.Path, r.URL.Path)
		default:
			http.NotFound(w, r)
		}
	}))
	dir := t.TempDir()
	warcs := filepath.Join(dir, "warc")
	first := filepath.Join(dir, "first.jsonl")
	code, _, stderr := run(t, "-allow-private", "-delay", "0", "-warc", warcs, "-jsonl", first, srv.URL+"/")
	if code != 0 {
		t.Fatalf("recording run: exit %d: %s", code, stderr)
	}
	srv.Close()
	recorded := hits.Load()

	second := filepath.Join(dir, "second.jsonl")
	code, stdout, stderr := run(t, "-allow-private", "-delay", "0", "-replay", warcs, "-jsonl", second, srv.URL+"/")
	if code != 0 {
		t.Fatalf("replayed run: exit %d: %s\n%s", code, stderr, stdout)
	}
	a, b := readJSONL(t, first), readJSONL(t, second)
	if len(a) != 3 || len(b) != len(a) {
		t.Fatalf("recorded %d pages, replayed %d; want 3 each\n%s", len(a), len(b), stdout)
	}
	titles := func(rs []jsonlRecord) map[string]string {
		m := map[string]string{}
		for _, r := range rs {
			m[r.URL] = r.Title + "|" + r.MainText
		}
		return m
	}
	ta, tb := titles(a), titles(b)
	for u, v := range ta {
		if tb[u] != v {
			t.Errorf("%s: replayed %q, recorded %q", u, tb[u], v)
		}
	}
	if code, _, _ := run(t, "-allow-private", "-delay", "0", "-jsonl", filepath.Join(dir, "third.jsonl"), srv.URL+"/"); code == 0 {
		t.Error("without -replay, a crawl of the stopped server succeeded: the test proves nothing")
	}
	if !strings.Contains(stdout, "replay: ") || hits.Load() != recorded {
		t.Errorf("summary %q; the server had %d requests after the recording's %d", stdout, hits.Load(), recorded)
	}
}
