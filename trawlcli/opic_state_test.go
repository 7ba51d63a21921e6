//go:build !trawl_nostate

package trawlcli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fetchedURLs reads a -decisions log and returns the URLs fetched, in
// order, and how many of them have an importance.
func fetchedURLs(t *testing.T, file string) (urls []string, withImportance int) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.Contains(line, `"outcome":"fetched"`) {
			continue
		}
		var d struct {
			URL        string  `json:"url"`
			Importance float64 `json:"importance"`
		}
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		urls = append(urls, d.URL)
		if d.Importance > 0 {
			withImportance++
		}
	}
	return urls, withImportance
}

// TestOPICWithState: -opic works with -state: a crawl stopped by
// -max-pages and run again resumes from the directory in OPIC order and
// fetches the pages a crawl without a stop fetches, each once, every one
// with an importance.
func TestOPICWithState(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	var all []string
	for i, args := range [][]string{{"-max-pages", "10"}, nil} {
		log := filepath.Join(dir, "run"+string(rune('1'+i))+".jsonl")
		args = append([]string{"-demo", "-progress=false", "-opic", "-state", state, "-decisions", log}, args...)
		code, stdout, stderr := run(t, args...)
		if code != 0 {
			t.Fatalf("run %d: exit %d\nstdout:\n%s\nstderr:\n%s", i+1, code, stdout, stderr)
		}
		urls, withImportance := fetchedURLs(t, log)
		if len(urls) == 0 || withImportance != len(urls) {
			t.Errorf("run %d fetched %d pages, %d with an importance; want some, each with one", i+1, len(urls), withImportance)
		}
		all = append(all, urls...)
	}
	whole := filepath.Join(dir, "whole.jsonl")
	if code, _, stderr := run(t, "-demo", "-progress=false", "-opic", "-decisions", whole); code != 0 {
		t.Fatalf("crawl without -state: exit %d: %s", code, stderr)
	}
	want, _ := fetchedURLs(t, whole)
	slices.Sort(all)
	slices.Sort(want)
	if !slices.Equal(all, want) {
		t.Errorf("stopped and resumed with -state, the crawl fetched %d pages (%d distinct), without a stop %d",
			len(all), len(slices.Compact(slices.Clone(all))), len(want))
	}
}
