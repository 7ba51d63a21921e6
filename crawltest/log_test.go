package crawltest

import (
	"context"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/temoto/robotstxt"
)

func TestLogMinGapAndMaxInFlight(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	tests := []struct {
		name     string
		reqs     []Request
		wantGap  map[string]time.Duration
		wantMaxF map[string]int
	}{
		{
			name: "sequential with gaps",
			reqs: []Request{
				{Host: "a", Start: at(0), End: at(10)},
				{Host: "a", Start: at(30), End: at(40)},
				{Host: "a", Start: at(45), End: at(50)},
			},
			wantGap:  map[string]time.Duration{"a": 5 * time.Millisecond},
			wantMaxF: map[string]int{"a": 1},
		},
		{
			name: "back to back does not overlap",
			reqs: []Request{
				{Host: "a", Start: at(0), End: at(10)},
				{Host: "a", Start: at(10), End: at(20)},
			},
			wantGap:  map[string]time.Duration{"a": 0},
			wantMaxF: map[string]int{"a": 1},
		},
		{
			name: "overlap counts as zero gap, per host",
			reqs: []Request{
				{Host: "a", Start: at(0), End: at(100)},
				{Host: "a", Start: at(10), End: at(20)},
				{Host: "a", Start: at(30), End: at(40)},
				{Host: "a", Start: at(150), End: at(160)},
				{Host: "b", Start: at(15), End: at(16)},
			},
			wantGap:  map[string]time.Duration{"a": 0},
			wantMaxF: map[string]int{"a": 2, "b": 1},
		},
		{
			name: "in flight never ends",
			reqs: []Request{
				{Host: "a", Start: at(0)},
				{Host: "a", Start: at(500), End: at(510)},
				{Host: "a", Start: at(600), End: at(610)},
			},
			wantGap:  map[string]time.Duration{"a": 0},
			wantMaxF: map[string]int{"a": 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &Log{reqs: tt.reqs}
			gap := l.MinGap()
			for h, want := range tt.wantGap {
				if gap[h] != want {
					t.Errorf("MinGap()[%q] = %v, want %v", h, gap[h], want)
				}
			}
			if _, ok := gap["b"]; ok {
				t.Errorf("MinGap() has host b with a single request")
			}
			mf := l.MaxInFlight()
			for h, want := range tt.wantMaxF {
				if mf[h] != want {
					t.Errorf("MaxInFlight()[%q] = %d, want %d", h, mf[h], want)
				}
			}
		})
	}
}

// politeClient fetches robots.txt of each host once, obeys it, waits gap
// between requests and never fetches a URL twice.
func politeClient(t *testing.T, w *Web, ua string, gap time.Duration, perHost int) {
	t.Helper()
	c := w.Client()
	for _, s := range w.Seeds() {
		req, _ := http.NewRequest(http.MethodGet, s+"robots.txt", nil)
		req.Header.Set("User-Agent", ua)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		rd, err := robotstxt.FromResponse(resp)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, u := range w.Pages() {
			if !strings.HasPrefix(u, s) || !rd.TestAgent(strings.TrimPrefix(u, s[:len(s)-1]), ua) {
				continue
			}
			if n++; n > perHost {
				break
			}
			time.Sleep(gap) // politeness is the behaviour under test
			get(t, c, u, "User-Agent", ua)
		}
	}
}

func TestLogPassesPoliteClient(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 3, PagesPerHost: 30})
	const gap = 5 * time.Millisecond
	politeClient(t, w, "polite/1.0", gap, 8)
	l := w.Log()
	if l.Len() < 3*5 {
		t.Fatalf("polite client made %d requests", l.Len())
	}
	if v := l.RobotsViolations("polite/1.0"); len(v) != 0 {
		t.Errorf("RobotsViolations = %v, want none", v)
	}
	if d := l.FetchedTwice(); len(d) != 0 {
		t.Errorf("FetchedTwice() = %v, want none", d)
	}
	for h, g := range l.MinGap() {
		if g < gap {
			t.Errorf("MinGap()[%s] = %v, want at least %v", h, g, gap)
		}
	}
	for h, n := range l.MaxInFlight() {
		if n != 1 {
			t.Errorf("MaxInFlight()[%s] = %d, want 1", h, n)
		}
	}
	if got := l.FetchedPages(); len(got) != l.Len()-3 || !slices.IsSorted(got) {
		t.Errorf("FetchedPages() = %d URLs, want %d sorted (all but robots.txt)", len(got), l.Len()-3)
	}
	if len(l.Fetched()) != l.Len() {
		t.Errorf("Fetched() = %d URLs for %d requests", len(l.Fetched()), l.Len())
	}
}

