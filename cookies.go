package trawl

import (
	"container/list"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"

	"golang.org/x/net/publicsuffix"
)

// The cookie limits (WithCookies). RFC 6265 §6.1 asks a user agent to keep
// at least 4096 bytes per cookie, 50 cookies per domain and 3000 in all;
// browsers keep about that (Firefox 180 per domain, Chrome 180 per domain
// and 3300 in all). A crawler needs no more than the floor, and a server
// that sets more cannot grow the crawler's memory or its requests.
const (
	maxCookieBytes   = 4096    // name and value of one cookie; larger ones are ignored
	maxDomainCookies = 50      // per registrable domain (example.co.uk); the oldest go first
	maxCookies       = 3000    // in all; the oldest go first
	maxCookieHeader  = 8 << 10 // bytes of one request's Cookie header; cookies past it are not sent
)

// boundedJar is a cookie jar (net/http/cookiejar, with the public suffix
// list, so that a site cannot set cookies for a whole public suffix) that
// keeps the limits above: past them, the oldest cookies of the domain, or
// of all, are deleted from the jar. It is safe for concurrent use.
type boundedJar struct {
	jar *cookiejar.Jar

	mu       sync.Mutex
	order    *list.List // of *keptCookie, oldest first
	byKey    map[cookieKey]*list.Element
	byDomain map[string]int // registrable domain -> cookies kept
}

// cookieKey identifies a cookie as a jar does: RFC 6265 §5.3 step 11
// replaces a cookie of the same name, domain and path.
type cookieKey struct{ name, domain, path string }

// keptCookie is a cookie the jar holds, with the URL that set it, from
// which it can be deleted.
type keptCookie struct {
	key    cookieKey
	site   string // registrable domain
	setter *url.URL
}

func newBoundedJar() (*boundedJar, error) {
	jar, err := cookiejar.New(&cookiejar.Options{PublicSuffixList: publicsuffix.List})
	if err != nil {
		return nil, err
	}
	return &boundedJar{jar: jar, order: list.New(), byKey: map[cookieKey]*list.Element{}, byDomain: map[string]int{}}, nil
}

// SetCookies keeps the cookies u's response set, within the limits.
func (j *boundedJar) SetCookies(u *url.URL, cookies []*http.Cookie) {
	kept := cookies[:0:0]
	for _, ck := range cookies {
		if len(ck.Name)+len(ck.Value) <= maxCookieBytes {
			kept = append(kept, ck)
		}
	}
	if len(kept) == 0 {
		return
	}
	j.jar.SetCookies(u, kept)
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, ck := range kept {
		key := keyOf(u, ck)
		if ck.MaxAge < 0 {
			j.forget(key)
			continue
		}
		if _, ok := j.byKey[key]; ok {
			continue // replaced in place: same age, as a browser counts it
		}
		site := registrable(strings.TrimPrefix(key.domain, "."))
		j.byKey[key] = j.order.PushBack(&keptCookie{key: key, site: site, setter: u})
		j.byDomain[site]++
		for j.byDomain[site] > maxDomainCookies {
			j.evict(j.oldest(site))
		}
		for j.order.Len() > maxCookies {
			j.evict(j.order.Front())
		}
	}
}

// Cookies returns the cookies to send to u.
func (j *boundedJar) Cookies(u *url.URL) []*http.Cookie { return j.jar.Cookies(u) }

// oldest returns the oldest cookie of site.
func (j *boundedJar) oldest(site string) *list.Element {
	for e := j.order.Front(); e != nil; e = e.Next() {
		if e.Value.(*keptCookie).site == site {
			return e
		}
	}
	return nil
}

// evict deletes e's cookie from the jar and from the books.
func (j *boundedJar) evict(e *list.Element) {
	if e == nil {
		return
	}
	k := e.Value.(*keptCookie)
	del := &http.Cookie{Name: k.key.name, Path: k.key.path, MaxAge: -1}
	if strings.HasPrefix(k.key.domain, ".") {
		del.Domain = k.key.domain[1:]
	}
	j.jar.SetCookies(k.setter, []*http.Cookie{del})
	j.forget(k.key)
}

func (j *boundedJar) forget(key cookieKey) {
	e, ok := j.byKey[key]
	if !ok {
		return
	}
	k := j.order.Remove(e).(*keptCookie)
	delete(j.byKey, key)
	if j.byDomain[k.site]--; j.byDomain[k.site] <= 0 {
		delete(j.byDomain, k.site)
	}
}

// keyOf returns the key under which a jar keeps ck, set by u's response:
// a Domain attribute makes a domain cookie (".example.com"), none a
// host-only one ("www.example.com"); a missing or relative Path takes the
// default path of RFC 6265 §5.1.4.
func keyOf(u *url.URL, ck *http.Cookie) cookieKey {
	domain := strings.ToLower(u.Hostname())
	if d := strings.TrimPrefix(strings.ToLower(ck.Domain), "."); d != "" {
		domain = "." + d
	}
	path := ck.Path
	if path == "" || path[0] != '/' {
		path = u.EscapedPath()
		if i := strings.LastIndexByte(path, '/'); i > 0 {
			path = path[:i]
		} else {
			path = "/"
		}
	}
	return cookieKey{name: ck.Name, domain: domain, path: path}
}

// cookieHeader returns the Cookie header value for cookies, with those
// that would make it longer than maxCookieHeader left out.
func cookieHeader(own string, cookies []*http.Cookie) string {
	var b strings.Builder
	b.WriteString(own)
	for _, ck := range cookies {
		s := ck.String() // name=value, as http.Request.AddCookie writes it
		if b.Len()+len(s)+2 > maxCookieHeader {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString(s)
	}
	return b.String()
}
