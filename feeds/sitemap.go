package feeds

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// The sitemaps.org protocol's limits for one sitemap file, the defaults of
// SitemapOptions.
const (
	DefaultMaxSitemapURLs  = 50_000     // <url> or <sitemap> entries (or text lines) per file
	DefaultMaxSitemapBytes = 52_428_800 // uncompressed bytes per file (50 MiB)
)

// Bounds that hold whatever the options.
const (
	maxSitemapLocLen   = 8 << 10 // bytes of a loc; the protocol allows < 2,048 characters
	maxSitemapFieldLen = 256     // bytes of a lastmod, changefreq or priority value
	maxSitemapToken    = 1 << 20 // bytes of one XML token (a text run, a tag with its attributes)
	maxSitemapDepth    = 64      // element nesting
	maxGzipLayers      = 2       // a .xml.gz sent with Content-Encoding: gzip and not decoded
)

// Errors of ReadSitemap. Every error it returns wraps one of them, except
// a failure of the reader itself, which it returns wrapped as is.
var (
	// ErrSitemapTooLarge: a bound was reached (MaxURLs, MaxBytes, or the
	// fixed bounds on token size and element nesting). The Sitemap holds
	// the entries read before it and has Truncated set.
	ErrSitemapTooLarge = errors.New("feeds: sitemap too large")

	// ErrSitemapSyntax: the input is not a well-formed sitemap (broken
	// XML or gzip, a root element other than urlset or sitemapindex). The
	// Sitemap holds the entries read before the fault.
	ErrSitemapSyntax = errors.New("feeds: malformed sitemap")
)

// SitemapOptions bounds ReadSitemap. A nil *SitemapOptions is valid and
// means the protocol's limits; a zero or negative field means its default.
type SitemapOptions struct {
	// MaxURLs caps the entries kept from one file: <url> entries of a
	// urlset, <sitemap> entries of an index, or URL lines of a text
	// sitemap. Default DefaultMaxSitemapURLs (50,000), the protocol's
	// limit; a larger value accepts files the protocol forbids.
	MaxURLs int

	// MaxBytes caps the uncompressed size of the file. Default
	// DefaultMaxSitemapBytes (50 MiB, 52,428,800 bytes), the protocol's
	// limit; a larger value accepts files the protocol forbids. It bounds
	// gzip bombs: decompression stops there.
	MaxBytes int64
}

// Sitemap is what ReadSitemap read from one sitemap file: plain data.
type Sitemap struct {
	URLs      []SitemapURL // <url> entries of a urlset, or the lines of a text sitemap, in file order
	Sitemaps  []SitemapURL // <sitemap> entries of a sitemap index, in file order
	Skipped   int          // entries or lines dropped: no loc, or a loc that is not an absolute http(s) URL
	Truncated bool         // a bound was hit; the error wraps ErrSitemapTooLarge
}

// SitemapURL is one entry of a sitemap or sitemap index.
type SitemapURL struct {
	// Loc is the entry's absolute http or https URL as written (entities
	// decoded, surrounding white space trimmed), not normalized: resolve
	// and normalize with urlnorm before use.
	Loc string

	// LastMod is <lastmod> in any W3C Datetime form; zero when absent or
	// unparsable. A date without a time is midnight UTC, a time without a
	// zone is taken as UTC.
	LastMod time.Time

	// ChangeFreq is <changefreq> in lower case, one of "always",
	// "hourly", "daily", "weekly", "monthly", "yearly" and "never"; ""
	// when absent or anything else.
	ChangeFreq string

	// Priority is <priority>, in [0, 1], when HasPriority is true.
	// HasPriority is false when the element is absent or its value is not
	// a number in that range (the protocol's default is then 0.5).
	Priority    float64
	HasPriority bool
}