func TestLogCatchesHammeringClient(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 2, PagesPerHost: 10, Faults: Faults{Hang: true}})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range 3 { // three requests at once to one host
		wg.Go(func() {
			if r, err := do(t, ctx, w.Client(), "http://h1.test/fault/hang"); err == nil {
				r.Body.Close()
			}
		})
	}
	waitLog(t, w, func(l *Log) bool { return l.Len() == 3 })
	cancel()
	wg.Wait()
	// Sequential requests on another host do not overlap.
	for _, u := range w.Pages()[:5] {
		get(t, w.Client(), u)
	}
	l := w.Log()
	if got := l.MaxInFlight()["h1.test"]; got != 3 {
		t.Errorf("MaxInFlight()[h1.test] = %d, want 3", got)
	}
	if got := l.MinGap()["h1.test"]; got != 0 {
		t.Errorf("MinGap()[h1.test] = %v, want 0", got)
	}
	if got := l.MaxInFlight()["h0.test"]; got != 1 {
		t.Errorf("MaxInFlight()[h0.test] = %d for sequential requests, want 1", got)
	}
}

func TestLogCatchesRobotsIgnoringClient(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 4, PagesPerHost: 40})
	for _, u := range w.Pages() { // fetches everything, robots.txt unread
		get(t, w.Client(), u)
	}
	v := w.Log().RobotsViolations("rude/1.0")
	if len(v) == 0 {
		t.Fatal("RobotsViolations = none for a client that ignored robots.txt")
	}
	for _, r := range v {
		if !w.Disallowed("rude/1.0", r.URL) {
			t.Errorf("violation %s is not disallowed", r.URL)
		}
	}
	if got := len(w.Log().RobotsViolations("evilbot")); got != len(w.Pages()) {
		t.Errorf("RobotsViolations(evilbot) = %d, want all %d", got, len(w.Pages()))
	}
}

func TestLogCatchesRefetchingClient(t *testing.T) {
	w := NewTestWeb(t, &Options{Hosts: 2, PagesPerHost: 10})
	u := w.Pages()[4] // http://h0.test/…
	i := strings.LastIndexByte(u, '/')
	forms := []string{u, strings.Replace(u, "h0.test", "H0.test:80", 1), u + "?", u[:i] + "/." + u[i:], u + "#frag"}
	for _, f := range forms {
		get(t, w.Client(), f)
	}
	get(t, w.Client(), w.Seeds()[1]+"robots.txt")
	get(t, w.Client(), w.Seeds()[1]+"robots.txt")
	l := w.Log()
	if got := l.FetchedTwice(); len(got) != 1 || got[0] != u {
		t.Errorf("FetchedTwice() = %v, want [%s]", got, u)
	}
	if got := l.Counts()[u]; got != len(forms) {
		t.Errorf("Counts()[%s] = %d, want %d", u, got, len(forms))
	}
	if got := l.Counts()[w.Seeds()[1]+"robots.txt"]; got != 2 {
		t.Errorf("Counts()[robots.txt] = %d, want 2", got)
	}
	if got := l.Filter(func(r Request) bool { return r.Host == "h1.test" }).Len(); got != 2 {
		t.Errorf("Filter(h1.test).Len() = %d, want 2", got)
	}
	w.ResetLog()
	if got := w.Log().Len(); got != 0 {
		t.Errorf("after ResetLog, Len() = %d", got)
	}
}

// TestCloseLeaksNothing closes a web with requests hanging, sleeping and
// streaming, and checks every goroutine is gone.
func TestCloseLeaksNothing(t *testing.T) {
	before := runtime.NumGoroutine()
	w, err := NewWeb(&Options{Hosts: 2, PagesPerHost: 10, LoopbackIPs: true,
		Faults: Faults{Hang: true, Slow: time.Hour, EndlessBody: true}})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, p := range []string{"/fault/hang", "/fault/slow", "/fault/endless", "/"} {
		wg.Go(func() {
			r, err := w.Client().Get("http://h1.test" + p)
			if err == nil {
				for err == nil {
					_, err = r.Body.Read(make([]byte, 4096))
				}
				r.Body.Close()
			}
		})
	}
	waitLog(t, w, func(l *Log) bool { return l.Len() == 4 })
	if err := w.Close(); err != nil {
		t.Errorf("Close() = %v", err)
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Errorf("second Close() = %v", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines after Close, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(time.Millisecond) // polling, bounded by the deadline
	}
	plain := &http.Client{Transport: &http.Transport{}} // no proxy
	for _, s := range w.Seeds() {
		if _, err := plain.Get(s); err == nil {
			t.Errorf("GET %s after Close succeeded", s)
		}
	}
}
