package trawl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/politeness"
	"github.com/trawl-dev/trawl/urlnorm"
)

// Login is a login form for the crawler to fill and send before the crawl
// (WithLogin): the one POST a crawl ever makes.
type Login struct {
	// URL is the page that holds the form, fetched with GET (redirects
	// followed). Required.
	URL string
	// Form is a CSS selector for the form on that page. Default: the
	// first form with a password field.
	Form string
	// Values are the fields to fill, by the names the form gives them:
	// {"username": "alice", "password": pw}. Each replaces the value the
	// page gives its field, or is added when the form has no field of
	// that name. The form's other fields go as a browser sends them:
	// hidden fields (a CSRF token) with their values, checked checkboxes
	// and radio buttons, selected options, text areas, and the name and
	// value of its first submit button.
	Values map[string]string
	// Success is a CSS selector that must match the page the login leads
	// to ("a.logout", "#account"), when set.
	Success string
	// Failure is a CSS selector that must not match that page (".error",
	// "#login-failed"), when set.
	Failure string
	// AllowHosts names the hosts other than the login page's ("sso.example.com")
	// to which the form may be sent. Default: none; a form whose action is
	// on another host is refused, so that a page cannot send the
	// credentials elsewhere.
	AllowHosts []string
}

// ErrLogin is what Run's error wraps when the login (WithLogin) failed: the
// form was not found or could not be sent, robots.txt forbade it, or the
// server refused the login.
var ErrLogin = errors.New("trawl: login failed")

// WithLogin logs in before the crawl, as a person would with a browser:
// Run fetches l.URL, finds the form, fills it with l.Values and sends it,
// then crawls the seeds with the session cookie the server set. The login
// is the only POST a crawl makes: a form or a POST found during the crawl
// is never sent (see DefaultFollow). It turns the cookie jar on
// (WithCookies).
//
// The requests go through the crawler's own fetcher, in this order and
// each in its host's turn (the configured delay or robots.txt's
// Crawl-delay between two, and after the last before the crawl begins):
// robots.txt of the login page's host, the login page, the form's action,
// and the redirects that answer it (as a browser, 301, 302 and 303 are
// followed with a GET; a 307 or 308, which would send the form again,
// fails the login). So the private-network guard, robots.txt (the page
// and the action must both be allowed: a robots.txt that disallows the
// action refuses the POST), WithHeader, WithBasicAuth and the cookie jar
// apply; the WithOnRequest hook is not called. The form is sent with its
// method, which must be POST (a GET form would put the password in a URL,
// where logs keep it), to its action resolved as a browser does
// (the submit button's formaction, the form's action, else the page's
// URL; against <base href>), encoded as its enctype says (URL-encoded or
// multipart), with Referer and Origin set to the login page's. The
// credentials go to the login page's host (l.URL's) and to l.AllowHosts,
// nowhere else, and never from https to http. The POST is not given to an
// ExchangeStore (a WARC would keep the password). The login's requests are
// not pages of the crawl: Stats, the Store and Events do not see them; the
// logger (WithLogger) tells them at Info.
//
// Run fails, with an error wrapping ErrLogin and before any seed is
// fetched, when the page or the form cannot be had, robots.txt forbids
// them, the action is refused, or the login visibly fails: the answer
// (after redirects) has a status of 400 or more, or, when l.Success or
// l.Failure is set, Success does not match it or Failure does; with
// neither set, the answer shows the login form again (a form that l.Form,
// or by default a password field, matches). New checks l: an http or https
// URL, at least one value, valid selectors. Default: no login.
func WithLogin(l Login) Option {
	l.Values = maps.Clone(l.Values)
	l.AllowHosts = slices.Clone(l.AllowHosts)
	return func(c *config) { c.login = &l }
}

// loginPlan is a Login checked by New.
type loginPlan struct {
	l                      Login
	u                      *url.URL
	form, success, failure cascadia.Matcher // form nil: the first form with a password field
}

