package trawl_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/dedup"
	"github.com/trawl-dev/trawl/extract"
)

// decisionSink collects decisions, for tests.
type decisionSink struct {
	mu sync.Mutex
	ds []trawl.Decision
}

func (s *decisionSink) record(_ context.Context, d trawl.Decision) {
	s.mu.Lock()
	s.ds = append(s.ds, d)
	s.mu.Unlock()
}

func (s *decisionSink) all() []trawl.Decision {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.ds)
}

func TestDecisionAppendJSONMatchesEncodingJSON(t *testing.T) {
	when := time.Date(2026, 11, 24, 8, 30, 1, 123456789, time.UTC)
	tests := []struct {
		name string
		d    trawl.Decision
	}{
		{name: "minimal", d: trawl.Decision{Time: when, URL: "http://a.test/", Outcome: trawl.DecisionQueued}},
		{name: "all fields", d: trawl.Decision{
			Time: when, URL: "http://a.test/x?q=1&r=<2>", Outcome: trawl.DecisionFetched, Reason: trawl.ReasonNotModified,
			Depth: 3, Referrer: "http://a.test/", Filter: "SameHost(<x>)", Kind: extract.Embed, Of: "http://a.test/&", ErrorKind: "timeout", Status: 304, Bytes: 1234, Duration: 1500 * time.Millisecond,
			Error: "quote \" backslash \\ tab \t newline \n nul \x00 bell \x07",
		}},
		{name: "unicode", d: trawl.Decision{Time: when.Add(-time.Nanosecond * 123456789), URL: "http://ü.test/日本\u2028\u2029",
			Outcome: trawl.DecisionError, ErrorKind: "bad\xffutf8\xc3", Error: "\u007f\u0080"}},
		{name: "zone", d: trawl.Decision{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600)), URL: ""}},
		{name: "whole second", d: trawl.Decision{Time: time.Date(2026, 12, 31, 23, 59, 59, 0, time.UTC)}},
		{name: "trailing zeros", d: trawl.Decision{Time: time.Date(999, 1, 1, 0, 0, 0, 120000000, time.UTC)}},
		{name: "one nanosecond", d: trawl.Decision{Time: time.Date(2026, 6, 7, 8, 9, 10, 1, time.UTC)}},
		{name: "local", d: trawl.Decision{Time: time.Date(2026, 6, 7, 8, 9, 10, 5, time.Local)}},
	}
	// Importance as encoding/json writes floats: plain decimals, and
	// exponents below 1e-6 and from 1e21 on.
	for _, f := range []float64{1, 0.5, 1.0 / 3, 0.000123, 1e-6, 9.99e-7, 1.5e-9, 2.5e-12, 1e20, 1e21, 123456789.125} {
		tests = append(tests, struct {
			name string
			d    trawl.Decision
		}{name: fmt.Sprint("importance ", f), d: trawl.Decision{Time: when, Outcome: trawl.DecisionFetched, Importance: f}})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := json.Marshal(tt.d)
			if err != nil {
				t.Fatal(err)
			}
			if got := tt.d.AppendJSON(nil); !bytes.Equal(got, want) {
				t.Errorf("AppendJSON =\n%s\nwant (encoding/json)\n%s", got, want)
			}
			var back trawl.Decision
			if err := json.Unmarshal(tt.d.AppendJSON(nil), &back); err != nil {
				t.Fatalf("not JSON: %v", err)
			}
			if back.Outcome != tt.d.Outcome || back.Reason != tt.d.Reason || back.Kind != tt.d.Kind || back.Depth != tt.d.Depth || back.Duration != tt.d.Duration || !back.Time.Equal(tt.d.Time) {
				t.Errorf("round trip = %+v, want %+v", back, tt.d)
			}
		})
	}
}

func FuzzDecisionAppendJSON(f *testing.F) {
	f.Add("http://a.test/<&>", "reason\n", "err\x00\xff", int64(12), 3)
	f.Add("\u2028", "", "\"\\", int64(-1), -4)
	f.Fuzz(func(t *testing.T, u, reason, msg string, n int64, depth int) {
		d := trawl.Decision{Time: time.Unix(n, n%1e9).UTC(), URL: u, Outcome: trawl.Outcome(depth & 15), Reason: trawl.Reason(n & 15),
			Filter: reason, ErrorKind: reason, Of: msg, Kind: extract.Kind(depth & 7), Error: msg,
			Depth: depth, Bytes: n, Duration: time.Duration(n), Status: depth}
		want, err := json.Marshal(d)
		if err != nil {
			t.Skip("a time encoding/json refuses (year outside 0-9999)")
		}
		if got := d.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Errorf("AppendJSON =\n%s\nwant\n%s", got, want)
		}
	})
}

