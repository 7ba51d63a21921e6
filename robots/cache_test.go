package robots

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable clock for CacheOptions.Now.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *fakeClock { return &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// site is a loopback HTTP server that plays many origins: the test's fetch
// function sends every request to it with the origin's Host, and its handler
// looks the origin up in a table. It counts requests per origin.
type site struct {
	srv *httptest.Server

	mu       sync.Mutex
	handlers map[string]http.HandlerFunc // "scheme://host" -> handler
	hits     map[string]int
}

func newSite(t *testing.T) *site {
	t.Helper()
	s := &site{handlers: make(map[string]http.HandlerFunc), hits: make(map[string]int)}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("X-Test-Scheme") + "://" + r.Host + r.URL.Path
		s.mu.Lock()
		s.hits[key]++
		h := s.handlers[key]
		s.mu.Unlock()
		if h == nil {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// handle serves rawURL ("scheme://host/path") with h.
func (s *site) handle(rawURL string, h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers[rawURL] = h
}

func (s *site) count(rawURL string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[rawURL]
}

// fetch is the FetchFunc of the tests: a real HTTP request to the loopback
// server, Host set to the requested origin, redirects not followed.
func (s *site) fetch(ctx context.Context, u *url.URL) (*http.Response, error) {
	target, _ := url.Parse(s.srv.URL)
	v := *u
	v.Scheme, v.Host = "http", target.Host
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Host = u.Host
	req.Header.Set("X-Test-Scheme", u.Scheme)
	client := &http.Client{
		Transport:     s.srv.Client().Transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return client.Do(req)
}

func text(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(body)) }
}

func status(code int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(code) }
}

func redirect(code int, location string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if location != "" {
			w.Header().Set("Location", location)
		}
		w.WriteHeader(code)
	}
}

