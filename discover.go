package trawl

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/feeds"
	"github.com/trawl-dev/trawl/frontier"
)

// DefaultFollow lists the kinds of reference a crawl follows unless
// WithFollow says otherwise: links between documents (navigation, frames,
// redirects by meta refresh or header, GET forms' action URLs) and the
// discovery documents a site announces (sitemaps, feeds). Embedded
// resources (images, scripts, style sheets, media), ping beacons and
// inferred URLs (speculative: URL-looking text; script: URLs a static
// reading of JavaScript finds) are not followed; WithArchive adds them.
var defaultFollow = []extract.Kind{
	extract.Navigation, extract.Frame, extract.Redirect, extract.Form, extract.Sitemap, extract.Feed,
}

// archiveFollow are the kinds WithArchive adds to those followed.
var archiveFollow = []extract.Kind{extract.Embed, extract.Style, extract.Ping, extract.Speculative, extract.Script}

// DefaultFollow returns the kinds followed by default (see WithFollow).
func DefaultFollow() []extract.Kind { return append([]extract.Kind(nil), defaultFollow...) }

// WithFollow sets the kinds of reference the crawler follows (see
// extract.Kind): links of other kinds are found, and reach Events.OnPage
// and the Store in Page.Links, but are not queued. The inferred kinds
// are the exception: URLs of kind extract.Speculative (URL-looking strings
// in page text, comments, the DOCTYPE, meta content, param values,
// lazy-loading attributes, noscript, the base href) and extract.Script
// (URLs in inline scripts, on* handlers, javascript: URLs and, when
// fetched, .js files, read statically, never run) are looked for only
// when followed, since the looking costs. Robots.txt, the trap rules and
// every Filter apply to every kind; requests are GETs whatever a script
// says (the URL a script POSTs to is not even reported). Default:
// DefaultFollow() (navigation, frame, redirect, form, sitemap, feed);
// WithArchive adds embed, style, ping, speculative and script.
func WithFollow(kinds ...extract.Kind) Option {
	kinds = append([]extract.Kind(nil), kinds...)
	return func(c *config) { c.follow, c.followSet = kinds, true }
}

// WithArchive makes the crawl an archive crawl: besides what WithFollow
// follows, it fetches and stores the resources pages embed (images, style
// sheets, scripts, media, fonts: kinds embed and style), ping targets
// (with a GET, not the POST a browser sends), and the URLs inferred from
// text and scripts (kinds speculative and script), under the same
// politeness, robots.txt and filters, accepting every media type. Bodies
// other than HTML, CSS, JavaScript, sitemaps and feeds are stored as
// served and not parsed for links; style sheets are parsed for url() and
// @import, scripts read for the URLs they name (extract.ScriptLinks,
// resolved against the script's own URL). Default false.
func WithArchive(on bool) Option { return func(c *config) { c.archive = on } }

// kindSet is a set of extract.Kind values.
type kindSet uint32

func (s kindSet) has(k extract.Kind) bool { return k < 32 && s&(1<<k) != 0 }

func newKindSet(kinds []extract.Kind) kindSet {
	var s kindSet
	for _, k := range kinds {
		if k < 32 {
			s |= 1 << k
		}
	}
	return s
}

// SitemapInfo is what a sitemap said about a URL: its <lastmod> (to the
// second, in UTC), <changefreq> (one of the protocol's words, "" when
// absent) and <priority> (to a thousandth; < 0 when absent).
type SitemapInfo struct {
	LastMod    time.Time
	ChangeFreq string
	Priority   float64
}

