package report

import (
	"cmp"
	"context"
	"maps"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/trawl-dev/trawl"
)

// Options configures a Recorder. A nil *Options and zero fields mean the
// defaults named on each field.
type Options struct {
	// Interval is how often Watch samples Stats. Default 250 ms.
	Interval time.Duration
	// MaxSamples bounds the samples kept; past it every other sample is
	// dropped and Watch samples half as often. Default 1000.
	MaxSamples int
	// MaxHosts bounds the hosts with figures of their own; later hosts
	// are summed into one row. Default 10000.
	MaxHosts int
	// HostRows is how many hosts the report's table lists, those with
	// the most pages first. Default 100.
	HostRows int
	// TopReasons is how many skip reasons the report charts. Default 15.
	TopReasons int
	// FailureRows is how many failed URLs, the first to fail, the report
	// lists with their error. Default 20.
	FailureRows int
}

func (o *Options) withDefaults() Options {
	var d Options
	if o != nil {
		d = *o
	}
	if d.Interval <= 0 {
		d.Interval = 250 * time.Millisecond
	}
	if d.MaxSamples < 4 {
		d.MaxSamples = 1000
	}
	if d.MaxHosts <= 0 {
		d.MaxHosts = 10000
	}
	if d.HostRows <= 0 {
		d.HostRows = 100
	}
	if d.TopReasons <= 0 {
		d.TopReasons = 15
	}
	if d.FailureRows <= 0 {
		d.FailureRows = 20
	}
	return d
}

// otherHosts names the row that sums the hosts past Options.MaxHosts.
const otherHosts = "(other hosts)"

// Recorder collects what a report needs while a crawl runs: samples of
// Stats over time (Add, Watch) and per-URL decisions (Events). It is safe
// for concurrent use.
type Recorder struct {
	opts Options

	mu       sync.Mutex
	every    time.Duration // the current sampling interval
	samples  []Sample
	last     trawl.Stats
	hasLast  bool
	hosts    map[string]*hostAcc
	codes    map[int]int64
	depths   map[int]int64
	errKinds map[string]int64
	skipped  map[string]int64
	traps    map[string]int64
	failures []Failure // the first Options.FailureRows
	failed   int64     // all DecisionErrors
}

type hostAcc struct {
	pages, bytes, errors, denied int64
	first, last                  time.Time // earliest and latest request start
	robots                       string
	robotsStatus                 int
}

// NewRecorder returns an empty Recorder configured by opts (nil means
// defaults).
func NewRecorder(opts *Options) *Recorder {
	o := opts.withDefaults()
	return &Recorder{
		opts: o, every: o.Interval,
		hosts: map[string]*hostAcc{}, codes: map[int]int64{}, depths: map[int]int64{},
		errKinds: map[string]int64{}, skipped: map[string]int64{}, traps: map[string]int64{},
	}
}

// Events returns the hooks that feed the Recorder. Combine them with a
// program's own hooks with trawl.JoinEvents.
func (r *Recorder) Events() trawl.Events { return trawl.Events{OnDecision: r.decision} }

// Sample is one reading of a crawl's counters.
type Sample struct {
	Elapsed time.Duration // since the crawl started
	Fetched int64
	Bytes   int64
	Stored  int64
	Errors  int64
	Queued  int64
}

// Add records a sample of st and keeps st as the crawl's latest figures.
// Samples should come in order of st.Elapsed; one older than the last is
// ignored for the time series.
func (r *Recorder) Add(st trawl.Stats) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.last, r.hasLast = st, true
	if n := len(r.samples); n > 0 && st.Elapsed < r.samples[n-1].Elapsed {
		return
	}
	r.samples = append(r.samples, Sample{Elapsed: st.Elapsed, Fetched: st.Fetch.Pages, Bytes: st.Fetch.Bytes,
		Stored: st.Pages.Stored, Errors: st.Errors.Total(), Queued: st.URLs.Queued})
	if len(r.samples) > r.opts.MaxSamples {
		// Keep the first, then every other one, and the newest.
		kept := r.samples[:1]
		for i := 2; i < len(r.samples)-1; i += 2 {
			kept = append(kept, r.samples[i])
		}
		kept = append(kept, r.samples[len(r.samples)-1])
		clear(r.samples[len(kept):])
		r.samples = kept
		r.every *= 2
	}
}

// Watch adds a sample of stats() every Options.Interval (longer once
// MaxSamples is reached) until ctx ends; it returns ctx's error. Run it in
// its own goroutine alongside Crawler.Run, with stats = Crawler.Stats.
func (r *Recorder) Watch(ctx context.Context, stats func() trawl.Stats) error {
	r.Add(stats())
	for {
		r.mu.Lock()
		every := r.every
		r.mu.Unlock()
		t := time.NewTimer(every)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
			r.Add(stats())
		}
	}
}

// hostOf returns the host[:port] of an absolute URL string.
func hostOf(rawURL string) string {
	if i := strings.Index(rawURL, "://"); i >= 0 {
		rest := rawURL[i+3:]
		if j := strings.IndexAny(rest, "/?#"); j >= 0 {
			rest = rest[:j]
		}
		if k := strings.LastIndexByte(rest, '@'); k >= 0 {
			rest = rest[k+1:]
		}
		return strings.ToLower(rest)
	}
	if u, err := url.Parse(rawURL); err == nil {
		return u.Host
	}
	return ""
}

