package crawltest

import (
	"sort"
	"strings"
	"time"
)

// locate returns the host and the path with query of a URL of the web.
func (w *Web) locate(rawURL string) (h int, pathQuery string, ok bool) {
	n, ok := normalizeURL(rawURL)
	if !ok {
		return 0, "", false
	}
	rest := n[strings.Index(n, "://")+3:]
	slash := strings.IndexByte(rest, '/')
	authority, pq := rest[:slash], rest[slash:]
	h, ok = w.byName[authority]
	if !ok {
		if i := strings.LastIndexByte(authority, ':'); i >= 0 && !strings.HasPrefix(authority, "127.") {
			h, ok = w.byName[authority[:i]]
		}
	}
	return h, pq, ok
}

// locatePage returns the host and id of an ordinary page.
func (w *Web) locatePage(rawURL string) (h, id int, ok bool) {
	h, pq, ok := w.locate(rawURL)
	if !ok || strings.Contains(pq, "?") {
		return 0, 0, false
	}
	id, ok = w.pageID(h, pq)
	return h, id, ok
}

// Disallowed reports whether the robots.txt that rawURL's host serves
// disallows rawURL for userAgent. A group applies when userAgent starts
// with its name, case-insensitively (the longest such name wins; otherwise
// the "*" group): for the names the web uses ("*", "evilbot", "badbot") and
// a userAgent such as "evilbot/1.0 (+https://example.com/bot)" this is the
// product-token match of RFC 9309 §2.2.1. Within a group the
// longest matching pattern decides and Allow wins ties. A robots.txt
// answered 404 allows everything, one answered 500 disallows everything
// (RFC 9309 §2.3.1), a redirected or huge one holds the host's ordinary
// rules. robots.txt itself and URLs of other hosts are never disallowed.
func (w *Web) Disallowed(userAgent, rawURL string) bool {
	h, pq, ok := w.locate(rawURL)
	if !ok {
		return false
	}
	return w.hosts[h].disallowed(userAgent, pq)
}

type reachability struct {
	urls   []string
	depths map[string]int
}

// Reachable returns, sorted, the normalized URLs of the ordinary HTML pages
// that a polite crawler reaches from Seeds. Such a crawler
//   - obeys the robots.txt its hosts serve, for userAgent (see Disallowed),
//     and does not fetch disallowed pages (they are not in the set);
//   - follows the href of <a> and <area> and the src of <frame> and
//     <iframe>, resolved against the page URL or its <base href>;
//   - does not follow links with rel="nofollow", nor any link of a page
//     whose <meta name="robots"> or X-Robots-Tag header says nofollow or
//     none (it does fetch noindex pages and follows their links);
//   - stays on the web's hosts (links to other hosts, mailto: and
//     javascript: are not followed).
//
// The set holds only ordinary pages: not robots.txt, sitemaps, feeds,
// the trap and fault URLs (FaultURLs) and what they lead to, or the link
// constructs (ConstructURLs); so it is the same finite set whatever Faults
// are switched on and whether LinkConstructs is on. Every page it holds
// is also listed in its host's sitemap, and a polite crawler that reads
// sitemaps finds no other allowed page there. URLs are normalized: lower
// case host, no default port, no fragment, no dot segments, no empty
// query, unreserved escapes decoded.
//
// It is computed by a breadth-first walk over the generator, not over
// HTTP (tens of microseconds per page), once per userAgent, and cached.
func (w *Web) Reachable(userAgent string) []string {
	return w.reachable(userAgent).urls
}

// Depths returns the depth of each URL of Reachable(userAgent): its
// shortest link distance from a seed, seeds having depth 1.
func (w *Web) Depths(userAgent string) map[string]int {
	r := w.reachable(userAgent)
	m := make(map[string]int, len(r.depths))
	for k, v := range r.depths {
		m[k] = v
	}
	return m
}

func (w *Web) reachable(userAgent string) *reachability {
	key := strings.ToLower(userAgent)
	w.truthMu.Lock()
	defer w.truthMu.Unlock()
	if r, ok := w.reach[key]; ok {
		return r
	}
	n := w.opts.PagesPerHost
	depth := make([]int32, len(w.hosts)*n) // 0 unseen, -1 disallowed
	var queue []int
	visit := func(h, id int, d int32) {
		k := h*n + id
		if depth[k] != 0 {
			return
		}
		if w.hosts[h].disallowed(userAgent, w.pagePath(h, id)) {
			depth[k] = -1
			return
		}
		depth[k] = d
		queue = append(queue, k)
	}
	for h := range w.hosts {
		visit(h, 0, 1)
	}
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		h, id := k/n, k%n
		d := w.build(h, id, "", w.opts.Epoch, false)
		if d.c.nofollowPage() {
			continue
		}
		for _, ls := range d.links() {
			for _, l := range ls {
				if l.followable() {
					visit(l.host, l.id, depth[k]+1)
				}
			}
		}
	}
	r := &reachability{depths: make(map[string]int)}
	for k, d := range depth {
		if d > 0 {
			u := w.pageURL(k/n, k%n)
			r.urls = append(r.urls, u)
			r.depths[u] = int(d)
		}
	}
	sort.Strings(r.urls)
	w.reach[key] = r
	return r
}

