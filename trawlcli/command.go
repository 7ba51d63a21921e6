package trawlcli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/netip"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/fetch"
	"github.com/trawl-dev/trawl/store"
)

// Command is a crawler's command line. Name, Usage and Crawl are required;
// the other fields may be left zero. A Command is not safe for concurrent
// use: run one at a time.
type Command struct {
	Name  string // command name, e.g. "sitespider"
	Usage string // one paragraph for -h: what the command crawls

	// Crawl builds the crawler and runs it: it calls trawl.New with
	// s.Options(), trawl.WithSeeds(s.Seeds()...) and the program's own
	// options (its scope Filter above all), then returns s.Run(ctx, c).
	// An error returned before s.Run is the user's (bad flag values or
	// URLs: exit status 2) unless wrapped by [Exit].
	Crawl func(ctx context.Context, s *Session) error

	// Follow is what the crawl follows when -follow is not given; nil
	// means trawl's DefaultFollow.
	Follow []extract.Kind

	// Features are the program's own flags and behaviour, added after the
	// common ones and the [Builtin] features.
	Features []Feature

	// process is set by Main: the command owns the process, so it may
	// set the runtime's process-wide knobs (see profileFeature).
	process bool
}

// Main runs the command with the process's arguments, with a context that
// Ctrl-C (os.Interrupt) or SIGTERM (what kill, timeout, systemd, Docker
// and Kubernetes send to stop a program) cancels, and exits with Run's
// status: the crawl stops as it does on Ctrl-C, its stores closed (WARC
// files finished, indexes sorted) and its summary printed. A second
// signal is not caught: it ends the process at once.
//
// Main owns the process, so it also turns the runtime's sampling of
// allocations for heap profiles off unless -memprofile asks for a profile
// (runtime.MemProfileRate = 0): the samples' call stacks would otherwise
// take about 2 MB by the end of a long crawl, for nothing. Run leaves the
// runtime alone.
func (cmd *Command) Main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // the next signal kills, as it would have without Main
	}()
	cmd.process = true
	code := cmd.Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	cmd.process = false
	stop()
	os.Exit(code)
}

// Run runs the command with args, writing the summary to stdout and the
// progress line and errors to stderr, and returns the exit status: 0 on
// success and when ctx was cancelled (the summary then begins with
// "interrupted") or a feature's time limit passed, 2 for bad flags or
// URLs, 1 when the crawl failed.
func (cmd *Command) Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	s := &Session{cmd: cmd, stdout: stdout, stderr: stderr}
	code := s.run(ctx, args)
	if !s.ran {
		s.closeStores()
	}
	if s.demoWeb != nil {
		s.demoWeb.Close()
	}
	if s.demoOut != "" {
		os.RemoveAll(s.demoOut)
	}
	return code
}

// Session is one run of a Command: the parsed flags and what they opened.
// Feature hooks and Command.Crawl get it. It is not safe for concurrent
// use, except Stdout, Stderr and the flag accessors, which only read.
type Session struct {
	cmd            *Command
	stdout, stderr io.Writer
	fs             *flag.FlagSet
	f              flags
	features       []Feature

	seeds   []string
	opts    []trawl.Option // the common flags' and the features' options
	stores  []trawl.Store
	events  []trawl.Events
	line    progressLine
	demoWeb *crawltest.Web
	demoOut string // -demo's temporary output directory, removed at the end
	ran     bool   // Run was called: the crawler owns the stores
}

// flags are the options every command takes.
type flags struct {
	seedsFile       string
	maxPages        int
	maxDepth        int
	hostBudget      int
	opic            bool
	follow          string
	archive         bool
	concurrency     int
	hostConcurrency int
	delay           time.Duration
	rate            float64
	adaptive        float64
	perIP           bool
	ipDelay         time.Duration
	ipConcurrency   int
	userAgent       string
	out             string
	allowPrivate    bool
	allowNetworks   string
	allowHosts      string
	progress        bool
	demo            bool
}

