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
	"hash"
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
	// this store from the same host (and port) is written as a revisit
	// record (profile identical-payload-digest) that refers to the first;
	// never across hosts (see the package doc).
	NoRevisits bool
	// Software names the crawler in each file's warcinfo record. Default
	// "trawl (+https://github.com/trawl-dev/trawl)".
	Software string
	// Info adds fields to each file's warcinfo record, in sorted key order
	// (a crawl's settings: "robots": "obey", "http-header-user-agent", ...).
	Info map[string]string
	// GzipLevel is the compression level: FastGzip (-4, the default:
	// this package's fixed-code deflate, see the package doc),
	// klauspost/compress's 1 to 9 (smallest, slowest), or its cheaper
	// modes gzip.StatelessCompression (-3) or gzip.HuffmanOnly (-2). Per
	// crawltest exchange (a 5.5 KB response record and a 0.7 KB request
	// record, stored: see MinGzipSize), BenchmarkWARCPutExchange measured
	// 3,329 bytes on disk for -4, 2,887 for -3 (for 50 % more CPU per
	// exchange), 2,908 for level 1 (+50 %), 2,738 for level 6 (2.2 × the
	// CPU), 2,705 for level 9 (4 ×) and 4,293 for -2 (the same CPU).
	GzipLevel int
	// MinGzipSize: records shorter than this, WARC header included, are
	// put in their gzip member uncompressed (a stored block). A request
	// record (about 700 bytes) deflates to about 580 bytes with FastGzip
	// for 7 % more CPU per exchange (to about 490 at -3, for 25 % more).
	// Default 1024; negative compresses every record (3,186 bytes per
	// crawltest exchange instead of 3,329 at -4, 2,675 instead of 2,887
	// at -3).
	MinGzipSize int
	// Now is the clock for record dates. Default time.Now.
	Now func() time.Time
	// MaxRevisitDigests bounds how many distinct payload digests the store
	// remembers to write revisits (about 120 bytes each beside the URL's):
	// when that many are remembered, the oldest is forgotten for the next.
	// Default DefaultMaxRevisitDigests; negative: no bound.
	MaxRevisitDigests int
	// FlushInterval bounds how long a line of the CDXJ index waits in its
	// buffer (records go to the WARC file as they are put, unbuffered).
	// Default DefaultFlushInterval (1 s); negative: the index is written
	// when its buffer fills and when a WARC file is closed.
	FlushInterval time.Duration
}

// DefaultMaxRevisitDigests is WARCOptions.MaxRevisitDigests when it is
// zero: about a million distinct payloads, at most about 180 MB with
// URLs of 60 bytes (BenchmarkRevisitIndex).
const DefaultMaxRevisitDigests = 1 << 20

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
	payloads *revisitIndex     // payload digest and host -> first response with it
	lastResp map[string]string // URL -> record ID of its latest response (for Outlinks)
	closed   bool

	records, revisits atomic.Int64

	// kits holds one warcKit per CPU (nil until first used): taking one
	// is also the semaphore that lets as many workers build and compress
	// records at once as there are CPUs (more would not go faster, and
	// each holds a compressor's memory). A channel rather than a
	// sync.Pool, which the collector empties: a compressor at level 1
	// holds about 200 KB of tables, and the crawl collects every few
	// milliseconds.
	kits chan *warcKit
}

