package robots

import (
	"bytes"
	"container/list"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// Defaults of CacheOptions.
const (
	DefaultTTL          = 24 * time.Hour
	DefaultErrorTTL     = 5 * time.Minute
	DefaultMaxEntries   = 100_000
	DefaultMaxBytes     = 256 << 20
	DefaultMaxBodyBytes = 500 << 10
	DefaultFetchTimeout = 30 * time.Second
	// MaxRedirects is the number of consecutive redirects a Cache follows
	// (RFC 9309 §2.3.1.2: at least five).
	MaxRedirects = 5
)

// Sentinel errors, matched with errors.Is.
var (
	// ErrUnreachable means robots.txt could not be obtained because of a
	// server error (5xx), a 429, a network error or an unusable response;
	// RFC 9309 §2.3.1.4 calls the file unreachable and requires a complete
	// disallow until a later fetch succeeds.
	ErrUnreachable = errors.New("robots: robots.txt unreachable")

	// ErrTooManyRedirects means more than MaxRedirects consecutive redirects;
	// RFC 9309 §2.3.1.2 lets the crawler treat the file as unavailable, which
	// allows everything.
	ErrTooManyRedirects = errors.New("robots: too many redirects")

	// ErrInvalidURL means the URL given to a Cache has no host or a scheme
	// other than http or https.
	ErrInvalidURL = errors.New("robots: invalid URL")
)

// FetchError describes a robots.txt fetch that did not produce rules from a
// 2xx or 4xx response. It wraps ErrUnreachable or ErrTooManyRedirects, and
// the network error if there was one.
type FetchError struct {
	URL        string // the robots.txt URL last requested
	StatusCode int    // the last HTTP status received, 0 if none
	Err        error
}

// Error implements error: "robots: GET <url>: status 503: robots.txt
// unreachable".
func (e *FetchError) Error() string {
	msg := "<nil>"
	if e.Err != nil {
		msg = strings.TrimPrefix(e.Err.Error(), "robots: ")
	}
	if e.StatusCode != 0 {
		return fmt.Sprintf("robots: GET %s: status %d: %s", e.URL, e.StatusCode, msg)
	}
	return fmt.Sprintf("robots: GET %s: %s", e.URL, msg)
}

// Unwrap returns e.Err.
func (e *FetchError) Unwrap() error { return e.Err }

// FetchFunc fetches exactly u with a GET request and returns the response
// without following redirects (an http.Client with CheckRedirect returning
// http.ErrUseLastResponse does that); the Cache follows them itself, so that
// it can count them. The Cache reads at most CacheOptions.MaxBodyBytes of the
// body and closes it. A FetchFunc must honour ctx and be safe for concurrent
// use. ctx carries the deadline of CacheOptions.FetchTimeout; when it
// passes while the body is being read, the Cache closes the body, possibly
// while a Read is blocked in it.
type FetchFunc func(ctx context.Context, u *url.URL) (*http.Response, error)

// CacheOptions configures a Cache. A nil *CacheOptions and zero fields mean
// the defaults.
type CacheOptions struct {
	// TTL is how long rules from a 2xx or 4xx response (or from too many
	// redirects) are used before robots.txt is fetched again.
	// Default DefaultTTL (24 h, the limit of RFC 9309 §2.4).
	TTL time.Duration

	// ErrorTTL is how long an unreachable result (5xx, 429, network error)
	// is kept before the next fetch attempt. Default DefaultErrorTTL (5 min).
	ErrorTTL time.Duration

	// MaxEntries bounds the number of origins cached; the least recently
	// used are evicted. Default DefaultMaxEntries.
	MaxEntries int

	// MaxBytes bounds the approximate memory held by cached rules; the
	// least recently used entries are evicted. Default DefaultMaxBytes.
	MaxBytes int64

	// MaxBodyBytes is how much of a robots.txt body is read and parsed.
	// Default DefaultMaxBodyBytes (500 KiB, RFC 9309 §2.5).
	MaxBodyBytes int64

	// FetchTimeout bounds each request of a robots.txt fetch (each redirect
	// hop), from the call to the FetchFunc to the end of the body read,
	// whatever timeouts the FetchFunc has of its own (see FetchFunc). A
	// request that takes longer makes robots.txt unreachable (RFC 9309
	// §2.3.1.4), like a network error. Zero or negative means the default,
	// DefaultFetchTimeout (30 s).
	FetchTimeout time.Duration

	// Now is the clock. Default time.Now.
	Now func() time.Time
}

// Cache fetches robots.txt files and keeps their rules per origin (scheme,
// host and port) under RFC 9309 §2.3.1 and §2.4. Create one with NewCache.
//
// A Cache is safe for concurrent use by multiple goroutines; concurrent
// requests for one origin share one fetch.
type Cache struct {
	fetch    FetchFunc
	ttl      time.Duration
	errTTL   time.Duration
	maxEnt   int
	maxBytes int64
	maxBody  int64
	timeout  time.Duration
	timedOut error // the cause of a hop's deadline
	now      func() time.Time
	flight   singleflight.Group
	joined   func() // test hook: called when a caller starts waiting for a flight

	mu    sync.Mutex
	items map[string]*list.Element // origin -> *entry
	lru   list.List                // front = most recently used
	bytes int64
}

type entry struct {
	key     string
	rules   *Rules
	err     error
	expires time.Time
	good    *Rules // the last rules from a 2xx/4xx response, kept through failures
	size    int64
}

// NewCache returns a Cache that fetches robots.txt files with fetch. opts may
// be nil.
func NewCache(fetch FetchFunc, opts *CacheOptions) *Cache {
	var o CacheOptions
	if opts != nil {
		o = *opts
	}
	c := &Cache{
		fetch: fetch, ttl: o.TTL, errTTL: o.ErrorTTL, maxEnt: o.MaxEntries,
		maxBytes: o.MaxBytes, maxBody: o.MaxBodyBytes, timeout: o.FetchTimeout, now: o.Now,
		items: make(map[string]*list.Element),
	}
	if c.ttl <= 0 {
		c.ttl = DefaultTTL
	}
	if c.errTTL <= 0 {
		c.errTTL = DefaultErrorTTL
	}
	if c.maxEnt <= 0 {
		c.maxEnt = DefaultMaxEntries
	}
	if c.maxBytes <= 0 {
		c.maxBytes = DefaultMaxBytes
	}
	if c.maxBody <= 0 {
		c.maxBody = DefaultMaxBodyBytes
	}
	if c.timeout <= 0 {
		c.timeout = DefaultFetchTimeout
	}
	c.timedOut = fmt.Errorf("request not done within FetchTimeout (%v): %w", c.timeout, context.DeadlineExceeded)
	if c.now == nil {
		c.now = time.Now
	}
	return c
}

// origin returns the cache key of u ("scheme://host[:port]", lower case,
// default port dropped) and the URL of its robots.txt.
func origin(u *url.URL) (string, *url.URL, error) {
	if u == nil {
		return "", nil, fmt.Errorf("%w: nil URL", ErrInvalidURL)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", nil, fmt.Errorf("%w: scheme %q", ErrInvalidURL, u.Scheme)
	}
	host := strings.ToLower(u.Hostname())
	if host == "" {
		return "", nil, fmt.Errorf("%w: no host in %q", ErrInvalidURL, u.Redacted())
	}
	port := u.Port()
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	hostport := host
	switch {
	case port != "":
		hostport = net.JoinHostPort(host, port)
	case strings.Contains(host, ":"):
		hostport = "[" + host + "]"
	}
	return scheme + "://" + hostport, &url.URL{Scheme: scheme, Host: hostport, Path: "/robots.txt"}, nil
}

// Peek returns the cached rules for u's origin if they are fresh (not
// expired), without fetching. ok is false when a call to Rules would fetch,
// and when u is not a valid http(s) URL.
// Fresh rules include the DisallowAll kept for ErrorTTL after a failed fetch.
func (c *Cache) Peek(u *url.URL) (rules *Rules, ok bool) {
	key, _, err := origin(u)
	if err != nil {
		return nil, false
	}
	if e := c.lookup(key, c.now(), true); e != nil {
		return e.rules, true
	}
	return nil, false
}

// lookup returns the entry for key, if present and (when fresh is set) not
// expired at now, and marks it recently used.
func (c *Cache) lookup(key string, now time.Time, fresh bool) *entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return nil
	}
	e := el.Value.(*entry)
	if fresh && !now.Before(e.expires) {
		return nil
	}
	c.lru.MoveToFront(el)
	return e
}

