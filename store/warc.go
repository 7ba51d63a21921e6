package store

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/nlnwa/gowarc"

	"github.com/trawl-dev/trawl"
)

// WARCOptions configure a [WARC] store. A nil *WARCOptions means all
// defaults; the zero value of every field means its default.
type WARCOptions struct {
	// Prefix starts every file name. Default "trawl".
	Prefix string
	// MaxFileSize is the size at which a file is closed and the next one
	// begun (a record is never split: a file ends before the record that
	// would take it past the size). Default 1 GB.
	MaxFileSize int64
	// Outlinks adds, for each page stored, a metadata record listing its
	// links ("outlink: URL"), concurrent to the page's response record.
	// Default false.
	Outlinks bool
	// NoRevisits writes every response in full. Default false: a 2xx
	// response whose payload digest equals that of an earlier response of
	// this store is written as a revisit record (profile
	// identical-payload-digest) that refers to the first.
	NoRevisits bool
	// Software names the crawler in each file's warcinfo record. Default
	// "trawl (+https://github.com/trawl-dev/trawl)".
	Software string
	// Info adds fields to each file's warcinfo record, in sorted key order
	// (a crawl's settings: "robots": "obey", "http-header-user-agent", ...).
	Info map[string]string
	// GzipLevel is the compression level, 1 (fastest) to 9 (smallest).
	// Default DefaultGzipLevel, 1: on crawltest pages (5 KB of HTML) it
	// makes files 8 % larger than level 6 (2,705 against 2,515 bytes per
	// exchange) for less CPU; level 9 saves 1.5 % more for twice the CPU.
	GzipLevel int
	// Now is the clock for record dates. Default time.Now.
	Now func() time.Time
}

// WARC writes what a crawl fetched as WARC/1.1 files (ISO 28500), the
// format of Heritrix, wget --warc-file and the Internet Archive, with a
// CDXJ index beside them. It implements trawl.Store and the crawler's
// optional exchange capability (PutExchange): a crawl given a WARC store
// records every exchange its fetcher makes, robots.txt, redirects and
// error statuses included. See the package doc. A WARC is safe for
// concurrent use.
type WARC struct {
	dir   string
	opts  WARCOptions
	names *warcNames
	cdx   *cdxjWriter
	marsh gowarc.Marshaler

	fmu      sync.Mutex // guards the file fields and writes to the file
	file     *os.File   // the file being written, nil before the first record
	name     string     // its name, without .open
	size     int64      // its size
	ferr     error      // a failed write or rename: later writes fail too
	infoSize int64      // the size of its warcinfo record

	mu       sync.Mutex
	payloads map[string]revisitRef // payload digest -> first response with it
	lastResp map[string]string     // URL -> record ID of its latest response (for Outlinks)
	closed   bool

	records, revisits atomic.Int64

	bufs  sync.Pool // *bytes.Buffer for compressed members
	gzs   sync.Pool // *gzip.Writer at opts.GzipLevel
	scans sync.Pool // *[]byte for scanHTTP
	// sem lets as many workers compress at once as there are CPUs:
	// more would not go faster, and each holds a compressor's memory.
	sem chan struct{}
}

type revisitRef struct {
	id, uri, date string
}

// maxLastResp bounds the URL -> response record map used by Outlinks.
const maxLastResp = 1 << 14

// bufferedRecord is the largest record block compressed in memory, outside
// the file's lock; larger ones are compressed straight into the file.
const bufferedRecord = 1 << 20