// ReadSitemap reads one sitemap file in any form the sitemaps.org protocol
// allows and returns its entries.
//
// Forms: an XML <urlset> (entries in Sitemap.URLs), an XML <sitemapindex>
// (entries in Sitemap.Sitemaps, whose LastMod is the child sitemap's
// modification time), or a text file of one URL per line (Sitemap.URLs,
// only Loc set; empty lines ignored). The bytes decide, not what the
// server said: gzip is recognised by its magic bytes (also nested twice, for
// a .xml.gz that a server sends with Content-Encoding: gzip which the
// client did not decode), then a UTF-8 byte order mark and white space are
// skipped, and input beginning with '<' is XML, anything else text. Empty
// input is an empty text sitemap.
//
// XML is streamed with encoding/xml (Decoder.RawToken, under ReadSitemap's
// own element stack and namespace scopes; nothing is unmarshalled whole),
// leniently as real sitemaps need: unescaped '&' in URLs and HTML entities
// are accepted; an end tag closes the innermost open element of its name
// and those inside it, and one that matches no open element is ignored
// (encoding/xml's non-strict Token would close every open element and end
// the file there, silently); a <url> or <sitemap> start tag inside an
// open entry closes that entry; a declared ISO-8859-1 or windows-1252
// encoding is decoded and any other declared encoding is read as UTF-8
// (the protocol requires UTF-8).
// Elements are recognised by local name in the root element's namespace,
// whatever it is (sitemaps.org's, Google's old 0.84 one, or none), or in
// no namespace, so elements of extensions in other namespaces are skipped
// even where they share a local name: image:loc, video:, news: and the xhtml:link hreflang
// alternates are not reported (a crawler finds the alternates on the pages
// themselves). Unknown elements are skipped; reading stops at the end of
// the root element. Of repeated loc, lastmod, changefreq or priority
// elements in one entry the first counts.
//
// Entries without a loc, and locs that are not absolute http or https URLs
// with a host (net/url must parse them) or are longer than 8 KiB, are
// dropped and counted in Skipped, as are text lines that are not such URLs
// or not valid UTF-8. Duplicates are kept.
//
// Bounds: at most MaxURLs entries and MaxBytes uncompressed bytes (the
// protocol's 50,000 and 50 MiB by default; compressed input is cut at
// MaxBytes + MaxBytes/64 + 4 KiB, so a stream of empty gzip members cannot
// run forever); one XML
// token (a text run, or a tag with its attributes) at most 1 MiB, elements
// nested at most 64 deep, a text line at most 8 KiB (a longer line is
// skipped). encoding/xml expands no external or custom entities, so there
// is no entity-expansion bomb. Memory is thus O(MaxURLs × entry size + 1
// MiB) whatever the input, and time linear in MaxBytes. Past MaxURLs or
// MaxBytes, or the token or depth bound, ReadSitemap stops, sets
// Truncated and returns the entries read so far with an error wrapping
// ErrSitemapTooLarge; a file of exactly MaxURLs entries or MaxBytes bytes is
// complete and no error.
//
// Errors: the returned *Sitemap is never nil and holds what was read before
// any error. Malformed input (broken XML or gzip, a truncated file, a root
// element other than urlset or sitemapindex) gives one error wrapping
// ErrSitemapSyntax; a failing reader gives its own error, wrapped. Bad
// field values are not errors: an unparsable lastmod, changefreq or
// priority is left zero.
//
// ReadSitemap is safe for concurrent use; opts is only read.
func ReadSitemap(r io.Reader, opts *SitemapOptions) (*Sitemap, error) {
	maxURLs, maxBytes := DefaultMaxSitemapURLs, int64(DefaultMaxSitemapBytes)
	if opts != nil {
		if opts.MaxURLs > 0 {
			maxURLs = opts.MaxURLs
		}
		if opts.MaxBytes > 0 {
			maxBytes = opts.MaxBytes
		}
	}
	sr := &sitemapReader{sm: &Sitemap{}, maxURLs: maxURLs}
	src := &errRecorder{r: r}
	err := sr.read(src, maxBytes)
	if err == nil {
		return sr.sm, nil
	}
	switch {
	case errors.Is(err, ErrSitemapTooLarge):
		sr.sm.Truncated = true
		return sr.sm, err
	case errors.Is(err, ErrSitemapSyntax):
		return sr.sm, err
	case src.err != nil && errors.Is(err, src.err):
		return sr.sm, fmt.Errorf("feeds: reading sitemap: %w", src.err)
	default: // gzip and flate errors, xml.SyntaxError
		return sr.sm, fmt.Errorf("%w: %w", ErrSitemapSyntax, err)
	}
}