// xmlRoot returns the local name of the root element of an XML document
// ("urlset", "sitemapindex", "rss", "feed", "RDF"), or "" when body does not
// start like XML. It looks at the first 2 KiB only.
func xmlRoot(body []byte) string {
	b := body[:min(len(body), 2048)]
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	for {
		b = bytes.TrimLeft(b, " \t\r\n")
		if len(b) < 2 || b[0] != '<' {
			return ""
		}
		switch {
		case b[1] == '?': // declaration or processing instruction
			i := bytes.Index(b, []byte("?>"))
			if i < 0 {
				return ""
			}
			b = b[i+2:]
		case bytes.HasPrefix(b, []byte("<!--")):
			i := bytes.Index(b, []byte("-->"))
			if i < 0 {
				return ""
			}
			b = b[i+3:]
		case b[1] == '!': // DOCTYPE, perhaps with an internal subset [...]
			end := bytes.IndexAny(b, "[>")
			if end >= 0 && b[end] == '[' {
				sub := bytes.IndexByte(b[end:], ']')
				if sub < 0 {
					return ""
				}
				end += sub
				gt := bytes.IndexByte(b[end:], '>')
				if gt < 0 {
					return ""
				}
				end += gt
			}
			if end < 0 {
				return ""
			}
			b = b[end+1:]
		default:
			name := b[1:]
			end := 0
			for end < len(name) && xmlNameByte(name[end], end == 0) {
				end++
			}
			if end == 0 || end == len(name) || !bytes.ContainsRune([]byte(" \t\r\n/>"), rune(name[end])) {
				return "" // not an XML name, or not one that ends
			}
			name = name[:end]
			if i := bytes.IndexByte(name, ':'); i >= 0 {
				name = name[i+1:]
			}
			return string(name)
		}
	}
}

// xmlNameByte reports whether c may stand in an XML name (at its start
// when first): ASCII letters, '_', ':', and past the start digits, '-' and
// '.'; every byte of a UTF-8 sequence beyond ASCII is taken as a name byte.
func xmlNameByte(c byte, first bool) bool {
	switch {
	case c >= 0x80, c == '_', c == ':', c|0x20 >= 'a' && c|0x20 <= 'z':
		return true
	case first:
		return false
	}
	return c >= '0' && c <= '9' || c == '-' || c == '.'
}

// isGzip reports whether body starts with the gzip magic bytes.
func isGzip(body []byte) bool { return len(body) >= 2 && body[0] == 0x1f && body[1] == 0x8b }

// acceptTypes returns the media types the default fetcher accepts for the
// kinds followed: fetch's defaults (HTML, XHTML, XML, plain text), feeds'
// and gzipped sitemaps' types when those are followed, CSS with style
// sheets, JavaScript with script URLs, and everything in an archive crawl.
func acceptTypes(follows kindSet, archive bool) []string {
	types := []string{"text/html", "application/xhtml+xml", "application/xml", "text/xml", "text/plain"}
	if follows.has(extract.Feed) {
		types = append(types, "application/rss+xml", "application/atom+xml", "application/rdf+xml", "application/feed+xml")
	}
	if follows.has(extract.Sitemap) {
		types = append(types, "application/gzip", "application/x-gzip")
	}
	if follows.has(extract.Style) {
		types = append(types, "text/css")
	}
	if follows.has(extract.Script) {
		types = append(types, jsTypes...)
	}
	if archive {
		types = append(types, "*/*")
	}
	return types
}

// jsTypes are the media types of JavaScript: the standard one and those
// servers still send (RFC 9239).
var jsTypes = []string{"text/javascript", "application/javascript", "application/x-javascript", "application/ecmascript", "text/ecmascript"}

// maxRobotsSitemaps bounds the Sitemap lines of one robots.txt that are
// queued.
const maxRobotsSitemaps = 1000

// offerSitemaps queues the sitemaps a host's robots.txt names, or the
// host's /sitemap.xml when it names none, at depth.
func (c *Crawler) offerSitemaps(ctx context.Context, u *url.URL, lines []string, depth int) {
	guessed := len(lines) == 0
	if guessed {
		lines = []string{u.Scheme + "://" + u.Host + "/sitemap.xml"}
	}
	var reqs []frontier.Request
	// The robots.txt of u's host speaks for the whole host: its sitemaps
	// may list any URL of it, wherever they are (sitemaps.org).
	data, _ := (&urlData{sitemap: 1, scope: originKey(u), guessed: guessed}).encode()
	for _, raw := range lines[:min(len(lines), maxRobotsSitemaps)] {
		n, err := c.norm.Normalize(raw)
		if err != nil {
			continue
		}
		reqs = append(reqs, frontier.Request{URL: n, Depth: depth, Referrer: u.Scheme + "://" + u.Host + "/robots.txt",
			Anchor: "sitemap", Data: data})
	}
	c.offer(ctx, reqs)
}

