package crawltest

import (
	"fmt"
	"time"
)

// Options configures a Web. A nil *Options and the zero value of every field
// mean the documented default. The same Options (same Seed, and the same Now
// and Epoch when pages change over time) produce a byte-identical web.
type Options struct {
	// Seed selects the web. Default 0.
	Seed int64

	// Hosts is the number of virtual hosts, named h0.test … h{Hosts-1}.test.
	// Default 20.
	Hosts int

	// PagesPerHost is the number of HTML pages on each host. Page 0 is the
	// host's home page "/". Default 50.
	PagesPerHost int

	// Topics is the number of topic labels. Every page has exactly one
	// topic in [0, Topics). Default 5.
	Topics int

	// LoopbackIPs additionally serves host i on its own address
	// 127.0.x.y (x = 1+i/254, y = 1+i%254) with its own port, so that
	// programs that dial plain URLs reach it without DialContext. Seeds,
	// Reachable and every URL on the pages then use "127.0.x.y:port" as the
	// host. Needs a system that routes all of 127.0.0.0/8 to loopback
	// (Linux does; macOS needs aliases). Default false.
	LoopbackIPs bool

	// AddressOf, if set, serves the hosts on several loopback addresses
	// under their names, as shared hosting and CDNs do: host i is served
	// on address number AddressOf(i), 127.0.x.y with x = 1+n/254 and
	// y = 1+n%254 (n in [0, 64516)), and the hosts that share a number
	// share that address's one listener, which tells them apart by the
	// Host header (virtual hosting). URLs keep the names; Web.LookupNetIP
	// resolves each name to its address, for a crawler that keys
	// politeness by IP, and Web.DialContext connects to it;
	// Request.LocalAddr says which address a request reached. It must be
	// deterministic. Needs a system that routes all of 127.0.0.0/8 to
	// loopback, as LoopbackIPs. Ignored with LoopbackIPs and InMemory.
	// Default nil: every host on one listener at 127.0.0.1, the address
	// Web.LookupNetIP gives every name.
	AddressOf func(host int) int

	// RobotsVariety makes some hosts answer robots.txt unusually: host i
	// with i%8 == 4 answers 404 (everything allowed), 5 answers 500
	// (everything disallowed, RFC 9309 §2.3.1.4), 6 redirects with 301 to
	// /robots-real.txt and 7 serves a body larger than 1 MiB (rules first,
	// then comment padding). Other hosts serve ordinary rules. Default false:
	// every host serves ordinary rules.
	RobotsVariety bool

	// CrawlDelay, when positive, makes every host with i%4 == 1 declare
	// "Crawl-delay" with this value (in seconds, fractions allowed) for all
	// user agents. Default 0: no Crawl-delay lines.
	CrawlDelay time.Duration

	// ChangeInterval is the mean time between changes of the pages that
	// change: about a quarter of the pages change as a Poisson process with
	// mean interval ChangeInterval/4, ChangeInterval or 4*ChangeInterval.
	// Default 1h.
	ChangeInterval time.Duration

	// ChangeRate, if set, gives the change rate of page id of host h
	// (changes per second of the content clock, a Poisson process; 0 for
	// a page that never changes) instead of the default above, so a test
	// can build a web with the rates it needs (PageInfo.ChangeRate reports
	// them). Copies and near copies follow their original's rate. It must
	// be deterministic. Default nil.
	ChangeRate func(host, page int) float64

	// InMemory serves the web over in-memory connections (net.Pipe)
	// instead of a loopback listener: DialContext and Client then work in
	// a testing/synctest bubble, where loopback sockets do not count as
	// durably blocking, so a crawl can run hours of fake time in seconds
	// (create the Web inside the bubble). LoopbackIPs is ignored. Default
	// false.
	InMemory bool

	// Now is the content clock: it decides which version of a changing page
	// is served, and the Date and Last-Modified headers. Default time.Now.
	// The request log always uses the real clock.
	Now func() time.Time

	// Epoch is the time at which the change process starts (version 0 of
	// every page). Default: Now() when NewWeb is called.
	Epoch time.Time

	// LinkConstructs adds to every host a small, finite set of pages under
	// /constructs/, linked from the home page, that use every way an HTML
	// page, a style sheet or an HTTP response can reference a URL (a, area,
	// link rels, frames, srcdoc, img srcset, media, object, applet, forms,
	// SVG, CSS url() and @import, Link, Refresh, Content-Location and
	// Location headers, JavaScript-only links, …), and the targets they
	// reference. Web.References gives the ground truth of each, and
	// Web.ConstructURLs lists them; they are not part of Web.Reachable. See
	// "Link constructs" in the package documentation. Default false.
	LinkConstructs bool

	// Login adds to every host an area behind a login form, for testing
	// crawlers that log in: /account/login serves a form (a hidden CSRF
	// token, also set as a cookie; user name, password, a checkbox and a
	// submit button; before it, a search form) that posts to
	// /account/session; LoginUser and LoginPassword there set a session
	// cookie and redirect (303) to /account/, wrong ones give the form
	// again with an error, and a missing or wrong token gives 403. The
	// pages behind it (Web.AccountURLs: /account/ and
	// /account/page-1.html ... page-5.html, which link to each other and
	// hold a POST form a crawler must never send) redirect to the login
	// page without the session cookie. /account/login-elsewhere is the
	// same form posting to another host (login.elsewhere.test). POSTs are
	// answered at /account/session only, 405 elsewhere. robots.txt gets a
	// group for LoginAgent that disallows /account/session. The area is
	// linked from no ordinary page and is not part of Web.Reachable.
	// Default false.
	Login bool

	// Latency, when positive, makes every request wait this long before
	// it is answered (robots.txt and faults included; Request.Start in
	// the log is when it arrived, End when its answer was written), so a
	// crawler that sends a host requests faster than Latency has several
	// in flight: for testing limits on concurrent requests per host
	// (Log.MaxInFlight). Default 0: answered at once.
	Latency time.Duration

	// Faults switches traps and faults on. The zero value switches all off.
	Faults Faults
}