func TestDecisionLogWritesLines(t *testing.T) {
	var buf bytes.Buffer
	log := trawl.NewDecisionLog(&buf)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 100 {
				log.Record(context.Background(), trawl.Decision{URL: fmt.Sprintf("http://h%d.test/%d", i, j), Outcome: trawl.DecisionQueued})
			}
		})
	}
	wg.Wait()
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 800 || log.Lines() != 800 {
		t.Fatalf("%d lines, Lines() = %d, want 800", len(lines), log.Lines())
	}
	seen := map[string]bool{}
	for _, l := range lines {
		var d trawl.Decision
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		seen[d.URL] = true
	}
	if len(seen) != 800 {
		t.Errorf("%d distinct URLs, want 800", len(seen))
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, io.ErrShortWrite
}

func TestDecisionLogReportsWriteError(t *testing.T) {
	w := &failWriter{}
	log := trawl.NewDecisionLog(w)
	big := strings.Repeat("x", 70<<10) // more than the buffer
	log.Record(context.Background(), trawl.Decision{URL: big})
	log.Record(context.Background(), trawl.Decision{URL: big})
	err := log.Flush()
	if err == nil || !strings.Contains(err.Error(), "decision log") {
		t.Fatalf("Flush = %v, want a decision log error", err)
	}
	if w.n != 1 {
		t.Errorf("%d writes after the first error, want the log to stop", w.n-1)
	}
}

func TestDecisionJoinEventsCallsEveryHook(t *testing.T) {
	// Every func field of Events, present and future, must be joined.
	typ := reflect.TypeFor[trawl.Events]()
	var calls []string
	mk := func(tag string) trawl.Events {
		var e trawl.Events
		v := reflect.ValueOf(&e).Elem()
		for i := range typ.NumField() {
			f := typ.Field(i)
			if f.Type.Kind() != reflect.Func {
				continue
			}
			name := f.Name
			v.Field(i).Set(reflect.MakeFunc(f.Type, func([]reflect.Value) []reflect.Value {
				calls = append(calls, tag+name)
				return nil
			}))
		}
		return e
	}
	joined := trawl.JoinEvents(mk("a."), trawl.Events{}, mk("b."))
	v := reflect.ValueOf(joined)
	for i := range typ.NumField() {
		f := typ.Field(i)
		if f.Type.Kind() != reflect.Func {
			continue
		}
		calls = nil
		fn := v.Field(i)
		if fn.IsNil() {
			t.Errorf("JoinEvents left %s nil", f.Name)
			continue
		}
		args := make([]reflect.Value, f.Type.NumIn())
		for j := range args {
			args[j] = reflect.Zero(f.Type.In(j))
		}
		fn.Call(args)
		if want := []string{"a." + f.Name, "b." + f.Name}; !slices.Equal(calls, want) {
			t.Errorf("%s called %v, want %v", f.Name, calls, want)
		}
	}
	if e := trawl.JoinEvents(trawl.Events{}, trawl.Events{}); e.OnPage != nil || e.OnDecision != nil {
		t.Error("JoinEvents of empty Events set a hook")
	}
}

