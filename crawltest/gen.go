package crawltest

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// The generator: everything about a page is a pure function of
// (seed, host, page id), so nothing per page is stored.

// Salts separate the random streams drawn from one (host, page).
const (
	saltHost uint64 = iota + 1
	saltPage
	saltDup
	saltBoiler
	saltArticle
	saltChange
	saltSid
	saltRobots
	saltTitle
)

func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

func (w *Web) hash(salt uint64, a, b, c int) uint64 {
	h := mix(uint64(w.opts.Seed) ^ 0x9e3779b97f4a7c15)
	h = mix(h ^ salt)
	h = mix(h ^ uint64(a))
	h = mix(h ^ uint64(b))
	return mix(h ^ uint64(c))
}

func (w *Web) rng(salt uint64, a, b, c int) *rand.Rand {
	h := w.hash(salt, a, b, c)
	return rand.New(rand.NewPCG(h, mix(h^0x5851f42d4c957f2d)))
}

// frac maps a hash to [0, 1).
func frac(h uint64) float64 { return float64(h>>11) / (1 << 53) }

// Robots kinds of a host.
const (
	robotsRules = iota
	robots404
	robots500
	robotsRedirect
	robotsHuge
)

// Sitemap kinds of a host.
const (
	sitemapIndex  = iota // /sitemap.xml is a sitemapindex of two files, one gzipped
	sitemapURLSet        // /sitemap.xml is a urlset
	sitemapNone
)

type rule struct {
	allow   bool
	pattern string
}

type group struct {
	agents []string // lower case
	rules  []rule
}

type hostInfo struct {
	name      string // "h3.test"
	authority string // host in URLs: name, or "127.0.x.y:port"
	topic     int
	robots    int
	groups    []group
	delay     time.Duration
	sitemap   int
	feeds     bool
	upperKeys bool // robots.txt written with odd key casing
}

var sections = [...]string{"news", "blog", "docs", "shop", "about", "archive", "private", "guides"}

var slugWords = [...]string{"story", "notes", "review", "draft", "public", "report", "guide", "update", "letter", "index"}

func (w *Web) makeHost(i int) hostInfo {
	r := w.rng(saltHost, i, 0, 0)
	h := hostInfo{
		name:    "h" + strconv.Itoa(i) + ".test",
		topic:   r.IntN(w.opts.Topics),
		sitemap: i % 3,
		feeds:   i%2 == 0,
	}
	h.authority = h.name
	h.robots = robotsRules
	if w.opts.RobotsVariety {
		switch i % 8 {
		case 4:
			h.robots = robots404
		case 5:
			h.robots = robots500
		case 6:
			h.robots = robotsRedirect
		case 7:
			h.robots = robotsHuge
		}
	}
	if w.opts.CrawlDelay > 0 && i%4 == 1 {
		h.delay = w.opts.CrawlDelay
	}
	h.upperKeys = r.IntN(3) == 0
	// Rules for everyone. Every host disallows something real; the
	// patterns never match trap or fault paths.
	star := group{agents: []string{"*"}}
	if r.IntN(4) != 0 {
		star.rules = append(star.rules, rule{pattern: "/private/"})
	}
	if r.IntN(2) == 0 {
		star.rules = append(star.rules, rule{pattern: "/*/draft-"})
	}
	if r.IntN(2) == 0 {
		star.rules = append(star.rules, rule{pattern: "/archive/"}, rule{allow: true, pattern: "/archive/public-"})
	}
	if r.IntN(3) == 0 {
		star.rules = append(star.rules, rule{pattern: "/*.php$"})
	}
	if len(star.rules) == 0 {
		star.rules = append(star.rules, rule{pattern: "/private/"})
	}
	star.rules = append(star.rules, rule{pattern: "/cgi-bin/"}, rule{pattern: "/search?"})
	h.groups = []group{
		{agents: []string{"evilbot", "badbot"}, rules: []rule{{pattern: "/"}}},
		star,
	}
	if w.opts.Login {
		h.groups = append(h.groups, group{agents: []string{LoginAgent}, rules: []rule{{pattern: sessionPath}}})
	}
	return h
}

