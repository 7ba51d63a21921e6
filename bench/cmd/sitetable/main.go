// Command sitetable crawls the real documentation sites that
// bench/docsites.sh serves on loopback with trawl's sitespider (defaults,
// -delay 0; with -jsonl; with -warc), with wget -r and with Colly (the
// comparison's driver), in interleaved rounds, and prints a table per site:
// pages, CPU milliseconds per page (user + system, from the process's
// rusage), pages per second of wall time and peak RSS, as medians over
// the rounds (with their range).
//
//	bench/docsites.sh serve
//	go build -tags trawl_nostate -o /tmp/sitespider ../examples/sitespider
//	go build -o /tmp/colly ./drivers/colly
//	go run ./cmd/sitetable -sitespider /tmp/sitespider -colly /tmp/colly -rounds 3
//
// -before runs an earlier build of sitespider as the crawlers before,
// before-jsonl and before-warc, in the same rounds, for before-and-after
// figures on a shared machine. bench/docsites-table does the same in one
// command (BEFORE=REV builds that revision). Each round runs every
// site and, per site, every crawler, the crawlers' order rotating from
// round to round. Every crawl writes under a fresh temporary directory,
// removed after it; wget's mirror goes to -wget-dir, a tmpfs by default
// (/dev/shm): written to this machine's disk, its files cost wget 1.5 to
// 2 s of system CPU on PostgreSQL's 1,170 pages, more than the crawl.
// -plain crawls the servers docsites.sh runs with gzip off (port 8080),
// where nobody inflates anything; on port 80 nginx
// gzips text/html for trawl and Colly, which ask for it, and not for wget,
// which does not.
//
// # Concurrency
//
// One crawl at a time; nothing here is shared.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// site is one of docsites.sh's sites.
type site struct {
	name, addr, start string
}

var sites = []site{
	{"python", "127.0.2.1", "/index.html"},
	{"postgres", "127.0.2.2", "/index.html"},
	{"handbook", "127.0.2.3", "/en-US/index.html"},
	{"jdk", "127.0.2.4", "/api/index.html"},
	{"rust", "127.0.2.5", "/index.html"},
}

// run is one crawl's result.
type run struct {
	Site    string  `json:"site"`
	Crawler string  `json:"crawler"`
	Round   int     `json:"round"`
	Pages   int     `json:"pages"`
	Reqs    int     `json:"requests,omitempty"` // Colly's responses, fragments counted apart
	Wall    float64 `json:"wall_s"`
	CPU     float64 `json:"cpu_s"` // user + system
	RSSMB   float64 `json:"peak_rss_mb"`
	Load    string  `json:"load"` // /proc/loadavg's first three fields at the start
}

