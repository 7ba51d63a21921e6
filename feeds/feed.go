package feeds

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mmcdole/gofeed"

	"github.com/trawl-dev/trawl/urlnorm"
)

// Default bounds of ReadFeed, used where the matching FeedOptions field is
// zero.
const (
	DefaultMaxFeedBytes = 10 << 20 // bytes of one feed
	DefaultMaxFeedItems = 10_000   // items or entries of one feed
)

// Bounds that hold whatever the options. gofeed recurses once per level of
// nesting and allocates about 1 KB per element it keeps, so its input is
// checked against these before it sees it.
const (
	maxFeedDepth    = 256     // element nesting
	maxFeedElements = 100_000 // elements
	maxFeedTitleLen = 1024    // bytes of Feed.Title and Item.Title
	maxFeedLinkLen  = 8 << 10 // bytes of an item's link, as extract bounds an href
)

// Errors of ReadFeed. Every error it returns wraps one of them, except a
// failure of the reader itself, which it returns wrapped as is.
var (
	// ErrFeedTooLarge: a bound was reached (MaxBytes, MaxItems, or the
	// fixed bounds on nesting and element count). The Feed holds the items
	// before it and has Truncated set.
	ErrFeedTooLarge = errors.New("feeds: feed too large")

	// ErrFeedSyntax: the input is not an RSS or Atom feed gofeed can read,
	// or is broken at some point. The Feed holds the items before the
	// fault, if any.
	ErrFeedSyntax = errors.New("feeds: malformed feed")
)

// FeedOptions configures ReadFeed. A nil *FeedOptions is valid and means
// all defaults; a zero or negative field means its default.
type FeedOptions struct {
	// Normalizer resolves and normalizes item links. Nil means
	// urlnorm.New().
	Normalizer *urlnorm.Normalizer

	// MaxBytes caps the bytes read from r. Default DefaultMaxFeedBytes
	// (10 MiB).
	MaxBytes int64

	// MaxItems caps the items (RSS) or entries (Atom) read, whether or
	// not they have a usable link. Default DefaultMaxFeedItems (10,000).
	MaxItems int
}

// Feed is what ReadFeed read from one feed: plain data.
type Feed struct {
	Title     string // the channel's or feed's title, whitespace-collapsed, at most 1024 bytes
	Items     []Item // items with a usable link, in feed order; duplicates kept
	Truncated bool   // a bound was hit; the error wraps ErrFeedTooLarge
}

// Item is one item (RSS) or entry (Atom) of a feed.
type Item struct {
	// URL is the item's link, resolved against xml:base and the feed's
	// URL and normalized with urlnorm: an absolute http or https URL.
	URL string

	// Title is the item's title, whitespace-collapsed, at most 1024 bytes.
	Title string

	// Published is the item's publication time (RSS pubDate or
	// dc:date, Atom published), else its update time (Atom updated); zero
	// if the feed gives neither or gofeed cannot parse it.
	Published time.Time
}

