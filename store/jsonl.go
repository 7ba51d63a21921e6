package store

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/trawl-dev/trawl"
)

// exportBufferSize is the write buffer of JSONL and CSV. A record waits
// in it at most FileOptions.FlushInterval.
const exportBufferSize = 64 << 10

// Mode says what NewJSONL and NewCSV do with a file that exists and is
// not empty (a missing or empty file is simply written).
type Mode uint8

const (
	// Refuse, the default, fails with an error (matching fs.ErrExist)
	// that names the file, its size and the other modes: running a
	// program twice never doubles its records, nor loses the first run's.
	Refuse Mode = iota
	// Append adds to the file, as Scrapy's -o does: a resumed crawl
	// continues its output. A CSV keeps the file's header row.
	Append
	// Overwrite empties the file first, as Scrapy's -O does.
	Overwrite
)

var modeNames = [...]string{Refuse: "refuse", Append: "append", Overwrite: "overwrite"}

// String returns the mode's name: "refuse", "append" or "overwrite".
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// ParseMode returns the Mode named s ("refuse", "append", "overwrite").
func ParseMode(s string) (Mode, error) {
	for m, name := range modeNames {
		if s == name {
			return Mode(m), nil
		}
	}
	return 0, fmt.Errorf("store: unknown mode %q (refuse, append or overwrite)", s)
}

// FileOptions configure a [JSONL] or [CSV] store. A nil *FileOptions means
// all defaults; the zero value of every field means its default.
type FileOptions struct {
	// Mode says what to do with a file that exists and is not empty:
	// Refuse (the default), Append or Overwrite.
	Mode Mode
	// FlushInterval bounds how long a record waits in the store's 64 KiB
	// buffer: a timer armed by the first record put in an empty buffer
	// writes the buffer out when it fires, so a hard kill (SIGKILL, an
	// out-of-memory kill) loses at most the records of the last interval.
	// Default DefaultFlushInterval (1 s); negative: the buffer is written
	// only when it fills, by Flush and by Close.
	FlushInterval time.Duration
}

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
// Buffered lines are written out by a timer (see flushTimer) at most
// FileOptions.FlushInterval after they were buffered.
type lineWriter struct {
	mu     sync.Mutex
	w      *bufio.Writer
	file   io.Closer // closed by Close when the store opened it
	err    error     // first write error; every later write returns it
	closed bool
	timer  flushTimer
	onTick func() // tests: called after each timer flush, outside mu
}

func newLineWriter(w io.Writer, file io.Closer, opts *FileOptions) *lineWriter {
	var o FileOptions
	if opts != nil {
		o = *opts
	}
	return &lineWriter{w: bufio.NewWriterSize(w, exportBufferSize), file: file, timer: newFlushTimer(o.FlushInterval)}
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
	if lw.w.Buffered() > 0 {
		lw.timer.arm(lw.tick)
	}
	return nil
}

// tick is the timer's flush. A write error is kept for the next write to
// return.
func (lw *lineWriter) tick() {
	lw.mu.Lock()
	lw.timer.fired()
	if !lw.closed && lw.err == nil {
		if err := lw.w.Flush(); err != nil {
			lw.err = err
		}
	}
	onTick := lw.onTick
	lw.mu.Unlock()
	if onTick != nil {
		onTick()
	}
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
	lw.timer.cancel()
	err := lw.w.Flush()
	if lw.err != nil {
		err = lw.err
	}
	if lw.file != nil {
		err = errors.Join(err, lw.file.Close())
	}
	return err
}

// openFile opens path for a JSONL or CSV store as opts's Mode says,
// creating it if needed, positioned at its end; the file is also readable
// (a CSV reads its header back).
func openFile(path string, opts *FileOptions) (*os.File, error) {
	var mode Mode
	if opts != nil {
		mode = opts.Mode
	}
	flags := os.O_RDWR | os.O_CREATE
	switch mode {
	case Refuse, Append:
	case Overwrite:
		flags |= os.O_TRUNC
	default:
		return nil, fmt.Errorf("unknown %v", mode)
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && mode == Refuse && fi.Size() > 0 {
		err = fmt.Errorf("%s exists and holds %d bytes already: choose Append to add to it or Overwrite to replace it (FileOptions.Mode), or remove it: %w",
			path, fi.Size(), fs.ErrExist)
	}
	if err == nil {
		_, err = f.Seek(0, io.SeekEnd)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// JSONL writes JSON Lines (https://jsonlines.org/): one JSON object per
// line, UTF-8, '\n' after each. It is a trawl.Store, writing a
// [PageRecord] per page given to Put, and a trawl.ItemSink, writing each
// item given to PutItem (any value encoding/json can marshal: a struct, a
// map, a slice...) as one line. One JSONL may take both, but a file is
// easier to read back when it holds one kind of record: give pages and
// items separate files (WithStore and WithItems).
//
// Writes go through a 64 KiB buffer, written out when it fills, at most
// FileOptions.FlushInterval (1 s) after a line entered it, by Flush and by
// Close (the crawler closes its Store, and its item sink, when Run
// returns: a program that cancels Run's context on Ctrl-C, with
// signal.NotifyContext, keeps every record). A line is written whole
// unless it is longer than the buffer, so a hard kill (kill -9) loses at
// most the lines of the last second and leaves a file of whole lines;
// nothing is fsynced. HTML is not escaped ("<" stays "<").
//
// A JSONL is safe for concurrent use: lines are encoded by the calling
// goroutines and only the copy into the buffer is serialized.
type JSONL struct {
	lw *lineWriter
}

// NewJSONL opens path for a JSONL store, creating it if needed. A file
// that exists and is not empty is refused, unless opts.Mode is Append (as
// Scrapy's -o: a resumed crawl adds to what an earlier run wrote) or
// Overwrite (Scrapy's -O). Close closes the file. opts may be nil.
func NewJSONL(path string, opts *FileOptions) (*JSONL, error) {
	f, err := openFile(path, opts)
	if err != nil {
		return nil, fmt.Errorf("store: jsonl: %w", err)
	}
	return &JSONL{lw: newLineWriter(f, f, opts)}, nil
}

// NewJSONLWriter returns a JSONL store writing to w (os.Stdout, a gzip
// writer...), flushed as a file is (FileOptions' defaults). Close flushes
// but does not close w. w is only written to under the store's lock, so it
// need not be safe for concurrent use.
func NewJSONLWriter(w io.Writer) *JSONL {
	return &JSONL{lw: newLineWriter(w, nil, nil)}
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