func mustURL(t testing.TB, rawURL string) *url.URL {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// rules calls c.Rules and checks the verdict for path and the error.
func checkRules(t *testing.T, c *Cache, rawURL, path string, wantAllowed bool, wantErr error) *Rules {
	t.Helper()
	r, err := c.Rules(context.Background(), mustURL(t, rawURL))
	if r == nil {
		t.Fatalf("Rules(%q) returned nil rules (err %v)", rawURL, err)
	}
	switch {
	case wantErr == nil && err != nil:
		t.Errorf("Rules(%q) error = %v, want nil", rawURL, err)
	case wantErr != nil && !errors.Is(err, wantErr):
		t.Errorf("Rules(%q) error = %v, want %v", rawURL, err, wantErr)
	}
	if got := r.Allowed("trawl", path); got != wantAllowed {
		t.Errorf("Rules(%q).Allowed(%q) = %v, want %v", rawURL, path, got, wantAllowed)
	}
	return r
}

func TestCacheSuccessAndTTL(t *testing.T) {
	s := newSite(t)
	clk := newClock()
	s.handle("http://a.test/robots.txt", text("User-agent: *\nDisallow: /private\n"))
	c := NewCache(s.fetch, &CacheOptions{TTL: time.Hour, Now: clk.Now})

	if _, ok := c.Peek(mustURL(t, "http://a.test/x")); ok {
		t.Fatal("Peek before any fetch = true, want false")
	}
	checkRules(t, c, "http://a.test/x", "/private/1", false, nil)
	checkRules(t, c, "http://a.test/y", "/public", true, nil)
	if n := s.count("http://a.test/robots.txt"); n != 1 {
		t.Fatalf("robots.txt fetched %d times, want 1", n)
	}
	if r, ok := c.Peek(mustURL(t, "http://a.test/z")); !ok || r.Allowed("trawl", "/private") {
		t.Fatalf("Peek after fetch = (%v, %v), want fresh rules disallowing /private", r, ok)
	}

	clk.Advance(time.Hour - time.Second)
	checkRules(t, c, "http://a.test/x", "/private", false, nil)
	if n := s.count("http://a.test/robots.txt"); n != 1 {
		t.Fatalf("robots.txt fetched %d times before TTL, want 1", n)
	}

	clk.Advance(time.Second)
	if _, ok := c.Peek(mustURL(t, "http://a.test/z")); ok {
		t.Fatal("Peek at TTL = true, want false (expired)")
	}
	s.handle("http://a.test/robots.txt", text("User-agent: *\nDisallow: /other\n"))
	checkRules(t, c, "http://a.test/x", "/private", true, nil)
	checkRules(t, c, "http://a.test/x", "/other", false, nil)
	if n := s.count("http://a.test/robots.txt"); n != 2 {
		t.Fatalf("robots.txt fetched %d times after TTL, want 2", n)
	}
}

func TestCacheStatus(t *testing.T) {
	const ttl, errTTL = time.Hour, time.Minute
	tests := []struct {
		name        string
		handler     http.HandlerFunc
		wantAllowed bool // verdict for /x
		wantErr     error
		wantStatus  int           // FetchError.StatusCode when wantErr != nil
		refetchIn   time.Duration // when the next fetch happens
	}{
		{name: "200 parsed", handler: text("User-agent: *\nDisallow: /x\n"), wantAllowed: false, refetchIn: ttl},
		{name: "204 empty file allows", handler: status(http.StatusNoContent), wantAllowed: true, refetchIn: ttl},
		{name: "404 allows all", handler: status(http.StatusNotFound), wantAllowed: true, refetchIn: ttl},
		{name: "401 allows all", handler: status(http.StatusUnauthorized), wantAllowed: true, refetchIn: ttl},
		{name: "403 allows all", handler: status(http.StatusForbidden), wantAllowed: true, refetchIn: ttl},
		{name: "410 allows all", handler: status(http.StatusGone), wantAllowed: true, refetchIn: ttl},
		{name: "429 disallows and retries", handler: status(http.StatusTooManyRequests), wantAllowed: false, wantErr: ErrUnreachable, wantStatus: 429, refetchIn: errTTL},
		{name: "500 disallows and retries", handler: status(http.StatusInternalServerError), wantAllowed: false, wantErr: ErrUnreachable, wantStatus: 500, refetchIn: errTTL},
		{name: "503 disallows and retries", handler: status(http.StatusServiceUnavailable), wantAllowed: false, wantErr: ErrUnreachable, wantStatus: 503, refetchIn: errTTL},
		{name: "304 is unexpected", handler: status(http.StatusNotModified), wantAllowed: false, wantErr: ErrUnreachable, wantStatus: 304, refetchIn: errTTL},
		{name: "redirect without location", handler: redirect(http.StatusFound, ""), wantAllowed: false, wantErr: ErrUnreachable, wantStatus: 302, refetchIn: errTTL},
		{name: "redirect to another scheme", handler: redirect(http.StatusFound, "ftp://a.test/robots.txt"), wantAllowed: false, wantErr: ErrUnreachable, wantStatus: 302, refetchIn: errTTL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t)
			clk := newClock()
			s.handle("http://a.test/robots.txt", tt.handler)
			c := NewCache(s.fetch, &CacheOptions{TTL: ttl, ErrorTTL: errTTL, Now: clk.Now})
			r := checkRules(t, c, "http://a.test/", "/x", tt.wantAllowed, tt.wantErr)
			if r.Unreachable() != errors.Is(tt.wantErr, ErrUnreachable) {
				t.Errorf("Unreachable() = %v, want %v", r.Unreachable(), errors.Is(tt.wantErr, ErrUnreachable))
			}
			if cached, _ := c.Peek(mustURL(t, "http://a.test/")); cached.Unreachable() != r.Unreachable() {
				t.Errorf("Peek's rules: Unreachable() = %v, want %v", cached.Unreachable(), r.Unreachable())
			}
			if !r.Allowed("trawl", "/robots.txt") {
				t.Errorf("Allowed(%q, %q) = false, want true", "trawl", "/robots.txt")
			}
			if tt.wantErr != nil {
				_, err := c.Rules(context.Background(), mustURL(t, "http://a.test/"))
				var fe *FetchError
				if !errors.As(err, &fe) || fe.StatusCode != tt.wantStatus {
					t.Errorf("Rules error = %v, want *FetchError with status %d", err, tt.wantStatus)
				} else if want := fmt.Sprintf("robots: GET http://a.test/robots.txt: status %d: robots.txt unreachable", tt.wantStatus); !strings.HasPrefix(err.Error(), want) {
					t.Errorf("Rules error = %q, want prefix %q", err, want)
				}
			}
			clk.Advance(tt.refetchIn - time.Second)
			checkRules(t, c, "http://a.test/", "/x", tt.wantAllowed, tt.wantErr)
			if n := s.count("http://a.test/robots.txt"); n != 1 {
				t.Fatalf("fetched %d times before %v, want 1", n, tt.refetchIn)
			}
			clk.Advance(time.Second)
			checkRules(t, c, "http://a.test/", "/x", tt.wantAllowed, tt.wantErr)
			if n := s.count("http://a.test/robots.txt"); n != 2 {
				t.Fatalf("fetched %d times at %v, want 2", n, tt.refetchIn)
			}
		})
	}
}