// Pages returns the normalized URLs of all ordinary pages, PagesPerHost
// per host, whether or not a polite crawler reaches them.
func (w *Web) Pages() []string {
	var out []string
	for h := range w.hosts {
		for id := range w.opts.PagesPerHost {
			out = append(out, w.pageURL(h, id))
		}
	}
	return out
}

// PageInfo is the ground truth about one ordinary page.
type PageInfo struct {
	URL   string
	Host  string // host name, such as "h3.test"
	Topic int    // in [0, Options.Topics)
	// NoIndex and NoFollow are set by <meta name="robots"> or by the
	// X-Robots-Tag header.
	NoIndex, NoFollow bool
	// Hidden pages are linked only with rel="nofollow" (and are in no
	// sitemap or feed): a polite crawler never reaches them.
	Hidden bool
	// DuplicateOf is the URL of the page whose bytes this page serves, or
	// "".
	DuplicateOf string
	// NearDuplicateOf is the URL of the page whose article this page
	// repeats with different boilerplate, or "".
	NearDuplicateOf string
	// ChangeRate is how often the page changes, in changes per second of
	// the content clock (a Poisson process); 0 for pages that never change.
	ChangeRate float64
}

// Page returns the ground truth about the ordinary page at rawURL (in any
// form that normalizes to it).
func (w *Web) Page(rawURL string) (PageInfo, bool) {
	h, id, ok := w.locatePage(rawURL)
	if !ok {
		return PageInfo{}, false
	}
	p := w.page(h, id)
	c := w.content(p)
	info := PageInfo{
		URL:      w.pageURL(h, id),
		Host:     w.hosts[h].name,
		Topic:    c.topic,
		NoIndex:  c.noindexPage(),
		NoFollow: c.nofollowPage(),
		Hidden:   p.hidden,
	}
	if p.copyOf >= 0 {
		info.DuplicateOf = w.pageURL(h, p.copyOf)
	}
	if p.nearOf >= 0 {
		info.NearDuplicateOf = w.pageURL(h, p.nearOf)
	}
	info.ChangeRate = w.changeSource(p).rate
	return info, true
}

// Topic returns the topic of the ordinary page at rawURL, or -1. Pages
// link mostly to pages of their own topic, and their text is drawn mostly
// from a vocabulary of that topic.
func (w *Web) Topic(rawURL string) int {
	info, ok := w.Page(rawURL)
	if !ok {
		return -1
	}
	return info.Topic
}

// Version returns how many times the ordinary page at rawURL has changed
// by time t of the content clock (0 before its first change), and the
// Last-Modified time it is then served with. ok is false for URLs that are
// not ordinary pages.
func (w *Web) Version(rawURL string, t time.Time) (version int, lastModified time.Time, ok bool) {
	h, id, ok := w.locatePage(rawURL)
	if !ok {
		return 0, time.Time{}, false
	}
	v, lm := w.version(w.changeSource(w.page(h, id)), t)
	return v, lm.Truncate(time.Second), true
}

// Changes returns the times in (from, to] of the content clock at which the
// ordinary page at rawURL changes, in order (none for a page that never
// changes, and ok false for URLs that are not ordinary pages). A copy of
// the page fetched at t is fresh until the first change after t: with
// Changes a test measures a crawler's freshness.
func (w *Web) Changes(rawURL string, from, to time.Time) (changes []time.Time, ok bool) {
	h, id, ok := w.locatePage(rawURL)
	if !ok {
		return nil, false
	}
	p := w.changeSource(w.page(h, id))
	if p.rate <= 0 || !to.After(w.opts.Epoch) {
		return nil, true
	}
	r := w.rng(saltChange, p.host, p.id, 3)
	end := to.Sub(w.opts.Epoch).Seconds()
	s := 0.0
	for v := 0; v < 1<<20; v++ {
		s += r.ExpFloat64() / p.rate
		if s > end {
			break
		}
		if at := w.opts.Epoch.Add(time.Duration(s * float64(time.Second))); at.After(from) {
			changes = append(changes, at)
		}
	}
	return changes, true
}

