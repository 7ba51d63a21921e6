package optional_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/disk"
	"github.com/trawl-dev/trawl/recrawl"
)

// scriptedSite, html, static and recrawlCrawler are copies of the root
// package's recrawl test helpers.
//
// scriptedSite is a scripted web site for recrawl tests, served by a fake
// fetcher in simulated time: each path's body and status may depend on the
// time since start, and every request is logged.
type scriptedSite struct {
	start time.Time
	pages map[string]func(age time.Duration) (status int, body string)
	// robots returns robots.txt at age.
	robots func(age time.Duration) string
	// ignoreValidators answers every GET in full, with no validators.
	ignoreValidators bool

	mu  sync.Mutex
	log []hit
}

type hit struct {
	path        string
	at          time.Duration
	status      int
	conditional bool
}

func (s *scriptedSite) Fetch(ctx context.Context, req *fetch.Request) (*fetch.Response, error) {
	age := time.Since(s.start)
	path := req.URL.Path
	status, body := http.StatusNotFound, "not found"
	ctype := "text/html"
	if path == "/robots.txt" {
		status, body, ctype = 200, "User-agent: *\nAllow: /\n", "text/plain"
		if s.robots != nil {
			body = s.robots(age)
		}
	} else if page, ok := s.pages[path]; ok {
		status, body = page(age)
	}
	resp := &fetch.Response{URL: req.URL, Status: status, Header: http.Header{}, ContentType: ctype, Body: []byte(body), Duration: time.Millisecond}
	etag := fmt.Sprintf(`"%x"`, len(body)*131+int(body[len(body)-1]))
	if !s.ignoreValidators {
		resp.ETag = etag
	}
	conditional := req.ETag != ""
	if status == 200 && conditional && req.ETag == etag && !s.ignoreValidators {
		resp.Status, resp.NotModified, resp.Body = http.StatusNotModified, true, nil
	}
	s.mu.Lock()
	s.log = append(s.log, hit{path: path, at: age, status: resp.Status, conditional: conditional})
	s.mu.Unlock()
	if status >= 400 {
		return resp, &fetch.Error{URL: req.URL.String(), StatusCode: status, Err: fetch.ErrStatus}
	}
	return resp, nil
}

func html(title, text string, links ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<html><head><title>%s</title></head><body><p>%s</p>", title, text)
	for _, l := range links {
		fmt.Fprintf(&b, `<a href="%s">%s</a>`, l, l)
	}
	return b.String() + "</body></html>"
}

func static(body string) func(time.Duration) (int, string) {
	return func(time.Duration) (int, string) { return 200, body }
}

func recrawlCrawler(t *testing.T, s *scriptedSite, opts ...trawl.Option) *trawl.Crawler {
	t.Helper()
	base := []trawl.Option{
		trawl.WithSeeds("http://site.test/"),
		trawl.WithUserAgent(testUA),
		trawl.WithFetcher(s),
		trawl.WithWorkers(2),
		trawl.WithPoliteness(trawl.Politeness{Delay: 10 * time.Second}),
		trawl.WithPoliteness(trawl.Politeness{Adaptive: -1}),
	}
	c, err := trawl.New(append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Revisits in simulated time: every page stays in the schedule and is
// revisited with conditional GETs; a 304 and an unchanged page count as
// unchanged, a changed one is stored again and its new links are crawled;
// a page that answers 404 or 410 leaves the schedule; a page robots.txt
// comes to disallow is no longer fetched once the cached robots.txt
// expires; the host's delay holds between all requests; Run ends with its
// context.

// With a persistent frontier the schedule survives a restart: after the
// process stops and a new crawler opens the same frontier, the pages are
// revisited with conditional GETs (their validators kept in the frontier)
// at their planned times, not fetched afresh.
func TestRecrawlScheduleSurvivesRestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		s := &scriptedSite{start: time.Now()}
		s.pages = map[string]func(time.Duration) (int, string){
			"/":  static(html("Home", "Home page of the site.", "/a", "/b")),
			"/a": static(html("A", "Page a, which never changes.")),
			"/b": func(age time.Duration) (int, string) {
				return 200, html("B", fmt.Sprintf("Page b, edition %d: %s", age/time.Hour, strings.Repeat(fmt.Sprintf("news %d ", age/time.Hour), 6)))
			},
		}
		run := func(d time.Duration) trawl.Stats {
			c := recrawlCrawler(t, s, trawl.WithFrontier(func(frontier.MemoryOptions) (frontier.Frontier, error) {
				return disk.Open(dir, &disk.Options{Workers: 2})
			}), trawl.WithRecrawl(recrawl.Policy{MaxInterval: 30 * time.Minute}))
			ctx, cancel := context.WithTimeout(context.Background(), d)
			defer cancel()
			c.Run(ctx)
			return c.Stats()
		}
		run(3 * time.Hour)
		s.mu.Lock()
		before := len(s.log)
		s.mu.Unlock()
		time.Sleep(10 * time.Minute) // the process is down
		st := run(2 * time.Hour)
		s.mu.Lock()
		after := s.log[before:]
		s.mu.Unlock()
		pages := 0
		for _, h := range after {
			if h.path == "/robots.txt" || h.path == "/sitemap.xml" {
				continue
			}
			pages++
			if !h.conditional {
				t.Errorf("after the restart %s was fetched without validators at %v", h.path, h.at)
			}
		}
		if pages < 6 || st.Recrawl.Revisits < int64(pages) {
			t.Errorf("after the restart: %d page fetches, %d counted as revisits; want the schedule to go on (≥ 6)", pages, st.Recrawl.Revisits)
		}
	})
}