// pg is everything about one page that is not its text or links.
type pg struct {
	host, id  int
	path      string
	topic     int
	hidden    bool // linked only through rel=nofollow
	absOnly   bool // no path-relative links, no <base>: may be copied
	copyOf    int  // exact duplicate of this page id, or -1
	nearOf    int  // near duplicate of this page id, or -1
	noIndex   bool // <meta name=robots> noindex
	noFollow  bool // <meta name=robots> nofollow
	xRobots   string
	base      string // <base href> directory, or ""
	frameset  bool
	charset   int
	badUTF8   bool
	malformed bool
	rate      float64 // changes per second
}

// Charsets of a page.
const (
	csUTF8 = iota
	csLatin1Header
	csLatin1Meta
	cs1252Header
	cs1252Meta
	csSJISHeader
	csSJISMeta
)

func (w *Web) pagePath(h, id int) string {
	if id == 0 {
		return "/"
	}
	x := w.hash(saltPage, h, id, 1)
	sec := sections[x%uint64(len(sections))]
	word := slugWords[(x>>8)%uint64(len(slugWords))]
	ext := ".html"
	if (x>>16)%10 == 0 {
		ext = ".php"
	}
	return "/" + sec + "/" + word + "-" + strconv.Itoa(id) + ext
}

// pageID returns the id of the ordinary page at path on host h.
func (w *Web) pageID(h int, path string) (int, bool) {
	if path == "/" {
		return 0, true
	}
	dash := strings.LastIndexByte(path, '-')
	dot := strings.LastIndexByte(path, '.')
	if dash < 0 || dot < dash {
		return 0, false
	}
	id, err := strconv.Atoi(path[dash+1 : dot])
	if err != nil || id <= 0 || id >= w.opts.PagesPerHost || w.pagePath(h, id) != path {
		return 0, false
	}
	return id, true
}

func (w *Web) page(h, id int) pg {
	p := pg{host: h, id: id, path: w.pagePath(h, id), copyOf: -1, nearOf: -1}
	y := w.hash(saltPage, h, id, 3)
	p.topic = w.pageTopic(h, id)
	if id == 0 {
		return p
	}
	p.hidden, p.absOnly = w.light(h, id)
	p.noIndex = f6(y, 2) < 3.0/64
	p.noFollow = f6(y, 3) < 2.0/64
	switch v := f6(y, 4); {
	case v < 1.0/64:
		p.xRobots = "noindex"
	case v < 2.0/64:
		p.xRobots = "nofollow"
	case v < 3.0/64:
		p.xRobots = "none"
	}
	if !p.absOnly {
		if f6(y, 5) < 5.0/64 {
			// A <base> at the root or two levels deep, so that a crawler
			// that ignores it resolves most relative links wrongly.
			p.base = "/"
			if y>>63 == 1 {
				p.base = "/" + sections[(y>>60)%uint64(len(sections))] + "/2019/"
			}
		}
		switch v := f6(y, 6); {
		case v < 3.0/64:
			p.copyOf = w.original(h, id, 0)
		case v < 6.0/64:
			p.nearOf = w.original(h, id, 1)
		case v < 7.0/64:
			p.frameset = true
		}
	}
	if w.opts.Faults.LegacyCharsets && f6(y, 7) < 6.0/64 {
		p.charset = 1 + int(w.hash(saltPage, h, id, 4)%6)
	} else if w.opts.Faults.InvalidUTF8 && f6(y, 8) < 3.0/64 {
		p.badUTF8 = true
	}
	p.malformed = w.opts.Faults.MalformedHTML && f6(y, 9) < 6.0/64
	if f := w.opts.ChangeRate; f != nil {
		p.rate = max(f(h, id), 0)
	} else if frac(w.hash(saltChange, h, id, 0)) < 0.25 {
		mean := w.opts.ChangeInterval.Seconds() * [...]float64{0.25, 1, 4}[w.hash(saltChange, h, id, 1)%3]
		p.rate = 1 / mean
	}
	return p
}

func f6(v uint64, k uint) float64 { return float64((v>>(k*6))&63) / 64 }