// setupLogin checks WithLogin's Login in New and turns the cookie jar on.
func (c *Crawler) setupLogin() error {
	l := c.cfg.login
	if l == nil {
		return nil
	}
	u, err := url.Parse(strings.TrimSpace(l.URL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("trawl: WithLogin: URL %q is not an http or https URL", l.URL)
	}
	if len(l.Values) == 0 {
		return errors.New("trawl: WithLogin: no Values to fill the form with")
	}
	p := &loginPlan{l: *l, u: u}
	for _, s := range []struct {
		name, sel string
		m         *cascadia.Matcher
	}{{"Form", l.Form, &p.form}, {"Success", l.Success, &p.success}, {"Failure", l.Failure, &p.failure}} {
		if s.sel == "" {
			continue
		}
		g, err := cascadia.ParseGroup(s.sel)
		if err != nil {
			return fmt.Errorf("trawl: WithLogin: bad %s selector %q: %w", s.name, s.sel, err)
		}
		*s.m = g
	}
	c.loginPlan = p
	c.cfg.requests.cookies = true
	return nil
}

// loginPostKey marks the context of the login's POST, which the exchange
// hook does not archive.
type loginPostKey struct{}

// loginSession is one run of the login: when each host was last
// contacted, for the delays between its requests.
type loginSession struct {
	c    *Crawler
	last map[string]time.Time // politeness key -> end of the last request
	wait map[string]time.Duration
}

// login logs in (WithLogin) before the crawl; see WithLogin.
func (c *Crawler) login(ctx context.Context) error {
	p := c.loginPlan
	s := &loginSession{c: c, last: make(map[string]time.Time), wait: make(map[string]time.Duration)}
	page, err := s.get(ctx, p.u)
	if err != nil {
		return err
	}
	form, err := findForm(page, p.form)
	if err != nil {
		return err
	}
	sub, err := submission(page, form, p)
	if err != nil {
		return err
	}
	c.log.Info("logging in", "page", page.URL.String(), "action", sub.action.String())
	hdr := http.Header{"Content-Type": {sub.contentType}, "Referer": {page.URL.String()},
		"Origin": {page.URL.Scheme + "://" + page.URL.Host}}
	resp, err := s.request(context.WithValue(ctx, loginPostKey{}, true), sub.action, http.MethodPost, sub.body, hdr)
	if err != nil {
		return err
	}
	if resp.Status == http.StatusTemporaryRedirect || resp.Status == http.StatusPermanentRedirect {
		return fmt.Errorf("%w: the form's action %s answered %d, which asks to send the form again to %v: not done", ErrLogin, sub.action, resp.Status, resp.Location)
	}
	final, err := s.follow(ctx, resp, sub.action)
	if err != nil {
		return err
	}
	if err := p.check(final); err != nil {
		return err
	}
	c.log.Info("logged in", "page", final.URL.String(), "status", final.Status)
	s.rest(ctx) // the crawl's first request to these hosts waits its turn
	return ctx.Err()
}

// loginPage is a response of the login sequence, its HTML parsed.
type loginPage struct {
	URL    *url.URL
	Status int
	Type   string
	Root   *html.Node // nil when not HTML
}

// get fetches u with a GET, following redirects.
func (s *loginSession) get(ctx context.Context, u *url.URL) (*loginPage, error) {
	resp, err := s.request(ctx, u, http.MethodGet, nil, nil)
	if err != nil {
		return nil, err
	}
	return s.follow(ctx, resp, u)
}

// follow follows resp's redirects with GETs (at most maxRedirects) and
// returns the page they end at.
func (s *loginSession) follow(ctx context.Context, resp *fetch.Response, u *url.URL) (*loginPage, error) {
	for hops := 0; resp.Status >= 300 && resp.Status < 400 && resp.Status != http.StatusNotModified; hops++ {
		if resp.Location == nil || hops == maxRedirects {
			return nil, fmt.Errorf("%w: %s answered %d without a Location, or after %d redirects", ErrLogin, u, resp.Status, hops)
		}
		u = resp.Location
		var err error
		if resp, err = s.request(ctx, u, http.MethodGet, nil, nil); err != nil {
			return nil, err
		}
	}
	page := &loginPage{URL: u, Status: resp.Status, Type: resp.ContentType}
	if resp.ContentType == "text/html" || resp.ContentType == "application/xhtml+xml" {
		root, err := html.Parse(bytes.NewReader(resp.Body))
		if err == nil {
			page.Root = root
		}
	}
	return page, nil
}

// request sends one request of the login, in its host's turn, once
// robots.txt allows it, with the crawl's headers and cookies.
func (s *loginSession) request(ctx context.Context, u *url.URL, method string, body []byte, extra http.Header) (*fetch.Response, error) {
	c := s.c
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%w: %s is not an http or https URL", ErrLogin, u)
	}
	key := urlnorm.Key(u)
	if c.robots != nil {
		_, cached := c.robots.Peek(u)
		rules, err := c.robots.Rules(ctx, u)
		if !cached {
			add(&c.stats.live.Robots.Fetches, 1)
			s.last[key] = time.Now()
			if err == nil && c.follows.has(extract.Sitemap) {
				c.offerSitemaps(ctx, u, rules.Sitemaps(), 2)
			}
		}
		if errors.Is(err, fetch.ErrPrivateAddress) {
			return nil, fmt.Errorf("%w: %s is on a private or loopback network address, refused by default "+
				"(allow it with WithAllowNetworks(prefix) or WithAllowPrivateNetworks(true)): %w", ErrLogin, u, err)
		}
		s.wait[key] = s.delay(rules.CrawlDelay(c.botName))
		if !rules.Allowed(c.botName, u.String()) {
			what := "the login page"
			if method == http.MethodPost {
				what = "the login form's action (a POST)"
			}
			cause := "disallows"
			if rules.Unreachable() {
				cause = "could not be fetched, which forbids the whole host for a while (RFC 9309), and so disallows"
			}
			return nil, fmt.Errorf("%w: robots.txt of %s %s %s, %s, for %q: not sent", ErrLogin, u.Host, cause, what, u, c.botName)
		}
	}
	if err := s.pause(ctx, key); err != nil {
		return nil, err
	}
	h := make(http.Header, len(c.cfg.requests.header)+4)
	for k, v := range c.cfg.requests.header {
		h[k] = slices.Clone(v)
	}
	for k, v := range extra {
		h[k] = v
	}
	if auth, ok := c.cfg.requests.auth[originKey(u)]; ok {
		h.Set("Authorization", auth)
	}
	if cookies := c.cfg.requests.jar.Cookies(u); len(cookies) > 0 {
		h.Set("Cookie", cookieHeader(h.Get("Cookie"), cookies))
	}
	h.Set("User-Agent", c.cfg.userAgent)
	resp, err := c.fetcher.Fetch(ctx, &fetch.Request{URL: u, Method: method, Body: body, Header: h})
	s.last[key] = time.Now()
	if resp != nil {
		c.keepCookies(u, resp.Header)
	}
	c.log.Info("login request", "method", method, "url", u.String(), "status", statusOf(resp), "err", err)
	switch {
	case resp != nil && resp.Status >= 400:
		return nil, fmt.Errorf("%w: %s %s answered %d", ErrLogin, method, u, resp.Status)
	case err != nil:
		return nil, fmt.Errorf("%w: %s %s: %w", ErrLogin, method, u, err)
	}
	return resp, nil
}