func (s *Session) register() {
	fs, f := s.fs, &s.f
	fs.StringVar(&f.seedsFile, "seeds", "", "read more start URLs from `FILE`, one per line (# starts a comment)")
	fs.IntVar(&f.maxPages, "max-pages", 0, "stop after `N` page fetches (0 = no limit)")
	fs.IntVar(&f.maxDepth, "max-depth", 0, "follow links to depth `D`; start URLs have depth 1 (0 = the library's default, 50; -1 = no limit)")
	fs.StringVar(&f.follow, "follow", "", "follow these kinds of reference, comma-separated: navigation, frame, redirect, form, sitemap, feed, embed, style, ping, speculative (URL-looking text: page text, comments, DOCTYPE, meta content ...), script (URLs in scripts, read, never run) (default: navigation,frame,redirect,form,sitemap,feed: no images, scripts or inferred URLs)")
	fs.BoolVar(&f.archive, "archive", false, "archive crawl: also fetch and store the images, style sheets, scripts and media pages embed, ping targets, and the URLs inferred from text and scripts (kinds embed, style, ping, speculative, script)")
	fs.BoolVar(&f.opic, "opic", false, "fetch the most important pages first: order by OPIC, importance computed while crawling (cash handed on through links; see trawl.Priority.OPIC); each page's estimate is in -decisions; with -state the accounts are kept in DIR with the queue, and a resumed crawl goes on from them")
	fs.IntVar(&f.hostBudget, "host-budget", 0, "queue at most `N` URLs of any one host over the whole crawl (0 = the library's default, 100000; -1 = no cap)")
	fs.IntVar(&f.concurrency, "concurrency", 16, "fetches in flight at once, over all hosts")
	fs.IntVar(&f.hostConcurrency, "host-concurrency", 1, "fetches in flight at once to one host; requests to a host still start at least -delay apart, so a host gets at most 1/delay requests a second whatever N is, and N above 1 helps only when responses take longer than -delay")
	fs.Float64Var(&f.rate, "rate", 0, "at most `R` requests a second to one host (with -host-concurrency in flight): sets -delay to 1/R, the gap after each response, so slow responses lower the rate; Crawl-delay and back-off can slow a host further, and the summary says which did")
	fs.DurationVar(&f.delay, "delay", time.Second, "minimum gap between requests to one host; giving -delay without -adaptive turns adaptive politeness off, so the gap is exactly this (plus robots.txt Crawl-delay and back-off)")
	fs.Float64Var(&f.adaptive, "adaptive", 10, "adaptive politeness: a host rests at least `FACTOR` × its last fetch time (0 = off; off when -delay is given without -adaptive)")
	fs.BoolVar(&f.perIP, "per-ip", false, "politeness per IP address as well as per host: hosts whose names resolve to one address (virtual hosting, CDNs) share -ip-delay and -ip-concurrency, each still keeping its own -delay; names resolve through the DNS cache before their URLs are queued, and again when their TTL ends; a name that does not resolve stays polite per host")
	fs.DurationVar(&f.ipDelay, "ip-delay", 250*time.Millisecond, "with -per-ip, minimum gap between requests to one IP address, whichever of its hosts they are for; may be shorter than -delay (0 = none)")
	fs.IntVar(&f.ipConcurrency, "ip-concurrency", 1, "with -per-ip, fetches in flight at once to one IP address, over all its hosts")
	fs.StringVar(&f.userAgent, "user-agent", "", "User-Agent header and robots.txt token (default names trawl)")
	fs.StringVar(&f.out, "out", "", "store pages in `DIR` (numbered files, urls.txt, stats.txt)")
	fs.BoolVar(&f.allowPrivate, "allow-private", false, "allow loopback and private network addresses (not link-local and cloud metadata ones: name those with -allow-network)")
	fs.StringVar(&f.allowNetworks, "allow-network", "", "allow these address `PREFIXES`, comma-separated (127.0.0.0/8,10.1.2.0/24): only them outside the public Internet")
	fs.StringVar(&f.allowHosts, "allow-host", "", "allow these host `NAMES` wherever they resolve, comma-separated (intranet.example.org,*.corp.example.org); other hosts stay guarded")
	fs.BoolVar(&f.progress, "progress", isTerminal(s.stderr), "show a progress line on stderr (default: when stderr is a terminal)")
	fs.BoolVar(&f.demo, "demo", false, "serve a synthetic web on loopback and crawl it (no network needed; pages go to a temporary directory removed at the end unless -out is given)")
}