// Faults holds one switch per trap or fault. Each one adds entry links to
// every host's home page (listed by Web.FaultURLs) or alters a subset of the
// ordinary pages, as documented on the field. Fault and trap URLs are never
// disallowed by robots.txt, are never part of Web.Reachable, and never link
// to ordinary pages that are not otherwise reachable.
type Faults struct {
	// Calendar adds an infinite calendar: /calendar/YYYY/MM/ links to the
	// previous and next month, for years 1 to 9999.
	Calendar bool

	// DeepPaths adds ever-deeper path repetition: /repeat/ links to
	// "again/" relative to itself, so /repeat/again/again/… never ends.
	DeepPaths bool

	// SessionIDs adds session-id URLs: the home page links to
	// "/?sid=…", and any page requested with a sid query renders every
	// same-host link with a new sid, so the URL space never ends.
	SessionIDs bool

	// Soft404 adds a soft-404 generator: /lost/ and every path under it is
	// answered 200 with the same "page not found" page (same bytes, as
	// many sites serve), whose relative links "old/", "media/new/" and
	// "index.html" lead to ever deeper paths under /lost/, so the URL space
	// never ends. Other unknown paths still answer 404.
	Soft404 bool

	// MetaRefresh adds /refresh/1, an endless chain of small pages: page
	// /refresh/N carries <meta http-equiv="refresh" content="0;
	// url=/refresh/N+1"> and names its step N in its title and text, so no
	// two pages of the chain are alike.
	MetaRefresh bool

	// SlowRobots, when positive, makes the hosts with i%8 == 3 answer
	// robots.txt with a 200 whose body then trickles one byte every
	// SlowRobots, so that the whole file takes hundreds of intervals. A
	// crawler must give up on it (RFC 9309 treats the file as unreachable
	// and disallows the host for a while) and go on with other hosts; the
	// pages of those hosts stay in Web.Reachable, which assumes unlimited
	// patience, so compare against it without those hosts.
	SlowRobots time.Duration

	// RedirectChain, when positive, adds /redirect/N/ID, a chain of N
	// redirects (301, 302, 307, 308 in turn) that ends at the ordinary page
	// ID of the same host.
	RedirectChain int

	// RedirectLoop adds /redirect-loop/a, which redirects to
	// /redirect-loop/b, which redirects back to /redirect-loop/a.
	RedirectLoop bool

	// Slow, when positive, adds /fault/slow, answered with a small page
	// after this delay.
	Slow time.Duration

	// Hang adds /fault/hang, which never answers: the request stays open
	// until the client gives up or the web is closed.
	Hang bool

	// Reset adds /fault/reset, whose connection is reset (TCP RST) without
	// any response.
	Reset bool

	// ServerErrors adds /fault/500, /fault/502 and /fault/503; the 503
	// carries "Retry-After: 1". They fail on every request.
	ServerErrors bool

	// TooManyRequests adds /fault/429: the first request for it on each
	// host is answered 429 with "Retry-After: 1", later ones with a small
	// page.
	TooManyRequests bool

	// EndlessBody adds /fault/endless, a 200 text/html response whose body
	// never ends (until the client stops reading or the web is closed).
	EndlessBody bool

	// HugeBody adds /fault/huge, a 200 text/html response with a
	// Content-Length of HugeBodySize bytes.
	HugeBody bool

	// GzipBomb adds /fault/gzip-bomb, a response with
	// "Content-Encoding: gzip" of about 1 MiB that inflates to
	// GzipBombSize bytes.
	GzipBomb bool

	// WrongContentType adds /fault/wrong-type.html (an HTML page labelled
	// image/png) and /fault/binary.html (binary bytes labelled text/html).
	WrongContentType bool

	// InvalidUTF8 puts invalid UTF-8 byte sequences into the text of about
	// 5% of the ordinary pages, which still declare UTF-8. Their links are
	// unchanged (ASCII).
	InvalidUTF8 bool

	// LegacyCharsets encodes about 10% of the ordinary pages in ISO-8859-1,
	// Windows-1252 or Shift_JIS, declared either in the Content-Type header
	// or only in a <meta> element. Their links are unchanged (ASCII).
	LegacyCharsets bool

	// MalformedHTML makes about 10% of the ordinary pages malformed:
	// unquoted and upper-case attributes, unclosed and mis-nested elements,
	// stray end tags, no </body></html>, and a link inside a comment (which
	// a real HTML parser ignores; it points to a page that does not exist).
	// Their real links are still found by an HTML5 tokenizer.
	MalformedHTML bool
}