// host returns the accumulator for h; r.mu is held.
func (r *Recorder) host(h string) *hostAcc {
	a := r.hosts[h]
	if a == nil {
		if len(r.hosts) >= r.opts.MaxHosts {
			h = otherHosts
			if a = r.hosts[h]; a != nil {
				return a
			}
		}
		a = &hostAcc{}
		r.hosts[h] = a
	}
	return a
}

// skipKey is how a decision is counted among the reasons URLs were not
// fetched: the outcome, and why, without a URL or message in it: the
// filter's name, the error kind, the kind of a link not followed for its
// kind ("kind:NAME"), else the reason.
func skipKey(d *trawl.Decision) string {
	reason := d.Reason.String()
	switch {
	case d.Outcome == trawl.DecisionFiltered:
		reason = d.Filter
	case d.Outcome == trawl.DecisionError:
		reason = d.ErrorKind
	case d.Reason == trawl.ReasonKind:
		reason = "kind:" + d.Kind.String()
	}
	if reason == "" {
		return d.Outcome.String()
	}
	return d.Outcome.String() + ": " + reason
}

func (r *Recorder) decision(_ context.Context, d trawl.Decision) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch d.Outcome {
	case trawl.DecisionQueued:
		return
	case trawl.DecisionFetched:
		a := r.host(hostOf(d.URL))
		a.pages++
		a.bytes += d.Bytes
		start := d.Time.Add(-d.Duration)
		if a.first.IsZero() || start.Before(a.first) {
			a.first = start
		}
		if start.After(a.last) {
			a.last = start
		}
		r.codes[d.Status]++
		r.depths[d.Depth]++
		return
	case trawl.DecisionError:
		r.host(hostOf(d.URL)).errors++
		r.errKinds[d.ErrorKind]++
		r.failed++
		if len(r.failures) < r.opts.FailureRows {
			r.failures = append(r.failures, Failure{URL: d.URL, Kind: d.ErrorKind, Status: d.Status, Error: d.Error})
		}
	case trawl.DecisionRobots:
		r.host(hostOf(d.URL)).denied++
	case trawl.DecisionRobotsTxt:
		a := r.host(hostOf(d.URL))
		a.robots, a.robotsStatus = d.Reason.String(), d.Status
		return
	case trawl.DecisionTrap:
		r.traps[d.Reason.String()]++
	case trawl.DecisionWait:
		return // not a fate: the URL comes back
	}
	r.skipped[skipKey(&d)]++
}

// Report returns the report of what was recorded so far, titled title.
func (r *Recorder) Report(title string) *Report {
	r.mu.Lock()
	defer r.mu.Unlock()
	rep := &Report{
		Title:     title,
		Generated: time.Now().UTC(),
		Samples:   slices.Clone(r.samples),
		Status:    sortedCounts(r.codes),
		Depths:    sortedCounts(r.depths),
		Errors:    countsByValue(r.errKinds, 0),
		Skipped:   countsByValue(r.skipped, r.opts.TopReasons),
		TrapRules: countsByValue(r.traps, 0),
		Failures:  slices.Clone(r.failures),
		Failed:    r.failed,
	}
	if r.hasLast {
		st := r.last
		st.Errors.Kinds = maps.Clone(st.Errors.Kinds)
		st.Fetch.Codes = maps.Clone(st.Fetch.Codes)
		rep.Stats = &st
		// Stats counts every error, decisions or not.
		rep.Errors = countsByValue(st.Errors.Kinds, 0)
	}
	for name, a := range r.hosts {
		h := Host{Name: name, Pages: a.pages, Bytes: a.bytes, Errors: a.errors, RobotsDenied: a.denied,
			Robots: a.robots, RobotsStatus: a.robotsStatus}
		if a.pages > 1 {
			h.MeanDelay = a.last.Sub(a.first) / time.Duration(a.pages-1)
		}
		rep.Hosts = append(rep.Hosts, h)
	}
	slices.SortFunc(rep.Hosts, func(a, b Host) int {
		if c := cmp.Compare(b.Pages, a.Pages); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Errors, a.Errors); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	rep.HostsTotal = len(rep.Hosts)
	if len(rep.Hosts) > r.opts.HostRows {
		rep.Hosts = rep.Hosts[:r.opts.HostRows]
	}
	return rep
}

// Count is a label and how many times it occurred.
type Count struct {
	Label string
	N     int64
}

func sortedCounts(m map[int]int64) []IntCount {
	out := make([]IntCount, 0, len(m))
	for k, n := range m {
		out = append(out, IntCount{Value: k, N: n})
	}
	slices.SortFunc(out, func(a, b IntCount) int { return cmp.Compare(a.Value, b.Value) })
	return out
}

// IntCount is a number (a status code, a depth) and how many times it
// occurred.
type IntCount struct {
	Value int
	N     int64
}

// countsByValue returns m's entries, most frequent first (ties by label),
// at most top of them (0 for all).
func countsByValue(m map[string]int64, top int) []Count {
	out := make([]Count, 0, len(m))
	for k, n := range m {
		out = append(out, Count{Label: k, N: n})
	}
	slices.SortFunc(out, func(a, b Count) int {
		if c := cmp.Compare(b.N, a.N); c != 0 {
			return c
		}
		return strings.Compare(a.Label, b.Label)
	})
	if top > 0 && len(out) > top {
		out = out[:top]
	}
	return out
}