// warcKit is what one worker uses to write records, kept between calls
// so that writing a record allocates almost nothing.
type warcKit struct {
	fast    *fastGzip    // for records in memory, at level FastGzip
	zw      *gzip.Writer // at level (nil until first needed)
	level   int          // WARCOptions.GzipLevel, 1 for FastGzip's records over bufferedRecord
	stored  *gzip.Writer // without compression, for records under minGzip bytes
	minGzip int
	out     bytes.Buffer // compressed members, written to the file in one call
	rec     bytes.Buffer // a record before compression
	head    []byte       // the response record's WARC header
	reqHead []byte       // the request record's
	scratch []byte       // copy buffer for responses spooled to a file
	scan    httpScanner
	sizes   []int64 // the members in out
	line    []byte  // the response's CDXJ line
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
	if o.GzipLevel < FastGzip || o.GzipLevel > 9 || o.GzipLevel == -1 {
		return nil, fmt.Errorf("store: WARC gzip level %d not in 1..9, -2, -3 or -4", o.GzipLevel)
	}
	if o.MinGzipSize == 0 {
		o.MinGzipSize = 1024
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxRevisitDigests == 0 {
		o.MaxRevisitDigests = DefaultMaxRevisitDigests
	}
	if strings.ContainsAny(o.Prefix, "/\\") {
		return nil, fmt.Errorf("store: WARC prefix %q contains a path separator", o.Prefix)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	names := &warcNames{prefix: o.Prefix, now: o.Now, host: hostName(), pid: os.Getpid()}
	cdx, err := newCDXJWriter(filepath.Join(dir, fmt.Sprintf("%s-%s-%d-%s.cdxj", o.Prefix, stamp17(o.Now()), names.pid, randomHex())), o.FlushInterval)
	if err != nil {
		return nil, err
	}
	w := &WARC{dir: dir, opts: o, names: names, cdx: cdx, marsh: gowarc.NewMarshaler(), kits: make(chan *warcKit, runtime.GOMAXPROCS(0)),
		payloads: newRevisitIndex(o.MaxRevisitDigests), lastResp: make(map[string]string)}
	for range cap(w.kits) {
		w.kits <- nil
	}
	return w, nil
}

// kit takes a warcKit, waiting while every CPU's is in use.
func (w *WARC) kit() *warcKit {
	k := <-w.kits
	if k == nil {
		k = &warcKit{level: w.opts.GzipLevel, minGzip: w.opts.MinGzipSize, scratch: make([]byte, 32<<10), head: make([]byte, 0, 1024)}
		if k.level == FastGzip {
			k.fast, k.level = &fastGzip{}, gzip.BestSpeed
		}
		k.stored, _ = gzip.NewWriterLevel(io.Discard, gzip.NoCompression)
	}
	k.out.Reset()
	k.sizes = k.sizes[:0]
	return k
}

// release gives k back, dropping a buffer a large record grew.
func (w *WARC) release(k *warcKit) {
	if k.out.Cap() > 4*bufferedRecord {
		k.out = bytes.Buffer{}
	}
	if k.rec.Cap() > 4*bufferedRecord {
		k.rec = bytes.Buffer{}
	}
	if cap(k.scan.header) > 64<<10 {
		k.scan.header = nil
	}
	w.kits <- k
}

// DefaultGzipLevel is WARCOptions.GzipLevel when it is zero: FastGzip.
const DefaultGzipLevel = FastGzip

// FastGzip is the GzipLevel at which records of up to 1 MiB are deflated
// by this package as one block with the fixed Huffman codes of RFC 1951
// and greedy matches (or stored, when that is not smaller), and larger
// ones at klauspost/compress's level 1. A fixed-code block needs no code
// tables built for it, which cost klauspost's cheapest modes about half
// of their time on a 5 KB record (see the package doc).
const FastGzip = -4

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
	keyURL := ex.URL // keys the CDXJ line without parsing uri again
	if strings.ContainsAny(uri, "\r\n") {
		uri = oneLine(uri) // the fetcher sends no such URL; NewExchange may
		keyURL = nil
	}
	date := ex.Date.UTC()
	if ex.Date.IsZero() {
		date = w.opts.Now().UTC()
	}
	ip := ""
	if host, _, err := net.SplitHostPort(ex.RemoteAddr); err == nil {
		ip = host
	}
	k := w.kit()
	defer w.release(k)
	scan := &k.scan
	off, ok := ex.PayloadOffset()
	if !ok {
		off = -1
	}
	if err := scan.scan(ex.Response(), k.scratch, off); err != nil {
		return fmt.Errorf("store: WARC response for %s: %w", uri, err)
	}
	if scan.size != ex.ResponseSize() {
		return fmt.Errorf("store: WARC response for %s: read %d bytes of %d", uri, scan.size, ex.ResponseSize())
	}
	// A response with no end of its header has no payload, and so no
	// payload digest (not that of an empty payload).
	payloadDigest := ""
	if scan.hasPayload() {
		payloadDigest = string(scan.payloadDigest())
	}
	respID, reqID, respUUID := newRecordIDs()

	kind, profile := "response", ""
	var first revisitRef
	switch {
	case ex.Status == 304 && scan.hasPayload(): // else written whole, a response
		kind, profile = "revisit", gowarc.ProfileServerNotModifiedV1_1
	case !w.opts.NoRevisits && ex.Status >= 200 && ex.Status < 300 && !ex.Truncated && scan.hasPayload() && scan.payloadSize > 0:
		key := revisitKey(scan.payloadSum, ex.URL.Host) // within the host only
		w.mu.Lock()
		var seen bool
		first, seen = w.payloads.firstOrAdd(key, revisitRef{id: respUUID, uri: uri, date: date.UnixNano()})
		w.mu.Unlock()
		if seen {
			kind, profile = "revisit", gowarc.ProfileIdenticalPayloadDigestV1_1
		}
	}

	var resp member
	if kind == "revisit" {
		// The block is the HTTP header alone; the payload is the one
		// recorded earlier (or, for a 304, the one the client had).
		rec, err := w.build(gowarc.Revisit, respID, uri, date, ip, "application/http;msgtype=response", scan.header, func(rb gowarc.WarcRecordBuilder) error {
			rb.AddWarcHeader(gowarc.WarcConcurrentTo, reqID)
			rb.AddWarcHeader(gowarc.WarcProfile, profile)
			rb.AddWarcHeader(gowarc.WarcPayloadDigest, payloadDigest)
			if first.uri != "" {
				rb.AddWarcHeader(gowarc.WarcRefersTo, first.recordID())
				rb.AddWarcHeader(gowarc.WarcRefersToTargetURI, first.uri)
				rb.AddWarcHeader(gowarc.WarcRefersToDate, first.when().Format(time.RFC3339Nano))
			}
			_, err := rb.Write(scan.header)
			return err
		})
		if err != nil {
			return fmt.Errorf("store: WARC %s record for %s: %w", kind, uri, err)
		}
		defer rec.Close()
		resp = w.marshaled(rec)
	} else {
		// Written here, not with gowarc's builder: see the package doc.
		k.head = appendHeader(k.head[:0], "response", respID, uri, date, "application/http;msgtype=response", ip)
		k.head = appendField(k.head, gowarc.WarcConcurrentTo, reqID)
		k.head = appendField(k.head, gowarc.WarcBlockDigest, string(scan.blockDigest()))
		if payloadDigest != "" {
			k.head = appendField(k.head, gowarc.WarcPayloadDigest, payloadDigest)
		}
		if ex.Truncated {
			k.head = appendField(k.head, gowarc.WarcTruncated, "unspecified")
		}
		k.head = appendLength(k.head, scan.size)
		resp = member{size: scan.size, emit: func(zw io.Writer, scratch []byte) error {
			if _, err := zw.Write(k.head); err != nil {
				return err
			}
			n, err := io.CopyBuffer(zw, ex.Response(), scratch)
			if err == nil && n != scan.size {
				err = fmt.Errorf("response changed: %d bytes, then %d", scan.size, n)
			}
			if err != nil {
				return err
			}
			_, err = io.WriteString(zw, "\r\n\r\n")
			return err
		}, stored: scan.compressedPayload()}
	}
	req := member{size: int64(len(ex.Request)), emit: func(zw io.Writer, _ []byte) error {
		h := appendHeader(k.reqHead[:0], "request", reqID, uri, date, "application/http;msgtype=request", ip)
		h = appendField(h, gowarc.WarcConcurrentTo, respID)
		var d [20]byte
		h = appendDigestField(h, gowarc.WarcBlockDigest, sha1Sum(&d, ex.Request))
		h = appendLength(h, int64(len(ex.Request)))
		k.reqHead = h
		for _, b := range [][]byte{h, ex.Request, []byte("\r\n\r\n")} {
			if _, err := zw.Write(b); err != nil {
				return err
			}
		}
		return nil
	}}

	// The response first, then the request (as Heritrix does).
	at, err := w.write(k, resp, req)
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
	e := cdxjEntry{
		url: uri, date: date, kind: kind, status: ex.Status, mime: mime, digest: payloadDigest,
		file: at[0].file, offset: at[0].offset, length: at[0].length,
	}
	if keyURL != nil && keyURL.Host != "" {
		e.u = keyURL
	}
	k.line = e.appendLine(k.line[:0])
	return w.cdx.add(k.line)
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
	k := w.kit()
	defer w.release(k)
	if _, err := w.write(k, w.marshaled(rec)); err != nil {
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

// member is a record to write: emit writes it, uncompressed, to the gzip
// writer it is given (scratch is a copy buffer); size is about its
// block's size.
type member struct {
	size int64
	emit func(zw io.Writer, scratch []byte) error
	// stored: the record goes in its member uncompressed, whatever its
	// size (its payload is compressed already: see compressedPayload).
	stored bool
}

// marshaled is the member that rec, built with gowarc, marshals to.
func (w *WARC) marshaled(rec gowarc.WarcRecord) member {
	n, _ := strconv.ParseInt(rec.WarcHeader().Get(gowarc.ContentLength), 10, 64)
	return member{size: n, emit: func(zw io.Writer, scratch []byte) error {
		_, _, err := w.marsh.Marshal(copyWriter{zw, scratch}, rec, 0)
		return err
	}}
}

// compress writes m to dst as one gzip member. A record of up to
// bufferedRecord bytes is put together in k.rec first and given to the
// compressor in one piece (FastGzip needs it whole, and a stateless
// compressor compresses each write on its own).
func (k *warcKit) compress(dst io.Writer, m member) error {
	if k.zw == nil && !m.stored && (k.fast == nil || m.size > bufferedRecord) {
		// Made when first needed: with FastGzip, only for a record over
		// bufferedRecord (it holds a few hundred KB of tables).
		k.zw, _ = gzip.NewWriterLevel(io.Discard, k.level)
	}
	zw := k.zw
	if m.stored {
		zw = k.stored
	}
	if m.size <= bufferedRecord {
		k.rec.Reset()
		if err := m.emit(&k.rec, k.scratch); err != nil {
			return err
		}
		if m.stored || k.rec.Len() < k.minGzip {
			zw = k.stored
		} else if k.fast != nil {
			k.fast.out = k.fast.member(k.fast.out[:0], k.rec.Bytes())
			_, err := dst.Write(k.fast.out)
			return err
		}
		zw.Reset(dst)
		if _, err := zw.Write(k.rec.Bytes()); err != nil {
			return err
		}
	} else {
		zw.Reset(dst)
		if err := m.emit(zw, k.scratch); err != nil {
			return err
		}
	}
	return zw.Close()
}

// write appends ms to the current file, one gzip member each, all in the
// same file (the file rotates before them if they would take it past
// MaxFileSize). Records of up to bufferedRecord bytes are compressed into
// k.out before the file's lock is taken, so workers compress in parallel,
// and go to the file in one write; larger ones are compressed into the
// file under the lock, so memory does not grow with them.
func (w *WARC) write(k *warcKit, ms ...member) ([]placed, error) {
	var estimate int64
	for _, m := range ms {
		if m.size > bufferedRecord {
			estimate += m.size / 2
			k.sizes = append(k.sizes, -1)
			continue
		}
		start := k.out.Len()
		if err := k.compress(&k.out, m); err != nil {
			return nil, err
		}
		k.sizes = append(k.sizes, int64(k.out.Len()-start))
		estimate += int64(k.out.Len() - start)
	}

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
		if err := w.openFile(k); err != nil {
			return nil, err
		}
	}
	out := make([]placed, len(ms))
	start, buf := w.size, k.out.Bytes()
	pending := 0 // the members at the front of buf not yet written
	var err error
	for i, m := range ms {
		if k.sizes[i] >= 0 {
			out[i] = placed{file: w.name, offset: w.size + int64(pending), length: k.sizes[i]}
			pending += int(k.sizes[i])
			continue
		}
		// A large record: what precedes it first, then it, straight in.
		if err = w.writeFile(buf[:pending]); err != nil {
			break
		}
		buf, pending = buf[pending:], 0
		cw := &countingWriter{w: w.file}
		bw := bufio.NewWriterSize(cw, 64<<10)
		if err = k.compress(bw, m); err == nil {
			err = bw.Flush()
		}
		out[i] = placed{file: w.name, offset: w.size, length: cw.n}
		w.size += cw.n
		if err != nil {
			break
		}
	}
	if err == nil {
		err = w.writeFile(buf[:pending])
	}
	if err != nil {
		// A half-written member would end the file for readers: cut
		// them off, or stop writing to this file.
		if terr := w.file.Truncate(start); terr != nil {
			w.ferr = errors.Join(err, terr)
		}
		w.size = start
		return nil, err
	}
	return out, nil
}

// writeFile appends b to the file. Called with fmu held.
func (w *WARC) writeFile(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	n, err := w.file.Write(b)
	w.size += int64(n)
	return err
}

// openFile begins a new file with its warcinfo record, compressed with k.
// Called with fmu held.
func (w *WARC) openFile(k *warcKit) error {
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
	if err := k.compress(&buf, w.marshaled(info)); err != nil {
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

// httpScanner is what one pass over a response finds: its HTTP header
// (copied) and the SHA-1 digests of the block and of the payload (the
// bytes after the header, as served: chunked and compressed as they came).
// Where the header ends is the fetcher's (fetch.Exchange.PayloadOffset):
// the scanner does not look for it. It is an io.Writer, so that io.Copy
// hands it an in-memory response in one call, without copying.
type httpScanner struct {
	block, payload hash.Hash
	header         []byte
	off            int64 // where the payload begins, -1 if nowhere
	size           int64 // bytes scanned
	payloadSize    int64
	sum            [20]byte
	digests        [2][]byte // rendered: block, payload
	payloadSum     [20]byte  // the payload's, set when scan returns
	mt             string    // mediaType's result, once mtDone
	mtDone         bool
}

// maxHTTPHeader bounds the header the scanner copies.
const maxHTTPHeader = 1 << 20

// scan reads r to its end; the payload begins at off (negative: r holds
// no end of the header, and no payload); buf is a copy buffer for readers
// that do not write themselves out (a response spooled to a file).
func (s *httpScanner) scan(r io.Reader, buf []byte, off int64) error {
	if off > maxHTTPHeader {
		return fmt.Errorf("HTTP header of %d bytes, over %d", off, maxHTTPHeader)
	}
	if s.block == nil {
		s.block, s.payload = sha1.New(), sha1.New()
	}
	s.block.Reset()
	s.payload.Reset()
	s.header, s.off, s.size, s.payloadSize = s.header[:0], off, 0, 0
	s.mt, s.mtDone = "", false
	if _, err := io.CopyBuffer(s, r, buf); err != nil {
		return err
	}
	s.payload.Sum(s.payloadSum[:0])
	return nil
}

// hasPayload reports whether the response scanned has an end of its
// header, and so a payload (perhaps empty).
func (s *httpScanner) hasPayload() bool { return s.off >= 0 && s.size >= s.off }

func (s *httpScanner) Write(p []byte) (int, error) {
	n := len(p)
	s.block.Write(p)
	if s.off < 0 {
		s.size += int64(n)
		return n, nil
	}
	if s.size < s.off {
		h := min(int64(len(p)), s.off-s.size)
		s.header = append(s.header, p[:h]...)
		p = p[h:]
	}
	s.size += int64(n)
	s.payload.Write(p)
	s.payloadSize += int64(len(p))
	return n, nil
}

// blockDigest and payloadDigest render a digest ("sha1:" and base 32);
// the result is valid until the next scan.
func (s *httpScanner) blockDigest() []byte {
	s.digests[0] = appendDigest(s.digests[0][:0], s.block.Sum(s.sum[:0]))
	return s.digests[0]
}

func (s *httpScanner) payloadDigest() []byte {
	s.digests[1] = appendDigest(s.digests[1][:0], s.payloadSum[:])
	return s.digests[1]
}

// field is the value of the response's first header field named name,
// trimmed, and whether there is one.
func (s *httpScanner) field(name string) ([]byte, bool) {
	first := true
	for line := range bytes.Lines(s.header) {
		if first { // the status line is no field
			first = false
			continue
		}
		k, v, ok := bytes.Cut(line, []byte(":"))
		if ok && strings.EqualFold(string(bytes.TrimSpace(k)), name) {
			return bytes.TrimSpace(v), true
		}
	}
	return nil, false
}

// mediaType is the response's Content-Type without parameters, lower case
// (worked out once per scan).
func (s *httpScanner) mediaType() string {
	if !s.mtDone {
		s.mt, s.mtDone = s.findMediaType(), true
	}
	return s.mt
}

func (s *httpScanner) findMediaType() string {
	v, _ := s.field("Content-Type")
	mt, _, _ := bytes.Cut(v, []byte(";"))
	mt = bytes.TrimSpace(mt)
	if string(mt) == "text/html" {
		return "text/html" // most responses: no allocation
	}
	return strings.ToLower(string(mt))
}

// compressedPayload reports whether the payload is compressed already, so
// that deflating its record again would only spend CPU: a Content-Encoding
// other than identity, or a media type whose formats are compressed
// (JPEG, PNG, GIF, WebP, AVIF, audio, video, archives, WOFF fonts). SVG and
// BMP images are text or raw and still deflated.
func (s *httpScanner) compressedPayload() bool {
	if s.payloadSize < 64 {
		return false
	}
	if v, ok := s.field("Content-Encoding"); ok && len(v) > 0 && !bytes.EqualFold(v, []byte("identity")) {
		return true
	}
	mt := s.mediaType()
	if kind, sub, ok := strings.Cut(mt, "/"); ok {
		switch kind {
		case "audio", "video":
			return true
		case "image":
			return sub != "svg+xml" && sub != "bmp" && sub != "x-ms-bmp" && sub != "x-icon" && sub != "vnd.microsoft.icon"
		case "font":
			return sub == "woff" || sub == "woff2"
		case "application":
			switch sub {
			case "zip", "gzip", "x-gzip", "zstd", "x-xz", "x-bzip2", "x-7z-compressed", "vnd.rar", "x-rar-compressed", "font-woff":
				return true
			}
		}
	}
	return false
}

func appendDigest(b, sum []byte) []byte {
	return base32.StdEncoding.AppendEncode(append(b, "sha1:"...), sum)
}

func sha1Sum(d *[20]byte, b []byte) []byte {
	*d = sha1.Sum(b)
	return d[:]
}

func sha1Digest(b []byte) string {
	var d [20]byte
	return string(appendDigest(nil, sha1Sum(&d, b)))
}

// appendHeader begins a record written by hand (response and request
// records, see the package doc): the version line and the fields every
// record has, named with gowarc's constants, in the order gowarc's
// builder writes them.
func appendHeader(b []byte, typ, id, uri string, date time.Time, contentType, ip string) []byte {
	b = append(b, "WARC/1.1\r\n"...)
	b = appendField(b, gowarc.WarcType, typ)
	b = appendField(b, gowarc.WarcRecordID, id)
	b = appendField(b, gowarc.WarcTargetURI, uri)
	b = append(b, gowarc.WarcDate+": "...)
	b = date.AppendFormat(b, time.RFC3339Nano)
	b = append(b, "\r\n"...)
	b = appendField(b, gowarc.ContentType, contentType)
	if ip != "" {
		b = appendField(b, gowarc.WarcIPAddress, ip)
	}
	return b
}

// appendField appends "name: value\r\n"; the values written by hand
// are the store's own (IDs, digests, an IP) or a URL, which url.URL.String
// escapes, so none holds a line break.
func appendField(b []byte, name, value string) []byte {
	b = append(b, name...)
	b = append(b, ": "...)
	b = append(b, value...)
	return append(b, "\r\n"...)
}

func appendDigestField(b []byte, name string, sum []byte) []byte {
	b = append(b, name...)
	b = append(b, ": "...)
	b = appendDigest(b, sum)
	return append(b, "\r\n"...)
}

// appendLength ends the header: Content-Length and the blank line.
func appendLength(b []byte, n int64) []byte {
	b = append(b, gowarc.ContentLength+": "...)
	b = strconv.AppendInt(b, n, 10)
	return append(b, "\r\n\r\n"...)
}

// newRecordID returns a random (version 4) UUID URN. Not google/uuid: see
// builderMu.
func newRecordID() string {
	var u [16]byte
	_, _ = rand.Read(u[:])
	return uuidURN(&u)
}

// newRecordIDs returns two record IDs, from one read of random bytes.
func newRecordIDs() (resp, req string, respUUID [16]byte) {
	var u [32]byte
	_, _ = rand.Read(u[:])
	resp, req = uuidURN((*[16]byte)(u[:16])), uuidURN((*[16]byte)(u[16:]))
	return resp, req, [16]byte(u[:16]) // with the version bits uuidURN set
}

// uuidURN renders u as a version 4 UUID URN, <urn:uuid:...>.
func uuidURN(u *[16]byte) string {
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // RFC 4122 variant
	var b [47]byte
	copy(b[:], "<urn:uuid:")
	p := 10
	for i, c := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b[p] = '-'
			p++
		}
		hex.Encode(b[p:p+2], []byte{c})
		p += 2
	}
	b[p] = '>'
	return string(b[:])
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