// ReadFeed reads an RSS or Atom feed from r and returns its title and its
// items' links. base is the URL the feed was fetched from, after
// redirects; relative links resolve against it. A nil base keeps only
// absolute links.
//
// Parsing is github.com/mmcdole/gofeed's, chosen because it is maintained
// (v1.4.2, August 2026), reads RSS 0.90 to 2.0, RSS 1.0 (RDF) and Atom 0.3
// and 1.0 with one universal model, is lenient with the broken feeds
// crawlers meet (unescaped entities, undeclared prefixes, bogus namespaces,
// control characters, non-UTF-8 encodings declared in the XML declaration),
// and since v1.4 streams its input and depends on nothing beyond
// golang.org/x/net and x/text. Its cost in binary size is mostly what gofeed
// imports: a small program that calls ReadFeed grows by 2.3 MB (+36 %; 1.1
// MB when it imported the package, then part of extract, without calling
// ReadFeed; a program that imports extract alone no longer links gofeed),
// mostly the CJK
// tables of the x/text encodings behind x/net/html/charset, encoding/json
// and regexp; a crawler that decodes charsets already, as trawl's fetch
// does, grows by about 11 KB (examples/sitespider). JSON Feed, which gofeed
// also reads, is refused with ErrFeedSyntax: its item count cannot be
// bounded before gofeed decodes it all.
//
// Item links: the item's link (RSS <link>; Atom <link rel="alternate">,
// else its first link), else an RSS <guid> that is an absolute URL; gofeed
// resolves relative Atom hrefs and RSS links against xml:base in scope
// (gofeed treats an xml:base as a directory: "http://h/a/b" resolves "c" to
// "http://h/a/b/c"). ReadFeed then resolves the result against base and
// normalizes it with urlnorm, as extract.Links does; items whose link is missing,
// not http(s) or rejected by the Normalizer are dropped.
//
// Bounds: at most MaxBytes bytes read (10 MiB by default) and MaxItems
// items (10,000), elements nested at most 256 deep and 100,000 elements.
// gofeed alone has no such bounds (10 MiB of <item/> costs it 1.5 GB of
// heap, and 2 million nested elements overflow its stack, which is fatal),
// so ReadFeed reads the input into memory first, checks it with a
// streaming encoding/xml pass, and hands gofeed only what fits: on
// reaching a bound it cuts the feed before the item being read, closes the
// open elements, and returns the items before the cut with Truncated set
// and an error wrapping ErrFeedTooLarge.
//
// The same pass repairs what gofeed handles badly: gofeed reads through
// encoding/xml's non-strict Token, which at a stray or mismatched end tag
// closes every open element, so gofeed would silently ignore the rest of
// the feed. ReadFeed drops end tags that match no open element and closes
// the elements left open inside one that does (an unclosed <br> or <p> in
// a description), so every item is read. A feed that is cut short or
// broken further on (a syntax error, an unexpected end of input) is cut
// before the item in which the fault lies, closed and read: its items
// before the fault are returned with an error wrapping ErrFeedSyntax, as
// ReadSitemap does.
//
// Errors: the returned *Feed is never nil and holds what could be read.
// Input gofeed cannot read at all (not a feed, JSON Feed) gives an empty
// Feed and an error wrapping ErrFeedSyntax. A failing reader gives its own
// error, wrapped, and an empty Feed.
//
// ReadFeed is safe for concurrent use; opts is only read.
func ReadFeed(r io.Reader, base *url.URL, opts *FeedOptions) (*Feed, error) {
	maxBytes, maxItems := int64(DefaultMaxFeedBytes), DefaultMaxFeedItems
	norm := (*urlnorm.Normalizer)(nil)
	if opts != nil {
		if opts.MaxBytes > 0 {
			maxBytes = opts.MaxBytes
		}
		if opts.MaxItems > 0 {
			maxItems = opts.MaxItems
		}
		norm = opts.Normalizer
	}
	if norm == nil {
		norm = urlnorm.New()
	}
	feed := &Feed{}

	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(r, maxBytes+1))
	if err != nil {
		return feed, fmt.Errorf("feeds: reading feed: %w", err)
	}
	in, over := buf.Bytes(), n > maxBytes
	if over {
		in = in[:maxBytes] // the extra byte was only to tell
	}
	in = filterControlChars(in)

	if first := firstNonSpace(in); first == '{' || first == '[' {
		return feed, fmt.Errorf("%w: JSON Feed is not read", ErrFeedSyntax)
	}
	in, problem := repairFeed(in, over, maxItems)
	tooLarge := errors.Is(problem, ErrFeedTooLarge)
	feed.Truncated = tooLarge

	f, err := gofeed.NewParser().Parse(bytes.NewReader(in))
	if err != nil {
		if problem != nil {
			return feed, fmt.Errorf("%w (and gofeed: %v)", problem, err)
		}
		return feed, fmt.Errorf("%w: %w", ErrFeedSyntax, err)
	}
	feed.Title = feedText(f.Title)
	for _, it := range f.Items {
		if it == nil {
			continue
		}
		if u, ok := itemURL(it, base, norm); ok {
			fi := Item{URL: u, Title: feedText(it.Title)}
			if it.PublishedParsed != nil {
				fi.Published = *it.PublishedParsed
			} else if it.UpdatedParsed != nil {
				fi.Published = *it.UpdatedParsed
			}
			feed.Items = append(feed.Items, fi)
		}
	}
	return feed, problem
}

// itemURL picks an item's link and resolves it.
func itemURL(it *gofeed.Item, base *url.URL, norm *urlnorm.Normalizer) (string, bool) {
	cands := make([]string, 0, 3)
	cands = append(cands, it.Link)
	if len(it.Links) > 0 {
		cands = append(cands, it.Links[0])
	}
	if u, err := url.Parse(strings.TrimSpace(it.GUID)); err == nil && u.IsAbs() {
		cands = append(cands, it.GUID)
	}
	for _, c := range cands {
		c = strings.TrimSpace(c)
		if c == "" || len(c) > maxFeedLinkLen {
			continue
		}
		if s, err := norm.ResolveString(base, c); err == nil {
			return s, true
		}
	}
	return "", false
}

// feedText collapses white space and bounds s at a UTF-8 boundary.
func feedText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= maxFeedTitleLen {
		return s
	}
	i := maxFeedTitleLen
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

// filterControlChars drops the C0 control characters XML forbids, as
// gofeed's own reader does, so that the check in boundFeed sees what
// gofeed will see.
func filterControlChars(b []byte) []byte {
	w := 0
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			continue
		}
		b[w] = c
		w++
	}
	return b[:w]
}