// light returns the attributes of a page that other pages' attributes
// depend on, without computing the rest.
func (w *Web) light(h, id int) (hidden, absOnly bool) {
	if id == 0 {
		return false, false
	}
	y := w.hash(saltPage, h, id, 3)
	return f6(y, 0) < 3.0/64, f6(y, 1) < 8.0/64
}

func (w *Web) pageTopic(h, id int) int {
	x := w.hash(saltPage, h, id, 2)
	if frac(x) < 0.7 {
		return w.hosts[h].topic
	}
	return int((x >> 40) % uint64(w.opts.Topics))
}

// original picks an earlier absOnly, non-hidden page for page id to copy,
// or returns -1.
func (w *Web) original(h, id, kind int) int {
	if id < 2 {
		return -1
	}
	r := w.rng(saltDup, h, id, kind)
	for range 32 {
		o := 1 + r.IntN(id-1)
		if hidden, absOnly := w.light(h, o); absOnly && !hidden {
			return o
		}
	}
	return -1
}

// content returns the page whose bytes page p serves: itself, or the page it
// is an exact copy of.
func (w *Web) content(p pg) pg {
	if p.copyOf >= 0 {
		return w.page(p.host, p.copyOf)
	}
	return p
}

// changeSource returns the page whose change process page p follows: the
// original of an exact or near duplicate, else p.
func (w *Web) changeSource(p pg) pg {
	c := w.content(p)
	if c.nearOf >= 0 {
		return w.page(c.host, c.nearOf)
	}
	return c
}

// nofollowPage reports whether p's links must not be followed.
func (p pg) nofollowPage() bool {
	return p.noFollow || p.xRobots == "nofollow" || p.xRobots == "none"
}

func (p pg) noindexPage() bool {
	return p.noIndex || p.xRobots == "noindex" || p.xRobots == "none"
}

// structural pages carry the tree links that make every non-hidden page
// reachable by a polite crawler: they are allowed to "*", followable and
// render their own links.
func (w *Web) structural(h, id int) bool {
	if id == 0 {
		return true
	}
	p := w.page(h, id)
	c := w.content(p)
	return !p.hidden && p.copyOf < 0 && !p.frameset && !c.nofollowPage() &&
		!w.hosts[h].disallowedPath("*", p.path)
}

const fanout = 4

// children returns the tree children of structural page s: its heap
// children, and the heap children of any non-structural page below it.
func (w *Web) children(h, s int, out []int) []int {
	for c := fanout*s + 1; c <= fanout*s+fanout && c < w.opts.PagesPerHost; c++ {
		out = append(out, c)
		if !w.structural(h, c) {
			out = w.children(h, c, out)
		}
	}
	return out
}

// refTime anchors the dates of the web that do not depend on the clock.
var refTime = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// origin is the latest time before which every page's first version
// dates: refTime, or Epoch if that is earlier.
func (w *Web) origin() time.Time {
	if w.opts.Epoch.Before(refTime) {
		return w.opts.Epoch
	}
	return refTime
}

// version returns how many times page p has changed by time t, and when it
// last changed (or its base modification time).
func (w *Web) version(p pg, t time.Time) (int, time.Time) {
	base := w.origin().Add(-time.Duration(1+w.hash(saltChange, p.host, p.id, 2)%(365*24*3600)) * time.Second)
	if p.rate <= 0 || !t.After(w.opts.Epoch) {
		return 0, base
	}
	r := w.rng(saltChange, p.host, p.id, 3)
	at := w.opts.Epoch
	last := base
	end := t.Sub(w.opts.Epoch).Seconds()
	s := 0.0
	v := 0
	for v < 1<<20 {
		s += r.ExpFloat64() / p.rate
		if s > end {
			break
		}
		v++
		last = at.Add(time.Duration(s * float64(time.Second)))
	}
	return v, last
}

// topicPage draws a non-hidden page on host h, preferring topic t.
func (w *Web) topicPage(r *rand.Rand, h, t int) int {
	n := w.opts.PagesPerHost
	best := 0
	for i := range 16 {
		id := r.IntN(n)
		if hidden, _ := w.light(h, id); hidden {
			continue
		}
		best = id
		if w.pageTopic(h, id) == t || i == 15 {
			return id
		}
	}
	return best
}