func statusOf(resp *fetch.Response) int {
	if resp == nil {
		return 0
	}
	return resp.Status
}

// delay is the least time between two requests to a host whose
// robots.txt asks for crawlDelay.
func (s *loginSession) delay(crawlDelay time.Duration) time.Duration {
	p := s.c.cfg.polite
	d := max(p.Delay, 0)
	limit := p.MaxCrawlDelay
	if limit == 0 {
		limit = politeness.DefaultMaxCrawlDelay
	}
	if limit > 0 {
		crawlDelay = min(crawlDelay, limit)
	}
	return max(d, crawlDelay)
}

// pause waits for the host's turn.
func (s *loginSession) pause(ctx context.Context, key string) error {
	last, ok := s.last[key]
	if !ok {
		return nil
	}
	d, ok := s.wait[key]
	if !ok {
		d = s.delay(0)
	}
	return sleep(ctx, time.Until(last.Add(d)))
}

// rest waits until every host the login contacted may be contacted again.
func (s *loginSession) rest(ctx context.Context) {
	for key := range s.last {
		if err := s.pause(ctx, key); err != nil {
			return
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// findForm returns the login form of page: the first that m matches, or
// with m nil the first with a password field.
func findForm(page *loginPage, m cascadia.Matcher) (*html.Node, error) {
	if page.Root == nil {
		return nil, fmt.Errorf("%w: the login page %s is not HTML (%s)", ErrLogin, page.URL, page.Type)
	}
	if f := loginForm(page.Root, m); f != nil {
		return f, nil
	}
	if m != nil {
		return nil, fmt.Errorf("%w: no form on the login page %s matches the Form selector", ErrLogin, page.URL)
	}
	return nil, fmt.Errorf("%w: no form with a password field on the login page %s (Login.Form chooses another)", ErrLogin, page.URL)
}

var formSel = cascadia.MustCompile("form")

func loginForm(root *html.Node, m cascadia.Matcher) *html.Node {
	for _, f := range cascadia.QueryAll(root, formSel) {
		if m != nil && m.Match(f) {
			return f
		}
		if m == nil {
			for _, in := range cascadia.QueryAll(f, inputSel) {
				if strings.EqualFold(attr(in, "type"), "password") {
					return f
				}
			}
		}
	}
	return nil
}

var inputSel = cascadia.MustCompile("input")

// formSubmission is what the login sends: where, and the encoded fields.
type formSubmission struct {
	action      *url.URL
	body        []byte
	contentType string
}

// field is one name=value pair of a form's entry list.
type field struct{ name, value string }

// submission builds the form's submission as a browser would when its
// first submit button is clicked (the HTML Standard's "constructing the
// entry list", less files), with p's values filled in, and checks where it
// goes.
func submission(page *loginPage, form *html.Node, p *loginPlan) (*formSubmission, error) {
	fields, submitter := entryList(form)
	for _, name := range sortedKeys(p.l.Values) {
		i := slices.IndexFunc(fields, func(f field) bool { return f.name == name })
		if i < 0 {
			fields = append(fields, field{name, p.l.Values[name]})
			continue
		}
		fields[i].value = p.l.Values[name]
	}
	formAttr := func(name string) string {
		if submitter != nil {
			if v, ok := lookupAttr(submitter, "form"+name); ok {
				return v
			}
		}
		return attr(form, name)
	}
	if m := strings.ToLower(strings.TrimSpace(formAttr("method"))); m != "post" {
		return nil, fmt.Errorf("%w: the login form of %s is sent with method %q (GET when none is given): its fields, the password among them, "+
			"would go in the URL, where logs keep them; trawl sends login forms by POST only", ErrLogin, page.URL, cmpOr(m, "get"))
	}
	action := page.URL
	if a := strings.TrimSpace(formAttr("action")); a != "" {
		u, err := baseOf(page).Parse(a)
		if err != nil {
			return nil, fmt.Errorf("%w: the login form's action %q: %w", ErrLogin, a, err)
		}
		action = u
	}
	action.Fragment = ""
	if err := p.allowed(action); err != nil {
		return nil, err
	}
	sub := &formSubmission{action: action}
	switch enc := strings.ToLower(strings.TrimSpace(formAttr("enctype"))); enc {
	case "multipart/form-data":
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		for _, f := range fields {
			if err := mw.WriteField(f.name, f.value); err != nil {
				return nil, fmt.Errorf("%w: %w", ErrLogin, err)
			}
		}
		mw.Close()
		sub.body, sub.contentType = b.Bytes(), mw.FormDataContentType()
	case "text/plain":
		return nil, fmt.Errorf("%w: the login form's enctype text/plain is not supported", ErrLogin)
	default: // application/x-www-form-urlencoded, and what browsers take for it
		var b strings.Builder
		for i, f := range fields {
			if i > 0 {
				b.WriteByte('&')
			}
			b.WriteString(url.QueryEscape(f.name) + "=" + url.QueryEscape(f.value))
		}
		sub.body, sub.contentType = []byte(b.String()), "application/x-www-form-urlencoded"
	}
	return sub, nil
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

// baseOf returns the page's <base href>, or its URL.
func baseOf(page *loginPage) *url.URL {
	if n := cascadia.Query(page.Root, baseHrefSel); n != nil {
		if u, err := page.URL.Parse(strings.TrimSpace(attr(n, "href"))); err == nil {
			return u
		}
	}
	return page.URL
}

var baseHrefSel = cascadia.MustCompile("base[href]")

// allowed checks that the credentials may go to action: the login page's
// host (Login.URL's) or one of Login.AllowHosts, and not from https to
// http.
func (p *loginPlan) allowed(action *url.URL) error {
	switch {
	case action.Scheme != "http" && action.Scheme != "https":
		return fmt.Errorf("%w: the login form's action %s is not an http or https URL", ErrLogin, action)
	case p.u.Scheme == "https" && action.Scheme == "http":
		return fmt.Errorf("%w: the login form of %s posts to %s, in cleartext (http): refused", ErrLogin, p.u, action)
	}
	if strings.EqualFold(urlnorm.Key(action), urlnorm.Key(p.u)) {
		return nil
	}
	for _, h := range p.l.AllowHosts {
		if strings.EqualFold(h, action.Hostname()) || strings.EqualFold(h, urlnorm.Key(action)) {
			return nil
		}
	}
	return fmt.Errorf("%w: the login form posts to %s, another host than the login page's (%s): credentials go to the login page's host only; "+
		"name the host in Login.AllowHosts if it is yours", ErrLogin, action.Host, p.u.Host)
}

// entryList returns the fields a browser sends when form is submitted
// with its first submit button, which it returns too (nil if none).
func entryList(form *html.Node) ([]field, *html.Node) {
	var fields []field
	var submitter *html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			if ch.Type != html.ElementNode {
				continue
			}
			name, named := lookupAttr(ch, "name")
			_, disabled := lookupAttr(ch, "disabled")
			switch ch.Data {
			case "input":
				typ := strings.ToLower(strings.TrimSpace(attr(ch, "type")))
				_, checked := lookupAttr(ch, "checked")
				switch {
				case typ == "submit" || typ == "image":
					if submitter == nil && !disabled {
						submitter = ch
						if named && name != "" {
							if typ == "image" {
								fields = append(fields, field{name + ".x", "0"}, field{name + ".y", "0"})
							} else {
								fields = append(fields, field{name, attr(ch, "value")})
							}
						}
					}
				case !named || name == "" || disabled, typ == "reset" || typ == "button" || typ == "file":
				case typ == "checkbox" || typ == "radio":
					if checked {
						v, ok := lookupAttr(ch, "value")
						if !ok {
							v = "on"
						}
						fields = append(fields, field{name, v})
					}
				default:
					fields = append(fields, field{name, attr(ch, "value")})
				}
				continue
			case "button":
				typ := strings.ToLower(strings.TrimSpace(attr(ch, "type")))
				if (typ == "" || typ == "submit") && submitter == nil && !disabled {
					submitter = ch
					if named && name != "" {
						fields = append(fields, field{name, attr(ch, "value")})
					}
				}
				continue
			case "select":
				if named && name != "" && !disabled {
					fields = append(fields, selected(ch, name)...)
				}
				continue
			case "textarea":
				if named && name != "" && !disabled {
					fields = append(fields, field{name, rawText(ch)})
				}
				continue
			}
			walk(ch)
		}
	}
	walk(form)
	return fields, submitter
}

// selected returns a select's selected options, or its first option when
// none is selected and it takes one value.
func selected(sel *html.Node, name string) []field {
	var out []field
	var first *html.Node
	for _, o := range cascadia.QueryAll(sel, optionSel) {
		if first == nil {
			first = o
		}
		if _, ok := lookupAttr(o, "selected"); ok {
			out = append(out, field{name, optionValue(o)})
		}
	}
	if _, multiple := lookupAttr(sel, "multiple"); len(out) == 0 && !multiple && first != nil {
		out = append(out, field{name, optionValue(first)})
	}
	return out
}

var optionSel = cascadia.MustCompile("option")

func optionValue(o *html.Node) string {
	if v, ok := lookupAttr(o, "value"); ok {
		return v
	}
	return strings.TrimSpace(rawText(o))
}

func rawText(n *html.Node) string {
	var b strings.Builder
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type == html.TextNode {
			b.WriteString(ch.Data)
		}
	}
	return b.String()
}

// check decides whether the page the login led to shows a login: see
// WithLogin.
func (p *loginPlan) check(page *loginPage) error {
	if page.Status >= 400 {
		return fmt.Errorf("%w: the login ended at %s with status %d", ErrLogin, page.URL, page.Status)
	}
	if p.success == nil && p.failure == nil {
		if page.Root != nil && loginForm(page.Root, p.form) != nil {
			return fmt.Errorf("%w: the page the login led to (%s) shows the login form again: wrong credentials? "+
				"(Login.Success or Login.Failure decide otherwise)", ErrLogin, page.URL)
		}
		return nil
	}
	if page.Root == nil {
		return fmt.Errorf("%w: the page the login led to (%s) is not HTML (%s): Login.Success and Failure cannot be checked", ErrLogin, page.URL, page.Type)
	}
	if p.success != nil && cascadia.Query(page.Root, p.success) == nil {
		return fmt.Errorf("%w: the page the login led to (%s) has nothing that Login.Success (%q) matches", ErrLogin, page.URL, p.l.Success)
	}
	if p.failure != nil && cascadia.Query(page.Root, p.failure) != nil {
		return fmt.Errorf("%w: the page the login led to (%s) has what Login.Failure (%q) matches: %q", ErrLogin, page.URL, p.l.Failure,
			clip(nodeText(cascadia.Query(page.Root, p.failure)), 200))
	}
	return nil
}
