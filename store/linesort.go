package store

import (
	"bufio"
	"bytes"
	"container/heap"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// sortRunBytes is how many bytes of index lines sortFileLines holds in
// memory at once: about 64,000 CDXJ lines.
const sortRunBytes = 16 << 20

// sortFileLines sorts the lines of the file at path byte-wise, stably,
// with at most about runBytes of them in memory whatever the file's size:
// runs of up to runBytes are sorted in memory and written to temporary
// files beside it, which are then merged. The result is written to
// path+".tmp" and renamed over path, so a crash while sorting leaves the
// unsorted file whole. A last line without a newline gets one.
func sortFileLines(path string, runBytes int) (err error) {
	in, err := os.Open(path)
	if err != nil {
		return err
	}
	defer in.Close()
	r := bufio.NewReaderSize(in, 64<<10)
	var runs []string
	defer func() {
		for _, name := range runs {
			os.Remove(name)
		}
	}()
	var lines [][]byte
	size := 0
	flush := func(dst string) error {
		slices.SortStableFunc(lines, bytes.Compare)
		if err := writeLines(dst, lines); err != nil {
			return err
		}
		lines, size = lines[:0], 0
		return nil
	}
	for {
		line, rerr := r.ReadBytes('\n')
		if len(line) > 0 {
			if line[len(line)-1] != '\n' {
				line = append(line, '\n')
			}
			lines = append(lines, line)
			size += len(line)
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return rerr
		}
		if size >= runBytes {
			name := fmt.Sprintf("%s.run%d", path, len(runs))
			runs = append(runs, name)
			if err := flush(name); err != nil {
				return err
			}
		}
	}
	tmp := path + ".tmp"
	if len(runs) == 0 {
		if err := flush(tmp); err != nil {
			return err
		}
		return os.Rename(tmp, path)
	}
	if len(lines) > 0 {
		name := fmt.Sprintf("%s.run%d", path, len(runs))
		runs = append(runs, name)
		if err := flush(name); err != nil {
			return err
		}
	}
	if err := mergeRuns(tmp, runs); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// writeLines writes lines to a new file dst.
func writeLines(dst string, lines [][]byte) error {
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 64<<10)
	for _, l := range lines {
		if _, err := w.Write(l); err != nil {
			f.Close()
			return err
		}
	}
	return errors.Join(w.Flush(), f.Close())
}

// mergeRuns merges the sorted files runs into dst. Equal lines come out
// in the order of their runs, so the merge is as stable as each run.
func mergeRuns(dst string, runs []string) error {
	h := make(runHeap, 0, len(runs))
	for i, name := range runs {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		rc := &runCursor{r: bufio.NewReaderSize(f, 32<<10), run: i}
		ok, err := rc.next()
		if err != nil {
			return err
		}
		if ok {
			h = append(h, rc)
		}
	}
	heap.Init(&h)
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(out, 64<<10)
	for len(h) > 0 {
		rc := h[0]
		if _, err := w.Write(rc.line); err != nil {
			out.Close()
			return err
		}
		ok, err := rc.next()
		if err != nil {
			out.Close()
			return err
		}
		if ok {
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
	}
	return errors.Join(w.Flush(), out.Close())
}

// runCursor is the current line of one sorted run.
type runCursor struct {
	r    *bufio.Reader
	line []byte
	run  int
}

// next reads the run's next line; false at its end.
func (c *runCursor) next() (bool, error) {
	line, err := c.r.ReadBytes('\n')
	if len(line) > 0 {
		c.line = line
		return true, nil
	}
	if err == io.EOF {
		return false, nil
	}
	return false, err
}

type runHeap []*runCursor

func (h runHeap) Len() int { return len(h) }
func (h runHeap) Less(i, j int) bool {
	if c := bytes.Compare(h[i].line, h[j].line); c != 0 {
		return c < 0
	}
	return h[i].run < h[j].run
}
func (h runHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)   { *h = append(*h, x.(*runCursor)) }
func (h *runHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
