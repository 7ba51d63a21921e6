package trawl

import (
	"context"
	"encoding/base64"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/net/http/httpproxy"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/urlnorm"
)

// OutgoingRequest is a request the crawler is about to send, as the
// WithOnRequest hook sees it. The hook may change Header and Meta; the
// other fields are for reading.
type OutgoingRequest struct {
	URL      *url.URL // the URL to fetch (normalized); do not modify
	Depth    int      // seeds have depth 1
	Referrer string   // the page that linked here ("" for seeds)
	Anchor   string   // the anchor text of that link
	Retries  int      // earlier attempts of this URL that failed transiently
	// Header holds the headers this request will carry besides the
	// fetcher's own: WithHeader's, Authorization from WithBasicAuth for
	// this host, Cookie from the cookie jar. Set, add or delete freely:
	// it belongs to this request. User-Agent is always WithUserAgent's.
	Header http.Header
	// Meta is the request's metadata (see Page.Meta): what Enqueue or a
	// Follow gave it, empty otherwise. Keys set here reach Page.Meta of
	// the page fetched. Never nil.
	Meta map[string]string
}

// WithHeader adds a header sent with every page request (not with
// robots.txt requests). Giving the same key again replaces its value.
// The header goes to every host: for credentials, use WithBasicAuth, which
// sends them to one host only. User-Agent cannot be set here (use
// WithUserAgent); Accept replaces the fetcher's default Accept.
// Default: none.
func WithHeader(key, value string) Option {
	return func(c *config) {
		if c.requests.header == nil {
			c.requests.header = make(http.Header)
		}
		c.requests.header.Set(key, value)
	}
}

// WithOnRequest sets a hook called before each page request (and each
// retry), once robots.txt allows the URL, from the worker that fetches it:
// it may set headers and metadata on r, or abort the URL by returning an
// error, which drops it without a fetch (a DecisionAborted, counted in
// Stats.URLs.Aborted). fn must be safe for concurrent use.
// Default: none.
func WithOnRequest(fn func(ctx context.Context, r *OutgoingRequest) error) Option {
	return func(c *config) { c.requests.hook = fn }
}

// WithCookies sets whether the crawl keeps cookies: a cookie jar
// (net/http/cookiejar, with the public suffix list of
// golang.org/x/net/publicsuffix, so that a site cannot set cookies for a
// whole public suffix such as co.uk) stores what servers set with
// Set-Cookie and sends it back to the hosts and paths it belongs to.
// The jar lives as long as the Crawler and keeps the limits browsers keep
// (RFC 6265 §6.1's floor): cookies of at most 4096 bytes, 50 per
// registrable domain and 3000 in all, the oldest deleted first past them,
// and a Cookie header of at most 8 KiB; so a server that sets thousands
// of cookies costs at most about 12 MiB and sends nothing larger back.
// Default false: no cookies are kept or sent, as befits a crawler.
func WithCookies(on bool) Option {
	return func(c *config) { c.requests.cookies = on }
}

// WithProxy makes the default fetcher send requests through the proxy fn
// names for each one (nil for a direct request), as http.Transport.Proxy:
// http.ProxyURL(u) names one proxy. The private-network guard still
// applies, to each request's own host rather than to the proxy (see
// fetch.Options.Proxy): a URL whose host is, or resolves here to, a
// loopback or private address is refused as without a proxy, while the
// proxy itself may be on any address, a local proxy included. New fails
// when WithFetcher is given too. For the proxies the environment names
// (HTTP_PROXY, HTTPS_PROXY, NO_PROXY), give ProxyFromEnvironment(): the
// environment is ignored unless the program says so, so that a crawler
// behaves the same wherever it runs. Default: no proxy.
func WithProxy(fn func(*http.Request) (*url.URL, error)) Option {
	return func(c *config) { c.requests.proxy = fn }
}

// ProxyFromEnvironment returns a proxy function for WithProxy that uses
// the proxies the environment names when it is called: HTTP_PROXY,
// HTTPS_PROXY and NO_PROXY (or their lower-case forms), with the rules of
// golang.org/x/net/http/httpproxy (requests to localhost and loopback
// addresses never go through a proxy). Unlike http.ProxyFromEnvironment,
// it reads the environment anew at each call, not once per process.
func ProxyFromEnvironment() func(*http.Request) (*url.URL, error) {
	fn := httpproxy.FromEnvironment().ProxyFunc()
	return func(r *http.Request) (*url.URL, error) { return fn(r.URL) }
}

