package metrics_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/dedup"
	"github.com/trawl-dev/trawl/metrics"
)

// crawl runs a crawl of web watched by col and returns its final Stats.
func crawl(t testing.TB, web *crawltest.Web, col *metrics.Collector, opts ...trawl.Option) trawl.Stats {
	t.Helper()
	opts = append([]trawl.Option{
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithWorkers(4),
		trawl.WithEvents(col.Events()),
	}, opts...)
	c, err := trawl.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	col.Watch(c)
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return c.Stats()
}

func family(t *testing.T, g prometheus.Gatherer, name string) *dto.MetricFamily {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			return mf
		}
	}
	t.Fatalf("no metric %s", name)
	return nil
}

func TestCollectorAfterCrawl(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 2, Hosts: 3, PagesPerHost: 40,
		Faults: crawltest.Faults{ServerErrors: true, Calendar: true}})
	col := metrics.New(nil)
	st := crawl(t, web, col, trawl.WithLimits(trawl.Limits{MaxRetries: -1}),
		trawl.WithDuplicateDetection(dedup.NewDetector(), trawl.DuplicatePolicy{}))
	if st.Fetch.Pages == 0 || st.Errors.Total() == 0 || st.Robots.Denied == 0 || st.URLs.Traps == 0 || st.Pages.ExactDuplicates == 0 {
		t.Fatalf("the crawl should fetch, fail, meet robots.txt, traps and duplicates: %+v", st)
	}

	var want strings.Builder
	emit := func(name, typ, help string, lines ...string) {
		fmt.Fprintf(&want, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
		for _, l := range lines {
			fmt.Fprintln(&want, l)
		}
	}
	emit("trawl_pages_fetched_total", "counter", "Page fetches that got an HTTP response.", fmt.Sprint("trawl_pages_fetched_total ", st.Fetch.Pages))
	emit("trawl_bytes_total", "counter", "Body bytes of fetched pages, after decoding.", fmt.Sprint("trawl_bytes_total ", st.Fetch.Bytes))
	emit("trawl_responses_total", "counter", "Page responses by status class.",
		fmt.Sprintf(`trawl_responses_total{class="2xx"} %d`, st.Fetch.Class(2)), fmt.Sprintf(`trawl_responses_total{class="3xx"} %d`, st.Fetch.Class(3)),
		fmt.Sprintf(`trawl_responses_total{class="4xx"} %d`, st.Fetch.Class(4)), fmt.Sprintf(`trawl_responses_total{class="5xx"} %d`, st.Fetch.Class(5)))
	var kinds []string
	for _, k := range []string{"connection", "robots", "robots-unreachable", "status-4xx", "status-5xx", "timeout", "other", "dns", "redirect"} {
		if n, ok := st.Errors.Kinds[k]; ok {
			kinds = append(kinds, fmt.Sprintf(`trawl_errors_total{kind=%q} %d`, k, n))
		}
	}
	if len(kinds) != len(st.Errors.Kinds) {
		t.Fatalf("unexpected error kinds %v", st.Errors.Kinds)
	}
	emit("trawl_errors_total", "counter", "URLs given up on, by error kind.", kinds...)
	emit("trawl_queue_length", "gauge", "URLs waiting in the frontier.", "trawl_queue_length 0")
	emit("trawl_hosts_waiting", "gauge", "Hosts with a back queue, ready or waiting for their next contact time.", "trawl_hosts_waiting 0")
	emit("trawl_robots_denied_total", "counter", "URLs not fetched because robots.txt disallows them.", fmt.Sprint("trawl_robots_denied_total ", st.Robots.Denied))
	emit("trawl_duplicate_urls_total", "counter", "Discovered URLs the frontier had already seen.", fmt.Sprint("trawl_duplicate_urls_total ", st.URLs.Duplicate))
	emit("trawl_duplicate_pages_total", "counter", "Pages whose main text duplicates an earlier page's, by kind.",
		fmt.Sprintf(`trawl_duplicate_pages_total{kind="exact"} %d`, st.Pages.ExactDuplicates), fmt.Sprintf(`trawl_duplicate_pages_total{kind="near"} %d`, st.Pages.NearDuplicates))
	emit("trawl_trap_urls_total", "counter", "URLs dropped by a spider-trap rule.", fmt.Sprint("trawl_trap_urls_total ", st.URLs.Traps))
	if err := testutil.CollectAndCompare(col, strings.NewReader(want.String()),
		"trawl_pages_fetched_total", "trawl_bytes_total", "trawl_responses_total", "trawl_errors_total", "trawl_queue_length",
		"trawl_hosts_waiting", "trawl_robots_denied_total", "trawl_duplicate_urls_total", "trawl_duplicate_pages_total", "trawl_trap_urls_total"); err != nil {
		t.Error(err)
	}

	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(col)
	// Every fetch with a response is in the histogram and by its code.
	h := family(t, reg, "trawl_fetch_duration_seconds").GetMetric()[0].GetHistogram()
	if got := int64(h.GetSampleCount()); got != st.Fetch.Pages {
		t.Errorf("latency histogram holds %d fetches, Stats.Fetch.Pages %d", got, st.Fetch.Pages)
	}
	if h.GetSampleSum() <= 0 {
		t.Errorf("latency sum %v, want > 0", h.GetSampleSum())
	}
	var byCode, fives float64
	for _, m := range family(t, reg, "trawl_http_responses_total").GetMetric() {
		byCode += m.GetCounter().GetValue()
		if code := m.GetLabel()[0].GetValue(); code[0] == '5' {
			fives += m.GetCounter().GetValue()
		}
	}
	if int64(byCode) != st.Fetch.Pages || int64(fives) != st.Fetch.Class(5) {
		t.Errorf("responses by code: %v in all, %v 5xx; Stats: %d, %d", byCode, fives, st.Fetch.Pages, st.Fetch.Class(5))
	}
	robotsTxt := map[string]float64{}
	var lookups float64
	for _, m := range family(t, reg, "trawl_robots_txt_total").GetMetric() {
		robotsTxt[m.GetLabel()[0].GetValue()] = m.GetCounter().GetValue()
		lookups += m.GetCounter().GetValue()
	}
	// The web's 3 hosts serve robots.txt; the hosts off the web it links
	// to cannot be reached.
	if robotsTxt["parsed"] != 3 || int64(robotsTxt["disallow-all"]) != st.Errors.Kinds["robots"] || int64(lookups) != st.Robots.Fetches {
		t.Errorf("robots.txt outcomes %v, want 3 parsed, %d disallow-all, %d in all", robotsTxt, st.Errors.Kinds["robots"], st.Robots.Fetches)
	}
	decided := map[string]float64{}
	for _, m := range family(t, reg, "trawl_decisions_total").GetMetric() {
		decided[m.GetLabel()[0].GetValue()] = m.GetCounter().GetValue()
	}
	if int64(decided["queued"]) != st.URLs.Discovered-st.URLs.Duplicate || int64(decided["trap"]) != st.URLs.Traps || int64(decided["robots"]) != st.Robots.Denied {
		t.Errorf("decisions %v disagree with Stats %+v", decided, st)
	}
}