// NewWARC returns a WARC store writing into dir, which is created if
// needed. Files are named PREFIX-TIMESTAMP-SERIAL-HOST-PID-RANDOM.warc.gz
// (TIMESTAMP is UTC to the millisecond, so names sort by time; the random
// part and exclusive creation keep names unique across restarts and across
// crawlers writing to one directory); a file being written ends in .open
// until it is closed. The index is PREFIX-TIMESTAMP-PID-RANDOM.cdxj.
func NewWARC(dir string, opts *WARCOptions) (*WARC, error) {
	var o WARCOptions
	if opts != nil {
		o = *opts
	}
	if o.Prefix == "" {
		o.Prefix = "trawl"
	}
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = 1 << 30
	}
	if o.Software == "" {
		o.Software = "trawl (+https://github.com/trawl-dev/trawl)"
	}
	if o.GzipLevel == 0 {
		o.GzipLevel = DefaultGzipLevel
	}
	if o.GzipLevel < 1 || o.GzipLevel > 9 {
		return nil, fmt.Errorf("store: WARC gzip level %d not in 1..9", o.GzipLevel)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if strings.ContainsAny(o.Prefix, "/\\") {
		return nil, fmt.Errorf("store: WARC prefix %q contains a path separator", o.Prefix)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	names := &warcNames{prefix: o.Prefix, now: o.Now, host: hostName(), pid: os.Getpid()}
	cdx, err := newCDXJWriter(filepath.Join(dir, fmt.Sprintf("%s-%s-%d-%s.cdxj", o.Prefix, stamp17(o.Now()), names.pid, randomHex())))
	if err != nil {
		return nil, err
	}
	return &WARC{dir: dir, opts: o, names: names, cdx: cdx, marsh: gowarc.NewMarshaler(), sem: make(chan struct{}, runtime.GOMAXPROCS(0)),
		payloads: make(map[string]revisitRef), lastResp: make(map[string]string)}, nil
}

// DefaultGzipLevel is WARCOptions.GzipLevel when it is zero.
const DefaultGzipLevel = 1

// recordOptions: the store computes the digests itself, in the one pass
// that finds the HTTP header, so the library's validation (which parses
// the block again and the target URI) is off.
func recordOptions() []gowarc.WarcRecordOption {
	return []gowarc.WarcRecordOption{
		gowarc.WithNoValidation(),
		gowarc.WithBufferMaxMemBytes(256 << 10),
		gowarc.WithVersion(gowarc.V1_1),
	}
}

// warcinfo builds a file's warcinfo record.
func (w *WARC) warcinfo(fileName string) (gowarc.WarcRecord, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "software: %s\r\n", w.opts.Software)
	b.WriteString("format: WARC File Format 1.1\r\n")
	b.WriteString("conformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n")
	fmt.Fprintf(&b, "hostname: %s\r\n", hostName())
	keys := make([]string, 0, len(w.opts.Info))
	for k := range w.opts.Info {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%s: %s\r\n", oneLine(k), oneLine(w.opts.Info[k]))
	}
	body := []byte(b.String())
	return w.build(gowarc.Warcinfo, "", "", w.opts.Now().UTC(), "", gowarc.ApplicationWarcFields, body, func(rb gowarc.WarcRecordBuilder) error {
		rb.AddWarcHeader(gowarc.WarcFilename, fileName)
		_, err := rb.Write(body)
		return err
	})
}

