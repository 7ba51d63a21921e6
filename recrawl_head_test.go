package trawl_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/recrawl"
	"github.com/trawl-dev/trawl/store"
)

// headSite is a fake fetcher for the HEAD probe tests, in simulated time:
// each path's text depends on the time since start, with honest
// validators; HEAD is answered without a body; paths in full answer every
// request in full (ignoring the conditional headers, not the validators).
type headSite struct {
	start time.Time
	pages map[string]func(age time.Duration) string
	full  map[string]bool

	mu  sync.Mutex
	log []headHit
}

type headHit struct {
	method, path string
	at           time.Duration
	status       int
}

func (s *headSite) Fetch(ctx context.Context, req *fetch.Request) (*fetch.Response, error) {
	age := time.Since(s.start)
	path := req.URL.Path
	status, body, ctype := 200, "User-agent: *\nAllow: /\n", "text/plain"
	etag, lm := `"robots"`, s.start
	if path != "/robots.txt" {
		page, ok := s.pages[path]
		if !ok {
			status, body = 404, "not found"
		} else {
			body, ctype = page(age), "text/html"
			etag = fmt.Sprintf(`"%x"`, len(body)*131+int(body[len(body)-2]))
			lm = s.start.Add(age.Truncate(time.Hour)) // coarse but honest enough for the test
		}
	}
	resp := &fetch.Response{URL: req.URL, Status: status, Header: http.Header{}, ContentType: ctype,
		Body: []byte(body), ETag: etag, LastModified: lm, Duration: time.Millisecond, ContentLength: int64(len(body))}
	if status == 200 && req.ETag != "" && req.ETag == etag && !s.full[path] {
		resp.Status, resp.NotModified, resp.Body = http.StatusNotModified, true, nil
	}
	if req.Method == http.MethodHead {
		resp.Body = nil
	}
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	s.mu.Lock()
	s.log = append(s.log, headHit{method: method, path: path, at: age, status: resp.Status})
	s.mu.Unlock()
	if status >= 400 {
		return resp, &fetch.Error{URL: req.URL.String(), StatusCode: status, Err: fetch.ErrStatus}
	}
	return resp, nil
}

func (s *headSite) hits(path string) []headHit {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []headHit
	for _, h := range s.log {
		if h.path == path {
			out = append(out, h)
		}
	}
	return out
}

