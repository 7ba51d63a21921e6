package crawltest

import (
	"bytes"
	"compress/gzip"
	"html"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
)

var charsetNames = [...]string{"utf-8", "ISO-8859-1", "ISO-8859-1", "windows-1252", "windows-1252", "Shift_JIS", "Shift_JIS"}

func charsetEncoding(cs int) encoding.Encoding {
	switch cs {
	case csLatin1Header, csLatin1Meta:
		return charmap.ISO8859_1
	case cs1252Header, cs1252Meta:
		return charmap.Windows1252
	case csSJISHeader, csSJISMeta:
		return japanese.ShiftJIS
	}
	return nil
}

func charsetInHeader(cs int) bool {
	return cs == csUTF8 || cs == csLatin1Header || cs == cs1252Header || cs == csSJISHeader
}

// contentType returns the Content-Type header of a page.
func contentType(c pg) string {
	if charsetInHeader(c.charset) {
		return "text/html; charset=" + charsetNames[c.charset]
	}
	return "text/html"
}

// htmlw writes HTML, well formed or (for malformed pages) not.
type htmlw struct {
	b   *bytes.Buffer
	bad bool
}

func (h *htmlw) s(s string) { h.b.WriteString(s) }

func (h *htmlw) text(s string) {
	if strings.ContainsAny(s, "<>&'\"") {
		s = html.EscapeString(s)
	}
	h.b.WriteString(s)
}

// attr writes ` name="value"`, or a malformed variant.
func (h *htmlw) attr(name, value string) {
	h.b.WriteByte(' ')
	switch {
	case !h.bad:
		h.b.WriteString(name)
		h.b.WriteString(`="`)
		h.text(value)
		h.b.WriteByte('"')
	case len(value)%3 == 0 && !strings.ContainsAny(value, "'\"<>=` &"):
		h.b.WriteString(strings.ToUpper(name))
		h.b.WriteByte('=')
		h.b.WriteString(value)
	case len(value)%3 == 1:
		h.b.WriteString(name)
		h.b.WriteString(" = '")
		h.text(value)
		h.b.WriteByte('\'')
	default:
		h.b.WriteString(name)
		h.b.WriteString(`="`)
		h.text(value)
		h.b.WriteByte('"')
	}
}

func (h *htmlw) link(l link) {
	switch l.tag {
	case tagArea:
		h.s(`<area shape="rect" coords="0,0,40,40"`)
		h.attr("href", l.href)
		h.attr("alt", l.text)
		h.s(">")
		return
	case tagIframe:
		h.s("<iframe")
		h.attr("src", l.href)
		h.attr("title", l.text)
		h.s("></iframe>")
		return
	case tagFrame:
		h.s("<frame")
		h.attr("src", l.href)
		h.s(">")
		return
	}
	if h.bad && len(l.text)%2 == 0 {
		h.s("<A")
	} else {
		h.s("<a")
	}
	h.attr("href", l.href)
	if l.nofollow {
		h.attr("rel", "nofollow")
	}
	h.s(">")
	h.text(l.text)
	h.s("</a>")
}

// render returns the bytes d serves.
func (w *Web) render(d *doc) []byte {
	var buf bytes.Buffer
	return bytes.Clone(w.renderTo(&buf, d))
}

