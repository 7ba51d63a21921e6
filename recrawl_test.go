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
	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/recrawl"
	"github.com/trawl-dev/trawl/store"
)

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

func (s *scriptedSite) hits(path string) []hit {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []hit
	for _, h := range s.log {
		if h.path == path {
			out = append(out, h)
		}
	}
	return out
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
func TestRecrawlRevisits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &scriptedSite{start: time.Now()}
		s.pages = map[string]func(time.Duration) (int, string){
			"/": func(age time.Duration) (int, string) {
				if age > 2*time.Hour { // a new link appears
					return 200, html("Home", "Welcome, now with news.", "/stable", "/busy", "/gone", "/vanished", "/private", "/late")
				}
				return 200, html("Home", "Welcome.", "/stable", "/busy", "/gone", "/vanished", "/private")
			},
			"/stable": static(html("Stable", "This page never changes at all.")),
			"/busy": func(age time.Duration) (int, string) {
				return 200, html("Busy", fmt.Sprintf("Edition %d of the busy page, about rather different things each time: %s.", age/(20*time.Minute), strings.Repeat("word ", int(age/(20*time.Minute))%7+1)))
			},
			"/gone": func(age time.Duration) (int, string) {
				if age > time.Hour {
					return 404, "gone"
				}
				return 200, html("Gone soon", "This page will disappear.")
			},
			"/vanished": func(age time.Duration) (int, string) {
				if age > 90*time.Minute {
					return 410, "gone for good"
				}
				return 200, html("Vanishing", "This page will vanish.")
			},
			"/private": static(html("Private", "Soon disallowed by robots.txt.")),
			"/late":    static(html("Late", "A page linked only after two hours.")),
		}
		s.robots = func(age time.Duration) string {
			if age > 20*time.Hour {
				return "User-agent: *\nDisallow: /private\n"
			}
			return "User-agent: *\nAllow: /\n"
		}
		mem := &store.Memory{}
		c := recrawlCrawler(t, s, trawl.WithStore(mem),
			trawl.WithRecrawl(recrawl.Policy{MinInterval: time.Minute, MaxInterval: 2 * time.Hour}))
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Hour)
		defer cancel()
		if err := c.Run(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Run = %v, want it to end with its context", err)
		}
		st := c.Stats()

		for _, p := range []string{"/", "/stable", "/busy"} {
			hits := s.hits(p)
			if len(hits) < 15 {
				t.Errorf("%s fetched %d times in 30 h, want it revisited throughout (at least every 2 h)", p, len(hits))
			}
			for _, h := range hits[1:] {
				if !h.conditional {
					t.Errorf("revisit of %s at %v was not a conditional GET", p, h.at)
					break
				}
			}
		}
		if n := len(s.hits("/late")); n < 2 {
			t.Errorf("/late, linked from a revisit of / after 2 h, fetched %d times, want it crawled and revisited", n)
		}
		for p, gone := range map[string]time.Duration{"/gone": time.Hour, "/vanished": 90 * time.Minute} {
			hits := s.hits(p)
			if len(hits) == 0 || hits[len(hits)-1].status < 400 {
				t.Fatalf("%s: never saw its 4xx (hits %v)", p, hits)
			}
			if n := len(hits); n >= 2 && hits[n-2].status >= 400 {
				t.Errorf("%s was fetched again after its %d: hits %v", p, hits[n-2].status, hits)
			}
			if hits[len(hits)-1].at < gone {
				t.Errorf("%s: last fetch at %v, before it went", p, hits[len(hits)-1].at)
			}
		}
		// robots.txt is cached for 24 h: /private stops being fetched at
		// the first robots.txt fetch after 20 h.
		var robots []time.Duration
		for _, h := range s.hits("/robots.txt") {
			robots = append(robots, h.at)
		}
		if len(robots) < 2 {
			t.Fatalf("robots.txt fetched at %v, want it fetched again when its cached copy expires", robots)
		}
		for _, h := range s.hits("/private") {
			if h.at > robots[1] {
				t.Errorf("/private fetched at %v, after robots.txt disallowed it (fetched again at %v)", h.at, robots[1])
			}
		}
		// Politeness: 10 s between the requests to the host, revisits
		// included.
		s.mu.Lock()
		for i := 1; i < len(s.log); i++ {
			if gap := s.log[i].at - s.log[i-1].at; gap < 10*time.Second {
				t.Errorf("requests at %v and %v: gap %v, want ≥ 10 s", s.log[i-1].at, s.log[i].at, gap)
				break
			}
		}
		s.mu.Unlock()

		if st.Recrawl.Revisits == 0 || st.Fetch.NotModified() == 0 || st.Recrawl.Changes == 0 {
			t.Errorf("Stats: %d revisits, %d not modified, %d changes; want all > 0", st.Recrawl.Revisits, st.Fetch.NotModified(), st.Recrawl.Changes)
		}
		// Scheduled: /, /stable, /busy, /late (/gone, /vanished and
		// /private left).
		if st.Recrawl.Scheduled != 4 {
			t.Errorf("Stats.Scheduled = %d, want 4", st.Recrawl.Scheduled)
		}
		if st.Recrawl.Freshness <= 0 || st.Recrawl.Freshness > 1 {
			t.Errorf("Stats.Freshness = %g, want in (0, 1]", st.Recrawl.Freshness)
		}
		// Stored: every first visit, and each change of / and /busy, but
		// not the unchanged revisits.
		stored := map[string]int{}
		for _, p := range mem.Pages() {
			stored[p.URL.Path]++
		}
		if stored["/stable"] != 1 {
			t.Errorf("/stable stored %d times, want once (it never changes)", stored["/stable"])
		}
		if stored["/busy"] < 5 || int64(stored["/busy"]) > st.Recrawl.Changes+1 {
			t.Errorf("/busy stored %d times with %d changes seen in all, want one per change seen", stored["/busy"], st.Recrawl.Changes)
		}
		t.Logf("30 h: %d fetches, %d revisits, %d 304s, %d changes, %d scheduled, estimated freshness %.2f",
			st.Fetch.Pages, st.Recrawl.Revisits, st.Fetch.NotModified(), st.Recrawl.Changes, st.Recrawl.Scheduled, st.Recrawl.Freshness)
	})
}