// PutExchange writes one fetch: a response record with the response as
// received (or a revisit record, see WARCOptions.NoRevisits; a 304 is
// always a revisit, profile server-not-modified) and a request record
// with the request as sent, linked by WARC-Concurrent-To, and indexes the
// response in the CDXJ file. The crawler calls it for every exchange its
// fetcher makes when the store is given with trawl.WithStore.
func (w *WARC) PutExchange(_ context.Context, ex *trawl.Exchange) error {
	uri := ex.URL.String()
	date := ex.Date.UTC()
	if ex.Date.IsZero() {
		date = w.opts.Now().UTC()
	}
	ip := ""
	if host, _, err := net.SplitHostPort(ex.RemoteAddr); err == nil {
		ip = host
	}
	scratch, _ := w.scans.Get().(*[]byte)
	if scratch == nil {
		b := make([]byte, 32<<10)
		scratch = &b
	}
	scan, err := scanHTTP(ex.Response(), *scratch)
	w.scans.Put(scratch)
	if err != nil {
		return fmt.Errorf("store: WARC response for %s: %w", uri, err)
	}
	respID := newRecordID()

	kind, profile := "response", ""
	var first revisitRef
	switch {
	case ex.Status == 304:
		kind, profile = "revisit", gowarc.ProfileServerNotModifiedV1_1
	case !w.opts.NoRevisits && ex.Status >= 200 && ex.Status < 300 && !ex.Truncated && scan.payloadSize > 0:
		w.mu.Lock()
		var seen bool
		if first, seen = w.payloads[scan.payloadDigest]; !seen {
			w.payloads[scan.payloadDigest] = revisitRef{id: respID, uri: uri, date: date.Format(time.RFC3339Nano)}
		}
		w.mu.Unlock()
		if seen {
			kind, profile = "revisit", gowarc.ProfileIdenticalPayloadDigestV1_1
		}
	}

	var resp gowarc.WarcRecord
	if kind == "revisit" {
		// The block is the HTTP header alone; the payload is the one
		// recorded earlier (or, for a 304, the one the client had).
		resp, err = w.build(gowarc.Revisit, respID, uri, date, ip, "application/http;msgtype=response", scan.header, func(rb gowarc.WarcRecordBuilder) error {
			rb.AddWarcHeader(gowarc.WarcProfile, profile)
			rb.AddWarcHeader(gowarc.WarcPayloadDigest, scan.payloadDigest)
			if first.id != "" {
				rb.AddWarcHeader(gowarc.WarcRefersTo, first.id)
				rb.AddWarcHeader(gowarc.WarcRefersToTargetURI, first.uri)
				rb.AddWarcHeader(gowarc.WarcRefersToDate, first.date)
			}
			_, err := rb.Write(scan.header)
			return err
		})
	} else {
		resp, err = w.build(gowarc.Response, respID, uri, date, ip, "application/http;msgtype=response", nil, func(rb gowarc.WarcRecordBuilder) error {
			rb.AddWarcHeader(gowarc.WarcBlockDigest, scan.blockDigest)
			rb.AddWarcHeader(gowarc.WarcPayloadDigest, scan.payloadDigest)
			if ex.Truncated {
				rb.AddWarcHeader(gowarc.WarcTruncated, "unspecified")
			}
			_, err := rb.ReadFrom(ex.Response())
			return err
		})
	}
	if err != nil {
		return fmt.Errorf("store: WARC %s record for %s: %w", kind, uri, err)
	}
	defer resp.Close()
	req, err := w.build(gowarc.Request, "", uri, date, ip, "application/http;msgtype=request", ex.Request, func(rb gowarc.WarcRecordBuilder) error {
		rb.AddWarcHeader(gowarc.WarcConcurrentTo, respID)
		_, err := rb.Write(ex.Request)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: WARC request record for %s: %w", uri, err)
	}
	defer req.Close()
	resp.WarcHeader().AddId(gowarc.WarcConcurrentTo, req.WarcHeader().GetId(gowarc.WarcRecordID))

	// The response first, then the request (as Heritrix does).
	at, err := w.write(resp, req)
	if err != nil {
		return fmt.Errorf("store: writing WARC records for %s: %w", uri, err)
	}
	w.records.Add(2)
	if kind == "revisit" {
		w.revisits.Add(1)
	}
	if w.opts.Outlinks {
		w.mu.Lock()
		if len(w.lastResp) >= maxLastResp {
			clear(w.lastResp)
		}
		w.lastResp[uri] = respID
		w.mu.Unlock()
	}
	mime := "warc/revisit"
	if kind == "response" {
		mime = scan.mediaType()
	}
	return w.cdx.add(cdxjEntry{
		url: uri, date: date, kind: kind, status: ex.Status, mime: mime, digest: scan.payloadDigest,
		file: at[0].file, offset: at[0].offset, length: at[0].length,
	})
}

// Put writes, with WARCOptions.Outlinks, a metadata record listing the
// page's links; otherwise it does nothing: the page's bytes were written
// by PutExchange when it was fetched.
func (w *WARC) Put(_ context.Context, p *trawl.Page) error {
	if !w.opts.Outlinks {
		return nil
	}
	uri := p.URL.String()
	var b bytes.Buffer
	for _, l := range p.Links {
		fmt.Fprintf(&b, "outlink: %s\r\n", oneLine(l.URL))
	}
	w.mu.Lock()
	concurrent := w.lastResp[uri]
	delete(w.lastResp, uri)
	w.mu.Unlock()
	rec, err := w.build(gowarc.Metadata, "", uri, w.opts.Now().UTC(), "", gowarc.ApplicationWarcFields, b.Bytes(), func(rb gowarc.WarcRecordBuilder) error {
		if concurrent != "" {
			rb.AddWarcHeader(gowarc.WarcConcurrentTo, concurrent)
		}
		_, err := rb.Write(b.Bytes())
		return err
	})
	if err != nil {
		return fmt.Errorf("store: WARC metadata record for %s: %w", uri, err)
	}
	defer rec.Close()
	if _, err := w.write(rec); err != nil {
		return fmt.Errorf("store: writing WARC metadata for %s: %w", uri, err)
	}
	w.records.Add(1)
	return nil
}

// Close closes the current file (renaming it from .open), and writes the
// CDXJ index sorted. Records put after Close fail.
func (w *WARC) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	w.mu.Unlock()
	w.fmu.Lock()
	err := w.closeFile()
	w.ferr = errors.New("store: WARC closed")
	w.fmu.Unlock()
	return errors.Join(err, w.cdx.close())
}

