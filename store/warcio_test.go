package store_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/store"
)

// warcio finds the warcio.js command-line tool (npm install warcio):
// $TRAWL_WARCIO, else the copy .ci/run installs under
// $HOME/.cache/trawl-warcio, else warcio on $PATH. Without it the test
// skips, except in CI (CI set), where it fails.
func warcio(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("TRAWL_WARCIO"); p != "" {
		return p
	}
	if home, err := os.UserHomeDir(); err == nil {
		p := filepath.Join(home, ".cache", "trawl-warcio", "node_modules", ".bin", "warcio")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("warcio"); err == nil {
		return p
	}
	msg := "warcio.js not found: install it with `npm install --prefix ~/.cache/trawl-warcio warcio` (what .ci/run does) or set TRAWL_WARCIO"
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// indexed is one line of `warcio index`.
type indexed struct {
	Offset int64  `json:"offset"`
	Type   string `json:"warc-type"`
	ID     string `json:"warc-record-id"`
	URI    string `json:"warc-target-uri"`
}

// warcioIndex lists the records warcio.js reads in file. warcio exits 0
// even on a corrupt or truncated file (it stops reading where the damage
// begins), so callers compare the list with the records the file holds.
func warcioIndex(t *testing.T, bin, file string) []indexed {
	t.Helper()
	out, err := exec.Command(bin, "index", file, "-f", "offset,warc-type,warc-record-id,warc-target-uri").Output()
	if err != nil {
		t.Fatalf("warcio index %s: %v", filepath.Base(file), err)
	}
	var got []indexed
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var x indexed
		if err := json.Unmarshal(sc.Bytes(), &x); err != nil {
			t.Fatalf("warcio index %s: line %q: %v", filepath.Base(file), sc.Text(), err)
		}
		got = append(got, x)
	}
	return got
}

func expected(recs []record) []indexed {
	var want []indexed
	for _, r := range recs {
		want = append(want, indexed{Offset: r.offset, Type: r.typ(), ID: r.header.Get("WARC-Record-ID"), URI: r.header.Get("WARC-Target-URI")})
	}
	return want
}

// TestWARCReadByWarcio has warcio.js (webrecorder's reader, which no one
// here wrote) read every file a crawl wrote: `warcio index` must list
// every record, at its offset, and `warcio cdx-index` must give the
// entries of the CDXJ index the store wrote. Then it checks that the
// validation can fail: a copy with damaged bytes, and a copy cut inside
// its last record as a crash would leave it, which must still read to the
// record before the cut.
func TestWARCReadByWarcio(t *testing.T) {
	bin := warcio(t)
	web := archiveWeb(t)
	dir, _ := crawlToWARC(t, web, &store.WARCOptions{Outlinks: true, MaxFileSize: 64 << 10})
	files := warcFiles(t, dir)

	// The store's index, to compare with warcio cdx-index's.
	ours := strings.Split(strings.TrimSpace(string(must(os.ReadFile(cdxjPath(t, dir))))), "\n")
	var theirs []string
	records := 0
	for _, f := range files {
		recs := readWARC(t, f)
		records += len(recs)
		if got, want := warcioIndex(t, bin, f), expected(recs); !slices.Equal(got, want) {
			t.Errorf("warcio index %s: %d records read, want %d:\ngot  %v\nwant %v", filepath.Base(f), len(got), len(want), got, want)
		}
		out, err := exec.Command(bin, "cdx-index", f).Output()
		if err != nil {
			t.Fatalf("warcio cdx-index %s: %v", filepath.Base(f), err)
		}
		theirs = append(theirs, strings.Split(strings.TrimSpace(string(out)), "\n")...)
	}
	if !sameCDXJ(t, ours, theirs) {
		t.Errorf("the store's CDXJ index differs from warcio cdx-index's")
	}
	t.Logf("warcio.js read %d files, %d records; cdx-index agrees on %d entries", len(files), records, len(theirs))

	// The check can fail: damage bytes in the middle of the largest file.
	slices.SortFunc(files, func(a, b string) int { return int(size(a) - size(b)) })
	big := files[len(files)-1]
	recs := readWARC(t, big)
	data := must(os.ReadFile(big))
	bad := filepath.Join(t.TempDir(), "damaged.warc.gz")
	damaged := bytes.Clone(data)
	mid := recs[len(recs)/2].offset + 20
	for i := range 8 {
		damaged[int(mid)+i] ^= 0xa5
	}
	os.WriteFile(bad, damaged, 0o644)
	if slices.Equal(warcioIndex(t, bin, bad), expected(recs)) {
		t.Error("warcio read a damaged file as whole: this validation cannot fail")
	}

	// A crash inside the last record: every record before it still reads.
	last := recs[len(recs)-1]
	cut := filepath.Join(t.TempDir(), "crashed.warc.gz.open")
	os.WriteFile(cut, data[:last.offset+(int64(len(data))-last.offset)/2], 0o644)
	if got, want := warcioIndex(t, bin, cut), expected(recs[:len(recs)-1]); !slices.Equal(got, want) {
		t.Errorf("a file cut inside its last record: warcio read %d records, want the %d before the cut", len(got), len(want))
	}
}

// sameCDXJ compares two CDXJ indexes by key, timestamp and the fields
// both write.
func sameCDXJ(t *testing.T, a, b []string) bool {
	t.Helper()
	norm := func(lines []string) []string {
		var out []string
		for _, l := range lines {
			parts := strings.SplitN(l, " ", 3)
			var f map[string]string
			if len(parts) != 3 || json.Unmarshal([]byte(parts[2]), &f) != nil {
				t.Errorf("CDXJ line %q", l)
				continue
			}
			out = append(out, strings.Join([]string{parts[0], parts[1], f["url"], f["mime"], f["status"], f["digest"], f["length"], f["offset"], f["filename"]}, " "))
		}
		slices.Sort(out)
		return out
	}
	na, nb := norm(a), norm(b)
	if !slices.Equal(na, nb) {
		for i := range min(len(na), len(nb)) {
			if na[i] != nb[i] {
				t.Logf("first difference:\nstore  %s\nwarcio %s", na[i], nb[i])
				break
			}
		}
		return false
	}
	return true
}

func cdxjPath(t *testing.T, dir string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.cdxj"))
	if len(files) != 1 {
		t.Fatalf("CDXJ files %v, want one", files)
	}
	return files[0]
}

func size(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestWARCEveryGzipLevel writes the same exchanges at each GzipLevel (this
// package's FastGzip, klauspost/compress's stateless, Huffman-only, 1 and
// 9, request records stored or not): crawltest pages, a response of random
// bytes (which FastGzip stores) and one over 1 MiB (compressed as it is
// written). Each file must read back, with the standard library's gzip
// reader and with warcio.js, to the records and bytes given.
func TestWARCEveryGzipLevel(t *testing.T) {
	bin := warcio(t)
	exs := exchanges(t, 12)
	rnd := make([]byte, 100<<10) // over 64 KiB: FastGzip stores it in two blocks
	src := rand.New(rand.NewPCG(1, 2))
	for i := range rnd {
		rnd[i] = byte(src.Uint32())
	}
	big := bytes.Repeat([]byte("<p>large and compressible</p>\n"), 50_000) // 1.5 MB
	for i, body := range [][]byte{rnd, big} {
		resp := append([]byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n", len(body))), body...)
		u, _ := url.Parse(fmt.Sprintf("http://h0.test/b%d", i))
		ex := fetch.NewExchange(u, []byte("GET /b HTTP/1.1\r\nHost: h0.test\r\n\r\n"), resp)
		ex.Status, ex.Date, ex.RemoteAddr = 200, fixedClock, "127.0.0.1:80"
		exs = append(exs, ex)
	}
	for _, c := range []struct{ level, min int }{{0, 0}, {store.FastGzip, -1}, {-3, 0}, {-2, -1}, {1, 0}, {9, -1}} {
		t.Run(fmt.Sprintf("gzip=%d/min=%d", c.level, c.min), func(t *testing.T) {
			dir := t.TempDir()
			w, err := store.NewWARC(dir, &store.WARCOptions{NoRevisits: true, GzipLevel: c.level, MinGzipSize: c.min})
			if err != nil {
				t.Fatal(err)
			}
			for _, ex := range exs {
				if err := w.PutExchange(context.Background(), ex); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			files := warcFiles(t, dir)
			recs := readWARC(t, files[0])
			if len(files) != 1 || len(recs) != 1+2*len(exs) {
				t.Fatalf("%d files, %d records; want 1 file, %d records", len(files), len(recs), 1+2*len(exs))
			}
			for i, ex := range exs {
				resp, req := recs[1+2*i], recs[2+2*i]
				want, _ := io.ReadAll(ex.Response())
				if !bytes.Equal(resp.block, want) || !bytes.Equal(req.block, ex.Request) {
					t.Errorf("exchange %d (%s): the records do not read back to the bytes given", i, ex.URL)
				}
			}
			if got, want := warcioIndex(t, bin, files[0]), expected(recs); !slices.Equal(got, want) {
				t.Errorf("warcio index: %d records read, want %d", len(got), len(want))
			}
		})
	}
}