func TestCacheRetryAfterServerError(t *testing.T) {
	s := newSite(t)
	clk := newClock()
	s.handle("http://a.test/robots.txt", status(http.StatusServiceUnavailable))
	c := NewCache(s.fetch, &CacheOptions{ErrorTTL: time.Minute, Now: clk.Now})

	checkRules(t, c, "http://a.test/", "/page", false, ErrUnreachable)
	if r, ok := c.Peek(mustURL(t, "http://a.test/")); !ok || r.Allowed("trawl", "/page") {
		t.Errorf("Peek after 503 = (%v, %v), want fresh DisallowAll", r, ok)
	}
	s.handle("http://a.test/robots.txt", text("User-agent: *\nDisallow: /admin\n"))
	clk.Advance(59 * time.Second)
	checkRules(t, c, "http://a.test/", "/page", false, ErrUnreachable)
	clk.Advance(time.Second)
	checkRules(t, c, "http://a.test/", "/page", true, nil)
	checkRules(t, c, "http://a.test/", "/admin", false, nil)
	if n := s.count("http://a.test/robots.txt"); n != 2 {
		t.Errorf("fetched %d times, want 2", n)
	}
}

func TestCacheKeepsRulesWhenRefetchFails(t *testing.T) {
	s := newSite(t)
	clk := newClock()
	s.handle("http://a.test/robots.txt", text("User-agent: *\nDisallow: /admin\n"))
	c := NewCache(s.fetch, &CacheOptions{TTL: time.Hour, ErrorTTL: time.Minute, Now: clk.Now})
	checkRules(t, c, "http://a.test/", "/page", true, nil)

	s.handle("http://a.test/robots.txt", status(http.StatusBadGateway))
	clk.Advance(time.Hour)
	// The previous rules stay in force, with an error saying why.
	checkRules(t, c, "http://a.test/", "/page", true, ErrUnreachable)
	checkRules(t, c, "http://a.test/", "/admin", false, ErrUnreachable)
	clk.Advance(time.Minute) // a second failure keeps them too
	checkRules(t, c, "http://a.test/", "/page", true, ErrUnreachable)
	if n := s.count("http://a.test/robots.txt"); n != 3 {
		t.Fatalf("fetched %d times, want 3", n)
	}

	s.handle("http://a.test/robots.txt", text("User-agent: *\nDisallow: /page\n"))
	clk.Advance(time.Minute)
	checkRules(t, c, "http://a.test/", "/page", false, nil)
	checkRules(t, c, "http://a.test/", "/admin", true, nil)
}

func TestCacheNetworkError(t *testing.T) {
	s := newSite(t)
	clk := newClock()
	c := NewCache(s.fetch, &CacheOptions{ErrorTTL: time.Minute, Now: clk.Now})
	s.srv.Close() // connection refused from now on

	r := checkRules(t, c, "http://a.test/", "/page", false, ErrUnreachable)
	if !r.Allowed("trawl", "http://a.test/robots.txt") {
		t.Errorf("Allowed(%q) = false, want true", "/robots.txt")
	}
	_, err := c.Rules(context.Background(), mustURL(t, "http://a.test/"))
	var fe *FetchError
	if !errors.As(err, &fe) || fe.StatusCode != 0 || fe.URL != "http://a.test/robots.txt" {
		t.Errorf("Rules error = %#v, want *FetchError{URL: %q, StatusCode: 0}", err, "http://a.test/robots.txt")
	}
	if want := "robots: GET http://a.test/robots.txt: robots.txt unreachable: "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Rules error = %v, want prefix %q", err, want)
	}
}