// run parses args, sets the session up and calls Crawl; Run cleans up.
func (s *Session) run(ctx context.Context, args []string) int {
	cmd := s.cmd
	s.fs = flag.NewFlagSet(cmd.Name, flag.ContinueOnError)
	s.fs.SetOutput(s.stderr)
	s.register()
	s.features = append(Builtin(), cmd.Features...)
	for _, ft := range s.features {
		if ft.Flags != nil {
			ft.Flags(s.fs)
		}
	}
	s.fs.Usage = func() {
		fmt.Fprintf(s.stderr, "Usage: %s [flags] URL...\n\n%s\n\nFlags:\n", cmd.Name, cmd.Usage)
		s.fs.PrintDefaults()
	}
	if err := s.fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if code := s.setup(); code != 0 {
		return code
	}
	if cmd.Crawl == nil {
		return s.fail(Exit(2, errors.New("trawlcli: Command.Crawl is nil")))
	}
	for _, ft := range s.features {
		if ft.Context != nil {
			var cancel context.CancelFunc
			ctx, cancel = ft.Context(ctx)
			defer cancel()
		}
	}
	err := cmd.Crawl(ctx, s)
	switch {
	case err == nil:
		return 0
	case s.ran && ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return 0 // the summary said "interrupted" or "stopped at the time limit"
	case !s.ran:
		var ee *exitError
		if !errors.As(err, &ee) {
			err = Exit(2, err)
		}
	}
	return s.fail(err)
}

// fail prints err and returns its exit status: Exit's code, else 1.
func (s *Session) fail(err error) int {
	fmt.Fprintf(s.stderr, "%s: %v\n", s.cmd.Name, err)
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 1
}

