// Package frontier holds the URLs a crawl has still to fetch and hands them
// to workers one host at a time, politely.
//
// The Frontier interface is small: Push, Next, Done and Len. Memory is the
// in-memory implementation, after Mercator (Heydon and Najork, 1999); a
// persistent one can implement the same interface and prove it with
// package frontiertest.
//
// # Quick start
//
//	f := frontier.NewMemory(&frontier.MemoryOptions{Workers: 8})
//	f.Push(ctx, frontier.Request{URL: "https://example.com/", Depth: 1})
//	// in each of 8 workers:
//	for {
//		req, err := f.Next(ctx) // blocks until some host may be contacted
//		if err != nil {
//			return err // frontier.ErrEmpty: the crawl is over
//		}
//		resp, took, err := fetch(ctx, req.URL)
//		f.Push(ctx, links(resp, req.Depth+1)...)
//		f.Done(req, frontier.Outcome{Status: resp.StatusCode, Duration: took, Err: err})
//	}
//
// # Contract
//
// See Frontier for what every implementation promises. In short: each URL
// is accepted once (by Fingerprint, for the life of the frontier); each
// accepted URL is handed out exactly once, plus once per Outcome.Retry or
// Outcome.Requeue, with the Data it was pushed with (see below); a
// host is not handed out again while in flight (unless its concurrency
// limit allows) nor before its politeness delay has passed; Next returns
// ErrEmpty only when nothing is queued and nothing is leased.
//
// # Data: per-URL state travels with the URL
//
// Everything a crawler knows about a URL before fetching it travels in its
// Request, never in a side map beside the frontier: the typed fields
// (Depth, Referrer, Anchor, Priority, Retries, Redirects, State) and
// Request.Data, opaque bytes for the rest (the crawler's metadata for the
// page, a sitemap's lastmod, changefreq and priority, a pending probe).
// So they survive a persistent frontier's restart and cross a cluster to
// the agent that fetches the URL. The contract, for every implementation:
//
//   - Push keeps a copy of Data with the URL; Next hands it back (nil when
//     empty).
//   - Data is kept across Outcome.Retry, Outcome.Requeue and
//     Outcome.Revisit; a non-nil Outcome.Data replaces it for the next
//     hand-out, and an empty non-nil one clears it.
//   - Data is at most MaxData (4 KiB) bytes. Push does not queue a request
//     with more (nor remember its URL as seen): it queues the rest of the
//     batch and returns an error wrapping ErrDataTooLarge that names the
//     URL. Done with a larger Outcome.Data does the rest of what the
//     outcome says, keeps the request's Data, and returns such an error.
//
// A request without Data costs Memory nothing more: the URL, the anchor
// text and the Data share one string in a queued entry, and the URL alone
// is that string when there is neither anchor nor Data. With Data the
// string is a copy of the URL, the anchor and the Data plus 9 bytes
// (BenchmarkMemoryFootprint: 184 bytes per URL with 32 bytes of Data
// each, 88 without). Spilled blocks hold it as they hold the anchor;
// disk.Frontier stores it in each URL's record; package cluster carries
// it in its stream entries.
//
// # Optional interfaces
//
// A frontier may offer more than Frontier; a crawler asks by type
// assertion and does without. frontiertest.Run checks each one a frontier
// implements.
//
//	interface      method                                    implemented by
//	Revisiter      Revisits() int                            Memory, disk.Frontier, cluster.Frontier
//	SeenChecker    Seen(rawURL string) bool                  Memory, disk.Frontier
//	Booster        Boost(rawURL string, delta float64) bool  Memory, disk.Frontier
//	Orderer        Order() Strategy                          Memory, disk.Frontier
//	HostCounter    HostsWaiting() int                        Memory
//	Flusher        Flush() error                             disk.Frontier
//	StateKeeper    SaveState(name string, b []byte) error    disk.Frontier
//	               LoadState(name string) ([]byte, error)
//	SpillReporter  SpillStats() SpillStats                   Memory
//	io.Closer      Close() error                             Memory, disk.Frontier, cluster.Frontier
//
// Revisiter: the frontier keeps URLs done with Outcome.Revisit; a
// continuous crawl requires it. SeenChecker: after a Push that added
// nothing, the crawler asks whether the URL was a duplicate or dropped by
// a limit. Booster: a focused crawl that counts in-links boosts a queued
// URL each time a page links to it, and an OPIC crawl by the link's
// share of its page's cash. HostCounter: the crawler's statistics
// report how many hosts wait for workers. Flusher: the crawler makes a
// persistent frontier durable when Run returns, even one it was given and
// does not close. StateKeeper: the crawler keeps state of its own that
// must match the queues (Priority.OPIC's cash accounts) in a persistent
// frontier's commits, so that a resumed crawl finds both as they were.
// SpillReporter: the crawler warns when a spilling
// frontier stopped spilling after a write error. io.Closer: the crawler
// closes a frontier it made itself. Besides these, package frontier/opic's
// Carrier (CarryCash) marks a frontier that places OPIC cash itself
// (cluster.Frontier, where a URL's cash may belong to another agent):
// trawl's Priority.OPIC then needs neither Booster nor SeenChecker.
//
// # The Mercator structure
//
// Push puts a request in one of K front queues, chosen by its Priority
// (floor, clamped to 1..K). A biased selector takes URLs from the front
// queues, queue i with weight i (smooth weighted round robin, or weighted
// random with MemoryOptions.Randomized), and moves them to back queues, one
// per host: if the URL's host already has a back queue the URL joins it and
// the selector takes another, so each refill gives one more host a back
// queue. About three hosts per worker (MemoryOptions.BackQueues) have a back
// queue at a time. A politeness.Schedule keeps those hosts in a heap keyed by
// their next contact time; Next takes the first ready host and the head of
// its back queue; when a back queue empties, the selector refills.
//
// Only hosts with a back queue compete for workers: with more hosts than
// back queues, a worker may wait for a resting host while a host still in
// the front queues could have been fetched. That is Mercator's trade-off;
// raise Workers or BackQueues if it matters.
//
// A host that rests long does not keep its place, though. When a contact
// leaves a host resting longer than the politeness MaxDelay (60s by
// default, longer than the minimum and the adaptive delay ever make a
// host rest, so only a Crawl-delay, back-off or Retry-After do; see
// politeness.Schedule.RestsLong), or when such a host gets a back queue,
// the host is parked: it keeps its back queue and its place in the
// politeness heap, but no longer
// counts among the BackQueues hosts, so refill gives a back queue to
// another host. When its rest is over Next hands it out as any ready host
// and it counts again. So hosts that rest long, any number of them, cost
// the others only the contacts made with them: with 10,000 hosts that
// answer every contact with a one-day Crawl-delay queued ahead of 20
// ordinary hosts, the ordinary hosts are done at the same fake time as
// without them when fetches take no time, and later by exactly the
// 10,000 robots.txt contacts' share of the workers when they take 20ms
// each (TestMemorySlowHostsDoNotDelayOthers). With
// politeness.Config.GroupKey, the hosts of a group that rests long are
// parked together.
//
// Politeness per IP address (politeness.Config.IPKey) parks hosts the same
// way: a host that shares its address with more hosts that have work than
// the address serves at once (politeness.Schedule.Crowded) waits for the
// address besides its own delay, and would hold a back queue that fetches
// nothing. With 3,000 hosts that one DNS answer puts on one address queued
// ahead of 20 ordinary hosts, the ordinary hosts are done at the same fake
// time as without them, while the address is served one contact at a time,
// 250ms apart (TestMemoryIPCrowdDoesNotStallOthers; 27 minutes later
// without parking). And with 10% of 200 hosts on shared addresses, a
// crawl polite per IP fetches 92.9% of the pages per second of one polite
// per host only when they are on two addresses, 91.8% when all are on one
// (TestMemoryPerIPThroughput, fake time: 1s host delay, 250ms IP delay,
// 100ms fetches, 32 workers): the other hosts lose nothing, and the shared
// ones keep what their addresses' delay allows.
//
// Back queues live in memory. Without MemoryOptions.SpillDir the front
// queues do too, and refill moves the URLs it meets to their hosts' back
// queues, those of parked hosts included. With it, refill keeps URLs in
// the spill file where it can (see Memory's refill): when no host without
// a back queue is waiting in the front queues it stops at the first URL of
// a host whose back queue is full (64 URLs), so a crawl of a few sites
// keeps its queue spilled (TestFewHostsStaySpilled: two hosts with 20,000
// URLs each, at most 65 each in memory, each host's URLs in the in-memory
// order); while a host without one is waiting it moves the URLs before that
// host's first one to their back queues, as Mercator does, which keeps
// each host's order but can take a long stretch of the queue to memory
// (the soak's back queue per host does: see package internal/soak); and
// it puts the URLs of parked hosts, and while only parked
// hosts leave room those of every host with a back queue, back at the far
// end of their front queue while it looks for a host without one (at most
// 256 URLs a call, and twice round the front queues since it last found
// one), so a parked host does not draw spilled URLs into memory
// (TestParkedHostsLeaveSpilledURLsOnDisk: two hosts with 3,000 URLs each,
// at most 3 in back queues while one is parked; 3,000 without the rule).
// URLs passed over so may come out after later URLs of their host.
//
// Strategies over the same structure: BFS (front queues are FIFO), DFS (front
// and back queues are stacks; a URL of a host that has a back queue goes
// straight to its top) and Priority (front queues are max-heaps by Priority;
// Memory.Boost raises a queued URL's score, for in-link counting and for
// OPIC, whose cash accounts package frontier/opic keeps). The order
// is exact within the front queues; the back queues hold a window of about
// three URLs per worker already chosen, which a later URL cannot overtake.
//
// Limits: MaxDepth drops requests deeper than the limit, and MaxPerHost caps
// the URLs accepted per host, so a crawler trap cannot fill the frontier.
// Dropped requests are not remembered as seen: the same URL found again at
// a smaller depth is accepted.
//
// # Revisits
//
// A continuous crawl (trawl's WithRecrawl, package recrawl) keeps pages in
// the frontier after their fetch: Done with Outcome.Revisit holds the URL
// until that time, with Outcome.State (the page's encoded visit history),
// and Next hands it out again then, with Request.State set, bypassing
// duplicate elimination (Push still drops the URL). Memory keeps waiting
// revisits in a heap by time; a due revisit goes to the highest front
// queue, so the selector takes it ahead of new URLs, and then waits for its
// host's politeness like any URL (a host never contacted comes first among
// hosts that are ready). Retry and Requeue keep the State. Next returns
// ErrEmpty only when no revisit waits either, so a continuous crawl ends
// with its context. Revisits (interface Revisiter) counts them; Len does
// not. PushRevisit schedules a revisit of a URL the Memory may never
// have seen: package cluster keeps its revisit schedule in Redis and
// hands each revisit to its agent's local Memory when it falls due. A
// waiting revisit costs about 263 bytes beyond its URL string with
// a 134-byte state (BenchmarkRevisitFootprint: its entry in the heap, its
// state, its seen-set slot and host).
//
// # Politeness
//
// MemoryOptions.Politeness configures the scheduler (package politeness):
// a minimum delay (default 1s) from the end of one fetch to the start of
// the next, robots.txt Crawl-delay (capped at MaxCrawlDelay, default 5m),
// Mercator's adaptive delay (10 × the
// last fetch's duration), back-off with jitter on 429, 503 and timeouts
// honouring Retry-After, one request per host in flight, optional grouping
// of hosts by server, and a global rate limit. Done feeds it the Outcome.
//
// # Memory
//
// A queued URL costs a 64-byte entry (a string header for the URL and its
// anchor text, copied together into one allocation when there is an anchor;
// the referrer's string header, shared with the referring page's other
// links; interned host, fingerprint, priority, depth, retries), plus its
// slot in the seen set (an open-addressing table of fingerprints, package
// internal/fpset, about 13 bytes per URL ever accepted). Front queues keep entries in 8 KiB blocks
// of 128; back queues, about three per worker and mostly short, in ring
// buffers that grow and shrink with them.
// BenchmarkMemoryFootprint measures about 88 bytes per URL for 1M URLs over
// 10k hosts, beyond the URL strings themselves. URL fingerprints are 64-bit: two URLs with the same
// fingerprint (probability about n²/2⁶⁵ for n URLs) count as one.
//
// With MemoryOptions.SpillDir, BFS and DFS front queues keep only the
// blocks at their ends in memory and write the rest to a temporary file
// (encoded, about 15 bytes per URL besides its URL, anchor text and Data, with a
// checksum per block), as Mercator kept its queues on disk: the same
// benchmark measures about 14 bytes per URL, the seen set and the host
// table. The order is the same as without spilling. A block that cannot be
// read back (an I/O error, a damaged file) makes Next return the error; a
// file that cannot be written stops the spilling and keeps everything in
// memory (SpillStats reports it). Close removes the file; on Unix it has no
// name from the start, so a crashed crawl leaves nothing behind.
//
// # Memory per known URL in a whole crawl
//
// What a crawl holds per distinct URL it knows, frontier and crawler
// together, measured in the comparison's scenario C (package bench:
// 1,000 hosts × 200 pages, 128 workers, one request per host, cap 150,000
// pages; examples/sitespider with its defaults, so the front queues spill
// and the trap rules and sitemap metadata are on; 193,345 URLs known,
// 147,332 pages fetched). Bytes per known URL; "before" is the code of
// 2026-12-07 at 03bdf13, "after" the code this section came with. The live
// heap's parts come from in-use heap profiles near the end of the crawl
// (one sample per 4 KiB) and, for the page texts, from
// internal/fpset's BenchmarkSet at 147,332 entries; the rest of the peak
// RSS from runtime/metrics' /memory/classes sampled each second and
// /proc/PID/status; the collector's headroom is what the peak RSS leaves
// over.
//
//	part                                                       before   after
//	frontier: seen set (318,865 slots of 8 bytes)                13.2     13.2
//	frontier: front queues (in memory: the blocks at their ends;  0.5      0.5
//	  the rest spilled, about 130 bytes a queued URL on disk)
//	frontier: back queues (rings of 64-byte entries, and their    6.9      6.9
//	  URL, anchor and Data strings read back from the spill file)
//	frontier: host table and politeness schedule (1,000 hosts)    1.5      1.5
//	crawler: trap rules, texts of pages fetched (147,332)        24.5      8.8
//	crawler: trap rules, URL templates                           <0.5     <0.5
//	crawler: sitemap metadata (Request.Data: in the entries          0        0
//	  and strings above, nothing beside them)
//	crawler: decisions and statistics (counters; no observer)      0        0
//	robots.txt rules (1,000 hosts)                                 6.3      6.3
//	connections (1,000 kept alive: buffers, net/http's state,     24       24
//	  two goroutine descriptors each)
//	workers (128: body buffers, extractors, pages in hand)          7        7
//	other live heap (package tables, options, ...)                 8        8
//	= live heap                                                   ≈92      ≈77
//	goroutine stacks (2,133: two per connection, the workers)      56       56
//	runtime metadata (GC bitmaps, spans, ...)                      30       29
//	heap-profile sample buckets                                    ≤7        0
//	executable's resident pages (14.5 MB)                          75       75
//	collector's headroom (GOGC=100) and its overshoot            ≈124     ≈114
//	= peak RSS (median of 3 runs, load 10 to 18)                  384      351
//
// So what the frontier holds per URL (about 22 bytes) and the crawler's
// per-page state (9 bytes) are small beside what a crawl of 1,000 hosts
// holds per host (about 15 KB: a kept-alive connection with net/http's
// two goroutines, their stacks and buffers, robots.txt rules, politeness
// state; the collector's headroom doubles the heap part) and the
// executable's pages. The commands: bench/run with SCENARIOS=C
// CRAWLERS=trawl MICRO=0 PROFILE=0 gives the peak RSS and the URLs
// known; bench/profile's TestCrawl with
// TRAWL_BENCH_MAX_PAGES=150000 TRAWL_BENCH_WORKERS=128
// TRAWL_BENCH_HOST_CONCURRENCY=1 TRAWL_BENCH_SPILL=1 and
// TRAWL_BENCH_HEAP=FILE crawls the same web in process, writes a heap
// profile (go tool pprof -sample_index=inuse_space -top) and logs the
// runtime's figures at the peak; see bench/README.md.
//
// # Concurrency
//
// Memory is safe for concurrent use. One mutex guards its state; the
// critical sections are short and allocation-free in the common case
// (fingerprints and host keys are computed before it is taken, and no one
// holds it while waiting). Next waits on a channel that Push and Done close
// when they change the state, and on a timer for the next host to become
// ready; the timer comes from politeness.Config.Clock, or the system clock,
// which is fake inside a testing/synctest bubble.
package frontier
