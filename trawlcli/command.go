// Package trawlcli is the command-line program shared by the example spiders
// (examples/sitespider, examples/dirspider): flag parsing, the -demo web,
// the progress line and the summary. Each example only chooses the scope
// filter that makes it what it is. With -state DIR a crawl keeps its
// frontier in DIR (package frontier/disk) and resumes from it; the crash
// test (TRAWL_CRASH_TEST=1 for the long one) kills a spider to prove it.
// Without -state the in-memory frontier keeps the middle of its queue in an
// unnamed temporary file (-spill DIR, default $TMPDIR or /var/tmp, which
// stays on disk where /tmp is in memory; -spill= keeps it all in memory). Built with -tags
// trawl_nostate, a spider leaves out -state and the embedded store it
// needs (15 MB of a 28 MB binary, and cgo): -state then fails with an
// error naming the tag. With -warc DIR a spider writes what it fetched as
// WARC files (package store's WARC), alongside -out or alone.
package trawlcli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/store"
)

// Program describes one example spider.
type Program struct {
	Name  string // command name, e.g. "sitespider"
	Usage string // one paragraph: what the spider crawls
	// Scope returns the filter that keeps the crawl within its scope, given
	// the normalized start URLs.
	Scope func(seeds ...string) trawl.Filter
	// Extension, if set, adds a program's own flags and behaviour (the
	// focused spider's topic, for one).
	Extension Extension
	// Follow is what the program follows when -follow is not given; nil
	// means trawl's DefaultFollow.
	Follow []extract.Kind
}

// Extension is what a spider adds to the common program. Each func may be
// nil.
type Extension struct {
	// Flags registers extra flags.
	Flags func(fs *flag.FlagSet)
	// Options is called after the flags are parsed and returns options to
	// add to the crawl, or an error for bad flag values (exit status 2).
	Options func() ([]trawl.Option, error)
	// Status returns text appended to the progress line.
	Status func() string
	// Summary writes extra lines to the summary at the end.
	Summary func(w io.Writer)
}

// flags are the options every spider takes.
type flags struct {
	seedsFile       string
	maxPages        int
	maxDepth        int
	hostBudget      int
	follow          string
	archive         bool
	concurrency     int
	hostConcurrency int
	delay           time.Duration
	adaptive        float64
	userAgent       string
	out             string
	state           string
	spill           string
	allowPrivate    bool
	progress        bool
	demo            bool
	warc            warcFlags
}

