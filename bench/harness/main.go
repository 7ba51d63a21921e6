// Command harness runs the crawler comparison: for each scenario and each
// crawler it starts a fresh crawltest web in its own process
// (bench/cmd/webserver, every host on its own loopback IP), runs the
// crawler as a child process with the scenario's job, and reads the
// crawler's CPU time and peak RSS from its rusage and the politeness, robots
// and duplicate figures from the web's request log. It prints Markdown
// tables and writes the raw results as JSON.
//
//	go run ./harness -scenarios A,B,C -crawlers trawl,colly,gocrawl -out results
//
// It builds the binaries itself (go build into a temporary directory), sends
// traffic only to loopback and stops every run after -timeout.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Scenario is one job given to every crawler.
type Scenario struct {
	Name            string
	Hosts, Pages    int
	Concurrency     int
	HostConcurrency int
	Delay           time.Duration
	MaxPages        int
}

var scenarios = map[string]Scenario{
	"A": {Name: "A", Hosts: 100, Pages: 1000, Concurrency: 64, HostConcurrency: 2, MaxPages: 50000},
	"B": {Name: "B", Hosts: 20, Pages: 200, Concurrency: 20, HostConcurrency: 1, Delay: 100 * time.Millisecond},
	"C": {Name: "C", Hosts: 1000, Pages: 200, Concurrency: 128, HostConcurrency: 1, MaxPages: 150000},
}

// userAgents gives each crawler its own robots token, so the web's log can
// tell them apart.
var userAgents = map[string]string{
	"trawl":          "trawlbench/1.0 (+https://example.com/bench)",
	"trawl-default":  "trawlbench/1.0 (+https://example.com/bench)",
	"trawl-disk":     "trawlbench/1.0 (+https://example.com/bench)",
	"trawl-gogc50":   "trawlbench/1.0 (+https://example.com/bench)",
	"trawl-memory":   "trawlbench/1.0 (+https://example.com/bench)",
	"trawl-warc":     "trawlbench/1.0 (+https://example.com/bench)",
	"trawl-inferred": "trawlbench/1.0 (+https://example.com/bench)",
	"colly":          "collybench/1.0 (+https://example.com/bench)",
	"gocrawl":        "gocrawlbench/1.0 (+https://example.com/bench)",
}

// Web is the web server's summary (see bench/cmd/webserver).
type Web struct {
	Requests             int                     `json:"requests"`
	PagesFetched         int                     `json:"pages_fetched"`
	Reachable            int                     `json:"reachable"`
	FetchedTwice         int                     `json:"fetched_twice"`
	ExtraFetches         int                     `json:"extra_fetches"`
	TwiceSample          []string                `json:"fetched_twice_sample"`
	RobotsRequests       int                     `json:"robots_requests"`
	HostsRobotsTwice     int                     `json:"hosts_robots_twice"`
	HostsWithoutRobots   int                     `json:"hosts_without_robots"`
	RobotsFirst          int                     `json:"hosts_robots_first"`
	UserAgents           map[string]AgentSummary `json:"user_agents"`
	MaxInFlight          int                     `json:"max_in_flight"`
	HostsOverLimit       int                     `json:"hosts_over_limit"`
	MinGapMS             float64                 `json:"min_gap_ms"`
	PolitenessViolations int                     `json:"politeness_violations"`
	HostsViolated        int                     `json:"hosts_violated"`
	MaxContactsPerHost   int                     `json:"max_contacts_per_host"`
	SpanS                float64                 `json:"span_s"`
	PerSecond            []int                   `json:"per_second"`
	CPUUserS             float64                 `json:"cpu_user_s"`
	CPUSysS              float64                 `json:"cpu_sys_s"`
	MaxRSSKB             int64                   `json:"max_rss_kb"`
}

// AgentSummary is the web's view of one User-Agent.
type AgentSummary struct {
	Requests         int `json:"requests"`
	RobotsViolations int `json:"robots_violations"`
}

