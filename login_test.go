package trawl_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/fetch"
)

// loginWeb is a crawltest web with a login area (and the link constructs,
// whose POST forms a crawl must not send either).
func loginWeb(t *testing.T) *crawltest.Web {
	return crawltest.NewTestWeb(t, &crawltest.Options{Seed: 1, Hosts: 1, PagesPerHost: 12, Login: true, LinkConstructs: true})
}

// loginOpts crawls web's host from /account/ as ua.
func loginOpts(web *crawltest.Web, ua string, extra ...trawl.Option) []trawl.Option {
	return append([]trawl.Option{
		trawl.WithSeeds(web.AccountURLs(0)[0]),
		trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
		trawl.WithUserAgent(ua),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithWorkers(4),
	}, extra...)
}

var goodLogin = trawl.Login{Values: map[string]string{"username": crawltest.LoginUser, "password": crawltest.LoginPassword}}

func withURL(l trawl.Login, rawURL string) trawl.Login { l.URL = rawURL; return l }

// accountStatus returns the statuses the account pages were answered with.
func accountStatus(web *crawltest.Web) map[string][]int {
	out := make(map[string][]int)
	account := make(map[string]bool)
	for _, u := range web.AccountURLs(0) {
		account[u] = true
	}
	for _, r := range web.Log().Requests() {
		if account[r.URL] {
			out[r.URL] = append(out[r.URL], r.Status)
		}
	}
	return out
}

func posts(web *crawltest.Web) []crawltest.Request {
	var out []crawltest.Request
	for _, r := range web.Log().Requests() {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			out = append(out, r)
		}
	}
	return out
}

// exchanges is an ExchangeStore that keeps every request as sent.
type exchanges struct {
	mu   sync.Mutex
	reqs []string
}

func (e *exchanges) Put(context.Context, *trawl.Page) error { return nil }
func (e *exchanges) Close() error                           { return nil }
func (e *exchanges) PutExchange(_ context.Context, ex *trawl.Exchange) error {
	e.mu.Lock()
	e.reqs = append(e.reqs, string(ex.Request))
	e.mu.Unlock()
	return nil
}

// TestLoginCrawlsProtectedPages: with WithLogin, the form is filled (its
// CSRF token kept) and sent once, before the seeds, and every page behind
// the login is crawled with the session; the crawl itself sends no POST,
// though the account pages and the constructs hold POST forms; the POST,
// which holds the password, is not archived.
func TestLoginCrawlsProtectedPages(t *testing.T) {
	web := loginWeb(t)
	ex := &exchanges{}
	c, err := trawl.New(loginOpts(web, testUA, trawl.WithLogin(withURL(goodLogin, web.LoginURL(0))), trawl.WithStore(ex))...)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	st := accountStatus(web)
	for _, u := range web.AccountURLs(0) {
		if s := st[u]; len(s) == 0 || s[len(s)-1] != 200 {
			t.Errorf("%s answered %v, want 200 at last: crawled behind the login", u, s)
		}
	}
	p := posts(web)
	if len(p) != 1 || p[0].Path != "/account/session" || p[0].Status != http.StatusSeeOther {
		t.Errorf("POSTs %+v, want one, the login's, answered 303", p)
	}
	var first200 time.Time
	for _, r := range web.Log().Requests() {
		if r.Status == 200 && strings.HasPrefix(r.Path, "/account/page") && (first200.IsZero() || r.Start.Before(first200)) {
			first200 = r.Start
		}
	}
	if len(p) == 1 && first200.Before(p[0].End) {
		t.Errorf("an account page was fetched before the login ended")
	}
	if c.Stats().Fetch.Pages < 10 {
		t.Errorf("%d pages fetched: the crawl went on from the account pages to the site", c.Stats().Fetch.Pages)
	}
	ex.mu.Lock()
	defer ex.mu.Unlock()
	for _, r := range ex.reqs {
		if strings.HasPrefix(r, "POST ") || strings.Contains(r, "sesame") {
			t.Errorf("the login's POST was archived: %q", r)
		}
	}
	if len(ex.reqs) == 0 {
		t.Error("no exchange archived at all: the check above proves nothing")
	}
}

