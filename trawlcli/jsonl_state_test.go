//go:build !trawl_nostate

package trawlcli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONLResumeAppends: a crawl resumed from its -state directory
// appends to its -jsonl file without -jsonl-mode: the records of both runs
// are the crawl's, once each.
func TestJSONLResumeAppends(t *testing.T) {
	dir := t.TempDir()
	file, state := filepath.Join(dir, "pages.jsonl"), filepath.Join(dir, "state")
	total := 0
	for run1 := range 2 {
		code, stdout, stderr := run(t, "-demo", "-max-pages", "4", "-progress=false", "-jsonl", file, "-state", state)
		if code != 0 {
			t.Fatalf("run %d: exit %d: %s", run1+1, code, stderr)
		}
		var n int
		if _, err := fmt.Sscanf(stdout[strings.Index(stdout, "stored "):], "stored %d pages", &n); err != nil {
			t.Fatal(err)
		}
		total += n
	}
	records := readJSONL(t, file)
	if len(records) != total {
		t.Errorf("%d lines after two runs, want %d", len(records), total)
	}
	seen := map[string]bool{}
	for _, r := range records {
		if seen[r.URL] {
			t.Errorf("%s stored twice: the resumed crawl fetched it again", r.URL)
		}
		seen[r.URL] = true
	}
}
