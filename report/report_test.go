package report_test

import (
	"bytes"
	"context"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/dedup"
	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/report"
)

// crawlReport crawls a web with faults and traps, recorded, and returns
// the report and the crawl's final Stats.
func crawlReport(t testing.TB) (*report.Report, trawl.Stats) {
	t.Helper()
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 9, Hosts: 5, PagesPerHost: 60,
		Faults: crawltest.Faults{ServerErrors: true, Calendar: true, SessionIDs: true}})
	rec := report.NewRecorder(&report.Options{Interval: 20 * time.Millisecond})
	c, err := trawl.New(
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
		trawl.WithPoliteness(trawl.Politeness{Delay: 5 * time.Millisecond}),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithWorkers(4),
		trawl.WithLimits(trawl.Limits{MaxRetries: -1}),
		trawl.WithDuplicateDetection(dedup.NewDetector(), trawl.DuplicatePolicy{}),
		trawl.WithEvents(rec.Events()),
	)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	watched := make(chan error, 1)
	go func() { watched <- rec.Watch(ctx, c.Stats) }()
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	stop()
	<-watched
	st := c.Stats()
	rec.Add(st)
	return rec.Report("crawltest web"), st
}

func TestReportFigures(t *testing.T) {
	rep, st := crawlReport(t)
	var pages, errs int64
	for _, h := range rep.Hosts {
		pages += h.Pages
		errs += h.Errors
		if !strings.HasSuffix(h.Name, ".test") {
			t.Errorf("host %q is not one of the web's", h.Name)
		}
		if h.Robots != "parsed" || h.RobotsStatus != 200 {
			t.Errorf("%s: robots.txt %q (%d), want parsed (200)", h.Name, h.Robots, h.RobotsStatus)
		}
		if h.Pages > 1 && h.MeanDelay < 5*time.Millisecond {
			t.Errorf("%s: mean delay %v, below the crawl's 5ms", h.Name, h.MeanDelay)
		}
	}
	if rep.HostsTotal != 5 || pages != st.Fetch.Pages || errs != st.Errors.Total() {
		t.Errorf("hosts %d, pages %d, errors %d; want 5 hosts, Stats %d pages, %d errors", rep.HostsTotal, pages, errs, st.Fetch.Pages, st.Errors.Total())
	}
	var byCode, byDepth int64
	for _, c := range rep.Status {
		byCode += c.N
	}
	for _, c := range rep.Depths {
		byDepth += c.N
		if c.Value < 1 || int64(c.Value) > st.Fetch.Deepest {
			t.Errorf("depth %d outside 1..%d", c.Value, st.Fetch.Deepest)
		}
	}
	if byCode != st.Fetch.Pages || byDepth != st.Fetch.Pages {
		t.Errorf("status codes sum to %d, depths to %d; Stats.Fetch.Pages %d", byCode, byDepth, st.Fetch.Pages)
	}
	var trapped int64
	for _, c := range rep.TrapRules {
		trapped += c.N
	}
	if trapped != st.URLs.Traps || trapped == 0 {
		t.Errorf("trap rules count %d URLs, Stats.URLs.Traps %d (want equal, > 0)", trapped, st.URLs.Traps)
	}
	if len(rep.Skipped) == 0 || len(rep.Errors) == 0 || len(rep.Samples) < 2 {
		t.Errorf("skipped %v, errors %v, %d samples: want some of each", rep.Skipped, rep.Errors, len(rep.Samples))
	}
	for i := 1; i < len(rep.Skipped); i++ {
		if rep.Skipped[i].N > rep.Skipped[i-1].N {
			t.Errorf("skip reasons not most frequent first: %v", rep.Skipped)
		}
	}
	// The failed URLs are listed with their error: the first 20.
	if rep.Failed != st.Errors.Total() || int64(len(rep.Failures)) != min(rep.Failed, 20) || len(rep.Failures) == 0 {
		t.Errorf("%d failures listed of %d; Stats has %d errors: want them all counted, the first 20 listed", len(rep.Failures), rep.Failed, st.Errors.Total())
	}
	for _, f := range rep.Failures {
		if f.URL == "" || f.Kind == "" || f.Error == "" {
			t.Errorf("failure %+v lacks its URL, kind or error", f)
		}
	}
}

