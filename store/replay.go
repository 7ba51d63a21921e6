package store

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trawl-dev/trawl/fetch"
)

// Replay is a fetch.Fetcher that answers from WARC files a [WARC] store
// wrote, and hands every URL they do not hold to a fallback fetcher (the
// network), as Colly's CacheDir and Scrapy's HTTPCACHE let a scraper be
// rewritten and run again without fetching again:
//
//	rp, err := store.NewReplay("warcs", nil) // offline; ReplayOptions.Fallback: the network
//	c, err := trawl.New(trawl.WithSeeds(...), trawl.WithFetcher(rp), ...)
//
// A URL is answered with the latest response recorded for it (a revisit
// record with the response it refers to), byte for byte as it was
// recorded: status, header, chunked and compressed body, read by a
// fetch.HTTP of its own, so that decoding, charsets, limits, redirects and
// errors are the same as on the first run. robots.txt is replayed too.
// URLs are matched exactly (scheme, host, path and query as the crawler
// normalized them). Replayed responses have no transfer time (Duration is
// 0), so a replayed crawl is held only by the delay it is given.
//
// The index is read once, by NewReplay, from the CDXJ files beside the
// WARC files (the store writes them sorted when it is closed, and at most
// a second behind while it runs); a record is read from its file when its
// URL is fetched. A Replay is safe for concurrent use.
type Replay struct {
	dir      string
	fallback fetch.Fetcher
	records  map[string]replayRecord // URL -> its latest response record
	inner    *fetch.HTTP             // reads the recorded bytes through a pipe
	counts   *replayCounts           // shared with the Wraps
}

type replayCounts struct{ replayed, fetched atomic.Int64 }

type replayRecord struct {
	file           string
	offset, length int64
	date           string // 14-digit timestamp: the latest wins
}

// replaySchemeHeader carries the URL's scheme to the pipe: the inner
// fetcher asks for http:// whatever was recorded, since the pipe holds no
// TLS.
const replaySchemeHeader = "Trawl-Replay-Scheme"

// ErrNotArchived is returned by a Replay without a fallback for a URL its
// archive does not hold.
var ErrNotArchived = errors.New("store: replay: not in the archive")

// ReplayOptions configure a Replay. A nil *ReplayOptions means all
// defaults.
type ReplayOptions struct {
	// Fallback fetches the URLs the archive does not hold: the network
	// (fetch.New with the crawl's options). Default nil: none, an
	// ErrNotArchived error for them instead (an offline run).
	Fallback fetch.Fetcher
	// AcceptTypes are the media types replayed as fetched; a recorded
	// response of another type fails as it would have with the crawl's
	// fetcher. Default: what a crawl with the default WithFollow accepts
	// (HTML, XHTML, XML, plain text, RSS, Atom and RDF feeds, gzip for
	// sitemaps); "*/*" replays every type, as an archive crawl
	// (WithArchive) needs.
	AcceptTypes []string
}

// defaultReplayTypes is what a crawl with trawl's default WithFollow
// accepts (the root package's acceptTypes).
var defaultReplayTypes = []string{"text/html", "application/xhtml+xml", "application/xml", "text/xml", "text/plain",
	"application/rss+xml", "application/atom+xml", "application/rdf+xml", "application/feed+xml",
	"application/gzip", "application/x-gzip"}

// NewReplay reads the CDXJ indexes of the WARC files in dir and returns a
// Replay answering from them (opts may be nil).
func NewReplay(dir string, opts *ReplayOptions) (*Replay, error) {
	var o ReplayOptions
	if opts != nil {
		o = *opts
	}
	if o.AcceptTypes == nil {
		o.AcceptTypes = defaultReplayTypes
	}
	r := &Replay{dir: dir, fallback: o.Fallback, records: make(map[string]replayRecord), counts: &replayCounts{}}
	indexes, err := filepath.Glob(filepath.Join(dir, "*.cdxj"))
	if err != nil {
		return nil, fmt.Errorf("store: replay: %w", err)
	}
	if len(indexes) == 0 {
		return nil, fmt.Errorf("store: replay: no CDXJ index in %s", dir)
	}
	type pending struct {
		url    string
		digest string
		date   string
	}
	byDigest := map[string]replayRecord{} // response records by payload digest
	var revisits []pending
	for _, name := range indexes {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("store: replay: %w", err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			_, rest, _ := strings.Cut(sc.Text(), " ")
			date, js, ok := strings.Cut(rest, " ")
			if !ok {
				continue
			}
			var e struct {
				URL, Mime, Digest, Filename string
				Offset, Length              string
			}
			if json.Unmarshal([]byte(js), &e) != nil {
				continue
			}
			if e.Mime == "warc/revisit" {
				revisits = append(revisits, pending{url: e.URL, digest: e.Digest, date: date})
				continue
			}
			off, err1 := strconv.ParseInt(e.Offset, 10, 64)
			n, err2 := strconv.ParseInt(e.Length, 10, 64)
			if err1 != nil || err2 != nil {
				continue
			}
			rec := replayRecord{file: filepath.Join(dir, e.Filename), offset: off, length: n, date: date}
			if e.Digest != "" {
				if _, ok := byDigest[e.Digest]; !ok {
					byDigest[e.Digest] = rec
				}
			}
			r.add(e.URL, rec)
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("store: replay: %s: %w", name, err)
		}
	}
	for _, p := range revisits {
		if rec, ok := byDigest[p.digest]; ok && p.digest != "" {
			rec.date = p.date
			r.add(p.url, rec)
		}
	}
	r.inner = fetch.New(&fetch.Options{DialContext: r.dial, AllowPrivateNetworks: true, DNSCacheTTL: -1,
		AcceptTypes: append([]string(nil), o.AcceptTypes...)})
	return r, nil
}

