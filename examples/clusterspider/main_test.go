package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/internal/redistest"
)

const (
	token   = "clusterbot" // the robots.txt product token of every agent
	delay   = 50 * time.Millisecond
	workers = 4
)

// spiderBin is the clusterspider binary TestMain builds for every test.
var spiderBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "clusterspider-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	spiderBin = filepath.Join(dir, "clusterspider")
	out, err := exec.Command("go", "build", "-o", spiderBin, "github.com/trawl-dev/trawl/examples/clusterspider").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "go build clusterspider: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildSpider returns the clusterspider binary.
func buildSpider(t *testing.T) string {
	t.Helper()
	return spiderBin
}

// agent is one clusterspider process.
type agent struct {
	name   string
	cmd    *exec.Cmd
	out    bytes.Buffer
	exited chan error
}

// ua is the User-Agent of an agent: the product token is the same for
// all, the comment tells the request log which agent sent a request.
func ua(name string) string { return token + "/1.0 (agent " + name + ")" }

func startAgent(t *testing.T, bin, redisURL, crawl, name string, web *crawltest.Web, extra ...string) *agent {
	t.Helper()
	args := append([]string{
		"-redis", redisURL, "-crawl", crawl, "-agent", name, "-lease", "2s",
		"-allow-private", "-delay", delay.String(), "-adaptive", "0", "-spill=",
		"-concurrency", strconv.Itoa(workers), "-max-local", "40", "-user-agent", ua(name), "-progress=false",
	}, extra...)
	a := &agent{name: name, exited: make(chan error, 1)}
	a.cmd = exec.Command(bin, append(args, web.Seeds()...)...)
	a.cmd.Stdout, a.cmd.Stderr = &a.out, &a.out
	if err := a.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { a.exited <- a.cmd.Wait() }()
	t.Cleanup(func() {
		a.cmd.Process.Kill()
		<-a.exited
	})
	return a
}

// wait waits for the agent to exit by itself and fails unless with 0.
func (a *agent) wait(t *testing.T) {
	t.Helper()
	select {
	case err := <-a.exited:
		a.exited <- err // for Cleanup
		if err != nil {
			t.Errorf("agent %s: %v\n%s", a.name, err, a.out.Bytes())
		}
	case <-time.After(45 * time.Second): // a bound for a hung agent, not a timing
		// Its output is read once it has exited: exec copies into it
		// until then.
		a.cmd.Process.Kill()
		a.exited <- <-a.exited // for Cleanup
		t.Fatalf("agent %s did not end by itself\n%s", a.name, a.out.Bytes())
	}
}

// pagesOf returns the pages (robots.txt left out) each agent requested.
func pagesOf(log *crawltest.Log) map[string]int {
	n := map[string]int{}
	for _, r := range log.Requests() {
		if !strings.HasSuffix(r.URL, "/robots.txt") {
			n[r.UserAgent]++
		}
	}
	return n
}

// checkPoliteness checks the cluster-wide politeness promises on the log.
// inFlight reports whether a URL's first request was in flight at a killed
// agent: its robots.txt may be fetched again.
func checkPoliteness(t *testing.T, log *crawltest.Log, inFlight func(rawURL string) bool) {
	t.Helper()
	for u, n := range log.Counts() {
		if strings.HasSuffix(u, "/robots.txt") && n != 1 && !(n == 2 && inFlight(u)) {
			t.Errorf("%s fetched %d times in the cluster, want once", u, n)
		}
	}
	if v := log.RobotsViolations(token); len(v) > 0 {
		t.Errorf("%d requests robots.txt disallows, first %s", len(v), v[0].URL)
	}
	for host, n := range log.MaxInFlight() {
		if n > 1 {
			t.Errorf("%d requests at once to %s", n, host)
		}
	}
	for host, g := range log.MinGap() {
		if g < delay {
			t.Errorf("host %s contacted %v after the end of the previous request, want at least %v", host, g, delay)
			for _, r := range log.Requests() {
				if r.Host == host {
					t.Logf("%s %s %s %s", r.Start.Format("15:04:05.000000"), r.End.Format("15:04:05.000000"), r.UserAgent, r.URL)
				}
			}
		}
	}
}