// Main runs the program with the process's arguments and exits.
func (p Program) Main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := p.Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Run runs the program with args, writing the summary to stdout and progress
// and errors to stderr, and returns the exit status: 0 on success, 2 for bad
// flags or URLs, 1 when the crawl failed.
func (p Program) Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(p.Name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f flags
	fs.StringVar(&f.seedsFile, "seeds", "", "read more start URLs from `FILE`, one per line (# starts a comment)")
	fs.IntVar(&f.maxPages, "max-pages", 0, "stop after `N` page fetches (0 = no limit)")
	fs.IntVar(&f.maxDepth, "max-depth", 0, "follow links to depth `D`; start URLs have depth 1 (0 = the library's default, 50; -1 = no limit)")
	fs.StringVar(&f.follow, "follow", "", "follow these kinds of reference, comma-separated: navigation, frame, redirect, form, sitemap, feed, embed, style, ping (default: navigation,frame,redirect,form,sitemap,feed)")
	fs.BoolVar(&f.archive, "archive", false, "archive crawl: also fetch and store the images, style sheets, scripts and media pages embed")
	fs.IntVar(&f.hostBudget, "host-budget", 0, "queue at most `N` URLs of any one host over the whole crawl (0 = no cap)")
	fs.IntVar(&f.concurrency, "concurrency", 16, "fetches in flight at once, over all hosts")
	fs.IntVar(&f.hostConcurrency, "host-concurrency", 1, "fetches in flight at once to one host")
	fs.DurationVar(&f.delay, "delay", time.Second, "minimum gap between requests to one host")
	fs.Float64Var(&f.adaptive, "adaptive", 10, "adaptive politeness: a host rests at least `FACTOR` × its last fetch time (0 = off)")
	fs.StringVar(&f.userAgent, "user-agent", "", "User-Agent header and robots.txt token (default names trawl)")
	fs.StringVar(&f.out, "out", "", "store pages in `DIR` (numbered files, urls.txt, stats.txt)")
	fs.StringVar(&f.state, "state", "", "keep the crawl's frontier in `DIR` and resume from it (with -out, storing continues)")
	fs.StringVar(&f.spill, "spill", spillDir(), "keep most of the queue in an unnamed temporary file in `DIR` instead of in memory (breadth-first crawls without -state; empty: keep it in memory)")
	fs.BoolVar(&f.allowPrivate, "allow-private", false, "allow loopback and private network addresses")
	fs.BoolVar(&f.progress, "progress", isTerminal(stderr), "show a progress line on stderr (default: when stderr is a terminal)")
	fs.BoolVar(&f.demo, "demo", false, "serve a synthetic web on loopback and crawl it (no network needed)")
	f.warc.register(fs)
	if p.Extension.Flags != nil {
		p.Extension.Flags(fs)
	}
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: %s [flags] URL...\n\n%s\n\nFlags:\n", p.Name, p.Usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	delaySet := false
	fs.Visit(func(fl *flag.Flag) { delaySet = delaySet || fl.Name == "delay" })

	seeds := fs.Args()
	if f.seedsFile != "" {
		more, err := readSeeds(f.seedsFile)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
			return 2
		}
		seeds = append(seeds, more...)
	}

	var opts []trawl.Option
	if f.demo {
		web, err := crawltest.NewWeb(&crawltest.Options{Seed: 1, Hosts: 5, PagesPerHost: 40})
		if err != nil {
			fmt.Fprintf(stderr, "%s: demo web: %v\n", p.Name, err)
			return 1
		}
		defer web.Close()
		if len(seeds) == 0 {
			seeds = web.Seeds()
		}
		if !delaySet {
			f.delay = 20 * time.Millisecond
		}
		opts = append(opts, trawl.WithDialContext(web.DialContext), trawl.WithAllowPrivateNetworks(true))
		fmt.Fprintf(stdout, "demo: serving a synthetic web of %d hosts on loopback (%s ...)\n", len(web.Hosts()), web.Hosts()[0])
		if f.out == "" {
			dir, err := os.MkdirTemp("", p.Name+"-demo-")
			if err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
				return 1
			}
			f.out = dir
		}
	}
	if len(seeds) == 0 {
		fmt.Fprintf(stderr, "%s: no start URLs (give URLs as arguments, -seeds FILE, or -demo)\n", p.Name)
		fs.Usage()
		return 2
	}

	opts = append(opts,
		trawl.WithSeeds(seeds...),
		trawl.WithFilters(p.Scope(seeds...)),
		trawl.WithMaxPages(f.maxPages),
		trawl.WithMaxDepth(f.maxDepth),
		trawl.WithHostBudget(f.hostBudget),
		trawl.WithWorkers(f.concurrency),
		trawl.WithHostConcurrency(f.hostConcurrency),
		trawl.WithDelay(f.delay),
		trawl.WithAdaptiveDelay(f.adaptive),
	)
	if f.allowPrivate {
		opts = append(opts, trawl.WithAllowPrivateNetworks(true))
	}
	if f.follow != "" {
		var kinds []extract.Kind
		for _, name := range strings.Split(f.follow, ",") {
			k, err := extract.ParseKind(strings.TrimSpace(name))
			if err != nil {
				fmt.Fprintf(stderr, "%s: -follow: %v\n", p.Name, err)
				return 2
			}
			kinds = append(kinds, k)
		}
		opts = append(opts, trawl.WithFollow(kinds...))
	} else if p.Follow != nil {
		opts = append(opts, trawl.WithFollow(p.Follow...))
	}
	if f.archive {
		opts = append(opts, trawl.WithArchive(true))
	}
	if f.userAgent != "" {
		opts = append(opts, trawl.WithUserAgent(f.userAgent))
	}
	var dir *store.Dir
	if f.out != "" {
		var err error
		if dir, err = store.NewDir(f.out); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
			return 1
		}
	}
	warc, err := f.warc.open(&f, len(seeds))
	if err != nil {
		if dir != nil {
			dir.Close()
		}
		fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
		return 1
	}
	switch {
	case dir != nil && warc != nil:
		opts = append(opts, trawl.WithStore(both{dir, warc}))
	case dir != nil:
		opts = append(opts, trawl.WithStore(dir))
	case warc != nil:
		opts = append(opts, trawl.WithStore(warc))
	}
	if f.spill != "" {
		opts = append(opts, trawl.WithSpillDir(f.spill))
	}
	if f.state != "" {
		opts = append(opts, withState(f.state))
	}
	if p.Extension.Options != nil {
		more, err := p.Extension.Options()
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
			return 2
		}
		opts = append(opts, more...)
	}
	line := progressLine{extra: p.Extension.Status}
	if f.progress {
		opts = append(opts, trawl.WithProgress(250*time.Millisecond, func(s trawl.Stats) { line.show(stderr, s) }))
	}
	c, err := trawl.New(opts...)
	if err != nil {
		if dir != nil {
			dir.Close()
		}
		if warc != nil {
			warc.Close()
		}
		fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
		return 2
	}
	runErr := c.Run(ctx)
	line.end(stderr)
	summary(stdout, c.Stats(), f.out)
	if warc != nil {
		n, rv := warc.Records()
		fmt.Fprintf(stdout, "warc: %s (%d records, %d of them revisits; CDXJ index beside)\n", f.warc.dir, n, rv)
	}
	if p.Extension.Summary != nil {
		p.Extension.Summary(stdout)
	}
	if runErr != nil && !errors.Is(runErr, context.Canceled) {
		fmt.Fprintf(stderr, "%s: %v\n", p.Name, runErr)
		return 1
	}
	return 0
}