func firstNonSpace(b []byte) byte {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	for _, c := range b {
		if !isXMLSpace(c) {
			return c
		}
	}
	return 0
}

// repairFeed checks and repairs the feed's structure with a streaming
// encoding/xml pass (RawToken, non-strict, as gofeed reads), before gofeed
// sees it, and returns what gofeed should read:
//
//   - end tags are made to nest: one that matches no open element is
//     dropped, and one that closes an element with others still open
//     inside it gets their end tags inserted before it (gofeed, over
//     encoding/xml's non-strict Token, would otherwise close every open
//     element there and silently ignore the rest of the feed);
//   - at a bound (MaxBytes, when truncated says the input was cut there;
//     MaxItems; nesting; element count) the feed is cut before the item
//     being read, or before the offending token outside items, and the
//     open elements are closed; problem wraps ErrFeedTooLarge;
//   - at a syntax error or an unexpected end of input, likewise, and
//     problem wraps ErrFeedSyntax;
//   - the pass stops at the end of the root element; the rest is dropped,
//     as gofeed reads no further either.
func repairFeed(in []byte, truncated bool, maxItems int) (out []byte, problem error) {
	d := xml.NewDecoder(bytes.NewReader(in))
	d.Strict = false
	// Byte offsets must stay those of the input, and the markup of every
	// ASCII-compatible encoding is ASCII, so a declared encoding is read
	// with its non-ASCII bytes as 'x' (gofeed decodes it properly).
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return asciiMarkup{r}, nil }
	var (
		stack     []xml.Name // open elements, raw names
		copied    int64      // in[:copied] is in out (or dropped)
		items     int
		elements  int
		itemStart = -1 // in out, the position of the open item's start tag
		itemDepth int  // len(stack) outside it
	)
	out = make([]byte, 0, len(in)+64)
	flush := func(to int64) {
		out = append(out, in[copied:to]...)
		copied = to
	}
	closeAll := func(depth int) {
		for i := len(stack) - 1; i >= depth; i-- {
			out = append(out, "</"...)
			if n := stack[i]; n.Space != "" {
				out = append(out, n.Space...)
				out = append(out, ':')
			}
			out = append(out, stack[i].Local...)
			out = append(out, '>')
		}
		stack = stack[:depth]
	}
	// stop cuts the feed before the open item, else before the token at
	// tokStart, and closes what is open there.
	stop := func(tokStart int64, err error) ([]byte, error) {
		if itemStart >= 0 {
			out = out[:itemStart]
			stack = stack[:itemDepth]
		} else {
			flush(tokStart)
		}
		closeAll(0)
		return out, err
	}
	for {
		start := d.InputOffset()
		tok, err := d.RawToken()
		if err != nil {
			switch {
			case truncated:
				return stop(start, fmt.Errorf("%w: more than %d bytes", ErrFeedTooLarge, len(in)))
			case err == io.EOF && len(stack) == 0:
				return append(out, in[copied:start]...), nil // no root: gofeed says so
			case err == io.EOF:
				err = errors.New("unexpected end of input")
			}
			return stop(start, fmt.Errorf("%w: %w", ErrFeedSyntax, err))
		}
		switch t := tok.(type) {
		case xml.StartElement:
			elements++
			if elements > maxFeedElements {
				return stop(start, fmt.Errorf("%w: more than %d elements", ErrFeedTooLarge, maxFeedElements))
			}
			if len(stack) >= maxFeedDepth {
				return stop(start, fmt.Errorf("%w: elements nested deeper than %d", ErrFeedTooLarge, maxFeedDepth))
			}
			if itemStart < 0 && (strings.EqualFold(t.Name.Local, "item") || strings.EqualFold(t.Name.Local, "entry")) {
				items++
				if items > maxItems {
					return stop(start, fmt.Errorf("%w: more than %d items", ErrFeedTooLarge, maxItems))
				}
				flush(start)
				itemStart, itemDepth = len(out), len(stack)
			}
			stack = append(stack, t.Name)
		case xml.EndElement:
			i := len(stack) - 1
			for i >= 0 && stack[i] != t.Name {
				i--
			}
			flush(start)
			if i < 0 {
				copied = d.InputOffset() // a stray end tag: dropped
				continue
			}
			closeAll(i + 1)   // elements left open inside it
			stack = stack[:i] // and itself, copied with what follows
			if itemStart >= 0 && len(stack) <= itemDepth {
				itemStart = -1
			}
			if len(stack) == 0 {
				flush(d.InputOffset())
				return out, nil
			}
		}
	}
}

// asciiMarkup replaces the non-ASCII bytes it reads with 'x'.
type asciiMarkup struct{ r io.Reader }

func (a asciiMarkup) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	for i, c := range p[:n] {
		if c >= 0x80 {
			p[i] = 'x'
		}
	}
	return n, err
}