// TestClusterProcesses runs the cluster as separate processes: a reference
// crawl by one agent, then three agents of which one is killed with
// SIGKILL mid-crawl and a fourth joins. The cluster must fetch the same
// pages as the single agent, each once except the killed agent's in-flight
// URLs, politely, with robots.txt fetched once per host, and every agent
// still running must exit 0 by itself.
func TestClusterProcesses(t *testing.T) {
	srv := redistest.Start(t)
	bin := buildSpider(t)
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 5, Hosts: 24, PagesPerHost: 20, LoopbackIPs: true})

	start := time.Now()
	solo := startAgent(t, bin, srv.URL(), "reference", "solo", web)
	solo.wait(t)
	whole := time.Since(start)
	want := web.Log().FetchedPages()
	if reach := web.Reachable(token); !slices.Equal(want, reach) {
		t.Fatalf("the single agent fetched %d pages, want the %d reachable", len(want), len(reach))
	}
	web.ResetLog()

	var agents []*agent
	for _, name := range []string{"a1", "a2", "a3"} {
		agents = append(agents, startAgent(t, bin, srv.URL(), "cluster", name, web))
	}
	// Kill a2 once it has fetched a few pages, then add a4.
	victim := agents[1]
	waitFor(t, web, func(log *crawltest.Log) bool { return pagesOf(log)[ua("a2")] >= 10 })
	if err := victim.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-victim.exited
	victim.exited <- nil
	killed := time.Now()
	agents = append(agents, startAgent(t, bin, srv.URL(), "cluster", "a4", web))
	for _, a := range agents {
		if a != victim {
			a.wait(t)
		}
	}

	log := web.Log()
	if got := log.FetchedPages(); !slices.Equal(got, want) {
		t.Errorf("the cluster fetched %d pages, want the %d of the single agent", len(got), len(want))
	}
	// A URL fetched twice must have been in flight at a2 when it was
	// killed: first requested by a2, before the kill; at most one per
	// worker of a2.
	first := map[string]crawltest.Request{}
	for _, r := range log.Requests() {
		if _, ok := first[r.URL]; !ok {
			first[r.URL] = r
		}
	}
	inFlight := func(u string) bool {
		r := first[u]
		// a2 sent it before it died (a dead process sends nothing); the
		// server may start reading it a little after the kill, so the
		// request's Start is no witness.
		return r.UserAgent == ua("a2")
	}
	var twice []string // robots.txt included
	for u, n := range log.Counts() {
		if n > 1 {
			twice = append(twice, u)
		}
	}
	for _, u := range twice {
		if r := first[u]; !inFlight(u) || log.Counts()[u] > 2 {
			t.Errorf("%s fetched %d times, first by %q at %v (a2 killed at %v)", u, log.Counts()[u], r.UserAgent, r.Start, killed)
		}
	}
	if len(twice) > workers {
		t.Errorf("%d URLs fetched twice, more than the killed agent's %d workers: %v", len(twice), workers, twice)
	}
	checkPoliteness(t, log, inFlight)
	byAgent := pagesOf(log)
	if byAgent[ua("a2")] == 0 {
		t.Errorf("a2 fetched nothing before it was killed: kill later")
	}
	var killedAfter int
	for _, r := range log.Requests() {
		if r.Start.After(killed) {
			killedAfter++
		}
	}
	if killedAfter == 0 {
		t.Errorf("nothing was fetched after the kill: the crawl was over already")
	}
	if byAgent[ua("a4")] == 0 {
		t.Errorf("the joining agent a4 fetched nothing")
	}
	// How long a2's hosts rested after the kill: the takeover's delay
	// (reported, not asserted: timings belong in benchmarks).
	a2Hosts := map[string]bool{}
	resumed := map[string]time.Duration{}
	for _, r := range log.Requests() {
		if r.UserAgent == ua("a2") {
			a2Hosts[r.Host] = true
		} else if a2Hosts[r.Host] && r.Start.After(killed) {
			if _, ok := resumed[r.Host]; !ok {
				resumed[r.Host] = r.Start.Sub(killed)
			}
		}
	}
	var slowest time.Duration
	for _, d := range resumed {
		slowest = max(slowest, d)
	}
	t.Logf("reference crawl %v; pages by agent %v; %d fetched twice (in flight at the kill); "+
		"a2's %d hosts resumed by others at most %v after the kill (lease 2s)",
		whole.Round(time.Millisecond), byAgent, len(twice), len(resumed), slowest.Round(time.Millisecond))
	// Every agent that ended by itself says the same, final, cluster
	// total: each waits for the others to leave before it sums their
	// stats (issue 34: two agents' summaries said 531 and 486).
	totals := map[string]string{}
	for _, a := range agents {
		if a != victim {
			t.Logf("%s:\n%s", a.name, lastLines(a.out.String(), 2))
			m := regexp.MustCompile(`cluster "cluster": \d+ agents, (\d+) pages \(final`).FindStringSubmatch(a.out.String())
			if m == nil {
				t.Errorf("%s's summary has no final cluster total:\n%s", a.name, lastLines(a.out.String(), 6))
				continue
			}
			totals[a.name] = m[1]
		}
	}
	if vals := slices.Compact(slices.Sorted(maps.Values(totals))); len(vals) > 1 {
		t.Errorf("the agents' summaries disagree on the cluster's pages: %v", totals)
	}
}