// TestLoginWithoutIt: without WithLogin the pages behind the login are
// never had: each redirects to the login page.
func TestLoginWithoutIt(t *testing.T) {
	web := loginWeb(t)
	c, err := trawl.New(loginOpts(web, testUA)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	st := accountStatus(web)
	if len(st) == 0 {
		t.Fatal("no account page requested")
	}
	for u, s := range st {
		for _, code := range s {
			if code != http.StatusFound {
				t.Errorf("%s answered %d, want 302 to the login page", u, code)
			}
		}
	}
	if p := posts(web); len(p) != 0 {
		t.Errorf("POSTs %+v without a login, want none", p)
	}
}

// TestLoginFails: a login that cannot be done fails Run with ErrLogin,
// saying why, before any seed is fetched.
func TestLoginFails(t *testing.T) {
	bad := withURL(goodLogin, "")
	bad.Values = map[string]string{"username": crawltest.LoginUser, "password": "wrong"}
	tests := []struct {
		name    string
		ua      string
		login   func(web *crawltest.Web) trawl.Login
		noGuard bool // leave the private-network guard on
		want    string
		posts   int
	}{
		{name: "wrong password", ua: testUA, posts: 1, want: "shows the login form again",
			login: func(web *crawltest.Web) trawl.Login { return withURL(bad, web.LoginURL(0)) }},
		{name: "wrong password, Failure selector", ua: testUA, posts: 1, want: `Login.Failure ("p.error") matches: "Wrong user name or password."`,
			login: func(web *crawltest.Web) trawl.Login {
				l := withURL(bad, web.LoginURL(0))
				l.Failure = "p.error"
				return l
			}},
		{name: "wrong password, Success selector", ua: testUA, posts: 1, want: `Login.Success ("h1.account")`,
			login: func(web *crawltest.Web) trawl.Login {
				l := withURL(bad, web.LoginURL(0))
				l.Success = "h1.account"
				return l
			}},
		{name: "refused with a 4xx", ua: testUA, posts: 1, want: "POST http://h0.test/account/session answered 403",
			login: func(web *crawltest.Web) trawl.Login {
				l := withURL(goodLogin, web.LoginURL(0))
				l.Values = map[string]string{"username": crawltest.LoginUser, "password": crawltest.LoginPassword, "csrf_token": "forged"}
				return l
			}},
		{name: "robots.txt disallows the action", ua: crawltest.LoginAgent + "/1.0", want: "robots.txt of h0.test disallows the login form's action (a POST), http://h0.test/account/session",
			login: func(web *crawltest.Web) trawl.Login { return withURL(goodLogin, web.LoginURL(0)) }},
		{name: "robots.txt disallows the page", ua: "badbot/1.0", want: "disallows the login page",
			login: func(web *crawltest.Web) trawl.Login { return withURL(goodLogin, web.LoginURL(0)) }},
		{name: "action on another host", ua: testUA, want: "posts to login.elsewhere.test, another host than the login page's (h0.test)",
			login: func(web *crawltest.Web) trawl.Login { return withURL(goodLogin, web.LoginURL(0)+"-elsewhere") }},
		// Allowed, it passes the host check and goes to robots.txt, which
		// crawltest's dialer cannot reach (no such host): refused there.
		{name: "action on another host, allowed", ua: testUA, want: "robots.txt of login.elsewhere.test could not be fetched",
			login: func(web *crawltest.Web) trawl.Login {
				l := withURL(goodLogin, web.LoginURL(0)+"-elsewhere")
				l.AllowHosts = []string{"login.elsewhere.test"}
				return l
			}},
		{name: "no such form", ua: testUA, want: "no form on the login page http://h0.test/account/login matches the Form selector",
			login: func(web *crawltest.Web) trawl.Login {
				l := withURL(goodLogin, web.LoginURL(0))
				l.Form = "form#nothere"
				return l
			}},
		{name: "no form", ua: testUA, want: "no form with a password field",
			login: func(web *crawltest.Web) trawl.Login { return withURL(goodLogin, web.Seeds()[0]) }},
		{name: "private network", ua: testUA, noGuard: true, want: "private",
			login: func(web *crawltest.Web) trawl.Login { return withURL(goodLogin, web.LoginURL(0)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			web := loginWeb(t)
			opts := loginOpts(web, tt.ua, trawl.WithLogin(tt.login(web)))
			if tt.noGuard {
				opts = append(opts, trawl.WithAllowPrivateNetworks(false))
			}
			c, err := trawl.New(opts...)
			if err != nil {
				t.Fatal(err)
			}
			err = c.Run(context.Background())
			if !errors.Is(err, trawl.ErrLogin) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Run = %v, want ErrLogin saying %q", err, tt.want)
			}
			if tt.noGuard && !errors.Is(err, fetch.ErrPrivateAddress) {
				t.Errorf("Run = %v, want it to wrap fetch.ErrPrivateAddress", err)
			}
			if p := posts(web); len(p) != tt.posts {
				t.Errorf("%d POSTs, want %d: %+v", len(p), tt.posts, p)
			}
			for u, s := range accountStatus(web) {
				t.Errorf("%s requested (%v) after a failed login, want no seed fetched", u, s)
			}
			if n := c.Stats().Fetch.Pages; n != 0 {
				t.Errorf("%d pages fetched, want 0", n)
			}
		})
	}
}

// TestLoginForm: the form is sent as a browser sends it when its first
// submit button is clicked: hidden fields, checked boxes, selected
// options, text areas and the button's name, in document order, with the
// values given filled in; the button's formaction and <base href> set
// where; disabled fields, unchecked boxes, other buttons and files left
// out. A GET form is refused.
func TestLoginForm(t *testing.T) {
	s := newSite(t, map[string]string{
		"a.test/login": `<html><head><base href="/auth/"></head><body>
<form action="/search"><input name="q" value="x"></form>
<form method="POST" action="ignored">
<input type="hidden" name="token" value="t&1">
<input name="user" value="prefilled">
<input type="password" name="pw">
<input type="checkbox" name="remember" checked> <input type="checkbox" name="spam" value="yes">
<input type="radio" name="r" value="a"><input type="radio" name="r" value="b" checked>
<input name="off" value="no" disabled><input type="file" name="f"><input type="reset" name="rs">
<select name="lang"><option>en</option><option value="fr" selected>French</option></select>
<select name="size"><option value="s">S</option><option value="m">M</option></select>
<textarea name="note">hello
there</textarea>
<button type="button" name="b0" value="no">Show</button>
<button name="go" value="1" formaction="session">Log in</button>
<input type="submit" name="other" value="no">
</form></body></html>`,
		"a.test/getlogin": `<form action="/s"><input name="u"><input type="password" name="p"></form>`,
	})
	var mu sync.Mutex
	var body, ctype, referer string
	s.pages["a.test/auth/session"] = func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		body, ctype, referer = string(b), r.Header.Get("Content-Type"), r.Header.Get("Referer")
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<p>welcome</p>")
	}
	c, err := trawl.New(append(s.opts("http://a.test/"),
		trawl.WithLogin(trawl.Login{URL: "http://a.test/login", Values: map[string]string{"user": "alice", "pw": "s3cret", "extra": "e"}}))...)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err == nil || strings.Contains(err.Error(), "login") {
		// The seed http://a.test/ is a 404 (every seed failed), which is not the login's.
		t.Fatalf("Run = %v, want the seed's failure alone", err)
	}
	mu.Lock()
	want := "token=t%261&user=alice&pw=s3cret&remember=on&r=b&lang=fr&size=s&note=hello%0Athere&go=1&extra=e"
	if body != want || ctype != "application/x-www-form-urlencoded" || referer != "http://a.test/login" {
		t.Errorf("form sent as %q (%s, Referer %q),\nwant %q", body, ctype, referer, want)
	}
	mu.Unlock()

	// multipart/form-data, as the form says.
	s.pages["a.test/mplogin"] = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<form method="post" action="/auth/session" enctype="multipart/form-data"><input type="hidden" name="t" value="1"><input type="password" name="p"></form>`)
	}
	var mp string
	s.pages["a.test/auth/session"] = func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseMultipartForm(1 << 20); err == nil {
			mu.Lock()
			mp = r.PostForm.Encode()
			mu.Unlock()
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<p>welcome</p>")
	}
	c, err = trawl.New(append(s.opts("http://a.test/"),
		trawl.WithLogin(trawl.Login{URL: "http://a.test/mplogin", Values: map[string]string{"p": "s3cret"}}))...)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err == nil || strings.Contains(err.Error(), "login") {
		t.Fatalf("Run = %v, want the seed's failure alone", err)
	}
	mu.Lock()
	if mp != "p=s3cret&t=1" {
		t.Errorf("multipart form sent as %q, want p=s3cret&t=1", mp)
	}
	mu.Unlock()

	c, err = trawl.New(append(s.opts("http://a.test/"),
		trawl.WithLogin(trawl.Login{URL: "http://a.test/getlogin", Values: map[string]string{"u": "alice", "p": "s3cret"}}))...)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); !errors.Is(err, trawl.ErrLogin) || !strings.Contains(err.Error(), `sent with method "get"`) {
		t.Errorf("Run with a GET form = %v, want it refused", err)
	}
	for _, r := range s.requests("") {
		if r.URL.Path == "/s" {
			t.Errorf("the GET form was sent: %s", r.URL)
		}
	}
}

// TestLoginPolite: the login's requests keep the host's delay between
// them and before the crawl's first request.
func TestLoginPolite(t *testing.T) {
	web := loginWeb(t)
	const delay = 40 * time.Millisecond
	c, err := trawl.New(append(loginOpts(web, testUA, trawl.WithLogin(withURL(goodLogin, web.LoginURL(0)))),
		trawl.WithPoliteness(trawl.Politeness{Delay: delay}), trawl.WithLimits(trawl.Limits{MaxPages: 3}))...)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	for host, gap := range web.Log().MinGap() {
		if gap < delay {
			t.Errorf("%s: a gap of %v between two requests, want at least %v", host, gap, delay)
		}
	}
	if len(posts(web)) != 1 {
		t.Errorf("POSTs %+v, want the login's", posts(web))
	}
}

// TestLoginOptionChecked: New rejects a Login it cannot use.
func TestLoginOptionChecked(t *testing.T) {
	for _, tt := range []struct {
		l    trawl.Login
		want string
	}{
		{trawl.Login{URL: "ftp://a.test/login", Values: map[string]string{"u": "x"}}, "not an http or https URL"},
		{trawl.Login{URL: "a.test/login", Values: map[string]string{"u": "x"}}, "not an http or https URL"},
		{trawl.Login{URL: "http://a.test/login"}, "no Values"},
		{trawl.Login{URL: "http://a.test/login", Values: map[string]string{"u": "x"}, Success: "a["}, "bad Success selector"},
	} {
		if _, err := trawl.New(trawl.WithSeeds("http://a.test/"), trawl.WithLogin(tt.l)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(WithLogin(%+v)) = %v, want %q", tt.l, err, tt.want)
		}
	}
}
