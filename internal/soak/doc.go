// Package soak holds trawl's soak test: a long crawl of a hostile
// crawltest web that watches the crawler's resources over time. It has no
// code of its own; everything is in soak_test.go.
//
// # What it runs
//
// TestSoak crawls a crawltest web of 1,000 hosts with every trap and fault
// switched on (calendars, ever-deeper paths, session ids, soft 404s,
// meta-refresh chains, a trickling robots.txt, redirect chains and loops,
// slow, hanging and reset connections, 5xx, 429, endless and huge bodies,
// a gzip bomb, wrong content types, invalid UTF-8, legacy charsets,
// malformed HTML, unusual robots.txt answers and Crawl-delay). The crawler
// has trawl's defaults (trap limits included) plus: 32 workers, a 5 ms
// delay for loopback, the queue spilled to disk (frontier.MemoryOptions.SpillDir), a 2 s fetch
// timeout, a 256 KiB body limit, an idle-connection pool of 256 (fewer than
// the hosts, so connections are evicted and redialled all the time), and a
// Store that counts pages and keeps none. Its frontier is the default one
// with every host in a back queue and a global cap of 100 contacts a
// second, so that all hosts are crawled side by side at a steady pace. The
// seeds are every host's home page followed by its trap and fault entry
// URLs, each paired with one of its ordinary pages, so the faults are met
// from the first minute on. The crawl is cancelled by a context deadline
// while it still has work.
//
// Every sample (a 24th of the run, between 1 s and 10 s) records the number
// of goroutines, the open file descriptors (/proc/self/fd), the crawl's
// fetched and queued counts (and how many of the queued URLs are in the
// frontier's spill file), runtime.MemStats.HeapInuse, and two memory
// figures probed every 250 ms in between, with their lowest and highest
// value since the previous sample: the live heap as of the last garbage
// collection (runtime/metrics /gc/heap/live:bytes) and the resident set
// (VmRSS from /proc/self/status; Linux only). The web runs in the same
// process; its request log is drained at every sample (Web.ResetLog) into
// counts per URL class, so the test's own bookkeeping stays bounded.
//
// # How long
//
//	go test ./internal/soak                      2 minutes, samples every 5 s
//	go test -short ./internal/soak               30 seconds, samples every 1.25 s
//	TRAWL_SOAK=30m go test -run TestSoak -v -timeout 40m ./internal/soak
//	                                             30 minutes, samples every 10 s
//
// TRAWL_SOAK takes any Go duration of at least 10 s. TRAWL_SOAK_OUT=path
// writes the samples as a Markdown table to path. The web has three times
// the pages the crawl could fetch in that time at 100 a second.
//
// # What it asserts
//
// The first third of the run is warm-up (every host's robots.txt is
// fetched and the connection pool fills); its level after warm-up is taken
// over the middle third, the level it ends at over the last sixth. The
// test fails when:
//
//   - goroutines after warm-up exceed base + 3 per idle connection
//     (256) + 9 per worker + 50, or 1.25 × their warm-up peak + 3 per
//     worker, or the mean of the last sixth exceeds 1.10 × the mean of the
//     middle third + 3 per worker;
//   - open files likewise: base + 2 × (256 + 2 per worker) + 8, 1.25 × the
//     warm-up peak + 2 per worker, 1.10 × the middle third's mean + 2 per
//     worker;
//   - the live heap's floor in the last sixth exceeds 1.10 × its floor in
//     the middle third + 32 bytes per URL accepted and page fetched in
//     between (the frontier's seen set and the trap rules' page hashes
//     grow with the crawl by design) + 4 MiB, or its peak after warm-up
//     exceeds 1.25 × the warm-up peak + 32 MiB (32 workers × 4 × the
//     256 KiB body limit, for fetches in progress) + the same per-URL
//     allowance;
//   - RSS likewise, with 16 MiB instead of 4 (not under -race, whose
//     runtime's memory grows by itself: golang/go#26813, #37233);
//   - the crawl ran out of work before the deadline;
//   - in runs of a minute or more (the first 10 to 40 s go to the hosts'
//     robots.txt files): the crawl fetched fewer than 5 pages a second
//     overall, or fewer than 2.5 a second in the last third (a stall), or
//     some trap or fault URL class was never requested, or no page was
//     decoded from a legacy charset;
//   - one host's traps got more than 500 requests (an unbounded trap);
//   - Run did not return within 30 s of the deadline with
//     context.DeadlineExceeded and nothing else, the goroutine count did
//     not return to what it was before the crawler was built, or the open
//     files to within 2 of theirs.
package soak