// topicHost draws a host other than h (when there is one), preferring one
// whose main topic is t.
func (w *Web) topicHost(r *rand.Rand, h, t int) int {
	n := len(w.hosts)
	if n == 1 {
		return h
	}
	o := h
	for range 16 {
		o = r.IntN(n)
		if o != h && w.hosts[o].topic == t {
			return o
		}
	}
	if o == h {
		o = (h + 1) % n
	}
	return o
}

// Kinds of link destinations.
const (
	dstPage    = iota // an ordinary page (host, id)
	dstOff            // a URL off the web
	dstOther          // mailto:, javascript:
	dstSpecial        // a trap or fault entry on the page's host
)

// Tags a link appears in.
const (
	tagA = iota
	tagArea
	tagIframe
	tagFrame
)

type link struct {
	href     string
	text     string
	tag      int
	nofollow bool // rel=nofollow
	dst      int
	host, id int
}

// followable reports whether a polite crawler follows l.
func (l link) followable() bool {
	return l.dst == dstPage && !l.nofollow
}

// doc is a page ready to render.
type doc struct {
	p, c    pg // the page, and the page whose content it serves
	version int
	nav     []link
	article []link // inline, drawn from the content page (or the original of a near duplicate)
	side    []link
	foot    []link
	frames  []link
	sid     string // session id for trap rendering
}

func (d *doc) links() [][]link { return [][]link{d.nav, d.article, d.side, d.foot, d.frames} }

// hrefCtx is what forming an href needs to know about the linking page.
type hrefCtx struct {
	w       *Web
	h       int
	dir     string // directory relative hrefs resolve against
	absOnly bool
}

// href writes a link to page (th, tid) in one of the canonical or redundant
// forms. Every form resolves to the same normalized URL.
func (c hrefCtx) href(r *rand.Rand, th, tid int) string {
	w := c.w
	path := w.pagePath(th, tid)
	host := w.hosts[th]
	ip := w.opts.LoopbackIPs
	same := th == c.h
	form := r.IntN(20)
	var s string
	switch {
	case same && form < 5:
		s = path
	case same && form < 9 && !c.absOnly:
		s = relPath(c.dir, path)
	case same && form == 9 && !c.absOnly:
		s = relPath(c.dir, path)
		if !strings.HasPrefix(s, "../") && s != "./" {
			s = "./" + s
		}
	case same && form == 10:
		s = path + "?"
	case same && form == 11 && path != "/":
		s = "/./" + path[1:]
		if i := strings.IndexByte(path[1:], '/'); i > 0 {
			s = path[:i+1] + "/../" + path[1:]
		}
	case form == 12 && path != "/":
		s = "http://" + host.authority + pctEncodeOne(path, r.IntN(2) == 0)
	case form == 13 && !ip:
		s = "http://" + strings.ToUpper(host.authority) + path
	case form == 14 && !ip:
		s = "http://" + host.authority + ":80" + path
	case form == 15:
		s = "//" + host.authority + path
	case form == 16:
		s = "http://" + host.authority + path + "?"
	default:
		s = "http://" + host.authority + path
	}
	if r.IntN(12) == 0 {
		s += "#section-" + strconv.Itoa(1+r.IntN(5))
	}
	return s
}

// relPath returns a path-relative reference from directory dir (ending in
// '/') to the absolute path target.
func relPath(dir, target string) string {
	ds := strings.Split(strings.Trim(dir, "/"), "/")
	if ds[0] == "" {
		ds = nil
	}
	i := strings.LastIndexByte(target, '/')
	ts := strings.Split(strings.Trim(target[:i+1], "/"), "/")
	if ts[0] == "" {
		ts = nil
	}
	file := target[i+1:]
	k := 0
	for k < len(ds) && k < len(ts) && ds[k] == ts[k] {
		k++
	}
	var b strings.Builder
	for range len(ds) - k {
		b.WriteString("../")
	}
	for _, s := range ts[k:] {
		b.WriteString(s)
		b.WriteByte('/')
	}
	b.WriteString(file)
	if b.Len() == 0 {
		return "./"
	}
	return b.String()
}

