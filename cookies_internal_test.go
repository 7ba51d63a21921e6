package trawl

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A server that sets hundreds of large cookies cannot grow the jar past
// the limits, and the Cookie header stays bounded.
func TestBoundedJarLimits(t *testing.T) {
	j, err := newBoundedJar()
	if err != nil {
		t.Fatal(err)
	}
	value := strings.Repeat("v", 1000)
	for page := range 20 {
		u, _ := url.Parse(fmt.Sprintf("http://www.a.test/p%d", page))
		var cs []*http.Cookie
		for i := range 300 {
			cs = append(cs, &http.Cookie{Name: fmt.Sprintf("c%d_%d", page, i), Value: value, Path: "/"})
		}
		cs = append(cs, &http.Cookie{Name: "huge", Value: strings.Repeat("x", maxCookieBytes), Path: "/"})
		j.SetCookies(u, cs)
	}
	u, _ := url.Parse("http://www.a.test/")
	got := j.Cookies(u)
	if len(got) != maxDomainCookies {
		t.Errorf("the jar sends %d cookies for one domain, want the limit, %d", len(got), maxDomainCookies)
	}
	for _, c := range got {
		if c.Name == "huge" {
			t.Error("a cookie larger than maxCookieBytes was kept")
		}
		if !strings.HasPrefix(c.Name, "c19_") {
			t.Errorf("cookie %s kept: the newest (page 19's) should be, the oldest deleted", c.Name)
			break
		}
	}
	if h := cookieHeader("", got); len(h) > maxCookieHeader || len(h) < maxCookieHeader-1100 {
		t.Errorf("Cookie header of %d bytes, want at most %d and about that", len(h), maxCookieHeader)
	}
	// Many domains: the total is bounded too.
	for d := range 100 {
		u, _ := url.Parse(fmt.Sprintf("http://d%d.test/", d))
		var cs []*http.Cookie
		for i := range 50 {
			cs = append(cs, &http.Cookie{Name: fmt.Sprint("k", i), Value: "v"})
		}
		j.SetCookies(u, cs)
	}
	if n := j.order.Len(); n != maxCookies {
		t.Errorf("the jar keeps %d cookies, want the limit, %d", n, maxCookies)
	}
	if first, _ := url.Parse("http://d0.test/"); len(j.Cookies(first)) != 0 {
		t.Error("the oldest domain's cookies were not deleted past the total limit")
	}
}

// Deleting a cookie (Max-Age=0) frees its place, and a domain cookie set
// for the parent domain counts with the host's.
func TestBoundedJarDeletion(t *testing.T) {
	j, _ := newBoundedJar()
	u, _ := url.Parse("http://shop.b.test/cart/x")
	j.SetCookies(u, []*http.Cookie{{Name: "s", Value: "1"}, {Name: "d", Value: "2", Domain: "b.test"}})
	if j.order.Len() != 2 || j.byDomain["b.test"] != 2 {
		t.Fatalf("kept %d cookies, %v by domain; want 2 under b.test", j.order.Len(), j.byDomain)
	}
	j.SetCookies(u, []*http.Cookie{{Name: "s", MaxAge: -1}})
	if j.order.Len() != 1 {
		t.Errorf("after deleting s, %d cookies kept, want 1", j.order.Len())
	}
	if got := j.Cookies(u); len(got) != 1 || got[0].Name != "d" {
		t.Errorf("Cookies = %v, want d only", got)
	}
}