// Records reports how many records were written (warcinfo records aside)
// and how many of them are revisits.
func (w *WARC) Records() (records, revisits int64) { return w.records.Load(), w.revisits.Load() }

// build makes a record with the common headers (WARC-Record-ID id, or a
// new one if id is empty) and a block filled by fill.
// digestOf, if not nil, is the whole block, whose digest build adds.
func (w *WARC) build(t gowarc.RecordType, id, uri string, date time.Time, ip, contentType string, digestOf []byte, fill func(gowarc.WarcRecordBuilder) error) (gowarc.WarcRecord, error) {
	builderMu.Lock()
	rb := gowarc.NewRecordBuilder(t, recordOptions()...)
	builderMu.Unlock()
	if id == "" {
		id = newRecordID()
	}
	rb.AddWarcHeader(gowarc.WarcRecordID, id)
	if uri != "" {
		rb.AddWarcHeader(gowarc.WarcTargetURI, uri)
	}
	rb.AddWarcHeader(gowarc.WarcDate, date.Format(time.RFC3339Nano))
	rb.AddWarcHeader(gowarc.ContentType, contentType)
	if ip != "" {
		rb.AddWarcHeader(gowarc.WarcIPAddress, ip)
	}
	if digestOf != nil {
		rb.AddWarcHeader(gowarc.WarcBlockDigest, sha1Digest(digestOf))
	}
	if err := fill(rb); err != nil {
		rb.Close()
		return nil, err
	}
	rec, _, err := rb.Build()
	if err != nil {
		if rec != nil {
			rec.Close()
		}
		return nil, err
	}
	return rec, nil
}

// placed is where a record was written.
type placed struct {
	file           string
	offset, length int64
}

// member compresses rec into buf as one gzip member.
func (w *WARC) member(buf io.Writer, rec gowarc.WarcRecord) error {
	zw, _ := w.gzs.Get().(*gzip.Writer)
	if zw == nil {
		zw, _ = gzip.NewWriterLevel(buf, w.opts.GzipLevel)
	} else {
		zw.Reset(buf)
	}
	defer w.gzs.Put(zw)
	scratch, _ := w.scans.Get().(*[]byte)
	if scratch == nil {
		b := make([]byte, 32<<10)
		scratch = &b
	}
	defer w.scans.Put(scratch)
	if _, _, err := w.marsh.Marshal(copyWriter{zw, *scratch}, rec, 0); err != nil {
		return err
	}
	return zw.Close()
}