// pctEncodeOne percent-encodes the first letter of the last path segment
// (an unreserved character, so the URL is unchanged after normalization).
func pctEncodeOne(path string, lower bool) string {
	i := strings.LastIndexByte(path, '/') + 1
	if i >= len(path) {
		return path
	}
	const up, lo = "0123456789ABCDEF", "0123456789abcdef"
	hex := up
	if lower {
		hex = lo
	}
	ch := path[i]
	return path[:i] + "%" + string(hex[ch>>4]) + string(hex[ch&15]) + path[i+1:]
}

func dirOf(path string) string { return path[:strings.LastIndexByte(path, '/')+1] }

var offWeb = [...]string{
	"http://example.com/", "https://example.org/about", "http://www.example.net/page?id=7",
	"https://example.com/login", "http://example.edu/research/paper.html",
}

// build lays out page (h, id) without rendering it. sid, when not empty,
// renders the session-id trap version. Without text, anchor texts are
// left out (for the ground-truth crawl, which needs only targets).
func (w *Web) build(h, id int, sid string, now time.Time, text bool) *doc {
	p := w.page(h, id)
	if p.copyOf >= 0 {
		d := w.build(h, p.copyOf, sid, now, text)
		d.p = p
		return d
	}
	d := &doc{p: p, c: p}
	src := p
	if p.nearOf >= 0 {
		src = w.page(h, p.nearOf)
	}
	d.version, _ = w.version(src, now)
	ctx := hrefCtx{w: w, h: h, dir: dirOf(p.path), absOnly: p.absOnly}
	if p.base != "" {
		ctx.dir = p.base
	}
	r := w.rng(saltBoiler, h, id, 0)
	mk := func(r *rand.Rand, th, tid int) link {
		l := link{href: ctx.href(r, th, tid), dst: dstPage, host: th, id: tid}
		if text {
			l.text = w.title(th, tid)
		}
		return l
	}
	if p.frameset {
		for range 2 + r.IntN(2) {
			l := mk(r, h, w.topicPage(r, h, p.topic))
			l.tag = tagFrame
			d.frames = append(d.frames, l)
		}
		w.sessionize(d, sid)
		return d
	}
	// Navigation: home and a few featured pages.
	home := mk(r, h, 0)
	home.text = "Home"
	d.nav = append(d.nav, home)
	for range 3 + r.IntN(3) {
		d.nav = append(d.nav, mk(r, h, w.topicPage(r, h, w.hosts[h].topic)))
	}
	// Sidebar: the tree children, then extras.
	for _, c := range w.children(h, id, nil) {
		l := mk(r, h, c)
		l.nofollow = w.page(h, c).hidden
		d.side = append(d.side, l)
	}
	if r.IntN(12) == 0 {
		l := mk(r, h, w.topicPage(r, h, p.topic))
		l.tag = tagIframe
		d.side = append(d.side, l)
	}
	// Footer: cross-host, off-web, mailto/javascript, fragment, areas.
	for range 2 + r.IntN(3) {
		th := w.topicHost(r, h, p.topic)
		d.foot = append(d.foot, mk(r, th, w.topicPage(r, th, p.topic)))
	}
	d.foot = append(d.foot, link{href: offWeb[r.IntN(len(offWeb))], text: "Elsewhere", dst: dstOff})
	d.foot = append(d.foot, link{href: "mailto:webmaster@" + w.hosts[h].name, text: "Contact", dst: dstOther})
	if r.IntN(3) == 0 {
		d.foot = append(d.foot, link{href: "javascript:void(0)", text: "Print", dst: dstOther})
	}
	if !p.absOnly {
		top := link{href: "#top", text: "Back to top", dst: dstPage, host: h, id: id}
		if p.base != "" {
			top.href = p.path + "#top"
		}
		d.foot = append(d.foot, top)
	}
	if r.IntN(10) == 0 {
		for range 2 {
			l := mk(r, h, w.topicPage(r, h, p.topic))
			l.tag = tagArea
			d.foot = append(d.foot, l)
		}
	}
	if id == 0 {
		for _, s := range w.specialPaths(h) {
			d.foot = append(d.foot, link{href: s, text: "More", dst: dstSpecial, host: h})
		}
	}
	// Article: drawn from the content source so near duplicates share it.
	sctx := ctx
	if src.id != id {
		sctx.absOnly = true
	}
	ar := w.rng(saltArticle, h, src.id, 0)
	fixed := len(d.nav) + len(d.side) + len(d.foot)
	n := 3 + ar.IntN(28)
	if fixed+n < 10 {
		n = 10 - fixed
	}
	if fixed+n > 60 && fixed < 60 {
		n = 60 - fixed
	}
	for range n {
		var l link
		switch v := ar.IntN(20); {
		case v < 12:
			l = link{dst: dstPage, host: h, id: w.topicPage(ar, h, src.topic)}
			l.href = sctx.href(ar, h, l.id)
		case v < 18:
			th := w.topicHost(ar, h, src.topic)
			l = link{dst: dstPage, host: th, id: w.topicPage(ar, th, src.topic)}
			l.href = sctx.href(ar, th, l.id)
		default:
			l = link{href: offWeb[ar.IntN(len(offWeb))], dst: dstOff}
		}
		if l.dst == dstPage {
			if text {
				l.text = w.title(l.host, l.id)
			}
			l.nofollow = ar.IntN(20) == 0
		} else {
			l.text = "external source"
		}
		d.article = append(d.article, l)
	}
	if id == 0 && w.opts.LinkConstructs {
		// Added last, so that the other links are those of the web
		// without LinkConstructs.
		d.foot = append(d.foot, link{href: constructsIndex, text: "Link constructs", dst: dstSpecial, host: h})
	}
	w.sessionize(d, sid)
	return d
}

