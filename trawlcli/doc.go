// Package trawlcli is the command-line plumbing of trawl's example
// spiders (examples/spider, sitespider, dirspider, focusedspider,
// clusterspider), public
// so that a crawler of your own can take the same flags: the common flags
// (-max-pages, -delay, -out, ...), the -demo web, the progress line, the
// summary, and the built-in features -v, -warc, -replay, -jsonl, -state, -spill,
// -metrics, -report, -decisions, -recrawl, -duration, -render, -login
// (-login URL -login-field NAME=VALUE -login-field-env NAME=VAR: a login
// form filled and sent before the crawl, the password read from the
// environment; see trawl.WithLogin), and -cpuprofile and -memprofile
// (pprof profiles of the command).
// What makes a spider what it is stays in its main.go, in plain trawl: the
// trawl.New call, its options and its scope Filter.
//
//	cmd := &trawlcli.Command{
//		Name:  "sitespider",
//		Usage: "sitespider crawls the hosts of the start URLs and nothing else.",
//		Crawl: func(ctx context.Context, s *trawlcli.Session) error {
//			c, err := trawl.New(append(s.Options(),
//				trawl.WithSeeds(s.Seeds()...),
//				trawl.WithFilters(trawl.SameHost(s.Seeds()...)),
//			)...)
//			if err != nil {
//				return err // bad flags or URLs: exit status 2
//			}
//			return s.Run(ctx, c)
//		},
//	}
//	cmd.Main()
//
// # Flags and exit status
//
// Session.Options turns the common flags into trawl options: -max-pages,
// -max-depth and -host-budget into trawl.Limits; -opic into
// trawl.Priority.OPIC; -rate (or -delay),
// -adaptive and -host-concurrency into trawl.Politeness, with -delay 0 as
// trawl.NoDelay and -adaptive 0 as off (Adaptive: -1). -rate R is the rate
// a host gets, at most R requests a second (-delay 1/R, the gap after each
// response); the progress line shows it and the rules that held hosts
// longer, and the summary's "politeness:" line says after how many
// requests each rule (the delay, the adaptive delay, a Crawl-delay,
// back-off) rested the host (trawl.Stats.Pace). -delay D given without -adaptive
// turns adaptive politeness off: the gap between two requests to a host is
// then D, as a user who writes -delay means, not 10 × the last fetch time
// when that is longer; -adaptive F sets the factor whatever -delay says.
// -per-ip adds politeness per IP address (trawl.Politeness.PerIP): hosts
// whose names resolve to one address share -ip-delay (default 250ms, 0 for
// none, as trawl.NoDelay) and -ip-concurrency (default 1), each still
// keeping its own -delay; the pace line says so. -ip-delay and
// -ip-concurrency without -per-ip are refused. Under -demo the web's names
// resolve through the web (crawltest.Web.LookupNetIP): every demo host is
// on 127.0.0.1, so they all share one address.
// -demo serves crawltest's synthetic web on loopback and stores its pages in
// a temporary directory removed at the end, unless -out is given.
//
// The summary gives byte counts with units (KiB, MiB), says how many
// distinct URLs were queued (the links found are counted apart: most of
// them lead to URLs already seen) and lists the first 10 failed URLs with
// their error; -v prints every failure on stderr as it happens. A seed
// without a scheme ("example.com") is refused with the URL meant
// ("https://example.com").
//
// Command.Run returns 0 on success, 2 for bad flags or URLs (anything that
// fails before the crawl starts, unless wrapped by Exit), 1 when the crawl
// failed; a cancelled context (Ctrl-C or SIGTERM under Command.Main) stops
// the crawl cleanly, its summary begins with "interrupted" and the status
// is 0; a second signal ends the process at once.
//
// Memory: Command.Main leaves the Go runtime's collector at its default
// (GOGC=100), which lets the heap grow to about twice what is live. A
// crawl of many hosts that would rather spend CPU than memory can set
// GOGC=50 in its environment: in the comparison's scenario C (1,000 hosts,
// bench/README.md) it took peak RSS from about 69 to 58 MB for about 15 %
// more CPU per page. Main only turns off the sampling of allocations for
// heap profiles when -memprofile is not given.
//
// # Features
//
// A Feature is a set of flags and what they do: Flags registers them, Setup
// turns their values into crawl options (and stores, with Session.AddStore),
// Start sees the crawler just before it runs, Status adds to the progress
// line and Summary to the summary. Command.Features are a program's own;
// Builtin lists those every command has, each in a file of its own
// (warc.go, jsonl.go, frontier.go, observe.go, recrawl.go), so a new one is added
// without touching the core.
//
// With -state DIR a crawl keeps its frontier in DIR (package frontier/disk)
// and resumes from it; the crash test (TRAWL_CRASH_TEST=1 for the long one)
// kills a spider to prove it. With -opic too, the OPIC accounts are kept
// in DIR with the queue, so a resumed crawl goes on in the same order
// (TestOPICWithState). Without -state the in-memory frontier keeps
// the middle of its queue in an unnamed temporary file (-spill DIR, default
// $TMPDIR or /var/tmp, which stays on disk where /tmp is in memory; -spill=
// keeps it all in memory). Built with -tags trawl_nostate, a command leaves
// out -state and the embedded store it needs (bbolt; 0.5 MB of sitespider's
// 23.5 MB, and one module): -state then fails with an error naming the tag. With -warc DIR a
// command writes what it fetched as WARC files (package store's WARC),
// alongside -out or alone; with -jsonl FILE it writes each stored page's
// URL, title and main text (and the rest of store.PageRecord) as JSON Lines
// (package store's JSONL), and turns main-text extraction on; a FILE that
// holds records already is refused unless -jsonl-mode says append
// (Scrapy's -o) or overwrite (-O), and a crawl resumed from an existing
// -state directory appends. With -replay DIR (an earlier -warc DIR) the
// URLs its WARC files hold are answered from them and the others fetched
// (store.Replay), so a scraper rewritten runs again without fetching again.
//
// Seeing a crawl (observe.go): -metrics ADDR serves Prometheus metrics
// (package metrics) at http://ADDR/metrics while the crawl runs, on
// loopback unless ADDR names another host (-metrics 9090 listens on
// 127.0.0.1:9090); -report FILE writes a self-contained HTML report with
// charts (package report) when the crawl ends; -decisions FILE writes a
// JSON line for every decision about a URL (trawl.Decision: queued,
// filtered and by which filter, robots, duplicate, trap rule, fetched,
// error, ...). They listen to the crawl through Session.AddEvents;
// -decisions, -metrics and -report make the crawler push discovered URLs
// to the frontier one at a time (bench/README.md gives the cost). Built with
// -tags trawl_nometrics, a command leaves out -metrics, package metrics and
// the Prometheus client (3.4 MB of sitespider's 23.5 MB, and seven modules):
// -metrics then fails with an error naming the tag.
//
// # Concurrency
//
// A Command runs one crawl at a time, in the caller's goroutine; Feature
// Status hooks are called from the progress goroutine while the crawl runs,
// so they must be safe for concurrent use with the crawl's own hooks.
package trawlcli