func (r *Replay) add(rawURL string, rec replayRecord) {
	if old, ok := r.records[rawURL]; !ok || rec.date >= old.date {
		r.records[rawURL] = rec
	}
}

// Len returns how many URLs the archive answers.
func (r *Replay) Len() int { return len(r.records) }

// Wrap returns a copy of r whose fallback is next: for
// trawl.WithFetchWrapper(rp.Wrap), which gives it the crawler's own
// fetcher, configured by the crawl's options, for the URLs the archive
// lacks. The copy counts into r's Counts.
func (r *Replay) Wrap(next fetch.Fetcher) fetch.Fetcher {
	w := *r
	w.fallback = next
	return &w
}

// Counts returns how many fetches the archive answered and how many went
// to the fallback (or failed for want of one), over r and its Wraps.
func (r *Replay) Counts() (replayed, fetched int64) {
	return r.counts.replayed.Load(), r.counts.fetched.Load()
}

// CloseIdleConnections closes the idle connections of the fallback (when
// it has a CloseIdleConnections method) and of the archive's reader.
func (r *Replay) CloseIdleConnections() {
	if ic, ok := r.fallback.(fetch.IdleCloser); ok {
		ic.CloseIdleConnections()
	}
	r.inner.CloseIdleConnections()
}

// Fetch answers req from the archive when it holds req.URL, else from the
// fallback.
func (r *Replay) Fetch(ctx context.Context, req *fetch.Request) (*fetch.Response, error) {
	if _, ok := r.records[req.URL.String()]; !ok {
		r.counts.fetched.Add(1)
		if r.fallback == nil {
			return nil, fmt.Errorf("%w: %s", ErrNotArchived, req.URL)
		}
		return r.fallback.Fetch(ctx, req)
	}
	r.counts.replayed.Add(1)
	inner := *req
	u := *req.URL
	inner.URL = &u
	u.Scheme = "http"
	inner.Header = req.Header.Clone()
	if inner.Header == nil {
		inner.Header = http.Header{}
	}
	inner.Header.Set(replaySchemeHeader, req.URL.Scheme)
	// A conditional request would be answered with the recording all
	// the same; drop the validators so that the answer is what was
	// recorded.
	inner.Header.Del("If-None-Match")
	inner.Header.Del("If-Modified-Since")
	inner.ETag, inner.LastModified = "", time.Time{}
	resp, err := r.inner.Fetch(ctx, &inner)
	if resp != nil {
		resp.URL = req.URL
		resp.Duration = 0
		if loc := resp.Header.Get("Location"); loc != "" {
			resp.Location, _ = req.URL.Parse(loc) // against the URL as it was, https included
		}
	}
	var fe *fetch.Error
	if errors.As(err, &fe) && fe.URL != "" {
		fe.URL = req.URL.String()
	}
	return resp, err
}

// dial gives the inner fetcher one end of a pipe; a goroutine serves the
// recorded response of the request written to the other, then closes it.
func (r *Replay) dial(_ context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	go r.serve(server)
	return client, nil
}

var replayBufs = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 4096) }}

func (r *Replay) serve(conn net.Conn) {
	defer conn.Close()
	br := replayBufs.Get().(*bufio.Reader)
	br.Reset(conn)
	defer replayBufs.Put(br)
	hreq, err := http.ReadRequest(br)
	if err != nil {
		return
	}
	u := *hreq.URL
	u.Scheme = hreq.Header.Get(replaySchemeHeader)
	u.Host = hreq.Host
	rec, ok := r.records[u.String()]
	if !ok {
		io.WriteString(conn, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
		return
	}
	block, err := r.read(rec)
	if err != nil {
		msg := err.Error()
		fmt.Fprintf(conn, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(msg), msg)
		return
	}
	conn.Write(block)
}

// read returns the block of the record at rec: the HTTP response as it
// was recorded.
func (r *Replay) read(rec replayRecord) ([]byte, error) {
	f, err := os.Open(rec.file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(io.NewSectionReader(f, rec.offset, rec.length))
	if err != nil {
		return nil, err
	}
	zr.Multistream(false)
	br := bufio.NewReader(zr)
	length := int64(-1)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("store: replay: WARC header: %w", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(strings.TrimSpace(k), "Content-Length") {
			length, _ = strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	if length < 0 {
		return nil, errors.New("store: replay: a WARC record without Content-Length")
	}
	var b bytes.Buffer
	if _, err := io.CopyN(&b, br, length); err != nil {
		return nil, fmt.Errorf("store: replay: WARC block: %w", err)
	}
	return b.Bytes(), nil
}