// TestClusterProcessesMaxPages checks that -max-pages holds over three
// agent processes, which all exit 0 by themselves.
func TestClusterProcessesMaxPages(t *testing.T) {
	srv := redistest.Start(t)
	bin := buildSpider(t)
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 6, Hosts: 24, PagesPerHost: 20, LoopbackIPs: true})
	const max = 57
	var agents []*agent
	for i := range 3 {
		agents = append(agents, startAgent(t, bin, srv.URL(), "limited", fmt.Sprintf("a%d", i), web, "-max-pages", strconv.Itoa(max)))
	}
	for _, a := range agents {
		a.wait(t)
	}
	log := web.Log()
	total := 0
	for _, n := range pagesOf(log) {
		total += n
	}
	if total != max {
		t.Errorf("the cluster fetched %d pages, want -max-pages %d", total, max)
	}
	if d := log.FetchedTwice(); len(d) > 0 {
		t.Errorf("fetched twice: %v", d)
	}
	checkPoliteness(t, log, func(string) bool { return false })
}

// TestClusterProcessesHostConcurrency: -host-concurrency works across
// agents (a cluster used to refuse more than 1): on a web whose answers
// take four times the delay, two agents fetch every reachable page once,
// with at most three requests at once to a host, and three to some.
func TestClusterProcessesHostConcurrency(t *testing.T) {
	srv := redistest.Start(t)
	bin := buildSpider(t)
	const perHost = 3
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 8, Hosts: 8, PagesPerHost: 12, LoopbackIPs: true, Latency: 4 * delay})
	var agents []*agent
	for i := range 2 {
		agents = append(agents, startAgent(t, bin, srv.URL(), "concurrent", fmt.Sprintf("a%d", i), web, "-host-concurrency", strconv.Itoa(perHost)))
	}
	for _, a := range agents {
		a.wait(t)
	}
	log := web.Log()
	if got, want := log.FetchedPages(), web.Reachable(token); !slices.Equal(got, want) {
		t.Errorf("the cluster fetched %d pages, want the %d reachable", len(got), len(want))
	}
	if d := log.FetchedTwice(); len(d) > 0 {
		t.Errorf("fetched twice: %v", d)
	}
	most := 0
	for host, n := range log.MaxInFlight() {
		if n > perHost {
			t.Errorf("%d requests at once to %s, want at most -host-concurrency %d", n, host, perHost)
		}
		most = max(most, n)
	}
	if most != perHost {
		t.Errorf("at most %d requests at once to any host, want -host-concurrency %d to some", most, perHost)
	}
	t.Logf("pages by agent: %v", pagesOf(log))
}

// TestClusterProcessesOPIC: -opic works across agents (a cluster used to
// refuse it): two agents crawl every reachable page once, and each
// page's importance estimate is in their decision logs.
func TestClusterProcessesOPIC(t *testing.T) {
	srv := redistest.Start(t)
	bin := buildSpider(t)
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 7, Hosts: 24, PagesPerHost: 20, LoopbackIPs: true})
	dir := t.TempDir()
	var agents []*agent
	for _, name := range []string{"a1", "a2"} {
		agents = append(agents, startAgent(t, bin, srv.URL(), "opic", name, web,
			"-opic", "-decisions", filepath.Join(dir, name+".jsonl")))
	}
	for _, a := range agents {
		a.wait(t)
	}
	log := web.Log()
	if got, want := log.FetchedPages(), web.Reachable(token); !slices.Equal(got, want) {
		t.Errorf("the cluster fetched %d pages, want the %d reachable", len(got), len(want))
	}
	if d := log.FetchedTwice(); len(d) > 0 {
		t.Errorf("fetched twice: %v", d)
	}
	fetched, rated := 0, 0
	for _, a := range agents {
		b, err := os.ReadFile(filepath.Join(dir, a.name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(string(b)) {
			var d struct {
				Outcome    string  `json:"outcome"`
				Importance float64 `json:"importance"`
			}
			if err := json.Unmarshal([]byte(line), &d); err != nil {
				t.Fatalf("%s's decision log: %v: %q", a.name, err, line)
			}
			if d.Outcome == "fetched" {
				fetched++
				if d.Importance > 0 {
					rated++
				}
			}
		}
	}
	if fetched == 0 || rated != fetched {
		t.Errorf("%d of %d fetched pages with an importance estimate in the decision logs, want all", rated, fetched)
	}
}

// waitFor polls the request log until cond holds. The log has no channel
// to wait on, and a kill must come at a point of the crawl, not a time.
func waitFor(t *testing.T, web *crawltest.Web, cond func(*crawltest.Log) bool) {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for range 4000 {
		if cond(web.Log()) {
			return
		}
		<-tick.C
	}
	t.Fatal("the crawl never reached the point of the kill")
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// TestBadFlags checks the clear errors and exit statuses of flags the
// cluster cannot take.
func TestBadFlags(t *testing.T) {
	bin := buildSpider(t)
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{name: "bad redis URL", args: []string{"-redis", "mysql://x"}, wantCode: 2, wantErr: "-redis"},
		{name: "no redis there", args: []string{"-redis", "redis://127.0.0.1:1"}, wantCode: 1, wantErr: "cluster: loading scripts"},
		{name: "state", args: []string{"-state", t.TempDir()}, wantCode: 2, wantErr: "a cluster's frontier lives in Redis"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(bin, append(tt.args, "http://a.test/")...)
			out, err := cmd.CombinedOutput()
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			}
			if code != tt.wantCode || !strings.Contains(string(out), tt.wantErr) {
				t.Errorf("clusterspider %v: exit %d, output %q; want exit %d and %q", tt.args, code, out, tt.wantCode, tt.wantErr)
			}
		})
	}
}