const (
	// HugeBodySize is the length of the /fault/huge body.
	HugeBodySize = 64 << 20
	// GzipBombSize is the inflated length of the /fault/gzip-bomb body.
	GzipBombSize = 1 << 30
)

// Limits of Options.
const (
	maxHosts        = 254 * 254
	maxPagesPerHost = 1 << 24
)

func (o *Options) withDefaults() (Options, error) {
	var c Options
	if o != nil {
		c = *o
	}
	if c.InMemory {
		c.LoopbackIPs = false
	}
	if c.InMemory || c.LoopbackIPs {
		c.AddressOf = nil
	}
	switch {
	case c.Hosts < 0 || c.Hosts > maxHosts:
		return c, fmt.Errorf("crawltest: Hosts %d out of range [0, %d]", c.Hosts, maxHosts)
	case c.PagesPerHost < 0 || c.PagesPerHost > maxPagesPerHost:
		return c, fmt.Errorf("crawltest: PagesPerHost %d out of range [0, %d]", c.PagesPerHost, maxPagesPerHost)
	case c.Topics < 0 || c.Topics > 1000:
		return c, fmt.Errorf("crawltest: Topics %d out of range [0, 1000]", c.Topics)
	case c.CrawlDelay < 0 || c.ChangeInterval < 0 || c.Latency < 0 || c.Faults.Slow < 0 || c.Faults.SlowRobots < 0 || c.Faults.RedirectChain < 0:
		return c, fmt.Errorf("crawltest: negative duration or count in Options")
	}
	if c.Hosts == 0 {
		c.Hosts = 20
	}
	if c.PagesPerHost == 0 {
		c.PagesPerHost = 50
	}
	if c.Topics == 0 {
		c.Topics = 5
	}
	if c.ChangeInterval == 0 {
		c.ChangeInterval = time.Hour
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Epoch.IsZero() {
		c.Epoch = c.Now()
	}
	return c, nil
}