// A server that ignores validators: a page whose text stays the same
// reads as unchanged although it is answered in full every time, and one
// whose text changes reads as changed.
func TestRecrawlIgnoredValidators(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &scriptedSite{start: time.Now(), ignoreValidators: true}
		s.pages = map[string]func(time.Duration) (int, string){
			"/": static(html("Home", "The same text, always, however often it is fetched by anyone.", "/news")),
			"/news": func(age time.Duration) (int, string) {
				return 200, html("News", fmt.Sprintf("Story number %d: %s", age/time.Hour, strings.Repeat(fmt.Sprintf("fresh words %d ", age/time.Hour), 5)))
			},
		}
		c := recrawlCrawler(t, s, trawl.WithRecrawl(recrawl.Policy{MinInterval: time.Minute, MaxInterval: time.Hour}))
		ctx, cancel := context.WithTimeout(context.Background(), 12*time.Hour)
		defer cancel()
		c.Run(ctx)
		st := c.Stats()
		home, news := len(s.hits("/")), len(s.hits("/news"))
		if st.Fetch.NotModified() != 0 {
			t.Errorf("%d 304s from a server that ignores validators", st.Fetch.NotModified())
		}
		// At most one change an hour of /news can be seen; none of /.
		if st.Recrawl.Changes == 0 || st.Recrawl.Changes > 12 {
			t.Errorf("%d changes seen in 12 h (/ fetched %d times, /news %d), want between 1 and 12", st.Recrawl.Changes, home, news)
		}
		if int64(home+news-2) != st.Recrawl.Revisits {
			t.Errorf("Revisits = %d, want %d", st.Recrawl.Revisits, home+news-2)
		}
	})
}

// WithRecrawl with a frontier that cannot keep revisits fails at New;
// Limits.MaxPages caps the pages scheduled without stopping the revisits.
func TestRecrawlOptions(t *testing.T) {
	if _, err := trawl.New(trawl.WithSeeds("http://site.test/"), trawl.WithRecrawl(recrawl.Policy{}),
		trawl.WithFrontier(func(frontier.MemoryOptions) (frontier.Frontier, error) { return oneShotFrontier{}, nil })); err == nil {
		t.Error("New with WithRecrawl and a frontier without revisits succeeded")
	}
	synctest.Test(t, func(t *testing.T) {
		s := &scriptedSite{start: time.Now()}
		s.pages = map[string]func(time.Duration) (int, string){
			"/":  static(html("Home", "Home page.", "/a", "/b", "/c")),
			"/a": static(html("A", "Page a.")), "/b": static(html("B", "Page b.")), "/c": static(html("C", "Page c.")),
		}
		c := recrawlCrawler(t, s, trawl.WithLimits(trawl.Limits{MaxPages: 3}), trawl.WithRecrawl(recrawl.Policy{MaxInterval: time.Hour}))
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Hour)
		defer cancel()
		c.Run(ctx)
		// Three fetches: /, /sitemap.xml (404: not scheduled), /a.
		if n := c.Stats().Recrawl.Scheduled; n != 2 {
			t.Errorf("Scheduled = %d with Limits.MaxPages 3, want 2", n)
		}
		if n := len(s.hits("/b")) + len(s.hits("/c")); n != 0 {
			t.Errorf("/b and /c fetched %d times past the page limit", n)
		}
		if n := len(s.hits("/")); n < 4 {
			t.Errorf("/ fetched %d times in 5 h, want revisits after the page limit", n)
		}
	})
}

// oneShotFrontier is a frontier without revisits (it holds nothing).
type oneShotFrontier struct{}

func (oneShotFrontier) Push(context.Context, ...frontier.Request) (int, error) { return 0, nil }
func (oneShotFrontier) Next(context.Context) (frontier.Request, error) {
	return frontier.Request{}, frontier.ErrEmpty
}
func (oneShotFrontier) Done(frontier.Request, frontier.Outcome) error { return nil }
func (oneShotFrontier) Len() int                                      { return 0 }