// write appends recs to the current file, one gzip member each, all in
// the same file (the file rotates before them if they would take it past
// MaxFileSize). Records of up to bufferedRecord bytes are compressed
// before the lock is taken, so workers compress in parallel and each call
// is one write to the file; larger ones are compressed into the file
// under the lock, so memory does not grow with them.
func (w *WARC) write(recs ...gowarc.WarcRecord) ([]placed, error) {
	bufs := make([]*bytes.Buffer, len(recs))
	released := false
	defer func() {
		for _, b := range bufs {
			if b != nil && b.Cap() <= 4*bufferedRecord {
				b.Reset()
				w.bufs.Put(b)
			}
		}
	}()
	var estimate int64
	w.sem <- struct{}{}
	defer func() {
		if !released {
			<-w.sem
		}
	}()
	for i, r := range recs {
		n, _ := strconv.ParseInt(r.WarcHeader().Get(gowarc.ContentLength), 10, 64)
		if n > bufferedRecord {
			estimate += n / 2
			continue
		}
		bufs[i], _ = w.bufs.Get().(*bytes.Buffer)
		if bufs[i] == nil {
			bufs[i] = new(bytes.Buffer)
		}
		if err := w.member(bufs[i], r); err != nil {
			return nil, err
		}
		estimate += int64(bufs[i].Len())
	}
	<-w.sem
	released = true

	w.fmu.Lock()
	defer w.fmu.Unlock()
	if w.ferr != nil {
		return nil, w.ferr
	}
	if w.file != nil && w.size+estimate > w.opts.MaxFileSize && w.size > w.infoSize {
		if err := w.closeFile(); err != nil {
			w.ferr = err
			return nil, err
		}
	}
	if w.file == nil {
		if err := w.openFile(); err != nil {
			return nil, err
		}
	}
	out := make([]placed, len(recs))
	for i, r := range recs {
		start := w.size
		var err error
		if bufs[i] != nil {
			_, err = w.file.Write(bufs[i].Bytes())
		} else {
			cw := &countingWriter{w: w.file}
			bw := bufio.NewWriterSize(cw, 64<<10)
			if err = w.member(bw, r); err == nil {
				err = bw.Flush()
			}
			w.size += cw.n
		}
		if err != nil {
			// A half-written member would end the file for readers:
			// cut it off, or stop writing to this file.
			if terr := w.file.Truncate(start); terr != nil {
				w.ferr = errors.Join(err, terr)
			}
			w.size = start
			return nil, err
		}
		if bufs[i] != nil {
			w.size += int64(bufs[i].Len())
		}
		out[i] = placed{file: w.name, offset: start, length: w.size - start}
	}
	return out, nil
}

