package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// sortFileLines sorts like an in-memory sort whatever the run size, keeps
// every line (equal ones included), and leaves no temporary file behind.
func TestSortFileLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var lines [][]byte
	for i := range 3000 {
		// Few distinct keys, so that many lines tie on the key.
		lines = append(lines, fmt.Appendf(nil, "com,example)/%d 2026 {\"n\":%d}\n", rng.IntN(50), i))
	}
	want := slices.Clone(lines)
	slices.SortFunc(want, bytes.Compare)
	for _, c := range []struct {
		name     string
		runBytes int
		lines    [][]byte
		want     [][]byte
	}{
		{"one run", 1 << 30, lines, want},
		{"many runs", 4096, lines, want},
		{"one line a run", 1, lines, want},
		{"empty", 4096, nil, nil},
		{"equal lines", 100, dup([]byte("a\n"), 50), dup([]byte("a\n"), 50)},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "x.cdxj")
			if err := os.WriteFile(path, bytes.Join(c.lines, nil), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := sortFileLines(path, c.runBytes); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if w := bytes.Join(c.want, nil); !bytes.Equal(got, w) {
				t.Fatalf("sorted file differs: %d bytes, want %d", len(got), len(w))
			}
			if files, _ := os.ReadDir(dir); len(files) != 1 {
				t.Errorf("files left in the directory: %v", files)
			}
		})
	}
}

// A last line without a newline gets one, and is sorted with the others.
func TestSortFileLinesLastLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.cdxj")
	os.WriteFile(path, []byte("c\nb\na"), 0o644)
	if err := sortFileLines(path, 2); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "a\nb\nc\n" {
		t.Errorf("got %q", got)
	}
}

func dup(b []byte, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = b
	}
	return out
}