// Result is one crawler's run of one scenario.
type Result struct {
	Scenario   Scenario
	Crawler    string
	Args       []string
	WallS      float64
	CPUUserS   float64
	CPUSysS    float64
	MaxRSSKB   int64
	Discovered int64 // distinct URLs the crawler accepted into its queue (its own count)
	TimedOut   bool
	ExitErr    string
	WARCBytes  int64 `json:",omitempty"` // trawl-warc: the .warc.gz files' size
	Web        Web
}

// PagesPerSec is distinct pages fetched per second of the crawler's wall time.
func (r Result) PagesPerSec() float64 { return float64(r.Web.PagesFetched) / r.WallS }

// CPUmsPerPage is the crawler's user+sys CPU per distinct page fetched.
func (r Result) CPUmsPerPage() float64 {
	return (r.CPUUserS + r.CPUSysS) * 1000 / float64(max(r.Web.PagesFetched, 1))
}

// RobotsViolations counts requests the crawler's robots.txt forbids it.
func (r Result) RobotsViolations() int {
	return r.Web.UserAgents[userAgents[r.Crawler]].RobotsViolations
}

func main() {
	which := flag.String("scenarios", "A,B,C", "scenarios to run")
	crawlers := flag.String("crawlers", "trawl,colly,gocrawl", "crawlers to run")
	scale := flag.Float64("scale", 1, "multiply hosts and page caps by this (for quick runs)")
	cHosts := flag.Int("c-hosts", 0, "hosts of scenario C (0 = 1000 × scale)")
	out := flag.String("out", "results", "directory for the JSON results")
	timeout := flag.Duration("timeout", 10*time.Minute, "stop a crawler after this long")
	flag.Parse()

	bin, err := build()
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(bin)
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail(err)
	}
	fmt.Printf("machine: %s\n\n", machine())

	var results []Result
	for _, name := range strings.Split(*which, ",") {
		sc, ok := scenarios[strings.TrimSpace(name)]
		if !ok {
			fail(fmt.Errorf("unknown scenario %q", name))
		}
		if *scale != 1 {
			sc.Hosts = max(1, int(float64(sc.Hosts)**scale))
			sc.MaxPages = int(float64(sc.MaxPages) * *scale)
		}
		if sc.Name == "C" && *cHosts > 0 {
			sc.MaxPages = sc.MaxPages * *cHosts / max(sc.Hosts, 1)
			sc.Hosts = *cHosts
		}
		for _, cr := range strings.Split(*crawlers, ",") {
			cr = strings.TrimSpace(cr)
			fmt.Fprintf(os.Stderr, "harness: scenario %s, %s ...\n", sc.Name, cr)
			r, err := run(bin, sc, cr, *timeout)
			if err != nil {
				fail(fmt.Errorf("scenario %s, %s: %w", sc.Name, cr, err))
			}
			fmt.Fprintf(os.Stderr, "harness: %s %s: %d pages in %.1f s, %.0f pages/s, %.3f CPU-ms/page, %d MB, %d twice, %d robots, %d politeness, web CPU %.1f s",
				sc.Name, cr, r.Web.PagesFetched, r.WallS, r.PagesPerSec(), r.CPUmsPerPage(), r.MaxRSSKB>>10,
				r.Web.FetchedTwice, r.RobotsViolations(), r.Web.PolitenessViolations, r.Web.CPUUserS+r.Web.CPUSysS)
			if r.WARCBytes > 0 {
				fmt.Fprintf(os.Stderr, ", WARC %d bytes (%d per request)", r.WARCBytes, r.WARCBytes/int64(max(r.Web.Requests, 1)))
			}
			fmt.Fprintln(os.Stderr)
			results = append(results, r)
			b, _ := json.MarshalIndent(r, "", "  ")
			os.WriteFile(filepath.Join(*out, fmt.Sprintf("%s-%s.json", sc.Name, cr)), b, 0o644)
		}
	}
	report(os.Stdout, results)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "harness:", err)
	os.Exit(1)
}