// sessionize rewrites the same-host page links of a session-id trap page.
func (w *Web) sessionize(d *doc, sid string) {
	if sid == "" {
		return
	}
	d.sid = sid
	for _, ls := range d.links() {
		for i := range ls {
			l := &ls[i]
			if l.dst == dstPage && l.host == d.p.host {
				next := strconv.FormatUint(w.hash(saltSid, l.host, l.id, int(mixString(sid)))>>16, 36)
				l.href = w.pagePath(l.host, l.id) + "?sid=" + next
				l.dst = dstSpecial
			}
		}
	}
}

func mixString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}

// specialPaths returns the trap and fault entry paths linked from host h's
// home page.
func (w *Web) specialPaths(h int) []string {
	f := &w.opts.Faults
	var s []string
	if f.Calendar {
		s = append(s, "/calendar/2026/01/")
	}
	if f.DeepPaths {
		s = append(s, "/repeat/")
	}
	if f.SessionIDs {
		s = append(s, "/?sid="+strconv.FormatUint(w.hash(saltSid, h, 0, 0)>>16, 36))
	}
	if f.Soft404 {
		s = append(s, "/lost/")
	}
	if f.MetaRefresh {
		s = append(s, "/refresh/1")
	}
	if f.RedirectChain > 0 {
		s = append(s, "/redirect/"+strconv.Itoa(f.RedirectChain)+"/"+strconv.Itoa(w.firstVisible(h)))
	}
	if f.RedirectLoop {
		s = append(s, "/redirect-loop/a")
	}
	if f.Slow > 0 {
		s = append(s, "/fault/slow")
	}
	if f.Hang {
		s = append(s, "/fault/hang")
	}
	if f.Reset {
		s = append(s, "/fault/reset")
	}
	if f.ServerErrors {
		s = append(s, "/fault/500", "/fault/502", "/fault/503")
	}
	if f.TooManyRequests {
		s = append(s, "/fault/429")
	}
	if f.EndlessBody {
		s = append(s, "/fault/endless")
	}
	if f.HugeBody {
		s = append(s, "/fault/huge")
	}
	if f.GzipBomb {
		s = append(s, "/fault/gzip-bomb")
	}
	if f.WrongContentType {
		s = append(s, "/fault/wrong-type.html", "/fault/binary.html")
	}
	return s
}