func (c *Cache) store(e *entry) {
	e.size = e.rules.size + int64(len(e.key)) + 160
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[e.key]; ok {
		c.bytes -= el.Value.(*entry).size
		el.Value = e
		c.lru.MoveToFront(el)
	} else {
		c.items[e.key] = c.lru.PushFront(e)
	}
	c.bytes += e.size
	for c.lru.Len() > 1 && (c.lru.Len() > c.maxEnt || c.bytes > c.maxBytes) {
		el := c.lru.Back()
		old := el.Value.(*entry)
		c.lru.Remove(el)
		delete(c.items, old.key)
		c.bytes -= old.size
	}
}

// result is what a flight returns.
type result struct {
	rules   *Rules
	err     error
	aborted bool // the fetch was cut short by its context: not cached
}

// Rules returns the robots.txt rules for u's origin (scheme, host, port),
// fetching http(s)://host[:port]/robots.txt when they are not cached or have
// expired. Rules of one origin never apply to another: http://a,
// https://a, http://a:8080 and http://sub.a are four origins.
//
// The returned *Rules is never nil and is the verdict to apply; err says how
// it was obtained (RFC 9309 §2.3.1):
//
//   - 2xx: the first MaxBodyBytes of the body, parsed (a line cut by that
//     limit is dropped); err == nil. Cached for TTL.
//   - 3xx with a Location: followed, across origins too, up to MaxRedirects
//     times. One more redirect gives AllowAll (the file is "unavailable")
//     and a *FetchError wrapping ErrTooManyRedirects; cached for TTL.
//   - 4xx other than 429: AllowAll, err == nil. Cached for TTL.
//   - 5xx, 429, a network error, a request (redirect hop) that takes longer
//     than FetchTimeout, a body that fails to read, a redirect without a
//     usable http(s) Location, or any other status: the file is
//     unreachable. The result is DisallowAll, or the previous rules if an
//     earlier fetch of this origin succeeded and is still cached (RFC 9309
//     §2.4 allows using a cached copy), with a *FetchError wrapping
//     ErrUnreachable (and, after FetchTimeout, context.DeadlineExceeded).
//     Cached for ErrorTTL, then fetched again; within that time later calls
//     return the same rules and error without fetching.
//   - u nil, without a host, or not http(s): DisallowAll and an error
//     wrapping ErrInvalidURL; nothing is fetched.
//   - ctx done before the result is known: DisallowAll and ctx.Err();
//     nothing is cached, and other callers waiting for the same fetch carry
//     on (one of them fetches again).
//
// Concurrent calls for one origin share a single fetch (singleflight).
func (c *Cache) Rules(ctx context.Context, u *url.URL) (*Rules, error) {
	key, robotsURL, err := origin(u)
	if err != nil {
		return DisallowAll(), err
	}
	for {
		if e := c.lookup(key, c.now(), true); e != nil {
			return e.rules, e.err
		}
		if err := ctx.Err(); err != nil {
			return DisallowAll(), err
		}
		ch := c.flight.DoChan(key, func() (any, error) {
			return c.load(ctx, key, robotsURL), nil
		})
		if c.joined != nil {
			c.joined()
		}
		select {
		case <-ctx.Done():
			return DisallowAll(), ctx.Err()
		case res := <-ch:
			r := res.Val.(result)
			if r.aborted {
				// The fetch ran under another caller's context, which
				// ended; try again under ours.
				continue
			}
			return r.rules, r.err
		}
	}
}