// sitemapBufSize sizes each of the readers ReadSitemap stacks (the input,
// each gzip layer, the XML decoder's): 4 KiB, bufio's default. They were
// 32 KiB each, 96 KiB for a plain sitemap, which a crawl that reads a
// sitemap per host at its start (a thousand hosts, over a hundred
// workers) held by the megabyte and threw away by the hundred megabytes;
// reading in 4 KiB pieces costs nothing measurable beside the XML decoding.
const sitemapBufSize = 4 << 10

// sitemapReader holds the state of one ReadSitemap call.
type sitemapReader struct {
	sm      *Sitemap
	maxURLs int
}

// read unwraps gzip, detects the form and reads it.
func (sr *sitemapReader) read(src io.Reader, maxBytes int64) error {
	// Compressed input is bounded like the uncompressed: deflate expands
	// incompressible data by about 0.03 %, so 1/64 plus a little is room
	// enough for any gzip of a file within MaxBytes.
	compressedMax := maxBytes + maxBytes/64 + 4096
	br := bufio.NewReaderSize(newLimitReader(src, compressedMax), sitemapBufSize)
	for range maxGzipLayers {
		if magic, _ := br.Peek(2); len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
			break
		}
		zr, err := gzip.NewReader(br)
		if err != nil {
			return err
		}
		br = bufio.NewReaderSize(newLimitReader(zr, compressedMax), sitemapBufSize)
	}
	// The last layer gets the exact bound.
	br = bufio.NewReaderSize(newLimitReader(br, maxBytes), sitemapBufSize)

	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	for {
		c, err := br.ReadByte()
		if err == io.EOF {
			return nil // empty
		}
		if err != nil {
			return err
		}
		if !isXMLSpace(c) {
			br.UnreadByte()
			if c == '<' {
				return sr.readXML(br)
			}
			return sr.readText(br)
		}
	}
}

// add appends an entry to list, or fails with ErrSitemapTooLarge when the
// list is full.
func (sr *sitemapReader) add(list *[]SitemapURL, e SitemapURL) error {
	if len(sr.sm.URLs)+len(sr.sm.Sitemaps) >= sr.maxURLs {
		return fmt.Errorf("%w: more than %d entries", ErrSitemapTooLarge, sr.maxURLs)
	}
	*list = append(*list, e)
	return nil
}

// readText reads a text sitemap: one URL per line.
func (sr *sitemapReader) readText(br *bufio.Reader) error {
	var long bool // in the rest of a line longer than maxSitemapLocLen
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > maxSitemapLocLen+2 { // room for "\r\n"
			long = true
			line = line[:0]
		} else if !long {
			line = append(line, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && err != io.EOF {
			return err
		}
		if long {
			sr.sm.Skipped++
		} else if loc := bytes.TrimSpace(line); len(loc) > 0 {
			if s, ok := sitemapLoc(loc); ok {
				if err := sr.add(&sr.sm.URLs, SitemapURL{Loc: s}); err != nil {
					return err
				}
			} else {
				sr.sm.Skipped++
			}
		}
		if err == io.EOF {
			return nil
		}
		long, line = false, line[:0]
	}
}

// sitemapLoc trims b and returns it when it is an absolute http or https
// URL with a host, of at most maxSitemapLocLen bytes.
func sitemapLoc(b []byte) (string, bool) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || len(b) > maxSitemapLocLen || !utf8.Valid(b) {
		return "", false
	}
	s := string(b)
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.Opaque != "" ||
		!(strings.EqualFold(u.Scheme, "http") || strings.EqualFold(u.Scheme, "https")) {
		return "", false
	}
	return s, true
}