func TestDecisionFilterNames(t *testing.T) {
	tests := []struct {
		f    trawl.Filter
		want string
	}{
		{trawl.SameHost("http://a.test/"), "SameHost"},
		{trawl.Not(trawl.SkipExtensions()), "Not(SkipExtensions)"},
		{trawl.All(trawl.SkipExtensions(), trawl.FilterFunc(func(*trawl.Candidate) bool { return true })), "All(SkipExtensions, trawl.FilterFunc)"},
		{trawl.NamedFilter("mine", trawl.FilterFunc(func(*trawl.Candidate) bool { return true })), "mine"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(tt.f); got != tt.want {
			t.Errorf("name = %q, want %q", got, tt.want)
		}
	}
}

// decisionCrawl crawls web with decisions recorded and returns them.
func decisionCrawl(t *testing.T, web *crawltest.Web, opts ...trawl.Option) ([]trawl.Decision, trawl.Stats) {
	t.Helper()
	sink := &decisionSink{}
	opts = append([]trawl.Option{
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithWorkers(4),
		trawl.WithEvents(trawl.Events{OnDecision: sink.record}),
	}, opts...)
	c, err := trawl.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	return sink.all(), c.Stats()
}

func byOutcome(ds []trawl.Decision) map[trawl.Outcome][]trawl.Decision {
	m := map[trawl.Outcome][]trawl.Decision{}
	for _, d := range ds {
		m[d.Outcome] = append(m[d.Outcome], d)
	}
	return m
}

func TestDecisionEveryURLAccounted(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 7, Hosts: 4, PagesPerHost: 40,
		Faults: crawltest.Faults{DeepPaths: true, Calendar: true}})
	seeds := web.Seeds()
	filter := trawl.SameHost(seeds[:3]...) // the fourth host is reached only by links
	ds, st := decisionCrawl(t, web, trawl.WithSeeds(seeds[:3]...), trawl.WithFilters(filter),
		trawl.WithDuplicateDetection(dedup.NewDetector(), trawl.DuplicatePolicy{}))
	by := byOutcome(ds)

	// Counts agree with Stats.
	if got, want := int64(len(by[trawl.DecisionFetched])), st.Fetch.Pages; got != want {
		t.Errorf("%d fetched decisions, Stats.Fetch.Pages %d", got, want)
	}
	if got, want := int64(len(by[trawl.DecisionQueued])), st.URLs.Discovered-st.URLs.Duplicate; got != want {
		t.Errorf("%d queued decisions, Stats says %d URLs were new", got, want)
	}
	if got, want := int64(len(by[trawl.DecisionDuplicateURL])), st.URLs.Duplicate; got != want {
		t.Errorf("%d duplicate-url decisions, Stats.DuplicateURLs %d", got, want)
	}
	if got, want := int64(len(by[trawl.DecisionRobots])), st.Robots.Denied; got != want || got == 0 {
		t.Errorf("%d robots decisions, Stats.Robots.Denied %d (want equal, > 0)", got, want)
	}
	if got, want := int64(len(by[trawl.DecisionTrap])), st.URLs.Traps; got != want || got == 0 {
		t.Errorf("%d trap decisions, Stats.URLs.Traps %d (want equal, > 0)", got, want)
	}
	if got, want := int64(len(by[trawl.DecisionDuplicateContent])), st.Pages.ExactDuplicates+st.Pages.NearDuplicates; got != want || got == 0 {
		t.Errorf("%d duplicate-content decisions, Stats says %d (want equal, > 0)", got, want)
	}
	if got, want := len(by[trawl.DecisionRobotsTxt]), int(st.Robots.Fetches); got != want {
		t.Errorf("%d robots.txt decisions, Stats.RobotsFetches %d", got, want)
	}

	// Each URL is queued at most once and before anything else happens
	// to it; every fetched URL was queued first.
	queuedAt := map[string]int{}
	for i, d := range ds {
		if d.Outcome != trawl.DecisionQueued {
			continue
		}
		if _, dup := queuedAt[d.URL]; dup {
			t.Errorf("%s queued twice", d.URL)
		}
		queuedAt[d.URL] = i
	}
	for i, d := range ds {
		switch d.Outcome {
		case trawl.DecisionFetched, trawl.DecisionRobots, trawl.DecisionWait, trawl.DecisionDuplicateContent:
			if q, ok := queuedAt[d.URL]; !ok || q > i {
				t.Errorf("%s %s before it was queued", d.URL, d.Outcome)
			}
		case trawl.DecisionDuplicateURL:
			if q, ok := queuedAt[d.URL]; !ok || q > i {
				t.Errorf("%s is a duplicate of nothing queued before it", d.URL)
			}
			if d.Referrer == "" {
				t.Errorf("duplicate %s without its referrer", d.URL)
			}
		}
	}

	// What the web saw matches the fetched decisions exactly.
	var fetched []string
	for _, d := range by[trawl.DecisionFetched] {
		fetched = append(fetched, d.URL)
		if d.Status == 0 || d.Depth < 1 || d.Duration <= 0 {
			t.Errorf("fetched %s: status %d, depth %d, duration %v", d.URL, d.Status, d.Depth, d.Duration)
		}
	}
	sort.Strings(fetched)
	got := web.Log().Filter(func(r crawltest.Request) bool { return !strings.HasSuffix(r.URL, "/robots.txt") }).Fetched()
	sort.Strings(got)
	if !slices.Equal(fetched, got) {
		t.Errorf("fetched decisions for %d URLs, the web served %d", len(fetched), len(got))
		for _, u := range fetched {
			if !slices.Contains(got, u) {
				t.Errorf("decided %s", u)
			}
		}
		for _, u := range got {
			if !slices.Contains(fetched, u) {
				t.Errorf("served %s", u)
			}
		}
	}

	// Robots decisions name URLs robots.txt disallows; filtered ones name
	// the filter; traps name their rule.
	for _, d := range by[trawl.DecisionRobots] {
		if !web.Disallowed(fetchUA, d.URL) {
			t.Errorf("robots decision for %s, which robots.txt allows", d.URL)
		}
	}
	if len(by[trawl.DecisionFiltered]) == 0 {
		t.Error("no filtered decisions: the fourth host's links should be filtered")
	}
	for _, d := range by[trawl.DecisionFiltered] {
		if d.Filter != "SameHost" {
			t.Errorf("filtered %s by %q, want SameHost", d.URL, d.Filter)
		}
	}
	rules := map[trawl.Reason]int{}
	for _, d := range by[trawl.DecisionTrap] {
		rules[d.Reason]++
	}
	for rule := range rules {
		if !slices.Contains([]trawl.Reason{trawl.ReasonMaxURLLength, trawl.ReasonMaxPathSegments, trawl.ReasonMaxSegmentRepeats, trawl.ReasonTemplateStreak}, rule) {
			t.Errorf("trap rule %q unknown", rule)
		}
	}
	if len(rules) == 0 || rules[trawl.ReasonNone] > 0 {
		t.Errorf("trap rules %v, want named rules", rules)
	}
	for _, d := range by[trawl.DecisionDuplicateContent] {
		if (d.Reason != trawl.ReasonExact && d.Reason != trawl.ReasonNear) || !strings.HasPrefix(d.Of, "http") {
			t.Errorf("duplicate-content %s with reason %q of %q, want exact or near of a URL", d.URL, d.Reason, d.Of)
		}
	}
	for _, d := range by[trawl.DecisionRobotsTxt] {
		if d.Reason != trawl.ReasonParsed || d.Status != 200 || !strings.HasSuffix(d.URL, "/robots.txt") {
			t.Errorf("robots.txt decision %+v, want parsed with status 200", d)
		}
	}
	for _, d := range by[trawl.DecisionWait] {
		if d.Reason != trawl.ReasonRobotsContact {
			t.Errorf("wait %s for %q, want robots.txt-contact", d.URL, d.Reason)
		}
	}
	if len(by[trawl.DecisionWait]) != 3 {
		t.Errorf("%d URLs waited for their host after its robots.txt fetch, want 3 (one per seed host)", len(by[trawl.DecisionWait]))
	}
	if len(by[trawl.DecisionNotFollowed]) == 0 {
		t.Error("no not-followed decisions, though pages carry rel=nofollow links")
	}
}