// setup reads the seeds, starts the -demo web and builds the options of
// the common flags and of the features.
func (s *Session) setup() int {
	f := &s.f
	s.seeds = s.fs.Args()
	if f.seedsFile != "" {
		more, err := readSeeds(f.seedsFile)
		if err != nil {
			return s.fail(Exit(2, err))
		}
		s.seeds = append(s.seeds, more...)
	}
	if f.demo {
		web, err := crawltest.NewWeb(&crawltest.Options{Seed: 1, Hosts: 5, PagesPerHost: 40})
		if err != nil {
			return s.fail(fmt.Errorf("demo web: %w", err))
		}
		s.demoWeb = web
		if len(s.seeds) == 0 {
			s.seeds = web.Seeds()
		}
		if !s.FlagSet("delay") {
			f.delay = 20 * time.Millisecond
		}
		s.opts = append(s.opts, trawl.WithDialContext(web.DialContext), trawl.WithAllowPrivateNetworks(true))
		fmt.Fprintf(s.stdout, "demo: serving a synthetic web of %d hosts on loopback (%s ...)\n", len(web.Hosts()), web.Hosts()[0])
		if f.out == "" {
			dir, err := os.MkdirTemp("", s.cmd.Name+"-demo-")
			if err != nil {
				return s.fail(err)
			}
			f.out, s.demoOut = dir, dir
		}
	}
	if len(s.seeds) == 0 {
		fmt.Fprintf(s.stderr, "%s: no start URLs (give URLs as arguments, -seeds FILE, or -demo)\n", s.cmd.Name)
		s.fs.Usage()
		return 2
	}

	// -delay without -adaptive means exactly that delay: the delay and the
	// adaptive factor are set explicitly either way, whatever the
	// library's defaults. -delay 0 means no delay, -adaptive 0 off.
	delay, adaptive := f.delay, f.adaptive
	if s.FlagSet("rate") {
		if s.FlagSet("delay") {
			return s.fail(Exit(2, errors.New("-rate and -delay say the same thing (-rate R is -delay 1/R): give one")))
		}
		if f.rate <= 0 {
			return s.fail(Exit(2, fmt.Errorf("-rate must be positive, got %v", f.rate)))
		}
		delay = max(time.Duration(float64(time.Second)/f.rate), 1)
	}
	if (s.FlagSet("delay") || s.FlagSet("rate")) && !s.FlagSet("adaptive") {
		adaptive = 0
	}
	s.line.pace = describePace(delay, adaptive, f.hostConcurrency)
	if delay == 0 {
		delay = trawl.NoDelay
	}
	if adaptive == 0 {
		adaptive = -1
	}
	s.opts = append(s.opts,
		trawl.WithLimits(trawl.Limits{MaxPages: f.maxPages, MaxDepth: f.maxDepth, HostBudget: f.hostBudget}),
		trawl.WithWorkers(f.concurrency),
		trawl.WithPoliteness(trawl.Politeness{Delay: delay, HostConcurrency: f.hostConcurrency, Adaptive: adaptive}),
	)
	if f.opic {
		s.opts = append(s.opts, trawl.WithPriority(trawl.Priority{OPIC: true}))
	}
	if code := s.perIPOptions(); code != 0 {
		return code
	}
	if f.allowPrivate {
		s.opts = append(s.opts, trawl.WithAllowPrivateNetworks(true))
	}
	if f.allowNetworks != "" {
		var prefixes []netip.Prefix
		for _, p := range strings.Split(f.allowNetworks, ",") {
			p = strings.TrimSpace(p)
			prefix, err := netip.ParsePrefix(p)
			if err != nil {
				addr, aerr := netip.ParseAddr(p) // one address
				if aerr != nil {
					return s.fail(Exit(2, fmt.Errorf("-allow-network: %q is neither an address prefix (10.1.2.0/24) nor an address", p)))
				}
				prefix = netip.PrefixFrom(addr, addr.BitLen())
			}
			prefixes = append(prefixes, prefix)
		}
		s.opts = append(s.opts, trawl.WithAllowNetworks(prefixes...))
	}
	if f.allowHosts != "" {
		var names []string
		for _, h := range strings.Split(f.allowHosts, ",") {
			h = strings.TrimSpace(h)
			if _, err := netip.ParseAddr(h); err == nil || h == "" || strings.ContainsAny(h, "/:") {
				return s.fail(Exit(2, fmt.Errorf("-allow-host: %q is not a host name (use -allow-network for addresses)", h)))
			}
			names = append(names, h)
		}
		s.opts = append(s.opts, trawl.WithAllowHosts(names...))
	}
	if f.follow != "" {
		var kinds []extract.Kind
		for _, name := range strings.Split(f.follow, ",") {
			k, err := extract.ParseKind(strings.TrimSpace(name))
			if err != nil {
				return s.fail(Exit(2, fmt.Errorf("-follow: %w", err)))
			}
			kinds = append(kinds, k)
		}
		s.opts = append(s.opts, trawl.WithFollow(kinds...))
	} else if s.cmd.Follow != nil {
		s.opts = append(s.opts, trawl.WithFollow(s.cmd.Follow...))
	}
	if f.archive {
		s.opts = append(s.opts, trawl.WithArchive(true))
	}
	if f.userAgent != "" {
		s.opts = append(s.opts, trawl.WithUserAgent(f.userAgent))
	}
	if f.out != "" {
		dir, err := store.NewDir(f.out)
		if err != nil {
			return s.fail(err)
		}
		s.AddStore(dir)
	}
	for _, ft := range s.features {
		if ft.Setup == nil {
			continue
		}
		more, err := ft.Setup(s)
		if err != nil {
			var ee *exitError
			if !errors.As(err, &ee) {
				err = Exit(2, err)
			}
			return s.fail(err)
		}
		s.opts = append(s.opts, more...)
	}
	for _, ft := range s.features {
		if ft.Status != nil {
			s.line.extra = append(s.line.extra, ft.Status)
		}
	}
	return 0
}

// Seeds returns the start URLs: the arguments, then -seeds FILE's, or the
// -demo web's when there are none.
func (s *Session) Seeds() []string { return s.seeds }

// Options returns the crawl options of the common flags and of every
// feature, the store (-out, -warc, and what features added) and the
// progress line: everything but the seeds and the scope, which the
// program adds.
func (s *Session) Options() []trawl.Option {
	opts := append([]trawl.Option(nil), s.opts...)
	if st := combine(s.stores); st != nil {
		opts = append(opts, trawl.WithStore(st))
	}
	if len(s.events) > 0 {
		opts = append(opts, trawl.WithEvents(trawl.JoinEvents(s.events...)))
	}
	if s.f.progress {
		opts = append(opts, trawl.WithProgress(250*time.Millisecond, func(st trawl.Stats) { s.line.show(s.stderr, st) }))
	}
	return opts
}

