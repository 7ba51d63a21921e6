// Command webserver serves a crawltest web for the crawler comparison, in a
// process of its own so that its CPU is not charged to any crawler.
//
// It starts a web with Options.LoopbackIPs (each host on its own 127.0.x.y
// address and port), writes the seed URLs to -seeds, prints "ready" on
// stdout and serves until its standard input is closed or it receives
// SIGTERM or SIGINT. It then prints one JSON object (Summary) on stdout —
// what its request log says about the crawler that visited it, and its own
// CPU time since it became ready — and exits.
//
//	webserver -hosts 100 -pages 1000 -seeds /tmp/seeds.txt -host-limit 2
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/trawl-dev/trawl/crawltest"
)

// Summary is what the web's request log says about one crawl.
type Summary struct {
	Hosts        int      `json:"hosts"`
	PagesPerHost int      `json:"pages_per_host"`
	Requests     int      `json:"requests"`      // every request, robots.txt included
	PagesFetched int      `json:"pages_fetched"` // distinct ordinary pages requested
	Reachable    int      `json:"reachable"`     // pages a polite crawler with the main user agent reaches (when -reachable)
	FetchedTwice int      `json:"fetched_twice"` // distinct URLs (robots.txt aside) requested more than once
	ExtraFetches int      `json:"extra_fetches"` // requests beyond the first for those URLs
	TwiceSample  []string `json:"fetched_twice_sample,omitempty"`

	RobotsRequests     int `json:"robots_requests"`      // requests for /robots.txt
	HostsRobotsTwice   int `json:"hosts_robots_twice"`   // hosts whose robots.txt was requested more than once
	HostsWithoutRobots int `json:"hosts_without_robots"` // contacted hosts whose robots.txt was never requested
	RobotsFirst        int `json:"hosts_robots_first"`   // contacted hosts whose first request was robots.txt

	UserAgents map[string]AgentSummary `json:"user_agents"`

	HostLimit            int     `json:"host_limit"`            // the per-host limit checked
	DelayMS              float64 `json:"delay_ms"`              // the per-host gap checked
	MaxInFlight          int     `json:"max_in_flight"`         // most requests at once to one host
	HostsOverLimit       int     `json:"hosts_over_limit"`      // hosts that saw more than HostLimit at once
	MinGapMS             float64 `json:"min_gap_ms"`            // smallest end-to-start gap on any host
	PolitenessViolations int     `json:"politeness_violations"` // requests that broke the limit or the gap
	HostsViolated        int     `json:"hosts_violated"`
	MaxContactsPerHost   int     `json:"max_contacts_per_host"`

	SpanS     float64 `json:"span_s"`     // first request start to last request end
	PerSecond []int   `json:"per_second"` // requests started in each second of the span

	CPUUserS float64 `json:"cpu_user_s"` // the server's own CPU while serving
	CPUSysS  float64 `json:"cpu_sys_s"`
	MaxRSSKB int64   `json:"max_rss_kb"`
}

// AgentSummary is the part of the log sent with one User-Agent.
type AgentSummary struct {
	Requests         int `json:"requests"`
	RobotsViolations int `json:"robots_violations"`
}

func main() {
	hosts := flag.Int("hosts", 20, "number of hosts")
	pages := flag.Int("pages", 50, "pages per host")
	seed := flag.Int64("seed", 1, "web seed")
	seedsFile := flag.String("seeds", "", "write the seed URLs to `FILE`")
	hostLimit := flag.Int("host-limit", 1, "requests allowed in flight at once per host (for the violation count)")
	delay := flag.Duration("delay", 0, "gap required between requests to one host (for the violation count)")
	reach := flag.String("reachable", "", "also count the pages reachable for this user agent")
	flag.Parse()

	web, err := crawltest.NewWeb(&crawltest.Options{Seed: *seed, Hosts: *hosts, PagesPerHost: *pages, LoopbackIPs: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, "webserver:", err)
		os.Exit(1)
	}
	if *seedsFile != "" {
		if err := os.WriteFile(*seedsFile, []byte(strings.Join(web.Seeds(), "\n")+"\n"), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "webserver:", err)
			os.Exit(1)
		}
	}
	before := usage()
	fmt.Println("ready")

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	eof := make(chan struct{})
	go func() {
		io.Copy(io.Discard, os.Stdin)
		close(eof)
	}()
	select {
	case <-stop:
	case <-eof:
	}
	after := usage()
	web.Close()

	s := summarize(web, *hostLimit, *delay, *reach)
	s.Hosts, s.PagesPerHost = *hosts, *pages
	s.CPUUserS = tv(after.Utime) - tv(before.Utime)
	s.CPUSysS = tv(after.Stime) - tv(before.Stime)
	s.MaxRSSKB = after.Maxrss
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(s); err != nil {
		fmt.Fprintln(os.Stderr, "webserver:", err)
		os.Exit(1)
	}
}