// build compiles the web server and the three crawlers. sitespider is
// built in trawl's own module (the parent directory), with trawl's go.mod,
// as a user would build it, twice: with the tag trawl_nostate, which leaves
// out its -state flag and so the persistent frontier's store (bbolt since
// issue 34, 0.5 MB of the binary; pebble before, 15 MB of 28 MB and about
// 10 MB of resident pages), as any trawl program that does not use
// frontier/disk is built; and whole, as sitespider-state, for the
// trawl-disk runs.
func build() (string, error) {
	dir, err := os.MkdirTemp("", "trawl-bench-")
	if err != nil {
		return "", err
	}
	out := dir + string(os.PathSeparator)
	for _, c := range []struct {
		dir  string
		args []string
	}{
		{dir: ".", args: []string{"-o", out, "./cmd/webserver", "./drivers/colly", "./drivers/gocrawl"}},
		{dir: "..", args: []string{"-tags", "trawl_nostate", "-o", out + "sitespider", "./examples/sitespider"}},
		{dir: "..", args: []string{"-o", out + "sitespider-state", "./examples/sitespider"}},
	} {
		cmd := exec.Command("go", append([]string{"build"}, c.args...)...)
		cmd.Dir = c.dir
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("go build in %s: %w", c.dir, err)
		}
	}
	return dir, nil
}

