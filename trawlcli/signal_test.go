package trawlcli_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// TestSIGTERMStopsCleanly: the spider, sent SIGTERM (what timeout,
// systemd, Docker and Kubernetes send) in the middle of a crawl, stops as
// on Ctrl-C: exit status 0, a summary that says "interrupted", and its
// WARC file finished (renamed from .open, every record whole) with its
// index sorted.
func TestSIGTERMStopsCleanly(t *testing.T) {
	bin := buildSpider(t)
	var served atomic.Int64
	fifth := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		if served.Add(1) == 5 {
			close(fifth)
		}
		// A web with no end: every page links to ten more.
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html><title>%s</title><body>", r.URL.Path)
		for i := range 10 {
			fmt.Fprintf(w, "<a href=\"%s/%d\">%d</a> ", strings.TrimSuffix(r.URL.Path, "/"), i, i)
		}
		fmt.Fprint(w, "</body></html>")
	}))
	defer srv.Close()
	dir := t.TempDir()
	warcDir := filepath.Join(dir, "warc")
	cmd := exec.Command(bin, "-allow-private", "-delay", "20ms", "-progress=false", "-max-pages", "100000",
		"-out", filepath.Join(dir, "out"), "-warc", warcDir, srv.URL+"/")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case <-fifth:
	case err := <-exited:
		t.Fatalf("the spider ended before its fifth page: %v\n%s", err, stderr.String())
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := <-exited; err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("exit status %d after SIGTERM, want 0 (%v)\nstderr: %s", ee.ExitCode(), ee, stderr.String())
		}
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "interrupted") {
		t.Errorf("summary does not say interrupted:\n%s", stdout.String())
	}

	if open, _ := filepath.Glob(filepath.Join(warcDir, "*.open")); len(open) != 0 {
		t.Errorf("WARC files left open: %v", open)
	}
	files, _ := filepath.Glob(filepath.Join(warcDir, "*.warc.gz"))
	if len(files) != 1 {
		t.Fatalf("WARC files %v, want one", files)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f) // reads every member to the end
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("the WARC file does not read to its end: %v", err)
	}
	if n := bytes.Count(data, []byte("WARC-Type: response\r\n")); n < 5 {
		t.Errorf("%d response records, want at least the 5 pages served before SIGTERM", n)
	}
	idx, _ := filepath.Glob(filepath.Join(warcDir, "*.cdxj"))
	if len(idx) != 1 {
		t.Fatalf("CDXJ indexes %v, want one", idx)
	}
	lines, err := os.ReadFile(idx[0])
	if err != nil {
		t.Fatal(err)
	}
	ls := strings.Split(strings.TrimSuffix(string(lines), "\n"), "\n")
	if len(ls) < 5 || !slices.IsSorted(ls) {
		t.Errorf("CDXJ index of %d lines, sorted %v; want at least 5, sorted", len(ls), slices.IsSorted(ls))
	}
}