func TestDecisionLimits(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 3, Hosts: 2, PagesPerHost: 60})
	tests := []struct {
		name    string
		opts    []trawl.Option
		outcome trawl.Outcome
		check   func(t *testing.T, d trawl.Decision)
	}{
		{name: "depth", opts: []trawl.Option{trawl.WithLimits(trawl.Limits{MaxDepth: 2})}, outcome: trawl.DecisionDepth,
			check: func(t *testing.T, d trawl.Decision) {
				if d.Depth != 3 {
					t.Errorf("depth decision for %s at depth %d, want 3", d.URL, d.Depth)
				}
			}},
		{name: "budget", opts: []trawl.Option{trawl.WithLimits(trawl.Limits{HostBudget: 10})}, outcome: trawl.DecisionBudget},
		{name: "max pages", opts: []trawl.Option{trawl.WithLimits(trawl.Limits{MaxPages: 5}), trawl.WithWorkers(1)}, outcome: trawl.DecisionLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds, st := decisionCrawl(t, web, tt.opts...)
			by := byOutcome(ds)
			if len(by[tt.outcome]) == 0 {
				t.Fatalf("no %s decisions in %d", tt.outcome, len(ds))
			}
			for _, d := range by[tt.outcome] {
				if d.Reason != trawl.ReasonNone {
					t.Errorf("%s %s with reason %q: the frontier can tell", tt.outcome, d.URL, d.Reason)
				}
				if tt.check != nil {
					tt.check(t, d)
				}
			}
			if tt.outcome == trawl.DecisionBudget {
				queued := map[string]int{}
				for _, d := range by[trawl.DecisionQueued] {
					queued[strings.SplitN(d.URL, "/", 4)[2]]++
				}
				for h, n := range queued {
					if strings.HasSuffix(h, ".test") && n != 10 {
						t.Errorf("%d URLs queued for %s, want the budget, 10", n, h)
					}
				}
				// A budget-dropped URL was never queued.
				for _, d := range by[trawl.DecisionBudget] {
					for _, q := range by[trawl.DecisionQueued] {
						if q.URL == d.URL {
							t.Errorf("%s both queued and over budget", d.URL)
						}
					}
				}
			}
			if tt.outcome == trawl.DecisionLimit && int64(len(by[trawl.DecisionFetched])) != st.Fetch.Pages {
				t.Errorf("%d fetched decisions, Stats.Fetch.Pages %d", len(by[trawl.DecisionFetched]), st.Fetch.Pages)
			}
		})
	}
}