func run(bin string, sc Scenario, crawler string, timeout time.Duration) (Result, error) {
	r := Result{Scenario: sc, Crawler: crawler}
	seeds := filepath.Join(bin, "seeds-"+sc.Name+".txt")
	web := exec.Command(filepath.Join(bin, "webserver"),
		"-hosts", strconv.Itoa(sc.Hosts), "-pages", strconv.Itoa(sc.Pages), "-seeds", seeds,
		"-host-limit", strconv.Itoa(sc.HostConcurrency), "-delay", sc.Delay.String())
	web.Stderr = os.Stderr
	stdin, err := web.StdinPipe()
	if err != nil {
		return r, err
	}
	stdout, err := web.StdoutPipe()
	if err != nil {
		return r, err
	}
	if err := web.Start(); err != nil {
		return r, err
	}
	lines := bufio.NewReader(stdout)
	if l, err := lines.ReadString('\n'); err != nil || strings.TrimSpace(l) != "ready" {
		web.Process.Kill()
		web.Wait()
		return r, fmt.Errorf("webserver did not start: %q %v", l, err)
	}

	ua := userAgents[crawler]
	args := []string{
		"-seeds", seeds,
		"-max-pages", strconv.Itoa(sc.MaxPages),
		"-concurrency", strconv.Itoa(sc.Concurrency),
		"-host-concurrency", strconv.Itoa(sc.HostConcurrency),
		"-delay", sc.Delay.String(),
		"-user-agent", ua,
	}
	name := crawler
	var env []string
	warcDir := ""
	switch crawler {
	case "trawl", "trawl-default", "trawl-disk", "trawl-gogc50", "trawl-memory", "trawl-warc", "trawl-inferred":
		name = "sitespider"
		args = append(args, "-allow-private", "-progress=false")
		if sc.Delay == 0 && crawler != "trawl-default" {
			// "No delay" for trawl means none of its delays: its adaptive
			// politeness (a host rests 10 × its last fetch time) is a
			// delay the other crawlers do not have. trawl-default keeps
			// it: a sensitivity check, not part of the comparison.
			args = append(args, "-adaptive", "0")
		}
		switch crawler {
		case "trawl-disk":
			// The persistent frontier (-state): the queue and the seen
			// set live in an on-disk store instead of the heap.
			state, err := os.MkdirTemp("", "trawl-disk-")
			if err != nil {
				web.Process.Kill()
				web.Wait()
				return r, err
			}
			defer os.RemoveAll(state)
			name = "sitespider-state"
			args = append(args, "-state", filepath.Join(state, "state"))
		case "trawl-memory":
			// The whole queue on the heap: sitespider spills the middle
			// of its front queues to a temporary file unless told not to.
			args = append(args, "-spill=")
		case "trawl-warc":
			// Everything fetched written as WARC (gzip per record,
			// revisits for exact copies) with its CDXJ index: the cost
			// of archiving.
			warc, err := os.MkdirTemp("", "trawl-warc-")
			if err != nil {
				web.Process.Kill()
				web.Wait()
				return r, err
			}
			defer os.RemoveAll(warc)
			args = append(args, "-warc", warc)
			warcDir = warc
		case "trawl-inferred":
			// The default kinds plus the inferred ones: URLs in page
			// text, comments and scripts looked for on every page (the
			// cost of extract's Speculative and Scripts on pages that
			// have none).
			args = append(args, "-follow", "navigation,frame,redirect,form,sitemap,feed,speculative,script")
		case "trawl-gogc50":
			// The Go collector's heap growth halved: less memory for
			// more GC CPU.
			env = []string{"GOGC=50"}
		}
	case "colly", "gocrawl":
	default:
		web.Process.Kill()
		web.Wait()
		return r, fmt.Errorf("unknown crawler %q", crawler)
	}
	r.Args = append([]string{name}, args...)
	cmd := exec.Command(filepath.Join(bin, name), args...)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var outBuf strings.Builder
	cmd.Stdout = &outBuf
	cmd.Stderr = io.Discard
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return r, err
	}
	timer := time.AfterFunc(timeout, func() {
		r.TimedOut = true
		cmd.Process.Kill()
	})
	werr := cmd.Wait()
	timer.Stop()
	r.WallS = time.Since(start).Seconds()
	if werr != nil {
		r.ExitErr = werr.Error()
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.CPUUserS = tv(ru.Utime)
		r.CPUSysS = tv(ru.Stime)
		r.MaxRSSKB = ru.Maxrss
	}
	r.Discovered = discovered(crawler, outBuf.String())
	if warcDir != "" {
		files, _ := filepath.Glob(filepath.Join(warcDir, "*.warc.gz"))
		for _, f := range files {
			if fi, err := os.Stat(f); err == nil {
				r.WARCBytes += fi.Size()
			}
		}
	}

	stdin.Close()
	dec := json.NewDecoder(lines)
	if err := dec.Decode(&r.Web); err != nil {
		web.Process.Kill()
		web.Wait()
		return r, fmt.Errorf("web summary: %w", err)
	}
	if err := web.Wait(); err != nil {
		return r, fmt.Errorf("webserver: %w", err)
	}
	return r, nil
}

func tv(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }

// discovered reads the crawler's count of distinct URLs queued: sitespider's
// "urls: N distinct URLs queued, ..." line (or the older "urls: D
// discovered, X duplicates", D − X), or a driver's result line.
func discovered(crawler, out string) int64 {
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		switch {
		case strings.HasPrefix(crawler, "trawl") && len(f) >= 5 && f[0] == "urls:" && f[2] == "distinct":
			// "urls: N distinct URLs queued, from L links ..."
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n
		case strings.HasPrefix(crawler, "trawl") && len(f) >= 5 && f[0] == "urls:" && f[2] == "discovered,":
			// The older summary: "urls: D discovered, X duplicates, ...".
			d, _ := strconv.ParseInt(f[1], 10, 64)
			x, _ := strconv.ParseInt(f[3], 10, 64)
			return d - x
		case len(f) > 0 && f[0] == "result":
			for _, kv := range f[1:] {
				if v, ok := strings.CutPrefix(kv, "discovered="); ok {
					n, _ := strconv.ParseInt(v, 10, 64)
					return n
				}
			}
		}
	}
	return 0
}