func TestCacheRedirects(t *testing.T) {
	const final = "User-agent: *\nDisallow: /x\n"
	// chain serves robots.txt of a.test as n redirects through other
	// origins (alternating absolute and relative Locations) and then the file.
	chain := func(s *site, n int) {
		prev := "http://a.test/robots.txt"
		for i := 1; i <= n; i++ {
			next := fmt.Sprintf("http://hop%d.test/robots.txt", i)
			loc := next
			if i%2 == 0 {
				loc = fmt.Sprintf("//hop%d.test/robots.txt", i)
			}
			codes := []int{301, 302, 303, 307, 308}
			s.handle(prev, redirect(codes[i%len(codes)], loc))
			prev = next
		}
		s.handle(prev, text(final))
	}
	tests := []struct {
		name        string
		hops        int
		wantAllowed bool
		wantErr     error
	}{
		{name: "one redirect", hops: 1, wantAllowed: false},
		{name: "five redirects", hops: MaxRedirects, wantAllowed: false},
		{name: "six redirects: unavailable", hops: MaxRedirects + 1, wantAllowed: true, wantErr: ErrTooManyRedirects},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t)
			clk := newClock()
			chain(s, tt.hops)
			c := NewCache(s.fetch, &CacheOptions{TTL: time.Hour, Now: clk.Now})
			checkRules(t, c, "http://a.test/page", "/x", tt.wantAllowed, tt.wantErr)
			// The redirect targets' origins are not cached under a.test's key
			// or their own.
			if _, ok := c.Peek(mustURL(t, "http://hop1.test/")); ok {
				t.Errorf("Peek(hop1.test) = true, want false: a redirect target is not its origin's robots.txt")
			}
			clk.Advance(time.Hour - time.Second)
			checkRules(t, c, "http://a.test/page", "/x", tt.wantAllowed, tt.wantErr)
			if n := s.count("http://a.test/robots.txt"); n != 1 {
				t.Errorf("fetched %d times within TTL, want 1", n)
			}
		})
	}
}

func TestCacheBodyLimit(t *testing.T) {
	tests := []struct {
		name        string
		body        string
		limit       int64
		path        string
		wantAllowed bool
	}{
		{name: "rule within the limit applies", body: "User-agent: *\nDisallow: /a\n# padding\nDisallow: /b\n", limit: 28, path: "/a", wantAllowed: false},
		{name: "rule beyond the limit is not read", body: "User-agent: *\nDisallow: /a\n# padding\nDisallow: /b\n", limit: 28, path: "/b", wantAllowed: true},
		// Cut after "Allow: /abc", the line would allow /abcxyz: it is dropped.
		{name: "line cut by the limit is dropped", body: "User-agent: *\nDisallow: /\nAllow: /abcdef\n", limit: 37, path: "/abcxyz", wantAllowed: false},
		{name: "body exactly at the limit is read whole", body: "User-agent: *\nDisallow: /\nAllow: /abcdef\n", limit: 41, path: "/abcdef", wantAllowed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t)
			s.handle("http://a.test/robots.txt", text(tt.body))
			c := NewCache(s.fetch, &CacheOptions{MaxBodyBytes: tt.limit, Now: newClock().Now})
			checkRules(t, c, "http://a.test/", tt.path, tt.wantAllowed, nil)
		})
	}
}

