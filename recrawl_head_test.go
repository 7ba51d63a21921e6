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
	"github.com/trawl-dev/trawl/crawltest"
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
		trawl.WithPoliteness(trawl.Politeness{Delay: 10 * time.Second}),
		trawl.WithPoliteness(trawl.Politeness{Adaptive: -1}),
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
		"/":     func(time.Duration) string { return html("Home", "Welcome.", "/same", "/same-full", "/edit") },
		"/same": func(time.Duration) string { return html("Same", "This page never changes.") },
		"/same-full": func(time.Duration) string {
			return html("Same too", "Never changes; its server ignores If-None-Match.")
		},
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
		if st.Recrawl.HeadProbes != int64(heads) || st.Recrawl.HeadSaved != int64(saved) {
			t.Errorf("Stats: %d HEAD probes, %d saved; the site saw %d HEADs, %d of them unchanged", st.Recrawl.HeadProbes, st.Recrawl.HeadSaved, heads, saved)
		}
		if st.Recrawl.HeadSaved == 0 || st.Recrawl.HeadSaved >= st.Recrawl.HeadProbes || st.Recrawl.Changes == 0 {
			t.Errorf("Stats: %d HEAD probes, %d saved, %d changes; want some saved, some not, and changes seen", st.Recrawl.HeadProbes, st.Recrawl.HeadSaved, st.Recrawl.Changes)
		}
		stored := map[string]int{}
		for _, p := range mem.Pages() {
			stored[p.URL.Path]++
		}
		if stored["/same"] != 1 || stored["/same-full"] != 1 || stored["/edit"] < 8 {
			t.Errorf("stored %v, want /same and /same-full once, /edit once per change", stored)
		}
		t.Logf("8 h: %d HEAD probes, %d saved a GET, %d fetches, %d revisits, %d changes", st.Recrawl.HeadProbes, st.Recrawl.HeadSaved, st.Fetch.Pages, st.Recrawl.Revisits, st.Recrawl.Changes)
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
		if st.Recrawl.HeadProbes != 0 || st.Recrawl.HeadSaved != 0 || st.Recrawl.Revisits < 10 {
			t.Errorf("Stats: %d HEAD probes, %d saved, %d revisits; want no probes and revisits", st.Recrawl.HeadProbes, st.Recrawl.HeadSaved, st.Recrawl.Revisits)
		}
	})
}

// The HEAD probe over HTTP (fetch.HTTP against a crawltest web in
// simulated time, honest validators): half the pages never change, the
// rest change about every half hour. With HeadProbe every revisit starts
// with a HEAD, a page that never changes is fetched with GET once, a
// changed page's GET comes after its HEAD and never closer to the host's
// previous request than the delay; without it no HEAD is sent.
func TestRecrawlHeadProbeWeb(t *testing.T) {
	for _, probe := range []bool{true, false} {
		t.Run(fmt.Sprintf("HeadProbe=%v", probe), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				web := crawltest.NewTestWeb(t, &crawltest.Options{
					Seed: 11, Hosts: 2, PagesPerHost: 8, InMemory: true,
					ChangeRate: func(host, page int) float64 {
						if page%2 == 0 {
							return 0
						}
						return 1 / 1800.0
					},
				})
				const delay = 20 * time.Second
				c, err := trawl.New(
					trawl.WithSeeds(web.Seeds()...),
					trawl.WithUserAgent(testUA),
					trawl.WithDialContext(web.DialContext),
					trawl.WithAllowPrivateNetworks(true),
					trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
					trawl.WithWorkers(2),
					trawl.WithPoliteness(trawl.Politeness{Delay: delay}),
					trawl.WithPoliteness(trawl.Politeness{Adaptive: -1}),
					trawl.WithRecrawl(recrawl.Policy{HeadProbe: probe, MinInterval: time.Minute, MaxInterval: time.Hour}),
				)
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Hour)
				defer cancel()
				if err := c.Run(ctx); ctx.Err() == nil {
					t.Fatalf("Run returned before its context ended: %v", err)
				}
				st := c.Stats()
				log := web.Log().Filter(func(r crawltest.Request) bool { return r.UserAgent == testUA })
				for host, gap := range log.MinGap() {
					if gap < delay-time.Millisecond {
						t.Errorf("%s: minimum gap %v, want ≥ %v", host, gap, delay)
					}
				}
				byURL := map[string][]crawltest.Request{}
				heads := 0
				for _, r := range log.Requests() {
					if r.Method == http.MethodHead {
						heads++
					}
					if !strings.HasSuffix(r.URL, "/robots.txt") {
						byURL[r.URL] = append(byURL[r.URL], r)
					}
				}
				if !probe {
					if heads != 0 || st.Recrawl.HeadProbes != 0 {
						t.Errorf("without HeadProbe: %d HEADs sent, Stats.Recrawl.HeadProbes %d", heads, st.Recrawl.HeadProbes)
					}
					return
				}
				if int64(heads) != st.Recrawl.HeadProbes || st.Recrawl.HeadSaved == 0 || st.Recrawl.HeadSaved >= st.Recrawl.HeadProbes {
					t.Errorf("%d HEADs sent; Stats: %d probes, %d saved", heads, st.Recrawl.HeadProbes, st.Recrawl.HeadSaved)
				}
				unchanged, changing := 0, 0
				for u, reqs := range byURL {
					info, ok := web.Page(u)
					if !ok || len(reqs) < 3 {
						continue
					}
					gets := 0
					for i, r := range reqs {
						if r.Method != http.MethodGet {
							continue
						}
						gets++
						if i > 0 && reqs[i-1].Method != http.MethodHead {
							t.Errorf("%s: GET at %v follows a %s, want every revisit to start with a HEAD", u, r.Start, reqs[i-1].Method)
						}
					}
					if info.ChangeRate == 0 {
						unchanged++
						if gets != 1 {
							t.Errorf("%s never changes but was fetched with GET %d times", u, gets)
						}
					} else if gets > 1 {
						changing++
					}
				}
				if unchanged == 0 || changing == 0 {
					t.Errorf("%d unchanging and %d changing pages revisited, want some of each", unchanged, changing)
				}
				t.Logf("5 h: %d requests, %d HEAD probes, %d saved a GET, %d changes", log.Len(), st.Recrawl.HeadProbes, st.Recrawl.HeadSaved, st.Recrawl.Changes)
			})
		})
	}
}
