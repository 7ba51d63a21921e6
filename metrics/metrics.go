package metrics

import (
	"context"
	"sort"
	"strconv"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/trawl-dev/trawl"
)

// Options configures a Collector. A nil *Options and zero fields mean the
// defaults named on each field.
type Options struct {
	// Namespace prefixes every metric name. Default "trawl".
	Namespace string
	// Buckets are the upper bounds, in seconds, of the fetch latency
	// histogram. Default: 5 ms doubling to about 41 s (14 buckets).
	Buckets []float64
	// ConstLabels are added to every metric, such as a crawl's name.
	ConstLabels prometheus.Labels
}

// Collector is a prometheus.Collector for one crawl. Make it with New,
// give its Events to trawl.New (with trawl.JoinEvents to keep your own),
// then Watch the Crawler; register it with a prometheus.Registerer. It is
// safe for concurrent use.
type Collector struct {
	stats atomic.Pointer[func() trawl.Stats]

	latency   prometheus.Histogram
	codes     *prometheus.CounterVec
	robotsTxt *prometheus.CounterVec
	decisions *prometheus.CounterVec

	counters []statMetric
	gauges   []statMetric
	classes  *prometheus.Desc
	errKinds *prometheus.Desc
	dupPages *prometheus.Desc
}

// statMetric is one figure read from Stats.
type statMetric struct {
	desc *prometheus.Desc
	get  func(*trawl.Stats) float64
}

// New returns a Collector configured by opts (nil means defaults).
func New(opts *Options) *Collector {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Namespace == "" {
		o.Namespace = "trawl"
	}
	if len(o.Buckets) == 0 {
		o.Buckets = prometheus.ExponentialBuckets(0.005, 2, 14)
	}
	name := func(n string) string { return prometheus.BuildFQName(o.Namespace, "", n) }
	desc := func(n, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc(name(n), help, labels, o.ConstLabels)
	}
	c := &Collector{
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: o.Namespace, Name: "fetch_duration_seconds", ConstLabels: o.ConstLabels,
			Help:    "Time from sending a page request to reading its body, for every fetch that got a response.",
			Buckets: o.Buckets,
		}),
		codes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: o.Namespace, Name: "http_responses_total", ConstLabels: o.ConstLabels,
			Help: "Page responses by HTTP status code (robots.txt not included).",
		}, []string{"code"}),
		robotsTxt: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: o.Namespace, Name: "robots_txt_total", ConstLabels: o.ConstLabels,
			Help: "robots.txt lookups that fetched, by outcome: parsed, allow-all (4xx, too many redirects), disallow-all (5xx, unreachable).",
		}, []string{"outcome"}),
		decisions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: o.Namespace, Name: "decisions_total", ConstLabels: o.ConstLabels,
			Help: "Decisions about URLs by outcome (queued, duplicate-url, filtered, trap, depth, budget, robots, fetched, error, ...), see trawl.Decision.",
		}, []string{"outcome"}),
		classes:  desc("responses_total", "Page responses by status class.", "class"),
		errKinds: desc("errors_total", "URLs given up on, by error kind.", "kind"),
		dupPages: desc("duplicate_pages_total", "Pages whose main text duplicates an earlier page's, by kind.", "kind"),
	}
	counter := func(n, help string, get func(*trawl.Stats) int64) {
		c.counters = append(c.counters, statMetric{desc(n, help), func(s *trawl.Stats) float64 { return float64(get(s)) }})
	}
	gauge := func(n, help string, get func(*trawl.Stats) float64) {
		c.gauges = append(c.gauges, statMetric{desc(n, help), get})
	}
	counter("pages_fetched_total", "Page fetches that got an HTTP response.", func(s *trawl.Stats) int64 { return s.Fetch.Pages })
	counter("pages_stored_total", "Pages given to the Store without error.", func(s *trawl.Stats) int64 { return s.Pages.Stored })
	counter("bytes_total", "Body bytes of fetched pages, after decoding.", func(s *trawl.Stats) int64 { return s.Fetch.Bytes })
	counter("not_modified_total", "304 answers to conditional requests.", func(s *trawl.Stats) int64 { return s.Fetch.NotModified() })
	counter("store_errors_total", "Failed Store.Put calls.", func(s *trawl.Stats) int64 { return s.Errors.Store })
	counter("urls_discovered_total", "URLs offered to the frontier after filters.", func(s *trawl.Stats) int64 { return s.URLs.Discovered })
	counter("duplicate_urls_total", "Discovered URLs the frontier had already seen.", func(s *trawl.Stats) int64 { return s.URLs.Duplicate })
	counter("urls_filtered_total", "URLs rejected by a filter, the depth limit or a trap rule.", func(s *trawl.Stats) int64 { return s.URLs.Filtered + s.URLs.Traps })
	counter("trap_urls_total", "URLs dropped by a spider-trap rule.", func(s *trawl.Stats) int64 { return s.URLs.Traps })
	counter("robots_denied_total", "URLs not fetched because robots.txt disallows them.", func(s *trawl.Stats) int64 { return s.Robots.Denied })
	counter("robots_fetches_total", "robots.txt lookups that fetched.", func(s *trawl.Stats) int64 { return s.Robots.Fetches })
	counter("retries_total", "Fetches retried after a transient failure.", func(s *trawl.Stats) int64 { return s.Fetch.Retries })
	counter("redirects_total", "Redirect responses followed.", func(s *trawl.Stats) int64 { return s.Fetch.Redirects })
	counter("private_refused_total", "URLs refused because their host is on a private address.", func(s *trawl.Stats) int64 { return s.Errors.Kinds["private"] })
	gauge("queue_length", "URLs waiting in the frontier.", func(s *trawl.Stats) float64 { return float64(s.URLs.Queued) })
	gauge("hosts_waiting", "Hosts with a back queue, ready or waiting for their next contact time.", func(s *trawl.Stats) float64 { return float64(s.URLs.HostsWaiting) })
	gauge("max_depth", "Deepest page fetched (seeds have depth 1).", func(s *trawl.Stats) float64 { return float64(s.Fetch.Deepest) })
	gauge("elapsed_seconds", "Time since the crawl started.", func(s *trawl.Stats) float64 { return s.Elapsed.Seconds() })
	return c
}