// openFile begins a new file with its warcinfo record. Called with fmu held.
func (w *WARC) openFile() error {
	name := w.names.next() + ".gz"
	f, err := os.OpenFile(filepath.Join(w.dir, name+".open"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	info, err := w.warcinfo(name)
	if err != nil {
		f.Close()
		return err
	}
	defer info.Close()
	var buf bytes.Buffer
	if err := w.member(&buf, info); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		f.Close()
		return err
	}
	w.file, w.name, w.size, w.infoSize = f, name, int64(buf.Len()), int64(buf.Len())
	return nil
}

// closeFile closes the current file and drops its .open. Called with fmu
// held.
func (w *WARC) closeFile() error {
	if w.file == nil {
		return nil
	}
	f := w.file
	w.file = nil
	err := f.Close()
	if rerr := os.Rename(f.Name(), strings.TrimSuffix(f.Name(), ".open")); rerr != nil {
		err = errors.Join(err, rerr)
	}
	if err != nil {
		return fmt.Errorf("store: closing WARC file %s: %w", w.name, err)
	}
	return w.cdx.flush()
}

// copyWriter gives io.Copy a buffer (the marshaler copies the block with
// it), so that each record does not allocate one.
type copyWriter struct {
	io.Writer
	buf []byte
}

func (c copyWriter) ReadFrom(r io.Reader) (int64, error) {
	return io.CopyBuffer(struct{ io.Writer }{c.Writer}, r, c.buf)
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// httpScan is what one pass over a response finds: its header and the
// digests of the block and of the payload (the bytes after the header, as
// served: chunked and compressed as they came).
type httpScan struct {
	header                     []byte
	blockDigest, payloadDigest string
	payloadSize                int64
}

// maxHTTPHeader bounds the header scanHTTP looks for.
const maxHTTPHeader = 1 << 20

func scanHTTP(r io.Reader, buf []byte) (httpScan, error) {
	var s httpScan
	block, payload := sha1.New(), sha1.New()
	inHeader := true
	var head []byte
	for {
		n, err := r.Read(buf)
		p := buf[:n]
		block.Write(p)
		if inHeader {
			from := max(0, len(head)-3)
			head = append(head, p...)
			if i := bytes.Index(head[from:], []byte("\r\n\r\n")); i >= 0 {
				end := from + i + 4
				payload.Write(head[end:])
				s.payloadSize += int64(len(head) - end)
				head = head[:end]
				inHeader = false
			} else if len(head) > maxHTTPHeader {
				return s, errors.New("no end of the HTTP header")
			}
		} else {
			payload.Write(p)
			s.payloadSize += int64(n)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return s, err
		}
	}
	s.header = head // all of it when the response was cut inside its header
	s.blockDigest = "sha1:" + base32.StdEncoding.EncodeToString(block.Sum(nil))
	s.payloadDigest = "sha1:" + base32.StdEncoding.EncodeToString(payload.Sum(nil))
	return s, nil
}

// mediaType is the response's Content-Type without parameters, lower case.
func (s httpScan) mediaType() string {
	for _, line := range bytes.Split(s.header, []byte("\r\n"))[1:] {
		k, v, ok := bytes.Cut(line, []byte(":"))
		if ok && strings.EqualFold(string(bytes.TrimSpace(k)), "Content-Type") {
			mt, _, _ := strings.Cut(string(v), ";")
			return strings.ToLower(strings.TrimSpace(mt))
		}
	}
	return ""
}

func sha1Digest(b []byte) string {
	d := sha1.Sum(b)
	return "sha1:" + base32.StdEncoding.EncodeToString(d[:])
}

// newRecordID returns a random (version 4) UUID URN. Not google/uuid: see
// builderMu.
func newRecordID() string {
	var u [16]byte
	_, _ = rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // RFC 4122 variant
	h := hex.EncodeToString(u[:])
	return "<urn:uuid:" + h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:] + ">"
}

// builderMu serializes gowarc.NewRecordBuilder: v1.6.0 calls
// uuid.EnableRandPool on every call, an unsynchronized write to a
// package variable of github.com/google/uuid (a data race between
// concurrent callers). Record IDs are made here (newRecordID), so the
// library never reads that variable while another call writes it.
var builderMu sync.Mutex

func oneLine(s string) string {
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}

// warcNames names WARC files: PREFIX-TIMESTAMP-SERIAL-HOST-PID-RANDOM.warc.
type warcNames struct {
	prefix, host string
	pid          int
	now          func() time.Time
	serial       atomic.Int64
}

func (g *warcNames) next() string {
	return fmt.Sprintf("%s-%s-%05d-%s-%d-%s.warc", g.prefix, stamp17(g.now()), g.serial.Add(1), g.host, g.pid, randomHex())
}

// stamp17 is a UTC timestamp to the millisecond, as WARC file names and
// CDX use (YYYYMMDDhhmmssSSS).
func stamp17(t time.Time) string {
	t = t.UTC()
	return t.Format("20060102150405") + fmt.Sprintf("%03d", t.Nanosecond()/1e6)
}

func randomHex() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func hostName() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "localhost"
	}
	h, _, _ = strings.Cut(h, ".")
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, h)
}