func readSeeds(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out, sc.Err()
}

// spillDir is -spill's default: $TMPDIR if set, else /var/tmp where it
// exists, which stays on disk on systems that mount /tmp in memory (where a
// spill file would take the memory it is meant to save), else os.TempDir().
func spillDir() string {
	if d := os.Getenv("TMPDIR"); d != "" {
		return d
	}
	if fi, err := os.Stat("/var/tmp"); err == nil && fi.IsDir() {
		return "/var/tmp"
	}
	return os.TempDir()
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progressLine redraws one status line in place.
type progressLine struct {
	shown bool
	extra func() string
}

func (l *progressLine) show(w io.Writer, s trawl.Stats) {
	fmt.Fprintf(w, "\r\033[K%d pages  %.1f pages/s  %d queued  %d stored  %d errors  %s",
		s.Fetched, s.PagesPerSecond, s.Queued, s.Stored, s.Errors, s.Elapsed.Round(time.Second))
	if l.extra != nil {
		fmt.Fprintf(w, "  %s", l.extra())
	}
	l.shown = true
}

func (l *progressLine) end(w io.Writer) {
	if l.shown {
		fmt.Fprintln(w)
	}
}

func summary(w io.Writer, s trawl.Stats, out string) {
	fmt.Fprintf(w, "crawled %d pages in %s (%.1f pages/s), %d bytes\n", s.Fetched, s.Elapsed.Round(time.Millisecond), s.PagesPerSecond, s.Bytes)
	fmt.Fprintf(w, "stored %d pages; max depth %d; sizes min %d / avg %d / max %d bytes\n", s.Stored, s.MaxDepth, s.MinSize, s.AvgSize, s.MaxSize)
	fmt.Fprintf(w, "status: %d 2xx, %d 3xx, %d 4xx, %d 5xx\n", s.Status2xx, s.Status3xx, s.Status4xx, s.Status5xx)
	fmt.Fprintf(w, "urls: %d discovered, %d duplicates, %d filtered, %d denied by robots.txt (%d robots.txt fetches), %d still queued\n",
		s.Discovered, s.DuplicateURLs, s.Filtered, s.RobotsDenied, s.RobotsFetches, s.Queued)
	if s.TrapURLs > 0 || s.RepeatPages > 0 {
		fmt.Fprintf(w, "traps: %d URLs dropped by the trap rules, %d pages repeating an earlier page (links not followed)\n", s.TrapURLs, s.RepeatPages)
	}
	if s.Sitemaps > 0 || s.Feeds > 0 {
		fmt.Fprintf(w, "discovery: %d sitemaps listing %d URLs, %d feeds\n", s.Sitemaps, s.SitemapURLs, s.Feeds)
	}
	if s.PrivateRefused > 0 {
		fmt.Fprintf(w, "private: %d URLs refused because their host is on a private or loopback address (-allow-private allows them)\n", s.PrivateRefused)
	}
	if s.Errors > 0 {
		var kinds []string
		for k, v := range s.ErrorKinds {
			kinds = append(kinds, fmt.Sprintf("%s %d", k, v))
		}
		fmt.Fprintf(w, "errors: %d (%s)\n", s.Errors, strings.Join(sortStrings(kinds), ", "))
	}
	if out != "" {
		fmt.Fprintf(w, "output: %s (urls.txt, stats.txt, numbered pages)\n", out)
	}
}

func sortStrings(s []string) []string {
	slices.Sort(s)
	return s
}
