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
)

// cdxjEntry is one line of the CDXJ index: a response or revisit record.
type cdxjEntry struct {
	url, kind, mime, digest, file string
	date                          time.Time
	status                        int
	offset, length                int64
}

// line renders e as pywb's CDXJ: "SURT TIMESTAMP {json}", the JSON's keys
// in sorted order (as encoding/json writes a map), without reflection.
func (e cdxjEntry) line() []byte {
	mime := e.mime
	if e.kind == "revisit" {
		mime = "warc/revisit"
	}
	b := make([]byte, 0, 256+2*len(e.url))
	b = append(b, SURT(e.url)...)
	b = append(b, ' ')
	b = e.date.UTC().AppendFormat(b, "20060102150405")
	b = append(b, ` {"digest":`...)
	// Without the "sha1:" label, as pywb's and warcio's indexers write it.
	b = appendJSONString(b, e.digest[strings.IndexByte(e.digest, ':')+1:])
	b = append(b, `,"filename":`...)
	b = appendJSONString(b, e.file)
	if e.length >= 0 {
		b = append(b, `,"length":"`...)
		b = strconv.AppendInt(b, e.length, 10)
		b = append(b, '"')
	}
	b = append(b, `,"mime":`...)
	b = appendJSONString(b, mime)
	b = append(b, `,"offset":"`...)
	b = strconv.AppendInt(b, e.offset, 10)
	b = append(b, `","status":"`...)
	b = strconv.AppendInt(b, int64(e.status), 10)
	b = append(b, `","url":`...)
	b = appendJSONString(b, e.url)
	return append(b, "}\n"...)
}

// appendJSONString appends s as a JSON string: quotes, backslashes and
// control characters escaped, invalid UTF-8 replaced.
func appendJSONString(b []byte, s string) []byte {
	s = strings.ToValidUTF8(s, "\uFFFD")
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// SURT returns the Sort-friendly URI Reordering Transform of rawURL as CDX
// indexes key it: the host's labels reversed and comma-separated (a
// leading "www" dropped), ")", then the path and query, all lower case:
// "https://www.Example.com/a?b=1" gives "com,example)/a?b=1". A URL that
// does not parse is returned lower-cased. Spaces and control characters
// are percent-encoded, so that a key never breaks an index line.
func SURT(rawURL string) string {
	return escapeControls(surt(rawURL))
}

func escapeControls(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c == 0x7f {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

func surt(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return strings.ToLower(rawURL)
	}
	host := strings.ToLower(u.Hostname())
	labels := strings.Split(host, ".")
	if len(labels) > 1 && labels[0] == "www" {
		labels = labels[1:]
	}
	slices.Reverse(labels)
	var b strings.Builder
	b.WriteString(strings.Join(labels, ","))
	if p := u.Port(); p != "" && !(p == "80" && u.Scheme == "http") && !(p == "443" && u.Scheme == "https") {
		b.WriteString(":" + p)
	}
	b.WriteByte(')')
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	b.WriteString(strings.ToLower(path))
	if u.RawQuery != "" {
		b.WriteString("?" + strings.ToLower(u.RawQuery))
	}
	return b.String()
}

// cdxjWriter appends index lines as records are written, through a 64 KiB
// buffer flushed whenever a WARC file is closed (a crash loses the lines
// of the last records, which any CDXJ indexer, warcio cdx-index for one,
// can make again from the WARC files), and sorts the file when closed, as
// CDXJ readers expect.
type cdxjWriter struct {
	mu       sync.Mutex
	path     string
	runBytes int // sortFileLines's memory bound
	f        *os.File
	bw       *bufio.Writer
}

func newCDXJWriter(path string) (*cdxjWriter, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return &cdxjWriter{path: path, runBytes: sortRunBytes, f: f, bw: bufio.NewWriterSize(f, 64<<10)}, nil
}

func (c *cdxjWriter) add(e cdxjEntry) error {
	line := e.line()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return fmt.Errorf("store: CDXJ index closed")
	}
	if _, err := c.bw.Write(line); err != nil {
		return fmt.Errorf("store: CDXJ index: %w", err)
	}
	return nil
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
// sorting leaves the unsorted index whole.
func (c *cdxjWriter) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return nil
	}
	err := c.bw.Flush()
	if cerr := c.f.Close(); err == nil {
		err = cerr
	}
	c.f = nil
	if err != nil {
		return fmt.Errorf("store: CDXJ index: %w", err)
	}
	if err := sortFileLines(c.path, c.runBytes); err != nil {
		return fmt.Errorf("store: CDXJ index: %w", err)
	}
	return nil
}