// WithBasicAuth sends user and password (HTTP Basic authentication,
// RFC 7617) with every page request to origin, and to nothing else. origin
// is a scheme, a host and perhaps a port, "https://docs.example.com" or
// "http://intranet.test:8080": RFC 7617's protection space, so the
// credentials never go in cleartext to http:// after a redirect or a link,
// nor to another port or host (a redirect is a new request, which does not
// get them unless its target is the same origin). New fails for anything
// but an http or https origin without a path. Give it once per origin.
// Default: none.
func WithBasicAuth(origin, user, password string) Option {
	return func(c *config) {
		c.requests.authSpecs = append(c.requests.authSpecs, authSpec{origin: origin,
			value: "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))})
	}
}

// authSpec is one WithBasicAuth, checked by New.
type authSpec struct{ origin, value string }

// originKey returns u's origin as WithBasicAuth keys it: scheme://host,
// with the port unless it is the scheme's default.
func originKey(u *url.URL) string {
	return strings.ToLower(u.Scheme) + "://" + urlnorm.Key(u)
}

// requestConfig is what the options above set.
type requestConfig struct {
	header    http.Header
	hook      func(ctx context.Context, r *OutgoingRequest) error
	cookies   bool
	jar       http.CookieJar // made by New when cookies is set
	proxy     func(*http.Request) (*url.URL, error)
	authSpecs []authSpec        // WithBasicAuth, in order
	auth      map[string]string // origin (originKey) -> Authorization value, made by New
}

// setupRequests prepares the request options in New.
func (c *Crawler) setupRequests() error {
	rc := &c.cfg.requests
	if rc.header != nil {
		rc.header = rc.header.Clone()
		rc.header.Del("User-Agent")
	}
	for _, a := range rc.authSpecs {
		u, err := url.Parse(a.origin)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil {
			return fmt.Errorf("trawl: WithBasicAuth(%q): give an origin such as https://docs.example.com (a scheme, a host and perhaps a port): credentials go to that origin only", a.origin)
		}
		if rc.auth == nil {
			rc.auth = make(map[string]string)
		}
		rc.auth[originKey(u)] = a.value
	}
	if rc.cookies {
		jar, err := newBoundedJar()
		if err != nil {
			return fmt.Errorf("trawl: cookie jar: %w", err)
		}
		rc.jar = jar
	}
	// A custom fetcher gets the User-Agent in every request's header.
	c.plainRequests = rc.header == nil && rc.hook == nil && rc.jar == nil && len(rc.auth) == 0 && c.cfg.fetcher == nil
	return nil
}

// requestHeader sets the header for the visit's fetch (nil when there is
// nothing to add) after running the request hook, which may change the
// URL's metadata. It returns an error when the hook aborts the URL.
func (c *Crawler) requestHeader(ctx context.Context, v *visit) error {
	if c.plainRequests {
		return nil
	}
	rc, u := &c.cfg.requests, v.u
	h := make(http.Header, len(rc.header)+2)
	for k, vals := range rc.header {
		h[k] = append([]string(nil), vals...)
	}
	if auth, ok := rc.auth[originKey(u)]; ok {
		h.Set("Authorization", auth)
	}
	if rc.jar != nil {
		if cookies := rc.jar.Cookies(u); len(cookies) > 0 {
			h.Set("Cookie", cookieHeader(h.Get("Cookie"), cookies))
		}
	}
	if rc.hook != nil {
		req := &v.req
		or := &OutgoingRequest{URL: u, Depth: req.Depth, Referrer: req.Referrer, Anchor: req.Anchor,
			Retries: req.Retries, Header: h, Meta: maps.Clone(v.data.meta)}
		if or.Meta == nil {
			or.Meta = make(map[string]string)
		}
		if err := rc.hook(ctx, or); err != nil {
			return err
		}
		h = or.Header
		if h == nil {
			h = make(http.Header)
		}
		if !maps.Equal(or.Meta, v.data.meta) {
			v.data.meta, v.dataChanged = or.Meta, true // kept for a retry
			if len(or.Meta) == 0 {
				v.data.meta = nil
			}
		}
	}
	h.Set("User-Agent", c.cfg.userAgent)
	v.header = h
	return nil
}

// keepCookies stores the cookies a response set.
func (c *Crawler) keepCookies(u *url.URL, h http.Header) {
	jar := c.cfg.requests.jar
	if jar == nil || len(h["Set-Cookie"]) == 0 {
		return
	}
	if cookies := (&http.Response{Header: h}).Cookies(); len(cookies) > 0 {
		jar.SetCookies(u, cookies)
	}
}

// EnqueueOption qualifies a URL given to Crawler.Enqueue or
// Element.Follow.
type EnqueueOption func(*enqueueOptions)

type enqueueOptions struct {
	from     *Page
	depth    int
	anchor   string
	meta     map[string]string
	priority float64
	handler  string
}

// HandlerKey is the Page.Meta key that names the handler (WithHandler) a
// URL was queued for with Handler.
const HandlerKey = "trawl.handler"

// WithHandler registers fn as the page handler called name: a URL queued
// with Handler(name) (Crawler.Enqueue, Element.Follow) is given to fn when
// it has been fetched, as Scrapy's Request(callback=...) is, after
// Events.OnPage and the WithHTML callbacks. The handler's name travels
// with the URL (Page.Meta[HandlerKey]), so it holds across a resume
// (frontier/disk) and across a cluster's agents (each registers the same
// handlers), and through redirects; the links of the page it handles do
// not inherit it. Default: no handlers.
func WithHandler(name string, fn func(ctx context.Context, p *Page)) Option {
	return func(c *config) {
		if c.handlers == nil {
			c.handlers = make(map[string]func(context.Context, *Page))
		}
		c.handlers[name] = fn
	}
}

// Handler queues the URL for the page handler name (see WithHandler);
// Enqueue fails for a name WithHandler did not register.
func Handler(name string) EnqueueOption { return func(o *enqueueOptions) { o.handler = name } }

// runHandler gives p to the handler its URL was queued for, if any. A
// name no handler has (a crawl resumed by a program that no longer
// registers it) is an error of the crawl, reported as a bad selector is.
func (c *Crawler) runHandler(ctx context.Context, p *Page) {
	name := p.Meta[HandlerKey]
	if name == "" {
		return
	}
	if fn := c.cfg.handlers[name]; fn != nil {
		fn(ctx, p)
		return
	}
	err := fmt.Errorf("trawl: page %s was queued for handler %q, which WithHandler did not register", p.URL, name)
	c.stats.errorKind("handler")
	c.onError(ctx, p.URL.String(), err)
}

// FromPage says the URL was found on p: a relative URL is resolved
// against p's URL, the depth is p's plus one, p is the referrer, and p's
// Meta is carried over (SetMeta adds to it).
func FromPage(p *Page) EnqueueOption { return func(o *enqueueOptions) { o.from = p } }

// AtDepth sets the URL's depth (seeds have depth 1), overriding FromPage's.
func AtDepth(d int) EnqueueOption { return func(o *enqueueOptions) { o.depth = d } }

// WithAnchor sets the anchor text the URL is queued with.
func WithAnchor(text string) EnqueueOption { return func(o *enqueueOptions) { o.anchor = text } }

// SetMeta sets a metadata key the fetched page will carry in Page.Meta.
func SetMeta(key, value string) EnqueueOption {
	return func(o *enqueueOptions) {
		if o.meta == nil {
			o.meta = make(map[string]string)
		}
		o.meta[key] = value
	}
}

// AtPriority sets the URL's priority in a best-first crawl (WithPriority);
// higher is sooner. Ignored by breadth-first crawls.
func AtPriority(score float64) EnqueueOption { return func(o *enqueueOptions) { o.priority = score } }

// Enqueue queues rawURL as if a page had linked to it: it is normalized,
// and the depth limit, the trap rules and the Filters apply, then the
// frontier, which drops URLs it has seen. With FromPage(p), rawURL may be
// relative to p, and the URL gets p's depth plus one and p's metadata;
// without, it is a new seed of depth 1. Enqueue is meant for Events and
// WithHTML callbacks while Run runs (or before Run); it is safe for
// concurrent use. It reports whether the URL was queued (false when a
// rule dropped it or it was seen before), and an error for a URL that is
// not a valid http or https URL, or when the frontier fails.
func (c *Crawler) Enqueue(ctx context.Context, rawURL string, opts ...EnqueueOption) (bool, error) {
	var o enqueueOptions
	for _, opt := range opts {
		opt(&o)
	}
	abs := strings.TrimSpace(rawURL)
	depth, referrer := 1, ""
	var meta map[string]string
	if p := o.from; p != nil && p.URL != nil {
		ref, err := p.URL.Parse(abs)
		if err != nil {
			return false, fmt.Errorf("trawl: enqueue %q: %w", rawURL, err)
		}
		abs = ref.String()
		depth, referrer = p.Depth+1, p.URL.String()
		if len(p.Meta) > 0 {
			meta = maps.Clone(p.Meta)
			delete(meta, HandlerKey) // a handler is the URL's, not its links'
		}
	}
	if o.depth > 0 {
		depth = o.depth
	}
	if len(o.meta) > 0 {
		if meta == nil {
			meta = make(map[string]string, len(o.meta))
		}
		maps.Copy(meta, o.meta)
	}
	if o.handler != "" {
		if c.cfg.handlers[o.handler] == nil {
			return false, fmt.Errorf("trawl: enqueue %q: no handler %q (WithHandler registers them)", rawURL, o.handler)
		}
		if meta == nil {
			meta = make(map[string]string, 1)
		}
		meta[HandlerKey] = o.handler
	}
	n, err := c.norm.Normalize(abs)
	if err != nil {
		return false, fmt.Errorf("trawl: enqueue %q: %w", rawURL, err)
	}
	if !strings.HasPrefix(n, "http://") && !strings.HasPrefix(n, "https://") {
		return false, fmt.Errorf("trawl: enqueue %q: not an http or https URL", rawURL)
	}
	data, err := (&urlData{meta: meta}).encode()
	if err != nil {
		return false, fmt.Errorf("trawl: enqueue %q: %w", rawURL, err)
	}
	r := frontier.Request{URL: n, Depth: depth, Referrer: referrer, Anchor: o.anchor, Priority: o.priority, Data: data}
	if c.opic != nil {
		r.Priority = 0 // it joins with no cash of its own (Priority.OPIC)
	}
	return c.offer(ctx, []frontier.Request{r}) == 1, nil
}
