package trawl

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/maintext"
)

// handle is the loop's third stage: it reads the response. A 304 ends the
// visit (the copy is current), a redirect queues its target and ends it;
// any other answer becomes a Page, with the references, text and signals
// its body and header hold. A revisit that found the page unchanged ends
// here too.
func (c *Crawler) handle(ctx context.Context, v *visit) step {
	resp := v.resp
	switch {
	case resp.NotModified:
		c.rc.visited(v, &v.out)
		return step{done: true}
	case resp.Status >= 300 && resp.Status < 400:
		s := c.redirect(ctx, v)
		c.rc.visited(v, &v.out)
		return s
	}
	v.page = c.newPage(ctx, v)
	add(&c.stats.live.Fetch.Bytes, int64(len(resp.Body)))
	if resp.Truncated {
		add(&c.stats.live.Fetch.Truncated, 1)
	}
	again := revisit(v.hist)
	if changed := c.rc.visited(v, &v.out); again && !changed {
		return step{done: true} // unchanged: nothing to store or follow
	}
	return step{}
}

// redirect queues a redirect's target at the same depth, counting hops;
// the metadata follows the redirect.
func (c *Crawler) redirect(ctx context.Context, v *visit) step {
	req, resp := &v.req, v.resp
	if resp.Location == nil {
		err := fmt.Errorf("trawl: %d without a valid Location", resp.Status)
		return end(failure(req.URL, "redirect", err), err)
	}
	if req.Redirects >= maxRedirects {
		err := fmt.Errorf("trawl: more than %d redirects", maxRedirects)
		return end(failure(req.URL, "redirect", err), err)
	}
	target, err := c.norm.Normalize(resp.Location.String())
	if err != nil {
		err = fmt.Errorf("trawl: redirect to %s: %w", clip(resp.Location.String(), 256), err)
		return end(failure(req.URL, "redirect", err), err)
	}
	if !c.follows.has(extract.Redirect) {
		return end(Decision{URL: target, Outcome: DecisionNotFollowed, Reason: ReasonKind, Kind: extract.Redirect,
			Referrer: req.URL, Depth: req.Depth}, nil)
	}
	add(&c.stats.live.Fetch.Redirects, 1)
	data := urlData{meta: v.data.meta}
	enc, _ := data.encode() // it fitted before
	r := frontier.Request{
		URL: target, Depth: req.Depth, Referrer: req.URL, Anchor: req.Anchor, Redirects: req.Redirects + 1, Data: enc,
	}
	if c.opic != nil { // the target gets the whole cash: it is the page
		r.Priority, v.spent = v.cash, true
	}
	c.offer(ctx, []frontier.Request{r})
	return step{done: true}
}

// newPage builds the Page for a response other than a redirect or a 304:
// references and page signals from HTML, references from CSS, sitemaps and
// feeds, and from the response's headers.
func (c *Crawler) newPage(ctx context.Context, v *visit) *Page {
	req, resp := &v.req, v.resp
	p := &Page{
		URL: v.u, Depth: req.Depth, Referrer: req.Referrer, Anchor: req.Anchor,
		Status: resp.Status, Header: resp.Header, ContentType: resp.ContentType,
		Charset: resp.Charset, Body: resp.Body, Truncated: resp.Truncated,
		Fetched: time.Now(), Duration: resp.Duration, ETag: resp.ETag, Modified: resp.LastModified,
		Meta: v.data.meta, Sitemap: v.data.info, redirects: req.Redirects,
		Importance: v.importance,
	}
	v.page = p
	hdr := extract.RobotsFromHeader(resp.Header, c.botName)
	p.NoIndex, p.NoFollow = hdr.NoIndex, hdr.NoFollow
	switch {
	case v.data.sitemap > 0:
		c.readSitemap(ctx, v, v.data.sitemap == 2)
	case resp.ContentType == "text/css":
		p.Links = extract.CSSLinks(resp.Body, v.u, c.xopts)
	case c.xopts.Scripts && slices.Contains(jsTypes, resp.ContentType):
		p.Links = extract.ScriptLinks(resp.Body, v.u, c.xopts)
	case resp.ContentType != "text/html" && resp.ContentType != "application/xhtml+xml":
		switch root := xmlRoot(resp.Body); {
		case isGzip(resp.Body) || root == "urlset" || root == "sitemapindex":
			c.readSitemap(ctx, v, false)
		case root == "rss" || root == "feed" || root == "RDF":
			c.readFeed(ctx, v)
		}
	default:
		c.readHTML(ctx, p)
	}
	if hl := extract.HeaderLinks(resp.Header, resp.Status, v.u, c.xopts); len(hl) > 0 {
		p.Links = append(p.Links, hl...)
	}
	return p
}

// readHTML fills p from its HTML body: links, title, language, canonical
// URL, meta robots, visible text, and the main text when it is asked for.
func (c *Crawler) readHTML(ctx context.Context, p *Page) {
	doc, err := extract.Links(bytes.NewReader(p.Body), p.URL, c.xopts)
	if err != nil {
		c.log.Info("extract failed", "url", p.URL, "err", err)
	}
	if doc != nil {
		p.Title, p.Lang, p.Canonical, p.Links, p.Text = doc.Title, doc.Lang, doc.Canonical, doc.Links, doc.Text
		p.NoIndex = p.NoIndex || doc.Robots.NoIndex
		p.NoFollow = p.NoFollow || doc.Robots.NoFollow
	}
	fn := c.cfg.mainText
	if fn == nil && c.cfg.dups != nil {
		fn = MainText
	}
	if fn != nil {
		text, err := fn(ctx, p)
		if err != nil {
			c.log.Info("main text failed", "url", p.URL, "err", err)
		}
		p.MainText = text
	}
}

// MainText is the default MainTextFunc (see WithMainText): the main content
// of p's HTML body as maintext.Extract finds it.
func MainText(_ context.Context, p *Page) (string, error) {
	return maintext.Extract(bytes.NewReader(p.Body))
}

// MainTextMarkdown is a MainTextFunc that renders the same main content
// as Markdown (maintext.ExtractMarkdown: headings, lists, tables, code
// fences, links), for search indexes and language models:
// WithMainText(MainTextMarkdown) puts it in Page.MainText and the JSONL
// record's main_text.
func MainTextMarkdown(_ context.Context, p *Page) (string, error) {
	return maintext.ExtractMarkdown(bytes.NewReader(p.Body))
}
