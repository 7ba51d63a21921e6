package store

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/trawl-dev/trawl"
)

// exportBufferSize is the write buffer of JSONL and CSV: what a crash can
// lose at most.
const exportBufferSize = 64 << 10

// PageRecord is what JSONL and CSV write for a page given to Put: the
// page's metadata and extracted text, not its body (keep bodies with Dir or
// WARC). The JSON names are the tags below; CSV uses the same names as
// column headers, in this order.
type PageRecord struct {
	URL         string    `json:"url"`
	Status      int       `json:"status"`
	Depth       int       `json:"depth"`
	Referrer    string    `json:"referrer"`
	Anchor      string    `json:"anchor"`
	Fetched     time.Time `json:"fetched"`
	ContentType string    `json:"content_type"`
	Lang        string    `json:"lang"`
	Title       string    `json:"title"`
	Canonical   string    `json:"canonical"`
	// MainText is empty unless the crawl fills Page.MainText
	// (trawl.WithMainText); it is written as the crawl found it, line
	// breaks included (maintext.Extract keeps code's lines and puts list
	// items and table rows one a line).
	MainText  string  `json:"main_text"`
	Bytes     int     `json:"bytes"` // body length after decoding
	Truncated bool    `json:"truncated"`
	Links     int     `json:"links"` // references found on the page
	Score     float64 `json:"score"`
}

// NewPageRecord returns p's record.
func NewPageRecord(p *trawl.Page) PageRecord {
	r := PageRecord{
		Status: p.Status, Depth: p.Depth, Referrer: p.Referrer, Anchor: p.Anchor,
		Fetched: p.Fetched.UTC(), ContentType: p.ContentType, Lang: p.Lang, Title: p.Title,
		Canonical: p.Canonical, MainText: p.MainText, Bytes: len(p.Body), Truncated: p.Truncated,
		Links: len(p.Links), Score: p.Score,
	}
	if p.URL != nil {
		r.URL = p.URL.String()
	}
	return r
}

// lineWriter is the buffered, locked, whole-line writer under JSONL and
// CSV. A line is never split between two writes to the underlying writer
// unless it is longer than the buffer, so after a crash the output ends
// with the last line that fitted before the buffer was flushed.
type lineWriter struct {
	mu     sync.Mutex
	w      *bufio.Writer
	file   io.Closer // closed by Close when the store opened it
	err    error     // first write error; every later write returns it
	closed bool
}

func newLineWriter(w io.Writer, file io.Closer) *lineWriter {
	return &lineWriter{w: bufio.NewWriterSize(w, exportBufferSize), file: file}
}

// writeLine writes line (which ends in '\n') whole. The caller holds mu.
func (lw *lineWriter) writeLine(line []byte) error {
	if lw.closed {
		return errors.New("closed")
	}
	if lw.err != nil {
		return lw.err
	}
	if len(line) > lw.w.Available() && lw.w.Buffered() > 0 {
		if err := lw.w.Flush(); err != nil {
			lw.err = err
			return err
		}
	}
	if _, err := lw.w.Write(line); err != nil {
		lw.err = err
		return err
	}
	return nil
}

func (lw *lineWriter) flush() error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.closed {
		return nil
	}
	if err := lw.w.Flush(); err != nil && lw.err == nil {
		lw.err = err
	}
	return lw.err
}

func (lw *lineWriter) close() error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.closed {
		return nil
	}
	lw.closed = true
	err := lw.w.Flush()
	if lw.err != nil {
		err = lw.err
	}
	if lw.file != nil {
		err = errors.Join(err, lw.file.Close())
	}
	return err
}

// openAppend opens path for appending, creating it if needed.
func openAppend(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
}

// JSONL writes JSON Lines (https://jsonlines.org/): one JSON object per
// line, UTF-8, '\n' after each. It is a trawl.Store, writing a
// [PageRecord] per page given to Put, and a trawl.ItemSink, writing each
// item given to PutItem (any value encoding/json can marshal: a struct, a
// map, a slice...) as one line. One JSONL may take both, but a file is
// easier to read back when it holds one kind of record: give pages and
// items separate files (WithStore and WithItems).
//
// Writes go through a 64 KiB buffer, flushed when it fills, by Flush and
// by Close (the crawler closes its Store, and its item sink, when Run
// returns). A line is written whole unless it is longer than the buffer,
// so a crash (kill -9) loses at most the lines still buffered and leaves a
// file of whole lines; nothing is fsynced. HTML is not escaped ("<" stays
// "<").
//
// A JSONL is safe for concurrent use: lines are encoded by the calling
// goroutines and only the copy into the buffer is serialized.
type JSONL struct {
	lw *lineWriter
}

// NewJSONL opens path for a JSONL store, creating it if needed. An
// existing file is appended to (as Scrapy's -o does), so a resumed crawl
// adds to what an earlier run wrote; remove it first for a fresh file.
// Close closes the file.
func NewJSONL(path string) (*JSONL, error) {
	f, err := openAppend(path)
	if err != nil {
		return nil, fmt.Errorf("store: jsonl: %w", err)
	}
	return &JSONL{lw: newLineWriter(f, f)}, nil
}

// NewJSONLWriter returns a JSONL store writing to w (os.Stdout, a gzip
// writer...). Close flushes but does not close w. w is only written to
// under the store's lock, so it need not be safe for concurrent use.
func NewJSONLWriter(w io.Writer) *JSONL {
	return &JSONL{lw: newLineWriter(w, nil)}
}

// Put writes p's [PageRecord] as one line.
func (j *JSONL) Put(_ context.Context, p *trawl.Page) error {
	if err := j.write(NewPageRecord(p)); err != nil {
		return fmt.Errorf("store: jsonl: page %s: %w", p.URL, err)
	}
	return nil
}

// PutItem writes item, marshaled by encoding/json, as one line. An item
// that does not marshal (a channel, a func, a NaN) returns the marshaling
// error and writes nothing.
func (j *JSONL) PutItem(_ context.Context, item any) error {
	if err := j.write(item); err != nil {
		return fmt.Errorf("store: jsonl: item: %w", err)
	}
	return nil
}

func (j *JSONL) write(v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil { // Encode ends the line with '\n'
		return err
	}
	j.lw.mu.Lock()
	defer j.lw.mu.Unlock()
	return j.lw.writeLine(buf.Bytes())
}

// Flush writes the buffered lines to the file (or writer).
func (j *JSONL) Flush() error {
	if err := j.lw.flush(); err != nil {
		return fmt.Errorf("store: jsonl: %w", err)
	}
	return nil
}

// Close flushes the buffer and closes the file NewJSONL opened. Later Put
// and PutItem calls fail; a second Close does nothing.
func (j *JSONL) Close() error {
	if err := j.lw.close(); err != nil {
		return fmt.Errorf("store: jsonl: %w", err)
	}
	return nil
}
