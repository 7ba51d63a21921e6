package store

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/trawl-dev/trawl/internal/jsonenc"
)

// cdxjEntry is one line of the CDXJ index: a response or revisit record.
// u, if not nil, is url parsed (it saves parsing it again for the key).
type cdxjEntry struct {
	url, kind, mime, digest, file string
	u                             *url.URL
	date                          time.Time
	status                        int
	offset, length                int64
}

// line renders e as pywb's CDXJ: "SURT TIMESTAMP {json}", the JSON's keys
// in sorted order, without reflection: the JSON is byte for byte what
// encoding/json writes for the map of those keys (so '<', '>' and '&' in a
// URL are escaped as \u003c, \u003e and \u0026, which every JSON reader
// decodes, and each invalid UTF-8 byte becomes \ufffd).
func (e cdxjEntry) line() []byte { return e.appendLine(nil) }

// appendLine appends e's line to b.
func (e cdxjEntry) appendLine(b []byte) []byte {
	mime := e.mime
	if e.kind == "revisit" {
		mime = "warc/revisit"
	}
	b = slices.Grow(b, 256+2*len(e.url))
	start := len(b)
	if e.u != nil {
		b = appendSURT(b, e.u)
	} else {
		b = appendSURTString(b, e.url)
	}
	b = append(b[:start], escapeControls(b[start:])...)
	b = append(b, ' ')
	b = e.date.UTC().AppendFormat(b, "20060102150405")
	b = append(b, ` {`...)
	if e.digest != "" { // none for a response with no end of its header, as warcio writes it
		// Without the "sha1:" label, as pywb's and warcio's indexers write it.
		b = append(b, `"digest":`...)
		b = jsonenc.AppendString(b, e.digest[strings.IndexByte(e.digest, ':')+1:])
		b = append(b, ',')
	}
	b = append(b, `"filename":`...)
	b = jsonenc.AppendString(b, e.file)
	if e.length >= 0 {
		b = append(b, `,"length":"`...)
		b = strconv.AppendInt(b, e.length, 10)
		b = append(b, '"')
	}
	b = append(b, `,"mime":`...)
	b = jsonenc.AppendString(b, mime)
	b = append(b, `,"offset":"`...)
	b = strconv.AppendInt(b, e.offset, 10)
	b = append(b, `","status":"`...)
	b = strconv.AppendInt(b, int64(e.status), 10)
	b = append(b, `","url":`...)
	b = jsonenc.AppendString(b, e.url)
	return append(b, "}\n"...)
}

// SURT returns the Sort-friendly URI Reordering Transform of rawURL as CDX
// indexes key it: the host's labels reversed and comma-separated (a
// leading "www" dropped), ")", then the path and query, all lower case:
// "https://www.Example.com/a?b=1" gives "com,example)/a?b=1". A URL that
// does not parse is returned lower-cased. Spaces and control characters
// are percent-encoded, so that a key never breaks an index line.
func SURT(rawURL string) string {
	b := appendSURTString(nil, rawURL)
	return string(escapeControls(b))
}

// escapeControls returns s with spaces and control characters
// percent-encoded (s itself when it has none).
func escapeControls(s []byte) []byte {
	if !slices.ContainsFunc(s, func(c byte) bool { return c <= ' ' || c == 0x7f }) {
		return s
	}
	b := make([]byte, 0, len(s)+16)
	for _, c := range s {
		if c <= ' ' || c == 0x7f {
			b = append(b, '%', "0123456789ABCDEF"[c>>4], "0123456789ABCDEF"[c&15])
		} else {
			b = append(b, c)
		}
	}
	return b
}

// appendSURTString appends the SURT of rawURL, not yet escaped.
func appendSURTString(b []byte, rawURL string) []byte {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return appendLower(b, rawURL)
	}
	return appendSURT(b, u)
}

// appendSURT appends the SURT of u (which has a host), not yet escaped.
func appendSURT(b []byte, u *url.URL) []byte {
	host := u.Hostname()
	if len(host) >= 4 && strings.EqualFold(host[:4], "www.") {
		host = host[4:]
	}
	for {
		i := strings.LastIndexByte(host, '.')
		b = appendLower(b, host[i+1:])
		if i < 0 {
			break
		}
		b = append(b, ',')
		host = host[:i]
	}
	if p := u.Port(); p != "" && !(p == "80" && u.Scheme == "http") && !(p == "443" && u.Scheme == "https") {
		b = append(b, ':')
		b = append(b, p...)
	}
	b = append(b, ')')
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	b = appendLower(b, path)
	if u.RawQuery != "" {
		b = append(b, '?')
		b = appendLower(b, u.RawQuery)
	}
	return b
}

// appendLower appends s lower-cased (as strings.ToLower does).
func appendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 {
			return append(b, strings.ToLower(s)...)
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}

// cdxjWriter appends index lines as records are written, through a 64 KiB
// buffer flushed whenever a WARC file is closed and at most
// WARCOptions.FlushInterval after a line entered it (a hard kill loses the
// lines of the last second's records, which any CDXJ indexer, warcio
// cdx-index for one, can make again from the WARC files; the index is then
// not sorted), and sorts the file when closed, as CDXJ readers expect.
type cdxjWriter struct {
	mu       sync.Mutex
	path     string
	runBytes int // sortFileLines's memory bound
	f        *os.File
	bw       *bufio.Writer
	lines    int64
	timer    flushTimer
	onTick   func() // tests: called after each timer flush, outside mu
}

func newCDXJWriter(path string, flushInterval time.Duration) (*cdxjWriter, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return &cdxjWriter{path: path, runBytes: sortRunBytes, f: f, bw: bufio.NewWriterSize(f, 64<<10), timer: newFlushTimer(flushInterval)}, nil
}

// add appends line (one entry's, see cdxjEntry.appendLine).
func (c *cdxjWriter) add(line []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return fmt.Errorf("store: CDXJ index closed")
	}
	if _, err := c.bw.Write(line); err != nil {
		return fmt.Errorf("store: CDXJ index: %w", err)
	}
	c.lines++
	if c.bw.Buffered() > 0 {
		c.timer.arm(c.tick)
	}
	return nil
}

// tick is the timer's flush; a write error comes back from the next add
// or from close (bufio.Writer keeps it).
func (c *cdxjWriter) tick() {
	c.mu.Lock()
	c.timer.fired()
	if c.f != nil {
		_ = c.bw.Flush()
	}
	onTick := c.onTick
	c.mu.Unlock()
	if onTick != nil {
		onTick()
	}
}

// flush writes the buffered lines (when a WARC file is closed).
func (c *cdxjWriter) flush() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return nil
	}
	return c.bw.Flush()
}

// close sorts the index, in runs of at most runBytes held in memory and
// merged from temporary files, so memory does not grow with the crawl; it
// is rewritten to a temporary file renamed over it, so a crash while
// sorting leaves the unsorted index whole. An index nothing was added to
// is removed: a store that wrote no record leaves no file.
func (c *cdxjWriter) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return nil
	}
	c.timer.cancel()
	err := c.bw.Flush()
	if cerr := c.f.Close(); err == nil {
		err = cerr
	}
	c.f = nil
	if err == nil {
		if c.lines == 0 {
			err = os.Remove(c.path)
		} else {
			err = sortFileLines(c.path, c.runBytes)
		}
	}
	if err != nil {
		return fmt.Errorf("store: CDXJ index: %w", err)
	}
	return nil
}