func TestCacheOrigins(t *testing.T) {
	s := newSite(t)
	clk := newClock()
	origins := []string{"http://a.test", "https://a.test", "http://a.test:8080", "http://sub.a.test", "http://[::1]:8080"}
	for i, o := range origins {
		s.handle(o+"/robots.txt", text(fmt.Sprintf("User-agent: *\nDisallow: /only%d\n", i)))
	}
	c := NewCache(s.fetch, &CacheOptions{Now: clk.Now})
	for i, o := range origins {
		for j := range origins {
			checkRules(t, c, o+"/page", fmt.Sprintf("/only%d", j), i != j, nil)
		}
		if n := s.count(o + "/robots.txt"); n != 1 {
			t.Errorf("%s/robots.txt fetched %d times, want 1", o, n)
		}
	}
	// Same origins spelled differently share the entry.
	for _, alias := range []string{"http://a.test:80/x", "HTTP://A.TEST/y", "https://a.test:443/z"} {
		u := mustURL(t, alias)
		if _, ok := c.Peek(u); !ok {
			t.Errorf("Peek(%q) = false, want true (same origin as a cached one)", alias)
		}
	}
	if n := s.count("http://a.test/robots.txt") + s.count("https://a.test/robots.txt"); n != 2 {
		t.Errorf("a.test robots fetched %d times over both schemes, want 2", n)
	}
}

func TestCacheInvalidURL(t *testing.T) {
	calls := 0
	c := NewCache(func(context.Context, *url.URL) (*http.Response, error) {
		calls++
		return nil, errors.New("unexpected fetch")
	}, nil)
	for _, u := range []*url.URL{nil, {Scheme: "ftp", Host: "a.test"}, {Scheme: "http", Path: "/x"}} {
		r, err := c.Rules(context.Background(), u)
		if !errors.Is(err, ErrInvalidURL) {
			t.Errorf("Rules(%v) error = %v, want ErrInvalidURL", u, err)
		}
		if r == nil || r.Allowed("trawl", "/x") {
			t.Errorf("Rules(%v) rules = %v, want DisallowAll", u, r)
		}
		if _, ok := c.Peek(u); ok {
			t.Errorf("Peek(%v) = true, want false", u)
		}
	}
	if calls != 0 {
		t.Errorf("fetch called %d times, want 0", calls)
	}
}

func TestCacheSingleflight(t *testing.T) {
	const callers = 32
	s := newSite(t)
	entered := make(chan struct{}, callers)
	release := make(chan struct{})
	s.handle("http://a.test/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
		_, _ = w.Write([]byte("User-agent: *\nDisallow: /x\n"))
	})
	c := NewCache(s.fetch, &CacheOptions{Now: newClock().Now})
	joined := make(chan struct{}, callers)
	c.joined = func() { joined <- struct{}{} }

	var wg sync.WaitGroup
	results := make([]*Rules, callers)
	errs := make([]error, callers)
	for i := range callers {
		wg.Go(func() {
			results[i], errs[i] = c.Rules(context.Background(), mustURL(t, fmt.Sprintf("http://a.test/p%d", i)))
		})
	}
	for range callers {
		<-joined // every caller is waiting on the flight, the handler still held
	}
	<-entered
	close(release)
	wg.Wait()

	if n := s.count("http://a.test/robots.txt"); n != 1 {
		t.Errorf("%d concurrent callers caused %d fetches, want 1", callers, n)
	}
	for i := range callers {
		if errs[i] != nil || results[i] != results[0] || results[i].Allowed("trawl", "/x") {
			t.Errorf("caller %d got (%p, %v), want the shared rules disallowing /x", i, results[i], errs[i])
		}
	}
}

func TestCacheCallerCancels(t *testing.T) {
	s := newSite(t)
	entered := make(chan struct{}, 2)
	release := make(chan struct{})
	s.handle("http://a.test/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		select {
		case <-release:
			_, _ = w.Write([]byte("User-agent: *\nDisallow: /x\n"))
		case <-r.Context().Done():
		}
	})
	c := NewCache(s.fetch, &CacheOptions{Now: newClock().Now})
	joined := make(chan struct{}, 4)
	c.joined = func() { joined <- struct{}{} }
	u := mustURL(t, "http://a.test/")

	// A starts the fetch under its context.
	ctxA, cancelA := context.WithCancel(context.Background())
	defer cancelA()
	type res struct {
		r   *Rules
		err error
	}
	doneA, doneB := make(chan res, 1), make(chan res, 1)
	go func() { r, err := c.Rules(ctxA, u); doneA <- res{r, err} }()
	<-joined
	<-entered
	// B waits for the same flight.
	go func() { r, err := c.Rules(context.Background(), u); doneB <- res{r, err} }()
	<-joined

	cancelA()
	a := <-doneA
	if !errors.Is(a.err, context.Canceled) || a.r == nil || a.r.Allowed("trawl", "/y") {
		t.Errorf("cancelled caller got (%v, %v), want (DisallowAll, context.Canceled)", a.r, a.err)
	}
	// B carries on with a fetch of its own, which the server completes.
	<-joined
	<-entered
	close(release)
	b := <-doneB
	if b.err != nil || b.r.Allowed("trawl", "/x") || !b.r.Allowed("trawl", "/y") {
		t.Errorf("waiting caller got (%v, %v), want the parsed rules", b.r, b.err)
	}
	if n := s.count("http://a.test/robots.txt"); n != 2 {
		t.Errorf("fetched %d times, want 2 (the cancelled fetch is not cached)", n)
	}
}