// load runs inside a flight: it fetches robots.txt and caches the outcome.
func (c *Cache) load(ctx context.Context, key string, robotsURL *url.URL) result {
	// A flight that finished just before this one started may have filled
	// the cache.
	if e := c.lookup(key, c.now(), true); e != nil {
		return result{rules: e.rules, err: e.err}
	}
	rules, unreachable, err := c.get(ctx, robotsURL)
	if err != nil && ctx.Err() != nil {
		return result{aborted: true, err: ctx.Err()}
	}
	now := c.now()
	e := &entry{key: key, rules: rules, err: err, expires: now.Add(c.ttl), good: rules}
	if unreachable {
		e.expires, e.good = now.Add(c.errTTL), nil
		if prev := c.lookup(key, now, false); prev != nil && prev.good != nil {
			e.rules, e.good = prev.good, prev.good
		}
	}
	c.store(e)
	return result{rules: e.rules, err: e.err}
}

// get fetches robotsURL, following redirects, and interprets the outcome.
// unreachable reports the RFC 9309 §2.3.1.4 case.
func (c *Cache) get(ctx context.Context, robotsURL *url.URL) (rules *Rules, unreachable bool, err error) {
	u := robotsURL
	fail := func(status int, cause error) (*Rules, bool, error) {
		r := DisallowAll()
		r.unreachable = true
		return r, true, &FetchError{URL: u.String(), StatusCode: status, Err: cause}
	}
	for redirects := 0; ; redirects++ {
		h := c.hop(ctx, u)
		if h.err != nil {
			return fail(h.code, fmt.Errorf("%w: %w", ErrUnreachable, h.err))
		}
		code := h.code
		switch {
		case code >= 200 && code <= 299:
			r, _ := Parse(h.body)
			return r, false, nil
		case code == http.StatusMovedPermanently, code == http.StatusFound, code == http.StatusSeeOther,
			code == http.StatusTemporaryRedirect, code == http.StatusPermanentRedirect:
			if redirects == MaxRedirects {
				return AllowAll(), false, &FetchError{URL: u.String(), StatusCode: code, Err: ErrTooManyRedirects}
			}
			loc := h.location
			next, err := u.Parse(loc)
			if loc == "" || err != nil || (next.Scheme != "http" && next.Scheme != "https") || next.Host == "" {
				return fail(code, fmt.Errorf("%w: bad redirect location %.256q", ErrUnreachable, loc)) // a cached error: quoted within bounds
			}
			next.Fragment, next.RawFragment = "", ""
			u = next
		case code == http.StatusTooManyRequests, code >= 500:
			return fail(code, ErrUnreachable)
		case code >= 400:
			return AllowAll(), false, nil
		default:
			return fail(code, fmt.Errorf("%w: unexpected status", ErrUnreachable))
		}
	}
}