func main() {
	var (
		siteList    = flag.String("sites", "python,postgres,handbook,jdk,rust", "sites to crawl, comma-separated")
		crawlerList = flag.String("crawlers", "trawl,trawl-jsonl,trawl-warc,wget,colly", "crawlers, comma-separated")
		rounds      = flag.Int("rounds", 3, "interleaved rounds")
		sitespider  = flag.String("sitespider", "/tmp/sitespider", "sitespider binary")
		before      = flag.String("before", "", "another sitespider `binary` (an earlier build), run as the crawlers before, before-jsonl and before-warc")
		colly       = flag.String("colly", "/tmp/colly", "the Colly driver's binary (bench/drivers/colly)")
		plain       = flag.Bool("plain", false, "crawl the servers without gzip (port 8080)")
		out         = flag.String("out", "", "append every crawl's result as a JSON line to `FILE`")
		extra       = flag.String("trawl-flags", "", "more flags for every sitespider run, space-separated")
		timeout     = flag.Duration("timeout", 15*time.Minute, "stop a crawl after this long (it is then left out of the table)")
		wgetDir     = flag.String("wget-dir", "/dev/shm", "where wget writes its mirror (a tmpfs: on a disk, wget's file writes cost it more CPU than its crawling; empty: the temporary directory)")
		collyTime   = flag.Duration("colly-timeout", 5*time.Minute, "stop a Colly crawl after this long (Colly fetches a page once per fragment it is linked with)")
	)
	flag.Parse()
	var picked []site
	for _, name := range strings.Split(*siteList, ",") {
		i := slices.IndexFunc(sites, func(s site) bool { return s.name == name })
		if i < 0 {
			fail(fmt.Errorf("unknown site %q", name))
		}
		picked = append(picked, sites[i])
	}
	crawlers := strings.Split(*crawlerList, ",")
	var log io.Writer = io.Discard
	if *out != "" {
		f, err := os.OpenFile(*out, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fail(err)
		}
		defer f.Close()
		log = f
	}
	var runs []run
	for r := range *rounds {
		for _, s := range picked {
			base := "http://" + s.addr
			if *plain {
				base += ":8080"
			}
			for i := range crawlers {
				c := crawlers[(i+r)%len(crawlers)]
				limit := *timeout
				if c == "colly" {
					limit = *collyTime
				}
				res, err := crawl(c, base+s.start, *sitespider, *before, *colly, *wgetDir, strings.Fields(*extra), limit)
				if errors.Is(err, errTimeout) {
					fmt.Fprintf(os.Stderr, "round %d %-8s %-12s stopped after %v\n", r+1, s.name, c, limit)
					continue
				}
				if err != nil {
					fail(fmt.Errorf("%s %s: %w", s.name, c, err))
				}
				res.Site, res.Crawler, res.Round = s.name, c, r+1
				runs = append(runs, res)
				line, _ := json.Marshal(res)
				fmt.Fprintf(log, "%s\n", line)
				fmt.Fprintf(os.Stderr, "round %d %-8s %-12s %6d pages %7.2f s wall %7.2f s CPU %6.1f MB  load %s\n",
					r+1, s.name, c, res.Pages, res.Wall, res.CPU, res.RSSMB, res.Load)
			}
		}
	}
	table(os.Stdout, picked, crawlers, runs)
}

var crawledRE = regexp.MustCompile(`(?m)^crawled (\d+) pages`)
var distinctRE = regexp.MustCompile(`(?m)^distinct fetched=(\d+)`)
var resultRE = regexp.MustCompile(`(?m)^result fetched=(\d+)`)

// crawl runs one crawler on startURL and measures it.
var errTimeout = errors.New("timed out")