func TestCacheEviction(t *testing.T) {
	s := newSite(t)
	for _, h := range []string{"a", "b", "c"} {
		s.handle("http://"+h+".test/robots.txt", text("User-agent: *\nDisallow: /"+h+"\n"))
	}
	t.Run("MaxEntries", func(t *testing.T) {
		c := NewCache(s.fetch, &CacheOptions{MaxEntries: 2, Now: newClock().Now})
		checkRules(t, c, "http://a.test/", "/a", false, nil)
		checkRules(t, c, "http://b.test/", "/b", false, nil)
		if _, ok := c.Peek(mustURL(t, "http://a.test/")); !ok { // a is now the most recent
			t.Fatal("Peek(a) = false, want true")
		}
		checkRules(t, c, "http://c.test/", "/c", false, nil)
		for h, want := range map[string]bool{"a": true, "b": false, "c": true} {
			if _, ok := c.Peek(mustURL(t, "http://"+h+".test/")); ok != want {
				t.Errorf("Peek(%s) = %v, want %v", h, ok, want)
			}
		}
	})
	t.Run("MaxBytes", func(t *testing.T) {
		c := NewCache(s.fetch, &CacheOptions{MaxBytes: 1, Now: newClock().Now})
		checkRules(t, c, "http://a.test/", "/a", false, nil)
		checkRules(t, c, "http://b.test/", "/b", false, nil)
		if _, ok := c.Peek(mustURL(t, "http://a.test/")); ok {
			t.Error("Peek(a) = true, want false: the byte bound keeps only the newest entry")
		}
		if _, ok := c.Peek(mustURL(t, "http://b.test/")); !ok {
			t.Error("Peek(b) = false, want true")
		}
	})
}

// trickleRobots answers 200 and sends body one byte every interval; it stops
// when the client goes away. A deadline that does not work shows as the
// whole body read, not as a hang.
func trickleRobots(body string, interval time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for i := range len(body) {
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
			}
			if _, err := w.Write([]byte{body[i]}); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}
}

