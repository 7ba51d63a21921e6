package store

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/trawl-dev/trawl"
)

func page(t *testing.T, rawURL, body string, depth int) *trawl.Page {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	return &trawl.Page{URL: u, Body: []byte(body), Depth: depth, ContentType: "text/html"}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDir(t *testing.T) {
	dir := t.TempDir()
	d, err := NewDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	bodies := []string{"<p>aaaa</p>", "<p>b</p>", "<p>cccccccccc</p>"}
	for i, b := range bodies {
		if err := d.Put(ctx, page(t, fmt.Sprintf("http://a.test/%d", i), b, i+1)); err != nil {
			t.Fatal(err)
		}
	}
	// urls.txt grows as the crawl goes, before Close.
	if got, want := readFile(t, filepath.Join(dir, "urls.txt")), "http://a.test/0\nhttp://a.test/1\nhttp://a.test/2\n"; got != want {
		t.Fatalf("urls.txt before Close = %q, want %q", got, want)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	for i, b := range bodies {
		if got := readFile(t, filepath.Join(dir, fmt.Sprintf("%06d.html", i+1))); got != b {
			t.Errorf("file %d = %q, want %q", i+1, got, b)
		}
	}
	want := "Maximum size: 17 bytes\nMinimum size: 8 bytes\nAverage size: 12 bytes\nMaximum depth reach: 3\n"
	if got := readFile(t, filepath.Join(dir, "stats.txt")); got != want {
		t.Errorf("stats.txt = %q, want %q", got, want)
	}
	if err := d.Put(ctx, page(t, "http://a.test/late", "x", 1)); err == nil {
		t.Error("Put after Close succeeded")
	}
}

func TestDirResume(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	d, _ := NewDir(dir)
	d.Put(ctx, page(t, "http://a.test/1", "11111", 1))
	d.Put(ctx, page(t, "http://a.test/2", "22", 4))
	// Simulate a crash: no Close, and a torn last line in urls.txt.
	f, _ := os.OpenFile(filepath.Join(dir, "urls.txt"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("http://a.test/tor")
	f.Close()

	d2, err := NewDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d2.Len() != 2 {
		t.Fatalf("resumed Len = %d, want 2", d2.Len())
	}
	d2.Put(ctx, page(t, "http://a.test/3", "333333333", 2))
	if err := d2.Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := readFile(t, filepath.Join(dir, "urls.txt")), "http://a.test/1\nhttp://a.test/2\nhttp://a.test/3\n"; got != want {
		t.Errorf("urls.txt = %q, want %q", got, want)
	}
	if got := readFile(t, filepath.Join(dir, "000003.html")); got != "333333333" {
		t.Errorf("000003.html = %q", got)
	}
	want := "Maximum size: 9 bytes\nMinimum size: 2 bytes\nAverage size: 5 bytes\nMaximum depth reach: 4\n"
	if got := readFile(t, filepath.Join(dir, "stats.txt")); got != want {
		t.Errorf("stats.txt = %q, want %q", got, want)
	}
}

func TestDirConcurrent(t *testing.T) {
	dir := t.TempDir()
	d, _ := NewDir(dir)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 25 {
				d.Put(context.Background(), page(t, fmt.Sprintf("http://a.test/%d/%d", w, i), fmt.Sprintf("w%d i%d", w, i), 1))
			}
		})
	}
	wg.Wait()
	d.Close()
	lines := strings.Split(strings.TrimSpace(readFile(t, filepath.Join(dir, "urls.txt"))), "\n")
	if len(lines) != 200 {
		t.Fatalf("urls.txt has %d lines, want 200", len(lines))
	}
	// Line n names the page in file n.
	for n, line := range lines {
		var w, i int
		fmt.Sscanf(line, "http://a.test/%d/%d", &w, &i)
		if got, want := readFile(t, filepath.Join(dir, fmt.Sprintf("%06d.html", n+1))), fmt.Sprintf("w%d i%d", w, i); got != want {
			t.Fatalf("file %d = %q but urls.txt line says %q", n+1, got, line)
		}
	}
}

func TestMemoryAndFunc(t *testing.T) {
	var m Memory
	m.Put(context.Background(), page(t, "http://a.test/x", "b", 1))
	if got := m.URLs(); len(got) != 1 || got[0] != "http://a.test/x" {
		t.Errorf("URLs = %v", got)
	}
	if m.Closed() {
		t.Error("Closed before Close")
	}
	m.Close()
	if !m.Closed() {
		t.Error("not Closed after Close")
	}
	boom := errors.New("boom")
	var f trawl.Store = Func(func(context.Context, *trawl.Page) error { return boom })
	if err := f.Put(context.Background(), page(t, "http://a.test/", "", 1)); !errors.Is(err, boom) {
		t.Errorf("Func.Put = %v, want boom", err)
	}
	if err := f.Close(); err != nil {
		t.Errorf("Func.Close = %v", err)
	}
}