// Element kinds readXML tracks inside an entry.
const (
	fieldNone = iota
	fieldLoc
	fieldLastMod
	fieldChangeFreq
	fieldPriority
)

// Namespace bindings kept for the elements that matter (depth ≤ 3); more
// are ignored.
const maxSitemapNSBindings = 64

// xmlState is readXML's view of the document: its own element stack over
// encoding/xml's raw tokens, so that a stray or mismatched end tag closes
// only what it names (encoding/xml's non-strict Token would close every
// open element, silently ending the file there).
type xmlState struct {
	sr       *sitemapReader
	stack    []xml.Name // raw names (prefix, local) of the open elements
	bindings []nsBinding
	root     string // the root element's namespace
	list     *[]SitemapURL
	entry    string // "url" or "sitemap"
	inEntry  bool
	cur      SitemapURL
	loc      []byte
	hasLoc   bool
	field    int
	fieldMax int
	value    []byte
	tooLong  bool
	seen     [fieldPriority + 1]bool
}

type nsBinding struct {
	depth         int
	prefix, space string
}

// space resolves a prefix at the current depth; an undeclared prefix
// stands for itself, as in encoding/xml.
func (x *xmlState) space(prefix string) string {
	for i := len(x.bindings) - 1; i >= 0; i-- {
		if x.bindings[i].prefix == prefix {
			return x.bindings[i].space
		}
	}
	if prefix == "" {
		return ""
	}
	return prefix
}

// inNS reports whether an element is in the sitemap's namespace: the root
// element's, or none (for a root with a prefix and children without one).
func (x *xmlState) inNS(space string) bool { return space == x.root || space == "" }

// start handles a start tag.
func (x *xmlState) start(t xml.StartElement) error {
	depth := len(x.stack) + 1
	if depth > maxSitemapDepth {
		return fmt.Errorf("%w: elements nested deeper than %d", ErrSitemapTooLarge, maxSitemapDepth)
	}
	if depth > 3 {
		x.stack = append(x.stack, t.Name)
		return nil
	}
	n0 := len(x.bindings)
	for _, a := range t.Attr {
		if len(x.bindings) >= maxSitemapNSBindings {
			break
		}
		if a.Name.Space == "xmlns" {
			x.bindings = append(x.bindings, nsBinding{depth, a.Name.Local, a.Value})
		} else if a.Name.Space == "" && a.Name.Local == "xmlns" {
			x.bindings = append(x.bindings, nsBinding{depth, "", a.Value})
		}
	}
	space := x.space(t.Name.Space)
	if depth == 3 && x.inEntry && t.Name.Local == x.entry && x.inNS(space) {
		// An entry opened inside the open one: the missing end tag of
		// the open entry is implied.
		own := append([]nsBinding(nil), x.bindings[n0:]...)
		if err := x.closeTo(1); err != nil {
			return err
		}
		for _, b := range own { // this element's declarations stay
			b.depth = 2
			x.bindings = append(x.bindings, b)
		}
		depth = 2
	}
	x.stack = append(x.stack, t.Name)
	switch {
	case depth == 1:
		x.root = space
		switch t.Name.Local {
		case "urlset":
			x.list, x.entry = &x.sr.sm.URLs, "url"
		case "sitemapindex":
			x.list, x.entry = &x.sr.sm.Sitemaps, "sitemap"
		default:
			return fmt.Errorf("%w: root element <%s> is neither urlset nor sitemapindex", ErrSitemapSyntax, t.Name.Local)
		}
	case depth == 2 && t.Name.Local == x.entry && x.inNS(space):
		x.inEntry, x.cur, x.loc, x.hasLoc, x.seen = true, SitemapURL{}, x.loc[:0], false, [fieldPriority + 1]bool{}
	case depth == 3 && x.inEntry && x.inNS(space):
		x.field, x.fieldMax = fieldNone, maxSitemapFieldLen
		switch t.Name.Local {
		case "loc":
			x.field, x.fieldMax = fieldLoc, maxSitemapLocLen
		case "lastmod":
			x.field = fieldLastMod
		case "changefreq":
			x.field = fieldChangeFreq
		case "priority":
			x.field = fieldPriority
		}
		if x.seen[x.field] {
			x.field = fieldNone // the first counts
		}
		x.value, x.tooLong = x.value[:0], false
	}
	return nil
}