// Watch makes the Collector read c.Stats at each scrape. Until it is
// called, only the figures counted from events are exported.
func (c *Collector) Watch(cr *trawl.Crawler) { c.WatchFunc(cr.Stats) }

// WatchFunc is Watch for any source of Stats, such as a crawl that spans
// several Crawlers.
func (c *Collector) WatchFunc(stats func() trawl.Stats) { c.stats.Store(&stats) }

// Events returns the hooks that feed the Collector's event-counted metrics.
// Combine them with a program's own hooks with trawl.JoinEvents.
func (c *Collector) Events() trawl.Events {
	return trawl.Events{OnDecision: c.record}
}

// record counts one decision.
func (c *Collector) record(_ context.Context, d trawl.Decision) {
	c.decisions.WithLabelValues(d.Outcome.String()).Inc()
	switch d.Outcome {
	case trawl.DecisionFetched:
		c.latency.Observe(d.Duration.Seconds())
		c.codes.WithLabelValues(strconv.Itoa(d.Status)).Inc()
	case trawl.DecisionRobotsTxt:
		c.robotsTxt.WithLabelValues(d.Reason.String()).Inc()
	}
}

// Describe sends the descriptors of every metric the Collector exports.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, m := range c.counters {
		ch <- m.desc
	}
	for _, m := range c.gauges {
		ch <- m.desc
	}
	ch <- c.classes
	ch <- c.errKinds
	ch <- c.dupPages
	c.latency.Describe(ch)
	c.codes.Describe(ch)
	c.robotsTxt.Describe(ch)
	c.decisions.Describe(ch)
}

// Collect reads the watched crawl's Stats once and sends every metric.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	c.latency.Collect(ch)
	c.codes.Collect(ch)
	c.robotsTxt.Collect(ch)
	c.decisions.Collect(ch)
	fn := c.stats.Load()
	if fn == nil {
		return
	}
	s := (*fn)()
	for _, m := range c.counters {
		ch <- prometheus.MustNewConstMetric(m.desc, prometheus.CounterValue, m.get(&s))
	}
	for _, m := range c.gauges {
		ch <- prometheus.MustNewConstMetric(m.desc, prometheus.GaugeValue, m.get(&s))
	}
	for _, cl := range []struct {
		class string
		n     int64
	}{{"2xx", s.Fetch.Class(2)}, {"3xx", s.Fetch.Class(3)}, {"4xx", s.Fetch.Class(4)}, {"5xx", s.Fetch.Class(5)}} {
		ch <- prometheus.MustNewConstMetric(c.classes, prometheus.CounterValue, float64(cl.n), cl.class)
	}
	kinds := make([]string, 0, len(s.Errors.Kinds))
	for k := range s.Errors.Kinds {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		ch <- prometheus.MustNewConstMetric(c.errKinds, prometheus.CounterValue, float64(s.Errors.Kinds[k]), k)
	}
	ch <- prometheus.MustNewConstMetric(c.dupPages, prometheus.CounterValue, float64(s.Pages.ExactDuplicates), "exact")
	ch <- prometheus.MustNewConstMetric(c.dupPages, prometheus.CounterValue, float64(s.Pages.NearDuplicates), "near")
}