// renderTo renders d into buf and returns the bytes it serves, which may be
// buf's. Everything but the links of a session-id trap page is drawn from
// d.c, so exact copies are byte-identical.
func (w *Web) renderTo(buf *bytes.Buffer, d *doc) []byte {
	c := d.c
	host := &w.hosts[d.p.host]
	hw := &htmlw{b: buf, bad: c.malformed}
	hw.b.Grow(12 << 10)
	title := w.title(c.host, c.id)
	if c.frameset {
		hw.s(`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Frameset//EN" "http://www.w3.org/TR/html4/frameset.dtd">` + "\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>")
		hw.text(title)
		hw.s("</title>\n")
		metaRobots(hw, c)
		w.baseTag(hw, c)
		hw.s("</head>\n<frameset cols=\"25%,75%\">\n")
		for _, l := range d.frames {
			hw.link(l)
			hw.s("\n")
		}
		hw.s("<noframes>This page uses frames.</noframes>\n</frameset>\n</html>\n")
		return hw.b.Bytes()
	}
	hw.s("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n")
	switch c.charset {
	case csUTF8:
		hw.s("<meta charset=\"utf-8\">\n")
	case csLatin1Meta, cs1252Meta:
		hw.s("<meta charset=\"" + charsetNames[c.charset] + "\">\n")
	case csSJISMeta:
		hw.s("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=Shift_JIS\">\n")
	}
	hw.s("<title>")
	hw.text(title + " | " + host.name)
	hw.s("</title>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	hw.s("<meta name=\"description\" content=\"" + html.EscapeString(title) + "\">\n")
	metaRobots(hw, c)
	w.baseTag(hw, c)
	if c.id == 0 && host.feeds {
		hw.s("<link rel=\"alternate\" type=\"application/rss+xml\" title=\"RSS\" href=\"/feed.rss\">\n")
		hw.s("<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Atom\" href=\"/feed.atom\">\n")
	}
	hw.s("</head>\n<body>\n")
	if hw.bad {
		hw.s("<!-- old menu: <a href=\"/old-menu/removed.html\">removed</a> -->\n</div>\n")
	}
	hw.s("<header id=\"top\"><div class=\"logo\">")
	hw.text(host.name)
	hw.s("</div>\n<nav><ul>\n")
	for _, l := range d.nav {
		hw.s("<li>")
		hw.link(l)
		if !hw.bad {
			hw.s("</li>")
		}
		hw.s("\n")
	}
	hw.s("</ul></nav></header>\n<main>\n<article>\n<h1>")
	hw.text(title)
	hw.s("</h1>\n")
	// The byline's clock and the view counter differ between near
	// duplicates; the article text does not.
	ts := w.origin().Add(-time.Duration(w.hash(saltBoiler, c.host, c.id, 9)%(90*24*3600)) * time.Second).UTC()
	hw.s("<p class=\"byline\">Posted <time datetime=\"" + ts.Format(time.RFC3339) + "\">" + ts.Format("2 Jan 2006 15:04") + "</time> &middot; " +
		strconv.FormatUint(w.hash(saltBoiler, c.host, c.id, 10)%100000, 10) + " views</p>\n")
	w.article(hw, d)
	hw.s("</article>\n<aside class=\"sidebar\">\n<h2>Read next</h2>\n<ul>\n")
	for _, l := range d.side {
		hw.s("<li>")
		hw.link(l)
		hw.s("</li>\n")
	}
	hw.s("</ul>\n")
	ar := w.rng(saltBoiler, c.host, c.id, 11)
	hw.s("<div class=\"ad\">Advertisement: ")
	for range 6 {
		hw.s(commonWords[ar.IntN(len(commonWords))] + " ")
	}
	hw.s("</div>\n</aside>\n</main>\n<footer>\n<ul>\n")
	var areas []link
	for _, l := range d.foot {
		if l.tag == tagArea {
			areas = append(areas, l)
			continue
		}
		hw.s("<li>")
		hw.link(l)
		hw.s("</li>\n")
	}
	hw.s("</ul>\n")
	if len(areas) > 0 {
		hw.s("<img src=\"/static/map.png\" usemap=\"#sitemap\" alt=\"map\">\n<map name=\"sitemap\">\n")
		for _, l := range areas {
			hw.link(l)
			hw.s("\n")
		}
		hw.s("</map>\n")
	}
	hw.s("<p>(c) 2026 ")
	hw.text(host.name)
	hw.s("</p>\n</footer>\n")
	if !hw.bad {
		hw.s("</body>\n</html>\n")
	}
	out := hw.b.Bytes()
	if enc := charsetEncoding(c.charset); enc != nil {
		b, err := encoding.ReplaceUnsupported(enc.NewEncoder()).Bytes(out)
		if err == nil {
			return b
		}
	}
	return out
}