// Run runs c, ends the progress line and writes the summary (the common
// one, then each feature's). It returns c.Run's error; a cancelled ctx
// makes the summary begin with "interrupted" (a passed deadline, "stopped
// at the time limit") and Command.Run exit 0.
func (s *Session) Run(ctx context.Context, c *trawl.Crawler) error {
	s.ran = true
	for _, ft := range s.features {
		if ft.Start != nil {
			ft.Start(ctx, c)
		}
	}
	err := c.Run(ctx)
	s.line.end(s.stderr)
	st := c.Stats()
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		if errors.Is(err, context.DeadlineExceeded) {
			fmt.Fprintf(s.stdout, "stopped at the time limit: the crawl was stopped before its end")
		} else {
			fmt.Fprintf(s.stdout, "interrupted: the crawl was stopped before its end")
		}
		if s.FlagSet("state") {
			fmt.Fprintf(s.stdout, " (run the same command again to resume from -state)")
		}
		fmt.Fprintln(s.stdout)
	}
	summary(s.stdout, st, s.line.pace, s.f.out, s.demoOut != "")
	for _, ft := range s.features {
		if ft.Summary != nil {
			ft.Summary(s.stdout, st)
		}
	}
	return err
}

// AddStore adds a store to the crawl's (a feature's Setup calls it): every
// stored page is given to each store, exchanges to those that implement
// trawl.ExchangeStore. The crawler closes them when Run returns; Command.Run
// closes them when the crawl never ran.
func (s *Session) AddStore(st trawl.Store) { s.stores = append(s.stores, st) }

// AddEvents adds hooks to the crawl's (a feature's Setup calls it):
// Options joins every feature's Events with trawl.JoinEvents into one
// trawl.WithEvents. A program may as well pass its own trawl.WithEvents,
// before or after s.Options(): WithEvents adds hooks, never replaces them.
func (s *Session) AddEvents(ev trawl.Events) { s.events = append(s.events, ev) }

// FlagSet reports whether the flag name was given on the command line.
func (s *Session) FlagSet(name string) bool {
	set := false
	s.fs.Visit(func(fl *flag.Flag) { set = set || fl.Name == name })
	return set
}

// Flag returns the value of flag name as text ("" for an unknown flag), so
// a feature can read the common flags (-demo, -progress, -out, ...).
func (s *Session) Flag(name string) string {
	if fl := s.fs.Lookup(name); fl != nil {
		return fl.Value.String()
	}
	return ""
}

// Demo reports whether -demo was given.
func (s *Session) Demo() bool { return s.f.demo }

// Progress reports whether the progress line is on.
func (s *Session) Progress() bool { return s.f.progress }

// Stdout is where the summary goes.
func (s *Session) Stdout() io.Writer { return s.stdout }

// Stderr is where the progress line and errors go.
func (s *Session) Stderr() io.Writer { return s.stderr }

func (s *Session) closeStores() {
	for _, st := range s.stores {
		st.Close()
	}
}

// Exit wraps err so that Command.Run exits with code (2 for the user's
// mistakes, 1 for failures). Exit(code, nil) is nil.
func Exit(code int, err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: code, err: err}
}

type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

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

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// perIPOptions turns -per-ip, -ip-delay and -ip-concurrency into
// trawl.Politeness.PerIP, IPDelay and IPConcurrency, and says so in the
// pace line; the -demo web's names resolve through the web itself.
func (s *Session) perIPOptions() int {
	f := &s.f
	if !f.perIP {
		if s.FlagSet("ip-delay") || s.FlagSet("ip-concurrency") {
			return s.fail(Exit(2, errors.New("-ip-delay and -ip-concurrency apply only with -per-ip: give -per-ip too")))
		}
		return 0
	}
	if f.ipDelay < 0 || f.ipConcurrency < 1 {
		return s.fail(Exit(2, fmt.Errorf("-ip-delay must not be negative (got %v) and -ip-concurrency must be at least 1 (got %d)", f.ipDelay, f.ipConcurrency)))
	}
	ipDelay := f.ipDelay
	if ipDelay == 0 {
		ipDelay = trawl.NoDelay
	}
	s.opts = append(s.opts, trawl.WithPoliteness(trawl.Politeness{PerIP: true, IPDelay: ipDelay, IPConcurrency: f.ipConcurrency}))
	if s.demoWeb != nil {
		s.opts = append(s.opts, trawl.WithFetchOptions(fetch.Options{LookupNetIP: s.demoWeb.LookupNetIP}))
	}
	s.line.pace.why += fmt.Sprintf("; each IP address %d in flight, a %s gap (-per-ip)", f.ipConcurrency, f.ipDelay)
	return 0
}