// Freshness returns the time-averaged freshness over [from, end] of a
// crawler's copies of the web's ordinary pages, from the web's log: a
// copy is fresh from a fetch the web answered 200 or 304 until the page's
// next change (see Changes) or the next fetch, and stale from that change
// to the next fetch. The average is over the pages first fetched before
// from, which it returns sorted (a page found later is not part of the
// measured set); fresh is 0 when there are none. The clock is the
// content clock (Options.Clock): a test that crawls in simulated or real
// time measures in the same.
func (w *Web) Freshness(from, end time.Time) (fresh float64, pages []string) {
	fetches := map[string][]time.Time{}
	for _, r := range w.Log().Requests() {
		if _, ok := w.Page(r.URL); !ok || (r.Status != 200 && r.Status != 304) || r.Start.After(end) {
			continue
		}
		fetches[r.URL] = append(fetches[r.URL], r.Start)
	}
	var freshTime time.Duration
	for u, fs := range fetches {
		sort.Slice(fs, func(i, j int) bool { return fs[i].Before(fs[j]) })
		if !fs[0].Before(from) {
			continue
		}
		pages = append(pages, u)
		for i, f := range fs {
			until := end
			if i+1 < len(fs) {
				until = fs[i+1]
			}
			if ch, _ := w.Changes(u, f, until); len(ch) > 0 {
				until = ch[0]
			}
			a, b := f, until
			if a.Before(from) {
				a = from
			}
			if b.After(end) {
				b = end
			}
			if b.After(a) {
				freshTime += b.Sub(a)
			}
		}
	}
	sort.Strings(pages)
	if len(pages) == 0 || !end.After(from) {
		return 0, pages
	}
	return freshTime.Seconds() / (end.Sub(from).Seconds() * float64(len(pages))), pages
}

// ExactDuplicates returns groups of ordinary pages that serve identical
// bytes at every moment; each group starts with the original and lists
// its copies in id order. Groups are sorted by their first URL.
func (w *Web) ExactDuplicates() [][]string {
	return w.dupGroups(func(p pg) int { return p.copyOf })
}

// NearDuplicates returns groups of ordinary pages that share their article
// (title and text) but differ in boilerplate: navigation, byline time,
// view counter, advertisement, links. Each group starts with the original.
// Exact copies of the original are not listed here.
func (w *Web) NearDuplicates() [][]string {
	return w.dupGroups(func(p pg) int { return p.nearOf })
}

func (w *Web) dupGroups(of func(pg) int) [][]string {
	var out [][]string
	for h := range w.hosts {
		groups := make(map[int][]string)
		var order []int
		for id := range w.opts.PagesPerHost {
			if o := of(w.page(h, id)); o >= 0 {
				if groups[o] == nil {
					order = append(order, o)
					groups[o] = []string{w.pageURL(h, o)}
				}
				groups[o] = append(groups[o], w.pageURL(h, id))
			}
		}
		for _, o := range order {
			out = append(out, groups[o])
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// FaultURLs returns the trap and fault entry URLs that the home pages link
// to, for the switches in Options.Faults that are on (none by default).
func (w *Web) FaultURLs() []string {
	var out []string
	for h := range w.hosts {
		for _, p := range w.specialPaths(h) {
			out = append(out, "http://"+w.hosts[h].authority+p)
		}
	}
	return out
}

// Sitemaps returns the sitemap URLs announced in robots.txt ("Sitemap:"
// lines). Hosts with i%3 == 0 serve a sitemapindex pointing to a plain and a
// gzipped urlset, hosts with i%3 == 1 a single urlset, the others none.
// Sitemaps list every page of their host that is not Hidden.
func (w *Web) Sitemaps() []string {
	var out []string
	for h := range w.hosts {
		out = append(out, w.sitemapRoots(h)...)
	}
	return out
}

// Feeds returns the URLs of the RSS 2.0 (/feed.rss) and Atom (/feed.atom)
// feeds, served by the hosts with an even index and linked from their home
// pages with <link rel="alternate">. Feeds list the ten highest-numbered
// pages of their host that are not Hidden.
func (w *Web) Feeds() []string {
	var out []string
	for h := range w.hosts {
		if w.hosts[h].feeds {
			a := "http://" + w.hosts[h].authority
			out = append(out, a+"/feed.rss", a+"/feed.atom")
		}
	}
	return out
}

// CrawlDelay returns the Crawl-delay host declares in its robots.txt, or
// 0.
func (w *Web) CrawlDelay(host string) time.Duration {
	if i, ok := w.byName[strings.ToLower(host)]; ok {
		return w.hosts[i].delay
	}
	return 0
}