// A scrape over HTTP while the crawl runs: the figures only grow, and the
// pedantic registry finds Describe and Collect consistent.
func TestCollectorScrapeDuringCrawl(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 4, Hosts: 4, PagesPerHost: 60})
	col := metrics.New(&metrics.Options{Namespace: "crawl", ConstLabels: prometheus.Labels{"job": "test"}})
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(col)
	srv := httptest.NewServer(metrics.Handler(col))
	defer srv.Close()

	done := make(chan struct{})
	var wg sync.WaitGroup
	var scrapes []string
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			resp, err := http.Get(srv.URL)
			if err != nil {
				t.Error(err)
				return
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			scrapes = append(scrapes, string(body))
			if _, err := reg.Gather(); err != nil {
				t.Error(err)
				return
			}
		}
	})
	st := crawl(t, web, col)
	close(done)
	wg.Wait()
	if len(scrapes) == 0 {
		t.Fatal("no scrape")
	}
	last := scrapes[len(scrapes)-1]
	if !strings.Contains(last, `crawl_pages_fetched_total{job="test"}`) || !strings.Contains(last, "go_goroutines") {
		t.Errorf("scrape lacks the crawl's or the runtime's metrics:\n%.2000s", last)
	}
	want := fmt.Sprintf("# HELP crawl_pages_fetched_total Page fetches that got an HTTP response.\n# TYPE crawl_pages_fetched_total counter\ncrawl_pages_fetched_total{job=\"test\"} %d\n", st.Fetch.Pages)
	if err := testutil.ScrapeAndCompare(srv.URL+"/metrics", strings.NewReader(want), "crawl_pages_fetched_total"); err != nil {
		t.Error(err)
	}
}