// text handles character data.
func (x *xmlState) text(t xml.CharData) {
	if x.field != fieldNone && len(x.stack) == 3 && !x.tooLong {
		if len(x.value)+len(t) > x.fieldMax {
			x.tooLong = true
		} else {
			x.value = append(x.value, t...)
		}
	}
}

// end handles an end tag: it closes the innermost open element of that
// name and those inside it; an end tag that matches no open element is
// ignored. It returns io.EOF at the end of the root element.
func (x *xmlState) end(t xml.EndElement) error {
	for i := len(x.stack) - 1; i >= 0; i-- {
		if x.stack[i] == t.Name {
			return x.closeTo(i)
		}
	}
	return nil
}

// closeTo closes the open elements until depth elements remain.
func (x *xmlState) closeTo(depth int) error {
	for len(x.stack) > depth {
		d := len(x.stack)
		switch {
		case d == 3 && x.field != fieldNone:
			x.seen[x.field] = true
			if !x.tooLong {
				v := bytes.TrimSpace(x.value)
				switch x.field {
				case fieldLoc:
					x.loc, x.hasLoc = append(x.loc[:0], x.value...), true
				case fieldLastMod:
					x.cur.LastMod = parseW3CDatetime(string(v))
				case fieldChangeFreq:
					x.cur.ChangeFreq = parseChangeFreq(v)
				case fieldPriority:
					x.cur.Priority, x.cur.HasPriority = parsePriority(v)
				}
			}
			x.field = fieldNone
		case d == 2 && x.inEntry:
			x.inEntry = false
			s, ok := "", false
			if x.hasLoc {
				s, ok = sitemapLoc(x.loc)
			}
			if !ok {
				x.sr.sm.Skipped++
			} else {
				x.cur.Loc = s
				if err := x.sr.add(x.list, x.cur); err != nil {
					return err
				}
			}
		case d == 1:
			return io.EOF // the end of the root: the rest is not read
		}
		x.stack = x.stack[:d-1]
		for len(x.bindings) > 0 && x.bindings[len(x.bindings)-1].depth >= d {
			x.bindings = x.bindings[:len(x.bindings)-1]
		}
	}
	return nil
}

// readXML streams a urlset or sitemapindex.
func (sr *sitemapReader) readXML(br *bufio.Reader) error {
	tr := &xmlTokenReader{r: br}
	d := xml.NewDecoder(bufio.NewReaderSize(tr, sitemapBufSize))
	tr.d = d
	d.Strict = false
	d.Entity = xml.HTMLEntity
	d.CharsetReader = sitemapCharset
	x := &xmlState{sr: sr}
	for {
		tr.start = d.InputOffset()
		tok, err := d.RawToken()
		if err == nil {
			switch t := tok.(type) {
			case xml.StartElement:
				err = x.start(t)
			case xml.CharData:
				x.text(t)
			case xml.EndElement:
				err = x.end(t)
			}
			if err == io.EOF {
				return nil
			}
		} else if err == io.EOF {
			if x.list == nil {
				return fmt.Errorf("%w: no root element", ErrSitemapSyntax)
			}
			return fmt.Errorf("%w: unexpected end of input", ErrSitemapSyntax)
		}
		if err != nil {
			return err
		}
	}
}

