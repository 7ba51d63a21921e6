package trawlcli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONLFlag: -jsonl FILE writes one JSON object per stored page, with
// its URL, title and main text, alongside -out; a second run appends.
func TestJSONLFlag(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "pages.jsonl")
	stored := func(stdout string) int {
		var n int
		if _, err := fmt.Sscanf(stdout[strings.Index(stdout, "stored "):], "stored %d pages", &n); err != nil {
			t.Fatalf("no stored count in %q: %v", stdout, err)
		}
		return n
	}
	code, stdout, stderr := run(t, "-demo", "-max-pages", "12", "-progress=false", "-jsonl", file, "-out", filepath.Join(dir, "out"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "jsonl: "+file) {
		t.Errorf("summary does not name the JSONL file:\n%s", stdout)
	}
	first := stored(stdout)
	records := readJSONL(t, file)
	if len(records) != first || first == 0 {
		t.Fatalf("%d lines for %d stored pages", len(records), first)
	}
	withText := 0
	for i, r := range records {
		if !strings.HasPrefix(r.URL, "http://") || (r.ContentType == "text/html" && r.Title == "") {
			t.Errorf("line %d: url %q, %s, title %q", i+1, r.URL, r.ContentType, r.Title)
		}
		if r.MainText != "" {
			withText++
		}
	}
	if withText == 0 {
		t.Error("no page has a main text: -jsonl did not turn on WithMainText")
	}

	// A second run refuses the file by default, leaving it as it was.
	code, _, stderr = run(t, "-demo", "-max-pages", "3", "-progress=false", "-jsonl", file)
	if code != 1 || !strings.Contains(stderr, "-jsonl-mode append") {
		t.Errorf("second run without -jsonl-mode: exit %d, stderr %q; want 1 and the modes named", code, stderr)
	}
	if got := len(readJSONL(t, file)); got != first {
		t.Errorf("a refused run changed the file: %d lines, want %d", got, first)
	}
	code, stdout, stderr = run(t, "-demo", "-max-pages", "3", "-progress=false", "-jsonl", file, "-jsonl-mode", "append")
	if code != 0 {
		t.Fatalf("second run: exit %d: %s", code, stderr)
	}
	if got, want := len(readJSONL(t, file)), first+stored(stdout); got != want {
		t.Errorf("after a second run the file has %d lines, want %d (appended)", got, want)
	}
	code, stdout, stderr = run(t, "-demo", "-max-pages", "3", "-progress=false", "-jsonl", file, "-jsonl-mode", "overwrite")
	if code != 0 {
		t.Fatalf("third run: exit %d: %s", code, stderr)
	}
	if got, want := len(readJSONL(t, file)), stored(stdout); got != want {
		t.Errorf("after -jsonl-mode overwrite the file has %d lines, want %d", got, want)
	}
	if code, _, stderr := run(t, "-demo", "-jsonl", file, "-jsonl-mode", "truncate"); code != 2 || !strings.Contains(stderr, "unknown mode") {
		t.Errorf("-jsonl-mode truncate: exit %d, %q; want 2", code, stderr)
	}
}

// TestJSONLUnwritable: a -jsonl file that cannot be created fails before
// the crawl with exit status 1.
func TestJSONLUnwritable(t *testing.T) {
	code, _, stderr := run(t, "-demo", "-progress=false", "-jsonl", filepath.Join(t.TempDir(), "no", "such", "dir", "p.jsonl"))
	if code != 1 || !strings.Contains(stderr, "p.jsonl") {
		t.Errorf("exit %d, stderr %q; want 1 and the file named", code, stderr)
	}
}

type jsonlRecord struct {
	URL         string `json:"url"`
	ContentType string `json:"content_type"`
	Title       string `json:"title"`
	MainText    string `json:"main_text"`
}

func readJSONL(t *testing.T, path string) []jsonlRecord {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []jsonlRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r jsonlRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %d: %v", len(out)+1, err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