// readSitemap reads p's body as a sitemap (XML urlset or index, gzipped
// or not, or plain text) into p.Links: page URLs as navigation links,
// index entries as sitemap links (unless p itself came from an index:
// indexes do not nest). What a sitemap says of a URL goes into
// p.listed, to travel with the URL when it is queued (urlData). A
// malformed or oversized sitemap gives what could be read and one error.
func (c *Crawler) readSitemap(ctx context.Context, v *visit, fromIndex bool) {
	p := v.page
	sm, err := feeds.ReadSitemap(bytes.NewReader(p.Body), nil)
	if err != nil {
		v.note(failure(p.URL.String(), "sitemap", nil), fmt.Errorf("trawl: sitemap %s: %w", p.URL, err))
	}
	if sm == nil {
		return
	}
	if fromIndex && len(sm.Sitemaps) > 0 {
		// sitemaps.org: an index lists sitemaps, not other indexes.
		// Following them would let a site nest indexes as deep as the
		// hop limit, 50,000 entries a level.
		v.note(failure(p.URL.String(), "sitemap", nil),
			fmt.Errorf("trawl: sitemap %s: a sitemap index listed by another index; its %d entries are not followed", p.URL, len(sm.Sitemaps)))
		sm.Sitemaps = nil
	}
	add(&c.stats.live.Found.Sitemaps, 1)
	add(&c.stats.live.Found.SitemapURLs, int64(len(sm.URLs)+len(sm.Sitemaps)))
	links := make([]extract.Link, 0, len(sm.URLs)+len(sm.Sitemaps))
	scope := newSitemapScope(p.URL, v.data.scope)
	outside := 0
	for _, e := range sm.Sitemaps {
		if n, err := c.norm.Normalize(e.Loc); err == nil {
			if !scope.holds(n) {
				outside++
				continue
			}
			links = append(links, extract.Link{URL: n, Tag: "sitemap", Kind: extract.Sitemap})
		}
	}
	for _, e := range sm.URLs {
		n, err := c.norm.Normalize(e.Loc)
		if err != nil {
			continue
		}
		if !scope.holds(n) {
			outside++
			continue
		}
		links = append(links, extract.Link{URL: n, Tag: "sitemap", Kind: extract.Navigation})
		if !e.LastMod.IsZero() || e.ChangeFreq != "" || e.HasPriority {
			in := SitemapInfo{LastMod: e.LastMod, ChangeFreq: e.ChangeFreq, Priority: -1}
			if e.HasPriority {
				in.Priority = e.Priority
			}
			if p.listed == nil {
				p.listed = make(map[string]*SitemapInfo)
			}
			p.listed[n] = &in
		}
	}
	p.Links = links
	if outside > 0 {
		v.note(failure(p.URL.String(), "sitemap-scope", nil), fmt.Errorf("trawl: sitemap %s: %d entries outside its scope "+
			"(its own directory, or the host whose robots.txt named it) ignored", p.URL, outside))
	}
}

// sitemapScope is what a sitemap may speak for (sitemaps.org, "Sitemap file
// location"): the URLs under its own directory on its own origin, and,
// when a host's robots.txt named it, every URL of that host.
type sitemapScope struct {
	origin, dir string // the sitemap's own origin and directory ("/a/")
	host        string // the origin of the robots.txt that named it, or ""
}

func newSitemapScope(sitemap *url.URL, robotsOrigin string) sitemapScope {
	dir := sitemap.EscapedPath()
	dir = dir[:strings.LastIndexByte(dir, '/')+1]
	return sitemapScope{origin: originKey(sitemap), dir: dir, host: robotsOrigin}
}

// holds reports whether the sitemap may list rawURL (absolute,
// normalized).
func (s sitemapScope) holds(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	o := originKey(u)
	if s.host != "" && o == s.host {
		return true
	}
	return o == s.origin && strings.HasPrefix(u.EscapedPath(), s.dir)
}

// readFeed reads p's body as an RSS or Atom feed into p.Links: its items'
// links, as navigation links with the item titles as text.
func (c *Crawler) readFeed(ctx context.Context, v *visit) {
	p := v.page
	f, err := feeds.ReadFeed(bytes.NewReader(p.Body), p.URL, nil)
	if err != nil {
		v.note(failure(p.URL.String(), "feed", nil), fmt.Errorf("trawl: feed %s: %w", p.URL, err))
	}
	if f == nil {
		return
	}
	add(&c.stats.live.Found.Feeds, 1)
	p.Title = f.Title
	for _, it := range f.Items {
		if n, err := c.norm.Normalize(it.URL); err == nil {
			p.Links = append(p.Links, extract.Link{URL: n, Text: it.Title, Tag: "feed", Kind: extract.Navigation})
		}
	}
}
