package trawlcli_test

import (
	"bufio"
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/crawltest"
)

// crashEnv names the environment variable that turns on the long crash
// test (TestCrashResumeLong): TRAWL_CRASH_TEST=1. TRAWL_CRASH_SEED, if set,
// changes the seed of the kill times.
const crashEnv = "TRAWL_CRASH_TEST"

const crashUA = "crashbot/1.0"

type crashConfig struct {
	hosts, pages int
	kills        int     // SIGKILLs before the child may finish
	minRun       float64 // a child runs at least this fraction of a whole crawl's time before a kill
	maxRun       float64 // and at most this fraction
	workers      int
	flags        []string // more flags for every run
}

// TestCrashResume is the short crash test, always on: a crawl of a small
// web killed twice.
func TestCrashResume(t *testing.T) {
	crashTest(t, crashConfig{hosts: 4, pages: 60, kills: 2, minRun: 0.1, maxRun: 0.4, workers: 4})
}

// TestCrashResumeOPIC is the short crash test in OPIC order (-opic): the
// disk frontier's boosts and the crawl's accounts go through the same
// commits as its queues, and a crawl killed twice still fetches every
// page, each once but those in flight at a kill.
func TestCrashResumeOPIC(t *testing.T) {
	crashTest(t, crashConfig{hosts: 4, pages: 60, kills: 2, minRun: 0.1, maxRun: 0.4, workers: 4, flags: []string{"-opic"}})
}

// TestCrashResumeLong kills a larger crawl at least eight times. Set
// TRAWL_CRASH_TEST=1 to run it.
func TestCrashResumeLong(t *testing.T) {
	if os.Getenv(crashEnv) != "1" {
		t.Skipf("set %s=1 to run the long crash test", crashEnv)
	}
	crashTest(t, crashConfig{hosts: 12, pages: 250, kills: 8, minRun: 0.02, maxRun: 0.15, workers: 8})
}

// buildSpider builds examples/sitespider into a temporary directory.
func buildSpider(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no go command on $PATH to build the spider, and CI is set: %v", err)
		}
		t.Skipf("no go command on $PATH to build the spider: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "sitespider")
	cmd := exec.Command(goTool, "build", "-o", bin, "github.com/trawl-dev/trawl/examples/sitespider")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build sitespider: %v\n%s", err, out)
	}
	return bin
}

// run is one life of the child process.
type run struct {
	start, end time.Time
	killed     bool
}

func crashTest(t *testing.T, cfg crashConfig) {
	bin := buildSpider(t)
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 7, Hosts: cfg.hosts, PagesPerHost: cfg.pages, LoopbackIPs: true})
	args := func(state, out string) []string {
		return append([]string{
			"-state", state, "-out", out, "-allow-private", "-delay", "5ms", "-adaptive", "0",
			"-concurrency", strconv.Itoa(cfg.workers), "-user-agent", crashUA, "-progress=false",
		}, append(slices.Clone(cfg.flags), web.Seeds()...)...)
	}

	// A reference crawl without kills says what must be stored.
	// Kill times are drawn relative to its duration.
	refOut := filepath.Join(t.TempDir(), "ref")
	refStart := time.Now()
	if out, err := exec.Command(bin, args(filepath.Join(t.TempDir(), "refstate"), refOut)...).CombinedOutput(); err != nil {
		t.Fatalf("reference crawl: %v\n%s", err, out)
	}
	whole := time.Since(refStart)
	want := readLines(t, filepath.Join(refOut, "urls.txt"))
	slices.Sort(want)
	web.ResetLog()

	seed := uint64(1)
	if s := os.Getenv("TRAWL_CRASH_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	state, out := filepath.Join(t.TempDir(), "state"), filepath.Join(t.TempDir(), "out")
	var runs []run
	for {
		if len(runs) > cfg.kills+20 {
			t.Fatalf("no end after %d runs", len(runs))
		}
		var output bytes.Buffer
		cmd := exec.Command(bin, args(state, out)...)
		cmd.Stdout, cmd.Stderr = &output, &output
		r := run{start: time.Now()}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		var timer <-chan time.Time
		if len(runs) < cfg.kills {
			frac := cfg.minRun + rng.Float64()*(cfg.maxRun-cfg.minRun)
			timer = time.After(time.Duration(frac * float64(whole)))
		}
		select {
		case err := <-exited:
			r.end = time.Now()
			runs = append(runs, r)
			if err != nil {
				t.Fatalf("run %d: %v\n%s", len(runs), err, output.Bytes())
			}
			if len(runs) <= cfg.kills {
				t.Fatalf("the crawl ended after %d kills, want %d: make the web larger", len(runs)-1, cfg.kills)
			}
		case <-timer:
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			<-exited
			r.end, r.killed = time.Now(), true
			runs = append(runs, r)
			continue
		}
		break
	}

	log := web.Log()
	if got, reach := log.FetchedPages(), web.Reachable(crashUA); !slices.Equal(got, reach) {
		t.Errorf("fetched %d distinct pages, want the %d reachable", len(got), len(reach))
	}
	if v := log.RobotsViolations(crashUA); len(v) > 0 {
		t.Errorf("%d requests robots.txt disallows, first %s", len(v), v[0].URL)
	}

	// Every URL fetched twice must have been in flight when a run was
	// killed: its earlier fetch began in that run, and a run leaves at
	// most one lease per worker behind.
	byRun := make([]int, len(runs))
	refetched := map[string]bool{}
	firstStart := map[string]time.Time{}
	for _, q := range log.Requests() {
		if _, ok := firstStart[q.URL]; !ok {
			firstStart[q.URL] = q.Start
		}
	}
	for _, u := range log.FetchedTwice() {
		refetched[u] = true
		i := sort.Search(len(runs), func(i int) bool { return runs[i].end.After(firstStart[u]) })
		if i == len(runs) || !runs[i].killed {
			t.Errorf("%s fetched %d times, first in run %d which was not killed", u, log.Counts()[u], i+1)
			continue
		}
		byRun[i]++
	}
	for i, n := range byRun {
		if n > cfg.workers {
			t.Errorf("run %d (killed) left %d URLs to fetch again, more than its %d workers", i+1, n, cfg.workers)
		}
	}

	got := readLines(t, filepath.Join(out, "urls.txt"))
	stored := map[string]int{}
	for _, u := range got {
		stored[u]++
	}
	var dups int
	for u, n := range stored {
		if n > 1 {
			dups += n - 1
			if !refetched[u] {
				t.Errorf("urls.txt lists %s %d times, but it was fetched once", u, n)
			}
		}
	}
	distinct := make([]string, 0, len(stored))
	for u := range stored {
		distinct = append(distinct, u)
	}
	slices.Sort(distinct)
	if !slices.Equal(distinct, want) {
		t.Errorf("urls.txt lists %d distinct pages, want the %d of a crawl without kills", len(distinct), len(want))
	}
	kills := 0
	for _, r := range runs {
		if r.killed {
			kills++
		}
	}
	t.Logf("a crawl without kills took %v; %d runs, %d SIGKILLs; %d pages fetched; %d URLs fetched again (in flight at a kill); urls.txt: %d lines, %d repeated",
		whole.Round(time.Millisecond), len(runs), kills, len(log.FetchedPages()), len(refetched), len(got), dups)
	if kills < cfg.kills {
		t.Errorf("%d kills, want at least %d", kills, cfg.kills)
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
