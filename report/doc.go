// Package report records a crawl as it runs and writes it up as one
// self-contained HTML file: charts drawn as inline SVG, tables, and no
// script, style sheet, font or image fetched from anywhere, so the file
// can be mailed, archived and opened offline.
//
// # Quick start
//
//	rec := report.NewRecorder(nil)
//	c, err := trawl.New(
//		trawl.WithSeeds("https://example.com/"),
//		trawl.WithEvents(trawl.JoinEvents(rec.Events(), myEvents)),
//	)
//	...
//	ctx, stop := context.WithCancel(ctx)
//	go rec.Watch(ctx, c.Stats) // a sample of Stats every Options.Interval
//	err = c.Run(ctx)
//	stop()
//	rec.Add(c.Stats()) // the final figures
//	err = rec.Report("example.com crawl").WriteHTML(file)
//
// # What the report shows
//
// A summary table (table-summary); pages per second and bytes per second
// over the crawl (chart-pages-rate, chart-bytes-rate) and the frontier's
// queue (chart-queue), from the Stats samples; responses by status code
// (chart-status) and pages by depth (chart-depth), from the fetch
// decisions; errors by kind (chart-errors); duplicates and traps caught
// (chart-duplicates: duplicate URLs, exact and near duplicate pages,
// repeated pages, URLs dropped by each trap rule); the most frequent
// reasons URLs were not fetched (chart-skipped); and a table per host
// (table-hosts: pages, bytes, errors, URLs robots.txt denied, mean delay
// between requests, robots.txt outcome); and the first URLs that failed,
// with their error kind, status and message (table-failures,
// Options.FailureRows of them, 20 by default, and how many failed in all).
// The summary's "distinct URLs queued" are URLs; "links and redirects in
// scope" (Stats.URLs.Discovered) counts every reference that passed the
// filters, most of them to URLs already seen, and is not a count of pages.
// The summary also says what rested the hosts after each request
// (trawl.Stats.Pace: the delay, the adaptive delay, a Crawl-delay,
// back-off) and the longest rest.
// The ids are stable, for tests and for readers who link into the file.
//
// The mean delay of a host is the time between its first and its last
// page request divided by the gaps between them: the politeness the host
// actually got, Crawl-delay and back-off included.
//
// # Bounded memory
//
// The Recorder keeps at most Options.MaxSamples samples (past that it
// drops every other one and samples half as often) and per-host figures
// for at most Options.MaxHosts hosts (later hosts are summed into one
// "other hosts" row), so it can watch a long, broad crawl.
//
// # Concurrency
//
// A Recorder is safe for concurrent use: its hooks run on the crawl's
// workers while Watch samples and Report reads. A Report is a plain value.
package report