func crawl(crawler, startURL, sitespider, before, colly, wgetDir string, extra []string, timeout time.Duration) (run, error) {
	parent := ""
	if crawler == "wget" {
		parent = wgetDir
	}
	dir, err := os.MkdirTemp(parent, "sitetable-")
	if err != nil {
		return run{}, err
	}
	defer os.RemoveAll(dir)
	var cmd *exec.Cmd
	trawlArgs := append([]string{"-delay", "0", "-allow-private"}, extra...)
	if rest, ok := strings.CutPrefix(crawler, "before"); ok {
		if before == "" {
			return run{}, errors.New("crawler " + crawler + " needs -before")
		}
		sitespider, crawler = before, "trawl"+rest
	}
	switch crawler {
	case "trawl":
		cmd = exec.Command(sitespider, append(trawlArgs, startURL)...)
	case "trawl-jsonl":
		cmd = exec.Command(sitespider, append(trawlArgs, "-jsonl", filepath.Join(dir, "pages.jsonl"), startURL)...)
	case "trawl-warc":
		cmd = exec.Command(sitespider, append(trawlArgs, "-warc", filepath.Join(dir, "warc"), startURL)...)
	case "wget":
		cmd = exec.Command("wget", "-r", "-l", "inf", "-np", "-q", "-P", filepath.Join(dir, "mirror"), startURL)
	case "colly":
		cmd = exec.Command(colly, "-delay", "0", "-host-concurrency", "1", startURL)
	default:
		return run{}, fmt.Errorf("unknown crawler %q", crawler)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	load := loadavg()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return run{}, err
	}
	timer := time.AfterFunc(timeout, func() { cmd.Process.Kill() })
	err = cmd.Wait()
	wall := time.Since(start)
	if !timer.Stop() {
		return run{}, errTimeout
	}
	// wget exits 8 when some response was an error (a 404 link): the
	// mirror is still complete.
	if err != nil && !(crawler == "wget" && cmd.ProcessState != nil && cmd.ProcessState.ExitCode() == 8) {
		return run{}, fmt.Errorf("%v: %s", err, stderr.Bytes())
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	res := run{
		Wall:  wall.Seconds(),
		CPU:   time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds(),
		RSSMB: float64(ru.Maxrss) / 1024,
		Load:  load,
	}
	switch crawler {
	case "wget":
		// Pages: the HTML files wget saved (what it parsed for links).
		filepath.WalkDir(filepath.Join(dir, "mirror"), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".html") || strings.HasSuffix(p, ".htm")) {
				res.Pages++
			}
			return nil
		})
	case "colly":
		// Pages: the distinct URLs it fetched (it fetches some twice).
		m := distinctRE.FindSubmatch(stdout.Bytes())
		if m == nil {
			return run{}, fmt.Errorf("no distinct count in %q", stdout.Bytes())
		}
		res.Pages, _ = strconv.Atoi(string(m[1]))
		if m := resultRE.FindSubmatch(stdout.Bytes()); m != nil {
			res.Reqs, _ = strconv.Atoi(string(m[1]))
		}
	default:
		m := crawledRE.FindSubmatch(stdout.Bytes())
		if m == nil {
			return run{}, fmt.Errorf("no summary in %q", stdout.Bytes())
		}
		res.Pages, _ = strconv.Atoi(string(m[1]))
	}
	return res, nil
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

// table prints one Markdown table per site.
func table(w io.Writer, picked []site, crawlers []string, runs []run) {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	for _, s := range picked {
		fmt.Fprintf(bw, "\n### %s (%s)\n\n", s.name, s.addr)
		fmt.Fprintln(bw, "| crawler | pages | CPU ms/page, median (range) | × wget, per round, median | pages/s, median | peak RSS MB, median (max) |")
		fmt.Fprintln(bw, "|---|---|---|---|---|---|")
		wget := map[int]float64{} // round → wget's CPU ms per page
		for _, r := range runs {
			if r.Site == s.name && r.Crawler == "wget" && r.Pages > 0 {
				wget[r.Round] = 1000 * r.CPU / float64(r.Pages)
			}
		}
		for _, c := range crawlers {
			var pages, reqs, cpu, rate, rss, ratio []float64
			for _, r := range runs {
				if r.Site != s.name || r.Crawler != c || r.Pages == 0 {
					continue
				}
				ms := 1000 * r.CPU / float64(r.Pages)
				pages = append(pages, float64(r.Pages))
				reqs = append(reqs, float64(r.Reqs))
				cpu = append(cpu, ms)
				rate = append(rate, float64(r.Pages)/r.Wall)
				rss = append(rss, r.RSSMB)
				if wm, ok := wget[r.Round]; ok && wm > 0 {
					ratio = append(ratio, ms/wm)
				}
			}
			if len(cpu) == 0 {
				continue
			}
			ratioText := ""
			if c != "wget" && len(ratio) > 0 {
				ratioText = fmt.Sprintf("%.2f (%.2f–%.2f)", median(ratio), slices.Min(ratio), slices.Max(ratio))
			}
			pagesText := fmt.Sprintf("%.0f", median(pages))
			if n := median(reqs); n > 0 && n != median(pages) {
				pagesText += fmt.Sprintf(" (%.0f requests)", n)
			}
			fmt.Fprintf(bw, "| %s | %s | %.3f (%.3f–%.3f) | %s | %.0f | %.0f (%.0f) |\n",
				c, pagesText, median(cpu), slices.Min(cpu), slices.Max(cpu), ratioText,
				median(rate), median(rss), slices.Max(rss))
		}
	}
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "sitetable:", err)
	os.Exit(1)
}
