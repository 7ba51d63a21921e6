package store

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nlnwa/gowarc"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/fetch"
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
	// Gzip level, 1 (fastest) to 9 (smallest). Default 6 (gzip's default).
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
	dir  string
	opts WARCOptions
	w    *gowarc.WarcFileWriter
	cdx  *cdxjWriter

	mu       sync.Mutex
	payloads map[string]revisitRef // payload digest -> first response with it
	lastResp map[string]string     // URL -> record ID of its latest response (for Outlinks)
	closed   bool

	records, revisits atomic.Int64
}

type revisitRef struct {
	id, uri, date string
}

// maxLastResp bounds the URL -> response record map used by Outlinks.
const maxLastResp = 1 << 14

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
		o.GzipLevel = 6
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
	names := &warcNames{dir: dir, prefix: o.Prefix, now: o.Now, host: hostName(), pid: os.Getpid()}
	cdx, err := newCDXJWriter(filepath.Join(dir, fmt.Sprintf("%s-%s-%d-%s.cdxj", o.Prefix, stamp17(o.Now()), names.pid, randomHex())))
	if err != nil {
		return nil, err
	}
	st := &WARC{dir: dir, opts: o, cdx: cdx, payloads: make(map[string]revisitRef), lastResp: make(map[string]string)}
	st.w = gowarc.NewWarcFileWriter(
		gowarc.WithCompression(true),
		gowarc.WithCompressionLevel(o.GzipLevel),
		gowarc.WithMaxFileSize(o.MaxFileSize),
		gowarc.WithFileNameGenerator(names),
		gowarc.WithWarcInfoFunc(st.warcinfo),
		gowarc.WithAddWarcConcurrentToHeader(true),
		gowarc.WithRecordOptions(recordOptions()...),
	)
	return st, nil
}

func recordOptions() []gowarc.WarcRecordOption {
	return []gowarc.WarcRecordOption{
		gowarc.WithBufferMaxMemBytes(256 << 10),
		gowarc.WithVersion(gowarc.V1_1),
	}
}

// warcinfo fills each file's warcinfo record.
func (w *WARC) warcinfo(rb gowarc.WarcRecordBuilder) error {
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
	_, err := rb.WriteString(b.String())
	return err
}