// sitemapCharset decodes the encodings sitemaps declare besides UTF-8;
// others are read as UTF-8.
func sitemapCharset(label string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(strings.TrimSpace(label)) {
	case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "windows-1252", "cp1252":
		return charmap.Windows1252.NewDecoder().Reader(in), nil
	}
	return in, nil
}

// changeFreqs are the protocol's <changefreq> values.
var changeFreqs = [...]string{"always", "hourly", "daily", "weekly", "monthly", "yearly", "never"}

func parseChangeFreq(b []byte) string {
	for _, f := range changeFreqs {
		if len(b) == len(f) && bytes.EqualFold(b, []byte(f)) {
			return f
		}
	}
	return ""
}

func parsePriority(b []byte) (float64, bool) {
	p, err := strconv.ParseFloat(string(b), 64)
	if err != nil || !(p >= 0 && p <= 1) { // NaN fails too
		return 0, false
	}
	return p, true
}

// w3cLayouts are the W3C Datetime forms (https://www.w3.org/TR/NOTE-datetime)
// with a time, plus common deviations: no zone (UTC), a zone without a
// colon, a space for the 'T'. Fractional seconds are accepted by every
// layout with seconds.
var w3cLayouts = [...]string{
	"2006-01-02T15:04:05Z07:00",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04:05",
	"2006-01-02T15:04",
	"2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04Z0700",
}

// parseW3CDatetime parses a W3C Datetime: YYYY, YYYY-MM, YYYY-MM-DD, or a
// date with hh:mm, hh:mm:ss or hh:mm:ss.s and a zone (Z or ±hh:mm). It
// returns the zero Time for anything else.
func parseW3CDatetime(s string) time.Time {
	var layout string
	switch len(s) {
	case 4:
		layout = "2006"
	case 7:
		layout = "2006-01"
	case 10:
		layout = "2006-01-02"
	}
	if layout != "" {
		t, _ := time.Parse(layout, s)
		return t
	}
	if len(s) > 10 && s[10] == ' ' {
		s = s[:10] + "T" + s[11:]
	}
	for _, l := range w3cLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// limitReader reads at most left bytes from r; when r has more, it fails
// with ErrSitemapTooLarge instead of ending the stream, so that an
// oversized file is never mistaken for a complete one.
type limitReader struct {
	r    io.Reader
	left int64 // bytes still allowed
	max  int64
	err  error
}

func newLimitReader(r io.Reader, max int64) *limitReader {
	return &limitReader{r: r, left: max, max: max}
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	if l.left <= 0 {
		// Is there more? One byte tells.
		var one [1]byte
		for range 100 {
			n, err := l.r.Read(one[:])
			if n > 0 {
				l.err = fmt.Errorf("%w: more than %d bytes", ErrSitemapTooLarge, l.max)
				return 0, l.err
			}
			if err != nil {
				l.err = err
				return 0, err
			}
		}
		l.err = io.ErrNoProgress
		return 0, l.err
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// errRecorder remembers the error of the caller's reader, to tell it from
// errors about the content.
type errRecorder struct {
	r   io.Reader
	err error
}

func (e *errRecorder) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		e.err = err
	}
	return n, err
}

// xmlTokenReader is the XML decoder's reader. It bounds the current token:
// the decoder has consumed InputOffset() bytes, of which those past start
// (the offset before the current Token call) belong to the token being
// read; once they exceed maxSitemapToken it fails with ErrSitemapTooLarge.
// (The decoder's own bufio.Reader holds at most sitemapBufSize more.)
type xmlTokenReader struct {
	r     io.Reader
	d     *xml.Decoder
	start int64
}

func (t *xmlTokenReader) Read(p []byte) (int, error) {
	if t.d.InputOffset()-t.start > maxSitemapToken {
		return 0, fmt.Errorf("%w: an XML token longer than %d bytes", ErrSitemapTooLarge, maxSitemapToken)
	}
	return t.r.Read(p)
}