// baseTag writes the <base> of c, if any, root-relative or absolute.
func (w *Web) baseTag(hw *htmlw, c pg) {
	if c.base == "" {
		return
	}
	hw.s("<base href=\"")
	if c.id%2 == 0 {
		hw.s("http://" + w.hosts[c.host].authority)
	}
	hw.s(c.base + "\">\n")
}

func metaRobots(hw *htmlw, c pg) {
	if c.noIndex || c.noFollow {
		var v []string
		if c.noIndex {
			v = append(v, "noindex")
		}
		if c.noFollow {
			v = append(v, "nofollow")
		}
		hw.s("<meta name=\"robots\" content=\"" + strings.Join(v, ", ") + "\">\n")
	}
}

var legacyText = [...]string{
	csLatin1Header: "Caf\u00e9 cr\u00e8me, na\u00efve fa\u00e7ade, Gr\u00f6\u00dfe \u00fcber alles, \u00bfQu\u00e9 tal?",
	csLatin1Meta:   "Sm\u00f6rg\u00e5sbord, cr\u00e8me br\u00fbl\u00e9e, \u00e0 la carte, se\u00f1or.",
	cs1252Header:   "\u201cSmart quotes\u201d \u2013 en dash, \u20ac euro, \u2026 ellipsis, \u0153uvre.",
	cs1252Meta:     "\u2018Single\u2019 quotes \u2014 em dash, \u2122 trade mark, \u20ac 5.",
	csSJISHeader:   "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3001\u6771\u4eac\u3002",
	csSJISMeta:     "\u3053\u3093\u306b\u3061\u306f\u3001\u4e16\u754c\u3002\u30ab\u30bf\u30ab\u30ca\u3002",
}

// article writes the article body: text drawn from the content source (the
// original of a near duplicate) with the inline links spread through it.
func (w *Web) article(hw *htmlw, d *doc) {
	src := d.c
	if d.c.nearOf >= 0 {
		src = w.page(d.c.host, d.c.nearOf)
	}
	r := w.rng(saltArticle, src.host, src.id, 1)
	paras := 4 + r.IntN(5)
	links := d.article
	if d.version > 0 {
		vr := w.rng(saltChange, src.host, src.id, 100+d.version)
		hw.s("<p class=\"update\">Updated (revision " + strconv.Itoa(d.version) + "): ")
		sentence(vr, src.topic, hw.b)
		hw.s("</p>\n")
	}
	for i := range paras {
		hw.s("<p>")
		if i == 1 && hw.bad {
			hw.s("<b><i>")
		}
		for range 3 + r.IntN(4) {
			sentence(r, src.topic, hw.b) // plain words: nothing to escape
			if len(links) > 0 && r.IntN(2) == 0 {
				hw.link(links[0])
				hw.s(" ")
				links = links[1:]
			}
		}
		if i == 1 && hw.bad {
			hw.s("</b></i>")
		}
		if i == 2 {
			if t := legacyText[d.c.charset]; d.c.charset != csUTF8 {
				hw.s(t)
			} else if d.c.badUTF8 {
				hw.s("Broken bytes: \xff\xfe caf\xe9 \xe2\x82 end.")
			}
		}
		if !hw.bad {
			hw.s("</p>")
		}
		hw.s("\n")
	}
	if len(links) > 0 {
		hw.s("<p>See also: ")
		for _, l := range links {
			hw.link(l)
			hw.s(" ")
		}
		hw.s("</p>\n")
	}
}

// etag returns the entity tag of a page's bytes.
func (w *Web) etag(d *doc) string {
	x := w.hash(saltChange, d.c.host, d.c.id, 1000+d.version)
	return `"` + strconv.FormatUint(x, 16) + `"`
}