func machine() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	load := ""
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		load = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	mem := ""
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		mem = strings.Fields(strings.SplitN(string(b), "\n", 2)[0])[1] + " kB RAM"
	}
	return fmt.Sprintf("%s, %d CPUs, %s, %s %s/%s, load average %s at start",
		model, runtime.NumCPU(), mem, runtime.Version(), runtime.GOOS, runtime.GOARCH, load)
}

func report(w io.Writer, rs []Result) {
	by := map[string][]Result{}
	var order []string
	for _, r := range rs {
		if _, ok := by[r.Scenario.Name]; !ok {
			order = append(order, r.Scenario.Name)
		}
		by[r.Scenario.Name] = append(by[r.Scenario.Name], r)
	}
	for _, name := range order {
		group := by[name]
		sc := group[0].Scenario
		fmt.Fprintf(w, "### Scenario %s: %d hosts × %d pages, %d workers, %d per host, delay %s, cap %d pages\n\n",
			sc.Name, sc.Hosts, sc.Pages, sc.Concurrency, sc.HostConcurrency, sc.Delay, sc.MaxPages)
		fmt.Fprintln(w, "| crawler | pages | requests | wall s | pages/s | CPU-ms/page | peak RSS MB | URLs fetched twice (extra requests) | robots violations | robots.txt fetches (hosts >1) | politeness violations (hosts) | max in flight/host | min gap ms | web CPU s |")
		fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
		for _, r := range group {
			note := ""
			if r.TimedOut {
				note = " (timed out)"
			}
			fmt.Fprintf(w, "| %s%s | %d | %d | %.1f | %.0f | %.3f | %.0f | %d (%d) | %d | %d (%d) | %d (%d) | %d | %.1f | %.1f |\n",
				r.Crawler, note, r.Web.PagesFetched, r.Web.Requests, r.WallS, r.PagesPerSec(), r.CPUmsPerPage(),
				float64(r.MaxRSSKB)/1024, r.Web.FetchedTwice, r.Web.ExtraFetches, r.RobotsViolations(),
				r.Web.RobotsRequests, r.Web.HostsRobotsTwice, r.Web.PolitenessViolations, r.Web.HostsViolated,
				r.Web.MaxInFlight, r.Web.MinGapMS, r.Web.CPUUserS+r.Web.CPUSysS)
		}
		fmt.Fprintln(w)
		if sc.Delay > 0 {
			ideal := float64(sc.Pages) * sc.Delay.Seconds()
			fmt.Fprintf(w, "Ideal wall time (pages per host × delay): %.1f s.\n\n", ideal)
			fmt.Fprintln(w, "| crawler | wall s | × ideal | web log span s | contacts on the busiest host | × ideal for those contacts |")
			fmt.Fprintln(w, "|---|---|---|---|---|---|")
			for _, r := range group {
				own := float64(max(r.Web.MaxContactsPerHost-1, 1)) * sc.Delay.Seconds()
				fmt.Fprintf(w, "| %s | %.2f | %.3f | %.2f | %d | %.3f |\n", r.Crawler, r.WallS, r.WallS/ideal,
					r.Web.SpanS, r.Web.MaxContactsPerHost, r.WallS/own)
			}
			fmt.Fprintln(w)
		}
		if sc.Name == "C" {
			fmt.Fprintln(w, "| crawler | URLs discovered | peak RSS bytes per URL discovered | requests started per 10 s of the run |")
			fmt.Fprintln(w, "|---|---|---|---|")
			for _, r := range group {
				per := 0.0
				if r.Discovered > 0 {
					per = float64(r.MaxRSSKB*1024) / float64(r.Discovered)
				}
				var series []string
				for i := 0; i < len(r.Web.PerSecond); i += 10 {
					n := 0
					for _, v := range r.Web.PerSecond[i:min(i+10, len(r.Web.PerSecond))] {
						n += v
					}
					series = append(series, strconv.Itoa(n/10))
				}
				fmt.Fprintf(w, "| %s | %d | %.0f | %s |\n", r.Crawler, r.Discovered, per, strings.Join(series, " "))
			}
			fmt.Fprintln(w)
		}
	}
}
