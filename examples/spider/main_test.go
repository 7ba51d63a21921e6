package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScope: from a page of h1.test of the demo web, spider follows links to the other hosts.
func TestScope(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := command().Run(context.Background(), []string{"-demo", "-progress=false", "-out", dir, "http://h1.test/"}, &stdout, &stderr)
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
	hosts := map[string]bool{}
	for _, u := range urls {
		hosts[strings.Split(u, "/")[2]] = true
	}
	if len(hosts) < 2 {
		t.Errorf("stored pages of %d hosts, want the web beyond the seed's host", len(hosts))
	}
}