// PutExchange writes one fetch: a response record with the response as
// received (or a revisit record, see WARCOptions.NoRevisits; a 304 is
// always a revisit, profile server-not-modified) and a request record
// with the request as sent, linked by WARC-Concurrent-To, and indexes the
// response in the CDXJ file. The crawler calls it for every exchange its
// fetcher makes when the store is given with trawl.WithStore.
func (w *WARC) PutExchange(_ context.Context, ex *fetch.Exchange) error {
	uri := ex.URL.String()
	date := ex.Date.UTC()
	if date.IsZero() {
		date = w.opts.Now().UTC()
	}
	ip := ""
	if host, _, err := net.SplitHostPort(ex.RemoteAddr); err == nil {
		ip = host
	}

	resp, err := w.build(gowarc.Response, uri, date, ip, "application/http;msgtype=response", func(rb gowarc.WarcRecordBuilder) error {
		_, err := rb.ReadFrom(ex.Response())
		return err
	})
	if err != nil {
		return fmt.Errorf("store: WARC response record for %s: %w", uri, err)
	}
	defer resp.Close()
	if ex.Truncated {
		resp.WarcHeader().Set(gowarc.WarcTruncated, "unspecified")
	}
	rec := resp
	kind := "response"
	switch digest := resp.WarcHeader().Get(gowarc.WarcPayloadDigest); {
	case ex.Status == 304:
		ref := &gowarc.RevisitRef{Profile: gowarc.ProfileServerNotModifiedV1_1}
		if rec, err = resp.ToRevisitRecord(ref); err != nil {
			return fmt.Errorf("store: WARC revisit record for %s: %w", uri, err)
		}
		kind = "revisit"
	case !w.opts.NoRevisits && ex.Status >= 200 && ex.Status < 300 && !ex.Truncated && digest != "" && payloadSize(resp) > 0:
		w.mu.Lock()
		first, seen := w.payloads[digest]
		if !seen {
			w.payloads[digest] = revisitRef{id: resp.WarcHeader().GetId(gowarc.WarcRecordID), uri: uri, date: resp.WarcHeader().Get(gowarc.WarcDate)}
		}
		w.mu.Unlock()
		if seen {
			ref := &gowarc.RevisitRef{Profile: gowarc.ProfileIdenticalPayloadDigestV1_1, TargetRecordId: first.id, TargetUri: first.uri, TargetDate: first.date}
			if rec, err = resp.ToRevisitRecord(ref); err != nil {
				return fmt.Errorf("store: WARC revisit record for %s: %w", uri, err)
			}
			kind = "revisit"
		}
	}
	if kind == "revisit" {
		rec.WarcHeader().Delete(gowarc.WarcTruncated) // the block is the header, whole
	}

	req, err := w.build(gowarc.Request, uri, date, ip, "application/http;msgtype=request", func(rb gowarc.WarcRecordBuilder) error {
		_, err := rb.Write(ex.Request)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: WARC request record for %s: %w", uri, err)
	}
	defer req.Close()

	// The response first, then the request (as Heritrix does): the
	// response's length in the file is then where the request begins.
	res := w.w.Write(rec, req)
	if len(res) != 2 {
		return errors.New("store: WARC writer closed")
	}
	if err := errors.Join(res[0].Err, res[1].Err); err != nil {
		return fmt.Errorf("store: writing WARC records for %s: %w", uri, err)
	}
	w.records.Add(2)
	if kind == "revisit" {
		w.revisits.Add(1)
	}
	id := rec.WarcHeader().GetId(gowarc.WarcRecordID)
	if w.opts.Outlinks {
		w.mu.Lock()
		if len(w.lastResp) >= maxLastResp {
			clear(w.lastResp)
		}
		w.lastResp[uri] = id
		w.mu.Unlock()
	}
	length := int64(-1)
	if res[1].FileName == res[0].FileName {
		length = res[1].FileOffset - res[0].FileOffset
	} else if fi, err := os.Stat(filepath.Join(w.dir, res[0].FileName)); err == nil {
		length = fi.Size() - res[0].FileOffset // the file ended after the response
	}
	return w.cdx.add(cdxjEntry{
		url: uri, date: date, kind: kind, status: ex.Status,
		mime:   mimeOf(rec),
		digest: rec.WarcHeader().Get(gowarc.WarcPayloadDigest),
		file:   res[0].FileName, offset: res[0].FileOffset, length: length,
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
	rec, err := w.build(gowarc.Metadata, uri, w.opts.Now().UTC(), "", gowarc.ApplicationWarcFields, func(rb gowarc.WarcRecordBuilder) error {
		if concurrent != "" {
			rb.AddWarcHeader(gowarc.WarcConcurrentTo, "<"+concurrent+">")
		}
		_, err := rb.Write(b.Bytes())
		return err
	})
	if err != nil {
		return fmt.Errorf("store: WARC metadata record for %s: %w", uri, err)
	}
	defer rec.Close()
	res := w.w.Write(rec)
	if len(res) != 1 {
		return errors.New("store: WARC writer closed")
	}
	if res[0].Err != nil {
		return fmt.Errorf("store: writing WARC metadata for %s: %w", uri, res[0].Err)
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
	// WarcFileWriter.Close logs rather than returns a failure to close a
	// file; Rotate returns it, so rotate first.
	err := w.w.Rotate()
	w.w.Close()
	return errors.Join(err, w.cdx.close())
}

// Records reports how many records were written (warcinfo records aside)
// and how many of them are revisits.
func (w *WARC) Records() (records, revisits int64) { return w.records.Load(), w.revisits.Load() }

// build makes a record with the common headers and a block filled by fill.
func (w *WARC) build(t gowarc.RecordType, uri string, date time.Time, ip, contentType string, fill func(gowarc.WarcRecordBuilder) error) (gowarc.WarcRecord, error) {
	rb := gowarc.NewRecordBuilder(t, recordOptions()...)
	rb.AddWarcHeader(gowarc.WarcTargetURI, uri)
	rb.AddWarcHeaderTime(gowarc.WarcDate, date)
	rb.AddWarcHeader(gowarc.ContentType, contentType)
	if ip != "" {
		rb.AddWarcHeader(gowarc.WarcIPAddress, ip)
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

// payloadSize is the size of a response record's payload (the body after
// the HTTP header).
func payloadSize(r gowarc.WarcRecord) int64 {
	if b, ok := r.Block().(gowarc.HttpResponseBlock); ok {
		return b.Size() - int64(len(b.ProtocolHeaderBytes()))
	}
	return 0
}

// mimeOf is the media type of a response record's HTTP Content-Type, or
// "warc/revisit" for a revisit.
func mimeOf(r gowarc.WarcRecord) string {
	if r.Type() == gowarc.Revisit {
		return "warc/revisit"
	}
	if b, ok := r.Block().(gowarc.HttpResponseBlock); ok && b.HttpHeader() != nil {
		mt, _, _ := strings.Cut(b.HttpHeader().Get("Content-Type"), ";")
		return strings.ToLower(strings.TrimSpace(mt))
	}
	return ""
}

func oneLine(s string) string {
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}

// warcNames names WARC files: PREFIX-TIMESTAMP-SERIAL-HOST-PID-RANDOM.warc.
type warcNames struct {
	dir, prefix, host string
	pid               int
	now               func() time.Time
	serial            atomic.Int64
}

func (g *warcNames) NewWarcfileName() (string, string) {
	return g.dir, fmt.Sprintf("%s-%s-%05d-%s-%d-%s.warc", g.prefix, stamp17(g.now()), g.serial.Add(1), g.host, g.pid, randomHex())
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