func usage() syscall.Rusage {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru
}

func tv(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }

func summarize(web *crawltest.Web, limit int, delay time.Duration, reachUA string) Summary {
	log := web.Log()
	reqs := log.Requests()
	s := Summary{
		Requests:     len(reqs),
		PagesFetched: len(log.FetchedPages()),
		UserAgents:   map[string]AgentSummary{},
		HostLimit:    limit,
		DelayMS:      float64(delay) / 1e6,
	}
	if reachUA != "" {
		s.Reachable = len(web.Reachable(reachUA))
	}
	for u, n := range log.Counts() {
		if n > 1 && !strings.HasSuffix(u, "/robots.txt") {
			s.FetchedTwice++
			s.ExtraFetches += n - 1
			if len(s.TwiceSample) < 5 {
				s.TwiceSample = append(s.TwiceSample, u)
			}
		}
	}
	sort.Strings(s.TwiceSample)
	for _, r := range reqs {
		a := s.UserAgents[r.UserAgent]
		a.Requests++
		if r.URL != "" && web.Disallowed(r.UserAgent, r.URL) {
			a.RobotsViolations++
		}
		s.UserAgents[r.UserAgent] = a
	}

	// Per host, in start order: in-flight count and gaps.
	byHost := map[string][]crawltest.Request{}
	var first, last time.Time
	for _, r := range reqs {
		byHost[r.Host] = append(byHost[r.Host], r)
		if first.IsZero() || r.Start.Before(first) {
			first = r.Start
		}
		if r.End.After(last) {
			last = r.End
		}
	}
	minGap := time.Duration(-1)
	for _, rs := range byHost {
		sort.SliceStable(rs, func(i, j int) bool { return rs[i].Start.Before(rs[j].Start) })
		s.MaxContactsPerHost = max(s.MaxContactsPerHost, len(rs))
		robots := 0
		for _, r := range rs {
			if r.Path == "/robots.txt" {
				robots++
			}
		}
		s.RobotsRequests += robots
		switch {
		case robots > 1:
			s.HostsRobotsTwice++
		case robots == 0:
			s.HostsWithoutRobots++
		}
		if rs[0].Path == "/robots.txt" {
			s.RobotsFirst++
		}
		h := checkHost(rs, limit, delay)
		s.PolitenessViolations += h.violations
		if h.gapped && (minGap < 0 || h.minGap < minGap) {
			minGap = h.minGap
		}
		hostMax, violated := h.maxInFlight, h.violations > 0
		s.MaxInFlight = max(s.MaxInFlight, hostMax)
		if hostMax > limit {
			s.HostsOverLimit++
		}
		if violated {
			s.HostsViolated++
		}
	}
	s.MinGapMS = float64(max(minGap, 0)) / 1e6
	if !first.IsZero() {
		s.SpanS = last.Sub(first).Seconds()
		s.PerSecond = make([]int, int(s.SpanS)+1)
		for _, r := range reqs {
			s.PerSecond[int(r.Start.Sub(first)/time.Second)]++
		}
	}
	return s
}

// hostCheck is what one host's requests say about politeness.
type hostCheck struct {
	violations  int           // requests that broke the limit or the delay
	maxInFlight int           // most requests at once
	minGap      time.Duration // smallest end-to-start gap (0 when requests overlapped)
	gapped      bool          // minGap is set (at least two requests)
}

// checkHost checks the requests of one host, sorted by Start: a request
// breaks politeness when it starts while limit requests are in flight, or
// less than delay after the end of the latest request before it. A request
// whose End is zero never ended.
func checkHost(rs []crawltest.Request, limit int, delay time.Duration) hostCheck {
	var h hostCheck
	var active []time.Time // ends of the requests in flight
	var lastEnd time.Time
	for i, r := range rs {
		kept := active[:0]
		for _, e := range active {
			if e.IsZero() || e.After(r.Start) {
				kept = append(kept, e)
			}
		}
		active = kept
		bad := len(active) >= limit
		if i > 0 {
			g := time.Duration(0)
			if len(active) == 0 {
				g = max(r.Start.Sub(lastEnd), 0)
			}
			if !h.gapped || g < h.minGap {
				h.minGap, h.gapped = g, true
			}
			if g < delay {
				bad = true
			}
		}
		if bad {
			h.violations++
		}
		active = append(active, r.End)
		h.maxInFlight = max(h.maxInFlight, len(active))
		if r.End.After(lastEnd) {
			lastEnd = r.End
		}
	}
	return h
}