func (s *headSite) crawl(t *testing.T, policy recrawl.Policy, d time.Duration, opts ...trawl.Option) trawl.Stats {
	t.Helper()
	base := []trawl.Option{
		trawl.WithSeeds("http://site.test/"),
		trawl.WithUserAgent(testUA),
		trawl.WithFetcher(s),
		trawl.WithWorkers(2),
		trawl.WithDelay(10 * time.Second),
		trawl.WithAdaptiveDelay(0),
		trawl.WithRecrawl(policy),
	}
	c, err := trawl.New(append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	if err := c.Run(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Run = %v, want it to end with its context", err)
	}
	return c.Stats()
}

func newHeadSite() *headSite {
	s := &headSite{start: time.Now(), full: map[string]bool{"/same-full": true}}
	s.pages = map[string]func(time.Duration) string{
		"/":          func(time.Duration) string { return html("Home", "Welcome.", "/same", "/same-full", "/edit") },
		"/same":      func(time.Duration) string { return html("Same", "This page never changes.") },
		"/same-full": func(time.Duration) string { return html("Same too", "Never changes; its server ignores If-None-Match.") },
		"/edit": func(age time.Duration) string {
			n := int(age / (40 * time.Minute))
			return html("Edit", fmt.Sprintf("Edition %d, on quite another subject each time: %s.", n, strings.Repeat("topic ", n%9+1)))
		},
	}
	return s
}

// With Policy.HeadProbe, a revisit starts with a conditional HEAD: a page
// that has not changed (answered 304, or in full with the copy's
// validators) gets HEADs and never a second GET; a changed page gets its
// HEAD, then its GET on the host's next turn (never closer than the
// host's delay, and never a second HEAD in between); Stats count the
// probes and the GETs they saved.
func TestRecrawlHeadProbe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newHeadSite()
		mem := &store.Memory{}
		st := s.crawl(t, recrawl.Policy{HeadProbe: true, MinInterval: time.Minute, MaxInterval: time.Hour}, 8*time.Hour, trawl.WithStore(mem))

		heads, saved := 0, 0
		for _, p := range []string{"/same", "/same-full"} {
			hits := s.hits(p)
			if len(hits) < 8 {
				t.Fatalf("%s requested %d times in 8 h, want it revisited at least hourly", p, len(hits))
			}
			if hits[0].method != http.MethodGet {
				t.Errorf("%s: first visit was a %s, want GET", p, hits[0].method)
			}
			for _, h := range hits[1:] {
				if h.method != http.MethodHead {
					t.Errorf("%s: revisit at %v was a %s, want HEAD only (the page never changes)", p, h.at, h.method)
				}
			}
		}
		edit := s.hits("/edit")
		gets := 0
		for i, h := range edit {
			if h.method == http.MethodGet {
				gets++
				if i > 0 && edit[i-1].method != http.MethodHead {
					t.Errorf("/edit: GET at %v not preceded by a HEAD (previous: %s at %v)", h.at, edit[i-1].method, edit[i-1].at)
				}
				if i > 0 && h.at-edit[i-1].at < 10*time.Second {
					t.Errorf("/edit: HEAD at %v and GET at %v, closer than the host's delay", edit[i-1].at, h.at)
				}
				continue
			}
			if h.status == 200 && i+1 < len(edit) && edit[i+1].method != http.MethodGet {
				t.Errorf("/edit: HEAD at %v showed a change, then a %s at %v, want the GET", h.at, edit[i+1].method, edit[i+1].at)
			}
		}
		if gets < 8 {
			t.Errorf("/edit fetched with GET %d times in 8 h (it changes every 40 min), want its changes fetched", gets)
		}
		s.mu.Lock()
		for _, h := range s.log {
			if h.method == http.MethodHead {
				heads++
				if h.status == 304 || s.full[h.path] {
					saved++
				}
			}
		}
		for i := 1; i < len(s.log); i++ {
			if gap := s.log[i].at - s.log[i-1].at; gap < 10*time.Second {
				t.Errorf("%s %s at %v after %s %s at %v: gap %v, want ≥ 10 s", s.log[i].method, s.log[i].path, s.log[i].at, s.log[i-1].method, s.log[i-1].path, s.log[i-1].at, gap)
				break
			}
		}
		s.mu.Unlock()
		if st.HeadProbes != int64(heads) || st.HeadSaved != int64(saved) {
			t.Errorf("Stats: %d HEAD probes, %d saved; the site saw %d HEADs, %d of them unchanged", st.HeadProbes, st.HeadSaved, heads, saved)
		}
		if st.HeadSaved == 0 || st.HeadSaved >= st.HeadProbes || st.Changes == 0 {
			t.Errorf("Stats: %d HEAD probes, %d saved, %d changes; want some saved, some not, and changes seen", st.HeadProbes, st.HeadSaved, st.Changes)
		}
		stored := map[string]int{}
		for _, p := range mem.Pages() {
			stored[p.URL.Path]++
		}
		if stored["/same"] != 1 || stored["/same-full"] != 1 || stored["/edit"] < 8 {
			t.Errorf("stored %v, want /same and /same-full once, /edit once per change", stored)
		}
		t.Logf("8 h: %d HEAD probes, %d saved a GET, %d fetches, %d revisits, %d changes", st.HeadProbes, st.HeadSaved, st.Fetched, st.Revisits, st.Changes)
	})
}

// Without Policy.HeadProbe no HEAD is ever sent: revisits are conditional
// GETs.
func TestRecrawlNoHeadProbe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newHeadSite()
		st := s.crawl(t, recrawl.Policy{MinInterval: time.Minute, MaxInterval: time.Hour}, 4*time.Hour)
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, h := range s.log {
			if h.method != http.MethodGet {
				t.Fatalf("%s %s at %v without HeadProbe", h.method, h.path, h.at)
			}
		}
		if st.HeadProbes != 0 || st.HeadSaved != 0 || st.Revisits < 10 {
			t.Errorf("Stats: %d HEAD probes, %d saved, %d revisits; want no probes and revisits", st.HeadProbes, st.HeadSaved, st.Revisits)
		}
	})
}