// TestRerunFinishedCrawl: an agent started again with the -crawl name of a
// finished crawl fetches nothing and says why, and how to crawl again.
func TestRerunFinishedCrawl(t *testing.T) {
	srv := redistest.Start(t)
	bin := buildSpider(t)
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 7, Hosts: 2, PagesPerHost: 8, LoopbackIPs: true})
	first := startAgent(t, bin, srv.URL(), "again", "a0", web)
	first.wait(t)
	if strings.Contains(first.out.String(), "fetched nothing") {
		t.Errorf("the first run says it fetched nothing:\n%s", first.out.String())
	}
	second := startAgent(t, bin, srv.URL(), "again", "a1", web)
	second.wait(t)
	out := second.out.String()
	if !strings.Contains(out, `cluster "again": this agent fetched nothing: the crawl had seen every start URL already`) || !strings.Contains(out, "give a new -crawl NAME") {
		t.Errorf("the second run does not say the crawl was finished:\n%s", out)
	}
}

// TestClusterProcessesRecrawl: -recrawl works on a cluster (trawl.New
// used to refuse WithRecrawl with the cluster's frontier): two agents
// crawl a changing web continuously for -duration, revisit its pages
// (conditional GETs, some answered 304), stay polite, exit 0 by
// themselves, and the summary adds up the revisits of both and counts
// the pages in the revisit schedules in Redis.
func TestClusterProcessesRecrawl(t *testing.T) {
	srv := redistest.Start(t)
	bin := buildSpider(t)
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 8, Hosts: 8, PagesPerHost: 6, LoopbackIPs: true, ChangeInterval: 5 * time.Second})
	var agents []*agent
	for i := range 2 {
		agents = append(agents, startAgent(t, bin, srv.URL(), "continuous", fmt.Sprintf("a%d", i), web, "-recrawl", "-duration", "4s"))
	}
	for _, a := range agents {
		a.wait(t)
	}
	log := web.Log()
	counts := log.Counts()
	revisited := 0
	for u, n := range counts {
		if _, ok := web.Page(u); ok && n > 1 {
			revisited++
		}
	}
	if revisited == 0 {
		t.Errorf("no page was fetched twice in a continuous crawl of 4 s")
	}
	notModified := 0
	for _, r := range log.Requests() {
		if r.Status == 304 {
			notModified++
		}
	}
	if notModified == 0 {
		t.Errorf("no revisit was answered 304: the cluster's revisits lost their validators (the pages' histories)")
	}
	checkPoliteness(t, log, func(string) bool { return false })
	line := regexp.MustCompile(`cluster "continuous": (\d+) revisits, \d+ changes seen, (\d+) pages in the revisit schedules`)
	found := false
	for _, a := range agents {
		m := line.FindSubmatch(a.out.Bytes())
		if m == nil {
			continue
		}
		found = true
		if n, _ := strconv.Atoi(string(m[1])); n == 0 {
			t.Errorf("agent %s: summary counts no revisit:\n%s", a.name, a.out.Bytes())
		}
		if n, _ := strconv.Atoi(string(m[2])); n == 0 {
			t.Errorf("agent %s: summary counts no page in the revisit schedules:\n%s", a.name, a.out.Bytes())
		}
	}
	if !found {
		t.Errorf("no agent's summary has the cluster's revisit line:\n%s\n%s", agents[0].out.Bytes(), agents[1].out.Bytes())
	}
	t.Logf("%d pages revisited, %d answers 304; %s", revisited, notModified, agents[0].out.Bytes())
}