func TestCacheFetchTimeout(t *testing.T) {
	const errTTL = time.Minute
	// Each server below would, without a deadline, end up serving this
	// file, which allows /x, after about 5 s.
	allowX := "User-agent: *\nDisallow: /private\n" + strings.Repeat("#", 460) + "\n"
	late := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
			_, _ = w.Write([]byte(allowX))
		}
	}
	tests := []struct {
		name       string
		handler    http.HandlerFunc // robots.txt of a.test, when fetch is nil
		fetch      func(s *site) FetchFunc
		wantStatus int
		wantURL    string
	}{
		{name: "body trickles one byte per 10 ms", handler: trickleRobots(allowX, 10*time.Millisecond), wantStatus: 200},
		{name: "header never comes", handler: late, wantStatus: 0},
		{name: "redirect to a trickle", handler: redirect(http.StatusMovedPermanently, "http://b.test/robots.txt"),
			wantStatus: 200, wantURL: "http://b.test/robots.txt"},
		{name: "FetchFunc whose body ignores ctx", fetch: func(*site) FetchFunc {
			return func(ctx context.Context, u *url.URL) (*http.Response, error) {
				pr, pw := io.Pipe()
				time.AfterFunc(5*time.Second, func() { pw.Write([]byte(allowX)); pw.Close() })
				return &http.Response{StatusCode: 200, Header: http.Header{}, Body: pr}, nil
			}
		}, wantStatus: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t)
			clk := newClock()
			s.handle("http://a.test/robots.txt", tt.handler)
			s.handle("http://b.test/robots.txt", trickleRobots(allowX, 10*time.Millisecond))
			fetch := s.fetch
			if tt.fetch != nil {
				fetch = tt.fetch(s)
			}
			c := NewCache(fetch, &CacheOptions{FetchTimeout: 200 * time.Millisecond, ErrorTTL: errTTL, Now: clk.Now})

			r, err := c.Rules(context.Background(), mustURL(t, "http://a.test/x"))
			if r.Allowed("trawl", "/x") || !errors.Is(err, ErrUnreachable) || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("Rules = (allows /x: %v, %v), want DisallowAll and an error wrapping ErrUnreachable and context.DeadlineExceeded",
					r.Allowed("trawl", "/x"), err)
			}
			var fe *FetchError
			wantURL := tt.wantURL
			if wantURL == "" {
				wantURL = "http://a.test/robots.txt"
			}
			if !errors.As(err, &fe) || fe.StatusCode != tt.wantStatus || fe.URL != wantURL {
				t.Errorf("Rules error = %v, want a *FetchError for %s with status %d", err, wantURL, tt.wantStatus)
			}
			if want := "FetchTimeout (200ms)"; !strings.Contains(err.Error(), want) {
				t.Errorf("Rules error = %q, want it to mention %q", err, want)
			}

			// Cached as unreachable, not dropped like a cancelled fetch.
			if cached, ok := c.Peek(mustURL(t, "http://a.test/y")); !ok || cached.Allowed("trawl", "/x") {
				t.Errorf("Peek after the timeout = (%v, %v), want the cached DisallowAll", cached, ok)
			}
			before := s.count("http://a.test/robots.txt")
			clk.Advance(errTTL - time.Second)
			checkRules(t, c, "http://a.test/", "/x", false, ErrUnreachable)
			if n := s.count("http://a.test/robots.txt"); n != before {
				t.Errorf("fetched %d times within ErrorTTL of the timeout, want %d", n, before)
			}

			// Retried after ErrorTTL.
			s.handle("http://a.test/robots.txt", text(allowX))
			c.fetch = s.fetch
			clk.Advance(time.Second)
			checkRules(t, c, "http://a.test/", "/x", true, nil)
		})
	}
}

func TestCacheFetchTimeoutDefault(t *testing.T) {
	tests := []struct {
		opts *CacheOptions
		want time.Duration
	}{
		{opts: nil, want: DefaultFetchTimeout},
		{opts: &CacheOptions{FetchTimeout: -time.Second}, want: DefaultFetchTimeout},
		{opts: &CacheOptions{FetchTimeout: time.Second}, want: time.Second},
	}
	for _, tt := range tests {
		if got := NewCache(nil, tt.opts).timeout; got != tt.want {
			t.Errorf("NewCache(%+v).timeout = %v, want %v", tt.opts, got, tt.want)
		}
	}
	if DefaultFetchTimeout != 30*time.Second {
		t.Errorf("DefaultFetchTimeout = %v, want 30s", DefaultFetchTimeout)
	}
}

// A redirect to an unusable Location (here 60 KB of ftp: URL) is an error,
// cached for ErrorTTL, that quotes the Location within bounds: what a
// server sends is not kept whole for every host that sends it.
func TestCacheBadLocationClipped(t *testing.T) {
	s := newSite(t)
	loc := "ftp://b.test/" + strings.Repeat("x", 60<<10)
	s.handle("http://a.test/robots.txt", redirect(http.StatusFound, loc))
	c := NewCache(s.fetch, &CacheOptions{ErrorTTL: time.Hour, Now: newClock().Now})
	_, err := c.Rules(context.Background(), mustURL(t, "http://a.test/page"))
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("Rules = %v, want ErrUnreachable", err)
	}
	if msg := err.Error(); len(msg) > 1024 || !strings.Contains(msg, "ftp://b.test/xxx") {
		t.Errorf("the error is %d bytes (%.80q…), want the Location quoted in at most 1 KiB", len(msg), msg)
	}
}
