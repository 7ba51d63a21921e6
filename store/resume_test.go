package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// writeRun lays out, directly and cheaply, what a run that stored n pages
// leaves in dir: files 1..n (file i has i%50 bytes and depth i%7+1),
// urls.txt and .trawl-depths. The page files are hard links to 50 files of
// each size, kept elsewhere: on some file systems a link costs a small part
// of what creating a file does.
func writeRun(tb testing.TB, dir string, n int) {
	tb.Helper()
	src := tb.TempDir()
	body := bytes.Repeat([]byte("x"), 50)
	for size := range 50 {
		if err := os.WriteFile(filepath.Join(src, strconv.Itoa(size)), body[:size], 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	var urls, depths bytes.Buffer
	link := true
	for i := 1; i <= n; i++ {
		name := filepath.Join(dir, fmt.Sprintf("%06d.html", i))
		if link && os.Link(filepath.Join(src, strconv.Itoa(i%50)), name) != nil {
			link = false // no hard links here: write the files
		}
		if !link {
			if err := os.WriteFile(name, body[:i%50], 0o644); err != nil {
				tb.Fatal(err)
			}
		}
		fmt.Fprintf(&urls, "http://a.test/%d\n", i)
		depths.WriteString(strconv.Itoa(i%7+1) + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, urlsFile), urls.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, depthsFile), depths.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// TestDirResumeLarge resumes a directory of 100,000 pages and checks the
// count and the statistics carried over.
func TestDirResumeLarge(t *testing.T) {
	const n = 100_000
	dir := t.TempDir()
	writeRun(t, dir, n)
	d, err := NewDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != n {
		t.Fatalf("resumed Len = %d, want %d", d.Len(), n)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	var sum int64
	for i := 1; i <= n; i++ {
		sum += int64(i % 50)
	}
	want := fmt.Sprintf("Maximum size: 49 bytes\nMinimum size: 0 bytes\nAverage size: %d bytes\nMaximum depth reach: 7\n", sum/n)
	if got := readFile(t, filepath.Join(dir, statsFile)); got != want {
		t.Errorf("stats.txt = %q, want %q", got, want)
	}
}

func BenchmarkDirResume(b *testing.B) {
	for _, n := range []int{1_000, 4_000, 16_000, 100_000} {
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			writeRun(b, dir, n)
			b.ReportAllocs()
			for b.Loop() {
				d, err := NewDir(dir)
				if err != nil {
					b.Fatal(err)
				}
				if d.Len() != n {
					b.Fatalf("Len = %d, want %d", d.Len(), n)
				}
				d.Close()
			}
		})
	}
}

// globStats is how NewDir rebuilt the statistics before it read the
// directory once: one Glob and one Stat per stored page. It is the
// reference for TestDirResumeMatchesGlob.
func globStats(dir string, n int, depths []int) sizeStats {
	var st sizeStats
	for i := 1; i <= n; i++ {
		matches, _ := filepath.Glob(filepath.Join(dir, fmt.Sprintf("%06d.*", i)))
		if len(matches) == 0 {
			continue
		}
		fi, err := os.Stat(matches[0])
		if err != nil {
			continue
		}
		depth := 0
		if i-1 < len(depths) {
			depth = depths[i-1]
		}
		st.add(fi.Size(), depth)
	}
	return st
}

// TestDirResumeMatchesGlob resumes a directory with odd names in it and
// checks that the statistics are those the Glob-per-page reading gave.
func TestDirResumeMatchesGlob(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string // name -> body
		dirs   []string
		links  map[string]string // name -> target
		n      int
		depths string
	}{
		{name: "plain", files: map[string]string{"000001.html": "aaaaa", "000002.xml": "bb", "000003.txt": ""}, n: 3, depths: "1\n2\n3\n"},
		{name: "several extensions: first by name", files: map[string]string{"000001.txt": "123456789", "000001.html": "12345", "000001.xml": "1"}, n: 1, depths: "4\n"},
		{name: "missing files and depths", files: map[string]string{"000002.html": "xx", "000005.html": "xxxxxxx"}, n: 6, depths: "1\n"},
		{name: "odd names", files: map[string]string{
			"000001.": "abc", "000002.html.bak": "abcd", "0000003.html": "ignored", "000003.html": "x",
			"00004.html": "ignored", "000004x.html": "ignored", "+00004.html": "ignored", "000004.h": "yy",
			"000000.html": "ignored", "000009.html": "beyond n", "urls.txt.html": "ignored", "1000000.html": "beyond n",
		}, n: 8, depths: "2\n010\n 3\nx\n-1\n5 6\n"},
		{name: "directory and symlink", files: map[string]string{"target": "1234567"}, dirs: []string{"000001.html"},
			links: map[string]string{"000002.html": "target", "000003.html": "missing"}, n: 3, depths: "1\n2\n3\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, name := range tt.dirs {
				if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for name, target := range tt.links {
				if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
					t.Fatal(err)
				}
			}
			urls := bytes.Repeat([]byte("http://a.test/\n"), tt.n)
			if err := os.WriteFile(filepath.Join(dir, urlsFile), urls, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, depthsFile), []byte(tt.depths), 0o644); err != nil {
				t.Fatal(err)
			}
			want := globStats(dir, tt.n, readDepths(filepath.Join(dir, depthsFile)))
			d, err := NewDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if d.Len() != tt.n || d.st != want {
				t.Errorf("NewDir: Len %d, stats %+v; want %d, %+v (as the Glob reading gives)", d.Len(), d.st, tt.n, want)
			}
		})
	}
}

func TestReadDepths(t *testing.T) {
	tests := []struct {
		in   string
		want []int
	}{
		{in: "", want: nil},
		{in: "1\n2\n30\n", want: []int{1, 2, 30}},
		{in: "0\n", want: []int{0}},
		// Lines Put never writes are read by fmt.Sscan, as they always were.
		{in: "010\n 3\nx\n-1\n5 6\n0x10\n", want: []int{8, 3, 0, -1, 5, 16}},
	}
	for _, tt := range tests {
		path := filepath.Join(t.TempDir(), depthsFile)
		if err := os.WriteFile(path, []byte(tt.in), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := readDepths(path); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("readDepths(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestFileNumber(t *testing.T) {
	tests := []struct {
		name   string
		want   int
		wantOK bool
	}{
		{name: "000001.html", want: 1, wantOK: true},
		{name: "000001.", want: 1, wantOK: true},
		{name: "000001.html.bak", want: 1, wantOK: true},
		{name: "999999.xml", want: 999999, wantOK: true},
		{name: "1000000.html", want: 1000000, wantOK: true},
		{name: "123456789.txt", want: 123456789, wantOK: true},
		{name: "0000001.html"},             // %06d never pads past six digits
		{name: "000000.html"},              // numbering starts at 1
		{name: "00001.html"},               // too short
		{name: "000001"},                   // no dot
		{name: "+00001.html"},              // not digits
		{name: "00000a.html"},              // not digits
		{name: "000001x.html"},             // not digits
		{name: "urls.txt"},                 // not a page
		{name: ".trawl-depths"},            // not a page
		{name: "1234567890123456789.html"}, // too long to be a count
	}
	for _, tt := range tests {
		got, ok := fileNumber(tt.name)
		if ok != tt.wantOK || (ok && got != tt.want) {
			t.Errorf("fileNumber(%q) = %d, %v; want %d, %v", tt.name, got, ok, tt.want, tt.wantOK)
		}
	}
}
