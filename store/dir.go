package store

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/trawl-dev/trawl"
)

// Dir stores pages as numbered files in a directory:
//
//	000001.html, 000002.html, ...   page bodies (UTF-8), the extension from the
//	                                 content type (.html, .xml, .txt)
//	urls.txt                         one URL per line, line n for file n,
//	                                 appended as each page is stored
//	stats.txt                        written by Close, exactly these lines:
//	                                   Maximum size: N bytes
//	                                   Minimum size: N bytes
//	                                   Average size: N bytes
//	                                   Maximum depth reach: D
//
// Sizes are of the stored bodies; depth is the deepest page stored (seeds
// have depth 1). When the directory already holds urls.txt from an earlier
// run, numbering continues after its last line and stats.txt covers the
// pages of both runs (sizes are read back from the files; depths from
// .trawl-depths, which Dir keeps beside urls.txt). NewDir reads the
// directory once for that, so resuming costs time linear in the number of
// pages stored (see BenchmarkDirResume).
//
// A Dir is safe for concurrent use.
type Dir struct {
	dir string

	mu     sync.Mutex
	n      int // files written so far, including earlier runs
	urls   *os.File
	depths *os.File
	st     sizeStats
	closed bool
}

type sizeStats struct {
	count, sum, min, max int64
	maxDepth             int
}

func (s *sizeStats) add(size int64, depth int) {
	if s.count == 0 || size < s.min {
		s.min = size
	}
	if size > s.max {
		s.max = size
	}
	s.count++
	s.sum += size
	if depth > s.maxDepth {
		s.maxDepth = depth
	}
}

const (
	urlsFile   = "urls.txt"
	depthsFile = ".trawl-depths"
	statsFile  = "stats.txt"
)

// NewDir opens (creating if needed) a directory store. If dir already holds
// a urls.txt, numbering continues after it.
func NewDir(dir string) (*Dir, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	d := &Dir{dir: dir}
	if err := d.resume(); err != nil {
		return nil, err
	}
	var err error
	if d.urls, err = os.OpenFile(filepath.Join(dir, urlsFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if d.depths, err = os.OpenFile(filepath.Join(dir, depthsFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
		d.urls.Close()
		return nil, fmt.Errorf("store: %w", err)
	}
	return d, nil
}

// resume counts the URLs of an earlier run and rebuilds the size and depth
// statistics from its files. A last line cut short by a crash is dropped.
// It reads the directory once, so its cost is linear in the files there.
func (d *Dir) resume() error {
	data, err := os.ReadFile(filepath.Join(d.dir, urlsFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if i := bytes.LastIndexByte(data, '\n'); i+1 != len(data) {
		// An unterminated last line: cut it so appends start clean.
		if err := os.Truncate(filepath.Join(d.dir, urlsFile), int64(i+1)); err != nil {
			return fmt.Errorf("store: %w", err)
		}
		data = data[:i+1]
	}
	d.n = bytes.Count(data, []byte{'\n'})
	depths := readDepths(filepath.Join(d.dir, depthsFile))
	sizes, err := storedSizes(d.dir, d.n)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	for i := 1; i <= d.n; i++ {
		if sizes[i] < 0 {
			continue
		}
		depth := 0
		if i-1 < len(depths) {
			depth = depths[i-1]
		}
		d.st.add(sizes[i], depth)
	}
	return nil
}

// storedSizes returns, indexed by file number 1..n, the size of each page's
// body file, or -1 where there is none. A number's file is the first, in
// byte order, of the names "NNNNNN." followed by anything (the number as Put
// formats it); symbolic links are followed. The directory is read once, in
// batches.
func storedSizes(dir string, n int) ([]int64, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	first := make([]fs.DirEntry, n+1)
	for {
		batch, err := f.ReadDir(1024)
		for _, e := range batch {
			i, ok := fileNumber(e.Name())
			if !ok || i > n {
				continue
			}
			if first[i] == nil || e.Name() < first[i].Name() {
				first[i] = e
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	sizes := make([]int64, n+1)
	for i, e := range first {
		sizes[i] = -1
		if e == nil {
			continue
		}
		var fi fs.FileInfo
		if e.Type()&fs.ModeSymlink != 0 {
			fi, err = os.Stat(filepath.Join(dir, e.Name()))
		} else {
			fi, err = e.Info()
		}
		if err == nil {
			sizes[i] = fi.Size()
		}
	}
	return sizes, nil
}

// fileNumber parses the number of a body file named as Put names them:
// fmt.Sprintf("%06d", i) followed by '.' and anything. ok is false for any
// other name, "000000." included.
func fileNumber(name string) (i int, ok bool) {
	digits, _, found := strings.Cut(name, ".")
	if !found || len(digits) < 6 || len(digits) > 18 || (len(digits) > 6 && digits[0] == '0') {
		return 0, false
	}
	for j := 0; j < len(digits); j++ {
		c := digits[j]
		if c < '0' || c > '9' {
			return 0, false
		}
		i = i*10 + int(c-'0')
	}
	return i, i > 0
}

// readDepths reads .trawl-depths, one depth a line (0 for a line that does
// not start with a number).
func readDepths(path string) []int {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		v, ok := decimal(sc.Bytes())
		if !ok {
			v = scanInt(sc.Text())
		}
		out = append(out, v)
	}
	return out
}

func scanInt(s string) int {
	var v int
	fmt.Sscan(s, &v)
	return v
}

// decimal parses a line as Put writes a depth ("%d" of a non-negative
// number), quickly; ok is false for anything else, which fmt.Sscan reads as
// it always did.
func decimal(b []byte) (v int, ok bool) {
	if len(b) == 0 || len(b) > 18 || (len(b) > 1 && b[0] == '0') {
		return 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// Put writes the page's body to the next numbered file, then appends its URL
// to urls.txt.
func (d *Dir) Put(_ context.Context, p *trawl.Page) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return errors.New("store: put after close")
	}
	name := fmt.Sprintf("%06d%s", d.n+1, extension(p.ContentType))
	if err := os.WriteFile(filepath.Join(d.dir, name), p.Body, 0o644); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if _, err := fmt.Fprintf(d.depths, "%d\n", p.Depth); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if _, err := d.urls.WriteString(p.URL.String() + "\n"); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	d.n++
	d.st.add(int64(len(p.Body)), p.Depth)
	return nil
}

// Len returns the number of pages stored, including earlier runs.
func (d *Dir) Len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.n
}

// Close writes stats.txt and closes the files. It is safe to call twice.
func (d *Dir) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil
	}
	d.closed = true
	avg := int64(0)
	if d.st.count > 0 {
		avg = d.st.sum / d.st.count
	}
	stats := fmt.Sprintf("Maximum size: %d bytes\nMinimum size: %d bytes\nAverage size: %d bytes\nMaximum depth reach: %d\n",
		d.st.max, d.st.min, avg, d.st.maxDepth)
	err := os.WriteFile(filepath.Join(d.dir, statsFile), []byte(stats), 0o644)
	return errors.Join(err, d.urls.Close(), d.depths.Close())
}

func extension(contentType string) string {
	switch {
	case contentType == "text/plain":
		return ".txt"
	case strings.HasSuffix(contentType, "xml") && contentType != "application/xhtml+xml":
		return ".xml"
	}
	return ".html"
}