// sitemapURLs returns the URLs a host's sitemaps list: every page that is
// not hidden, in id order.
func (w *Web) sitemapURLs(h int) []int {
	var ids []int
	for id := range w.opts.PagesPerHost {
		if hidden, _ := w.light(h, id); !hidden {
			ids = append(ids, id)
		}
	}
	return ids
}

func (w *Web) urlset(h int, ids []int, now time.Time) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, id := range ids {
		p := w.page(h, id)
		_, lm := w.version(w.changeSource(p), now)
		b.WriteString("  <url><loc>" + w.pageURL(h, id) + "</loc><lastmod>" + lm.UTC().Format(time.RFC3339) + "</lastmod>")
		if p.rate > 0 {
			b.WriteString("<changefreq>hourly</changefreq>")
		}
		b.WriteString("</url>\n")
	}
	b.WriteString("</urlset>\n")
	return []byte(b.String())
}

func (w *Web) sitemapIndexXML(h int) []byte {
	a := "http://" + w.hosts[h].authority
	return []byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n" +
		"  <sitemap><loc>" + a + "/sitemaps/pages-1.xml</loc></sitemap>\n" +
		"  <sitemap><loc>" + a + "/sitemaps/pages-2.xml.gz</loc></sitemap>\n" +
		"</sitemapindex>\n")
}

func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// feedItems returns the newest (highest id) visible pages of a host.
func (w *Web) feedItems(h int) []int {
	var ids []int
	for id := w.opts.PagesPerHost - 1; id > 0 && len(ids) < 10; id-- {
		if hidden, _ := w.light(h, id); !hidden {
			ids = append(ids, id)
		}
	}
	return ids
}

func (w *Web) rss(h int, now time.Time) []byte {
	host := &w.hosts[h]
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<rss version=\"2.0\">\n<channel>\n<title>" + host.name +
		"</title>\n<link>http://" + host.authority + "/</link>\n<description>News from " + host.name + "</description>\n")
	for _, id := range w.feedItems(h) {
		_, lm := w.version(w.changeSource(w.page(h, id)), now)
		u := w.pageURL(h, id)
		b.WriteString("<item><title>" + html.EscapeString(w.title(h, id)) + "</title><link>" + u + "</link><guid>" + u +
			"</guid><pubDate>" + lm.UTC().Format(time.RFC1123Z) + "</pubDate></item>\n")
	}
	b.WriteString("</channel>\n</rss>\n")
	return []byte(b.String())
}

func (w *Web) atom(h int, now time.Time) []byte {
	host := &w.hosts[h]
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<title>" + host.name +
		"</title>\n<id>http://" + host.authority + "/</id>\n<link href=\"http://" + host.authority + "/\"/>\n")
	var updated time.Time
	for _, id := range w.feedItems(h) {
		if _, lm := w.version(w.changeSource(w.page(h, id)), now); lm.After(updated) {
			updated = lm
		}
	}
	b.WriteString("<updated>" + updated.UTC().Format(time.RFC3339) + "</updated>\n")
	for _, id := range w.feedItems(h) {
		_, lm := w.version(w.changeSource(w.page(h, id)), now)
		u := w.pageURL(h, id)
		b.WriteString("<entry><title>" + html.EscapeString(w.title(h, id)) + "</title><link href=\"" + u + "\"/><id>" + u +
			"</id><updated>" + lm.UTC().Format(time.RFC3339) + "</updated></entry>\n")
	}
	b.WriteString("</feed>\n")
	return []byte(b.String())
}

// pageURL is the normalized URL of page (h, id).
func (w *Web) pageURL(h, id int) string {
	return "http://" + w.hosts[h].authority + w.pagePath(h, id)
}

// smallPage is the body of fault pages that answer 200.
func smallPage(title string) []byte {
	return []byte("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + title +
		"</title></head><body><h1>" + title + "</h1><p><a href=\"/\">Home</a></p></body></html>\n")
}