// firstVisible is the redirect chains' destination: the last page of the
// host that is neither hidden nor disallowed (else the home page).
func (w *Web) firstVisible(h int) int {
	for id := w.opts.PagesPerHost - 1; id > 0; id-- {
		if hidden, _ := w.light(h, id); !hidden && !w.hosts[h].disallowedPath("*", w.pagePath(h, id)) {
			return id
		}
	}
	return 0
}

// Topic vocabularies: text is drawn mostly from the page's topic, so a
// focused crawler can classify pages by their words.
var topicWords = [...][]string{
	{"match", "league", "goal", "coach", "season", "striker", "stadium", "referee", "penalty", "tournament", "keeper", "transfer", "fixture", "derby", "champion"},
	{"recipe", "oven", "flour", "simmer", "garlic", "butter", "roast", "pastry", "spice", "saucepan", "dough", "braise", "onion", "vinegar", "harvest"},
	{"telescope", "galaxy", "orbit", "nebula", "comet", "planet", "eclipse", "asteroid", "quasar", "satellite", "meteor", "redshift", "supernova", "lunar", "cosmos"},
	{"market", "bond", "equity", "dividend", "inflation", "portfolio", "broker", "yield", "currency", "hedge", "audit", "ledger", "merger", "tariff", "budget"},
	{"compiler", "kernel", "thread", "pointer", "module", "runtime", "socket", "parser", "schema", "cache", "mutex", "closure", "bytecode", "lambda", "syntax"},
	{"garden", "compost", "seedling", "pruning", "mulch", "orchard", "trellis", "perennial", "greenhouse", "soil", "bulb", "hedge", "blossom", "weeding", "fern"},
	{"melody", "chord", "rhythm", "violin", "concert", "tempo", "opera", "guitar", "harmony", "choir", "sonata", "drummer", "lyric", "album", "encore"},
	{"voyage", "passport", "harbour", "itinerary", "hostel", "luggage", "ferry", "museum", "summit", "trail", "village", "railway", "border", "island", "souvenir"},
}

var commonWords = [...]string{
	"the", "a", "of", "and", "to", "in", "is", "was", "for", "with", "on", "as", "by", "this", "that",
	"new", "year", "people", "time", "way", "day", "report", "week", "local", "many", "first", "last", "good", "great", "small",
}

func topicWord(t, i int) string {
	ws := topicWords[t%len(topicWords)]
	wd := ws[i%len(ws)]
	if t >= len(topicWords) {
		wd += strconv.Itoa(t)
	}
	return wd
}

// title is the title of page (h, id), also used as anchor text.
func (w *Web) title(h, id int) string {
	if id == 0 {
		return "Home of " + w.hosts[h].name
	}
	src := w.articleSource(h, id)
	t := w.pageTopic(h, src)
	x := w.hash(saltTitle, h, src, 0)
	a := topicWord(t, int(x%97))
	b := topicWord(t, int((x>>16)%89))
	return strings.ToUpper(a[:1]) + a[1:] + " and the " + b + " " + strconv.Itoa(src)
}

// articleSource returns the page whose article page id shows: the original
// of an exact or near duplicate, else id itself. It is page(h, id).copyOf
// or nearOf, computed without the rest of page.
func (w *Web) articleSource(h, id int) int {
	if _, absOnly := w.light(h, id); id == 0 || absOnly {
		return id
	}
	kind := -1
	switch v := f6(w.hash(saltPage, h, id, 3), 6); {
	case v < 3.0/64:
		kind = 0
	case v < 6.0/64:
		kind = 1
	}
	if kind >= 0 {
		if o := w.original(h, id, kind); o >= 0 {
			return o
		}
	}
	return id
}

func sentence(r *rand.Rand, t int, b *bytes.Buffer) {
	n := 8 + r.IntN(9)
	for i := range n {
		var wd string
		if r.IntN(10) < 6 {
			wd = topicWord(t, r.IntN(1000))
		} else {
			wd = commonWords[r.IntN(len(commonWords))]
		}
		if i == 0 {
			b.WriteString(strings.ToUpper(wd[:1]))
			b.WriteString(wd[1:])
		} else {
			b.WriteByte(' ')
			b.WriteString(wd)
		}
	}
	b.WriteString(". ")
}
