package trawlcli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestProfileFlags checks that -cpuprofile and -memprofile write pprof
// files (gzipped protocol buffers) and that an unwritable path stops the
// command before it crawls.
func TestProfileFlags(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.out"), filepath.Join(dir, "mem.out")
	code, stdout, stderr := run(t, "-demo", "-max-pages", "10", "-progress=false", "-cpuprofile", cpu, "-memprofile", mem)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "crawled 10 pages") {
		t.Errorf("stdout lacks the summary:\n%s", stdout)
	}
	for _, path := range []string{cpu, mem} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
			t.Errorf("%s: %d bytes, not a gzipped profile", filepath.Base(path), len(b))
		}
	}
	code, stdout, stderr = run(t, "-demo", "-max-pages", "10", "-cpuprofile", filepath.Join(dir, "missing", "cpu.out"))
	if code != 1 || !strings.Contains(stderr, "-cpuprofile") || strings.Contains(stdout, "crawled") {
		t.Errorf("-cpuprofile in a missing directory: exit %d, stderr %q, stdout %q; want exit 1 before any crawl", code, stderr, stdout)
	}
}

// TestRunLeavesMemProfileRate checks that Run, unlike Main, leaves the
// runtime's heap-profile sampling alone when no -memprofile is given: a
// test binary (go test -memprofile) and a program that embeds Run keep
// theirs.
func TestRunLeavesMemProfileRate(t *testing.T) {
	before := runtime.MemProfileRate
	code, _, stderr := run(t, "-demo", "-max-pages", "3", "-progress=false")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if runtime.MemProfileRate != before {
		t.Errorf("runtime.MemProfileRate = %d after Run, want %d", runtime.MemProfileRate, before)
	}
}