// TestReportFailuresTable: the HTML lists the failed URLs with their
// error, says how many there were, and the body bytes have a unit.
func TestReportFailuresTable(t *testing.T) {
	rep := &report.Report{Stats: &trawl.Stats{Fetch: trawl.FetchStats{Bytes: 50671746}, Pace: trawl.PaceStats{Delay: 7, Adaptive: 2, CrawlDelay: 1}},
		Failed: 3, Failures: []report.Failure{{URL: "http://a.test/x", Kind: "status-4xx", Status: 404, Error: "fetch: 404 Not Found"}}}
	var buf bytes.Buffer
	if err := rep.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	for _, want := range []string{"The first 1 of 3 URLs that failed", "<td>http://a.test/x</td><td>status-4xx</td><td>404</td><td class=\"error\">fetch: 404 Not Found</td>",
		"<td>body bytes (decoded)</td><td>50671746 bytes (50.7MB)</td>",
		"<td>host rests set by the delay / adaptive delay / Crawl-delay / back-off</td><td>7 / 2 / 1 / 0</td>"} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

func TestRecorderBounds(t *testing.T) {
	rec := report.NewRecorder(&report.Options{MaxSamples: 10, MaxHosts: 3, HostRows: 2})
	for i := range 100 {
		rec.Add(trawl.Stats{Elapsed: time.Duration(i) * time.Second, Fetch: trawl.FetchStats{Pages: int64(i)}})
	}
	ev := rec.Events()
	for _, h := range []string{"a.test", "b.test", "c.test", "d.test", "e.test"} {
		ev.OnDecision(context.Background(), trawl.Decision{URL: "http://" + h + "/", Outcome: trawl.DecisionFetched, Status: 200, Depth: 1})
	}
	rep := rec.Report("bounds")
	if n := len(rep.Samples); n > 10 || n < 5 {
		t.Errorf("%d samples kept, want 5..10", n)
	}
	if first, last := rep.Samples[0].Elapsed, rep.Samples[len(rep.Samples)-1].Elapsed; first != 0 || last != 99*time.Second {
		t.Errorf("samples span %v..%v, want 0s..99s", first, last)
	}
	if rep.HostsTotal != 4 || len(rep.Hosts) != 2 {
		t.Errorf("%d hosts, %d rows; want 4 (three and the rest), 2", rep.HostsTotal, len(rep.Hosts))
	}
	if rep.Hosts[0].Name != "(other hosts)" || rep.Hosts[0].Pages != 2 {
		t.Errorf("first row %+v, want (other hosts) with 2 pages", rep.Hosts[0])
	}
}

// Skip reasons are counted by outcome and why: the filter's name, the error
// kind, the kind of a link not followed for its kind, else the reason; no
// URL or message.
func TestRecorderSkipKeys(t *testing.T) {
	rec := report.NewRecorder(nil)
	ev := rec.Events()
	for _, d := range []trawl.Decision{
		{URL: "http://a.test/1", Outcome: trawl.DecisionFiltered, Filter: "same-host"},
		{URL: "http://a.test/2", Outcome: trawl.DecisionFiltered, Filter: "same-host"},
		{URL: "http://a.test/3", Outcome: trawl.DecisionNotFollowed, Reason: trawl.ReasonKind, Kind: extract.Embed},
		{URL: "http://a.test/4", Outcome: trawl.DecisionNotFollowed, Reason: trawl.ReasonRelNofollow},
		{URL: "http://a.test/5", Outcome: trawl.DecisionDuplicateContent, Reason: trawl.ReasonExact, Of: "http://a.test/1"},
		{URL: "http://a.test/6", Outcome: trawl.DecisionError, ErrorKind: "timeout", Error: "read: i/o timeout"},
		{URL: "http://a.test/7", Outcome: trawl.DecisionTrap, Reason: trawl.ReasonMaxSegmentRepeats},
		{URL: "http://a.test/8", Outcome: trawl.DecisionAborted, Error: "not today"},
		{URL: "http://a.test/9", Outcome: trawl.DecisionWait, Reason: trawl.ReasonRetry, ErrorKind: "timeout"},
		{URL: "http://a.test/9", Outcome: trawl.DecisionQueued},
	} {
		ev.OnDecision(context.Background(), d)
	}
	rep := rec.Report("keys")
	got := map[string]int64{}
	for _, c := range rep.Skipped {
		got[c.Label] = c.N
	}
	want := map[string]int64{
		"filtered: same-host":        2,
		"not-followed: kind:embed":   1,
		"not-followed: rel-nofollow": 1,
		"duplicate-content: exact":   1,
		"error: timeout":             1,
		"trap: max-segment-repeats":  1,
		"aborted":                    1,
	}
	if !maps.Equal(got, want) {
		t.Errorf("skip reasons %v, want %v", got, want)
	}
	if len(rep.TrapRules) != 1 || rep.TrapRules[0] != (report.Count{Label: "max-segment-repeats", N: 1}) {
		t.Errorf("trap rules %v", rep.TrapRules)
	}
	if len(rep.Errors) != 1 || rep.Errors[0] != (report.Count{Label: "timeout", N: 1}) {
		t.Errorf("errors %v", rep.Errors)
	}
}

// The HTML names no outside resource: no script, link, image or url().
func TestReportSelfContained(t *testing.T) {
	rep, _ := crawlReport(t)
	var buf bytes.Buffer
	if err := rep.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	for _, bad := range []string{"<script", "<link", "<img", "<iframe", "url(", "@import", "src=", "href="} {
		if strings.Contains(html, bad) {
			t.Errorf("report contains %q", bad)
		}
	}
	for _, id := range reportIDs {
		if !strings.Contains(html, `id="`+id+`"`) {
			t.Errorf("report lacks #%s", id)
		}
	}
}

// Text from the crawl (hosts, reasons) is escaped.
func TestReportEscapes(t *testing.T) {
	rep := &report.Report{Title: "<b>x</b>",
		Hosts:   []report.Host{{Name: "<script>alert(1)</script>", Pages: 1}},
		Skipped: []report.Count{{Label: `filtered: Not(MatchURL("<x>"))`, N: 3}},
		Errors:  []report.Count{{Label: "a&b", N: 1}},
	}
	var buf bytes.Buffer
	if err := rep.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script>", "<b>x</b>", `("<x>")`, "a&b"} {
		if strings.Contains(buf.String(), bad) {
			t.Errorf("unescaped %q in the report", bad)
		}
	}
}

