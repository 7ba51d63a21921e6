package trawlcli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWARCFlags(t *testing.T) {
	dir := t.TempDir()
	out, warc := filepath.Join(dir, "out"), filepath.Join(dir, "warc")
	code, _, stderr := run(t, "-demo", "-out", out, "-warc", warc, "-warc-outlinks", "-max-pages", "25", "-progress=false")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(warc, "*.warc.gz"))
	index, _ := filepath.Glob(filepath.Join(warc, "*.cdxj"))
	if len(files) != 1 || len(index) != 1 {
		t.Fatalf("-warc wrote %v and %v, want one WARC file and its index", files, index)
	}
	cdxj, _ := os.ReadFile(index[0])
	if lines := strings.Count(string(cdxj), "\n"); lines < 25 {
		t.Errorf("%d index lines for 25 pages and their robots.txt", lines)
	}
	if urls, _ := os.ReadFile(filepath.Join(out, "urls.txt")); strings.Count(string(urls), "\n") == 0 {
		t.Error("-out stored nothing alongside -warc")
	}
}