func TestCollectorWithoutWatch(t *testing.T) {
	col := metrics.New(nil)
	if n := testutil.CollectAndCount(col, "trawl_pages_fetched_total"); n != 0 {
		t.Errorf("%d stats metrics before Watch, want none", n)
	}
	col.Events().OnDecision(context.Background(), trawl.Decision{Outcome: trawl.DecisionFetched, Status: 200, Duration: 20 * time.Millisecond})
	if n := testutil.CollectAndCount(col, "trawl_fetch_duration_seconds"); n != 1 {
		t.Errorf("%d histograms, want 1", n)
	}
}

func TestLoopbackAddr(t *testing.T) {
	tests := []struct{ in, want string }{
		{in: "", want: "127.0.0.1:9090"},
		{in: "9100", want: "127.0.0.1:9100"},
		{in: ":9100", want: "127.0.0.1:9100"},
		{in: "localhost:9100", want: "localhost:9100"},
		{in: "0.0.0.0:9100", want: "0.0.0.0:9100"},
		{in: "[::1]:9100", want: "[::1]:9100"},
	}
	for _, tt := range tests {
		if got := metrics.LoopbackAddr(tt.in); got != tt.want {
			t.Errorf("LoopbackAddr(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestServe(t *testing.T) {
	ln, err := metrics.Listen("0") // a free loopback port
	if err != nil {
		t.Fatal(err)
	}
	if host := ln.Addr().String(); !strings.HasPrefix(host, "127.0.0.1:") {
		t.Errorf("listening on %s, want loopback", host)
	}
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { served <- metrics.Serve(ctx, ln, metrics.Handler(metrics.New(nil))) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "trawl_decisions_total") && !strings.Contains(string(body), "go_goroutines") {
		t.Errorf("GET /metrics: %d\n%.500s", resp.StatusCode, body)
	}
	cancel()
	if err := <-served; err != nil {
		t.Errorf("Serve after cancel = %v, want nil", err)
	}
}

func BenchmarkCollect(b *testing.B) {
	web, err := crawltest.NewWeb(&crawltest.Options{Seed: 1, Hosts: 2, PagesPerHost: 20})
	if err != nil {
		b.Fatal(err)
	}
	defer web.Close()
	col := metrics.New(nil)
	crawl(b, web, col)
	reg := prometheus.NewRegistry()
	reg.MustRegister(col)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reg.Gather(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRecord(b *testing.B) {
	col := metrics.New(nil)
	on := col.Events().OnDecision
	d := trawl.Decision{Outcome: trawl.DecisionFetched, Status: 200, Duration: 30 * time.Millisecond}
	ctx := context.Background()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			on(ctx, d)
		}
	})
}

// BenchmarkCrawl crawls a 4-host web without and with a Collector (its
// events on, scraped once per crawl): what the metrics cost a crawl.
func BenchmarkCrawl(b *testing.B) {
	web, err := crawltest.NewWeb(&crawltest.Options{Seed: 1, Hosts: 4, PagesPerHost: 200})
	if err != nil {
		b.Fatal(err)
	}
	defer web.Close()
	for _, on := range []bool{false, true} {
		name := "off"
		if on {
			name = "collector"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				opts := []trawl.Option{trawl.WithSeeds(web.Seeds()...), trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}), trawl.WithDialContext(web.DialContext),
					trawl.WithAllowPrivateNetworks(true), trawl.WithWorkers(8)}
				var col *metrics.Collector
				if on {
					col = metrics.New(nil)
					opts = append(opts, trawl.WithEvents(col.Events()))
				}
				c, err := trawl.New(opts...)
				if err != nil {
					b.Fatal(err)
				}
				if err := c.Run(context.Background()); err != nil {
					b.Fatal(err)
				}
				if col != nil {
					col.Watch(c)
					testutil.CollectAndCount(col)
				}
			}
		})
	}
}
