package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScope: from a page in h3.test/archive/ of the demo web, dirspider stores pages under that directory only (the page links elsewhere too).
func TestScope(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := command().Run(context.Background(), []string{"-demo", "-progress=false", "-out", dir, "http://h3.test/archive/letter-28.html"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "urls.txt"))
	if err != nil {
		t.Fatal(err)
	}
	urls := strings.Fields(string(b))
	if len(urls) < 2 {
		t.Fatalf("stored %v: want the seed and pages it leads to", urls)
	}
	for _, u := range urls {
		if !strings.HasPrefix(u, "http://h3.test/archive/") {
			t.Errorf("stored %s, outside the seed's directory", u)
		}
	}
}