func TestReportEmpty(t *testing.T) {
	var buf bytes.Buffer
	if err := (&report.Report{}).WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "no data"); n != 8 {
		t.Errorf("%d charts say no data, want all 8", n)
	}
}

// reportIDs are the ids of every chart and table.
var reportIDs = []string{"table-summary", "chart-pages-rate", "chart-bytes-rate", "chart-queue", "chart-status",
	"chart-depth", "chart-errors", "chart-duplicates", "chart-skipped", "table-hosts", "table-failures"}

func writeReport(t *testing.T, rep *report.Report) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.html")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteHTML(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func BenchmarkWriteHTML(b *testing.B) {
	rep, _ := crawlReport(b)
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := rep.WriteHTML(&buf); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}

func BenchmarkRecordDecision(b *testing.B) {
	rec := report.NewRecorder(nil)
	on := rec.Events().OnDecision
	d := trawl.Decision{Time: time.Now(), URL: "http://h1.test/a/b.html", Outcome: trawl.DecisionFetched, Status: 200, Depth: 3, Bytes: 5000, Duration: time.Millisecond}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		on(ctx, d)
	}
}

// BenchmarkCrawl crawls a 4-host web without and with a Recorder (its
// events, samples every 10 ms, the HTML written at the end): what the
// report costs a crawl.
func BenchmarkCrawl(b *testing.B) {
	web, err := crawltest.NewWeb(&crawltest.Options{Seed: 1, Hosts: 4, PagesPerHost: 200})
	if err != nil {
		b.Fatal(err)
	}
	defer web.Close()
	for _, on := range []bool{false, true} {
		name := "off"
		if on {
			name = "recorder"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				opts := []trawl.Option{trawl.WithSeeds(web.Seeds()...), trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}), trawl.WithDialContext(web.DialContext),
					trawl.WithAllowPrivateNetworks(true), trawl.WithWorkers(8)}
				var rec *report.Recorder
				if on {
					rec = report.NewRecorder(&report.Options{Interval: 10 * time.Millisecond})
					opts = append(opts, trawl.WithEvents(rec.Events()))
				}
				c, err := trawl.New(opts...)
				if err != nil {
					b.Fatal(err)
				}
				ctx, stop := context.WithCancel(context.Background())
				watched := make(chan struct{})
				if rec != nil {
					go func() { rec.Watch(ctx, c.Stats); close(watched) }()
				} else {
					close(watched)
				}
				err = c.Run(context.Background())
				stop()
				<-watched
				if err != nil {
					b.Fatal(err)
				}
				if rec != nil {
					rec.Add(c.Stats())
					if err := rec.Report("bench").WriteHTML(io.Discard); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
