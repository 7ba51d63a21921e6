package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
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
// .trawl-depths, which Dir keeps beside urls.txt).
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
func (d *Dir) resume() error {
	data, err := os.ReadFile(filepath.Join(d.dir, urlsFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if i := strings.LastIndexByte(string(data), '\n'); i+1 != len(data) {
		// An unterminated last line: cut it so appends start clean.
		if err := os.Truncate(filepath.Join(d.dir, urlsFile), int64(i+1)); err != nil {
			return fmt.Errorf("store: %w", err)
		}
		data = data[:i+1]
	}
	d.n = strings.Count(string(data), "\n")
	depths := readDepths(filepath.Join(d.dir, depthsFile))
	for i := 1; i <= d.n; i++ {
		matches, _ := filepath.Glob(filepath.Join(d.dir, fmt.Sprintf("%06d.*", i)))
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
		d.st.add(fi.Size(), depth)
	}
	return nil
}

func readDepths(path string) []int {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var v int
		fmt.Sscan(sc.Text(), &v)
		out = append(out, v)
	}
	return out
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