func TestDecisionErrorsAndRetries(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 5, Hosts: 3, PagesPerHost: 30,
		Faults: crawltest.Faults{ServerErrors: true}})
	ds, st := decisionCrawl(t, web, trawl.WithLimits(trawl.Limits{MaxRetries: 1}), trawl.WithPoliteness(trawl.Politeness{BackoffBase: time.Millisecond, BackoffMax: time.Millisecond}))
	by := byOutcome(ds)
	if len(by[trawl.DecisionError]) == 0 {
		t.Fatal("no error decisions on a web with server errors")
	}
	kinds := map[string]int64{}
	for _, d := range by[trawl.DecisionError] {
		kinds[d.ErrorKind]++
		if strings.HasPrefix(d.ErrorKind, "status-") && d.Status < 400 {
			t.Errorf("error %s of kind %s with status %d", d.URL, d.ErrorKind, d.Status)
		}
		if d.Error == "" {
			t.Errorf("error %s without a message", d.URL)
		}
	}
	for k, n := range st.Errors.Kinds {
		if kinds[k] != n {
			t.Errorf("%d error decisions of kind %s, Stats.Errors.Kinds says %d", kinds[k], k, n)
		}
	}
	var retries int64
	for _, d := range by[trawl.DecisionWait] {
		if d.Reason == trawl.ReasonRetry && d.ErrorKind != "" {
			retries++
		}
	}
	if retries != st.Fetch.Retries {
		t.Errorf("%d retry decisions, Stats.Retries %d", retries, st.Fetch.Retries)
	}
}

// Decisions change nothing about what is crawled.
func TestDecisionSameCrawl(t *testing.T) {
	run := func(on bool) []string {
		web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 11, Hosts: 3, PagesPerHost: 40})
		ev := trawl.Events{}
		if on {
			ev.OnDecision = func(context.Context, trawl.Decision) {}
		}
		c, err := trawl.New(trawl.WithSeeds(web.Seeds()...), trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}), trawl.WithDialContext(web.DialContext),
			trawl.WithAllowPrivateNetworks(true), trawl.WithEvents(ev))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Run(t.Context()); err != nil {
			t.Fatal(err)
		}
		fetched := web.Log().Fetched()
		sort.Strings(fetched)
		return fetched
	}
	off, on := run(false), run(true)
	if !slices.Equal(off, on) {
		t.Errorf("with decisions %d URLs fetched, without %d", len(on), len(off))
	}
}

func TestDecisionRootDoesNotImportPrometheus(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("go list -deps . (the go command is needed): %v; CI is set, so this fails rather than skips", err)
		}
		t.Skipf("go list -deps . failed (this test needs the go command on $PATH): %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "prometheus") {
			t.Errorf("the root package depends on %s: metrics must cost nothing unless imported", dep)
		}
	}
}

func BenchmarkDecisionAppendJSON(b *testing.B) {
	d := trawl.Decision{Time: time.Now().UTC(), URL: "http://h1.test/news/story-17.html", Outcome: trawl.DecisionQueued,
		Depth: 3, Referrer: "http://h1.test/news/"}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = d.AppendJSON(buf[:0])
	}
	b.SetBytes(int64(len(buf)))
}