// hopResult is what one request of a robots.txt fetch produced.
type hopResult struct {
	code     int    // the status, 0 when no response arrived
	location string // the Location header
	body     []byte // for a 2xx, the first maxBody bytes
	err      error  // a failure to fetch or read; the status is still set if known
}

// hop makes one request for u under the Cache's FetchTimeout and reads what
// the status calls for: the body of a 2xx, a little of the others (drained
// for connection reuse). A deadline that passes on the way yields c.timedOut,
// so that the caller can tell it from ctx ending.
func (c *Cache) hop(ctx context.Context, u *url.URL) (h hopResult) {
	hctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	defer func() {
		if h.err != nil && ctx.Err() == nil && hctx.Err() != nil {
			h.err = c.timedOut
		}
	}()
	resp, err := c.fetch(hctx, u)
	if err == nil && resp == nil {
		err = errors.New("FetchFunc returned no response")
	}
	if err != nil {
		return hopResult{err: err}
	}
	h.code, h.location = resp.StatusCode, resp.Header.Get("Location")
	if resp.Body == nil {
		return h
	}
	// A FetchFunc's body may not heed ctx: closing it ends a blocked Read.
	stop := context.AfterFunc(hctx, func() { resp.Body.Close() })
	defer stop()
	if h.code >= 200 && h.code <= 299 {
		h.body, err = readBody(resp.Body, c.maxBody)
		switch {
		case hctx.Err() != nil:
			// Cut short, though the body may have said EOF when closed:
			// never parse part of a file.
			h.body, h.err = nil, hctx.Err()
		case err != nil:
			h.err = fmt.Errorf("reading body: %w", err)
		}
		return h
	}
	discard(resp.Body)
	return h
}

// readBody reads at most max bytes of body and closes it. When the body is
// longer, the last, possibly cut, line is dropped.
func readBody(body io.ReadCloser, max int64) ([]byte, error) {
	if body == nil {
		return nil, nil
	}
	defer body.Close()
	b, err := io.ReadAll(io.LimitReader(body, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		b = b[:max]
		i := bytes.LastIndexAny(b, "\r\n")
		b = b[:i+1]
	}
	return b, nil
}

// discard drains a little of body, for connection reuse, and closes it.
func discard(body io.ReadCloser) {
	if body == nil {
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(body, 4<<10))
	_ = body.Close()
}