// BenchmarkDecisionCrawl crawls a 4-host web with and without a decision
// log (to io.Discard): the log's cost per crawl.
func BenchmarkDecisionCrawl(b *testing.B) {
	web, err := crawltest.NewWeb(&crawltest.Options{Seed: 1, Hosts: 4, PagesPerHost: 200})
	if err != nil {
		b.Fatal(err)
	}
	defer web.Close()
	for _, mode := range []string{"off", "hook", "jsonl"} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			var lines int64
			for b.Loop() {
				ev := trawl.Events{}
				var log *trawl.DecisionLog
				switch mode {
				case "hook":
					ev.OnDecision = func(context.Context, trawl.Decision) {}
				case "jsonl":
					log = trawl.NewDecisionLog(io.Discard)
					ev.OnDecision = log.Record
				}
				c, err := trawl.New(trawl.WithSeeds(web.Seeds()...), trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}), trawl.WithDialContext(web.DialContext),
					trawl.WithAllowPrivateNetworks(true), trawl.WithWorkers(8), trawl.WithEvents(ev))
				if err != nil {
					b.Fatal(err)
				}
				if err := c.Run(context.Background()); err != nil {
					b.Fatal(err)
				}
				if log != nil {
					lines += log.Lines()
				}
			}
			b.ReportMetric(float64(lines)/float64(b.N), "lines/op")
		})
	}
}

// A decision log says what became of every URL the crawl discovered, one
// JSON object per line.
func ExampleDecisionLog() {
	web, err := crawltest.NewWeb(&crawltest.Options{Seed: 1, Hosts: 1, PagesPerHost: 5})
	if err != nil {
		panic(err)
	}
	defer web.Close()

	var out bytes.Buffer // a file, usually
	log := trawl.NewDecisionLog(&out)
	c, err := trawl.New(
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
		trawl.WithWorkers(1),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithEvents(trawl.Events{OnDecision: log.Record}),
	)
	if err != nil {
		panic(err)
	}
	if err := errors.Join(c.Run(context.Background()), log.Flush()); err != nil {
		panic(err)
	}
	// Count the outcomes.
	counts := map[string]int{}
	dec := json.NewDecoder(&out)
	for {
		var d trawl.Decision
		if err := dec.Decode(&d); err != nil {
			break
		}
		counts[d.Outcome.String()+" "+d.Reason.String()+" "+d.Filter]++
	}
	keys := slices.Sorted(maps.Keys(counts))
	for _, k := range keys {
		fmt.Println(strings.Join(strings.Fields(k), " "), counts[k])
	}
	// Output:
	// duplicate-url 119
	// fetched 9
	// filtered SameHost 14
	// not-followed rel-nofollow 4
	// queued 10
	// robots 1
	// robots.txt parsed 1
	// wait robots.txt-contact 1
}

func TestDecisionRequestHookAborts(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 3, Hosts: 2, PagesPerHost: 30})
	ds, st := decisionCrawl(t, web, trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
		trawl.WithOnRequest(func(_ context.Context, r *trawl.OutgoingRequest) error {
			if strings.Count(r.URL.Path, "/") > 1 {
				return errors.New("not below the top directory")
			}
			return nil
		}))
	var skipped int64
	for _, d := range ds {
		if d.Outcome == trawl.DecisionAborted {
			if d.Error != "not below the top directory" {
				t.Errorf("aborted %s with error %q, want the hook's", d.URL, d.Error)
			}
			skipped++
		}
	}
	if skipped == 0 || skipped != st.URLs.Aborted {
		t.Errorf("%d request-hook decisions, Stats.Aborted %d (want equal, > 0)", skipped, st.URLs.Aborted)
	}
}

// (metrics and report sample it so); the race detector checks.
func TestDecisionStatsWhileRunStarts(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 1, Hosts: 1, PagesPerHost: 5})
	c, err := trawl.New(trawl.WithSeeds(web.Seeds()...), trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}), trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	read := make(chan struct{})
	go func() {
		defer close(read)
		for {
			c.Stats()
			select {
			case <-done:
				return
			default:
			}
		}
	}()
	err = c.Run(context.Background())
	close(done)
	<-read
	if err != nil {
		t.Fatal(err)
	}
	if st := c.Stats(); st.Start.IsZero() || st.Fetch.Pages == 0 {
		t.Errorf("Stats after Run: start %v, %d fetched", st.Start, st.Fetch.Pages)
	}
}

func BenchmarkDecisionLogRecord(b *testing.B) {
	log := trawl.NewDecisionLog(io.Discard)
	d := trawl.Decision{Time: time.Now().UTC(), URL: "http://h1.test/news/story-17.html", Outcome: trawl.DecisionDuplicateURL,
		Depth: 3, Referrer: "http://h1.test/news/"}
	ctx := context.Background()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			log.Record(ctx, d)
		}
	})
}
